package enginetest

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"transmute/io/corpus"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/execute/cpp"
	"transmute/transforms/mutate"
	"transmute/transforms/sandbox"
	"transmute/transforms/values"
)

const (
	benchMinVariants = 200
	// benchNaiveMin is the fewest variants the naive way runs; benchNaiveTarget the
	// size the sample aims at. The sample is whole problems (batches as they are), so
	// the engine's CPU on exactly that sample is measured too and the ratio compares
	// the same work.
	benchNaiveMin    = 30
	benchNaiveTarget = 40
	// benchMutantsPerProblem caps the mutants per problem so the 200 variants
	// come from several problems.
	benchMutantsPerProblem = 24
	// benchFeeders and benchCoalesceMax are the pipeline's feeders and coalesceMax
	// (pipelines/pool.go): goroutines per core feeding batches, candidates per group.
	benchFeeders        = 4
	benchCoalesceMax    = 48
	benchCoalesceLinger = 50 * time.Millisecond
)

// benchLimits bound each test, in the engines and in the naive programs alike (the
// naive programs enforce them per test themselves: see naiveRun).
var benchLimits = sandbox.Limits{CPUTime: 500 * time.Millisecond, WallTime: time.Second, MemoryBytes: 512 << 20}

const naiveCompileTimeout = 30 * time.Second

// variant is one function of one problem to run.
type variant struct {
	prob *schemas.Problem
	cand execute.Candidate
}

// benchVariants takes problems in order, the gold function in lang plus its mutants,
// until there are at least benchMinVariants; it returns them grouped per problem.
func benchVariants(b *testing.B, lang string) [][]variant {
	c := transcoder(b)
	var groups [][]variant
	n := 0
	for i := range c.Problems {
		p := &c.Problems[i]
		g, ok := p.Function(lang)
		if !ok {
			continue
		}
		ms, _, err := mutate.Generate(lang, g.Code, mutate.Options{MaxTotal: benchMutantsPerProblem, Seed: 1})
		if err != nil {
			continue // the gold function does not parse cleanly: take the next problem
		}
		grp := []variant{{p, execute.Candidate{ID: p.ID + "/gold", Code: g.Code, Imports: g.Imports, Entry: g.Name}}}
		for _, m := range ms {
			grp = append(grp, variant{p, execute.Candidate{ID: p.ID + "/" + m.ID, Code: m.Code, Imports: g.Imports, Entry: g.Name}})
		}
		groups = append(groups, grp)
		if n += len(grp); n >= benchMinVariants {
			return groups
		}
	}
	b.Skipf("only %d variants in the corpus", n)
	return nil
}

// engineRun is what one engine run over some batches cost.
type engineRun struct {
	variants                      int
	cpu, wall, inFunc             time.Duration
	compileErrs, timedOut, tests  int
	timeouts, okVariants, batches int
	// engine is what the engine says of its own work (the C++ engine's compiles), or "".
	engine string
	// results are the variants' results by candidate ID
	results map[string]execute.Result
}

