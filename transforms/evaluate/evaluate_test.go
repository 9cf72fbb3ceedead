package evaluate

import (
	"context"
	"fmt"
	"os/exec"
	"testing"

	"transmute/internal/testenv"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/execute/cpp"
	"transmute/transforms/sandbox"
	"transmute/transforms/score"
	"transmute/transforms/translate"
	"transmute/transforms/values"
)

func TestMain(m *testing.M) { sandbox.Main(testenv.WithDir(m, "evaluatetest-engines-", &engineCache)) }

// engineCache is the WorkDir of the engines these tests open, one for the test
// binary as a launch's workers share --work-dir: the C++ precompiled header and
// harness runtime (about 7 s of CPU) and the Java worker are built by the first
// test that opens the engine, not again by each.
var engineCache string

// fixed translates every request into the same code.
type fixed struct{ code string }

func (f fixed) Name() string { return "fixed" }
func (f fixed) Translate(context.Context, translate.Request) ([]translate.Translation, error) {
	return []translate.Translation{{Status: schemas.TranslationOK, Code: f.code}}, nil
}
func (fixed) TranslatesVariants() bool { return true }
func (fixed) Directions() [][2]string  { return nil }
func (fixed) Close() error             { return nil }

// cppEngine opens a C++ engine for the test (skipped without g++), closed at its end.
func cppEngine(t *testing.T) *cpp.Engine {
	t.Helper()
	if _, err := exec.LookPath("g++"); err != nil {
		t.Skip("no g++")
	}
	eng, err := cpp.New(execute.Options{WorkDir: engineCache})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	return eng
}

// TestCppArgsGold evaluates a C++ translation that takes vector<int>& where the
// C++ gold takes int arr[]: it passes when the harness adapts, and is a compile
// error with CppArgs gold, as in TransCoder-test's own script.
func TestCppArgsGold(t *testing.T) {
	eng := cppEngine(t)
	gold := "int sum ( int arr [ ], int n ) {\n  int s = 0;\n  for ( int i = 0; i < n; i ++ ) s += arr [ i ];\n  return s;\n}\n"
	p := schemas.Problem{ID: "SUM", Corpus: "test", Returns: "int",
		Params:    []schemas.Param{{Name: "arr", Type: "int[]"}, {Name: "n", Type: "int"}},
		Functions: []schemas.Function{{Lang: schemas.Cpp, Name: "sum", Code: gold, Signature: "int sum ( int arr [ ], int n )"}},
		Tests:     []schemas.Test{{Index: 0, Args: "[[1,2,3],3]"}, {Index: 1, Args: "[[5,-5],1]"}}}
	tr := fixed{"int sum(vector<int>& a, int n) { return accumulate(a.begin(), a.begin() + n, 0); }"}
	for _, c := range []struct {
		mode string
		want schemas.Status
	}{{CppArgsAdapt, schemas.StatusOK}, {CppArgsGold, schemas.StatusCompileError}} {
		ev := &Evaluator{Run: "t", Translators: []translate.Translator{tr}, Engines: map[string]execute.Engine{schemas.Cpp: eng},
			Tolerance: values.DefaultTolerance, CppArgs: c.mode}
		out := ev.Evaluate(context.Background(), Item{Problem: p, Tasks: []schemas.Task{{ProblemID: p.ID, SrcLang: schemas.Cpp, TgtLang: schemas.Cpp}}})
		status := map[string]schemas.Status{}
		for _, x := range out.Executions {
			status[x.ProgramID] = x.Status
		}
		if status[GoldID(schemas.Cpp)] != schemas.StatusOK {
			t.Errorf("%s: gold %q, want ok (%+v)", c.mode, status[GoldID(schemas.Cpp)], out.Errors)
		}
		if got := status[TranslationID("fixed", schemas.Cpp, schemas.Cpp, 0)]; got != c.want {
			t.Errorf("%s: translation %q, want %q", c.mode, got, c.want)
		}
	}
}

// byTgt translates into each target language its own code.
type byTgt map[string]string

