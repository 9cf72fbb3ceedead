package cpp

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/execute/executetest"
	"transmute/transforms/sandbox"
	"transmute/transforms/values"
)

func TestMain(m *testing.M) {
	sandbox.Init()
	code := m.Run()
	if shared != nil {
		shared.Close()
		os.RemoveAll(sharedDir)
	}
	os.Exit(code)
}

var (
	sharedDir string
	shared    *Engine
)

// newEngine shares one cache (and precompiled header) between the package's tests.
func newEngine(t testing.TB) *Engine {
	t.Helper()
	if shared == nil {
		d, err := os.MkdirTemp("", "transmute-cpp-test-")
		if err != nil {
			t.Fatal(err)
		}
		sharedDir = d
		if shared, err = New(execute.Options{WorkDir: d}); err != nil {
			t.Fatal(err)
		}
	}
	return shared
}

func TestPrecompiledHeader(t *testing.T) {
	e := newEngine(t)
	if !e.Precompiled() {
		t.Errorf("the precompiled header is not used")
	}
	if got := LastFunction("int helper(int x) { return x; }\ntemplate <class T> T g(T a) { return a; }\nlong long* f(int a[], int n) { return 0; }\nint main() {}"); got != "f" {
		t.Errorf("LastFunction = %q, want f", got)
	}
}

