package evaluate

import (
	"context"
	"fmt"
	"testing"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/sandbox"
	"transmute/transforms/translate"
	"transmute/transforms/values"
)

// BenchmarkLoopingGold is a slow case of the shared corpora in small: a problem whose gold loops
// on 8 of its 10 tests, translated by 28 translators into 7 distinct programs that
// loop as the gold does. The naive way (the evaluator before this schedule) runs the gold
// and every translation in one engine call on every test: each translation pays a
// timeout, one after another. Evaluate runs the golds first, then each distinct
// translation once on the 2 tests an oracle decides, in chunks over the engine's
// slots. Both with a 200 ms CPU limit per test and 2 engine slots; a BENCH line
// prints both wall times.
func BenchmarkLoopingGold(b *testing.B) {
	eng := pythonEngineB(b)
	coal := execute.Coalesce(eng, execute.CoalesceOptions{Parallel: 2})
	gold := "def f(x):\n    while x >= 2:\n        pass\n    return x * 2\n"
	p := pyProblem(gold, 10)
	var trs []translate.Translator
	var cands []execute.Candidate
	cands = append(cands, execute.Candidate{ID: "gold", Code: gold, Entry: "f"})
	for i := 0; i < 28; i++ {
		code := fmt.Sprintf("def g(x):\n    while x >= 2:\n        pass\n    return x * 2 + %d * 0\n", i%7)
		trs = append(trs, named{fmt.Sprintf("m%02d", i), code})
		cands = append(cands, execute.Candidate{ID: fmt.Sprint(i), Code: code})
	}
	lim := sandbox.Limits{CPUTime: 200 * time.Millisecond, WallTime: 2 * time.Second}
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		res, err := coal.Run(ctx, execute.Batch{ProblemID: p.ID, Lang: schemas.Python, Params: p.Params, Returns: p.Returns,
			Tests: p.Tests, Limits: lim, Candidates: cands})
		if err != nil || len(res) != len(cands) {
			b.Fatal(err)
		}
		naive := time.Since(t0)
		ev := &Evaluator{Run: "b", Translators: trs, Engines: map[string]execute.Engine{schemas.Python: coal},
			Tolerance: values.DefaultTolerance, Limits: lim}
		t0 = time.Now()
		out := ev.Evaluate(ctx, Item{Problem: p, Tasks: pyTask(p)})
		ours := time.Since(t0)
		if len(out.Results) != 28*10*2 {
			b.Fatalf("%d result rows", len(out.Results))
		}
		fmt.Printf("BENCH evaluate_looping_gold translations=28 distinct=7 tests=10 looping=8 cpu_limit_ms=200 naive_wall_ms=%d evaluate_wall_ms=%d speedup=%.1f\n",
			naive.Milliseconds(), ours.Milliseconds(), float64(naive)/float64(ours))
	}
}

func pythonEngineB(b *testing.B) execute.Engine {
	e, err := execute.Open(schemas.Python, execute.Options{WorkDir: b.TempDir()})
	if err != nil {
		b.Skip("no python engine: ", err)
	}
	b.Cleanup(func() { e.Close() })
	return e
}