func (byTgt) Name() string { return "byTgt" }
func (f byTgt) Translate(_ context.Context, r translate.Request) ([]translate.Translation, error) {
	return []translate.Translation{{Status: schemas.TranslationOK, Code: f[r.TgtLang]}}, nil
}
func (byTgt) TranslatesVariants() bool { return true }
func (byTgt) Directions() [][2]string  { return nil }
func (byTgt) Close() error             { return nil }

// TestOutOfBoundsGold: a C++ gold that writes and reads past its VLA on one test
// (TransCoder-test's DELANNOY_NUMBER_1 with m > n) returns whatever the memory
// layout leaves there, which changed with what shared its unit between two runs of
// the same corpus; its second run checks bounds, so that test is marked
// nondeterministic where the C++ gold is the oracle, and only there: the Python
// gold stays the oracle of the Python translation on it.
func TestOutOfBoundsGold(t *testing.T) {
	eng := cppEngine(t)
	gold := `int dealnnoy ( int n, int m ) {
  int dp [ m + 1 ] [ n + 1 ];
  for ( int i = 0; i <= m; i ++ ) dp [ i ] [ 0 ] = 1;
  for ( int i = 0; i <= m; i ++ ) dp [ 0 ] [ i ] = 1;
  for ( int i = 1; i <= m; i ++ ) for ( int j = 1; j <= n; j ++ ) dp [ i ] [ j ] = dp [ i - 1 ] [ j ] + dp [ i - 1 ] [ j - 1 ] + dp [ i ] [ j - 1 ];
  return dp [ m ] [ n ];
}
`
	pyGold := `def dealnnoy(n, m):
    dp = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(m + 1):
        dp[i][0] = 1
    for j in range(n + 1):
        dp[0][j] = 1
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            dp[i][j] = dp[i - 1][j] + dp[i - 1][j - 1] + dp[i][j - 1]
    return dp[m][n]
`
	p := schemas.Problem{ID: "DELANNOY", Corpus: "test", Returns: "int",
		Params: []schemas.Param{{Name: "n", Type: "int"}, {Name: "m", Type: "int"}},
		Functions: []schemas.Function{{Lang: schemas.Cpp, Name: "dealnnoy", Code: gold},
			{Lang: schemas.Python, Name: "dealnnoy", Code: pyGold}},
		Tests: []schemas.Test{{Index: 0, Args: "[3,3]"}, {Index: 1, Args: "[2,6]"}, {Index: 2, Args: "[2,2]"}}}
	ev := &Evaluator{Run: "t", Translators: []translate.Translator{byTgt{schemas.Cpp: gold, schemas.Python: pyGold}},
		Engines: map[string]execute.Engine{schemas.Cpp: eng, schemas.Python: pythonEngine(t)}, Tolerance: values.DefaultTolerance}
	out := ev.Evaluate(context.Background(), Item{Problem: p,
		Tasks: []schemas.Task{{ProblemID: p.ID, Corpus: p.Corpus, SrcLang: schemas.Cpp, TgtLang: schemas.Cpp},
			{ProblemID: p.ID, Corpus: p.Corpus, SrcLang: schemas.Cpp, TgtLang: schemas.Python}}})
	var marked []string
	for _, f := range out.Fidelity {
		if f.Cause == CauseNondeterministic {
			marked = append(marked, fmt.Sprintf("%s %d", f.LangA, f.TestIndex))
			if f.StatusB != schemas.StatusRuntimeError {
				t.Errorf("second run's status %s, want runtime_error", f.StatusB)
			}
		}
	}
	if fmt.Sprint(marked) != "[cpp 1]" {
		t.Fatalf("nondeterministic golds' tests %v, want [cpp 1]", marked)
	}
	n := 0
	for _, r := range out.Results {
		cppOracle := r.Oracle == score.OracleSource || r.TgtLang == schemas.Cpp
		if want := cppOracle && r.TestIndex == 1; r.Nondeterministic != want {
			t.Errorf("result row %s->%s oracle %s test %d: marked %v, want %v", r.SrcLang, r.TgtLang, r.Oracle, r.TestIndex, r.Nondeterministic, want)
		}
		if r.TgtLang == schemas.Python && r.Oracle == score.OracleTargetGold && r.Match {
			n++
		}
	}
	if n != 3 {
		t.Errorf("the Python translation matches its gold on %d tests, want all 3", n)
	}
}