// TestRoundTrip passes values of every type through functions and checks the
// canonical outputs; each batch holds several candidates (different C++ signatures for
// the same declared types), to test the argument adapters.
func TestRoundTrip(t *testing.T) {
	e := newEngine(t)
	type tc struct{ args, want string }
	cases := []struct {
		types []string
		ret   string
		codes []string
		tests []tc
	}{
		{[]string{"int", "int[]", "int[][]", "char[]"}, "int", []string{
			"int f(int x, int a[], int** m, char s[]) { return x + a[0] + a[2] + m[1][0] + strlen(s); }",
			"int f(long long x, vector<int>& a, vector<vector<int>>& m, vector<char>& s) { return x + a[0] + a[2] + m[1][0] + s.size(); }",
			"int f(int x, const vector<int>& a, const vector<vector<int>>& m, string s) { return x + a[0] + a[2] + m[1][0] + s.size(); }",
			"int f(int x, vector<long long> a, int m[][2], const char* s) { return x + a[0] + a[2] + m[1][0] + strlen(s); }",
			"long long f(int& x, vector<int> a, vector<vector<int>> m, const string& s) { return x + a[0] + a[2] + m[1][0] + s.size(); }",
		}, []tc{{`[-2147483648,[3,1,2],[[1,2],[3,4]],"xyz"]`, "-2147483637"}, {`[5,[0,0,0],[[0],[1]],["a"]]`, "7"}}},
		{[]string{"long", "long[]"}, "long", []string{
			"long long f(long long x, long long a[]) { return x * 2 + a[1]; }",
			"long f(long x, long a[]) { return x * 2 + a[1]; }",
		}, []tc{{"[4611686018427387903,[0,-1]]", "9223372036854775805"}, {"[1,[1,9000000000]]", "9000000002"}}},
		{[]string{"float"}, "float", []string{"float f(float x) { return x / 3; }"}, []tc{{"[1.0]", "0.33333334"}}},
		{[]string{"double"}, "double", []string{"double f(double x) { return x > 1 ? x * 1e308 * 10 : x * 3; }", "double f(const double x) { return x > 1 ? HUGE_VAL : x * 3; }"},
			[]tc{{"[0.1]", "0.30000000000000004"}, {"[10]", `"Infinity"`}}},
		{[]string{"bool", "int"}, "bool", []string{"bool f(bool x, int y) { return !x && y; }", "int f(int x, int y) { return x ? 0 : y; }"},
			[]tc{{"[false,1]", "true"}, {"[true,1]", "false"}}},
		{[]string{"char"}, "char", []string{"char f(char c) { return c + 1; }", "int f(char c) { return c + 1; }"}, []tc{{`["a"]`, `"b"`}}},
		{[]string{"string"}, "string", []string{
			"string f(string s) { reverse(s.begin(), s.end()); return s + \"\\\"\\\\\"; }",
			"string f(const string& s) { string r(s.rbegin(), s.rend()); return r + \"\\\"\\\\\"; }",
			"string f(char* s) { string r(s); reverse(r.begin(), r.end()); return r + \"\\\"\\\\\"; }",
		}, []tc{{`["ab\nc"]`, `"c\nba\"\\"`}, {`[""]`, `"\"\\"`}}},
		{[]string{"int[]", "int[][]"}, "int[][]", []string{
			"vector<vector<int>> f(vector<int> a, vector<vector<int>> m) { sort(a.begin(), a.end()); m.push_back(a); return m; }",
		}, []tc{{"[[3,1,2],[[1],[]]]", "[[1],[],[1,2,3]]"}}},
		{[]string{"char[]"}, "char[]", []string{
			"vector<char> f(vector<char> s) { reverse(s.begin(), s.end()); return s; }",
			"string f(string s) { reverse(s.begin(), s.end()); return s; }",
		}, []tc{{`[["x","y"]]`, `["y","x"]`}, {`["abc"]`, `["c","b","a"]`}}},
		{[]string{"int[]", "bool[]", "int"}, "void", []string{
			"void f(int a[], bool b[], int n) { sort(a, a + n); b[0] = !b[0]; }",
			"void f(vector<int>& a, vector<bool>& b, int n) { sort(a.begin(), a.end()); b[0] = !b[0]; }",
		}, []tc{{"[[3,1,2],[true,true],3]", "[[1,2,3],[false,true]]"}}},
		// 3-D arrays (TransCoder-test's int dp[][N][N]): n planes of 2 x 3 for the
		// fixed-size and pointer views; empty planes and rows for the vectors
		{[]string{"int[][][]", "int"}, "int", []string{
			"int f(vector<vector<vector<int>>>& d, int n) { int s = 0; for (auto& p : d) for (auto& r : p) for (int x : r) s += x; return s + d.size(); }",
			"int f(const vector<vector<vector<int>>>& d, int n) { int s = n; for (auto& p : d) for (auto& r : p) for (int x : r) s += x; return s; }",
			"long long f(vector<vector<vector<long long>>> d, long long n) { long long s = 0; for (auto& p : d) for (auto& r : p) for (auto x : r) s += x; return s + n; }",
			"int f(int d[][2][3], int n) { int s = n; for (int i = 0; i < n; i++) for (int j = 0; j < 2; j++) for (int k = 0; k < 3; k++) s += d[i][j][k]; return s; }",
			"int f(int*** d, int n) { int s = n; for (int i = 0; i < n; i++) for (int j = 0; j < 2; j++) for (int k = 0; k < 3; k++) s += d[i][j][k]; return s; }",
		}, []tc{{"[[[[1,2,3],[4,5,6]],[[7,8,9],[10,11,12]]],2]", "80"}, {"[[[[-1,0,0],[0,0,2147483647]]],1]", "2147483647"}, {"[[],0]", "0"}}},
		{[]string{"int[][][]", "int"}, "int", []string{
			"int f(vector<vector<vector<int>>>& d, int n) { int s = n; for (auto& p : d) for (auto& r : p) for (int x : r) s += x; return s; }",
		}, []tc{{"[[[],[[]],[[5],[],[6,7]]],3]", "21"}}},
		{[]string{"int[][][]"}, "int[][][]", []string{
			"vector<vector<vector<int>>> f(vector<vector<vector<int>>> d) { for (auto& p : d) reverse(p.begin(), p.end()); d.push_back({{9}}); return d; }",
		}, []tc{{"[[[[1,2],[3]],[]]]", "[[[3],[1,2]],[],[[9]]]"}}},
		{[]string{"char[][][]", "bool[][][]"}, "int", []string{
			"int f(vector<vector<vector<char>>>& c, const vector<vector<vector<bool>>>& b) { int s = 0; for (auto& p : c) for (auto& r : p) for (char x : r) s += x == 'a'; for (auto& p : b) for (auto& r : p) for (bool x : r) s += 10 * x; return s; }",
			"int f(vector<vector<string>> c, vector<vector<vector<bool>>> b) { int s = 0; for (auto& p : c) for (auto& r : p) s += count(r.begin(), r.end(), 'a'); for (auto& p : b) for (auto& r : p) for (bool x : r) s += 10 * x; return s; }",
		}, []tc{{`[[["ab","a"],[]],[[[true],[false,true]]]]`, "22"}}},
		{[]string{"string[][][]"}, "int", []string{
			"int f(vector<vector<vector<string>>>& s) { int n = s.size(); for (auto& p : s) for (auto& r : p) for (auto& x : r) n += x.size(); return n; }",
		}, []tc{{`[[[["ab","c"]],[],[[""],[]]]]`, "6"}, {`[[[["x"]]]]`, "2"}, {`[[]]`, "0"}}},
		// void: the memoization table filled in, read back through each view
		{[]string{"int[][][]", "int", "int", "int"}, "void", []string{
			"void f(vector<vector<vector<int>>>& dp, int n, int m, int k) { for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) for (int l = 0; l < k; l++) dp[i][j][l] += i * 100 + j * 10 + l; }",
			"void f(int dp[][2][3], int n, int m, int k) { for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) for (int l = 0; l < k; l++) dp[i][j][l] += i * 100 + j * 10 + l; }",
			"void f(int*** dp, int n, int m, int k) { for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) for (int l = 0; l < k; l++) dp[i][j][l] += i * 100 + j * 10 + l; }",
		}, []tc{{"[[[[1,1,1],[1,1,1]],[[-1,-1,-1],[-1,-1,-1]]],2,2,3]", "[[[[1,2,3],[11,12,13]],[[99,100,101],[109,110,111]]]]"},
			{"[[],0,0,0]", "[[]]"}}},
		{[]string{"bool[][][]", "char[][][]"}, "void", []string{
			"void f(vector<vector<vector<bool>>>& b, vector<vector<vector<char>>>& c) { b[0][1][0] = !b[0][1][0]; c[1][0][1] = 'z'; }",
		}, []tc{{`[[[[true],[false]]],[[],[["x","y"]]]]`, `[[[[true],[true]]],[[],[["x","z"]]]]`}}},
	}
	for _, c := range cases {
		b := execute.Batch{Lang: "cpp", Params: executetest.Params(c.types...), Returns: c.ret}
		for _, x := range c.tests {
			b.Tests = append(b.Tests, executetest.Tests(x.args)[0])
			b.Tests[len(b.Tests)-1].Index = int32(len(b.Tests) - 1)
		}
		for i, code := range c.codes {
			b.Candidates = append(b.Candidates, execute.Candidate{ID: fmt.Sprint(i), Code: code})
		}
		for i, r := range executetest.Run(t, e, b) {
			if r.Status != schemas.StatusOK {
				t.Errorf("%v -> %s %q: %s %s", c.types, c.ret, c.codes[i], r.Status, r.Detail)
				continue
			}
			for j, x := range c.tests {
				tr := r.Tests[j]
				want := executetest.Canon(t, c.ret, x.want)
				if tr.Status != schemas.StatusOK || !values.Equal(values.MustParseType(c.ret), tr.Output, want, values.Tolerance{}) {
					t.Errorf("%v -> %s %q on %s: %s %s %s, want %s", c.types, c.ret, c.codes[i], x.args, tr.Status, tr.Error, tr.Output, want)
				}
				if tr.Status == schemas.StatusOK && tr.WallTime <= 0 {
					t.Errorf("%q: no wall time measured", c.codes[i])
				}
			}
		}
	}
	st := e.Stats()
	t.Logf("%d compiles in %v, %d runs", st.Compiles, st.Compile, st.Runs)
}

