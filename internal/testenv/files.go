package testenv

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"gocloud.dev/blob"
	"gocloud.dev/blob/memblob"
)

// MemBucket is an in-memory bucket holding files (key to content), closed when
// the test ends.
func MemBucket(tb testing.TB, files map[string]string) *blob.Bucket {
	tb.Helper()
	b := memblob.OpenBucket(nil)
	tb.Cleanup(func() { b.Close() })
	for k, v := range files {
		if err := b.WriteAll(context.Background(), k, []byte(v), nil); err != nil {
			tb.Fatal(err)
		}
	}
	return b
}

// WriteTree writes files (slash-separated path to content) under a new
// temporary directory and returns it.
func WriteTree(tb testing.TB, files map[string]string) string {
	tb.Helper()
	dir := tb.TempDir()
	for k, v := range files {
		p := filepath.Join(dir, filepath.FromSlash(k))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(v), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}