// runEngine opens a fresh engine (its start-up is part of the cost) and drives it as
// the pipeline does (pipelines/pool.go): wrapped by execute.Coalesce with one slot per
// core, fed one batch per group by benchFeeders goroutines per core, so that small
// batches of the C++ engine share translation units. It then closes it (reaping its
// workers, so their CPU time is counted) and returns the CPU (this process and its
// reaped children, user+sys) and wall time. goldFirst checks that each group's first
// variant, the gold function, passes.
//
// cache is the engine's work directory (its harness builds: the Java worker's
// classes, the C++ precompiled header, the Python runner), kept by the caller; ""
// means a fresh one, removed afterwards, so that the engine builds its harness too.
func runEngine(b testing.TB, lang string, groups [][]variant, goldFirst bool, cache string) engineRun {
	dir := cache
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "enginebench-"); err != nil {
			b.Fatal(err)
		}
		defer os.RemoveAll(dir)
		os.Chmod(dir, 0o755)
	}
	ctx := context.Background()
	var r engineRun
	c0, w0 := cpuNow(), time.Now()
	raw, err := execute.Open(lang, execute.Options{WorkDir: dir})
	if err != nil {
		b.Fatal(err)
	}
	slots := runtime.NumCPU()
	e := execute.Coalesce(raw, execute.CoalesceOptions{Parallel: slots, MaxCandidates: benchCoalesceMax, Linger: benchCoalesceLinger})
	type done struct {
		g   []variant
		res []execute.Result
		err error
	}
	work := make(chan []variant)
	results := make(chan done)
	var wg sync.WaitGroup
	for w := 0; w < benchFeeders*slots; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range work {
				p := g[0].prob
				batch := execute.Batch{ProblemID: p.ID, Lang: lang, Params: p.Params, Returns: p.Returns, Tests: p.Tests, Limits: benchLimits}
				for _, v := range g {
					batch.Candidates = append(batch.Candidates, v.cand)
				}
				res, err := e.Run(ctx, batch)
				results <- done{g, res, err}
			}
		}()
	}
	go func() {
		for _, g := range groups {
			work <- g
		}
		close(work)
		wg.Wait()
		close(results)
	}()
	var failure string
	for d := range results {
		p := d.g[0].prob
		switch {
		case failure != "":
			continue
		case d.err != nil:
			failure = fmt.Sprintf("%s: %v", p.ID, d.err)
			continue
		case len(d.res) != len(d.g):
			failure = fmt.Sprintf("%s: %d results for %d candidates", p.ID, len(d.res), len(d.g))
			continue
		case goldFirst && d.res[0].Status != schemas.StatusOK:
			failure = fmt.Sprintf("gold %s: %s %s", p.ID, d.res[0].Status, d.res[0].Detail)
			continue
		}
		r.batches++
		r.variants += len(d.g)
		if r.results == nil {
			r.results = map[string]execute.Result{}
		}
		for _, x := range d.res {
			r.results[x.CandidateID] = x
			switch x.Status {
			case schemas.StatusCompileError:
				r.compileErrs++
			case schemas.StatusTimeout:
				r.timedOut++
			case schemas.StatusOK:
				r.okVariants++
			}
			for _, tr := range x.Tests {
				r.tests++
				if tr.Status == schemas.StatusTimeout {
					r.timeouts++
				}
				if tr.Status == schemas.StatusInfraError && failure == "" {
					failure = fmt.Sprintf("%s test %d: infra_error %s", x.CandidateID, tr.Index, tr.Error)
				}
				r.inFunc += tr.CPUTime
			}
		}
	}
	if ce, ok := raw.(*cpp.Engine); ok {
		st := ce.Stats()
		r.engine = fmt.Sprintf("; %d compiler runs (%d syntax checks), %.2fs wall and %.2fs CPU compiling, %d programs started, %d candidate runs, %.2fs CPU in them",
			st.Compiles, st.SyntaxChecks, st.Compile.Seconds(), st.CompileCPU.Seconds(), st.Servers, st.Runs, st.RunCPU.Seconds())
	}
	e.Close()
	if failure != "" {
		b.Fatal(failure)
	}
	r.cpu, r.wall = cpuNow()-c0, time.Since(w0)
	return r
}

func (r engineRun) perVariant(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000 / float64(r.variants)
}

// naiveSample picks whole problems deterministically (every s-th group among those a
// plain literal harness can call: no 2-D array parameters), with s the largest stride
// that still gives at least benchNaiveMin variants.
func naiveSample(b *testing.B, groups [][]variant) [][]variant {
	var eligible [][]variant
	total := 0
	for _, g := range groups {
		if !has2D(g[0].prob) {
			eligible = append(eligible, g)
			total += len(g)
		}
	}
	stride := total / benchNaiveTarget
	if stride > len(eligible) {
		stride = len(eligible)
	}
	for s := max(stride, 1); s >= 1; s-- {
		var out [][]variant
		n := 0
		for i := 0; i < len(eligible); i += s {
			out = append(out, eligible[i])
			n += len(eligible[i])
		}
		if n >= benchNaiveMin {
			return out
		}
	}
	b.Fatalf("only %d variants usable for the naive harness (want %d)", total, benchNaiveMin)
	return nil
}

