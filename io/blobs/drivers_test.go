package blobs

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gocloud.dev/blob"
	"gocloud.dev/blob/memblob"
)

// TestCloudSchemesReachTheirDrivers opens a gs://, s3:// and azblob:// bucket with
// settings that need no network at open time (anonymous GCS, a fixed AWS region and
// fake static keys, an Azure shared key): each must reach its driver, never
// "unknown scheme". Opening performs no request; nothing is read or written.
func TestCloudSchemesReachTheirDrivers(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "secret")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("AZURE_STORAGE_ACCOUNT", "transmutetest")
	t.Setenv("AZURE_STORAGE_KEY", "a2V5") // base64 "key"
	ctx := context.Background()
	for _, u := range []string{
		"gs://transmute-test-bucket/run?anonymous=true",
		"s3://transmute-test-bucket/run?region=us-east-1",
		"azblob://transmute-test-container/run",
	} {
		b, err := Open(ctx, u)
		if err != nil {
			if strings.Contains(err.Error(), "no driver registered") || strings.Contains(err.Error(), "unknown") {
				t.Fatalf("%s: scheme not registered: %v", u, err)
			}
			t.Fatalf("%s: driver refused offline settings: %v", u, err)
		}
		b.Close()
	}
	// An unregistered scheme still fails, so the check above can fail.
	if _, err := Open(ctx, "nosuch://bucket"); err == nil || !strings.Contains(err.Error(), "no driver registered") {
		t.Fatalf("nosuch://: got %v, want the no-driver error", err)
	}
}

func TestJoin(t *testing.T) {
	for _, c := range [][3]string{
		{"out/run", "_staging/r-1/", "out/run/_staging/r-1"},
		{"gs://b/prefix", "_staging/r-1/", "gs://b/prefix/_staging/r-1"},
		{"gs://b", "_staging/r-1/", "gs://b/_staging/r-1"},
		{"file:///tmp/o?metadata=skip", "_staging/x", "file:///tmp/o/_staging/x?metadata=skip"},
	} {
		got, err := Join(c[0], c[1])
		if err != nil || got != c[2] {
			t.Errorf("Join(%q, %q) = %q, %v; want %q", c[0], c[1], got, err, c[2])
		}
	}
	if d, ok := LocalDir("file:///tmp/o?metadata=skip"); !ok || d != "/tmp/o" {
		t.Errorf("LocalDir(file URL) = %q, %v", d, ok)
	}
	if _, ok := LocalDir("gs://b/p"); ok {
		t.Error("LocalDir(gs://) is local")
	}
}

// TestLocalPathWithURLCharacters writes through a local directory whose name holds
// "#", "?" and "%": the blob lands in that directory, not in one cut at the "#".
func TestLocalPathWithURLCharacters(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out#1?x=%20")
	ctx := context.Background()
	b, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.WriteAll(ctx, "t/part-0.parquet", []byte("x"), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "t", "part-0.parquet")); err != nil {
		t.Errorf("blob not under %s: %v", dir, err)
	}
	if d, ok := LocalDir(dir); !ok || d != dir {
		t.Errorf("LocalDir(%q) = %q, %v", dir, d, ok)
	}
}

func TestObjects(t *testing.T) {
	ctx := context.Background()
	b := memblob.OpenBucket(nil)
	defer b.Close()
	for _, k := range []string{"t/b", "t/a", "t/d/x", "u/c"} {
		if err := b.WriteAll(ctx, k, []byte(k), nil); err != nil {
			t.Fatal(err)
		}
	}
	list := func(opts *blob.ListOptions, most int) []string {
		var keys []string
		for obj, err := range Objects(ctx, b, opts) {
			if err != nil {
				t.Fatal(err)
			}
			keys = append(keys, obj.Key)
			if len(keys) == most {
				break
			}
		}
		return keys
	}
	if got := list(&blob.ListOptions{Prefix: "t/"}, -1); !slices.Equal(got, []string{"t/a", "t/b", "t/d/x"}) {
		t.Errorf("under t/: %v", got)
	}
	if got := list(&blob.ListOptions{Prefix: "t/", Delimiter: "/"}, -1); !slices.Equal(got, []string{"t/a", "t/b", "t/d/"}) {
		t.Errorf("under t/ by directory: %v", got)
	}
	if got := list(nil, 2); !slices.Equal(got, []string{"t/a", "t/b"}) {
		t.Errorf("the first two: %v", got)
	}
	// A listing error ends the sequence with it.
	closed := memblob.OpenBucket(nil)
	closed.Close()
	n, failed := 0, false
	for obj, err := range Objects(ctx, closed, nil) {
		n++
		failed = err != nil && obj == nil
	}
	if n != 1 || !failed {
		t.Errorf("listing a closed bucket gave %d pairs, the last an error: %v", n, failed)
	}
}
