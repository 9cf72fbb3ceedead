package tablediff

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"gocloud.dev/blob"
	"gocloud.dev/blob/memblob"

	"transmute/io/sink"
	"transmute/schemas"
)

// run writes a run's executions (split over two shards, as a runner may) and scores
// tables with a manifest naming them.
func run(t *testing.T, ex []schemas.ExecutionRow, sc []schemas.ScoreRow) *blob.Bucket {
	t.Helper()
	ctx := context.Background()
	b := memblob.OpenBucket(nil)
	half := len(ex) / 2
	for _, part := range [][]schemas.ExecutionRow{ex[:half], ex[half:]} {
		if _, err := sink.WriteShard(ctx, b, "executions", part); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := sink.WriteShard(ctx, b, "scores", sc); err != nil {
		t.Fatal(err)
	}
	m := `{"tables": {"executions": "executions/*.parquet", "scores": "scores/*.parquet"}}`
	if err := b.WriteAll(ctx, sink.ManifestKey, []byte(m), nil); err != nil {
		t.Fatal(err)
	}
	return b
}

func exec(program string, test int32, status schemas.Status, cpu int64) schemas.ExecutionRow {
	return schemas.ExecutionRow{Run: "r", ProblemID: "p1", ProgramID: program, Lang: "java", Status: status,
		TestIndex: test, TestStatus: status, Output: "1", CPUMicros: cpu, WallMicros: 2 * cpu}
}

func TestCompare(t *testing.T) {
	ctx := context.Background()
	score := func(v float64) []schemas.ScoreRow {
		return []schemas.ScoreRow{{Run: "r", Translator: "t", Metric: "ca", Value: v, N: 3}}
	}
	base := []schemas.ExecutionRow{exec("gold/java", 0, "ok", 10), exec("gold/java", 1, "ok", 20), exec("tr/x", 0, "ok", 30), exec("tr/x", 0, "ok", 30)}
	// The same rows in another order and shard split, other timings, and a sum that
	// differs in its last bit: equal.
	reordered := []schemas.ExecutionRow{exec("tr/x", 0, "ok", 99), exec("gold/java", 1, "ok", 5), exec("tr/x", 0, "ok", 1), exec("gold/java", 0, "ok", 7)}
	a := run(t, base, score(0.1+0.2))
	b := run(t, reordered, score(0.3))
	ts, err := Compare(ctx, a, b, TimingColumns)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 2 || ts[0].Name != "executions" || ts[1].Name != "scores" {
		t.Fatalf("tables = %+v", ts)
	}
	for _, tb := range ts {
		if !tb.Equal() {
			t.Errorf("%s: want equal, got %+v", tb.Name, tb)
		}
	}
	if ts[0].RowsA != 4 || ts[0].RowsB != 4 {
		t.Errorf("executions rows = %d, %d; want 4, 4", ts[0].RowsA, ts[0].RowsB)
	}

	// Without ignoring the timing columns the same runs differ in every execution row.
	ts, err = Compare(ctx, a, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ts[0].Equal() || ts[0].NOnlyA != 4 || ts[0].NOnlyB != 4 {
		t.Errorf("timings compared: got %+v, want 4 rows only in each", ts[0])
	}

	// One status changed, one duplicate row lost, a score changed: each is found.
	changed := []schemas.ExecutionRow{exec("gold/java", 0, "ok", 10), exec("gold/java", 1, "timeout", 20), exec("tr/x", 0, "ok", 30)}
	c := run(t, changed, score(0.25))
	ts, err = Compare(ctx, a, c, TimingColumns)
	if err != nil {
		t.Fatal(err)
	}
	ex := ts[0]
	if ex.Equal() || ex.RowsA != 4 || ex.RowsB != 3 || ex.NOnlyA != 2 || ex.NOnlyB != 1 {
		t.Fatalf("executions: got %+v; want 4 vs 3 rows, 2 only in the first, 1 only in the second", ex)
	}
	if !strings.Contains(ex.OnlyB[0], `test_status="timeout"`) {
		t.Errorf("the changed row shown is %q", ex.OnlyB[0])
	}
	if ts[1].Equal() || ts[1].NOnlyA != 1 || ts[1].NOnlyB != 1 || !strings.Contains(ts[1].OnlyB[0], `value="0.25"`) {
		t.Errorf("scores: got %+v", ts[1])
	}
}

// TestMissingTable: a table one run has and the other lacks is a difference.
func TestMissingTable(t *testing.T) {
	ctx := context.Background()
	a := run(t, []schemas.ExecutionRow{exec("g", 0, "ok", 1), exec("g", 1, "ok", 1)}, nil)
	b := memblob.OpenBucket(nil)
	if err := b.WriteAll(ctx, sink.ManifestKey, []byte(`{"tables": {"scores": "scores/*.parquet"}}`), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := sink.WriteShard[schemas.ScoreRow](ctx, b, "scores", nil); err != nil {
		t.Fatal(err)
	}
	ts, err := Compare(ctx, a, b, TimingColumns)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 2 || !ts[0].MissingB || ts[0].Equal() {
		t.Fatalf("got %+v; want executions missing from the second run", ts)
	}
	if !ts[1].Equal() || ts[1].RowsA != 0 {
		t.Errorf("scores (empty in both): got %+v", ts[1])
	}
}

// TestRenumber: a compile error quoted from two differently batched units is the same
// row once the unit's line numbers are set aside, and only then; another difference in
// the same message still counts.
func TestRenumber(t *testing.T) {
	ctx := context.Background()
	msg := func(line int, token string) schemas.ExecutionRow {
		e := exec("tr/x", -1, "compile_error", 1)
		e.Error = fmt.Sprintf("tu.cpp:%d:8: error: expected initializer before '%s' token\n  %d |     int[][] dp;\n      |          ^\n", line, token, line)
		return e
	}
	ok := exec("gold/java", 0, "ok", 1)
	a := run(t, []schemas.ExecutionRow{ok, msg(349, "[")}, nil)
	b := run(t, []schemas.ExecutionRow{ok, msg(613, "[")}, nil)
	c := run(t, []schemas.ExecutionRow{ok, msg(613, "(")}, nil)
	ts, err := Compare(ctx, a, b, TimingColumns)
	if err != nil {
		t.Fatal(err)
	}
	if !ts[0].Equal() || ts[0].Renumbered != 1 {
		t.Errorf("lines 349 vs 613: got %+v; want equal with 1 row renumbered", ts[0])
	}
	ts, err = Compare(ctx, a, c, TimingColumns)
	if err != nil {
		t.Fatal(err)
	}
	if ts[0].Equal() || ts[0].NOnlyA != 1 || ts[0].NOnlyB != 1 {
		t.Errorf("another token: got %+v; want one row differing", ts[0])
	}
}