// benchCompare runs every group through a fresh engine (the variant count, CPU and
// wall per variant and overhead ratio are of this run); then, on a deterministic
// sample of whole problems, a fresh engine again and the naive way, one process (and
// one compile) per variant. speedup_cpu is naive CPU over engine CPU on that same
// sample; the engine's start-up is amortised over fewer variants there, so the
// sample's figure is the conservative one.
//
// The warm_cache figures are of the same runs with a work directory in which an
// earlier engine built its harness (as on a second run of the pipeline, whose
// engines find their harness builds in transmute-cache-<uid>): fresh worker
// processes, no harness build.
func benchCompare(b *testing.B, name, lang string, groups [][]variant, goldFirst bool) {
	var full, samp, fullWarm, sampWarm engineRun
	var naive time.Duration
	var sample [][]variant
	var nNaive, nOK int
	for it := 0; it < b.N; it++ {
		full = runEngine(b, lang, groups, goldFirst, "")
		sample = naiveSample(b, groups)
		samp = runEngine(b, lang, sample, goldFirst, "")
		cache, err := os.MkdirTemp("", "enginebench-cache-")
		if err != nil {
			b.Fatal(err)
		}
		os.Chmod(cache, 0o755)
		runEngine(b, lang, sample[:1], goldFirst, cache) // builds the harness
		fullWarm = runEngine(b, lang, groups, goldFirst, cache)
		sampWarm = runEngine(b, lang, sample, goldFirst, cache)
		os.RemoveAll(cache)
		dir, err := os.MkdirTemp("", "naivebench-")
		if err != nil {
			b.Fatal(err)
		}
		nNaive, nOK = 0, 0
		c0 := cpuNow()
		for _, g := range sample {
			for _, v := range g {
				if naiveRun(b, lang, filepath.Join(dir, fmt.Sprint(nNaive)), v) {
					nOK++
				}
				nNaive++
			}
		}
		naive = cpuNow() - c0
		os.RemoveAll(dir)
	}
	if nOK == 0 {
		b.Fatalf("no naive run compiled and ran")
	}
	x := full.perVariant(full.cpu)
	w := full.perVariant(full.wall)
	xs := samp.perVariant(samp.cpu)
	y := float64(naive.Microseconds()) / 1000 / float64(nNaive)
	ratio := math.Inf(1)
	if full.inFunc > 0 {
		ratio = float64(full.cpu) / float64(full.inFunc)
	}
	b.ReportMetric(x, "cpu-ms/variant")
	b.ReportMetric(y/xs, "speedup-cpu")
	xw, xsw := fullWarm.perVariant(fullWarm.cpu), sampWarm.perVariant(sampWarm.cpu)
	fmt.Printf("BENCH %s variants=%d cpu_ms_per_variant=%.2f naive_cpu_ms_per_variant=%.2f speedup_cpu=%.1f wall_ms_per_variant=%.2f overhead_ratio=%.1f "+
		"sample_variants=%d sample_cpu_ms_per_variant=%.2f warm_cache_cpu_ms_per_variant=%.2f warm_cache_speedup_cpu=%.1f\n",
		name, full.variants, x, y, y/xs, w, ratio, samp.variants, xs, xw, y/xsw)
	fmt.Fprintf(os.Stderr, "%s: all %d variants (%d problems): %d ok, %d did not compile, %d stopped by a timeout (%d of %d tests timed out; limit %v CPU / %v wall per test); "+
		"CPU %.2fs, CPU inside the functions %.3fs, wall %.2fs%s\n",
		name, full.variants, full.batches, full.okVariants, full.compileErrs, full.timedOut, full.timeouts, full.tests,
		benchLimits.CPUTime, benchLimits.WallTime, full.cpu.Seconds(), full.inFunc.Seconds(), full.wall.Seconds(), full.engine)
	fmt.Fprintf(os.Stderr, "%s: sample of %d variants (%d problems): engine %d ok, %d did not compile, CPU %.2fs; naive %d of %d compiled and ran to the end, CPU %.2fs\n",
		name, samp.variants, samp.batches, samp.okVariants, samp.compileErrs, samp.cpu.Seconds(), nOK, nNaive, naive.Seconds())
}

// BenchmarkEngine{Java,Python,Cpp} run the gold function plus muJava-style mutants
// per problem. Mutants that loop forever burn the per-test limit in both ways and
// dominate the CPU.
func BenchmarkEngineJava(b *testing.B) {
	benchCompare(b, "engine_java", schemas.Java, benchVariants(b, schemas.Java), true)
}
func BenchmarkEnginePython(b *testing.B) {
	benchCompare(b, "engine_python", schemas.Python, benchVariants(b, schemas.Python), true)
}
func BenchmarkEngineCpp(b *testing.B) {
	benchCompare(b, "engine_cpp", schemas.Cpp, benchVariants(b, schemas.Cpp), true)
}

