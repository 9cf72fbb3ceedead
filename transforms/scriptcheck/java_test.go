package scriptcheck

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"transmute/internal/testenv"
	"transmute/io/corpus"
	"transmute/schemas"
	"transmute/transforms/execute"
	_ "transmute/transforms/execute/java"
	"transmute/transforms/sandbox"
)

// javaScript is a TransCoder-test-shaped Java script.
const javaScript = `// Copyright (c) 2019-present, Facebook, Inc.
import java.util. *;
import java.util.stream.*;
import java.lang.*;
import javafx.util.Pair;
public class TWICE{
static int f_gold ( int x ) {
  return x * 2 ;
}


//TOFILL

public static void main(String args[]) {
    int n_success = 0;
    List<Integer> param0 = new ArrayList<>();
    param0.add(1);
    param0.add(2);
    param0.add(3);
    for(int i = 0; i < param0.size(); ++i)
    {
        if(f_filled(param0.get(i)) == f_gold(param0.get(i)))
        {
            n_success+=1;
        }
    }
    System.out.println("#Results:" + n_success + ", " + param0.size());
}
}`

var (
	javaOnce sync.Once
	javaEng  execute.Engine
	javaErr  error
)

// javaEngine opens the Java engine once for the package's tests, or skips.
func javaEngine(t *testing.T) execute.Engine {
	t.Helper()
	javaOnce.Do(func() { javaEng, javaErr = execute.Open(schemas.Java, execute.Options{WorkDir: os.TempDir()}) })
	if javaErr != nil {
		t.Skipf("no Java engine: %v", javaErr)
	}
	return javaEng
}

func TestJavaEntry(t *testing.T) {
	code := `
    // helper(int a) { is not a method
    static int helper(int a, int b) { if (a > b) { return a; } return b; }
    public static int solve(int x) {
        String s = "int fake(int y) {";
        return helper(x, x);
    }
    static class Node { int value(int q) { return q; } }`
	if got := JavaEntry(code, 1); got != "solve" {
		t.Errorf("JavaEntry = %q, want solve", got)
	}
	if got := JavaEntry(code, 2); got != "helper" {
		t.Errorf("JavaEntry(arity 2) = %q, want helper", got)
	}
	if got := GoldArity(javaScript); got != 1 {
		t.Errorf("GoldArity = %d", got)
	}
	if got := javaArity("Map<Integer, List<Integer>> m, int [ ] a"); got != 2 {
		t.Errorf("javaArity = %d", got)
	}
}

func TestFillJava(t *testing.T) {
	filled, err := FillJava(javaScript, "import java.util.function.IntUnaryOperator;\nimport java.util.*;",
		"import java.math.BigInteger;\npublic static int twice(int x) { return x + x; }", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"import java.math.BigInteger;", "import java.util.function.IntUnaryOperator;", "public static int f_filled(int x)"} {
		if !strings.Contains(filled, want) {
			t.Errorf("filled script lacks %q:\n%s", want, filled)
		}
	}
	if strings.Count(filled, "java.util.*") != 0 || strings.Count(filled, "java.util. *") != 1 {
		t.Errorf("java.util.* imported twice:\n%s", filled)
	}
	if i, j := strings.Index(filled, "import java.math"), strings.Index(filled, "public class"); i > j {
		t.Errorf("the translation's import is not before the class")
	}
}

func TestMissingImport(t *testing.T) {
	for code, want := range map[string]string{
		"static int f(int x) { return BigInteger.valueOf(x).intValue(); }":                  "java.math.BigInteger",
		"static int f(int x) { return java.math.BigInteger.valueOf(x).intValue(); }":        "",
		"static int f(int x) { String s = \"BigInteger\"; return x; } // BigInteger":        "",
		"static int f(int x) { Function<Integer, Integer> g = y -> y; return g.apply(x); }": "java.util.function.Function",
	} {
		filled, err := FillJava(javaScript, "", code, "f")
		if err != nil {
			t.Fatal(err)
		}
		if got := MissingImport(filled); got != want {
			t.Errorf("%s: MissingImport = %q, want %q", code, got, want)
		}
	}
	filled, _ := FillJava(javaScript, "import java.math.*;", "static int f(int x) { return BigInteger.ONE.intValue() * x * 2; }", "f")
	if got := MissingImport(filled); got != "" {
		t.Errorf("imported: MissingImport = %q", got)
	}
}

