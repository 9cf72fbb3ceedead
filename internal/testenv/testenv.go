// Package testenv locates, for the project's tests and benchmarks, the module root
// and the real corpora of ../shared/corpora beside it, which a fresh checkout does
// not have: tests that need them skip.
package testenv

import (
	"errors"
	"fmt"
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

// WithDir wraps m (a *testing.M) so that its Run first sets *dir to a new
// directory (os.MkdirTemp("", pattern), mode 0755 so sandboxed programs may read
// it) and removes it after the tests: a directory every test of the binary
// shares, such as the engines' WorkDir.
func WithDir(m interface{ Run() int }, pattern string, dir *string) interface{ Run() int } {
	return dirRun{m, pattern, dir}
}

type dirRun struct {
	m       interface{ Run() int }
	pattern string
	dir     *string
}

func (d dirRun) Run() int {
	dir, err := os.MkdirTemp("", d.pattern)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	*d.dir = dir
	return d.m.Run()
}
