// Package sink writes Transmute's tables: each table a directory of Parquet shards
// under an output bucket, plus a run manifest. A shard is written under a temporary
// key and then copied to a name derived from its content, so a retried bundle that
// writes the same rows again replaces the same file instead of adding a duplicate.
package sink

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/parquet-go/parquet-go"
	"gocloud.dev/blob"
)

// Encode serializes rows to Parquet bytes with parquet-go's generic typed writer
// (schema from the struct's parquet tags, Snappy compression).
func Encode[T any](rows []T) ([]byte, error) {
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf, parquet.Compression(&parquet.Snappy))
	if _, err := w.Write(rows); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteShard writes rows as one shard of table: <table>/part-<sha256 of content>.parquet.
// It returns the key written. Rows of an empty shard are still written (an empty
// table must exist with its schema).
func WriteShard[T any](ctx context.Context, b *blob.Bucket, table string, rows []T) (string, error) {
	data, err := Encode(rows)
	if err != nil {
		return "", fmt.Errorf("sink: encode %s: %w", table, err)
	}
	sum := sha256.Sum256(data)
	key := fmt.Sprintf("%s/part-%s.parquet", table, hex.EncodeToString(sum[:12]))
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	tmp := fmt.Sprintf("%s/_tmp/%s.parquet", table, hex.EncodeToString(rnd[:]))
	if err := b.WriteAll(ctx, tmp, data, &blob.WriterOptions{ContentType: "application/vnd.apache.parquet"}); err != nil {
		return "", fmt.Errorf("sink: write %s: %w", tmp, err)
	}
	if err := b.Copy(ctx, key, tmp, nil); err != nil {
		return "", fmt.Errorf("sink: commit %s: %w", key, err)
	}
	if err := b.Delete(ctx, tmp); err != nil {
		return "", fmt.Errorf("sink: clean %s: %w", tmp, err)
	}
	return key, nil
}

// Read reads every shard of a table back (for tests and the summary printer).
func Read[T any](ctx context.Context, b *blob.Bucket, table string) ([]T, error) {
	var out []T
	it := b.List(&blob.ListOptions{Prefix: table + "/part-"})
	for {
		obj, err := it.Next(ctx)
		if err != nil {
			break
		}
		data, err := b.ReadAll(ctx, obj.Key)
		if err != nil {
			return nil, err
		}
		rows, err := parquet.Read[T](bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil, fmt.Errorf("sink: read %s: %w", obj.Key, err)
		}
		out = append(out, rows...)
	}
	return out, nil
}

// Clear deletes every shard of a table (a fresh run into an old output directory).
func Clear(ctx context.Context, b *blob.Bucket, table string) error {
	it := b.List(&blob.ListOptions{Prefix: table + "/"})
	for {
		obj, err := it.Next(ctx)
		if err != nil {
			return nil
		}
		if err := b.Delete(ctx, obj.Key); err != nil {
			return err
		}
	}
}
