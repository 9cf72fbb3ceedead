package profile

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/execute/cpp"
	"transmute/transforms/sandbox"
	"transmute/transforms/values"
)

// A small stress suite: sum of the first n elements of an int array, and the
// number of vowels of a string.
var (
	sumParams = []schemas.Param{{Name: "arr", Type: "int[]"}, {Name: "n", Type: "int"}}
	sumTests  = []schemas.Test{
		{Index: 1, Args: "[[1,2,3],3]"},
		{Index: 2, Args: "[[],0]"},
		{Index: 3, Args: "[[2147483647,1,-5],2]"},
	}
)

// expectedSums computes the outputs in Go and canonicalizes them.
func expectedSums(t *testing.T, wrap32 bool) []string {
	t.Helper()
	var out []string
	for _, tc := range sumTests {
		var args []json.RawMessage
		var arr []int64
		var n int
		if err := json.Unmarshal([]byte(tc.Args), &args); err != nil {
			t.Fatal(err)
		}
		if json.Unmarshal(args[0], &arr) != nil || json.Unmarshal(args[1], &n) != nil {
			t.Fatal("bad test")
		}
		var s int64
		for i := 0; i < n; i++ {
			s += arr[i]
		}
		if wrap32 {
			s = int64(int32(s))
		}
		c, err := values.Canonical(values.MustParseType("int"), fmt.Sprint(s))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

var quick = Options{Repetitions: 3, TimeLimit: 20 * time.Second, MemoryBytes: 2 << 30, OverheadRepetitions: 1, Warmup: -1}

func checkReport(t *testing.T, lang string, r Report, want []string) {
	t.Helper()
	if r.Status != schemas.StatusOK {
		t.Fatalf("%s: status %s: %s", lang, r.Status, r.Detail)
	}
	if len(r.Outputs) != len(want) {
		t.Fatalf("%s: %d outputs, want %d", lang, len(r.Outputs), len(want))
	}
	for i := range want {
		if r.Outputs[i] != want[i] {
			t.Errorf("%s test %d: got %s, want %s", lang, i, r.Outputs[i], want[i])
		}
	}
	if len(r.CPUTime) != quick.Repetitions || len(r.MaxRSSKB) != quick.Repetitions {
		t.Errorf("%s: %d repetitions measured, want %d", lang, len(r.CPUTime), quick.Repetitions)
	}
	for i, c := range r.CPUTime {
		if c <= 0 || r.MaxRSSKB[i] <= 0 || r.WallTime[i] <= 0 {
			t.Errorf("%s repetition %d: cpu %v rss %d wall %v", lang, i, c, r.MaxRSSKB[i], r.WallTime[i])
		}
	}
	if r.MeanCPU <= 0 || r.MeanRSSKB <= 0 || r.Overhead <= 0 {
		t.Errorf("%s: mean cpu %v, mean rss %.0f, overhead %v", lang, r.MeanCPU, r.MeanRSSKB, r.Overhead)
	}
	t.Logf("%s: mean CPU %v (cv %.3f), overhead %v, net %v, RSS %.0f KB", lang, r.MeanCPU, r.CVCPU, r.Overhead, r.NetCPU, r.MeanRSSKB)
}

func TestProfileThreeLanguages(t *testing.T) {
	ctx := context.Background()
	cands := map[string]execute.Candidate{
		schemas.Python: {ID: "py", Code: "def helper(x):\n    return x\n\ndef sum_first(arr, n):\n    s = 0\n    for i in range(n):\n        s += helper(arr[i])\n    print('noise')\n    return s\n"},
		schemas.Java:   {ID: "java", Code: "static int sumFirst(int[] arr, int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++) s += arr[i];\n  System.out.println(\"noise\");\n  return s;\n}"},
		schemas.Cpp:    {ID: "cpp", Code: "int sumFirst(vector<int>& arr, int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++) s += arr[i];\n  cout << \"noise\" << endl;\n  return s;\n}"},
	}
	t.Logf("sandbox protections: %v", sandbox.Protections())
	opt := quick
	opt.WorkDir = t.TempDir() // a fresh build cache: the builds are exercised every time
	for _, lang := range Languages() {
		r, err := Profile(ctx, lang, cands[lang], sumParams, "int", sumTests, opt)
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		// Python ints do not wrap; Java and C++ ints do.
		checkReport(t, lang, r, expectedSums(t, lang != schemas.Python))
	}
	// Profiling again reuses the cached builds (candidate and empty harness).
	before, _ := filepath.Glob(filepath.Join(opt.WorkDir, "profile-cache", "*"))
	if len(before) != 6 { // java and cpp: candidate + empty each; the C++ precompiled header; the counting helper
		t.Errorf("build cache holds %v, want 4 builds, a precompiled header and the counting helper", before)
	}
	if pch, _ := filepath.Glob(filepath.Join(opt.WorkDir, "profile-cache", "cpp-pch-*", "prof.h.gch")); len(pch) != 1 {
		t.Errorf("no precompiled header in the build cache: %v", before)
	}
	for _, lang := range []string{schemas.Java, schemas.Cpp} {
		r, err := Profile(ctx, lang, cands[lang], sumParams, "int", sumTests, opt)
		if err != nil || r.Status != schemas.StatusOK {
			t.Fatalf("%s again: %v %s", lang, err, r.Status)
		}
	}
	after, _ := filepath.Glob(filepath.Join(opt.WorkDir, "profile-cache", "*"))
	if len(after) != len(before) {
		t.Errorf("profiling again rebuilt: cache %v -> %v", before, after)
	}
}

func TestProfileSignaturesAndVoid(t *testing.T) {
	ctx := context.Background()
	// A C++ function taking a pointer and a Java function taking a List, both void
	// (the harness reports the array argument after the call), and a string in C++.
	params := []schemas.Param{{Name: "a", Type: "int[]"}, {Name: "n", Type: "int"}}
	tests := []schemas.Test{{Index: 0, Args: "[[3,1,2],3]"}, {Index: 1, Args: "[[5,4],2]"}}
	want := []string{"[[1,2,3]]", "[[4,5]]"}
	cases := []struct {
		lang string
		c    execute.Candidate
	}{
		{schemas.Cpp, execute.Candidate{Code: "void srt(int a[], int n) { sort(a, a + n); }"}},
		{schemas.Java, execute.Candidate{Code: "static void srt(List<Integer> a, int n) { Collections.sort(a); }"}},
		{schemas.Python, execute.Candidate{Code: "def srt(a, n):\n    a.sort()\n"}},
	}
	opt := quick
	opt.Repetitions, opt.OverheadRepetitions = 1, -1
	opt.WorkDir = sharedCache
	for _, cs := range cases {
		r, err := Profile(ctx, cs.lang, cs.c, params, "void", tests, opt)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != schemas.StatusOK || strings.Join(r.Outputs, " ") != strings.Join(want, " ") {
			t.Errorf("%s: %s %s %v, want %v", cs.lang, r.Status, r.Detail, r.Outputs, want)
		}
	}
	sp := []schemas.Param{{Name: "s", Type: "string"}}
	st := []schemas.Test{{Index: 0, Args: `["hello world"]`}, {Index: 1, Args: `[""]`}}
	r, err := Profile(ctx, schemas.Cpp, execute.Candidate{Code: "#include <string>\nint vowels(string s) { int c = 0; for (char ch : s) c += strchr(\"aeiou\", ch) != nullptr && ch; return c; }"}, sp, "int", st, opt)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != schemas.StatusOK || strings.Join(r.Outputs, ",") != "3,0" {
		t.Errorf("cpp string: %s %s %v", r.Status, r.Detail, r.Outputs)
	}
}

// TestProfileThreeDims profiles functions of a 3-D array (TransCoder-test's int
// dp[][][]) in each language and C++ view of it, returning a sum and, void, adding
// its plane's index to each element; the empty candidate of the signature is built
// and run too (the overhead).
func TestProfileThreeDims(t *testing.T) {
	ctx := context.Background()
	params := []schemas.Param{{Name: "d", Type: "int[][][]"}, {Name: "n", Type: "int"}}
	tests := []schemas.Test{{Index: 0, Args: "[[[[1,2],[3,4]],[[5,6],[7,8]]],2]"}, {Index: 1, Args: "[[],0]"}, {Index: 2, Args: "[[[[-1,0],[0,9]]],1]"}}
	sums := []string{"38", "0", "9"}
	after := []string{"[[[[1,2],[3,4]],[[6,7],[8,9]]]]", "[[]]", "[[[[-1,0],[0,9]]]]"}
	cases := []struct {
		lang, ret string
		c         execute.Candidate
	}{
		{schemas.Cpp, "int", execute.Candidate{Code: "int sum3(int d[][2][2], int n) { int s = n; for (int i = 0; i < n; i++) for (int j = 0; j < 2; j++) for (int k = 0; k < 2; k++) s += d[i][j][k]; return s; }"}},
		{schemas.Cpp, "int", execute.Candidate{Code: "int sum3(const vector<vector<vector<int>>>& d, int n) { int s = d.size(); for (auto& p : d) for (auto& r : p) for (int x : r) s += x; return s; }"}},
		{schemas.Java, "int", execute.Candidate{Code: "static int sum3(int[][][] d, int n) { int s = n; for (int[][] p : d) for (int[] r : p) for (int x : r) s += x; return s; }"}},
		{schemas.Python, "int", execute.Candidate{Code: "def sum3(d, n):\n    return n + sum(x for p in d for r in p for x in r)\n"}},
		{schemas.Cpp, "void", execute.Candidate{Code: "void inc(int*** d, int n) { for (int i = 0; i < n; i++) for (int j = 0; j < 2; j++) for (int k = 0; k < 2; k++) d[i][j][k] += i; }"}},
		{schemas.Cpp, "void", execute.Candidate{Code: "void inc(int d[][2][2], int n) { for (int i = 0; i < n; i++) for (int j = 0; j < 2; j++) for (int k = 0; k < 2; k++) d[i][j][k] += i; }"}},
		{schemas.Java, "void", execute.Candidate{Code: "static void inc(int[][][] d, int n) { for (int i = 0; i < n; i++) for (int[] r : d[i]) for (int k = 0; k < r.length; k++) r[k] += i; }"}},
		{schemas.Python, "void", execute.Candidate{Code: "def inc(d, n):\n    for i in range(n):\n        for r in d[i]:\n            for k in range(len(r)):\n                r[k] += i\n"}},
	}
	opt := quick
	opt.Repetitions = 1
	opt.WorkDir = sharedCache
	for _, cs := range cases {
		r, err := Profile(ctx, cs.lang, cs.c, params, cs.ret, tests, opt)
		if err != nil {
			t.Fatal(err)
		}
		want := sums
		if cs.ret == "void" {
			want = after
		}
		if r.Status != schemas.StatusOK || strings.Join(r.Outputs, " ") != strings.Join(want, " ") {
			t.Errorf("%s %q: %s %s %v, want %v", cs.lang, cs.c.Code, r.Status, r.Detail, r.Outputs, want)
		}
		if r.Overhead <= 0 {
			t.Errorf("%s %q: the empty candidate was not measured (overhead %v)", cs.lang, cs.c.Code, r.Overhead)
		}
	}
}

func TestProfileFailures(t *testing.T) {
	ctx := context.Background()
	opt := quick
	opt.Repetitions, opt.OverheadRepetitions = 2, -1
	bad := map[string]string{
		schemas.Python: "def f(arr, n)\n    return 0\n",
		schemas.Java:   "static int f(int[] arr, int n) { return undefinedVar; }",
		schemas.Cpp:    "int f(vector<int>& arr, int n) { return undefined_var; }",
	}
	for _, lang := range Languages() {
		r, err := Profile(ctx, lang, execute.Candidate{Code: bad[lang]}, sumParams, "int", sumTests, opt)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != schemas.StatusCompileError || r.Detail == "" || len(r.CPUTime) != 0 {
			t.Errorf("%s: status %s (%q), %d runs; want compile_error before any run", lang, r.Status, r.Detail, len(r.CPUTime))
		}
	}
	// An endless loop hits the time limit.
	opt.TimeLimit = time.Second
	r, err := Profile(ctx, schemas.Python, execute.Candidate{Code: "def f(arr, n):\n    while True:\n        n += 1\n"}, sumParams, "int", sumTests, opt)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != schemas.StatusTimeout || len(r.CPUTime) != 1 || r.CPUTime[0] < 700*time.Millisecond {
		t.Errorf("endless loop: status %s (%s), cpu %v, wall %v", r.Status, r.Detail, r.CPUTime, r.WallTime)
	}
	r, err = Profile(ctx, schemas.Cpp, execute.Candidate{Code: "int f(int* arr, int n) { volatile long long x = 0; while (true) x++; return 0; }"}, sumParams, "int", sumTests, opt)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != schemas.StatusTimeout {
		t.Errorf("C++ endless loop: status %s (%s)", r.Status, r.Detail)
	}
	// A raising test is a runtime error, the others still have outputs.
	r, err = Profile(ctx, schemas.Python, execute.Candidate{Code: "def f(arr, n):\n    return 10 // n\n"}, sumParams, "int", sumTests, opt)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != schemas.StatusRuntimeError || r.Outputs[0] != "3" || r.Outputs[1] != "" || !strings.Contains(r.Detail, "ZeroDivisionError") {
		t.Errorf("raising test: %s %q %v", r.Status, r.Detail, r.Outputs)
	}
}

// TestRepetitionsAreFreshProcesses: module state does not survive a repetition
// (a counter restarts, the module is loaded again), and runs are pinned.
func TestRepetitionsAreFreshProcesses(t *testing.T) {
	ctx := context.Background()
	opt := quick
	opt.OverheadRepetitions = -1
	counter := "count = 0\ndef f(arr, n):\n    global count\n    count += 1\n    return count\n"
	r, err := Profile(ctx, schemas.Python, execute.Candidate{Code: counter}, sumParams, "int", sumTests, opt)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != schemas.StatusOK || strings.Join(r.Outputs, ",") != "1,2,3" || strings.Contains(r.Detail, "differ") {
		t.Errorf("counter: %s %q %v", r.Status, r.Detail, r.Outputs)
	}
	// The time the candidate was loaded differs between repetitions (a pid would
	// not: in the sandbox's PID namespace every run may get the same one).
	loaded := "import time\nLOADED = time.time_ns()\ndef f(arr, n):\n    return LOADED\n"
	r, err = Profile(ctx, schemas.Python, execute.Candidate{Code: loaded}, sumParams, "long", sumTests, opt)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != schemas.StatusOK || r.Outputs[0] != r.Outputs[2] || !strings.Contains(r.Detail, "differ") {
		t.Errorf("load time: repetitions did not run in distinct processes: %s %q %v", r.Status, r.Detail, r.Outputs)
	}
	// Pinning: the process sees exactly one allowed core.
	aff := "import os\ndef f(arr, n):\n    return len(os.sched_getaffinity(0))\n"
	r, err = Profile(ctx, schemas.Python, execute.Candidate{Code: aff}, sumParams, "int", sumTests, opt)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != schemas.StatusOK || r.Outputs[0] != "1" {
		t.Errorf("affinity: %s %q %v", r.Status, r.Detail, r.Outputs)
	}
}

func TestEmptyCandidatesCompile(t *testing.T) {
	s := &suite{}
	for _, ty := range []string{"int[][]", "string", "char", "double[]", "bool"} {
		s.types = append(s.types, values.MustParseType(ty))
	}
	s.ret = values.MustParseType("long[]")
	if c := (javaBuilder{}).empty(s); !strings.Contains(c.Code, "static long[] profileEmpty(int[][] a0, String a1, char a2, double[] a3, boolean a4)") {
		t.Errorf("java empty: %s", c.Code)
	}
	if c := (cppBuilder{}).empty(s); !strings.Contains(c.Code, "std::vector<long long> profile_empty(std::vector<std::vector<int>>& a0, std::string& a1, char a2") {
		t.Errorf("cpp empty: %s", c.Code)
	}
	s3 := &suite{types: []values.Type{values.MustParseType("int[][][]")}, ret: values.MustParseType("long[][][]")}
	if c := (cppBuilder{}).empty(s3); !strings.Contains(c.Code, "std::vector<std::vector<std::vector<long long>>> profile_empty(std::vector<std::vector<std::vector<int>>>& a0)") {
		t.Errorf("cpp empty, 3-D: %s", c.Code)
	}
	if c := (javaBuilder{}).empty(s3); !strings.Contains(c.Code, "static long[][][] profileEmpty(int[][][] a0)") {
		t.Errorf("java empty, 3-D: %s", c.Code)
	}
	if got := lastJavaMethod("class X { int g() { return 1; } }\nstatic int f(int a) {\n if (a > 0) { return 1; }\n return 0; }\nstatic long h (int[] a)\n{ return 0; }"); got != "h" {
		t.Errorf("lastJavaMethod = %q", got)
	}
}

func TestLeastLoadedCPU(t *testing.T) {
	n := LeastLoadedCPU(50*time.Millisecond, -1)
	if n < 0 || n >= 1024 {
		t.Errorf("LeastLoadedCPU = %d", n)
	}
}

// A baseline measured once (MeasureBaseline) is shared by the programs of its suite:
// Profile takes Overhead and OverheadRSSKB from it, NetCPU = max(MeanCPU - Overhead,
// 0), and does not run the empty candidate again; another suite gets its own.
func TestSharedBaseline(t *testing.T) {
	ctx := context.Background()
	opt := quick
	opt.WorkDir = sharedCache
	bl, err := MeasureBaseline(ctx, schemas.Python, sumParams, "int", sumTests, opt)
	if err != nil || bl.Status != schemas.StatusOK || bl.CPU <= 0 || bl.RSSKB <= 0 || bl.Runs != opt.OverheadRepetitions {
		t.Fatalf("baseline %+v, err %v", bl, err)
	}
	shared := opt
	shared.Baseline = &bl
	for _, c := range []execute.Candidate{
		{ID: "a", Code: "def sum_first(arr, n):\n    return sum(arr[:n])\n"},
		{ID: "b", Code: "def sum_first(arr, n):\n    s = 0\n    for i in range(n):\n        s += arr[i]\n    return s\n"},
	} {
		r, err := Profile(ctx, schemas.Python, c, sumParams, "int", sumTests, shared)
		if err != nil {
			t.Fatal(err)
		}
		checkReport(t, c.ID, r, expectedSums(t, false))
		if r.Overhead != bl.CPU || r.OverheadRSSKB != bl.RSSKB || r.NetCPU != max(r.MeanCPU-bl.CPU, 0) {
			t.Errorf("%s: overhead %v rss %.0f net %v; baseline %v rss %.0f, mean %v", c.ID, r.Overhead, r.OverheadRSSKB, r.NetCPU, bl.CPU, bl.RSSKB, r.MeanCPU)
		}
	}
	// The figures are the baseline's, not a new measurement: NetCPU floors at 0, and
	// a baseline whose empty candidate failed is noted, not used.
	c := execute.Candidate{ID: "c", Code: "def sum_first(arr, n):\n    return sum(arr[:n])\n"}
	for _, fake := range []Baseline{{Status: schemas.StatusOK, CPU: time.Hour, RSSKB: 1}, {Status: schemas.StatusTimeout, Detail: "boom"}} {
		o := opt
		o.Baseline = &fake
		r, err := Profile(ctx, schemas.Python, c, sumParams, "int", sumTests, o)
		if err != nil || r.Status != schemas.StatusOK {
			t.Fatalf("%v %s", err, r.Status)
		}
		if fake.Status == schemas.StatusOK && (r.Overhead != time.Hour || r.OverheadRSSKB != 1 || r.NetCPU != 0) {
			t.Errorf("fake baseline: overhead %v rss %.0f net %v", r.Overhead, r.OverheadRSSKB, r.NetCPU)
		}
		if fake.Status != schemas.StatusOK && (r.Overhead != 0 || r.NetCPU != 0 || !strings.Contains(r.Detail, "overhead run: timeout boom")) {
			t.Errorf("failed baseline: overhead %v net %v detail %q", r.Overhead, r.NetCPU, r.Detail)
		}
	}
	// Another suite (many more inputs to read and convert) has its own, larger baseline.
	var big []schemas.Test
	arr := "[" + strings.TrimSuffix(strings.Repeat("7,", 200), ",") + "]"
	for i := 0; i < 5000; i++ {
		big = append(big, schemas.Test{Index: int32(i + 1), Args: "[" + arr + ",3]"})
	}
	bigBl, err := MeasureBaseline(ctx, schemas.Python, sumParams, "int", big, opt)
	if err != nil || bigBl.Status != schemas.StatusOK {
		t.Fatalf("big baseline %+v, err %v", bigBl, err)
	}
	if bigBl.CPU <= bl.CPU {
		t.Errorf("a suite of 5000 arrays has overhead %v, not above the 3-test suite's %v", bigBl.CPU, bl.CPU)
	}
	t.Logf("baselines: 3 tests %v (%.0f KB), 5000 tests %v (%.0f KB)", bl.CPU, bl.RSSKB, bigBl.CPU, bigBl.RSSKB)
}

// TestProfileSuite: the programs of a suite are measured in rounds (round i starts
// with program i mod n), share one overhead measurement, and each gets the report
// Profile would give it: outputs, a compile error, a timeout that stops only its own
// repetitions.
func TestProfileSuite(t *testing.T) {
	ctx := context.Background()
	opt := quick
	opt.WorkDir = sharedCache
	opt.TimeLimit = time.Second
	cands := []execute.Candidate{
		{ID: "a", Code: "def sum_first(arr, n):\n    return sum(arr[:n])\n"},
		{ID: "bad", Code: "def sum_first(arr, n)\n    return 0\n"},
		{ID: "b", Code: "def sum_first(arr, n):\n    s = 0\n    for i in range(n):\n        s += arr[i]\n    return s\n"},
		{ID: "loop", Code: "def sum_first(arr, n):\n    while True:\n        n += 1\n"},
		{ID: "c", Code: "def sum_first(arr, n):\n    return sum(arr[i] for i in range(n))\n"},
	}
	var order []string
	observeRun = func(id string) { order = append(order, id) }
	defer func() { observeRun = nil }()
	reps, errs, err := ProfileSuite(ctx, schemas.Python, cands, sumParams, "int", sumTests, opt)
	if err != nil {
		t.Fatal(err)
	}
	for k, e := range errs {
		if e != nil {
			t.Fatalf("%s: %v", cands[k].ID, e)
		}
	}
	// the empty candidate's runs come first, then the rounds
	want := []string{"empty", // the baseline
		"a", "b", "loop", "c", // round 0 from program 0 (bad did not compile; loop timed out)
		"b", "c", "a", // round 1 from program 1
		"b", "c", "a", // round 2 from program 2
	}
	if strings.Join(order, ",") != strings.Join(want, ",") {
		t.Errorf("runs in the order %q, want %q", order, want)
	}
	for k, id := range []string{"a", "b", "c"} {
		r := reps[[]int{0, 2, 4}[k]]
		checkReport(t, id, r, expectedSums(t, false))
		if r.Overhead != reps[0].Overhead || r.OverheadRSSKB != reps[0].OverheadRSSKB {
			t.Errorf("%s: overhead %v, program a's %v: not one shared measurement", id, r.Overhead, reps[0].Overhead)
		}
	}
	if r := reps[1]; r.Status != schemas.StatusCompileError || len(r.CPUTime) != 0 || r.Overhead != 0 {
		t.Errorf("bad: %+v", r)
	}
	if r := reps[3]; r.Status != schemas.StatusTimeout || len(r.CPUTime) != 1 {
		t.Errorf("loop: status %s, %d runs", r.Status, len(r.CPUTime))
	}
	// Started and Ended bound each program's measured runs; the rounds interleave
	// them (a, b and c start in round 0, and a ends in round 2).
	for _, k := range []int{0, 2, 3, 4} {
		r := reps[k]
		var wall time.Duration
		for _, w := range r.WallTime {
			wall += w
		}
		if r.Started.IsZero() || r.Ended.Sub(r.Started) < wall {
			t.Errorf("%s: measured from %v to %v, shorter than its runs' wall time %v", cands[k].ID, r.Started, r.Ended, wall)
		}
	}
	if a, b, c := reps[0], reps[2], reps[4]; !(a.Started.Before(b.Started) && b.Started.Before(c.Started) && c.Started.Before(a.Ended)) {
		t.Errorf("not interleaved: a %v-%v, b from %v, c from %v", a.Started, a.Ended, b.Started, c.Started)
	}
	if r := reps[1]; !r.Started.IsZero() || !r.Ended.IsZero() {
		t.Errorf("bad never ran but has times %v-%v", r.Started, r.Ended)
	}
}

// The profiling harness takes its JSON primitives, value printer and argument
// adapters from the C++ engine's harness, once each, in place of its marker lines.
func TestProfHeaderSharesEngineAdapters(t *testing.T) {
	h := string(cppHeader)
	section := cpp.ValuePrinterAndAdapters()
	if !strings.Contains(h, section) {
		t.Fatal("prof.h does not hold the C++ engine's value printer and adapters")
	}
	if !strings.Contains(h, cpp.JSONPrimitives()) {
		t.Fatal("prof.h does not hold the C++ engine's JSON primitives")
	}
	for _, s := range []string{"struct Arr {", "struct Arr2 {", "struct Arr3 {", "struct Str {", "void pv(std::string& o",
		"void jstr(std::string& o", "void jdouble(std::string& o", "void jfloat(std::string& o"} {
		if n := strings.Count(h, s); n != 1 {
			t.Errorf("%q %d times in prof.h, want once", s, n)
		}
	}
	if strings.Contains(h, "TH_VALUE_PRINTER_AND_ADAPTERS") || strings.Contains(h, "TH_JSON_PRIMITIVES") || !strings.Contains(h, "struct Reader {") {
		t.Error("the marker line is left, or the rest of prof.h is lost")
	}
}
