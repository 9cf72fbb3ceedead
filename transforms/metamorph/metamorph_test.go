package metamorph

import (
	"context"
	"errors"
	"strings"
	"testing"

	"transmute/internal/testenv"
	"transmute/schemas"
	"transmute/transforms/execute"
	_ "transmute/transforms/execute/cpp"
	_ "transmute/transforms/execute/java"
	_ "transmute/transforms/execute/python"
	"transmute/transforms/inspect"
	"transmute/transforms/sandbox"
	"transmute/transforms/values"
)

func TestMain(m *testing.M) { sandbox.Main(testenv.WithDir(m, "metamorphtest-engines-", &engineCache)) }

// engineCache is the WorkDir of the engines these tests open, one for the test
// binary as a launch's workers share --work-dir: the C++ precompiled header and
// harness runtime (about 7 s of CPU) and the Java worker are built by the first
// test that opens the engine, not again by each.
var engineCache string

var langs = []string{"java", "cpp", "python"}

// variant applies t (merge with the language's partner) with seed 1.
func variant(t *testing.T, lang string, tr Transformation) Variant {
	t.Helper()
	var v Variant
	var err error
	if tr == Merge {
		v, err = MergeFunctions(fixture(lang), partner(lang), 1)
	} else {
		v, err = Apply(tr, fixture(lang), 1)
	}
	if err != nil {
		t.Fatalf("%s %s: %v", lang, tr, err)
	}
	return v
}

// golden holds the diff of every transformation of the fixtures with seed 1, read
// and checked by hand: the renamed parameter and its uses, the new parameter at the
// end of the list, the dead conditional and the short loop, the removed loop, the
// new branch condition, and the merged function.
var golden = []struct {
	lang string
	t    Transformation
	diff string
}{
	{"java", RenameParam, "@@ -1,3 +1,3 @@\n-static int f(int n, int k) {\n+static int f(int val63, int k) {\n   int s = 0;\n-  for (int i = 0; i < n; i++) {\n+  for (int i = 0; i < val63; i++) {\n"},
	{"java", AddParam, "@@ -1,1 +1,1 @@\n-static int f(int n, int k) {\n+static int f(int n, int k, boolean inp74) {\n"},
	{"java", AddConditional, "@@ -6,0 +6,3 @@\n+  if (k < -27) {\n+    int t72 = 21;\n+  }\n"},
	{"java", ChBranchCond, "@@ -6,1 +6,1 @@\n-  if (s > 10) {\n+  if (k != 1) {\n"},
	{"java", AddLoop, "@@ -3,0 +3,3 @@\n+  for (int i83 = 0; i83 < 1; i83++) {\n+    int t37 = i83;\n+  }\n"},
	{"java", RmLoop, "@@ -3,3 +3,0 @@\n-  for (int i = 0; i < n; i++) {\n-    s += i * k;\n-  }\n"},
	{"java", Merge, "@@ -1,9 +1,14 @@\n-static int f(int n, int k) {\n-  int s = 0;\n-  for (int i = 0; i < n; i++) {\n-    s += i * k;\n-  }\n-  if (s > 10) {\n-    s = s - 1;\n+static int f(boolean sel48, int n1, int k1, int a2) {\n+  if (sel48) {\n+    int s = 0;\n+    for (int i = 0; i < n1; i++) {\n+      s += i * k1;\n+    }\n+    if (s > 10) {\n+      s = s - 1;\n+    }\n+    return s;\n+  } else {\n+    if (a2 % 2 == 0) return a2 / 2;\n+    return 3 * a2 + 1;\n   }\n-  return s;\n"},
	{"cpp", RenameParam, "@@ -1,4 +1,4 @@\n-int f(int n, int k) {\n+int f(int n, int num14) {\n   int s = 0;\n   for (int i = 0; i < n; i++) {\n-    s += i * k;\n+    s += i * num14;\n"},
	{"cpp", AddParam, "@@ -1,1 +1,1 @@\n-int f(int n, int k) {\n+int f(int n, int k, int inp57) {\n"},
	{"cpp", AddConditional, "@@ -6,0 +6,3 @@\n+  if (n > 25) {\n+    int t86 = 66;\n+  }\n"},
	{"cpp", ChBranchCond, "@@ -6,1 +6,1 @@\n-  if (s > 10) {\n+  if (k < 28) {\n"},
	{"cpp", AddLoop, "@@ -3,0 +3,3 @@\n+  for (int i21 = 0; i21 < 2; i21++) {\n+    int t73 = i21;\n+  }\n"},
	{"cpp", RmLoop, "@@ -3,3 +3,0 @@\n-  for (int i = 0; i < n; i++) {\n-    s += i * k;\n-  }\n"},
	{"cpp", Merge, "@@ -1,9 +1,14 @@\n-int f(int n, int k) {\n-  int s = 0;\n-  for (int i = 0; i < n; i++) {\n-    s += i * k;\n-  }\n-  if (s > 10) {\n-    s = s - 1;\n+int f(bool sel70, int n1, int k1, int a2) {\n+  if (sel70) {\n+    int s = 0;\n+    for (int i = 0; i < n1; i++) {\n+      s += i * k1;\n+    }\n+    if (s > 10) {\n+      s = s - 1;\n+    }\n+    return s;\n+  } else {\n+    if (a2 % 2 == 0) return a2 / 2;\n+    return 3 * a2 + 1;\n   }\n-  return s;\n"},
	{"python", RenameParam, "@@ -1,4 +1,4 @@\n-def f(n, k):\n+def f(n, inp98):\n     s = 0\n     for i in range(n):\n-        s += i * k\n+        s += i * inp98\n"},
	{"python", AddParam, "@@ -1,1 +1,1 @@\n-def f(n, k):\n+def f(n, k, arg71):\n"},
	{"python", AddConditional, "@@ -7,0 +7,2 @@\n+    if k < 12:\n+        t89 = 27\n"},
	{"python", ChBranchCond, "@@ -5,1 +5,1 @@\n-    if s > 10:\n+    if n >= 2:\n"},
	{"python", AddLoop, "@@ -2,0 +2,2 @@\n+    for i75 in range(3):\n+        t86 = i75\n"},
	{"python", RmLoop, "@@ -3,2 +3,0 @@\n-    for i in range(n):\n-        s += i * k\n"},
	{"python", Merge, "@@ -1,7 +1,12 @@\n-def f(n, k):\n-    s = 0\n-    for i in range(n):\n-        s += i * k\n-    if s > 10:\n-        s = s - 1\n-    return s\n+def f(sel92, n1, k1, a2):\n+    if sel92:\n+        s = 0\n+        for i in range(n1):\n+            s += i * k1\n+        if s > 10:\n+            s = s - 1\n+        return s\n+    else:\n+        if a2 % 2 == 0:\n+            return a2 // 2\n+        return 3 * a2 + 1\n"},
}

