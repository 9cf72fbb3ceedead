package sink

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/parquet-go/parquet-go"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

// A table written as it is computed: each bundle of a Write streams its rows into
// Parquet files of its own under <table>/_tmp/ (PartWriter), and once the runner has
// committed the bundle a final step moves each file to <table>/part-<name>.parquet
// (Commit). A failed or retried bundle's files stay under _tmp/, are never named by
// a committed bundle, and go with the staging directory.

// RowGroupRows is how many rows a PartWriter buffers before writing them out as a
// Parquet row group: the writer's memory is one row group of one file.
const RowGroupRows = 2048

// PageBufferBytes is the size of a PartWriter's in-memory page buffer per column
// (parquet-go's default is 256 KiB). A bundle keeps a writer per table open, each
// with a buffer per column, and a runner runs several bundles at once: at 8x the
// bundled corpus these buffers were three quarters of the launcher's live heap
// (docs/runs/2026-11-26-score-combine-rss.md).
const PageBufferBytes = 32 * 1024

// NewPartName names a bundle's files: random, so that parallel and retried bundles
// never write the same key.
func NewPartName() string { return randHex(8) }

// TempKey is the key the file name of table is written under before its commit.
func TempKey(table, name string) string { return table + "/_tmp/" + name + ".parquet" }

// PartKey is the key of a committed file: a shard of the table.
func PartKey(table, name string) string { return table + "/part-" + name + ".parquet" }

// PartWriter streams rows into one Parquet file at TempKey(table, name).
type PartWriter[T any] struct {
	Key  string
	Rows int64

	cancel context.CancelFunc
	w      *blob.Writer
	pw     *parquet.GenericWriter[T]
	one    [1]T
	// nan: the leaf columns whose NaN is written as NULL (nan.go); nil when none.
	nan map[int]bool
}

// NewPartWriter starts the file; rows are flushed as row groups of rowGroupRows.
func NewPartWriter[T any](b *blob.Bucket, table, name string, rowGroupRows int) (*PartWriter[T], error) {
	ctx, cancel := context.WithCancel(context.Background()) // cancelled: the write is aborted
	key := TempKey(table, name)
	w, err := b.NewWriter(ctx, key, &blob.WriterOptions{ContentType: "application/vnd.apache.parquet"})
	if err != nil {
		cancel()
		return nil, fmt.Errorf("sink: write %s: %w", key, err)
	}
	pw := parquet.NewGenericWriter[T](w, append(metadata(), parquet.Compression(&parquet.Snappy), parquet.MaxRowsPerRowGroup(int64(max(rowGroupRows, 1))),
		parquet.PageBufferSize(PageBufferBytes))...)
	p := &PartWriter[T]{Key: key, cancel: cancel, w: w, pw: pw}
	if cols := nanColumnsOf[T](); len(cols) > 0 {
		p.nan = leafIndexes(pw.Schema(), cols)
	}
	return p, nil
}

// Write appends one row.
func (p *PartWriter[T]) Write(r T) error {
	var err error
	if p.nan != nil {
		row := p.pw.Schema().Deconstruct(nil, r)
		nanToNull(row, p.nan)
		_, err = p.pw.WriteRows([]parquet.Row{row})
	} else {
		p.one[0] = r
		_, err = p.pw.Write(p.one[:])
		p.one[0] = *new(T)
	}
	if err != nil {
		return fmt.Errorf("sink: write %s: %w", p.Key, err)
	}
	p.Rows++
	return nil
}

// Close writes the footer and closes the file.
func (p *PartWriter[T]) Close() error {
	defer p.cancel()
	if err := p.pw.Close(); err != nil {
		p.cancel()
		p.w.Close()
		return fmt.Errorf("sink: write %s: %w", p.Key, err)
	}
	if err := p.w.Close(); err != nil {
		return fmt.Errorf("sink: write %s: %w", p.Key, err)
	}
	return nil
}

// Abort drops the file (nothing is written, or what was is left under _tmp/).
func (p *PartWriter[T]) Abort() {
	p.cancel()
	p.w.Close()
}

// Commit moves a file written at TempKey to its PartKey. It may be repeated: a file
// already committed is left as it is.
func Commit(ctx context.Context, b *blob.Bucket, tempKey string) (string, error) {
	dir, file := path.Split(tempKey)
	table, ok := strings.CutSuffix(dir, "/_tmp/")
	name, ok2 := strings.CutSuffix(file, ".parquet")
	if !ok || !ok2 || table == "" {
		return "", fmt.Errorf("sink: commit %s: not a temporary part key", tempKey)
	}
	key := PartKey(table, name)
	done, err := b.Exists(ctx, key)
	if err != nil {
		return "", fmt.Errorf("sink: commit %s: %w", key, err)
	}
	if !done {
		if err := b.Copy(ctx, key, tempKey, nil); err != nil {
			return "", fmt.Errorf("sink: commit %s: %w", key, err)
		}
	}
	if err := b.Delete(ctx, tempKey); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		return "", fmt.Errorf("sink: commit %s: %w", key, err)
	}
	return key, nil
}
