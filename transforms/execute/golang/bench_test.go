package golang

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"transmute/internal/testenv"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/execute/executetest"
	"transmute/transforms/sandbox"
)

// benchVariants is the number of candidates of the benchmark's batch.
const benchVariants = 40

func benchBatch(n int) execute.Batch {
	b := executetest.BenchBatch(schemas.Go, n, func(i int) string {
		return fmt.Sprintf("func f(x int, a []int) int64 {\n\ts := int64(0)\n\tfor _, v := range a {\n\t\ts += int64(v)\n\t}\n\treturn int64(x)*%d + s + int64(math.Abs(0))\n}", i)
	})
	b.ProblemID = "bench"
	b.Limits = sandbox.Limits{CPUTime: 2 * time.Second, WallTime: 5 * time.Second}
	for i := range b.Candidates {
		b.Candidates[i].Imports = `import "math"`
	}
	return b
}

// naiveProgram is what a harness without batching builds for a candidate: one
// program with the tests in its main, built and run with go run.
func naiveProgram(code string) string {
	return "package main\n\nimport (\n\t\"fmt\"\n\t\"math\"\n)\n\n" + code + `

func main() {
	tests := []struct {
		x int
		a []int
	}{{1, []int{1, 2, 3}}, {2, []int{}}, {3, []int{5}}, {4, []int{1, 1}}, {5, []int{9, 9, 9, 9}}}
	for _, t := range tests {
		fmt.Println(f(t.x, t.a))
	}
}
`
}

// cpuNow is the CPU of this process and its reaped children.
var cpuNow = testenv.CPU

// BenchmarkGoBatch measures the CPU per candidate of three ways to run 40 candidates
// with 5 tests each: the engine with all of them in one batch (one go build), the
// engine with one batch per candidate (one go build each), and go run of a whole
// program per candidate (unsandboxed, with a warm build cache of its own), on a
// deterministic sample of 8 candidates for the last two.
func BenchmarkGoBatch(b *testing.B) {
	e := newEngine(b)
	ctx := context.Background()
	// a first build warms the worker's cache copy, as every run after the first
	warm := benchBatch(1)
	if _, err := e.Run(ctx, warm); err != nil {
		b.Fatal(err)
	}
	const sample = 8
	for i := 0; i < b.N; i++ {
		batch := benchBatch(benchVariants)
		c0 := cpuNow()
		res, err := e.Run(ctx, batch)
		if err != nil {
			b.Fatal(err)
		}
		batched := cpuNow() - c0
		for _, r := range res {
			if r.Status != schemas.StatusOK {
				b.Fatalf("%s: %s %s", r.CandidateID, r.Status, r.Detail)
			}
		}
		c0 = cpuNow()
		for k := 0; k < sample; k++ {
			one := batch
			one.Candidates = []execute.Candidate{batch.Candidates[k*benchVariants/sample]}
			if _, err := e.Run(ctx, one); err != nil {
				b.Fatal(err)
			}
		}
		alone := cpuNow() - c0
		dir := b.TempDir()
		cache := filepath.Join(dir, "gocache")
		env := append(os.Environ(), "GOCACHE="+cache, "GOFLAGS=-mod=mod", "GOPROXY=off", "CGO_ENABLED=0", "GOTOOLCHAIN=local")
		// warm the naive cache with one program first
		runNaive := func(k int, code string) {
			src := filepath.Join(dir, fmt.Sprintf("v%d.go", k))
			if err := os.WriteFile(src, []byte(naiveProgram(code)), 0o644); err != nil {
				b.Fatal(err)
			}
			cmd := exec.Command(e.gobin, "run", src)
			cmd.Env = env
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("go run: %v\n%s", err, out)
			}
		}
		runNaive(-1, batch.Candidates[0].Code)
		c0 = cpuNow()
		for k := 0; k < sample; k++ {
			runNaive(k, batch.Candidates[k*benchVariants/sample].Code)
		}
		naive := cpuNow() - c0
		per := func(d time.Duration, n int) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }
		fmt.Printf("BENCH engine_go_batch variants=%d cpu_ms_per_variant=%.2f alone_cpu_ms_per_variant=%.2f naive_go_run_cpu_ms_per_variant=%.2f speedup_vs_alone=%.1f speedup_vs_go_run=%.1f\n",
			benchVariants, per(batched, benchVariants), per(alone, sample), per(naive, sample),
			per(alone, sample)/per(batched, benchVariants), per(naive, sample)/per(batched, benchVariants))
	}
	b.ReportMetric(0, "ns/op")
}