func TestVariantText(t *testing.T) {
	for _, g := range golden {
		v := variant(t, g.lang, g.t)
		if v.Diff != g.diff {
			t.Errorf("%s %s diff:\n%s\nwant:\n%s", g.lang, g.t, v.Diff, g.diff)
		}
		if v.ID == "" || v.ID != VariantID(g.lang, g.t, v.Fn.Code, v.Fn.Tests) {
			t.Errorf("%s %s: id %q is not the content hash", g.lang, g.t, v.ID)
		}
		again := variant(t, g.lang, g.t)
		if again.ID != v.ID {
			t.Errorf("%s %s: the same seed gave another variant", g.lang, g.t)
		}
	}
	if len(golden) != len(langs)*len(Transformations) {
		t.Fatalf("%d golden cases", len(golden))
	}
}

// TestVariantsReparseAndInspect checks that every variant re-parses and that its
// inspections relate to the original's as the identity translator's must for the
// properties of appendix B to hold.
func TestVariantsReparseAndInspect(t *testing.T) {
	for _, lang := range langs {
		orig, err := inspect.Inspect(lang, fixture(lang).Code, "f")
		if err != nil {
			t.Fatal(err)
		}
		part, _ := inspect.Inspect(lang, partner(lang).Code, "g")
		for _, tr := range Transformations {
			v := variant(t, lang, tr)
			if ok, err := mutateParses(lang, v.Fn.Code); !ok {
				t.Errorf("%s %s: variant does not re-parse (%v)", lang, tr, err)
			}
			got, err := inspect.Inspect(lang, v.Fn.Code, v.Fn.Entry)
			if err != nil {
				t.Fatal(err)
			}
			want := orig
			switch tr {
			case AddParam:
				want.Arity++
			case AddConditional:
				want.Conditionals++
			case AddLoop:
				want.Loops++
			case RmLoop:
				want.Loops--
			case Merge:
				want = inspect.Syntax{Arity: orig.Arity + part.Arity + 1, Conditionals: orig.Conditionals + part.Conditionals + 1,
					Loops: orig.Loops + part.Loops}
			}
			if got != want {
				t.Errorf("%s %s: inspections %+v, want %+v", lang, tr, got, want)
			}
			if len(v.Fn.Params) != got.Arity {
				t.Errorf("%s %s: signature has %d parameters, code %d", lang, tr, len(v.Fn.Params), got.Arity)
			}
			for _, tc := range v.Fn.Tests {
				if _, err := values.CanonicalArgs(paramTypes(t, v.Fn.Params), tc.Args); err != nil {
					t.Errorf("%s %s: test %d: %v", lang, tr, tc.Index, err)
				}
			}
		}
	}
}

func mutateParses(lang, code string) (bool, error) {
	return parsesClean(lang, code), nil
}

func paramTypes(t *testing.T, ps []schemas.Param) []values.Type {
	var out []values.Type
	for _, p := range ps {
		ty, err := values.ParseType(p.Type)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ty)
	}
	return out
}

