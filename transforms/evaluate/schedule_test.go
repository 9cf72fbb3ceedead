package evaluate

import (
	"context"
	"fmt"
	"os/exec"
	"sync"
	"testing"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/execute/python"
	"transmute/transforms/sandbox"
	"transmute/transforms/score"
	"transmute/transforms/translate"
	"transmute/transforms/values"
)

// named translates every request into its code, under its name.
type named struct{ name, code string }

func (f named) Name() string { return f.name }
func (f named) Translate(context.Context, translate.Request) ([]translate.Translation, error) {
	return []translate.Translation{{Status: schemas.TranslationOK, Code: f.code}}, nil
}
func (named) TranslatesVariants() bool { return true }
func (named) Directions() [][2]string  { return nil }
func (named) Close() error             { return nil }

// counting wraps a real engine and records the candidates and tests of each call.
type counting struct {
	execute.Engine
	mu    sync.Mutex
	calls []execute.Batch
}

func (c *counting) Run(ctx context.Context, b execute.Batch) ([]execute.Result, error) {
	c.mu.Lock()
	c.calls = append(c.calls, b)
	c.mu.Unlock()
	return c.Engine.Run(ctx, b)
}

func pythonEngine(t *testing.T) *counting {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	e, err := python.New(execute.Options{WorkDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return &counting{Engine: e}
}

func pyProblem(gold string, tests int) schemas.Problem {
	p := schemas.Problem{ID: "P", Corpus: "test", Returns: "int", Params: []schemas.Param{{Name: "x", Type: "int"}},
		Functions: []schemas.Function{{Lang: schemas.Python, Name: "f", Code: gold}}}
	for i := 0; i < tests; i++ {
		p.Tests = append(p.Tests, schemas.Test{Index: int32(i), Args: fmt.Sprintf("[%d]", i)})
	}
	return p
}

func pyTask(p schemas.Problem) []schemas.Task {
	return []schemas.Task{{ProblemID: p.ID, Corpus: p.Corpus, SrcLang: schemas.Python, TgtLang: schemas.Python}}
}

// TestLoopingGoldSkipsTests: the gold loops from test 3 on (the Python engine marks a
// candidate's tests after its first timeout as timeouts); a translation's tests there
// are skipped (no oracle returned a value), the others run and match, so the
// translation costs no timeout at all, and the gold's second run none either.
func TestLoopingGoldSkipsTests(t *testing.T) {
	eng := pythonEngine(t)
	gold := "def f(x):\n    while x >= 3:\n        pass\n    return x * 2\n"
	tr := named{"m", "def g(x):\n    while x >= 3:\n        pass\n    return x + x\n"}
	p := pyProblem(gold, 5)
	ev := &Evaluator{Run: "t", Translators: []translate.Translator{tr}, Engines: map[string]execute.Engine{schemas.Python: eng},
		Tolerance: values.DefaultTolerance, Limits: sandbox.Limits{CPUTime: 300 * time.Millisecond, WallTime: 2 * time.Second}}
	out := ev.Evaluate(context.Background(), Item{Problem: p, Tasks: pyTask(p)})
	status := map[int32]schemas.Status{}
	for _, x := range out.Executions {
		if x.ProgramID == TranslationID("m", schemas.Python, schemas.Python, 0) {
			status[x.TestIndex] = x.TestStatus
		}
	}
	want := map[int32]schemas.Status{0: "ok", 1: "ok", 2: "ok", 3: StatusSkipped, 4: StatusSkipped}
	for i, w := range want {
		if status[i] != w {
			t.Errorf("test %d: %q, want %q", i, status[i], w)
		}
	}
	reruns := 0
	for _, b := range eng.calls {
		if b.Candidates[0].ID == TranslationID("m", schemas.Python, schemas.Python, 0) && len(b.Tests) != 3 {
			t.Errorf("translation ran on %d tests, want 3", len(b.Tests))
		}
		// The gold's second run, too, runs only where its first returned a value.
		if b.Candidates[0].ID == rerunID(schemas.Python) {
			reruns++
			if len(b.Tests) != 3 {
				t.Errorf("the gold's second run ran on %d tests, want 3", len(b.Tests))
			}
		}
	}
	if reruns != 1 {
		t.Errorf("the gold ran a second time %d times, want once", reruns)
	}
	for _, f := range out.Fidelity {
		if f.Cause == CauseNondeterministic {
			t.Errorf("test %d marked nondeterministic (%s against %s)", f.TestIndex, f.StatusA, f.StatusB)
		}
	}
	var pass float64 = -1
	for _, s := range score.CA("t", score.Key{Translator: "m", Corpus: "test", SrcLang: schemas.Python, TgtLang: schemas.Python}, out.Results) {
		if s.Metric == "pass_rate" && s.Oracle == score.OracleTargetGold && s.Subset == score.SubsetAll {
			pass = s.Value
		}
	}
	if pass != 1 {
		t.Errorf("pass rate %v, want 1 (the skipped tests are oracle failures)", pass)
	}
}

// TestDedupAndChunks: 30 translators, 3 distinct programs (one wrong): each distinct
// program runs once, in chunks of at most ChunkCandidates, and every translator gets
// its program's result.
func TestDedupAndChunks(t *testing.T) {
	eng := pythonEngine(t)
	p := pyProblem("def f(x):\n    return x * 2\n", 3)
	codes := []string{"def f(x):\n    return x * 2\n", "def f(x):\n    return x + x\n", "def f(x):\n    return x + 1\n"}
	var trs []translate.Translator
	for i := 0; i < 30; i++ {
		trs = append(trs, named{fmt.Sprintf("m%02d", i), codes[i%3]})
	}
	ev := &Evaluator{Run: "t", Translators: trs, Engines: map[string]execute.Engine{schemas.Python: eng}, Tolerance: values.DefaultTolerance}
	out := ev.Evaluate(context.Background(), Item{Problem: p, Tasks: pyTask(p)})
	ran := 0
	for _, b := range eng.calls {
		if len(b.Candidates) > ChunkCandidates {
			t.Errorf("a call with %d candidates", len(b.Candidates))
		}
		for _, c := range b.Candidates {
			if c.ID != GoldID(schemas.Python) && c.ID != rerunID(schemas.Python) {
				ran++
			}
		}
	}
	if ran != 3 {
		t.Errorf("%d translations run, want 3 distinct", ran)
	}
	match := map[string]bool{}
	rows := 0
	for _, r := range out.Results {
		if r.Oracle != score.OracleTargetGold {
			continue
		}
		rows++
		if _, ok := match[r.Translator]; !ok {
			match[r.Translator] = true
		}
		match[r.Translator] = match[r.Translator] && r.Match
	}
	if rows != 30*3 {
		t.Fatalf("%d result rows, want 90", rows)
	}
	for i := 0; i < 30; i++ {
		name := fmt.Sprintf("m%02d", i)
		if want := i%3 != 2; match[name] != want {
			t.Errorf("%s: match %v, want %v", name, match[name], want)
		}
	}
	execs := map[string]int{}
	for _, x := range out.Executions {
		execs[x.ProgramID]++
	}
	if len(execs) != 31 {
		t.Errorf("execution rows for %d programs, want 31 (gold + 30)", len(execs))
	}
}

// TestNondeterministicGold: a gold that draws a random number disagrees with its
// reseeded second run; its tests are marked nondeterministic (fidelity and results)
// and left out of CA and pass, while a deterministic gold's are not.
func TestNondeterministicGold(t *testing.T) {
	eng := pythonEngine(t)
	tr := named{"m", "def g(x):\n    return x\n"}
	for _, c := range []struct {
		gold   string
		nondet bool
	}{
		{"import random\ndef f(x):\n    return x + random.randint(0, 10**9)\n", true},
		{"import random\ndef f(x):\n    random.seed(1)\n    return x + random.randint(0, 10**9)\n", false},
		{"def f(x):\n    return x\n", false},
	} {
		p := pyProblem(c.gold, 3)
		ev := &Evaluator{Run: "t", Translators: []translate.Translator{tr}, Engines: map[string]execute.Engine{schemas.Python: eng}, Tolerance: values.DefaultTolerance}
		out := ev.Evaluate(context.Background(), Item{Problem: p, Tasks: pyTask(p)})
		fid := 0
		for _, f := range out.Fidelity {
			if f.Cause == CauseNondeterministic {
				fid++
			}
		}
		marked := 0
		for _, r := range out.Results {
			if r.Nondeterministic {
				marked++
			}
		}
		want := 0
		if c.nondet {
			want = 3
		}
		if fid != want || marked != 2*want {
			t.Errorf("%q: %d fidelity rows, %d result rows marked; want %d, %d", c.gold, fid, marked, want, 2*want)
		}
		nd, tests := -1.0, -1.0
		for _, s := range score.CA("t", score.Key{Translator: "m", Corpus: "test", SrcLang: schemas.Python, TgtLang: schemas.Python}, out.Results) {
			if s.Oracle == score.OracleTargetGold && s.Subset == score.SubsetAll {
				switch s.Metric {
				case "nondeterministic_tests":
					nd = s.Value
				case "tests":
					tests = s.Value
				}
			}
		}
		if c.nondet && (nd != 3 || tests != 0) {
			t.Errorf("%q: nondeterministic_tests %v, tests %v; want 3, 0", c.gold, nd, tests)
		}
		if !c.nondet && (nd != -1 || tests != 3) {
			t.Errorf("%q: nondeterministic_tests %v, tests %v; want none, 3", c.gold, nd, tests)
		}
	}
}

// bySrc translates each source language into its own code.
type bySrc struct {
	name string
	code map[string]string
}

func (f bySrc) Name() string { return f.name }
func (f bySrc) Translate(_ context.Context, r translate.Request) ([]translate.Translation, error) {
	return []translate.Translation{{Status: schemas.TranslationOK, Code: f.code[r.SrcLang]}}, nil
}
func (bySrc) TranslatesVariants() bool { return true }
func (bySrc) Directions() [][2]string  { return nil }
func (bySrc) Close() error             { return nil }

// constEngine answers every candidate of every batch with ok and the value "0" on
// every test: a source gold that returns everywhere.
type constEngine struct{ lang string }

func (c constEngine) Lang() string { return c.lang }
func (c constEngine) Close() error { return nil }
func (c constEngine) Run(_ context.Context, b execute.Batch) ([]execute.Result, error) {
	out := make([]execute.Result, len(b.Candidates))
	for i, cand := range b.Candidates {
		out[i] = execute.Result{CandidateID: cand.ID, Status: schemas.StatusOK}
		for _, t := range b.Tests {
			out[i].Tests = append(out[i].Tests, execute.TestResult{Index: t.Index, Status: schemas.StatusOK, Output: "0"})
		}
	}
	return out, nil
}

// TestOraclesPerProgram: the Python gold loops from test 3 on, the Java gold returns
// everywhere. The Java->Python translation runs on all 5 tests (its source oracle
// decides them), the Python->Python one only on the 3 its own oracle decides: the
// Java gold must not send it into the loop.
func TestOraclesPerProgram(t *testing.T) {
	eng := pythonEngine(t)
	gold := "def f(x):\n    while x >= 3:\n        pass\n    return x * 2\n"
	p := pyProblem(gold, 5)
	p.Functions = append(p.Functions, schemas.Function{Lang: schemas.Java, Name: "f", Code: "static int f(int x) { return 0; }"})
	tr := bySrc{"m", map[string]string{
		schemas.Java:   "def g(x):\n    while x >= 3:\n        pass\n    return x * 2 + 1\n",
		schemas.Python: "def h(x):\n    while x >= 3:\n        pass\n    return x + x\n"}}
	ev := &Evaluator{Run: "t", Translators: []translate.Translator{tr},
		Engines:   map[string]execute.Engine{schemas.Python: eng, schemas.Java: constEngine{schemas.Java}},
		Tolerance: values.DefaultTolerance, Limits: sandbox.Limits{CPUTime: 200 * time.Millisecond, WallTime: 2 * time.Second}}
	tasks := []schemas.Task{{ProblemID: p.ID, Corpus: p.Corpus, SrcLang: schemas.Java, TgtLang: schemas.Python},
		{ProblemID: p.ID, Corpus: p.Corpus, SrcLang: schemas.Python, TgtLang: schemas.Python}}
	out := ev.Evaluate(context.Background(), Item{Problem: p, Tasks: tasks})
	ranTests := map[string]int{}
	for _, b := range eng.calls {
		for _, c := range b.Candidates {
			ranTests[c.ID] = len(b.Tests)
		}
	}
	jID, pID := TranslationID("m", schemas.Java, schemas.Python, 0), TranslationID("m", schemas.Python, schemas.Python, 0)
	if ranTests[jID] != 5 || ranTests[pID] != 3 {
		t.Errorf("tests run: java->python %d (want 5), python->python %d (want 3)", ranTests[jID], ranTests[pID])
	}
	for _, x := range out.Executions {
		if x.ProgramID == pID && x.TestIndex >= 3 && x.TestStatus != StatusSkipped {
			t.Errorf("python->python test %d: %s, want skipped", x.TestIndex, x.TestStatus)
		}
	}
}

// TestStopAtFirstTimeout: a translation's first timeout may end its run only where
// every gold returned on all of its tests and the golds agree there.
func TestStopAtFirstTimeout(t *testing.T) {
	res := func(tests ...execute.TestResult) execute.Result {
		r := execute.Result{Tests: tests}
		for i := range r.Tests {
			r.Tests[i].Index = int32(i)
		}
		return r
	}
	ok := func(v string) execute.TestResult { return execute.TestResult{Status: schemas.StatusOK, Output: v} }
	to := execute.TestResult{Status: schemas.StatusTimeout}
	golds := map[string]execute.Result{
		GoldID(schemas.Cpp):    res(ok("1"), ok("2"), ok("3"), ok("-1")),
		GoldID(schemas.Java):   res(to, ok("2"), ok("3"), ok("-1")),
		GoldID(schemas.Python): res(ok("1"), ok("2"), ok("3"), ok("4294967295")), // overflow in the others
	}
	for _, c := range []struct {
		keep []int
		want bool
	}{
		{[]int{1, 2}, true},
		{[]int{0, 1, 2}, false}, // the Java gold loops on test 0: not an oracle there
		{[]int{1, 2, 3}, false}, // test 3 is language-dependent
		{nil, true},
	} {
		if got := stopAtFirstTimeout(golds, mustType(t, "int"), values.DefaultTolerance, c.keep); got != c.want {
			t.Errorf("tests %v: %v, want %v", c.keep, got, c.want)
		}
	}
}

// TestTranslationsStopAtFirstTimeout: with one oracle deciding every test, the
// translations' engine calls ask to stop at the first timeout; the golds' do not.
func TestTranslationsStopAtFirstTimeout(t *testing.T) {
	eng := pythonEngine(t)
	p := pyProblem("def f(x):\n    return x * 2\n", 3)
	ev := &Evaluator{Run: "t", Translators: []translate.Translator{named{"m", "def f(x):\n    return x + x\n"}},
		Engines: map[string]execute.Engine{schemas.Python: eng}, Tolerance: values.DefaultTolerance}
	ev.Evaluate(context.Background(), Item{Problem: p, Tasks: pyTask(p)})
	for _, b := range eng.calls {
		gold := b.Candidates[0].ID == GoldID(schemas.Python) || b.Candidates[0].ID == rerunID(schemas.Python)
		if want := map[bool]int{true: 0, false: 1}[gold]; b.StopAfterTimeouts != want {
			t.Errorf("%s: StopAfterTimeouts %d, want %d", b.Candidates[0].ID, b.StopAfterTimeouts, want)
		}
	}
}

func mustType(t *testing.T, s string) values.Type {
	t.Helper()
	ty, err := values.ParseType(s)
	if err != nil {
		t.Fatal(err)
	}
	return ty
}

// TestItemDirections: distinct pairs, sorted by source then target, whatever the
// tasks' order and repetitions (two corpora can list the same direction).
func TestItemDirections(t *testing.T) {
	it := Item{Tasks: []schemas.Task{
		{SrcLang: schemas.Python, TgtLang: schemas.Java}, {SrcLang: schemas.Cpp, TgtLang: schemas.Python},
		{SrcLang: schemas.Python, TgtLang: schemas.Cpp}, {SrcLang: schemas.Cpp, TgtLang: schemas.Python},
	}}
	if got := fmt.Sprint(it.Directions()); got != "[cpp-python python-cpp python-java]" {
		t.Errorf("directions %s", got)
	}
}