func has2D(p *schemas.Problem) bool {
	for _, prm := range p.Params {
		if strings.HasSuffix(prm.Type, "[][]") {
			return true
		}
	}
	return false
}

// naiveRun compiles (where needed) and runs one variant the plain way, one process
// per variant (javac then java; a fresh python3; g++ with the engine's flags, no
// precompiled header), calling it on every test of its problem under the same
// per-test CPU and wall limits as the engines (each program arms them around each
// call itself); it tells whether the program ran to the end.
func naiveRun(b *testing.B, lang, dir string, v variant) bool {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	types := make([]values.Type, len(v.prob.Params))
	for i, p := range v.prob.Params {
		types[i] = values.MustParseType(p.Type)
	}
	ret := values.MustParseType(v.prob.Returns)
	var argRows [][]any
	for _, t := range v.prob.Tests {
		var row []any
		d := json.NewDecoder(strings.NewReader(t.Args))
		d.UseNumber()
		if err := d.Decode(&row); err != nil || len(row) != len(types) {
			b.Fatalf("%s: test %d args %s: %v", v.prob.ID, t.Index, t.Args, err)
		}
		argRows = append(argRows, row)
	}
	entry := v.cand.Entry
	if entry == "" { // as the engines do: the last top-level function
		if lang == schemas.Cpp {
			entry = cpp.LastFunction(v.cand.Imports + "\n" + v.cand.Code)
		} else if name, _, err := corpus.DescribeFunction(lang, v.cand.Code, ""); err == nil {
			entry = name
		}
		if entry == "" {
			return false
		}
	}
	cpuLim, wallLim := benchLimits.CPUTime, benchLimits.WallTime
	// the whole program's deadline: every test at its wall limit, plus start-up
	runTimeout := time.Duration(len(argRows))*wallLim + 10*time.Second
	switch lang {
	case schemas.Python:
		js, _ := json.Marshal(argRows)
		src := "import json as _json, signal as _signal\n" + v.cand.Imports + "\n" + v.cand.Code + "\n\n" +
			"class _Limit(BaseException):\n    pass\n" +
			"def _over(sig, frame):\n    raise _Limit()\n" +
			"_signal.signal(_signal.SIGPROF, _over)\n_signal.signal(_signal.SIGALRM, _over)\n" +
			"def _arm(cpu, wall):\n    _signal.setitimer(_signal.ITIMER_REAL, wall)\n    _signal.setitimer(_signal.ITIMER_PROF, cpu)\n" +
			"for _a in _json.loads(" + strconv.Quote(string(js)) + "):\n" +
			fmt.Sprintf("    _arm(%g, %g)\n", cpuLim.Seconds(), wallLim.Seconds()) +
			"    try:\n        _r = " + entry + "(*_a)\n        _arm(0, 0)\n        print(_json.dumps(_r))\n" +
			"    except _Limit:\n        print('timeout')\n        break\n" + // the engine stops a candidate at its first timeout
			"    except BaseException as _e:\n        _arm(0, 0)\n        print('exception', type(_e).__name__)\n"
		f := filepath.Join(dir, "main.py")
		os.WriteFile(f, []byte(src), 0o644)
		return naiveExec(runTimeout, "/usr/bin/python3", "-S", f)
	case schemas.Java:
		var s strings.Builder
		s.WriteString(v.cand.Imports + "\nimport java.util.*;\npublic class Main {\n" + v.cand.Code + "\n")
		// a watchdog halts the JVM when a call overruns its CPU or wall limit
		fmt.Fprintf(&s, `static volatile boolean naiveIn; static volatile long naiveCpu0, naiveWall0;
static final java.lang.management.ThreadMXBean naiveMX = java.lang.management.ManagementFactory.getThreadMXBean();
static void naiveArm() { naiveCpu0 = naiveMX.getCurrentThreadCpuTime(); naiveWall0 = System.nanoTime(); naiveIn = true; }
public static void main(String[] args) {
  final long mainId = Thread.currentThread().getId();
  Thread dog = new Thread(() -> { for (;;) {
    try { Thread.sleep(5); } catch (InterruptedException e) { return; }
    if (naiveIn && (naiveMX.getThreadCpuTime(mainId) - naiveCpu0 > %dL || System.nanoTime() - naiveWall0 > %dL)) { System.out.flush(); Runtime.getRuntime().halt(124); }
  } });
  dog.setDaemon(true); dog.start();
  Main m = new Main();
`, cpuLim.Nanoseconds(), wallLim.Nanoseconds())
		for _, row := range argRows {
			var as []string
			for i, a := range row {
				as = append(as, javaLit(types[i], a))
			}
			call := "m." + entry + "(" + strings.Join(as, ", ") + ")"
			if ret.Base == values.Void {
				fmt.Fprintf(&s, "  try { naiveArm(); %s; naiveIn = false; System.out.println(\"done\"); } catch (Throwable e) { naiveIn = false; System.out.println(\"exception \" + e); }\n", call)
			} else {
				fmt.Fprintf(&s, "  try { naiveArm(); Object r = %s; naiveIn = false; System.out.println(Arrays.deepToString(new Object[]{r})); } catch (Throwable e) { naiveIn = false; System.out.println(\"exception \" + e); }\n", call)
			}
		}
		s.WriteString("}\n}\n")
		os.WriteFile(filepath.Join(dir, "Main.java"), []byte(s.String()), 0o644)
		if !naiveExec(naiveCompileTimeout, "javac", "-d", dir, filepath.Join(dir, "Main.java")) {
			return false
		}
		return naiveExec(runTimeout, "java", "-cp", dir, "Main")
	default:
		var s strings.Builder
		// NaiveArr passes an array argument as whatever the function takes: a pointer,
		// a vector (by reference or by value, of a convertible type) or a string
		s.WriteString(`#include <bits/stdc++.h>
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>
using namespace std;
template <class T> struct NaiveArr {
  vector<T> v;
  NaiveArr() {}
  NaiveArr(initializer_list<T> l) : v(l) {}
  operator T*() { return v.data(); }
  operator vector<T>&() { return v; }
  template <class U> operator vector<U>() const { return vector<U>(v.begin(), v.end()); }
  operator string() const { return string(v.begin(), v.end()); }
};
`)
		s.WriteString(v.cand.Imports + "\n" + v.cand.Code + "\n")
		fmt.Fprintf(&s, `static void naive_over(int) { _exit(124); }
static void naive_arm(bool on) {
  itimerval c{}, w{};
  if (on) { c.it_value.tv_sec = %d; c.it_value.tv_usec = %d; w.it_value.tv_sec = %d; w.it_value.tv_usec = %d; }
  setitimer(ITIMER_PROF, &c, nullptr); setitimer(ITIMER_REAL, &w, nullptr);
}
int main() {
  signal(SIGPROF, naive_over); signal(SIGALRM, naive_over);
`, cpuLim.Microseconds()/1e6, cpuLim.Microseconds()%1e6, wallLim.Microseconds()/1e6, wallLim.Microseconds()%1e6)
		for _, row := range argRows {
			s.WriteString("  {\n")
			var as []string
			for i, a := range row {
				switch {
				case types[i].Dims == 1:
					fmt.Fprintf(&s, "    NaiveArr<%s> a%d = {%s};\n", cppType(types[i].Base), i, cppList(types[i], a))
					as = append(as, fmt.Sprintf("a%d", i))
				case types[i].Base == values.String:
					fmt.Fprintf(&s, "    string a%d = %s;\n", i, cppLit(types[i].Base, a))
					as = append(as, fmt.Sprintf("a%d", i))
				default:
					as = append(as, cppLit(types[i].Base, a))
				}
			}
			call := entry + "(" + strings.Join(as, ", ") + ")"
			if ret.Base == values.Void || ret.Dims > 0 {
				fmt.Fprintf(&s, "    try { naive_arm(true); (void)%s; naive_arm(false); cout << \"done\\n\"; } catch (...) { naive_arm(false); cout << \"exception\\n\"; }\n", call)
			} else {
				fmt.Fprintf(&s, "    try { naive_arm(true); auto r = %s; naive_arm(false); cout << r << \"\\n\"; } catch (...) { naive_arm(false); cout << \"exception\\n\"; }\n", call)
			}
			s.WriteString("  }\n")
		}
		s.WriteString("}\n")
		os.WriteFile(filepath.Join(dir, "main.cpp"), []byte(s.String()), 0o644)
		exe := filepath.Join(dir, "main")
		args := append(append([]string{}, cpp.Flags...), "-o", exe, filepath.Join(dir, "main.cpp"))
		if !naiveExec(naiveCompileTimeout, "g++", args...) {
			return false
		}
		return naiveExec(runTimeout, exe)
	}
}

