package cpp

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/execute/executetest"
	"transmute/transforms/sandbox"
)

// TestRunAllMatchesAlone runs batches of different problems (signatures, a void
// function, a candidate that does not compile, one that loops, one with a bad
// problem type) as one group and checks that every candidate gets exactly the result
// it gets when its batch runs alone.
func TestRunAllMatchesAlone(t *testing.T) {
	e := newEngine(t)
	lim := sandbox.Limits{CPUTime: time.Second, WallTime: 2 * time.Second}
	batches := []execute.Batch{
		{ProblemID: "sum", Lang: "cpp", Params: executetest.Params("int[]", "int"), Returns: "int", Tests: executetest.Tests("[[1,2,3],3]", "[[5],1]", "[[],0]"),
			Candidates: []execute.Candidate{
				{ID: "gold", Code: "int f(int a[], int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }"},
				{ID: "vec", Code: "#include <numeric>\nint f(vector<int>& a, int n) { return accumulate(a.begin(), a.begin() + n, 0); }"},
				{ID: "broken", Code: "int f(int a[], int n) { return undefined_thing(a, n); }"},
				{ID: "throws", Code: "int f(int a[], int n) { if (n == 1) throw std::runtime_error(\"one\"); return n; }"},
			}},
		{ProblemID: "rev", Lang: "cpp", Params: executetest.Params("char[]"), Returns: "void", Tests: executetest.Tests(`[["a","b","c"]]`, `[["x"]]`),
			Candidates: []execute.Candidate{
				{ID: "gold", Code: "void f(char s[]) { int n = strlen(s); reverse(s, s + n); }"},
				{ID: "loop", Code: "void f(char s[]) { while (true) { s[0]++; } }"},
			}},
		{ProblemID: "str", Lang: "cpp", Params: executetest.Params("string", "double"), Returns: "string", Tests: executetest.Tests(`["ab",1.5]`, `["",2]`),
			Candidates: []execute.Candidate{
				{ID: "gold", Code: "#define TIMES 2\nstring f(string s, double d) { string r; for (int i = 0; i < TIMES; i++) r += s; return r + to_string((int)d); }"},
				{ID: "nofn", Code: "// nothing here"},
			}},
		{ProblemID: "badtype", Lang: "cpp", Params: executetest.Params("int[][][][]"), Returns: "int", Tests: executetest.Tests("[[[[[1]]]]]"),
			Candidates: []execute.Candidate{{ID: "gold", Code: "int f(int**** a) { return 1; }"}}},
	}
	for i := range batches {
		batches[i].Limits = lim
		batches[i].StopAfterTimeouts = 1
	}
	before := e.Stats()
	all, err := e.RunAll(context.Background(), batches)
	if err != nil {
		t.Fatal(err)
	}
	groupCompiles := e.Stats().Compiles - before.Compiles
	if checks := e.Stats().SyntaxChecks - before.SyntaxChecks; checks != 0 {
		// every candidate is contained, so the unit's messages decide the broken one
		// (see TestSpillingCandidate for the check alone)
		t.Errorf("%d syntax checks, want none", checks)
	}
	if len(all) != len(batches) {
		t.Fatalf("%d result sets for %d batches", len(all), len(batches))
	}
	aloneCompiles := 0
	for j, b := range batches {
		before := e.Stats().Compiles
		alone := executetest.Run(t, e, b)
		aloneCompiles += e.Stats().Compiles - before
		if len(all[j]) != len(alone) {
			t.Fatalf("%s: %d results grouped, %d alone", b.ProblemID, len(all[j]), len(alone))
		}
		for i := range alone {
			if d := diffResult(all[j][i], alone[i]); d != "" {
				t.Errorf("%s/%s: grouped and alone differ: %s", b.ProblemID, alone[i].CandidateID, d)
			}
		}
	}
	// spot checks, so that equality is not equality of two wrong answers
	want := map[string]schemas.Status{"sum/gold": "ok", "sum/vec": "ok", "sum/broken": "compile_error", "sum/throws": "ok",
		"rev/gold": "ok", "rev/loop": "timeout", "str/gold": "ok", "str/nofn": "compile_error", "badtype/gold": "infra_error"}
	for j, b := range batches {
		for _, r := range all[j] {
			if w := want[b.ProblemID+"/"+r.CandidateID]; r.Status != w {
				t.Errorf("%s/%s: status %s (%s), want %s", b.ProblemID, r.CandidateID, r.Status, r.Detail, w)
			}
		}
	}
	if got := all[0][1].Tests[0].Output; got != "6" {
		t.Errorf("sum/vec test 0 = %q, want 6", got)
	}
	if got := all[0][3].Tests[1]; got.Status != schemas.StatusRuntimeError {
		t.Errorf("sum/throws test 1 = %+v, want runtime_error", got)
	}
	if got := all[1][0].Tests[0].Output; got != `[["c","b","a"]]` {
		t.Errorf("rev/gold test 0 = %q", got)
	}
	if got := all[2][0].Tests[0].Output; got != `"abab1"` {
		t.Errorf("str/gold test 0 = %q", got)
	}
	t.Logf("compiles: %d grouped, %d alone", groupCompiles, aloneCompiles)
	if groupCompiles >= aloneCompiles {
		t.Errorf("grouping compiled %d programs, alone %d: it should share translation units", groupCompiles, aloneCompiles)
	}
}