// TestFailures puts compile errors, a crash, an exception, an infinite loop and memory
// exhaustion in one batch: each gets its status, the others are unaffected.
func TestFailures(t *testing.T) {
	e := newEngine(t)
	before := e.Stats()
	good := "#include <numeric>\nint f(int a, int b) { cout << \"noise\" << endl; printf(\"{\\\"c\\\":0}\\n\"); return gcd(a, b) + a / b; }"
	b := execute.Batch{Lang: "cpp", Params: executetest.Params("int", "int"), Returns: "int",
		Tests:  executetest.Tests("[6,2]", "[1,0]", "[9,3]"),
		Limits: sandbox.Limits{CPUTime: time.Second, WallTime: 2 * time.Second, MemoryBytes: 512 << 20},
		Candidates: []execute.Candidate{
			{ID: "syntax", Code: "int f(int a, int b) { return a +; }"},
			{ID: "good", Code: "int f(int a, int b) { if (b == 0) return -1; return a / b; }"},
			{ID: "types", Code: "int f(int a, int b) { return undefined_thing(a); }"},
			{ID: "loop", Code: "int f(int a, int b) { volatile int x = 0; while (b == 0) x++; return a; }"},
			{ID: "throw", Code: "int f(int a, int b) { if (b == 0) throw std::runtime_error(\"zero\"); return a; }"},
			{ID: "segv", Code: "int f(int a, int b) { if (b == 0) { volatile int* p = nullptr; return *p; } return a * b; }"},
			{ID: "memory", Code: "int f(int a, int b) { vector<long long> v(2000000000LL); return v[a]; }"},
			{ID: "abort", Code: "#define SQ(x) ((x)*(x))\nint f(int a, int b) { if (b == 0) abort(); return SQ(a); }"},
			{ID: "macro", Code: "int f(int a, int b) { return SQ(a); }"}, // SQ of the candidate before must not leak
			{ID: "helper", Code: "static int calls = 0;\nint helper(int x) { return x + 1; }\nint f(int a, int b) { return helper(a) + calls++; }"},
			{ID: "good2", Code: good},
			{ID: "noentry", Code: "int x = 3;"},
			{ID: "brace", Code: "int f(int a, int b) { return a;"},
		}}
	res := executetest.Run(t, e, b)
	byID := executetest.ByID(res)
	ok, rt, to, ce := schemas.StatusOK, schemas.StatusRuntimeError, schemas.StatusTimeout, schemas.StatusCompileError
	expect := executetest.Expect(t, byID)
	outputs := func(id string, want ...string) {
		t.Helper()
		for i, w := range want {
			if w != "" && byID[id].Tests[i].Output != w {
				t.Errorf("%s test %d: output %q, want %q", id, i, byID[id].Tests[i].Output, w)
			}
		}
	}
	expect("syntax", ce)
	if !strings.Contains(byID["syntax"].Detail, "error") {
		t.Errorf("syntax detail: %q", byID["syntax"].Detail)
	}
	expect("types", ce)
	if !strings.Contains(byID["types"].Detail, "undefined_thing") {
		t.Errorf("types detail: %q", byID["types"].Detail)
	}
	expect("good", ok, ok, ok, ok)
	outputs("good", "3", "-1", "3")
	expect("loop", to, ok, to, ok)
	expect("throw", ok, ok, rt, ok)
	if !strings.Contains(byID["throw"].Tests[1].Error, "runtime_error: zero") {
		t.Errorf("throw: %q", byID["throw"].Tests[1].Error)
	}
	expect("segv", ok, ok, rt, ok)
	outputs("segv", "12", "", "27")
	expect("memory", schemas.StatusMemoryLimit, schemas.StatusMemoryLimit)
	expect("abort", ok, ok, rt, ok)
	outputs("abort", "36", "", "81")
	expect("macro", ce)
	expect("helper", ok, ok, ok, ok)
	outputs("helper", "7", "3", "12")
	expect("good2", ok, ok, rt, ok)
	outputs("good2", "5", "", "6")
	expect("noentry", ce)
	expect("brace", ce)
	b.Tests = executetest.Tests("[1,1]", "[2,1]", "[3,1]", "[0,1]", "[5,1]")
	for _, r := range executetest.Run(t, e, execute.Batch{Lang: "cpp", Params: b.Params, Returns: "int", Tests: b.Tests,
		Limits: sandbox.Limits{CPUTime: 300 * time.Millisecond, WallTime: time.Second}, Candidates: []execute.Candidate{{ID: "spin", Code: "int f(int a, int b) { volatile int x = 0; while (a > 0) x++; return a; }"}}}) {
		// three timeouts in a row: the rest are reported without being run
		for k, want := range []schemas.Status{to, to, to, to, to} {
			if r.Tests[k].Status != want {
				t.Errorf("spin test %d: %s %s", k, r.Tests[k].Status, r.Tests[k].Error)
			}
		}
		if !strings.Contains(r.Tests[3].Error, "consecutive") {
			t.Errorf("spin test 3 was run: %+v", r.Tests[3])
		}
	}
	after := e.Stats()
	t.Logf("compiles: %d, runs: %d", after.Compiles-before.Compiles, after.Runs-before.Runs)
}