// naiveExec runs a command to the end (killed at timeout) and reports success.
func naiveExec(timeout time.Duration, name string, args ...string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.WaitDelay = time.Second
	return cmd.Run() == nil
}

// asRunes gives the elements of a char[] written as a string.
func elems(a any) []any {
	if s, ok := a.(string); ok {
		var out []any
		for _, r := range s {
			out = append(out, string(r))
		}
		return out
	}
	l, _ := a.([]any)
	return l
}

func javaLit(t values.Type, a any) string {
	if t.Dims > 0 {
		inner := values.Type{Base: t.Base, Dims: t.Dims - 1}
		var parts []string
		for _, e := range elems(a) {
			parts = append(parts, strings.TrimPrefix(javaLit(inner, e), "new "+javaArr(inner)))
		}
		return "new " + javaArr(t) + "{" + strings.Join(parts, ", ") + "}"
	}
	switch t.Base {
	case values.Long:
		return fmt.Sprint(a) + "L"
	case values.Float, values.Double:
		name := map[values.Kind]string{values.Float: "float", values.Double: "double"}[t.Base]
		if s, ok := a.(string); ok { // NaN, Infinity
			box := map[values.Kind]string{values.Float: "Float", values.Double: "Double"}[t.Base]
			return box + "." + map[string]string{"NaN": "NaN", "Infinity": "POSITIVE_INFINITY", "-Infinity": "NEGATIVE_INFINITY"}[s]
		}
		return "(" + name + ")" + fmt.Sprint(a) + "d"
	case values.Char:
		return fmt.Sprintf("(char)%d", firstRune(a))
	case values.String:
		s, _ := a.(string)
		var b strings.Builder
		b.WriteByte('"')
		for _, u := range utf16Units(s) {
			fmt.Fprintf(&b, "\\u%04x", u)
		}
		b.WriteByte('"')
		return b.String()
	}
	return fmt.Sprint(a) // int, bool
}

