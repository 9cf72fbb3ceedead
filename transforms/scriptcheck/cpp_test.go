package scriptcheck

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"transmute/schemas"
	"transmute/transforms/execute"
	_ "transmute/transforms/execute/cpp"
	"transmute/transforms/sandbox"
)

// cppScript is a TransCoder-test-shaped C++ script: f_gold sums the first n elements
// of an array, the script passes each array as &param0[i].front().
const cppScript = `// Copyright (c) 2019-present, Facebook, Inc.
#include <iostream>
#include <cstdlib>
#include <string>
#include <vector>
#include <fstream>
#include <iomanip>
#include <bits/stdc++.h>
using namespace std;
int f_gold ( int arr [ ], int n ) {
  int s = 0;
  for ( int i = 0; i < n; i ++ ) s += arr [ i ];
  return s;
}


//TOFILL

int main() {
    int n_success = 0;
    vector<vector<int>> param0 {{3,2,1},{5,9,1},{4,4,4}};
    vector<int> param1 {3,2,3};
    for(int i = 0; i < param0.size(); ++i)
    {
        if(f_filled(&param0[i].front(),param1[i]) == f_gold(&param0[i].front(),param1[i]))
        {
            n_success+=1;
        }
    }
    cout << "#Results:" << " " << n_success << ", " << param0.size();
    return 0;
}`

var (
	cppOnce sync.Once
	cppEng  execute.Engine
	cppErr  error
)

// cppEngine opens the C++ engine once for the package's tests, or skips.
func cppEngine(t *testing.T) execute.Engine {
	t.Helper()
	cppOnce.Do(func() { cppEng, cppErr = execute.Open(schemas.Cpp, execute.Options{WorkDir: os.TempDir()}) })
	if cppErr != nil {
		t.Skipf("no C++ engine: %v", cppErr)
	}
	return cppEng
}

func TestFillCpp(t *testing.T) {
	filled, err := FillCpp(cppScript, "#include <numeric>\nusing namespace std;",
		"int helper(int a) { return a; }\nint sum_array(int* a, int n) { return helper(accumulate(a, a + n, 0)); }", "")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(filled, "//TOFILL") || !strings.Contains(filled, "int f_filled(int* a, int n)") ||
		!strings.Contains(filled, "int helper(int a)") || !strings.Contains(filled, "#include <numeric>") {
		t.Errorf("filled script:\n%s", filled)
	}
	if strings.Index(filled, "f_filled(int*") < strings.Index(filled, "f_gold (") {
		t.Error("the translation is not after f_gold, where the marker was")
	}
	if _, err := FillCpp(cppScript, "", "// nothing here", ""); err == nil {
		t.Error("a translation without a function filled in")
	}
	if _, err := FillCpp("int main() {}", "", "int f(int x) { return x; }", ""); err == nil {
		t.Error("a script without a marker filled in")
	}
}

// TestRunCpp runs one batch: a passing translation, a wrong one, one that does not
// compile, one that does not compile at the call (it takes a vector where the
// script passes a pointer), one that crashes, and one that defines main; the bad
// ones fail alone.
func TestRunCpp(t *testing.T) {
	r := Runner{Cpp: cppEngine(t)}
	cases := []struct {
		code   string
		ran    bool
		passed int
		status schemas.Status
		detail string
	}{
		{"int sum(int arr[], int n) { int s = 0; for (int i = 0; i < n; i++) s += arr[i]; return s; }", true, 3, "", ""},
		// reads one element too few: right only where the last element is 0... never here
		{"int sum(int* arr, int n) { int s = 0; for (int i = 0; i + 1 < n; i++) s += arr[i]; return s; }", true, 0, "", ""},
		{"int sum(int* arr, int n) { return undeclared_thing(arr, n); }", false, 0, schemas.StatusCompileError, InTranslation},
		{"int sum(vector<int>& arr, int n) { return arr[0]; }", false, 0, schemas.StatusCompileError, InMain},
		{"int sum(int* arr, int n) { if (n == 2) abort(); return arr[0] + arr[1] + arr[2]; }", false, 0, schemas.StatusRuntimeError, ""},
		{"int sum(int* arr, int n) { return 0; }\nint main() { return 0; }", false, 0, schemas.StatusCompileError, ErrCppMainTwice},
		{"int sum(int* arr, int n) { return arr[0] + arr[1] + arr[2]; }\n// usage:\n// int main() { return sum(0, 0); }", true, 2, "", ""},
	}
	var filled []string
	for _, c := range cases {
		f, err := FillCpp(cppScript, "", c.code, "")
		if err != nil {
			t.Fatal(err)
		}
		filled = append(filled, f)
	}
	outs, err := r.RunCpp(context.Background(), filled)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		o := outs[i]
		if o.Ran != c.ran || o.Passed != c.passed || (c.ran && o.Total != 3) {
			t.Errorf("%q: %+v, want ran %v passed %d of 3", c.code, o, c.ran, c.passed)
		}
		if !c.ran && (o.Status != c.status || !strings.HasPrefix(o.Detail, c.detail)) {
			t.Errorf("%q: %s %q, want %s %q...", c.code, o.Status, o.Detail, c.status, c.detail)
		}
	}
	if !outs[0].Pass() || outs[1].Pass() {
		t.Errorf("verdicts %v %v, want pass then fail", outs[0].Pass(), outs[1].Pass())
	}
}

