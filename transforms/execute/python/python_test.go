package python

import (
	"strings"
	"testing"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/execute/executetest"
	"transmute/transforms/sandbox"
	"transmute/transforms/values"
)

func TestMain(m *testing.M) { sandbox.Main(m) }

func newEngine(t testing.TB) *Engine {
	t.Helper()
	e, err := New(execute.Options{WorkDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// TestRoundTrip passes a value of every type through an identity function (or a
// mutation for void) and checks the canonical output.
func TestRoundTrip(t *testing.T) {
	e := newEngine(t)
	cases := []struct {
		typ, ret, code, arg, want string
	}{
		{"int", "int", "def f(x):\n    return x + 1", "-2147483648", "-2147483647"},
		{"long", "long", "def f(x):\n    return x * 2", "4611686018427387903", "9223372036854775806"},
		{"float", "float", "def f(x):\n    return x / 2", "1.5", "0.75"},
		{"double", "double", "def f(x):\n    return x * 3", "0.1", "0.30000000000000004"},
		{"double", "double", "def f(x):\n    return x * 1e308 * 10", "1.0", `"Infinity"`},
		{"double", "double", "def f(x):\n    return float('nan')", "1.0", `"NaN"`},
		{"bool", "bool", "def f(x):\n    return not x", "false", "true"},
		{"int", "bool", "def f(x):\n    return 1 if x > 0 else 0", "5", "true"},
		{"char", "char", "def f(c):\n    return chr(ord(c) + 1)", `"a"`, `"b"`},
		{"string", "string", "def f(s):\n    return s[::-1] + '\"\\\\é'", `"ab\nc"`, `"c\nba\"\\é"`},
		{"int[]", "int[]", "def f(a):\n    return sorted(a)", "[3,1,2]", "[1,2,3]"},
		{"int[]", "int", "def f(a):\n    return len(a)", "[]", "0"},
		{"int[][]", "int[][]", "def f(m):\n    return [list(r) for r in zip(*m)]", "[[1,2],[3,4]]", "[[1,3],[2,4]]"},
		{"char[]", "string", "def f(a):\n    assert isinstance(a, list)\n    return ''.join(a)", `"xyz"`, `"xyz"`},
		{"char[]", "char[]", "def f(a):\n    return a[::-1]", `["x","y"]`, `["y","x"]`},
		{"int", "int[]", "def f(n):\n    return tuple(range(n))", "3", "[0,1,2]"},
		{"int[]", "void", "def f(a):\n    a.sort()", "[3,1,2]", "[[1,2,3]]"},
		// 3-D arrays (TransCoder-test's int dp[][][]): nested lists
		{"int[][][]", "int", "def f(d):\n    return len(d) + sum(x for p in d for r in p for x in r)", "[[[1,2],[3]],[],[[-4]]]", "5"},
		{"int[][][]", "int[][][]", "def f(d):\n    return [p[::-1] for p in d] + [[[9]]]", "[[[1,2],[3]],[]]", "[[[3],[1,2]],[],[[9]]]"},
		{"int[][][]", "void", "def f(d):\n    d[0][1][0] = 7\n    d[1].append([9])", "[[[1],[2]],[]]", "[[[[1],[7]],[[9]]]]"},
		{"char[][][]", "string", "def f(c):\n    return '|'.join(''.join(r) for p in c for r in p)", `[["ab",[]],[["c"]]]`, `"ab||c"`},
		{"int", "long", "def f(n):\n    return pow(3, n, 1000000007)", "100", "886041711"},
		{"int", "double", "def f(n):\n    return sqrt(n) + gcd(4, 6)", "16", "6.0"},
	}
	for _, c := range cases {
		b := execute.Batch{Lang: "python", Params: executetest.Params(c.typ), Returns: c.ret,
			Tests: executetest.Tests("[" + c.arg + "]"), Candidates: []execute.Candidate{{ID: "x", Code: c.code}}}
		r := executetest.Run(t, e, b)[0]
		if r.Status != schemas.StatusOK || r.Tests[0].Status != schemas.StatusOK {
			t.Errorf("%s -> %s: %s %s %+v", c.typ, c.ret, r.Status, r.Detail, r.Tests[0])
			continue
		}
		want := executetest.Canon(t, c.ret, c.want)
		if got := r.Tests[0].Output; !values.Equal(values.MustParseType(c.ret), got, want, values.Tolerance{}) {
			t.Errorf("%s -> %s %q: got %s, want %s", c.typ, c.ret, c.code, got, want)
		}
		if r.Tests[0].WallTime <= 0 {
			t.Errorf("%s: no wall time measured", c.code)
		}
	}
}

// TestFailures: compile errors, exceptions, timeouts, crashes and memory in one batch;
// every candidate gets its own result and the good ones are unaffected.
func TestFailures(t *testing.T) {
	e := newEngine(t)
	good := "def f(a, b):\n    print('noise')\n    return a // b"
	b := execute.Batch{Lang: "python", Params: executetest.Params("int", "int"), Returns: "int",
		Tests:  executetest.Tests("[7,2]", "[1,0]", "[9,3]"),
		Limits: sandbox.Limits{CPUTime: time.Second, WallTime: 2 * time.Second, MemoryBytes: 512 << 20},
		Candidates: []execute.Candidate{
			{ID: "good", Code: good},
			{ID: "syntax", Code: "def f(a, b)\n    return a"},
			{ID: "loop", Code: "def f(a, b):\n    while b == 0:\n        pass\n    return a"},
			{ID: "sleep", Code: "import time\ndef f(a, b):\n    time.sleep(100)"},
			{ID: "deep", Code: "def g(n):\n    return 0 if n == 0 else 1 + g(n - 1)\ndef f(a, b):\n    return g(100000) + a"},
			{ID: "memory", Code: "def f(a, b):\n    x = [0] * (10**10)\n    return a"},
			{ID: "exit", Code: "import os\ndef f(a, b):\n    if b == 0:\n        os._exit(0)\n    return a"},
			{ID: "entry", Code: "def g(a, b):\n    return 1\ndef h(a, b):\n    return 2", Entry: "g"},
			{ID: "noentry", Code: "x = 1"},
			{ID: "badimport", Code: "def f(a, b):\n    return a", Imports: "import numpy_does_not_exist"},
			good2(),
		}}
	res := executetest.Run(t, e, b)
	byID := executetest.ByID(res)
	expect := executetest.Expect(t, byID)
	ok, rt, to := schemas.StatusOK, schemas.StatusRuntimeError, schemas.StatusTimeout
	expect("good", ok, ok, rt, ok)
	if r := byID["good"]; r.Tests[0].Output != "3" || r.Tests[2].Output != "3" ||
		!strings.HasPrefix(r.Tests[1].Error, "ZeroDivisionError") {
		t.Errorf("good: %+v", r.Tests)
	}
	expect("syntax", schemas.StatusCompileError)
	if !strings.Contains(byID["syntax"].Detail, "SyntaxError") {
		t.Errorf("syntax detail %q", byID["syntax"].Detail)
	}
	expect("loop", to, ok, to, to)
	expect("sleep", to, to, to, to)
	// the test a child stopped on carries what it used: the loop reached one of its
	// limits (1 s CPU, 2 s wall: under load the wall limit may come first), the sleep
	// its wall limit with next to no CPU
	for id, first := range map[string]int{"loop": 1, "sleep": 0} {
		r := byID[id]
		for i := first; i < len(r.Tests); i++ {
			if e := r.Tests[i].Error; e != "time limit exceeded" {
				t.Errorf("%s test %d: error %q", id, i, e)
			}
		}
		cpu, wall := r.Tests[first].CPUTime, r.Tests[first].WallTime
		ok := cpu >= 990*time.Millisecond || wall >= 1900*time.Millisecond
		if id == "sleep" {
			ok = cpu < 500*time.Millisecond && wall >= 1900*time.Millisecond
		}
		if !ok || cpu > wall+100*time.Millisecond {
			t.Errorf("%s test %d: CPU %v, wall %v for a timeout at 1 s CPU / 2 s wall", id, first, cpu, wall)
		}
	}
	// Unbounded recursion unwinds 10**6 frames: give it more time.
	b.Candidates = []execute.Candidate{{ID: "recursion", Code: "def f(a, b):\n    return f(a, b) + 1"}}
	b.Tests = b.Tests[:1]
	b.Limits.CPUTime, b.Limits.WallTime = 20*time.Second, 30*time.Second
	if r := executetest.Run(t, e, b)[0]; r.Status != ok || r.Tests[0].Status != rt ||
		!strings.HasPrefix(r.Tests[0].Error, "RecursionError") {
		t.Errorf("recursion: %s %+v", r.Status, r.Tests[0])
	}
	expect("deep", ok, ok)
	if byID["deep"].Tests[0].Output != "100007" {
		t.Errorf("deep: %+v", byID["deep"].Tests[0])
	}
	expect("memory", schemas.StatusMemoryLimit, schemas.StatusMemoryLimit)
	expect("exit", ok, ok, rt, ok)
	expect("entry", ok, ok)
	if byID["entry"].Tests[0].Output != "1" {
		t.Errorf("entry: %+v", byID["entry"].Tests[0])
	}
	expect("noentry", schemas.StatusCompileError)
	expect("badimport", schemas.StatusCompileError)
	expect("good2", ok, ok, rt, ok)

	// Bad test data is the harness's problem, not the candidate's.
	b.Candidates = []execute.Candidate{{ID: "good", Code: good}}
	b.Tests = executetest.Tests("[7,2]", "[1,", `["xy",2]`)
	if r := executetest.Run(t, e, b)[0]; r.Tests[0].Status != ok || r.Tests[1].Status != schemas.StatusInfraError ||
		r.Tests[2].Status != schemas.StatusInfraError {
		t.Errorf("bad arguments: %+v", r.Tests)
	}
}

func good2() execute.Candidate {
	return execute.Candidate{ID: "good2", Code: "class Solution:\n    def solve(self, a, b):\n        return a % b"}
}

// TestTranscoderGold runs the Python gold functions of three TransCoder-test problems
// on the inputs of their Python test scripts and compares with the scripts' f_gold.
func TestTranscoderGold(t *testing.T) {
	executetest.TranscoderGold(t, "python", func() execute.Engine { return newEngine(t) })
}

// TestForgedProgress: a candidate that writes impossible figures into its progress
// (what the runner's watchdog and the timeout row's times are read from) and then
// loops gets a timeout with no time, and the worker goes on to the next candidate.
// Those that stop their own interval timers first are left to the watchdog.
func TestForgedProgress(t *testing.T) {
	e := newEngine(t)
	forge := func(since, cpu string, stopTimers bool) string {
		code := "import sys, signal\ndef f(x):\n    m = sys.modules['__main__']\n" +
			"    m.PROGRESS.pack_into(m.SHARED, 0, 0, " + since + ", " + cpu + ")\n"
		if stopTimers {
			code += "    signal.setitimer(signal.ITIMER_REAL, 0)\n    signal.setitimer(signal.ITIMER_PROF, 0)\n"
		}
		return code + "    while True:\n        pass"
	}
	b := execute.Batch{Lang: "python", Params: executetest.Params("int"), Returns: "int", Tests: executetest.Tests("[1]", "[2]"), Limits: quick,
		Candidates: []execute.Candidate{
			{ID: "inf", Code: forge("float('-inf')", "float('-inf')", true)},
			{ID: "nan", Code: forge("float('nan')", "float('nan')", true)},
			{ID: "huge", Code: forge("-1e300", "-1e300", true)},
			{ID: "future", Code: forge("float('inf')", "float('inf')", false)}, // its CPU timer stops it
			{ID: "after", Code: "def f(x):\n    return x + 1"},
		}}
	res := executetest.Run(t, e, b)
	for _, r := range res[:4] {
		tr := r.Tests[0]
		if r.Status != schemas.StatusTimeout || tr.Status != schemas.StatusTimeout {
			t.Errorf("%s: %s %s (%s), want a timeout", r.CandidateID, r.Status, tr.Status, tr.Error)
			continue
		}
		// the figures come from what the candidate wrote: none is plausible
		if tr.CPUTime != 0 || tr.WallTime != 0 {
			t.Errorf("%s: CPU %v, wall %v from a forged progress, want 0", r.CandidateID, tr.CPUTime, tr.WallTime)
		}
	}
	if r := res[4]; r.Status != schemas.StatusOK || r.Tests[1].Output != "3" {
		t.Errorf("after: %s %s %+v", r.Status, r.Detail, r.Tests)
	}
}
