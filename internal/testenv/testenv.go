// Package testenv locates, for the project's tests and benchmarks, the module root
// and the real corpora of ../shared/corpora beside it, which a fresh checkout does
// not have: tests that need them skip.
package testenv

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// ModuleRoot is the directory holding go.mod, found walking up from the working
// directory (a test's package directory).
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found above the working directory")
		}
		dir = parent
	}
}

// Root is ModuleRoot for a test, which fails when there is none.
func Root(tb testing.TB) string {
	tb.Helper()
	dir, err := ModuleRoot()
	if err != nil {
		tb.Fatal(err)
	}
	return dir
}

// CorporaDir is ../shared/corpora beside the module root (it may not exist).
func CorporaDir() (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "..", "shared", "corpora"), nil
}

// SharedCorpora returns ../shared/corpora beside the module root when it holds rel
// (a path under it; "" for the folder itself), and skips the test otherwise.
func SharedCorpora(tb testing.TB, rel string) string {
	tb.Helper()
	c, err := CorporaDir()
	if err != nil {
		tb.Skipf("cannot locate ../shared/corpora: %v", err)
	}
	if _, err := os.Stat(filepath.Join(c, rel)); err != nil {
		tb.Skipf("shared corpora not found (%v): a fresh checkout does not have them; skipping real-data test", err)
	}
	return c
}
