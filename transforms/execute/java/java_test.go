package java

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"transmute/internal/testenv"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/execute/executetest"
	"transmute/transforms/sandbox"
	"transmute/transforms/values"
)

var (
	testEngine *Engine
	workDir    string
)

func TestMain(m *testing.M) {
	sandbox.Init()
	code := func() int {
		var err error
		workDir, err = os.MkdirTemp("", "transmute-java-test-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		os.Chmod(workDir, 0o755)
		defer os.RemoveAll(workDir)
		testEngine, err = Open(execute.Options{WorkDir: workDir})
		if err != nil {
			fmt.Fprintln(os.Stderr, "java engine:", err)
			return 1
		}
		defer testEngine.Close()
		return m.Run()
	}()
	os.Exit(code)
}

func cands(codes ...string) []execute.Candidate {
	var cs []execute.Candidate
	for i, c := range codes {
		cs = append(cs, execute.Candidate{ID: fmt.Sprintf("c%d", i), Code: c})
	}
	return cs
}

func run(t testing.TB, b execute.Batch) []execute.Result {
	t.Helper()
	if b.Lang == "" {
		b.Lang = "java"
	}
	res, err := testEngine.Run(context.Background(), b)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if len(res) != len(b.Candidates) {
		t.Fatalf("%d results for %d candidates", len(res), len(b.Candidates))
	}
	for i, r := range res {
		if r.CandidateID != b.Candidates[i].ID {
			t.Fatalf("result %d is for %q, want %q", i, r.CandidateID, b.Candidates[i].ID)
		}
	}
	return res
}

func TestRegistered(t *testing.T) {
	e, err := execute.Open("java", execute.Options{WorkDir: workDir})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Lang() != "java" {
		t.Fatalf("Lang() = %q", e.Lang())
	}
	if st, err := os.Stat(testEngine.ClassDir()); err != nil || st.Mode().Perm()&0o005 != 0o005 {
		t.Fatalf("class dir %s not world-readable: %v %v", testEngine.ClassDir(), st.Mode(), err)
	}
	t.Logf("read-only paths for the sandbox: %v", testEngine.readOnly)
}

// TestRoundTrip passes values of every type through an identity function (and, for
// void, a mutating one) and checks that the output is the canonical input.
func TestRoundTrip(t *testing.T) {
	cases := []struct {
		typ, jtype string
		args       []string
		want       []string // expected outputs; nil means the argument itself
		body       string   // method body; default returns the argument
		ret        string
	}{
		{typ: "int", jtype: "int", args: []string{"0", "2147483647", "-2147483648", "42"}},
		{typ: "long", jtype: "long", args: []string{"9223372036854775807", "-9223372036854775808", "12345678901"}},
		{typ: "float", jtype: "float", args: []string{"0.1", "1.5", "-2.25", "1e10", `"NaN"`, `"-Infinity"`, "3.4028235e38"}},
		{typ: "double", jtype: "double", args: []string{"0.1", "0.3333333333333333", "1e-300", "-0.0", "1.7976931348623157e308", `"Infinity"`, "2.5e-8", "123456789.125"}},
		{typ: "bool", jtype: "boolean", args: []string{"true", "false"}},
		{typ: "char", jtype: "char", args: []string{`"a"`, `"\n"`, `"é"`, `"\""`, `"\\"`}},
		{typ: "string", jtype: "String", args: []string{`"hello"`, `""`, `"üñí 😀"`, `"q\"b\\s\tt\u0001"`}},
		{typ: "int[]", jtype: "int[]", args: []string{"[1,2,3]", "[]", "[-2147483648]"}},
		{typ: "int[][]", jtype: "int[][]", args: []string{"[[1,2],[3]]", "[]", "[[]]"}},
		{typ: "char[]", jtype: "char[]", args: []string{`["a","b"]`, `"xyz"`, `[]`}},
		{typ: "string[]", jtype: "String[]", args: []string{`["a","b c"]`, `[""]`}},
		{typ: "double[]", jtype: "double[]", args: []string{`[0.5,1e100,"NaN"]`}},
		{typ: "long[]", jtype: "ArrayList<Long>", args: []string{`[1,9223372036854775807]`}},
		{typ: "int[]", jtype: "int[]", ret: "void", body: "for (int i = 0; i < x.length; i++) x[i] *= 2;",
			args: []string{"[1,2,3]", "[]"}, want: []string{"[[2,4,6]]", "[[]]"}},
		{typ: "char[]", jtype: "char[]", ret: "void", body: "java.util.Arrays.sort(x);",
			args: []string{`"dcba"`}, want: []string{`[["a","b","c","d"]]`}},
		// 3-D arrays (TransCoder-test's int dp[][][])
		{typ: "int[][][]", jtype: "int[][][]", args: []string{"[[[1,2],[3]],[],[[-4]]]", "[]", "[[[]]]"}},
		{typ: "long[][][]", jtype: "List<List<List<Long>>>", args: []string{"[[[9223372036854775807],[]],[[1,2]]]"}},
		{typ: "int[][][]", jtype: "int[][][]", ret: "int",
			body: "int s = x.length; for (int[][] p : x) for (int[] r : p) for (int v : r) s += v; return s;",
			args: []string{"[[[1,2],[3]],[],[[-4]]]", "[]"}, want: []string{"5", "0"}},
		{typ: "int[][][]", jtype: "int[][][]", ret: "void",
			body: "for (int[][] p : x) for (int[] r : p) for (int i = 0; i < r.length; i++) r[i] = r[i] * 2 + 1;",
			args: []string{"[[[1,2]],[[3],[]]]"}, want: []string{"[[[[3,5]],[[7],[]]]]"}},
	}
	for _, tc := range cases {
		name := tc.typ
		if tc.ret != "" {
			name = tc.ret + "_" + tc.typ
		}
		t.Run(strings.ReplaceAll(name, "[]", "_arr"), func(t *testing.T) {
			ret, rjtype, body := tc.typ, tc.jtype, tc.body
			if tc.ret != "" {
				ret, rjtype = tc.ret, tc.ret
			}
			if body == "" {
				body = "return x;"
			}
			code := fmt.Sprintf("static %s id(%s x) { %s }", rjtype, tc.jtype, body)
			var ts []string
			for _, a := range tc.args {
				ts = append(ts, "["+a+"]")
			}
			b := execute.Batch{ProblemID: "RT", Params: executetest.Params(tc.typ), Returns: ret, Tests: executetest.Tests(ts...), Candidates: cands(code)}
			r := run(t, b)[0]
			if r.Status != schemas.StatusOK {
				t.Fatalf("status %s: %s %+v", r.Status, r.Detail, r.Tests)
			}
			rt := values.MustParseType(ret)
			for i, a := range tc.args {
				var want string
				var err error
				if tc.want != nil {
					want, err = values.Canonical(rt, tc.want[i])
				} else {
					want, err = values.Canonical(rt, a)
				}
				if err != nil {
					t.Fatal(err)
				}
				got := r.Tests[i]
				if got.Status != schemas.StatusOK || got.Output != want {
					t.Errorf("arg %s: got %s %q (%s), want %q", a, got.Status, got.Output, got.Error, want)
				}
				if got.CPUTime <= 0 || got.WallTime <= 0 {
					t.Errorf("arg %s: no time measured: %+v", a, got)
				}
			}
		})
	}
}

func TestCompileErrorIsolated(t *testing.T) {
	b := execute.Batch{
		Params: executetest.Params("int", "int"), Returns: "int",
		Tests: executetest.Tests("[1,2]", "[40,2]", "[1,"),
		Candidates: cands(
			"static int add(int a, int b) { return a + b; }",
			"static int add(int a, int b) { return a + ; }",
			"static int add(int a, int b) {\n  return \"x\";\n}",
			"static int helper(int a) { return a * 10; }\nstatic int add(int a, int b) { return helper(a) + b; }",
			"static int add(int a, int b) { return Math.max(a, b); }",
		),
	}
	res := run(t, b)
	want := map[int][]string{0: {"3", "42"}, 3: {"12", "402"}, 4: {"2", "40"}}
	for i, outs := range want {
		r := res[i]
		if r.Status != schemas.StatusOK {
			t.Fatalf("candidate %d: %s %s %+v", i, r.Status, r.Detail, r.Tests)
		}
		for j, o := range outs {
			if r.Tests[j].Output != o {
				t.Errorf("candidate %d test %d: got %q want %q", i, j, r.Tests[j].Output, o)
			}
		}
	}
	for _, i := range []int{1, 2} {
		r := res[i]
		if r.Status != schemas.StatusCompileError || !strings.Contains(r.Detail, "line ") {
			t.Errorf("candidate %d: got %s %q, want compile_error with a line", i, r.Status, r.Detail)
		}
		for _, tr := range r.Tests {
			if tr.Status != schemas.StatusCompileError {
				t.Errorf("candidate %d: test status %s", i, tr.Status)
			}
		}
	}
	// a malformed test is the harness's fault, and does not stop the others
	if tr := res[0].Tests[2]; tr.Status != schemas.StatusInfraError {
		t.Errorf("malformed test: %s %q", tr.Status, tr.Error)
	}
	// the line number is the candidate's own
	if !strings.Contains(res[2].Detail, "line 2:") {
		t.Errorf("candidate 2 detail %q, want line 2", res[2].Detail)
	}
}

func TestTimeoutThenOthersRun(t *testing.T) {
	b := execute.Batch{
		Params: executetest.Params("int"), Returns: "int",
		Tests: executetest.Tests("[1]", "[2]", "[3]"),
		Candidates: cands(
			"static int f(int x) { return x * 2; }",
			"static int f(int x) { while (true) { x++; } }",
			"static int f(int x) { return x * 3; }",
			// sleeps: no CPU used, the supervisor's wall-time limit ends it
			"static int f(int x) { try { Thread.sleep(600000); } catch (InterruptedException e) {} return 0; }",
			"static int f(int x) { return x * 4; }",
		),
		Limits: sandbox.Limits{CPUTime: 300 * time.Millisecond, WallTime: 4 * time.Second},
	}
	start := time.Now()
	res := run(t, b)
	t.Logf("batch took %v", time.Since(start))
	for i, mult := range map[int]int{0: 2, 2: 3, 4: 4} {
		r := res[i]
		if r.Status != schemas.StatusOK {
			t.Fatalf("candidate %d: %s %s %+v", i, r.Status, r.Detail, r.Tests)
		}
		for j := range r.Tests {
			if want := fmt.Sprint((j + 1) * mult); r.Tests[j].Output != want {
				t.Errorf("candidate %d test %d: %q want %q", i, j, r.Tests[j].Output, want)
			}
		}
	}
	// the busy loop is stopped by the worker's CPU watchdog, the sleeper by the supervisor
	if e := res[1].Tests[0].Error; !strings.Contains(e, "CPU time") {
		t.Errorf("candidate 1 error %q, want the CPU time limit", e)
	}
	if e := res[3].Tests[0].Error; !strings.Contains(e, "wall time") {
		t.Errorf("candidate 3 error %q, want the wall time limit", e)
	}
	for _, i := range []int{1, 3} {
		r := res[i]
		if r.Status != schemas.StatusTimeout {
			t.Errorf("candidate %d: status %s (%s), want timeout", i, r.Status, r.Detail)
		}
		for j, tr := range r.Tests {
			if tr.Status != schemas.StatusTimeout {
				t.Errorf("candidate %d test %d: %s, want timeout", i, j, tr.Status)
			}
		}
	}
}

func TestExitBlockedAndExceptions(t *testing.T) {
	b := execute.Batch{
		Params: executetest.Params("int"), Returns: "int",
		Tests: executetest.Tests("[0]", "[5]"),
		Candidates: cands(
			"static int f(int x) { System.exit(7); return 1; }",
			"static int f(int x) { Runtime.getRuntime().halt(7); return 1; }",
			"static int f(int x) { return 10 / x; }",
			"static int f(int x) { return f(x + 1) + 1; }",
			"static int f(int x) { long[] a = new long[1 << 30]; return a.length; }",
			"static int f(int x) { if (x == 0) throw new IllegalStateException(\"zero\"); System.out.println(\"noise\"); return x; }",
			"static int f(int x) { return x + 1; }",
			// the worker's state and the protocol stream are out of reach
			"static int f(int x) throws Exception { java.lang.reflect.Field fl = Class.forName(\"transmute.runner.Runner\").getDeclaredField(\"allowExit\"); fl.setAccessible(true); fl.set(null, true); System.exit(1); return 0; }",
			"static int f(int x) throws Exception { try (FileOutputStream o = new FileOutputStream(\"/dev/stdout\")) { o.write(\"{\\\"c\\\":9,\\\"done\\\":true}\\n\".getBytes()); } return x; }",
			"static int f(int x) { for (int i = 0; i < 100000; i++) System.out.println(\"spam spam spam\"); return x; }",
		),
		Limits: sandbox.Limits{MemoryBytes: 256 << 20, OutputBytes: 64 << 10},
	}
	res := run(t, b)
	expect := []struct {
		status schemas.Status // status and error of test 0
		err0   string
		out1   string // output of test 1 when ok
	}{
		{schemas.StatusRuntimeError, "SecurityException: System.exit(7) is not allowed", ""},
		{schemas.StatusRuntimeError, "SecurityException", ""},
		{schemas.StatusRuntimeError, "ArithmeticException: / by zero", "2"},
		{schemas.StatusRuntimeError, "StackOverflowError", ""},
		{schemas.StatusMemoryLimit, "OutOfMemoryError", ""},
		{schemas.StatusRuntimeError, "IllegalStateException: zero", "5"},
		{schemas.StatusOK, "", "6"},
		{schemas.StatusRuntimeError, "SecurityException: setAccessible is not allowed", ""},
		{schemas.StatusRuntimeError, "SecurityException: writing to /dev/stdout is not allowed", ""},
		{schemas.StatusOutputLimit, "output limit exceeded", ""},
	}
	for i, e := range expect {
		r := res[i]
		t0 := r.Tests[0]
		if t0.Status != e.status || !strings.HasPrefix(t0.Error, e.err0) {
			t.Errorf("candidate %d test 0: %s %q, want %s %q", i, t0.Status, t0.Error, e.status, e.err0)
		}
		if e.out1 != "" && (r.Tests[1].Status != schemas.StatusOK || r.Tests[1].Output != e.out1) {
			t.Errorf("candidate %d test 1: %s %q, want %s", i, r.Tests[1].Status, r.Tests[1].Output, e.out1)
		}
		if i == 4 && r.Status != schemas.StatusMemoryLimit {
			t.Errorf("candidate 4 status %s, want memory_limit", r.Status)
		}
	}
}

func TestEntryAndConversions(t *testing.T) {
	b := execute.Batch{
		Params: executetest.Params("int[]", "int"), Returns: "long",
		Tests: executetest.Tests("[[3,1,2],3]"),
		Candidates: []execute.Candidate{
			// entry by name, helper declared after it
			{ID: "named", Entry: "sum", Code: "static long sum(int[] a, int n) { return twice(a[0]) + n; }\nstatic long twice(int v) { return 2L * v; }"},
			// list parameter, import in the code, a Pair from javafx.util
			{ID: "list", Code: "import java.util.function.IntBinaryOperator;\nstatic long g(List<Integer> a, int n) { Pair<Integer,Integer> p = new Pair<>(a.get(0), n); IntBinaryOperator op = (x, y) -> x * y; return op.applyAsInt(p.getKey(), p.getValue()); }"},
			// instance method, Integer box
			{ID: "inst", Code: "long h(Integer[] a, Integer n) { long s = 0; for (Integer v : a) s += v; return s * n; }"},
			{ID: "missing", Entry: "nope", Code: "static long h(int[] a, int n) { return 0; }"},
			// a whole class, with a package line and a main to skip
			{ID: "class", Code: "package foo.bar;\nimport java.util.Arrays;\npublic class Solution {\n  public static long best(int[] a, int n) { return Arrays.stream(a).max().getAsInt() * (long) n; }\n  public static void main(String[] args) {}\n}"},
		},
	}
	res := run(t, b)
	want := map[string]string{"named": "9", "list": "9", "inst": "18", "class": "9"}
	for _, r := range res {
		if w, ok := want[r.CandidateID]; ok {
			if r.Status != schemas.StatusOK || r.Tests[0].Output != w {
				t.Errorf("%s: %s %q %q (%s), want %s", r.CandidateID, r.Status, r.Tests[0].Output, r.Detail, r.Tests[0].Error, w)
			}
		}
	}
	if r := res[3]; r.Status != schemas.StatusCompileError || !strings.Contains(r.Detail, "nope") {
		t.Errorf("missing entry: %s %q", r.Status, r.Detail)
	}
}

// corpora finds ../shared/corpora from the module root, or skips.
func corpora(t testing.TB) string {
	t.Helper()
	return testenv.SharedCorpora(t, "")
}

var goldSig = regexp.MustCompile(`^\s*static\s+(int|long|boolean)\s+(\w+)\s*\(([^)]*)\)`)

// TestTranscoderGold runs three real TransCoder-test gold Java functions (the first
// ones taking only int parameters) in one batch and compares every output with a
// plain javac+java run of the same function.
func TestTranscoderGold(t *testing.T) {
	path := filepath.Join(corpora(t), "transcoder-test", "gold.jsonl")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("gold.jsonl absent: %v", err)
	}
	defer f.Close()
	type gold struct {
		id, code, name, ret string
		arity               int
	}
	var golds []gold
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() && len(golds) < 3 {
		var row map[string]string
		if json.Unmarshal(sc.Bytes(), &row) != nil {
			continue
		}
		code := row["java"]
		m := goldSig.FindStringSubmatch(code)
		if m == nil || strings.Count(code, "static ") != 1 {
			continue
		}
		ps := strings.Split(m[3], ",")
		ok := strings.TrimSpace(m[3]) != ""
		for _, p := range ps {
			if fs := strings.Fields(p); len(fs) != 2 || fs[0] != "int" {
				ok = false
			}
		}
		if ok && len(ps) <= 3 {
			golds = append(golds, gold{row["sample_id"], code, m[2], m[1], len(ps)})
		}
	}
	if len(golds) < 3 {
		t.Skipf("found only %d suitable gold functions", len(golds))
	}
	// one batch per arity: put the three in one batch when they share it, else run each
	inputs := [][]int{{1, 2, 3}, {7, 3, 5}, {12, 4, 2}, {0, 1, 1}, {25, 6, 9}}
	var naive strings.Builder
	naive.WriteString("import java.util.*;\npublic class Main {\n")
	for i, g := range golds {
		fmt.Fprintf(&naive, "static class G%d {\n%s\n}\n", i, g.code)
	}
	naive.WriteString("public static void main(String[] a) {\n")
	for i, g := range golds {
		for _, in := range inputs {
			args := strings.Trim(strings.Join(strings.Fields(fmt.Sprint(in[:g.arity])), ","), "[]")
			fmt.Fprintf(&naive, "System.out.println(G%d.%s(%s));\n", i, g.name, args)
		}
	}
	naive.WriteString("}\n}\n")
	wantOut, _ := naiveRun(t, naive.String())
	wantLines := strings.Fields(wantOut)
	k := 0
	for _, g := range golds {
		var ps []string
		for i := 0; i < g.arity; i++ {
			ps = append(ps, "int")
		}
		var ts []string
		for _, in := range inputs {
			js, _ := json.Marshal(in[:g.arity])
			ts = append(ts, string(js))
		}
		ret := map[string]string{"int": "int", "long": "long", "boolean": "bool"}[g.ret]
		// the gold function and a (trivially) different variant of it, in one batch
		b := execute.Batch{ProblemID: g.id, Params: executetest.Params(ps...), Returns: ret, Tests: executetest.Tests(ts...),
			Candidates: []execute.Candidate{{ID: g.id, Code: g.code}, {ID: g.id + "#2", Code: "// variant\n" + g.code, Entry: g.name}}}
		res := run(t, b)
		for _, r := range res {
			if r.Status != schemas.StatusOK {
				t.Fatalf("%s: %s %s", r.CandidateID, r.Status, r.Detail)
			}
			for j, tr := range r.Tests {
				if tr.Output != wantLines[k+j] {
					t.Errorf("%s test %d: got %q, javac+java gives %q", r.CandidateID, j, tr.Output, wantLines[k+j])
				}
			}
		}
		k += len(inputs)
		t.Logf("%s (%s): outputs %v", g.id, g.name, outputs(res[0]))
	}
}

