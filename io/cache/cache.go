// Package cache is a persistent key-value cache over a gocloud.dev/blob bucket (a
// local directory by default, or gs://, s3://...). Keys are hashes of what
// determines a result (translator, model, parameters, prompt, sample), so reruns and
// retried bundles never pay twice for the same LLM answer (NOMOS, section 3.2).
package cache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sync/atomic"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"transmute/io/blobs"
)

// Cache stores JSON values under content keys.
type Cache struct {
	bucket       *blob.Bucket
	prefix       string
	hits, misses atomic.Int64
}

// Open opens a cache at a directory path or bucket URL; prefix namespaces the keys.
func Open(ctx context.Context, pathOrURL, prefix string) (*Cache, error) {
	b, err := blobs.Open(ctx, pathOrURL)
	if err != nil {
		return nil, err
	}
	return &Cache{bucket: b, prefix: prefix}, nil
}

// New wraps an open bucket (tests use memblob).
func New(b *blob.Bucket, prefix string) *Cache { return &Cache{bucket: b, prefix: prefix} }

// Key hashes the JSON encoding of parts.
func Key(parts ...any) string {
	h := sha256.New()
	enc := json.NewEncoder(h)
	for _, p := range parts {
		_ = enc.Encode(p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (c *Cache) path(key string) string {
	return c.prefix + "/" + key[:2] + "/" + key + ".json"
}

// Get loads the value stored under key into v; ok is false on a miss.
func (c *Cache) Get(ctx context.Context, key string, v any) (bool, error) {
	data, err := c.bucket.ReadAll(ctx, c.path(key))
	if err != nil {
		if gcerrors.Code(err) == gcerrors.NotFound {
			c.misses.Add(1)
			return false, nil
		}
		return false, err
	}
	if err := json.Unmarshal(data, v); err != nil {
		// A corrupt entry is a miss; it will be overwritten.
		c.misses.Add(1)
		return false, nil
	}
	c.hits.Add(1)
	return true, nil
}

// Put stores v under key (atomically: the bucket writes then renames or commits).
func (c *Cache) Put(ctx context.Context, key string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return c.bucket.WriteAll(ctx, c.path(key), data, &blob.WriterOptions{ContentType: "application/json"})
}

// Stats returns the hit and miss counts so far.
func (c *Cache) Stats() (hits, misses int64) { return c.hits.Load(), c.misses.Load() }

// Close closes the bucket.
func (c *Cache) Close() error {
	if c == nil || c.bucket == nil {
		return nil
	}
	return c.bucket.Close()
}

// ErrClosed is returned by a closed cache.
var ErrClosed = errors.New("cache: closed")
