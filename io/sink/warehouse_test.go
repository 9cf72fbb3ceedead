package sink

import (
	"bytes"
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/parquet-go/parquet-go"
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
	w, err := NewPartWriter[schemas.ExecutionRow](b, "executions", "x", RowGroupRows)
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