func TestAbsentConstructs(t *testing.T) {
	noLoop := Function{Lang: "python", Entry: "h", Code: "def h():\n    return 1", Returns: "int"}
	for _, tr := range []Transformation{RenameParam, RmLoop, ChBranchCond} {
		if _, err := Apply(tr, noLoop, 1); !errors.Is(err, ErrAbsent) {
			t.Errorf("%s on a function without the construct: %v, want ErrAbsent", tr, err)
		}
	}
	// a loop holding a conditional is not removed (numConditionals would change)
	withIf := Function{Lang: "java", Entry: "h", Code: "static int h(int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++) {\n    if (i > 2) s++;\n  }\n  return s;\n}",
		Params: []schemas.Param{{Name: "n", Type: "int"}}, Returns: "int"}
	if _, err := Apply(RmLoop, withIf, 1); !errors.Is(err, ErrAbsent) {
		t.Errorf("rmLoop on a loop with an if: %v, want ErrAbsent", err)
	}
	other := partner("java")
	other.Returns = "bool"
	if _, err := MergeFunctions(fixture("java"), other, 1); !errors.Is(err, ErrNotMergeable) {
		t.Errorf("merge of different return types: %v", err)
	}
}

func TestAddParamRecursion(t *testing.T) {
	f := Function{Lang: "cpp", Entry: "fib", Code: "int fib(int n) {\n  return n < 2 ? n : fib(n - 1) + fib(n - 2);\n}",
		Params: []schemas.Param{{Name: "n", Type: "int"}}, Returns: "int", Tests: []schemas.Test{{Index: 0, Args: "[10]"}}}
	v, err := Apply(AddParam, f, 3)
	if err != nil {
		t.Fatal(err)
	}
	name := v.Fn.Params[0].Name
	pos := 0
	if name == "n" {
		name, pos = v.Fn.Params[1].Name, 1
	}
	for _, call := range []string{"fib(n - 1", "fib(n - 2"} {
		want := call + ", " + name + ")"
		if pos == 0 {
			want = "fib(" + name + ", " + strings.TrimPrefix(call, "fib(") + ")"
		}
		if !strings.Contains(v.Fn.Code, want) {
			t.Errorf("recursive call not passed the new argument: want %q in\n%s", want, v.Fn.Code)
		}
	}
	runSame(t, "cpp", f, v)
}

// run executes f's code on its tests with the real engine of its language.
func run(t *testing.T, e execute.Engine, f Function) execute.Result {
	t.Helper()
	res, err := e.Run(context.Background(), execute.Batch{ProblemID: "p", Lang: f.Lang, Params: f.Params, Returns: f.Returns,
		Tests: f.Tests, Candidates: []execute.Candidate{{ID: "c", Code: f.Code, Imports: f.Imports, Entry: f.Entry}}})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Status != schemas.StatusOK {
		t.Fatalf("%s did not run: %s %s\n%s", f.Lang, res[0].Status, res[0].Detail, f.Code)
	}
	return res[0]
}

var engines = map[string]execute.Engine{}

func engine(t *testing.T, lang string) execute.Engine {
	t.Helper()
	if e := engines[lang]; e != nil {
		return e
	}
	e, err := execute.Open(lang, execute.Options{WorkDir: engineCache})
	if err != nil {
		t.Fatalf("open %s engine: %v", lang, err)
	}
	t.Cleanup(func() { e.Close(); delete(engines, lang) })
	engines[lang] = e
	return e
}

// runSame runs the original and the variant and checks they give the same outputs.
func runSame(t *testing.T, lang string, f Function, v Variant) {
	t.Helper()
	e := engine(t, lang)
	a, b := run(t, e, f), run(t, e, v.Fn)
	if len(a.Tests) != len(b.Tests) {
		t.Fatalf("%s %s: %d and %d tests", lang, v.Transformation, len(a.Tests), len(b.Tests))
	}
	for i := range a.Tests {
		if a.Tests[i].Status != schemas.StatusOK || a.Tests[i].Output != b.Tests[i].Output || b.Tests[i].Status != schemas.StatusOK {
			t.Errorf("%s %s test %d: original %s %s, variant %s %s", lang, v.Transformation, i,
				a.Tests[i].Status, a.Tests[i].Output, b.Tests[i].Status, b.Tests[i].Output)
		}
	}
}

// TestSemanticsWithEngines runs every variant with the real engines: the
// semantics-preserving ones give the original's outputs, the merge gives the
// selected function's output on each test, rmLoop and chBranchCond still run.
func TestSemanticsWithEngines(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the engine runs")
	}
	for _, lang := range langs {
		t.Run(lang, func(t *testing.T) {
			f := fixture(lang)
			for _, tr := range Transformations {
				v := variant(t, lang, tr)
				switch {
				case tr.PreservesSemantics():
					runSame(t, lang, f, v)
				case tr == Merge:
					e := engine(t, lang)
					a, b, m := run(t, e, f), run(t, e, partner(lang)), run(t, e, v.Fn)
					for j, r := range m.Tests {
						want := b.Tests[v.SecondTest[j]].Output
						if v.Selector[j] {
							want = a.Tests[v.FirstTest[j]].Output
						}
						if r.Output != want {
							t.Errorf("%s merge test %d (selector %v): %s, want %s", lang, j, v.Selector[j], r.Output, want)
						}
					}
				default:
					run(t, engine(t, lang), v.Fn)
				}
			}
		})
	}
}
