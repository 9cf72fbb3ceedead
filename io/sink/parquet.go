// Package sink writes Transmute's tables: each table a directory of Parquet shards
// under an output bucket, plus a run manifest. The pipelines stream a bundle's rows
// into files of its own (PartWriter) and commit the files of committed bundles
// (Commit); WriteShard writes a whole shard at once under a name derived from its
// content (the empty tables, tests).
package sink

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/parquet-go/parquet-go"
	"gocloud.dev/blob"

	"transmute/internal/version"
	"transmute/schemas"
)

// Build is the version and commit of the running binary (internal/version): Commit
// carries "-dirty" when Go's stamp says the tree was modified, and is "unknown" when
// neither the stamp nor the Makefile's -ldflags commit is there (go test, go run).
type Build struct {
	Version, Commit string
}

// BuildInfo reads the binary's Build once.
var BuildInfo = sync.OnceValue(func() Build {
	v := version.Get()
	b := Build{Version: v.Module, Commit: v.Commit}
	if b.Commit == "" {
		b.Commit = "unknown"
	} else if v.Modified {
		b.Commit += "-dirty"
	}
	return b
})

// metadata is the key-value metadata of every file: the schema version and the
// binary's version and commit (schemas.MetaSchemaVersion...).
func metadata() []parquet.WriterOption {
	b := BuildInfo()
	return []parquet.WriterOption{
		parquet.KeyValueMetadata(schemas.MetaSchemaVersion, schemas.SchemaVersion),
		parquet.KeyValueMetadata(schemas.MetaVersion, b.Version),
		parquet.KeyValueMetadata(schemas.MetaCommit, b.Commit),
	}
}

// Encode serializes rows to Parquet bytes with parquet-go's generic typed writer
// (schema from the struct's parquet tags, Snappy compression, the metadata).
func Encode[T any](rows []T) ([]byte, error) {
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf, append(metadata(), parquet.Compression(&parquet.Snappy))...)
	if cols := nanColumnsOf[T](); len(cols) > 0 {
		idx := leafIndexes(w.Schema(), cols)
		for _, r := range rows {
			row := w.Schema().Deconstruct(nil, r)
			nanToNull(row, idx)
			if _, err := w.WriteRows([]parquet.Row{row}); err != nil {
				return nil, err
			}
		}
	} else if _, err := w.Write(rows); err != nil {
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
	tmp := fmt.Sprintf("%s/_tmp/%s.parquet", table, randHex(8))
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

// Read reads every shard of a table back (for tests and the summary printers). When
// the bucket holds a manifest.json naming the table's shards, exactly those are read:
// a publish in progress or cut short then still shows one whole run.
func Read[T any](ctx context.Context, b *blob.Bucket, table string) ([]T, error) {
	keys, err := Shards(ctx, b, table)
	if err != nil {
		return nil, err
	}
	var out []T
	for _, k := range keys {
		data, err := b.ReadAll(ctx, k)
		if err != nil {
			return nil, fmt.Errorf("sink: read %s: %w", k, err)
		}
		rows, err := readRows[T](data)
		if err != nil {
			return nil, fmt.Errorf("sink: read %s: %w", k, err)
		}
		out = append(out, rows...)
	}
	return out, nil
}

// Shards lists the keys of a table's shards: those the manifest names when it names
// any for the table, else every <table>/part-* key.
func Shards(ctx context.Context, b *blob.Bucket, table string) ([]string, error) {
	raw, err := b.ReadAll(ctx, ManifestKey)
	if err == nil {
		var m stagedManifest
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("sink: %s: %w", ManifestKey, err)
		}
		if keys, ok := m.Shards[table]; ok {
			return keys, nil
		}
	}
	return ListShards(ctx, b, table)
}

// ListShards lists every <table>/part-* key; a listing error is returned, never
// taken for the end of the table.
func ListShards(ctx context.Context, b *blob.Bucket, table string) ([]string, error) {
	var keys []string
	it := b.List(&blob.ListOptions{Prefix: table + "/part-"})
	for {
		obj, err := it.Next(ctx)
		if errors.Is(err, io.EOF) {
			return keys, nil
		}
		if err != nil {
			return nil, fmt.Errorf("sink: list %s: %w", table, err)
		}
		if strings.HasSuffix(obj.Key, ".tmp") { // a write in progress beside its shard (blobs: no_tmp_dir)
			continue
		}
		keys = append(keys, obj.Key)
	}
}

// Clear deletes every shard of a table.
func Clear(ctx context.Context, b *blob.Bucket, table string) error {
	return deletePrefix(ctx, b, table+"/")
}

var ioEOF = io.EOF

func randHex(n int) string {
	buf := make([]byte, n)
	_, _ = rand.Read(buf)
	return hex.EncodeToString(buf)
}