// TestIsolateCpp: a candidate that sorts the caller's array in place passes the
// script (the gold, called second, reads the sorted array) and fails once each call
// gets its own copy of the vectors.
func TestIsolateCpp(t *testing.T) {
	r := Runner{Cpp: cppEngine(t)}
	script := strings.Replace(cppScript, `  int s = 0;
  for ( int i = 0; i < n; i ++ ) s += arr [ i ];
  return s;`, `  return arr [ 0 ];`, 1)
	script = strings.Replace(script, "if(f_filled(&param0[i].front(),param1[i]) == f_gold(&param0[i].front(),param1[i]))",
		"if(f_filled(&param0[i].front(),param1[i]) == f_gold(&param0[i].front(),param1[i]) && f_filled(&param0[i].front(),param1[i]) > -1)", 1)
	filled, err := FillCpp(script, "", "int first_min(int arr[], int n) { sort(arr, arr + n); return arr[0]; }", "")
	if err != nil {
		t.Fatal(err)
	}
	iso, ok := IsolateCpp(filled)
	if !ok {
		t.Fatal("comparison not found")
	}
	if !strings.Contains(iso, "([&]() { auto __sc_param0 = param0; auto __sc_param1 = param1; return f_filled(&__sc_param0[i].front(),__sc_param1[i]); }())") {
		t.Errorf("isolated main:\n%s", iso[strings.Index(iso, "int main"):])
	}
	outs, err := r.RunCpp(context.Background(), []string{filled, iso})
	if err != nil {
		t.Fatal(err)
	}
	// {3,2,1}: sorted first, the gold reads 1 (pass); {5,9,1} with n 2 sorts only 5,9
	// (pass); {4,4,4} (pass). Copied: 1 vs 3, 5 vs 5, 4 vs 4.
	if !outs[0].Pass() {
		t.Errorf("as the benchmark runs it: %+v, want a pass", outs[0])
	}
	if outs[1].Passed != 2 || outs[1].Total != 3 {
		t.Errorf("isolated: %+v, want 2 of 3", outs[1])
	}
	if _, ok := IsolateCpp("int main() { return 0; }"); ok {
		t.Error("isolated a script without a comparison")
	}
}

