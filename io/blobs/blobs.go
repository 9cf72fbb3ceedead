// Package blobs opens gocloud.dev/blob buckets from URLs or plain local paths, so that
// every input and output of Transmute can live on a local disk, in memory, or in
// cloud storage (gs://, s3://, azblob://) alike.
package blobs

import (
	"context"
	"fmt"
	"io"
	"iter"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"gocloud.dev/blob"
	_ "gocloud.dev/blob/fileblob" // file://
	_ "gocloud.dev/blob/memblob"  // mem://
)

// URL turns a plain path into a fileblob URL (metadata=skip so no .attrs side files
// are written; create_dir so an output directory may not exist yet; no_tmp_dir so a
// write is renamed into place from beside it, which works when the output is another
// file system or mount than the temp directory, as for a worker in a container) and
// leaves real URLs as they are.
func URL(pathOrURL string) (string, error) {
	if strings.Contains(pathOrURL, "://") {
		return pathOrURL, nil
	}
	abs, err := filepath.Abs(pathOrURL)
	if err != nil {
		return "", err
	}
	// url.URL escapes what a path may hold and a URL may not ("#", "?", "%"), so a
	// directory named "a#b" is not cut at the "#".
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: "metadata=skip&create_dir=true&no_tmp_dir=true"}
	return u.String(), nil
}

// Open opens a bucket from a URL or a local directory path. For cloud URLs a path
// after the bucket name ("gs://bucket/some/prefix") becomes a key prefix.
func Open(ctx context.Context, pathOrURL string) (*blob.Bucket, error) {
	u, err := URL(pathOrURL)
	if err != nil {
		return nil, err
	}
	pu, err := url.Parse(u)
	if err != nil {
		return nil, fmt.Errorf("blobs: bad URL %q: %w", u, err)
	}
	if pu.Scheme == "file" {
		q := pu.Query()
		if q.Get("metadata") == "" {
			q.Set("metadata", "skip")
		}
		if q.Get("create_dir") == "" {
			q.Set("create_dir", "true")
		}
		if q.Get("no_tmp_dir") == "" {
			q.Set("no_tmp_dir", "true")
		}
		pu.RawQuery = q.Encode()
		if err := os.MkdirAll(pu.Path, 0o755); err != nil {
			return nil, fmt.Errorf("blobs: %w", err)
		}
		return blob.OpenBucket(ctx, pu.String())
	}
	prefix := strings.TrimPrefix(pu.Path, "/")
	pu.Path = ""
	b, err := blob.OpenBucket(ctx, pu.String())
	if err != nil {
		return nil, fmt.Errorf("blobs: open %q: %w", u, err)
	}
	if prefix != "" {
		if !strings.HasSuffix(prefix, "/") {
			prefix += "/"
		}
		b = blob.PrefixedBucket(b, prefix)
	}
	return b, nil
}

// Join names the directory sub under an output given as a path or URL (a run's
// staging directory), keeping a URL's query options.
func Join(pathOrURL, sub string) (string, error) {
	if !strings.Contains(pathOrURL, "://") {
		return filepath.Join(pathOrURL, filepath.FromSlash(sub)), nil
	}
	pu, err := url.Parse(pathOrURL)
	if err != nil {
		return "", fmt.Errorf("blobs: bad URL %q: %w", pathOrURL, err)
	}
	pu.Path = strings.TrimRight(pu.Path, "/") + "/" + strings.Trim(sub, "/")
	pu.RawPath = ""
	return pu.String(), nil
}

// LocalDir is the directory of a local output (a path or file:// URL); ok is false
// for other schemes. Deleting blobs leaves a local disk's empty directories behind;
// the caller removes them with it.
func LocalDir(pathOrURL string) (dir string, ok bool) {
	u, err := URL(pathOrURL)
	if err != nil {
		return "", false
	}
	pu, err := url.Parse(u)
	if err != nil || pu.Scheme != "file" {
		return "", false
	}
	return filepath.FromSlash(pu.Path), true
}

// Objects lists the objects of b that opts selects (nil: all), in the bucket's
// order. A listing error is the last pair, with a nil object.
func Objects(ctx context.Context, b *blob.Bucket, opts *blob.ListOptions) iter.Seq2[*blob.ListObject, error] {
	return func(yield func(*blob.ListObject, error) bool) {
		it := b.List(opts)
		for {
			obj, err := it.Next(ctx)
			if err == io.EOF {
				return
			}
			if !yield(obj, err) || err != nil {
				return
			}
		}
	}
}
