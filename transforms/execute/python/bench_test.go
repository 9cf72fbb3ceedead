package python

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/sandbox"
)

const benchVariants = 150

func benchBatch() execute.Batch {
	b := execute.Batch{Lang: "python", Params: params("int", "int[]"), Returns: "long",
		Tests: tests("[1,[1,2,3]]", "[2,[]]", "[3,[5]]", "[4,[1,1]]", "[5,[9,9,9,9]]")}
	for i := 0; i < benchVariants; i++ {
		b.Candidates = append(b.Candidates, execute.Candidate{ID: fmt.Sprint(i),
			Code: fmt.Sprintf("def f(x, a):\n    return x * %d + sum(a)", i)})
	}
	return b
}

// naiveScript is what a harness without a fork server runs: a fresh interpreter per
// variant, printing one line per test.
func naiveScript(code string) string {
	return code + `
import json
for args in [[1,[1,2,3]], [2,[]], [3,[5]], [4,[1,1]], [5,[9,9,9,9]]]:
    print(json.dumps(f(*args)))
`
}

// BenchmarkPythonBatch runs 150 trivial variants with 5 tests each through the fork
// server, and reports the cost per variant against a fresh sandboxed python3 per
// variant (measured on a few variants).
func BenchmarkPythonBatch(b *testing.B) {
	e, err := New(execute.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	batch := benchBatch()
	batch.Limits = sandbox.Limits{CPUTime: 2 * time.Second, WallTime: 5 * time.Second}
	ctx := context.Background()
	// naive: a fresh interpreter per variant, in the same sandbox
	const naiveN = 10
	start := time.Now()
	for i := 0; i < naiveN; i++ {
		o, err := sandbox.Run(ctx, sandbox.Spec{Path: e.python,
			Args: []string{"-S", "-B", "-c", naiveScript(batch.Candidates[i].Code)}, Limits: batch.Limits}, nil)
		if err != nil || o.ExitCode != 0 {
			b.Fatalf("naive run: %v %+v", err, o)
		}
	}
	naive := time.Since(start) / naiveN
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		res, err := e.Run(ctx, batch)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range res {
			if r.Status != schemas.StatusOK {
				b.Fatalf("%s: %s %s", r.CandidateID, r.Status, r.Detail)
			}
		}
	}
	b.StopTimer()
	per := b.Elapsed() / time.Duration(b.N*benchVariants)
	b.ReportMetric(float64(per.Microseconds())/1000, "ms/variant")
	b.ReportMetric(float64(naive.Microseconds())/1000, "naive-ms/variant")
	b.ReportMetric(float64(naive)/float64(per), "speedup")
	fmt.Fprintf(os.Stderr, "python: %v per variant in a batch of %d, %v per variant with a fresh python3 (x%.1f)\n",
		per, benchVariants, naive, float64(naive)/float64(per))
}
