package pipelines

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"transmute/io/blobs"
	"transmute/io/sink"
	"transmute/schemas"
	"transmute/transforms/similarity"
)

// simEvaluateOutput writes a small evaluate output: eight problems with Python,
// Java and C++ functions, three translators in two directions whose translations
// range from the gold itself to wrong or missing, a variant's translation (not
// scored), and target-gold results under two corpora (each test counted once) as
// well as source-oracle ones (not read).
func simEvaluateOutput(t *testing.T) (dir string, problems []schemas.Problem, trs []schemas.TranslationRow, results []schemas.ResultRow) {
	t.Helper()
	dir = t.TempDir()
	for i := range 8 {
		id := fmt.Sprintf("P%d", i)
		py := fmt.Sprintf("def f(x, y):\n    s = 0\n    for i in range(x):\n        s += i * %d + y\n    return s", i+1)
		java := fmt.Sprintf("static int f(int x, int y) {\n    int s = 0;\n    for (int i = 0; i < x; i++) {\n        s += i * %d + y;\n    }\n    return s;\n}", i+1)
		cpp := strings.Replace(java, "static int", "int", 1)
		problems = append(problems, schemas.Problem{ID: id, Corpus: "transcoder", Functions: []schemas.Function{
			{Lang: "python", Name: "f", Code: py}, {Lang: "java", Name: "f", Code: java}, {Lang: "cpp", Name: "f", Code: cpp}}})
		for ti, tr := range []string{"good", "fair", "poor"} {
			for _, d := range [][2]string{{"java", "python"}, {"python", "java"}} {
				code := map[string]string{"python": py, "java": java}[d[1]]
				status := schemas.TranslationOK
				switch {
				case tr == "fair" && i%2 == 0:
					code = strings.ReplaceAll(code, "+ y", "- y")
				case tr == "poor" && i%3 == 0:
					code, status = "", schemas.TranslationMissing
				case tr == "poor":
					code = strings.ReplaceAll(strings.ReplaceAll(code, "s", "acc"), "i *", "2 *")
				}
				trs = append(trs, schemas.TranslationRow{Translator: tr, ProblemID: id, Corpus: "transcoder", VariantID: "orig",
					SrcLang: d[0], TgtLang: d[1], Status: status, Code: code})
				for k := range int32(4) {
					match := (ti+int(k)+i)%4 != 0 || tr == "good"
					for _, c := range []string{"transcoder", "trace"} {
						results = append(results, schemas.ResultRow{Translator: tr, ProblemID: id, Corpus: c, SrcLang: d[0],
							TgtLang: d[1], Oracle: "target_gold", TestIndex: k, OracleStatus: schemas.StatusOK, Match: match})
					}
					results = append(results, schemas.ResultRow{Translator: tr, ProblemID: id, Corpus: "transcoder", SrcLang: d[0],
						TgtLang: d[1], Oracle: "source", TestIndex: k, OracleStatus: schemas.StatusOK, Match: !match})
				}
			}
		}
		trs = append(trs, schemas.TranslationRow{Translator: "good", ProblemID: id, Corpus: "transcoder", VariantID: "m1",
			SrcLang: "java", TgtLang: "python", Status: schemas.TranslationOK, Code: "def f(x, y):\n    return 0"})
	}
	ctx := context.Background()
	b, err := blobs.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// Two shards per table: the job reads a run's shards, whatever their number.
	for _, half := range [][2]int{{0, 1}, {1, 2}} {
		cut := func(n int) (int, int) { return n * half[0] / 2, n * half[1] / 2 }
		lo, hi := cut(len(problems))
		if _, err := sink.WriteShard(ctx, b, "problems", problems[lo:hi]); err != nil {
			t.Fatal(err)
		}
		lo, hi = cut(len(trs))
		if _, err := sink.WriteShard(ctx, b, "translations", trs[lo:hi]); err != nil {
			t.Fatal(err)
		}
		lo, hi = cut(len(results))
		if _, err := sink.WriteShard(ctx, b, "results", results[lo:hi]); err != nil {
			t.Fatal(err)
		}
	}
	return dir, problems, trs, results
}

// The similarity job as stages (a per-problem scorer, combiners, one element per
// analysis group) writes the tables of the whole-run functions, ScoreAll and
// Analyze, bootstrap intervals included.
func TestSimilarityStagesEqualBatch(t *testing.T) {
	from, problems, trs, results := simEvaluateOutput(t)
	out := t.TempDir()
	o := SimilarityOptions{From: from, Resamples: 40, Seed: 3}
	c := Config{Run: "sim", Output: out}
	p, s := beam.NewPipelineWithRoot()
	BuildSimilarity(s, c, o)
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline: %v", err)
	}

	wantRows := similarity.ScoreAll("sim", problems, trs, results, similarity.DefaultOptions)
	wantStats := similarity.Analyze("sim", wantRows, similarity.AnalysisOptions{Resamples: o.Resamples, Seed: o.Seed})
	if len(wantRows) != 8*3*2 {
		t.Fatalf("reference: %d rows, want 48 (no variant)", len(wantRows))
	}
	intervals := 0
	for _, r := range wantStats {
		if r.Lo == r.Lo { // not NaN
			intervals++
		}
	}
	if intervals == 0 {
		t.Fatal("reference: no bootstrap interval, the test would not check the seeds")
	}
	gotRows := read[schemas.SimilarityRow](t, out, "similarity")
	for i := range gotRows {
		gotRows[i].Millis = 0
	}
	for i := range wantRows {
		wantRows[i].Millis = 0
	}
	sameRows(t, "similarity", gotRows, wantRows)
	sameRows(t, "similarity_stats", read[schemas.SimilarityStatRow](t, out, "similarity_stats"), wantStats)

	// The summary is read back from the tables.
	b, err := blobs.Open(context.Background(), out)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	sum, err := FinishSimilarity(context.Background(), b, &Manifest{Run: "sim", Config: c})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sum, "RUBY - BLEU") || !strings.Contains(sum, "48 rows") {
		t.Errorf("summary:\n%s", sum)
	}
}

// sameRows compares two tables as multisets of rows (%v: NaN equals NaN).
func sameRows[R any](t *testing.T, table string, got, want []R) {
	t.Helper()
	key := func(rs []R) []string {
		ks := make([]string, len(rs))
		for i, r := range rs {
			ks[i] = fmt.Sprintf("%+v", r)
		}
		sort.Strings(ks)
		return ks
	}
	g, w := key(got), key(want)
	if len(g) != len(w) {
		t.Errorf("%s: %d rows, want %d", table, len(g), len(w))
		return
	}
	for i := range g {
		if g[i] != w[i] {
			t.Errorf("%s: row %d differs:\n got %s\nwant %s", table, i, g[i], w[i])
			return
		}
	}
}
