package python

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"transmute/internal/testenv"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/execute/executetest"
	"transmute/transforms/sandbox"
)

const benchVariants = 150

func benchBatch() execute.Batch {
	return executetest.BenchBatch("python", benchVariants, func(i int) string {
		return fmt.Sprintf("def f(x, a):\n    return x * %d + sum(a)", i)
	})
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
		executetest.RunOK(b, e, batch)
	}
	b.StopTimer()
	per := b.Elapsed() / time.Duration(b.N*benchVariants)
	b.ReportMetric(float64(per.Microseconds())/1000, "ms/variant")
	b.ReportMetric(float64(naive.Microseconds())/1000, "naive-ms/variant")
	b.ReportMetric(float64(naive)/float64(per), "speedup")
	fmt.Fprintf(os.Stderr, "python: %v per variant in a batch of %d, %v per variant with a fresh python3 (x%.1f)\n",
		per, benchVariants, naive, float64(naive)/float64(per))
}

// cpuNow and cpuSplit are the user+sys CPU of this process and its reaped
// children, together and apart.
var (
	cpuNow   = testenv.CPU
	cpuSplit = testenv.CPUSplit
)

// smallBatches are n problems' batches of 7 small functions (as many as an LLM
// gives translations of one problem) with 10 tests each.
func smallBatches(n int) []execute.Batch {
	var bs []execute.Batch
	var args []string
	for t := 0; t < 10; t++ {
		args = append(args, fmt.Sprintf("[%d,[%d,%d,%d]]", t, t, t*2, 7-t))
	}
	for p := 0; p < n; p++ {
		b := execute.Batch{ProblemID: fmt.Sprint(p), Lang: "python", Params: executetest.Params("int", "int[]"), Returns: "long",
			Tests: executetest.Tests(args...), Limits: sandbox.Limits{CPUTime: 500 * time.Millisecond, WallTime: time.Second}}
		for i := 0; i < 7; i++ {
			var code string
			switch i % 3 {
			case 0:
				code = fmt.Sprintf("def f(x, a):\n    return x * %d + sum(a)", p*7+i)
			case 1:
				code = fmt.Sprintf("def f_filled(x, a):\n    s = 0\n    for v in a:\n        s += v * %d\n    return s + x", p*7+i)
			default:
				code = fmt.Sprintf("def helper(v):\n    return v %% %d\n\ndef f(x, a):\n    return sum(helper(v) for v in a) + max(a) - x", p+i+2)
			}
			b.Candidates = append(b.Candidates, execute.Candidate{ID: fmt.Sprint(i), Code: code})
		}
		bs = append(bs, b)
	}
	return bs
}

// BenchmarkPythonSmallBatches runs 30 batches (PYBENCH_BATCHES overrides) of 7 small
// functions with 10 tests each on a fresh engine, one after another, and prints a BENCH
// line: the CPU per variant (user+sys of this process and its reaped children, from
// before New to after Close, so the workers' start-up counts) against a fresh
// `python3 -S` per variant (no sandbox, as enginetest's naive harness) on 2 batches.
func BenchmarkPythonSmallBatches(b *testing.B) {
	nb := 30
	if s := os.Getenv("PYBENCH_BATCHES"); s != "" {
		fmt.Sscan(s, &nb)
	}
	bs := smallBatches(nb)
	ctx := context.Background()
	var perVariant, naivePer float64
	for n := 0; n < b.N; n++ {
		s0, k0 := cpuSplit()
		w0 := time.Now()
		e, err := New(execute.Options{WorkDir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		variants := 0
		for _, batch := range bs {
			res, err := e.Run(ctx, batch)
			if err != nil {
				b.Fatal(err)
			}
			for _, r := range res {
				if r.Status != schemas.StatusOK {
					b.Fatalf("%s: %s %s", r.CandidateID, r.Status, r.Detail)
				}
			}
			variants += len(batch.Candidates)
		}
		st := e.Stats()
		e.Close()
		wall := time.Since(w0)
		s1, k1 := cpuSplit()
		ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(variants) }
		perVariant = ms(s1 - s0 + k1 - k0)
		c1 := cpuNow()
		nn := 0
		for _, batch := range bs[:min(2, len(bs))] {
			for _, c := range batch.Candidates {
				script := c.Code + "\nimport json\nfor a in " + testArgs(batch) + ":\n    print(json.dumps(f_filled(*a) if 'f_filled' in dir() else f(*a)))\n"
				if out, err := exec.Command(e.python, "-S", "-c", script).CombinedOutput(); err != nil {
					b.Fatalf("naive: %v %s", err, out)
				}
				nn++
			}
		}
		naivePer = float64((cpuNow() - c1).Microseconds()) / 1000 / float64(nn)
		fmt.Printf("BENCH python_small_batches batches=%d variants=%d workers=%d cpu_ms_per_variant=%.2f engine_process_ms=%.2f workers_ms=%.2f "+
			"naive_cpu_ms_per_variant=%.2f speedup_cpu=%.1f wall_ms_per_variant=%.2f\n",
			len(bs), variants, st.Started, perVariant, ms(s1-s0), ms(k1-k0), naivePer, naivePer/perVariant, ms(wall))
	}
	b.ReportMetric(perVariant, "cpu-ms/variant")
	b.ReportMetric(naivePer, "naive-cpu-ms/variant")
}

func testArgs(b execute.Batch) string {
	var s []string
	for _, t := range b.Tests {
		s = append(s, t.Args)
	}
	return "[" + strings.Join(s, ",") + "]"
}
