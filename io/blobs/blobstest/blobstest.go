// Package blobstest opens buckets for tests.
package blobstest

import (
	"context"
	"testing"

	"gocloud.dev/blob"

	"transmute/io/blobs"
)

// Open opens the bucket at pathOrURL (blobs.Open), failing the test when it
// cannot, and closes it when the test ends.
func Open(tb testing.TB, pathOrURL string) *blob.Bucket {
	tb.Helper()
	b, err := blobs.Open(context.Background(), pathOrURL)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { b.Close() })
	return b
}