// TestBisection: a link error names no line of the program, so the engine halves the
// candidates until the failing one is alone.
func TestBisection(t *testing.T) {
	e := newEngine(t)
	b := execute.Batch{Lang: "cpp", Params: executetest.Params("int"), Returns: "long", Tests: executetest.Tests("[3]", "[1,"),
		Candidates: []execute.Candidate{
			{ID: "a", Code: "long long f(int x) { return x + 1LL; }"},
			{ID: "link", Code: "int g(int);\nlong long f(int x) { return g(x); }"},
			{ID: "c", Code: "long long f(int x) { return x + 3LL; }"},
			{ID: "d", Code: "long long f(int x) { return x + 4LL; }"},
		}}
	res := executetest.Run(t, e, b)
	for k, want := range []string{"4", "", "6", "7"} {
		r := res[k]
		if want == "" {
			if r.Status != schemas.StatusCompileError || !strings.Contains(r.Detail, "undefined reference") {
				t.Errorf("%s: %s %q", r.CandidateID, r.Status, r.Detail)
			}
			continue
		}
		// bad test data (test 1) is the harness's problem, not the candidate's; the
		// collector makes it the run's status
		if r.Status != schemas.StatusInfraError || r.Tests[0].Status != schemas.StatusOK || r.Tests[0].Output != want {
			t.Errorf("%s: %s %s %+v", r.CandidateID, r.Status, r.Detail, r.Tests[0])
		}
		if r.Tests[1].Status != schemas.StatusInfraError || !strings.Contains(r.Tests[1].Error, "bad test arguments") {
			t.Errorf("%s test 1: %+v", r.CandidateID, r.Tests[1])
		}
	}
}

