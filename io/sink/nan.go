package sink

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"sync"

	"github.com/parquet-go/parquet-go"
)

// A float64 column tagged optional holds NULL where the value is NaN (undefined: a
// correlation of constant series, a CA of no test) and 0 where it is 0; in Go the
// field stays a float64 and reads back NaN. parquet-go alone would write the zero
// value as NULL, so rows of a type with such columns are written and read through
// these row patches.

// nanColumns are the names of T's optional, non-pointer float64 columns.
func nanColumns(t reflect.Type) map[string]bool {
	cols := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := strings.Split(f.Tag.Get("parquet"), ",")
		if f.Type.Kind() == reflect.Float64 && len(tag) > 1 && tag[0] != "" && tag[0] != "-" {
			for _, o := range tag[1:] {
				if o == "optional" {
					cols[tag[0]] = true
				}
			}
		}
	}
	return cols
}

var nanCache sync.Map // reflect.Type -> map[string]bool

func nanColumnsOf[T any]() map[string]bool {
	t := reflect.TypeOf((*T)(nil)).Elem()
	if t.Kind() != reflect.Struct {
		return nil
	}
	if c, ok := nanCache.Load(t); ok {
		return c.(map[string]bool)
	}
	c := nanColumns(t)
	nanCache.Store(t, c)
	return c
}

// leafIndexes maps the named top-level columns of schema to their leaf indexes.
func leafIndexes(schema *parquet.Schema, names map[string]bool) map[int]bool {
	idx := map[int]bool{}
	for name := range names {
		if leaf, ok := schema.Lookup(name); ok {
			idx[leaf.ColumnIndex] = true
		}
	}
	return idx
}

// nanToNull patches a deconstructed row: in the columns cols, a NULL (the zero
// value, as parquet-go writes an optional non-pointer field) becomes 0 and a NaN
// becomes NULL.
func nanToNull(row parquet.Row, cols map[int]bool) {
	for i, v := range row {
		c := v.Column()
		if !cols[c] {
			continue
		}
		switch {
		case v.IsNull():
			row[i] = parquet.ValueOf(0.0).Level(v.RepetitionLevel(), v.DefinitionLevel()+1, c)
		case math.IsNaN(v.Double()):
			row[i] = parquet.NullValue().Level(v.RepetitionLevel(), v.DefinitionLevel()-1, c)
		}
	}
}

// nullToNaN is the reverse, on a row read from a file: a NULL becomes NaN.
func nullToNaN(row parquet.Row, cols map[int]bool) {
	for i, v := range row {
		if c := v.Column(); cols[c] && v.IsNull() {
			row[i] = parquet.ValueOf(math.NaN()).Level(v.RepetitionLevel(), v.DefinitionLevel()+1, c)
		}
	}
}

// readRows decodes a Parquet file into T, NULLs of T's NaN columns read as NaN. A
// file of another layout (written before the columns were optional, where NaN is
// stored as NaN) is read by parquet-go's conversion, as before.
func readRows[T any](data []byte) ([]T, error) {
	cols := nanColumnsOf[T]()
	schema := parquet.SchemaOf(new(T))
	if len(cols) == 0 {
		return parquet.Read[T](bytes.NewReader(data), int64(len(data)))
	}
	r := parquet.NewReader(bytes.NewReader(data))
	defer r.Close()
	if !parquet.EqualNodes(r.Schema(), schema) {
		return parquet.Read[T](bytes.NewReader(data), int64(len(data)))
	}
	idx := leafIndexes(schema, cols)
	out := make([]T, 0, r.NumRows())
	rows := make([]parquet.Row, 64)
	for {
		n, err := r.ReadRows(rows)
		for _, row := range rows[:n] {
			nullToNaN(row, idx)
			var v T
			if err := schema.Reconstruct(&v, row); err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		if err != nil {
			if err == ioEOF {
				return out, nil
			}
			return nil, err
		}
	}
}
