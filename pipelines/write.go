package pipelines

import (
	"context"
	"fmt"
	"hash/fnv"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"gocloud.dev/blob"

	"transmute/io/blobs"
	"transmute/io/sink"
	"transmute/schemas"
)

// Row is a table row with a deterministic shard key.
type Row interface {
	ShardKey() string
}

// shardFn keys rows by a hash of their shard key.
type shardFn[T Row] struct {
	Shards int
}

func (f *shardFn[T]) ProcessElement(r T) (int, T) {
	h := fnv.New32a()
	h.Write([]byte(r.ShardKey()))
	return int(h.Sum32() % uint32(max(f.Shards, 1))), r
}

// writeFn writes the rows of one shard as one Parquet file.
type writeFn[T Row] struct {
	Output string
	Table  string

	bucket *blob.Bucket
}

func (f *writeFn[T]) Setup(ctx context.Context) error {
	b, err := blobs.Open(ctx, f.Output)
	if err != nil {
		return err
	}
	f.bucket = b
	return nil
}

func (f *writeFn[T]) Teardown() error {
	if f.bucket != nil {
		return f.bucket.Close()
	}
	return nil
}

func (f *writeFn[T]) ProcessElement(ctx context.Context, shard int, rows func(*T) bool) error {
	var all []T
	var r T
	for rows(&r) {
		all = append(all, r)
		r = *new(T)
	}
	if _, err := sink.WriteShard(ctx, f.bucket, f.Table, all); err != nil {
		return fmt.Errorf("write %s shard %d: %w", f.Table, shard, err)
	}
	PauseAt("write")
	return nil
}

func registerTable[T Row]() {
	// By reflection, not register.DoFn*: those generics instantiate Beam's bundle-method
	// wrappers per row type, and with a dozen tables compiling this package took 9 GB
	// and 149 s (191 MB and 2.3 s like this). The table DoFns run once per row, where
	// a reflective call is noise next to the Parquet encoding.
	beam.RegisterType(reflect.TypeOf((*shardFn[T])(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*writeFn[T])(nil)).Elem())
	register.Iter1[T]()
	beam.RegisterType(reflect.TypeOf((*T)(nil)).Elem())
}

func init() {
	registerTable[schemas.Problem]()
	registerTable[schemas.TranslationRow]()
	registerTable[schemas.ExecutionRow]()
	registerTable[schemas.ResultRow]()
	registerTable[schemas.ScoreRow]()
	registerTable[schemas.ErrorRow]()
	registerTable[schemas.FidelityRow]()
}

// writeTable writes col as Parquet shards under <output>/<table>/.
func writeTable[T Row](s beam.Scope, output, table string, shards int, col beam.PCollection) {
	s = s.Scope("Write_" + table)
	keyed := beam.ParDo(s, &shardFn[T]{Shards: shards}, col)
	grouped := beam.GroupByKey(s, keyed)
	beam.ParDo0(s, &writeFn[T]{Output: output, Table: table}, grouped)
}