// TestProgramDoesNotStart: a candidate whose static initializer aborts stops the
// whole program before main; the engine splits the program and the others run.
func TestProgramDoesNotStart(t *testing.T) {
	e := newEngine(t)
	b := execute.Batch{Lang: "cpp", Params: executetest.Params("int"), Returns: "int", Tests: executetest.Tests("[1]", "[2]"),
		Candidates: []execute.Candidate{
			{ID: "static", Code: "static int boom = [] { abort(); return 0; }();\nint f(int x) { return x + boom; }"},
			{ID: "a", Code: "int f(int x) { return x * 10; }"},
			{ID: "b", Code: "int f(int x) { return x * 20; }"},
		}}
	res := executetest.Run(t, e, b)
	if r := res[0]; r.Status != schemas.StatusRuntimeError || r.Tests[0].Status != schemas.StatusRuntimeError {
		t.Errorf("static: %s %+v", r.Status, r.Tests)
	}
	for k, want := range map[int][2]string{1: {"10", "20"}, 2: {"20", "40"}} {
		r := res[k]
		if r.Status != schemas.StatusOK || r.Tests[0].Output != want[0] || r.Tests[1].Output != want[1] {
			t.Errorf("%s: %s %+v", r.CandidateID, r.Status, r.Tests)
		}
	}
}