// TestRunJava runs small scripts through the Java engine, in one batch: a correct
// translation (named f_gold: renamed, so it does not clash with the gold), a
// recursive one with a helper, a wrong one, one that does not compile, one that
// throws, one that loops, and one naming a class the script does not import. Each
// gets its own verdict.
func TestRunJava(t *testing.T) {
	e := javaEngine(t)
	codes := []string{
		"static int f_gold(int x) { return x + x; }",
		"static int helper(int y) { return y; }\nstatic int dbl(int x) { return x == 0 ? 0 : 2 + dbl(x - 1); }",
		"static int f(int x) { return x + 1; }", // 1+1 == 2*1 only
		"static int f(int x) { return x +; }",
		"static int f(int x) { throw new IllegalStateException(\"no\"); }",
		"static int f(int x) { while (true) { x++; } }",
		"static int f(int x) { return BigInteger.valueOf(x).shiftLeft(1).intValue(); }",
	}
	var filled []string
	for _, c := range codes {
		f, err := FillJava(javaScript, "", c, "")
		if err != nil {
			t.Fatal(err)
		}
		filled = append(filled, f)
	}
	r := Runner{Java: e}
	r.Limits.CPUTime = 2e9
	out, err := r.RunJava(context.Background(), filled)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		ran    bool
		passed int
		status schemas.Status
	}{
		{true, 3, ""}, {true, 3, ""}, {true, 1, ""},
		{false, 0, schemas.StatusCompileError}, {false, 0, schemas.StatusRuntimeError},
		{false, 0, schemas.StatusTimeout}, {false, 0, schemas.StatusCompileError},
	}
	for i, w := range want {
		o := out[i]
		if o.Ran != w.ran || o.Passed != w.passed || (w.ran && o.Total != 3) || (!w.ran && o.Status != w.status) {
			t.Errorf("%q: %+v, want ran %v passed %d of 3 status %q", codes[i], o, w.ran, w.passed, w.status)
		}
	}
	if !strings.Contains(out[4].Detail, "IllegalStateException") {
		t.Errorf("exception detail %q", out[4].Detail)
	}
	if !strings.HasPrefix(out[6].Detail, MissingImportDetail) {
		t.Errorf("missing import detail %q", out[6].Detail)
	}
}

// TestIsolateJava: a candidate that sorts the caller's array passes the script (the
// gold, called second, reads the sorted array) and fails once each gets its own copy.
func TestIsolateJava(t *testing.T) {
	e := javaEngine(t)
	script := strings.NewReplacer(
		"static int f_gold ( int x ) {\n  return x * 2 ;\n}",
		"static int f_gold ( int [ ] a , int n ) {\n  int m = a [ 0 ] ;\n  for ( int i = 1 ; i < n ; i ++ ) m = Math.min ( m , a [ i ] ) ;\n  return m == a [ 0 ] ? 1 : 0 ;\n}",
		"List<Integer> param0 = new ArrayList<>();\n    param0.add(1);\n    param0.add(2);\n    param0.add(3);",
		"List<int [ ]> param0 = new ArrayList<>();\n    param0.add(new int[]{3,1,2});\n    param0.add(new int[]{1,2,3});\n    List<Integer> param1 = new ArrayList<>();\n    param1.add(3);\n    param1.add(3);",
		"f_filled(param0.get(i)) == f_gold(param0.get(i))",
		"f_filled(param0.get(i),param1.get(i)) == f_gold(param0.get(i),param1.get(i))",
	).Replace(javaScript)
	filled, err := FillJava(script, "", "static int g(int[] a, int n) { Arrays.sort(a, 0, n); return 1; }", "")
	if err != nil {
		t.Fatal(err)
	}
	iso, ok := IsolateJava(filled)
	if !ok {
		t.Fatal("comparison not found")
	}
	out, err := Runner{Java: e}.RunJava(context.Background(), []string{filled, iso})
	if err != nil {
		t.Fatal(err)
	}
	if !out[0].Pass() {
		t.Errorf("as the benchmark runs it: %+v, want a pass", out[0])
	}
	if out[1].Passed != 1 || out[1].Total != 2 {
		t.Errorf("isolated: %+v, want 1 of 2", out[1])
	}
}

// TestRunJavaCorpusGolds fills a sample of TransCoder-test's Java scripts with their
// own gold (so f_gold is renamed f_filled) and checks that every one passes. Skipped
// without ../shared/corpora (TRANSMUTE_CORPORA overrides it).
func TestRunJavaCorpusGolds(t *testing.T) {
	dir := os.Getenv("TRANSMUTE_CORPORA")
	if dir == "" {
		dir = testenv.SharedCorpora(t, "transcoder-test")
	}
	tc := filepath.Join(dir, "transcoder-test")
	if _, err := os.Stat(filepath.Join(tc, "testscript", "java")); err != nil {
		t.Skip("no TransCoder-test Java scripts under", dir)
	}
	e := javaEngine(t)
	c, err := corpus.Load(context.Background(), "transcoder:"+tc)
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(c.Problems, func(i, j int) bool { return c.Problems[i].ID < c.Problems[j].ID })
	var ids, filled []string
	for _, p := range c.Problems {
		raw, err := os.ReadFile(filepath.Join(tc, "testscript", "java", p.ID+".java"))
		if err != nil {
			continue
		}
		for _, f := range p.Functions {
			if f.Lang != schemas.Java {
				continue
			}
			s, err := FillJava(string(raw), f.Imports, f.Code, f.Name)
			if err != nil {
				t.Errorf("%s: %v", p.ID, err)
				continue
			}
			ids, filled = append(ids, p.ID), append(filled, s)
		}
		if len(filled) == 12 {
			break
		}
	}
	out, err := Runner{Java: e}.RunJava(context.Background(), filled)
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range out {
		if !o.Pass() {
			t.Errorf("%s with its own gold: %+v", ids[i], o)
		}
	}
}