// TestSpillingCandidate: a candidate with an extra closing brace ends its namespace
// early, one with an unclosed brace swallows the namespaces after it. Such a candidate
// is not contained (lex.go): it goes last in the unit, and it is checked alone; the
// errors of a contained candidate are taken from the unit's messages. Only the
// candidates that fail alone are compile errors.
func TestSpillingCandidate(t *testing.T) {
	e := newEngine(t)
	for _, spill := range []string{
		"int f(int x) { return x; } }",
		"int f(int x) { if (x > 0) { return x; }",
	} {
		b := intBatch("spill", "int", executetest.Tests("[1]", "[2]"), []execute.Candidate{
			{ID: "good0", Code: "int f(int x) { return x; }"},
			{ID: "spill", Code: spill},
			{ID: "good1", Code: "int f(int x) { return x + 1; }"},
			{ID: "broken", Code: "int f(int x) { return nope(x); }"},
			{ID: "good2", Code: "int f(int x) { return x + 2; }"},
		})
		before := e.Stats()
		res := executetest.Run(t, e, b)
		want := map[string]schemas.Status{"good0": "ok", "spill": "compile_error", "good1": "ok", "broken": "compile_error", "good2": "ok"}
		for _, r := range res {
			if r.Status != want[r.CandidateID] {
				t.Errorf("%q %s: %s (%s), want %s", spill, r.CandidateID, r.Status, r.Detail, want[r.CandidateID])
			}
		}
		if got := res[2].Tests[1].Output; got != "3" {
			t.Errorf("%q: good1 test 1 = %q, want 3", spill, got)
		}
		if !strings.Contains(res[3].Detail, "nope") {
			t.Errorf("%q: broken's message %q does not name its error", spill, res[3].Detail)
		}
		// the extra brace's error is at the spilling candidate's own lines: it is
		// checked alone, the broken one is not
		if checks := e.Stats().SyntaxChecks - before.SyntaxChecks; strings.HasSuffix(spill, "} }") && checks != 1 {
			t.Errorf("%d syntax checks, want 1 (the spilling candidate alone)", checks)
		}
	}
}

// TestLocalSyntaxErrorsTrusted: LLM translations that do not compile mostly hold a
// local syntax error (a bad for header, a missing semicolon). Their brackets close,
// so the unit's messages decide them without a check alone, and the candidates
// around them run.
func TestLocalSyntaxErrorsTrusted(t *testing.T) {
	e := newEngine(t)
	b := intBatch("local", "int", executetest.Tests("[1]", "[5]"), []execute.Candidate{
		{ID: "badfor", Code: "int f(int x) { int s = 0; for (int i = 0; i < x) s += i; return s; }"},
		{ID: "good", Code: "int f(int x) { return x * 2; }"},
		{ID: "nosemi", Code: "int f(int x) { int y = x return y; }"},
		{ID: "good2", Code: "int f(int x) { return x - 1; }"},
	})
	before := e.Stats()
	res := executetest.Run(t, e, b)
	want := map[string]schemas.Status{"badfor": "compile_error", "good": "ok", "nosemi": "compile_error", "good2": "ok"}
	for _, r := range res {
		if r.Status != want[r.CandidateID] {
			t.Errorf("%s: %s (%s), want %s", r.CandidateID, r.Status, r.Detail, want[r.CandidateID])
		}
	}
	if got := res[1].Tests[1].Output; got != "10" {
		t.Errorf("good test 1 = %q, want 10", got)
	}
	st := e.Stats()
	if checks := st.SyntaxChecks - before.SyntaxChecks; checks != 0 {
		t.Errorf("%d syntax checks, want none", checks)
	}
	if builds := st.Compiles - before.Compiles; builds != 2 {
		t.Errorf("%d builds, want 2 (the unit, then the unit without the two)", builds)
	}
}

