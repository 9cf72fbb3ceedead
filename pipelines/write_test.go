package pipelines

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"transmute/io/blobs/blobstest"
	"transmute/io/sink"
	"transmute/schemas"
)

func scoreRow(i int) schemas.ScoreRow {
	return schemas.ScoreRow{Run: "w", Translator: fmt.Sprint(i), N: int64(i)}
}

// readNs reads the scores table under out and returns its rows' N, sorted.
func readNs(t *testing.T, out string) []int {
	t.Helper()
	var got []int
	for _, r := range read[schemas.ScoreRow](t, out, "scores") {
		got = append(got, int(r.N))
	}
	sort.Ints(got)
	return got
}

func seq(from, to int) []int {
	var s []int
	for i := from; i < to; i++ {
		s = append(s, i)
	}
	return s
}

// The fused writer over several bundles, one of which fails after emitting a file
// and leaves another half written, and a commit step that runs twice (a retry): the
// table holds the committed bundles' rows, each once.
func TestWriteFnBundles(t *testing.T) {
	ctx := context.Background()
	out := t.TempDir()
	f := &writeFn[schemas.ScoreRow]{Output: out, Table: "scores", MaxRows: 3}
	if err := f.Setup(ctx); err != nil {
		t.Fatal(err)
	}
	var committed []string
	bundle := func(from, to int, fail bool) {
		var keys []string
		emit := func(k string) { keys = append(keys, k) }
		f.StartBundle(ctx, emit)
		for i := from; i < to; i++ {
			if err := f.ProcessElement(scoreRow(i), emit); err != nil {
				t.Fatal(err)
			}
		}
		if fail { // the runner drops the bundle's output and runs its elements again
			return
		}
		if err := f.FinishBundle(ctx, emit); err != nil {
			t.Fatal(err)
		}
		committed = append(committed, keys...)
	}
	bundle(0, 7, false)
	bundle(100, 105, true)
	bundle(100, 105, false) // the retry
	bundle(200, 201, false)
	bundle(300, 300, false) // no rows: no file
	if err := f.Teardown(); err != nil {
		t.Fatal(err)
	}
	if len(committed) != 3+2+1 {
		t.Fatalf("committed bundles emitted %d files, want 6 (at most 3 rows each): %v", len(committed), committed)
	}
	c := &commitFn{Output: out}
	if err := c.Setup(ctx); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		i := 0
		if err := c.ProcessElement(ctx, 0, func(k *string) bool {
			if i == len(committed) {
				return false
			}
			*k, i = committed[i], i+1
			return true
		}); err != nil {
			t.Fatal(err)
		}
	}
	c.Teardown()
	want := append(append(seq(0, 7), seq(100, 105)...), 200)
	if got := readNs(t, out); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("rows %v, want %v", got, want)
	}
	if parts, _ := filepath.Glob(filepath.Join(out, "scores", "part-*.parquet")); len(parts) != 6 {
		t.Errorf("%d part files, want 6", len(parts))
	}
}

// slowRowsFn takes long enough per element that Prism splits its bundle (a progress
// report without progress): the writer fused after it runs in several bundles.
type slowRowsFn struct{}

func (slowRowsFn) ProcessElement(i int, emit func(schemas.ScoreRow)) {
	time.Sleep(150 * time.Millisecond)
	for j := range 10 {
		emit(scoreRow(i*10 + j))
	}
}

func init() { beam.RegisterType(reflect.TypeOf((*slowRowsFn)(nil)).Elem()) }

// A table written by writeTable in a pipeline, fused with the stage that makes its
// rows, at most 7 rows per file: every row once, and no file left uncommitted.
func TestWriteTableFused(t *testing.T) {
	out := t.TempDir()
	p, s := beam.NewPipelineWithRoot()
	ids := beam.Reshuffle(s, beam.CreateList(s, seq(0, 16)))
	writeTable[schemas.ScoreRow](s, out, "scores", 7, beam.ParDo(s, slowRowsFn{}, ids))
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	if got := readNs(t, out); fmt.Sprint(got) != fmt.Sprint(seq(0, 160)) {
		t.Fatalf("rows %v, want 0..159 once each", got)
	}
	parts, _ := filepath.Glob(filepath.Join(out, "scores", "part-*.parquet"))
	bundles := map[string]bool{}
	for _, p := range parts {
		name, _, _ := strings.Cut(strings.TrimPrefix(filepath.Base(p), "part-"), "-")
		bundles[name] = true
	}
	if len(parts) < 160/7+1 {
		t.Errorf("%d part files, want at least %d", len(parts), 160/7+1)
	}
	if tmp, _ := filepath.Glob(filepath.Join(out, "scores", "_tmp", "*")); len(tmp) > 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
	t.Logf("%d files from %d bundles", len(parts), len(bundles))
	ctx := context.Background()
	b := blobstest.Open(t, out)
	if keys, err := sink.ListShards(ctx, b, "scores"); err != nil || len(keys) != len(parts) {
		t.Errorf("ListShards: %d keys (%v), want %d", len(keys), err, len(parts))
	}
}