func javaArr(t values.Type) string {
	base := map[values.Kind]string{values.Int: "int", values.Long: "long", values.Float: "float", values.Double: "double",
		values.Bool: "boolean", values.Char: "char", values.String: "String"}[t.Base]
	return base + strings.Repeat("[]", t.Dims)
}

func cppType(k values.Kind) string {
	return map[values.Kind]string{values.Int: "int", values.Long: "long long", values.Float: "float", values.Double: "double",
		values.Bool: "bool", values.Char: "char", values.String: "string"}[k]
}

func cppList(t values.Type, a any) string {
	var parts []string
	for _, e := range elems(a) {
		parts = append(parts, cppLit(t.Base, e))
	}
	return strings.Join(parts, ", ")
}

func cppLit(k values.Kind, a any) string {
	switch k {
	case values.Int:
		return "(int)" + fmt.Sprint(a) + "LL"
	case values.Long:
		return "(long long)" + fmt.Sprint(a) + "LL"
	case values.Float, values.Double:
		if s, ok := a.(string); ok {
			return map[string]string{"NaN": "NAN", "Infinity": "INFINITY", "-Infinity": "-INFINITY"}[s]
		}
		return "(" + cppType(k) + ")" + fmt.Sprint(a)
	case values.Char:
		return fmt.Sprintf("(char)%d", firstRune(a))
	case values.String:
		s, _ := a.(string)
		var b strings.Builder
		b.WriteString("string(\"")
		for _, c := range []byte(s) {
			fmt.Fprintf(&b, "\\%03o", c)
		}
		b.WriteString("\")")
		return b.String()
	}
	return fmt.Sprint(a)
}

func firstRune(a any) rune {
	switch x := a.(type) {
	case string:
		for _, r := range x {
			return r
		}
	case json.Number:
		n, _ := x.Int64()
		return rune(n)
	}
	return 0
}

func utf16Units(s string) []uint16 {
	var out []uint16
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			out = append(out, uint16(0xD800+(r>>10)), uint16(0xDC00+(r&0x3FF)))
			continue
		}
		out = append(out, uint16(r))
	}
	return out
}
