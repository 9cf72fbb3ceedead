package cpp

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"transmute/transforms/execute"
	"transmute/transforms/execute/executetest"
	"transmute/transforms/sandbox"
)

const benchVariants = 150

func benchBatch() execute.Batch {
	return executetest.BenchBatch("cpp", benchVariants, func(i int) string {
		return fmt.Sprintf("long long f(int x, vector<int>& a) {\n  long long s = 0;\n  for (int v : a) s += v;\n  return (long long)x * %d + s;\n}", i)
	})
}

// naiveProgram is what a harness without batching compiles: one program per variant,
// with <bits/stdc++.h> and no precompiled header.
func naiveProgram(code string) string {
	return "#include <bits/stdc++.h>\nusing namespace std;\n" + code + `
int main() {
  vector<pair<int, vector<int>>> tests = {{1,{1,2,3}}, {2,{}}, {3,{5}}, {4,{1,1}}, {5,{9,9,9,9}}};
  for (auto& t : tests) printf("%lld\n", f(t.first, t.second));
}
`
}

// BenchmarkCppBatch compiles and runs 150 trivial variants with 5 tests each as one
// program, and reports the cost per variant against g++ and a sandboxed run per variant
// (measured on a few variants).
func BenchmarkCppBatch(b *testing.B) {
	e := newEngine(b)
	batch := benchBatch()
	batch.Limits = sandbox.Limits{CPUTime: 2 * time.Second, WallTime: 5 * time.Second}
	ctx := context.Background()
	dir := b.TempDir()
	_ = os.Chmod(dir, 0o755)
	const naiveN = 3
	start := time.Now()
	for i := 0; i < naiveN; i++ {
		src := filepath.Join(dir, fmt.Sprintf("v%d.cpp", i))
		bin := filepath.Join(dir, fmt.Sprintf("v%d", i))
		if err := os.WriteFile(src, []byte(naiveProgram(batch.Candidates[i].Code)), 0o644); err != nil {
			b.Fatal(err)
		}
		if out, err := exec.Command(e.cxx, append(append([]string{}, Flags...), "-o", bin, src)...).CombinedOutput(); err != nil {
			b.Fatalf("naive compile: %v\n%s", err, out)
		}
		o, err := sandbox.Run(ctx, sandbox.Spec{Path: bin, ReadOnly: []string{dir}, Limits: batch.Limits}, nil)
		if err != nil || o.ExitCode != 0 {
			b.Fatalf("naive run: %v %+v", err, o)
		}
	}
	naive := time.Since(start) / naiveN
	before := e.Stats()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		executetest.RunOK(b, e, batch)
	}
	b.StopTimer()
	st := e.Stats()
	compile := (st.Compile - before.Compile) / time.Duration(b.N)
	per := b.Elapsed() / time.Duration(b.N*benchVariants)
	b.ReportMetric(float64(per.Microseconds())/1000, "ms/variant")
	b.ReportMetric(float64(naive.Microseconds())/1000, "naive-ms/variant")
	b.ReportMetric(float64(naive)/float64(per), "speedup")
	compileCPU := (st.CompileCPU - before.CompileCPU) / time.Duration(b.N)
	fmt.Fprintf(os.Stderr, "cpp: %v per variant in a batch of %d (compile %v per batch, %v of CPU, peak RSS of a compile %d MiB), %v per variant with g++ each (x%.1f)\n",
		per, benchVariants, compile, compileCPU, st.CompileMaxRSSKB>>10, naive, float64(naive)/float64(per))
}