// TestGlobalChecker: a translation with a global variable named count compiles in
// the engine's namespace but not at global scope, where `using namespace std` makes
// count ambiguous with std::count, as the benchmark compiles it.
func TestGlobalChecker(t *testing.T) {
	if _, err := exec.LookPath("g++"); err != nil {
		t.Skip("no g++")
	}
	g := &GlobalChecker{Dir: t.TempDir()}
	good, err := FillCpp(cppScript, "", "int sum(int* a, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }", "")
	if err != nil {
		t.Fatal(err)
	}
	clash, err := FillCpp(cppScript, "", "int count = 0;\nint sum(int* a, int n) { count = 0; for (int i = 0; i < n; i++) count += a[i]; return count; }", "")
	if err != nil {
		t.Fatal(err)
	}
	ok, msg, err := g.Check(context.Background(), good)
	if err != nil || !ok {
		t.Fatalf("good script: %v %q %v", ok, msg, err)
	}
	ok, msg, err = g.Check(context.Background(), clash)
	if err != nil || ok || !strings.Contains(msg, "ambiguous") {
		t.Fatalf("count at global scope: %v %q %v, want a reference to count that is ambiguous", ok, msg, err)
	}
	outs, err := Runner{Cpp: cppEngine(t)}.RunCpp(context.Background(), []string{clash})
	if err != nil || !outs[0].Pass() {
		t.Fatalf("in the engine's namespace: %+v %v, want a pass", outs, err)
	}
	// run alone (sandboxed), as the benchmark runs it
	o, err := g.RunAlone(context.Background(), good, sandbox.Limits{})
	if err != nil || !o.Pass() || o.Total != 3 {
		t.Errorf("good script alone: %+v %v, want 3 of 3", o, err)
	}
	o, err = g.RunAlone(context.Background(), clash, sandbox.Limits{})
	if err != nil || o.Status != schemas.StatusCompileError || !strings.Contains(o.Detail, "ambiguous") {
		t.Errorf("count script alone: %+v %v, want a compile error", o, err)
	}
	// without the precompiled header, as the benchmark's harness compiles it
	plain := &GlobalChecker{Dir: t.TempDir(), Plain: true}
	o, err = plain.RunAlone(context.Background(), good, sandbox.Limits{})
	if err != nil || !o.Pass() || o.Total != 3 {
		t.Errorf("good script alone, plain: %+v %v, want 3 of 3", o, err)
	}
	if _, err := os.Stat(filepath.Join(plain.Dir, "sc_std.h.gch")); err == nil {
		t.Errorf("a plain checker built the precompiled header")
	}
}

// TestNeedsCheck: only a translation that declares at its top level a name the
// headers spell, or a construct that depends on the namespace, needs the check.
func TestNeedsCheck(t *testing.T) {
	if _, err := exec.LookPath("g++"); err != nil {
		t.Skip("no g++")
	}
	g := &GlobalChecker{Dir: t.TempDir()}
	for _, c := range []struct {
		code string
		need bool
	}{
		{"#include <vector>\nusing namespace std;\nint helper_sum(vector<int>& v) { return 0; }\nint f_filled(int* a, int n) { return n; }", false},
		{"typedef long long ll;\nconst int MAXN_SIZE = 100;\nint memo_table[MAXN_SIZE][2];\nstruct NodeData { int v; };\nll f_filled(int n) { return n; }", false},
		{"template <typename T> T f_filled(T x) { return x; }", false},
		{"int count = 0;\nint f_filled(int n) { return count; }", true},
		{"int abs(int x) { return x < 0 ? -x : x; }\nint f_filled(int n) { return abs(n); }", true},
		{"double y1;\nint f_filled(int n) { return n; }", true},
		{"enum { left_side, right };\nint f_filled(int n) { return n; }", true},
		{"namespace util { int g(int x) { return x; } }\nint f_filled(int n) { return util::g(n); }", true},
		{"using std::swap;\nint f_filled(int n) { return n; }", true},
		{"using namespace std ;\nint f_filled(int n) { return n; }", false},
	} {
		need, why, err := g.NeedsCheck("", c.code)
		if err != nil {
			t.Fatal(err)
		}
		if need != c.need {
			t.Errorf("%q: needs check %v (%s), want %v", c.code, need, why, c.need)
		}
	}
}

func TestCppMayMutate(t *testing.T) {
	for _, c := range []struct {
		code string
		may  bool
	}{
		{"int f(int n, int m) { return n; }", false},
		{"int f(const vector<int>& v, string s) { return 0; }", false},
		{"int f(vector<int> const& v, map<int, int> m) { return 0; }", false},
		{"int f(int arr[], int n) { return 0; }", true},
		{"int f(int* arr, int n) { return 0; }", true},
		{"int f(vector<int>& v) { return 0; }", true},
		{"long f(int& n) { return n++; }", true},
		{"// int f(int& x) {}\nint f(int x) { return x; }", false},
	} {
		filled, err := FillCpp(cppScript, "", c.code, "f")
		if err != nil {
			t.Fatal(err)
		}
		if got := CppMayMutate(filled); got != c.may {
			t.Errorf("%q: may mutate %v, want %v", c.code, got, c.may)
		}
	}
}
