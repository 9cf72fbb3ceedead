package pipelines

import (
	"context"
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"gocloud.dev/blob"

	"transmute/io/blobs"
	"transmute/io/sink"
	"transmute/schemas"
)

// Row is a table row: a struct of schemas with parquet tags.
type Row = any

// DefaultRowsPerFile is the default of Config.RowsPerFile: at most this many rows per
// Parquet file (a bundle of a Write starts a new file past it).
const DefaultRowsPerFile = 50000

// writeFn streams the rows of a bundle into Parquet files of its own (sink.PartWriter:
// a row group every sink.RowGroupRows rows, a new file past MaxRows rows) and emits
// the temporary key of each file it closes. The keys reach commitFn only if the
// runner commits the bundle, so a failed or retried bundle's files are never
// published. It runs fused with the stage that computes the rows: no row waits for
// the rest of its table.
type writeFn[T Row] struct {
	Output  string
	Table   string
	MaxRows int

	bucket *blob.Bucket
	name   string
	seq    int
	cur    *sink.PartWriter[T]
}

func (f *writeFn[T]) Setup(ctx context.Context) error {
	b, err := blobs.Open(ctx, f.Output)
	if err != nil {
		return err
	}
	f.bucket = b
	return nil
}

func (f *writeFn[T]) StartBundle(_ context.Context, _ func(string)) {
	f.abort()
	f.name = sink.NewPartName() // a new name per bundle: parallel and retried bundles never share a key
	f.seq = 0
}

func (f *writeFn[T]) ProcessElement(r T, emit func(string)) error {
	if f.cur == nil {
		w, err := sink.NewPartWriter[T](f.bucket, f.Table, fmt.Sprintf("%s-%04d", f.name, f.seq), sink.RowGroupRows)
		if err != nil {
			return err
		}
		f.cur, f.seq = w, f.seq+1
	}
	if err := f.cur.Write(r); err != nil {
		return err
	}
	if f.cur.Rows >= int64(max(f.MaxRows, 1)) {
		return f.close(emit)
	}
	return nil
}

func (f *writeFn[T]) FinishBundle(_ context.Context, emit func(string)) error {
	return f.close(emit)
}

func (f *writeFn[T]) close(emit func(string)) error {
	if f.cur == nil {
		return nil
	}
	w := f.cur
	f.cur = nil
	if err := w.Close(); err != nil {
		return err
	}
	emit(w.Key)
	PauseAt("write")
	return nil
}

func (f *writeFn[T]) abort() {
	if f.cur != nil { // a bundle that failed: its file is left under _tmp/
		f.cur.Abort()
		f.cur = nil
	}
}

func (f *writeFn[T]) Teardown() error {
	f.abort()
	if f.bucket != nil {
		return f.bucket.Close()
	}
	return nil
}

// commitFn moves the files of committed bundles to their shard keys (sink.Commit).
// A retry repeats what is done harmlessly.
type commitFn struct {
	Output string

	bucket *blob.Bucket
}

func (f *commitFn) Setup(ctx context.Context) error {
	b, err := blobs.Open(ctx, f.Output)
	if err != nil {
		return err
	}
	f.bucket = b
	return nil
}

func (f *commitFn) Teardown() error {
	if f.bucket != nil {
		return f.bucket.Close()
	}
	return nil
}

func (f *commitFn) ProcessElement(ctx context.Context, _ int, keys func(*string) bool) error {
	var k string
	for keys(&k) {
		if _, err := sink.Commit(ctx, f.bucket, k); err != nil {
			return err
		}
	}
	return nil
}

func registerTable[T Row]() {
	// By reflection, not register.DoFn*: those generics instantiate Beam's bundle-method
	// wrappers per row type, and with a dozen tables compiling this package took 9 GB
	// and 149 s (191 MB and 2.3 s like this). The table DoFns run once per row, where
	// a reflective call is noise next to the Parquet encoding.
	beam.RegisterType(reflect.TypeOf((*writeFn[T])(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*T)(nil)).Elem())
}

func init() {
	beam.RegisterType(reflect.TypeOf((*commitFn)(nil)).Elem())
	register.Emitter1[string]()
	register.Iter1[string]()
	registerTable[schemas.Problem]()
	registerTable[schemas.TranslationRow]()
	registerTable[schemas.ExecutionRow]()
	registerTable[schemas.ResultRow]()
	registerTable[schemas.ScoreRow]()
	registerTable[schemas.ErrorRow]()
	registerTable[schemas.FidelityRow]()
	registerTable[schemas.VerdictRow]()
}

// writeTable writes col as Parquet files under <output>/<table>/part-*.parquet: each
// bundle of col's stage writes its rows as they come (no GroupByKey: a table is never
// held in memory), at most maxRows rows per file (Config.RowsPerFile), and only the files
// of the bundles the runner committed are moved to their part-* keys, after a
// GroupByKey of their names (one small element per file). A table with no rows has
// no file; Finish writes it empty.
func writeTable[T Row](s beam.Scope, output, table string, maxRows int, col beam.PCollection) {
	s = s.Scope("Write_" + table)
	temps := beam.ParDo(s, &writeFn[T]{Output: output, Table: table, MaxRows: maxRows}, col)
	beam.ParDo0(s.Scope("Commit"), &commitFn{Output: output}, beam.GroupByKey(s, beam.AddFixedKey(s, temps)))
}