// TestMacrosRestored: a candidate that redefines or undefines a standard macro does
// not change it for the candidates after it in the unit; alone they compile and
// return INT_MAX and INT_MIN, and so they must in the unit.
func TestMacrosRestored(t *testing.T) {
	e := newEngine(t)
	b := intBatch("macros", "long", executetest.Tests("[0]", "[1]"), []execute.Candidate{
		{ID: "redef", Code: "#define INT_MAX 5\n#undef INT_MIN\nlong f(int x) { return x ? INT_MAX : 0; }"},
		{ID: "uses", Code: "long f(int x) { return x ? (long)INT_MAX : (long)INT_MIN; }"},
		{ID: "own", Code: "#define TWICE(v) ((v) * 2)\nlong f(int x) { return TWICE(x + 1); }"},
		{ID: "after", Code: "#ifdef TWICE\nlong f(int x) { return -1; }\n#else\nlong f(int x) { return x; }\n#endif", Entry: "f"},
	})
	res := executetest.Run(t, e, b)
	want := [][]string{{"0", "5"}, {"-2147483648", "2147483647"}, {"2", "4"}, {"0", "1"}}
	for i, r := range res {
		if r.Status != schemas.StatusOK || len(r.Tests) != 2 {
			t.Errorf("%s: %s (%s)", r.CandidateID, r.Status, r.Detail)
			continue
		}
		for k, w := range want[i] {
			if got := r.Tests[k].Output; got != w {
				t.Errorf("%s test %d = %q, want %q", r.CandidateID, k, got, w)
			}
		}
	}
}

func diffResult(a, b execute.Result) string {
	if a.CandidateID != b.CandidateID || a.Status != b.Status {
		return fmt.Sprintf("%s %s vs %s %s", a.CandidateID, a.Status, b.CandidateID, b.Status)
	}
	if len(a.Tests) != len(b.Tests) {
		return fmt.Sprintf("%d tests vs %d", len(a.Tests), len(b.Tests))
	}
	for i := range a.Tests {
		x, y := a.Tests[i], b.Tests[i]
		if x.Index != y.Index || x.Status != y.Status || x.Output != y.Output {
			return fmt.Sprintf("test %d: %s %q vs %s %q", i, x.Status, x.Output, y.Status, y.Output)
		}
	}
	return ""
}

// TestSuspectsIgnoreNotes: an error in one candidate whose note suggests another
// candidate's function of the same name must not make the other a suspect; an error
// inside harness.h counts for the unit line it was instantiated from.
func TestSuspectsIgnoreNotes(t *testing.T) {
	u := unit{spans: map[int][]span{0: {{10, 20}}, 1: {{20, 30}}, 2: {{30, 40}}, 3: {{40, 50}}}}
	msg := `tu.cpp: In function 'void call_1(th::p0::Args&, std::string&)':
tu.cpp:25:19: error: 'encrypt' is not a member of 'c1'
tu.cpp:25:19: note: suggested alternatives:
tu.cpp:12:8: note:   'c0::encrypt'
In file included from tu.cpp:1:
harness.h:150:3: error: no match for 'operator+='
tu.cpp:44:5:   required from here
`
	got := suspects(msg, u)
	if !got[1] || !got[3] || got[0] || got[2] || len(got) != 2 {
		t.Errorf("suspects = %v, want {1, 3}", got)
	}
}

// TestMessagesAt: a candidate's own diagnostics and their source excerpts, and
// nothing of another candidate's.
func TestMessagesAt(t *testing.T) {
	msg := `tu.cpp: In function 'int c0::f(int)':
tu.cpp:12:10: error: 'nope' was not declared in this scope
   12 |   return nope(x);
      |          ^~~~
tu.cpp: In function 'int c1::f(int)':
tu.cpp:25:3: error: expected ';' before '}' token
   25 |   }
      |   ^
`
	spans := []span{{20, 30}}
	got := messagesAt(msg, spans)
	want := "tu.cpp:25:3: error: expected ';' before '}' token\n   25 |   }\n      |   ^\n"
	if got != want {
		t.Errorf("messagesAt = %q, want %q", got, want)
	}
	if got := messagesAt(msg, []span{{40, 50}}); got != "" {
		t.Errorf("messagesAt of a span without errors = %q", got)
	}
}