// TestCauseJava: the Java scripts' compile errors that our harness does not have.
func TestCauseJava(t *testing.T) {
	ours := Verdict{Pass: true, Tests: 10}
	for detail, want := range map[string]string{
		InMain + "incomparable types: boolean and int":                                        CauseJavaReturnType,
		InMain + "incompatible types: java.lang.Long cannot be converted to int":              CauseJavaParamType,
		InMain + "non-static method f_filled(int) cannot be referenced from a static context": CauseJavaInstance,
		MissingImportDetail + "java.math.BigInteger":                                          "script lacks an import our prelude gives: java.math.BigInteger",
		InTranslation + "cannot find symbol":                                                  "script does not compile: " + InTranslation + "cannot find symbol",
	} {
		got := Cause(Outcome{Status: schemas.StatusCompileError, Detail: detail}, ours, nil)
		if !strings.HasPrefix(got, want) {
			t.Errorf("%s: cause %q, want %q", detail, got, want)
		}
	}
}

// TestFillJavaImportsAndWrapped: an import with a comment after it is kept (javac
// takes it), a C++ #include in the import section is not; a translation whose method
// is inside a class has no entry the script can call.
func TestFillJavaImportsAndWrapped(t *testing.T) {
	imports := "#include <cmath>\nimport static java.lang.Math.sqrt; // for sqrt"
	filled, err := FillJava(javaScript, imports, "static int f(int x) { return (int) sqrt(4 * x * x); }", "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(filled, "import static java.lang.Math.sqrt;\n") || strings.Contains(filled, "#include") {
		t.Errorf("imports:\n%s", filled)
	}
	if !ForeignImports(imports) || ForeignImports("import java.util.*; // all\n// note\n") {
		t.Error("ForeignImports")
	}
	_, err = FillJava(javaScript, "", "static public class W {\n  public static int f(int x) { return 2 * x; }\n}", "")
	if err == nil || !strings.HasPrefix(err.Error(), ErrNoTopMethod) {
		t.Errorf("wrapped: %v", err)
	}
	if c := Cause(Outcome{Status: schemas.StatusCompileError, Detail: err.Error()}, Verdict{Pass: true, Tests: 3}, nil); c != CauseJavaWrapped {
		t.Errorf("wrapped cause %q", c)
	}
}

// TestIsolateJavaArraysOnly: scalar arguments are not copied, and a script with no
// array argument is not isolatable (a rerun would only show nondeterminism).
func TestIsolateJavaArraysOnly(t *testing.T) {
	filled, _ := FillJava(javaScript, "", "static int f(int x) { return 2 * x; }", "")
	if _, ok := IsolateJava(filled); ok {
		t.Error("a script of int arguments is isolatable")
	}
	s := strings.Replace(filled, "f_filled(param0.get(i)) == f_gold(param0.get(i))", "f_filled(param1.get(i), param0.get(i)) == f_gold(param1.get(i), param0.get(i))", 1)
	s = strings.Replace(s, "List<Integer> param0", "List<int [ ]> param1 = new ArrayList<>();\n    List<Integer> param0", 1)
	iso, ok := IsolateJava(s)
	if !ok || !strings.Contains(iso, "f_filled(__sc_copy(param1.get(i)), param0.get(i))") {
		t.Errorf("isolated:\n%s", iso)
	}
}

// TestJavaAlone runs filled scripts as the benchmark's harness does, javac and a JVM
// each: a pass, a wrong translation, and one whose boolean return javac rejects in
// main's comparison (the disagreement Cause puts down to the return type).
func TestJavaAlone(t *testing.T) {
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("no javac")
	}
	codes := []string{
		"static int dbl(int x) { return x + x; }",
		"static int f(int x) { return x + 1; }",
		"static boolean f(int x) { return x > 0; }",
	}
	var ja JavaAlone
	var out []Outcome
	for _, c := range codes {
		f, err := FillJava(javaScript, "", c, "")
		if err != nil {
			t.Fatal(err)
		}
		o, err := ja.Run(context.Background(), f, sandbox.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, o)
	}
	if !out[0].Pass() || out[0].Total != 3 {
		t.Errorf("%q: %+v, want 3 of 3", codes[0], out[0])
	}
	if !out[1].Ran || out[1].Passed != 1 || out[1].Total != 3 {
		t.Errorf("%q: %+v, want 1 of 3", codes[1], out[1])
	}
	if out[2].Status != schemas.StatusCompileError || !strings.HasPrefix(out[2].Detail, InMain) {
		t.Errorf("%q: %+v, want a compile error in main", codes[2], out[2])
	}
	if c := Cause(out[2], Verdict{Pass: true, Tests: 3}, nil); !strings.HasPrefix(c, CauseJavaReturnType) {
		t.Errorf("cause %q, want the return type's", c)
	}
}