func outputs(r execute.Result) []string {
	var o []string
	for _, t := range r.Tests {
		o = append(o, t.Output)
	}
	return o
}

// naiveRun compiles and runs one Main class the plain way (javac, then java) and
// returns its stdout and the time taken.
func naiveRun(t testing.TB, src string) (string, time.Duration) {
	t.Helper()
	dir, err := os.MkdirTemp(workDir, "naive-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "Main.java"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if out, err := exec.Command("javac", "-d", dir, filepath.Join(dir, "Main.java")).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	out, err := exec.Command("java", "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", dir, "Main").Output()
	if err != nil {
		t.Fatalf("java: %v\n%s", err, out)
	}
	return string(out), time.Since(start)
}

// BenchmarkJavaBatch runs 200 trivial variants (3 tests each) in one batch and
// reports ns/variant; it also times a few variants the naive way (javac+java per
// variant) and reports the extrapolated ratio naive/batch.
func BenchmarkJavaBatch(b *testing.B) {
	const n = 200
	var cs []execute.Candidate
	for i := 0; i < n; i++ {
		cs = append(cs, execute.Candidate{ID: fmt.Sprint(i),
			Code: fmt.Sprintf("static int f(int x, int y) { int s = 0; for (int i = 0; i < x; i++) s += i * %d + y; return s; }", i)})
	}
	batch := execute.Batch{Params: executetest.Params("int", "int"), Returns: "int", Tests: executetest.Tests("[10,1]", "[100,2]", "[0,3]"), Candidates: cs}
	b.ResetTimer()
	start := time.Now()
	for it := 0; it < b.N; it++ {
		res := run(b, batch)
		if res[n-1].Status != schemas.StatusOK || res[n-1].Tests[0].Output != fmt.Sprint(45*(n-1)+10) {
			b.Fatalf("last variant: %+v", res[n-1])
		}
	}
	batchPer := time.Since(start) / time.Duration(b.N*n)
	b.StopTimer()
	b.ReportMetric(float64(batchPer.Nanoseconds()), "ns/variant")
	// the naive way, for a handful of variants
	const naiveN = 3
	var naiveTotal time.Duration
	for i := 0; i < naiveN; i++ {
		src := fmt.Sprintf("public class Main {\n%s\npublic static void main(String[] a) {\nSystem.out.println(f(10, 1));\nSystem.out.println(f(100, 2));\nSystem.out.println(f(0, 3));\n}\n}\n", cs[i].Code)
		_, d := naiveRun(b, src)
		naiveTotal += d
	}
	naivePer := naiveTotal / naiveN
	b.ReportMetric(float64(naivePer.Nanoseconds()), "naive-ns/variant")
	b.ReportMetric(float64(naivePer)/float64(batchPer), "naive/batch")
	b.Logf("batch: %v per variant; naive javac+java: %v per variant (200 variants: %v vs %v)",
		batchPer, naivePer, batchPer*n, naivePer*n)
}

// fakeEngine is an engine whose "JVM" is a shell script, to test the supervisor.
func fakeEngine(t *testing.T, script string) *Engine {
	t.Helper()
	dir, err := os.MkdirTemp(workDir, "fake-")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	p := filepath.Join(dir, "java")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	return &Engine{java: p, javaHome: dir, classDir: dir, readOnly: []string{dir}}
}

// TestWorkerCrashResumes: the worker dies in the middle of candidate 1; candidate 1
// gets runtime_error on its remaining test and a fresh worker runs candidate 2.
func TestWorkerCrashResumes(t *testing.T) {
	e := fakeEngine(t, `read -r job
start=$(echo "$job" | sed -n 's/.*"start":\([0-9]*\).*/\1/p')
c=$start
while [ $c -le 2 ]; do echo "{\"c\":$c,\"compile\":\"ok\"}"; c=$((c+1)); done
c=$start
while [ $c -le 2 ]; do
  echo "{\"c\":$c,\"t\":0,\"s\":\"ok\",\"v\":$((c*10)),\"cpu_ns\":5,\"wall_ns\":6}"
  if [ $c -eq 1 ]; then echo "boom" >&2; kill -SEGV $$; fi
  echo "{\"c\":$c,\"t\":1,\"s\":\"ok\",\"v\":$((c*10+1)),\"cpu_ns\":5,\"wall_ns\":6}"
  echo "{\"c\":$c,\"done\":true}"
  c=$((c+1))
done
`)
	b := execute.Batch{Params: executetest.Params("int"), Returns: "int", Tests: executetest.Tests("[1]", "[2]"),
		Candidates: cands("a", "b", "c")}
	res, err := e.Run(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	if r := res[0]; r.Status != schemas.StatusOK || r.Tests[1].Output != "1" {
		t.Errorf("candidate 0: %+v", r)
	}
	if r := res[1]; r.Status != schemas.StatusRuntimeError || r.Tests[0].Output != "10" ||
		r.Tests[1].Status != schemas.StatusRuntimeError || !strings.Contains(r.Tests[1].Error, "died") {
		t.Errorf("candidate 1: %+v", r)
	}
	if r := res[2]; r.Status != schemas.StatusOK || r.Tests[0].Output != "20" || r.Tests[1].Output != "21" {
		t.Errorf("candidate 2: %+v", r)
	}
}

// TestWorkerNeverStarts: a worker that always fails gets every candidate an
// infra_error after a bounded number of attempts.
func TestWorkerNeverStarts(t *testing.T) {
	e := fakeEngine(t, "read -r job; echo 'no JVM here' >&2; exit 1\n")
	b := execute.Batch{Params: executetest.Params("int"), Returns: "int", Tests: executetest.Tests("[1]"), Candidates: cands("a", "b")}
	res, err := e.Run(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Status != schemas.StatusInfraError || r.Tests[0].Status != schemas.StatusInfraError ||
			!strings.Contains(r.Detail, "no JVM here") {
			t.Errorf("%s: %s %q %+v", r.CandidateID, r.Status, r.Detail, r.Tests)
		}
	}
}

// isolatedEngine returns an engine of its own whose worker JVMs can be told apart
// from every other (their class path is a private copy of the compiled worker), so
// that a test can look for them in /proc.
func isolatedEngine(t *testing.T) *Engine {
	t.Helper()
	dir, err := os.MkdirTemp(workDir, "isolated-")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	classes := filepath.Join(dir, "classes")
	if out, err := exec.Command("cp", "-r", testEngine.classDir, classes).CombinedOutput(); err != nil {
		t.Fatalf("copying the worker's classes: %v %s", err, out)
	}
	ro := append([]string{classes}, testEngine.readOnly[1:]...)
	e := &Engine{java: testEngine.java, javaHome: testEngine.javaHome, classDir: classes, readOnly: ro}
	t.Cleanup(func() { e.Close() })
	return e
}

// jvms lists the processes whose command line names the engine's class dir.
func jvms(e *Engine) []string { return testenv.ProcsWith(e.classDir) }

// waitNoJVM waits up to d for the engine's JVMs to be gone and returns those left.
func waitNoJVM(e *Engine, d time.Duration) []string {
	deadline := time.Now().Add(d)
	for {
		left := jvms(e)
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func runOn(t *testing.T, e *Engine, b execute.Batch) []execute.Result {
	t.Helper()
	res, err := e.Run(context.Background(), b)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if len(res) != len(b.Candidates) {
		t.Fatalf("%d results for %d candidates", len(res), len(b.Candidates))
	}
	return res
}

// sameResults compares results ignoring the measured times and memory.
func sameResults(t *testing.T, what string, got, want []execute.Result) {
	t.Helper()
	for i := range want {
		g, w := got[i], want[i]
		if g.CandidateID != w.CandidateID || g.Status != w.Status || g.Detail != w.Detail || len(g.Tests) != len(w.Tests) {
			t.Errorf("%s: candidate %d: got %s %s %q, want %s %s %q", what, i, g.CandidateID, g.Status, g.Detail, w.CandidateID, w.Status, w.Detail)
			continue
		}
		for j := range w.Tests {
			x, y := g.Tests[j], w.Tests[j]
			if x.Index != y.Index || x.Status != y.Status || x.Output != y.Output || x.Error != y.Error {
				t.Errorf("%s: candidate %d test %d: got %s %q %q, want %s %q %q", what, i, j, x.Status, x.Output, x.Error, y.Status, y.Output, y.Error)
			}
		}
	}
}

// reuseBatches are batches with compile errors, exceptions, helpers, nested classes,
// candidate class names that repeat from batch to batch and a top-level class.
var reuseBatches = []execute.Batch{
	{Params: executetest.Params("int", "int"), Returns: "int", Tests: executetest.Tests("[1,2]", "[40,2]", "[7,0]"), Candidates: cands(
		"static int f(int a, int b) { return a + b; }",
		"static int f(int a, int b) { return a / b; }",
		"static int f(int a, int b) { return a + ; }",
		"static class Acc { int s; void add(int v) { s += v; } }\nstatic int f(int a, int b) { Acc x = new Acc(); x.add(a); x.add(b * 3); return x.s; }",
		"static int f(int a, int b) { return undefinedHelper(a, b); }",
	)},
	{Params: executetest.Params("string"), Returns: "string", Tests: executetest.Tests(`["abc"]`, `[""]`, `["héllo wörld"]`), Candidates: cands(
		"static String f(String s) { return new StringBuilder(s).reverse().toString(); }",
		"static String f(String s) { return s.toUpperCase(); }",
		"static String f(String s) { return s.charAt(0) + \"!\"; }",
		"static String f(String s) { Map<Character, Integer> m = new TreeMap<>(); for (char c : s.toCharArray()) m.merge(c, 1, Integer::sum); return m.toString(); }",
		"static String f(String s) { return String.format(\"%5.2f|%s\", 3.14159, s); }",
	)},
	{Params: executetest.Params("int[]"), Returns: "int[]", Tests: executetest.Tests("[[3,1,2]]", "[[]]"), Candidates: cands(
		"static int[] f(int[] a) { int[] b = a.clone(); Arrays.sort(b); return b; }",
		"static int[] f(int[] a) { return Arrays.stream(a).map(x -> x * x).toArray(); }",
		"static int[] f(int[] a) { return new int[]{a.length, a[0]}; }",
		// a class that escapes the wrapper: a top-level class of its own
		"static int[] f(int[] a) { return Helper.twice(a); }\n}\nclass Helper { static int[] twice(int[] a) { return Arrays.stream(a).map(x -> 2 * x).toArray(); }",
		// compiles against the Helper of its batch, which its class loader lacks
		"static int[] f(int[] a) { return Helper.twice(a); }",
	)},
	// the Helper of the batch before must not be seen
	{Params: executetest.Params("int[]"), Returns: "int[]", Tests: executetest.Tests("[[3,1,2]]"), Candidates: cands(
		"static int[] f(int[] a) { return a; }",
		"static int[] f(int[] a) { return Helper.twice(a); }",
		"static int[] f(int[] a) { return C0.f(a); }",
	)},
}

// TestWorkerReuse: consecutive Runs on one engine reuse one JVM and give the results
// fresh engines give.
func TestWorkerReuse(t *testing.T) {
	e := isolatedEngine(t)
	var reused [][]execute.Result
	for round := 0; round < 2; round++ {
		for _, b := range reuseBatches {
			reused = append(reused, runOn(t, e, b))
		}
	}
	st := e.Stats()
	if st.Started != 1 || st.Reused != 2*len(reuseBatches)-1 || st.Retired != 0 || st.Idle != 1 {
		t.Errorf("stats %+v, want 1 started, %d reused, 1 idle", st, 2*len(reuseBatches)-1)
	}
	if n := len(jvms(e)); n != 1 {
		t.Errorf("%d JVMs running, want 1", n)
	}
	for i, b := range reuseBatches {
		fresh := isolatedEngine(t)
		want := runOn(t, fresh, b)
		if st := fresh.Stats(); st.Started != 1 || st.Reused != 0 {
			t.Errorf("fresh engine stats %+v", st)
		}
		fresh.Close()
		sameResults(t, fmt.Sprintf("batch %d, first run", i), reused[i], want)
		sameResults(t, fmt.Sprintf("batch %d, second run", i), reused[len(reuseBatches)+i], want)
	}
	// a sanity check of the expected values themselves
	if r := reused[0]; r[0].Tests[1].Output != "42" || r[1].Tests[2].Status != schemas.StatusRuntimeError ||
		r[2].Status != schemas.StatusCompileError || r[3].Tests[0].Output != "7" || r[4].Status != schemas.StatusCompileError {
		t.Errorf("batch 0: %+v", r)
	}
	// a top-level class compiles but is not loaded (only C<i> and its nested classes are)
	if r := reused[2]; r[3].Tests[0].Error != "NoClassDefFoundError: Helper" || r[4].Tests[0].Error != "NoClassDefFoundError: Helper" {
		t.Errorf("batch 2: %+v", r)
	}
	if r := reused[3]; r[1].Status != schemas.StatusCompileError || !strings.Contains(r[1].Detail, "symbol:   variable Helper") {
		t.Errorf("batch 3: %+v", r)
	}
}

// TestTimeoutStopsOrKillsWorker: a test past its CPU limit is stopped inside the
// worker (Runner.Tick: the candidate's loops and calls check a flag the watchdog sets)
// and the worker goes on with the next candidate; a candidate that cannot be stopped
// that way (it catches the stop and then blocks, or sleeps past its wall-time limit)
// ends that worker, and the rest of the batch and the next batch run on fresh workers.
func TestTimeoutStopsOrKillsWorker(t *testing.T) {
	e := isolatedEngine(t)
	lim := sandbox.Limits{CPUTime: 300 * time.Millisecond, WallTime: 2 * time.Second}
	ok := execute.Batch{Params: executetest.Params("int"), Returns: "int", Tests: executetest.Tests("[1]", "[2]"), Limits: lim,
		Candidates: cands("static int f(int x) { return x + 100; }")}
	runOn(t, e, ok) // a warm worker in the pool
	for _, c := range []struct {
		code string
		kill bool // the worker must be ended
	}{
		{"static int f(int x) { while (true) { x++; } }", false},
		{"static int g(int x) { for (;;) { x ^= x << 1; } } static int f(int x) { return x > 0 ? g(x) : 0; }", false},
		// catching the stop does not help: the next back edge throws it again
		{"static int f(int x) { while (true) { try { while (true) { x++; } } catch (Throwable e) { x--; } } }", false},
		{"static int f(int x) { try { while (true) { x++; } } catch (Throwable e) { return 5; } }", false},
		{"static int g(int x) { return x + 1; } static int f(int x) { while (true) { try { x = g(x); } catch (Throwable e) { } } }", false},
		// a recursion without loops that takes 2^60 calls and never overflows: stopped
		// at a method entry
		{"static int h(int d) { return d == 0 ? 1 : h(d - 1) + h(d - 1); } static int f(int x) { return h(60); }", false},
		// caught, then it blocks where no check is: the watchdog ends the JVM
		{"static int f(int x) { try { while (true) { x++; } } catch (Throwable e) { try { Thread.sleep(600000); } catch (InterruptedException i) {} } return x; }", true},
		{"static int f(int x) { try { Thread.sleep(600000); } catch (InterruptedException e) {} return 0; }", true},
	} {
		before := e.Stats()
		// A candidate the worker stops gets a wall budget far above its CPU limit: on
		// a loaded machine (go test ./... on 2 cores, a cold JVM) a 2 s wall budget
		// could run out before 300 ms of CPU, and the watchdog then ended the worker
		// (seen once in a fresh clone's .ci/run). The CPU limit is what these test.
		blim := lim
		if !c.kill {
			blim.WallTime = 20 * time.Second
		}
		b := execute.Batch{Params: executetest.Params("int"), Returns: "int", Tests: executetest.Tests("[1]", "[2]"), Limits: blim,
			Candidates: cands("static int f(int x) { return x * 2; }", c.code, "static int f(int x) { return x * 3; }")}
		res := runOn(t, e, b)
		if res[0].Status != schemas.StatusOK || res[0].Tests[1].Output != "4" ||
			res[1].Status != schemas.StatusTimeout || res[2].Status != schemas.StatusOK || res[2].Tests[1].Output != "6" {
			t.Fatalf("%s: results %+v", c.code, res)
		}
		// the looping candidate's first test timed out, the other was not run
		if r := res[1]; r.Tests[0].Status != schemas.StatusTimeout || r.Tests[1].Status != schemas.StatusTimeout ||
			r.Detail == "" || !c.kill && (r.Tests[1].Error != timeoutMsg || r.Detail != timeoutMsg) {
			t.Errorf("%s: %+v", c.code, r)
		}
		after := e.Stats()
		if c.kill {
			// the pooled worker ran the start of the batch and died; a new one ran the rest
			if after.Reused != before.Reused+1 || after.Started != before.Started+1 {
				t.Errorf("%s: stats before %+v, after %+v", c.code, before, after)
			}
			// ... and took the last candidate as compiled by the first, not from source
			if after.Shipped != before.Shipped+1 {
				t.Errorf("%s: shipped candidates %d -> %d, want one more", c.code, before.Shipped, after.Shipped)
			}
		} else if after.Reused != before.Reused+1 || after.Started != before.Started || after.Shipped != before.Shipped {
			// the pooled worker ran the whole batch
			t.Errorf("%s: stats before %+v, after %+v, want the worker to stay", c.code, before, after)
		} else if cpu := res[1].Tests[0].CPUTime; cpu < lim.CPUTime || cpu > lim.CPUTime+200*time.Millisecond {
			t.Errorf("%s: the stopped test used %v of CPU, limit %v", c.code, cpu, lim.CPUTime)
		}
		res = runOn(t, e, ok)
		if res[0].Status != schemas.StatusOK || res[0].Tests[1].Output != "102" {
			t.Fatalf("the next batch: %+v", res)
		}
		if n := len(jvms(e)); n != 1 {
			t.Errorf("%d JVMs, want the one in the pool", n)
		}
	}
}

// TestStrayThreadRetires: a candidate whose thread outlives it (daemon or not, busy or
// sleeping) makes its worker retire; the next batch runs on a fresh JVM.
func TestStrayThreadRetires(t *testing.T) {
	e := isolatedEngine(t)
	next := execute.Batch{Params: executetest.Params("int"), Returns: "int", Tests: executetest.Tests("[1]", "[2]"),
		Candidates: cands("static int f(int x) { return Thread.activeCount() * 1000 + x; }")}
	want := runOn(t, isolatedEngine(t), next)
	for _, code := range []string{
		"static int f(int x) { new Thread(() -> { while (true) { try { Thread.sleep(10); } catch (InterruptedException e) {} } }).start(); return x; }",
		"static int f(int x) { Thread th = new Thread(() -> { long s = 0; while (true) { s++; } }); th.setDaemon(true); th.start(); return x; }",
		"static int f(int x) { java.util.concurrent.Executors.newFixedThreadPool(2).submit(() -> 1); return x; }",
	} {
		before := e.Stats()
		b := execute.Batch{Params: executetest.Params("int"), Returns: "int", Tests: executetest.Tests("[5]"), Candidates: cands(code)}
		if r := runOn(t, e, b)[0]; r.Status != schemas.StatusOK || r.Tests[0].Output != "5" {
			t.Fatalf("%s: %+v", code, r)
		}
		after := e.Stats()
		if after.Retired != before.Retired+1 || after.Idle != 0 {
			t.Errorf("%s: stats before %+v, after %+v: want the worker retired", code, before, after)
		}
		got := runOn(t, e, next)
		sameResults(t, code, got, want)
		if st := e.Stats(); st.Started != after.Started+1 {
			t.Errorf("%s: stats %+v, want a new worker for the next batch", code, st)
		}
	}
	if left := waitNoJVM(e, 0); len(left) != 1 {
		t.Errorf("JVMs %v, want only the one in the pool", left)
	}
}

// TestGlobalStateIsolated: what a candidate changes in the JVM's global state (system
// properties, default time zone: the worker retires; default locale: restored) is not
// seen by the next batch; and the runner cannot be weakened.
func TestGlobalStateIsolated(t *testing.T) {
	probe := execute.Batch{Params: executetest.Params("int"), Returns: "string", Tests: executetest.Tests("[1]"), Candidates: cands(
		`static String f(int x) { return System.getProperty("transmute.probe") + "|" + java.util.TimeZone.getDefault().getID()
			+ "|" + Locale.getDefault() + "|" + Locale.getDefault(Locale.Category.FORMAT) + "|" + String.format("%.2f", 1.5); }`)}
	want := runOn(t, isolatedEngine(t), probe)
	if want[0].Status != schemas.StatusOK || !strings.HasPrefix(want[0].Tests[0].Output, `"null|`) {
		t.Fatalf("probe on a fresh engine: %+v", want[0])
	}
	e := isolatedEngine(t)
	cases := []struct {
		code   string
		retire bool
		out    string // the candidate's output; "" is 5
	}{
		{`static int f(int x) { System.setProperty("transmute.probe", "set"); return x; }`, true, ""},
		{`static int f(int x) { System.getProperties().put("transmute.probe", "put"); return x; }`, true, ""},
		{`static int f(int x) { java.util.TimeZone.setDefault(java.util.TimeZone.getTimeZone("Asia/Tokyo")); return x; }`, true, ""},
		{`static int f(int x) { Locale.setDefault(Locale.GERMANY); Locale.setDefault(Locale.Category.FORMAT, Locale.FRANCE); return x; }`, false, ""},
		{`static int f(int x) { Thread.setDefaultUncaughtExceptionHandler((t, ex) -> {}); return x; }`, true, ""},
		// the runner's defences hold
		{`static int f(int x) { try { System.setSecurityManager(null); } catch (SecurityException e) { return -1; } return x; }`, false, "-1"},
		{`static int f(int x) { for (Thread th : Thread.getAllStackTraces().keySet()) if (th.getName().equals("transmute-watchdog")) { try { th.interrupt(); } catch (SecurityException e) { return -2; } } return x; }`, false, "-2"},
		{`static int f(int x) throws Exception { try { transmute.runner.Runner.main(new String[0]); } catch (IllegalStateException e) { return -3; } return x; }`, false, "-3"},
		{`static int f(int x) throws Exception { try { java.lang.invoke.MethodHandles.privateLookupIn(Class.forName("transmute.runner.Runner"), java.lang.invoke.MethodHandles.lookup()); } catch (SecurityException e) { return -4; } return x; }`, false, "-4"},
		// an instance entry's initializer runs under the Guard too (exit refused: the
		// candidate does not resolve; before, it ended the JVM)
		{`int f(int x) { return x; } { System.exit(1); }`, false, "compile_error"},
		{`static int f(int x) { Runnable r = () -> {}; r.run(); java.util.function.IntUnaryOperator g = y -> y + x; return g.applyAsInt(0); }`, false, ""},
	}
	for _, c := range cases {
		before := e.Stats()
		b := execute.Batch{Params: executetest.Params("int"), Returns: "int", Tests: executetest.Tests("[5]"), Candidates: cands(c.code)}
		r := runOn(t, e, b)[0]
		out := c.out
		if out == "" {
			out = "5"
		}
		if out == string(schemas.StatusCompileError) {
			if string(r.Status) != out {
				t.Errorf("%s: %s %q, want %s", c.code, r.Status, r.Detail, out)
			}
		} else if r.Status != schemas.StatusOK || r.Tests[0].Output != out {
			t.Errorf("%s: %s %s %q, want %s", c.code, r.Status, r.Tests[0].Output, r.Tests[0].Error, out)
		}
		if st := e.Stats(); (st.Retired == before.Retired+1) != c.retire {
			t.Errorf("%s: stats before %+v, after %+v; want retired %v", c.code, before, st, c.retire)
		}
		sameResults(t, c.code, runOn(t, e, probe), want)
	}
}

// TestStdinInjection: a candidate that writes into its worker's stdin (the jobs'
// pipe, reached through a link to /proc/self/fd/0) cannot feed the worker a job: the
// worker sees unexpected input and retires.
func TestStdinInjection(t *testing.T) {
	e := isolatedEngine(t)
	fake := `{"params":["int"],"returns":"int","tests":[[1]],"cands":[{"code":"static int f(int x) { return 666; }","imports":"","entry":""}],"start":0,"cpu_ns":1000000000,"out_cap":1000,"stack":1000000}`
	code := `static int f(int x) throws Exception {
  java.nio.file.Path l = java.nio.file.Paths.get(System.getProperty("java.io.tmpdir"), "in" + System.nanoTime());
  java.nio.file.Files.createSymbolicLink(l, java.nio.file.Paths.get("/proc/self/fd/0"));
  try (java.io.FileOutputStream o = new java.io.FileOutputStream(l.toFile())) { o.write((` + strconvQuote(fake) + ` + "\n").getBytes()); }
  return x; }`
	b := execute.Batch{Params: executetest.Params("int"), Returns: "int", Tests: executetest.Tests("[5]"), Candidates: cands(code)}
	r := runOn(t, e, b)[0]
	t.Logf("injector: %s %s %s; stats %+v", r.Status, r.Tests[0].Output, r.Tests[0].Error, e.Stats())
	next := execute.Batch{Params: executetest.Params("int"), Returns: "int", Tests: executetest.Tests("[1]"), Candidates: cands("static int f(int x) { return x + 1; }")}
	for i := 0; i < 2; i++ {
		if r := runOn(t, e, next)[0]; r.Status != schemas.StatusOK || r.Tests[0].Output != "2" {
			t.Fatalf("the next batch: %+v", r)
		}
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestCloseReapsWorkers: Close ends every worker (several, after concurrent Runs),
// and Run fails afterwards; idle workers also end after the idle timeout.
func TestCloseReapsWorkers(t *testing.T) {
	e := isolatedEngine(t)
	b := execute.Batch{Params: executetest.Params("int"), Returns: "int", Tests: executetest.Tests("[1]", "[2]"),
		Candidates: cands("static int f(int x) { long s = 0; for (int i = 0; i < 3000000; i++) s += i % (x + 1); return (int) (s % 1000); }")}
	want := runOn(t, isolatedEngine(t), b)
	done := make(chan []execute.Result)
	for i := 0; i < 3; i++ {
		go func() {
			res, err := e.Run(context.Background(), b)
			if err != nil {
				t.Error(err)
			}
			done <- res
		}()
	}
	for i := 0; i < 3; i++ {
		if res := <-done; res != nil {
			sameResults(t, "concurrent run", res, want)
		}
	}
	st := e.Stats()
	if st.Started < 2 || st.Idle != min(st.Started, maxIdle()) {
		t.Errorf("stats %+v, JVMs %v: want several workers, all idle (at most %d kept)", st, jvms(e), maxIdle())
	}
	e.Close()
	if left := jvms(e); len(left) > 0 {
		t.Errorf("JVMs left after Close: %v", left)
	}
	if _, err := e.Run(context.Background(), b); err == nil {
		t.Error("Run after Close did not fail")
	}

	idle := isolatedEngine(t)
	idle.idleTimeout = 300 * time.Millisecond
	runOn(t, idle, b)
	if n := len(jvms(idle)); n != 1 {
		t.Fatalf("%d JVMs, want 1", n)
	}
	if left := waitNoJVM(idle, 5*time.Second); len(left) > 0 {
		t.Errorf("JVMs left after the idle timeout: %v", left)
	}
	if st := idle.Stats(); st.Idle != 0 {
		t.Errorf("stats %+v after the idle timeout", st)
	}
	runOn(t, idle, b) // a new worker
	if st := idle.Stats(); st.Started != 2 {
		t.Errorf("stats %+v, want a second worker", st)
	}
}