// TestRestoredMacroErrorBlamesUser: after the engine restores a macro a candidate
// redefined (pop_macro), g++ reports an error in an expansion of that macro (here
// `int INT_MAX = 9;`, an error alone too) at the line after the pop_macro, where the
// next candidate's namespace began, and at the expansion only in a note. The error
// is the candidate's that expands the macro, and the candidates between compile.
func TestRestoredMacroErrorBlamesUser(t *testing.T) {
	e := newEngine(t)
	b := intBatch("restored", "int", executetest.Tests("[1]", "[5]"), []execute.Candidate{
		{ID: "redef", Code: "#include <climits>\n#define INT_MAX 5\nint f(int x) { return x + INT_MAX; }"},
		{ID: "next", Code: "int f(int x) { return x * 2; }"},
		{ID: "next2", Code: "int f(int x) { return x + 1; }"},
		{ID: "shadow", Code: "#include <climits>\nint f(int x) {\n  int INT_MAX = 9;\n  return x + INT_MAX;\n}"},
	})
	before := e.Stats()
	res := executetest.Run(t, e, b)
	st := e.Stats()
	if builds, checks := st.Compiles-before.Compiles, st.SyntaxChecks-before.SyntaxChecks; builds != 2 || checks != 0 {
		t.Errorf("%d builds, %d syntax checks; want 2 (the unit, the unit without shadow) and none", builds, checks)
	}
	want := map[string][]string{"redef": {"6", "10"}, "next": {"2", "10"}, "next2": {"2", "6"}}
	for _, r := range res {
		if r.CandidateID == "shadow" {
			if r.Status != schemas.StatusCompileError || !strings.Contains(r.Detail, "INT_MAX") {
				t.Errorf("shadow: %s %q, want compile_error at INT_MAX", r.Status, r.Detail)
			}
			continue
		}
		if r.Status != schemas.StatusOK || len(r.Tests) != 2 {
			t.Errorf("%s: %s (%s)", r.CandidateID, r.Status, r.Detail)
			continue
		}
		for k, w := range want[r.CandidateID] {
			if got := r.Tests[k].Output; got != w {
				t.Errorf("%s test %d = %q, want %q", r.CandidateID, k, got, w)
			}
		}
	}
}

// TestSuspectsOfMacroExpansion: an error spelled in a macro is the candidate's that
// expands the macro (the last "in expansion of macro" note), not the candidate's at
// the error's line; a note "in definition of macro" does not move an error.
func TestSuspectsOfMacroExpansion(t *testing.T) {
	u := unit{spans: map[int][]span{0: {{10, 20}}, 1: {{21, 30}}, 2: {{30, 40}}, 3: {{40, 50}}}}
	msg := `tu.cpp: In function 'int c3::f(int)':
tu.cpp:21:2: error: expected unqualified-id before numeric constant
   21 | namespace c1 {
      |  ^~~~~~~~~~~
tu.cpp:12:9: note: in expansion of macro 'INNER'
   12 | #define OUTER INNER
      |         ^~~~~
tu.cpp:44:9: note: in expansion of macro 'OUTER'
   44 |     int OUTER = 9;
      |         ^~~~~
tu.cpp: In function 'int c2::f(int)':
tu.cpp:33:24: error: 'undeclared' was not declared in this scope
   33 | int g() { return TWICE(undeclared); }
      |                        ^~~~~~~~~~
tu.cpp:15:29: note: in definition of macro 'TWICE'
   15 | #define TWICE(x) (INT_MAX + x)
      |                             ^
`
	got := suspects(msg, u)
	if !got[2] || !got[3] || got[0] || got[1] || len(got) != 2 {
		t.Errorf("suspects = %v, want {2, 3}", got)
	}
	m := messagesAt(msg, u.spans[3])
	if !strings.HasPrefix(m, "tu.cpp:21:2: error:") || !strings.Contains(m, "int OUTER = 9;") || strings.Contains(m, "undeclared") {
		t.Errorf("messagesAt c3 = %q", m)
	}
	if m := messagesAt(msg, u.spans[1]); m != "" {
		t.Errorf("messagesAt c1 = %q, want none", m)
	}
	if m := messagesAt(msg, u.spans[2]); !strings.HasPrefix(m, "tu.cpp:33:24: error:") || strings.Contains(m, "OUTER") {
		t.Errorf("messagesAt c2 = %q", m)
	}
}

// intBatch is a batch of C++ candidates f(int) -> ret with limits of 1 s CPU and
// 2 s wall time per test.
func intBatch(id, ret string, tests []schemas.Test, cands []execute.Candidate) execute.Batch {
	return execute.Batch{ProblemID: id, Lang: "cpp", Params: executetest.Params("int"), Returns: ret, Tests: tests,
		Limits: sandbox.Limits{CPUTime: time.Second, WallTime: 2 * time.Second}, Candidates: cands}
}
