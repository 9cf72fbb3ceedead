package sink

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"testing"

	"github.com/parquet-go/parquet-go"
	"gocloud.dev/blob/memblob"

	"transmute/schemas"
)

// Files streamed by several writers, some committed (one twice, as a retried commit
// step would), one aborted and one closed but never committed (a failed bundle's):
// the table is the committed files' rows, each once, in row groups of the given size.
func TestPartWriterCommit(t *testing.T) {
	ctx := context.Background()
	b := memblob.OpenBucket(nil)
	defer b.Close()
	write := func(name string, from, n int) *PartWriter[schemas.ScoreRow] {
		w, err := NewPartWriter[schemas.ScoreRow](b, "scores", name, 3)
		if err != nil {
			t.Fatal(err)
		}
		for i := from; i < from+n; i++ {
			if err := w.Write(schemas.ScoreRow{Run: "r", Translator: fmt.Sprint(i), N: int64(i)}); err != nil {
				t.Fatal(err)
			}
		}
		return w
	}
	var committed []string
	for i, n := range []int{7, 1, 3} {
		w := write(fmt.Sprintf("a-%d", i), i*100, n)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		committed = append(committed, w.Key)
	}
	write("b-0", 500, 5).Abort()
	if err := write("c-0", 600, 2).Close(); err != nil {
		t.Fatal(err)
	}
	for _, k := range append(committed, committed[0]) {
		if _, err := Commit(ctx, b, k); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := Read[schemas.ScoreRow](ctx, b, "scores")
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, r := range rows {
		got = append(got, int(r.N))
	}
	sort.Ints(got)
	want := []int{0, 1, 2, 3, 4, 5, 6, 100, 200, 201, 202}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("rows %v, want %v", got, want)
	}
	keys, err := ListShards(ctx, b, "scores")
	if err != nil || len(keys) != 3 {
		t.Fatalf("shards %v (%v), want the 3 committed files", keys, err)
	}
	data, err := b.ReadAll(ctx, PartKey("scores", "a-0"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.RowGroups()); n != 3 {
		t.Errorf("7 rows in row groups of 3: %d row groups, want 3", n)
	}
	if _, err := Commit(ctx, b, "scores/part-x.parquet"); err == nil {
		t.Error("committing a part key: no error")
	}
}
