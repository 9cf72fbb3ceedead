package properties

import (
	"context"
	"testing"

	"transmute/internal/testenv"
	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/execute"
	_ "transmute/transforms/execute/cpp"
	_ "transmute/transforms/execute/java"
	_ "transmute/transforms/execute/python"
	"transmute/transforms/runner"
	"transmute/transforms/sandbox"
	"transmute/transforms/translate"
	_ "transmute/transforms/translate/builtin"
	_ "transmute/transforms/translate/identity"
	"transmute/transforms/values"
)

func TestMain(m *testing.M) {
	sandbox.Main(testenv.WithDir(m, "propertiestest-engines-", &engineCache))
}

// engineCache is the WorkDir of the engines these tests open, one for the test
// binary as a launch's workers share --work-dir: the C++ precompiled header and
// harness runtime (about 7 s of CPU) and the Java worker are built by the first
// test that opens the engine, not again by each.
var engineCache string

// problems are two hand-written problems in the three languages: the first has a
// for-loop without a conditional and an if (every transformation applies), the
// second is merge's partner.
var problems = []schemas.Problem{{
	ID: "SUM_SCALED", Corpus: "test", Returns: "int",
	Params: []schemas.Param{{Name: "n", Type: "int"}, {Name: "k", Type: "int"}},
	Functions: []schemas.Function{
		{Lang: "java", Name: "f", Code: "static int f(int n, int k) {\n  int s = 0;\n  for (int i = 0; i < n; i++) {\n    s += i * k;\n  }\n  if (s > 10) {\n    s = s - 1;\n  }\n  return s;\n}"},
		{Lang: "cpp", Name: "f", Code: "int f(int n, int k) {\n  int s = 0;\n  for (int i = 0; i < n; i++) {\n    s += i * k;\n  }\n  if (s > 10) {\n    s = s - 1;\n  }\n  return s;\n}"},
		{Lang: "python", Name: "f", Code: "def f(n, k):\n    s = 0\n    for i in range(n):\n        s += i * k\n    if s > 10:\n        s = s - 1\n    return s"},
	},
	Tests: []schemas.Test{{Index: 0, Args: "[3,2]"}, {Index: 1, Args: "[5,1]"}, {Index: 2, Args: "[0,4]"}, {Index: 3, Args: "[10,-1]"}},
}, {
	ID: "COLLATZ_STEP", Corpus: "test", Returns: "int",
	Params: []schemas.Param{{Name: "a", Type: "int"}},
	Functions: []schemas.Function{
		{Lang: "java", Name: "g", Code: "static int g(int a) {\n  if (a % 2 == 0) return a / 2;\n  return 3 * a + 1;\n}"},
		{Lang: "cpp", Name: "g", Code: "int g(int a) {\n  if (a % 2 == 0) return a / 2;\n  return 3 * a + 1;\n}"},
		{Lang: "python", Name: "g", Code: "def g(a):\n    if a % 2 == 0:\n        return a // 2\n    return 3 * a + 1"},
	},
	Tests: []schemas.Test{{Index: 0, Args: "[6]"}, {Index: 1, Args: "[7]"}},
}}

func openRunner(t *testing.T, specs ...string) *Runner {
	t.Helper()
	r := &Runner{Tools: runner.Tools{Run: "test", Engines: map[string]execute.Engine{}, Tolerance: values.DefaultTolerance}, Seed: 1}
	for _, lang := range []string{"java", "cpp", "python"} {
		e, err := execute.Open(lang, execute.Options{WorkDir: engineCache})
		if err != nil {
			t.Fatalf("open %s engine: %v", lang, err)
		}
		t.Cleanup(func() { e.Close() })
		r.Engines[lang] = e
	}
	for _, s := range specs {
		tr, err := translate.Open(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		r.Translators = append(r.Translators, tr)
	}
	return r
}

// TestIdentityViolatesNothing is the self-check: the identity translator must
// satisfy all 38 properties in every language, and every property gets an instance.
func TestIdentityViolatesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the engine runs")
	}
	r := openRunner(t, "identity:")
	var tasks []schemas.Task
	for _, l := range []string{"java", "cpp", "python"} {
		tasks = append(tasks, schemas.Task{ProblemID: problems[0].ID, Corpus: "test", SrcLang: l, TgtLang: l})
	}
	out := r.Evaluate(context.Background(), evaluate.Item{Problem: problems[0], Tasks: tasks}, problems)
	for _, e := range out.Errors {
		t.Errorf("error row: %+v", e)
	}
	for _, tr := range out.Transformations {
		if tr.Outcome != OutcomeValid {
			t.Errorf("%s %s: %s (%s)", tr.Lang, tr.Transformation, tr.Outcome, tr.Reason)
		}
	}
	perLang := map[string]map[string]bool{}
	for _, res := range out.Results {
		if res.Violated {
			t.Errorf("identity violates %s in %s (variants %s, witness test %d)", res.Property, res.SrcLang, res.Variants, res.WitnessTest)
		}
		if perLang[res.SrcLang] == nil {
			perLang[res.SrcLang] = map[string]bool{}
		}
		perLang[res.SrcLang][res.Property] = true
	}
	for _, l := range []string{"java", "cpp", "python"} {
		if len(perLang[l]) != 38 {
			t.Errorf("%s: %d of the 38 properties checked", l, len(perLang[l]))
		}
	}
	if out.CheckNanos <= 0 {
		t.Errorf("no check time recorded")
	}
}

// TestBuiltinJavaToPython runs the builtin transpiler: its translations are
// inspected and checked like any other; the 1-safety syntactic properties hold on
// this plain function, whose Python translation keeps its loop and if.
func TestBuiltinJavaToPython(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the engine runs")
	}
	r := openRunner(t, "builtin:")
	out := r.Evaluate(context.Background(), evaluate.Item{Problem: problems[0],
		Tasks: []schemas.Task{{ProblemID: problems[0].ID, Corpus: "test", SrcLang: "java", TgtLang: "python"}}}, problems)
	got := map[string]bool{}
	for _, res := range out.Results {
		got[res.Property] = res.Violated
	}
	if len(got) != 38 {
		t.Fatalf("%d properties checked, want 38 (errors %+v)", len(got), out.Errors)
	}
	for _, p := range []string{"arity", "numLoops", "numConditionals", "compiles", "retValues", "renameParam|retValues", "addLoop|numLoops"} {
		if got[p] {
			t.Errorf("%s violated by the builtin translation of a plain loop", p)
		}
	}
	if len(out.Translations) == 0 || out.Translations[0].TgtLang != "python" {
		t.Fatalf("no Python translations: %+v", out.Translations)
	}
}