// TestTranscoderGold runs the C++ gold functions of three TransCoder-test problems
// on the inputs of their Python test scripts and compares with the scripts' f_gold.
func TestTranscoderGold(t *testing.T) {
	executetest.TranscoderGold(t, "cpp", func() execute.Engine { return newEngine(t) })
}

func TestStopAfterTimeouts(t *testing.T) {
	e := newEngine(t)
	b := execute.Batch{Lang: "cpp", Params: executetest.Params("int", "int"), Returns: "int",
		Tests:             executetest.Tests("[6,2]", "[1,0]", "[9,3]"),
		Limits:            sandbox.Limits{CPUTime: 300 * time.Millisecond, WallTime: time.Second, MemoryBytes: 512 << 20},
		StopAfterTimeouts: 1,
		Candidates: []execute.Candidate{
			{ID: "loop", Code: "int f(int a, int b) { volatile int x = 0; while (b == 0) x++; return a; }"},
			{ID: "good", Code: "int f(int a, int b) { return a + b; }"},
		}}
	res := executetest.Run(t, e, b)
	got := []string{}
	for _, tr := range res[0].Tests {
		got = append(got, string(tr.Status))
	}
	if res[0].Status != schemas.StatusTimeout || strings.Join(got, ",") != "ok,timeout,timeout" ||
		!strings.Contains(res[0].Tests[2].Error, "not run") {
		t.Errorf("loop: %s %v (%q)", res[0].Status, got, res[0].Tests[2].Error)
	}
	if res[1].Status != schemas.StatusOK || res[1].Tests[2].Output != "12" {
		t.Errorf("good: %+v", res[1])
	}
}

// A gold that reads past its VLA (DELANNOY_NUMBER_1 of TransCoder-test writes and
// reads dp[0][i] up to m with n+1 columns) returns whatever lies there; with bounds
// checks the test that does so is a runtime error, and the others are unchanged. In
// one RunAll with an unchecked batch, each batch keeps its own flags.
func TestBoundsChecks(t *testing.T) {
	e := newEngine(t)
	code := `int dealnnoy(int n, int m) {
  int dp[m + 1][n + 1];
  for (int i = 0; i <= m; i++) dp[i][0] = 1;
  for (int i = 0; i <= m; i++) dp[0][i] = 1;
  for (int i = 1; i <= m; i++) for (int j = 1; j <= n; j++) dp[i][j] = dp[i - 1][j] + dp[i - 1][j - 1] + dp[i][j - 1];
  return dp[m][n];
}`
	mk := func(checked bool) execute.Batch {
		return execute.Batch{Lang: "cpp", Params: executetest.Params("int", "int"), Returns: "int",
			Tests:        executetest.Tests("[3,3]", "[2,6]", "[2,2]"),
			Limits:       sandbox.Limits{CPUTime: 2 * time.Second, WallTime: 3 * time.Second},
			BoundsChecks: checked,
			Candidates:   []execute.Candidate{{ID: "gold", Code: code, Entry: "dealnnoy"}}}
	}
	res, err := e.RunAll(context.Background(), []execute.Batch{mk(true), mk(false)})
	if err != nil {
		t.Fatal(err)
	}
	statuses := func(r execute.Result) string {
		var s []string
		for _, tr := range r.Tests {
			s = append(s, string(tr.Status))
		}
		return strings.Join(s, ",")
	}
	checked, plain := res[0][0], res[1][0]
	// D(3,3) = 63 and D(2,2) = 13 stay inside the array; [2,6] (n=2, m=6) writes
	// dp[0][3..6] past its row of 3.
	if got := statuses(checked); got != "ok,runtime_error,ok" {
		t.Errorf("checked statuses %s: %+v", got, checked.Tests)
	}
	if checked.Tests[0].Output != "63" || checked.Tests[2].Output != "13" {
		t.Errorf("checked outputs: %+v", checked.Tests)
	}
	if checked.Tests[1].Error == "" {
		t.Errorf("checked test 1 has no error: %+v", checked.Tests[1])
	}
	if got := statuses(plain); got != "ok,ok,ok" {
		t.Errorf("plain statuses %s: %+v", got, plain.Tests)
	}
}
