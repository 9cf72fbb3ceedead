package sink

import (
	"bytes"
	"context"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/parquet-go/parquet-go"
	"gocloud.dev/blob"
	"gocloud.dev/blob/memblob"

	"transmute/schemas"
)

// TestWarehouseLayout: a file written by a PartWriter carries the schema version and
// the binary's version and commit in its key-value metadata; an absent value is a
// NULL (not "") in the file and reads back as the zero value; low-cardinality
// string columns are dictionary-encoded and the others plain, never
// DELTA_LENGTH_BYTE_ARRAY (which Spark's vectorized reader took only from 3.4).
func TestWarehouseLayout(t *testing.T) {
	ctx := context.Background()
	b := memblob.OpenBucket(nil)
	defer b.Close()
	one := int32(1)
	rows := []schemas.ExecutionRow{
		{Run: "r", ProblemID: "P", ProgramID: "gold/java", Role: "gold", Lang: "java", Status: "ok", TestStatus: "ok", Output: "1"},
		{Run: "r", ProblemID: "P", ProgramID: "tr/m/java-python/1", Role: "translation", Translator: "m", Lang: "python",
			Status: "runtime_error", TestStatus: "runtime_error", Error: "boom", SrcLang: "java", TgtLang: "python", Sample: &one},
	}
	w := writePart(t, b, "executions", rows)
	data, err := b.ReadAll(ctx, w.Key)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := f.Lookup(schemas.MetaSchemaVersion); !ok || v != schemas.SchemaVersion {
		t.Errorf("schema version %q (%v)", v, ok)
	}
	for _, k := range []string{schemas.MetaVersion, schemas.MetaCommit} {
		if v, ok := f.Lookup(k); !ok || v == "" {
			t.Errorf("%s %q (%v)", k, v, ok)
		}
	}
	// NULLs per column, from the column chunks' statistics and the pages.
	nulls := map[string]int64{}
	encodings := map[string][]string{}
	for _, c := range f.Metadata().RowGroups[0].Columns {
		name := c.MetaData.PathInSchema[0]
		for _, e := range c.MetaData.Encoding {
			encodings[name] = append(encodings[name], e.String())
		}
	}
	for i, cc := range f.RowGroups()[0].ColumnChunks() {
		pages := cc.Pages()
		for {
			p, err := pages.ReadPage()
			if err != nil {
				break
			}
			nulls[f.Schema().Columns()[i][0]] += p.NumNulls()
		}
		pages.Close()
	}
	for col, want := range map[string]int64{"translator": 1, "src_lang": 1, "tgt_lang": 1, "sample": 1, "output": 1, "error": 1, "lang": 0, "program_id": 0} {
		if nulls[col] != want {
			t.Errorf("column %s: %d NULLs, want %d", col, nulls[col], want)
		}
	}
	for col, want := range map[string]string{"run": "RLE_DICTIONARY", "status": "RLE_DICTIONARY", "translator": "RLE_DICTIONARY", "output": "PLAIN", "error": "PLAIN"} {
		if !slices.Contains(encodings[col], want) || slices.Contains(encodings[col], "DELTA_LENGTH_BYTE_ARRAY") {
			t.Errorf("column %s: encodings %v, want %s", col, encodings[col], want)
		}
	}
	got, err := parquet.Read[schemas.ExecutionRow](bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, rows) {
		t.Errorf("read back %+v\nwant %+v", got, rows)
	}
}

// TestNaNIsNull: an undefined score (NaN) is a NULL in the file, so that DuckDB's
// avg skips it and IS NULL finds it, while 0 stays 0; sink.Read gives NaN back, and
// a file of an earlier schema (a required value column) reads as it did.
func TestNaNIsNull(t *testing.T) {
	ctx := context.Background()
	b := memblob.OpenBucket(nil)
	defer b.Close()
	rows := []schemas.ScoreRow{{Run: "r", Metric: "ca_std", Value: math.NaN()}, {Run: "r", Metric: "ca_mean", Value: 0},
		{Run: "r", Metric: "pass_rate", Value: 0.5, N: 2}}
	w := writePart(t, b, "scores", rows)
	shard, err := WriteShard(ctx, b, "scores2", rows) // Encode's path
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{w.Key, shard} {
		data, _ := b.ReadAll(ctx, key)
		// the raw column: one NULL, the 0 a value
		raw, err := parquet.Read[struct {
			Value *float64 `parquet:"value,optional"`
		}](bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		if len(raw) != 3 || raw[0].Value != nil || raw[1].Value == nil || *raw[1].Value != 0 || *raw[2].Value != 0.5 {
			t.Errorf("%s: raw values %v", key, raw)
		}
		got, err := readRows[schemas.ScoreRow](data)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 3 || !math.IsNaN(got[0].Value) || got[1].Value != 0 || got[2].Value != 0.5 || got[2].N != 2 || got[2].Metric != "pass_rate" {
			t.Errorf("%s: read back %+v", key, got)
		}
	}
	// schema version 1: value required, NaN stored as NaN
	type oldScore struct {
		Run    string  `parquet:"run"`
		Metric string  `parquet:"metric"`
		Value  float64 `parquet:"value"`
	}
	var buf bytes.Buffer
	pw := parquet.NewGenericWriter[oldScore](&buf)
	pw.Write([]oldScore{{"r", "ca_std", math.NaN()}, {"r", "ca_mean", 0.25}})
	pw.Close()
	got, err := readRows[schemas.ScoreRow](buf.Bytes())
	if err != nil || len(got) != 2 || !math.IsNaN(got[0].Value) || got[1].Value != 0.25 || got[1].Metric != "ca_mean" {
		t.Errorf("old file: %+v %v", got, err)
	}
}

// writePart writes rows to one part file of table in row groups of
// RowGroupRows, closed and not committed.
func writePart[T any](t *testing.T, b *blob.Bucket, table string, rows []T) *PartWriter[T] {
	t.Helper()
	w, err := NewPartWriter[T](b, table, "x", RowGroupRows)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w
}
