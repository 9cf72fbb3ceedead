package fidelity

import (
	"os/exec"
	"strings"
	"testing"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/values"
)

func TestCDivModPythonRunsWithCSemantics(t *testing.T) {
	code := "def f(a, b):\n    x = (a + b - 97) % 26\n    y = a // b\n    z = a\n    z %= b\n    return [x, y, z, 7.5 % 2]\n"
	out, changed, err := CDivModPython(code)
	if err != nil || !changed {
		t.Fatalf("rewrite: %v %v", changed, err)
	}
	if strings.Contains(strings.SplitN(out, "def f", 2)[1], " % ") {
		t.Fatalf("a %% is left:\n%s", out)
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	got, err := exec.Command(py, "-c", out+"\nprint(f(-50, 7))").CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, got)
	}
	// C: (-50+7-97) % 26 = -140 % 26 = -10; -50 / 7 = -7; -50 % 7 = -1; fmod(7.5, 2) = 1.5
	if strings.TrimSpace(string(got)) != "[-10, -7, -1, 1.5]" {
		t.Errorf("got %s", got)
	}
	if _, changed, _ := CDivModPython("def g(a):\n    return a + 1\n"); changed {
		t.Error("code without % or // should be unchanged")
	}
}

func gold(lang string, outs ...string) Gold {
	r := execute.Result{Status: schemas.StatusOK}
	for i, o := range outs {
		tr := execute.TestResult{Index: int32(i), Status: schemas.StatusOK, Output: o}
		if strings.HasPrefix(o, "!") {
			tr = execute.TestResult{Index: int32(i), Status: schemas.StatusRuntimeError, Error: o[1:]}
		}
		r.Tests = append(r.Tests, tr)
	}
	return Gold{Lang: lang, Result: r}
}

func TestCompareClassifies(t *testing.T) {
	p := schemas.Problem{ID: "P", Returns: "int", Params: []schemas.Param{{Name: "n", Type: "int"}},
		Tests: []schemas.Test{{Index: 0, Args: "[3]"}, {Index: 1, Args: "[100000]"}, {Index: 2, Args: "[5]"}}}
	golds := []Gold{
		gold("java", "9", "1410065408", "25"),
		gold("python", "9", "10000000000", "26"),
		gold("cpp", "9", "!killed by signal: segmentation fault", "25"),
	}
	rows, dep := Compare("r", p, golds, values.DefaultTolerance)
	want := map[string]string{
		"java-python#0": "", "java-python#1": CauseOverflow, "java-python#2": CauseOther,
		// the C++ crash on test 1 happens on a test that overflows elsewhere
		"java-cpp#1": CauseOverflow, "python-cpp#1": CauseOverflow,
		"java-cpp#2": "", "python-cpp#2": CauseOther,
	}
	wantCauses(t, rows, want)
	if dep[1] != CauseOverflow || dep[0] != "" || dep[2] != "" {
		t.Errorf("language-dependent tests: %v", dep)
	}
}

func TestBoundsBothRaisedAndBroken(t *testing.T) {
	p := schemas.Problem{ID: "P", Returns: "int", Params: []schemas.Param{{Name: "n", Type: "int"}},
		Tests: []schemas.Test{{Index: 0, Args: "[3]"}, {Index: 1, Args: "[4]"}}}
	golds := []Gold{
		gold("java", "!ArrayIndexOutOfBoundsException: Index 23 out of bounds for length 23", "5"),
		gold("python", "!IndexError: list index out of range", "5"),
		gold("cpp", "1011949929", "5"),
	}
	rows, dep := Compare("r", p, golds, values.DefaultTolerance)
	for _, r := range rows {
		switch {
		case r.TestIndex == 1 && !r.Agree:
			t.Errorf("test 1 should agree: %+v", r)
		case r.TestIndex == 0 && r.LangA == "java" && r.LangB == "python" && !r.Agree:
			t.Errorf("both raising should agree: %+v", r)
		case r.TestIndex == 0 && r.LangB == "cpp" && r.Cause != CauseOutOfBounds:
			t.Errorf("C++ reading out of bounds: cause %q", r.Cause)
		}
	}
	if dep[0] != CauseOutOfBounds {
		t.Errorf("test 0 should be language-dependent (out_of_bounds), got %v", dep)
	}

	broken := gold("python", "!NameError: name 'np' is not defined", "!NameError: name 'np' is not defined")
	ok := gold("java", "1", "2")
	if b, d := Broken(broken, []Gold{broken, ok}); !b || !strings.Contains(d, "NameError") {
		t.Errorf("a gold failing every test while another passes is broken: %v %q", b, d)
	}
	if b, _ := Broken(golds[0], golds); b {
		t.Error("a gold that returns on some tests is not broken")
	}
}

func TestGoldException(t *testing.T) {
	p := schemas.Problem{ID: "P", Returns: "int", Params: []schemas.Param{{Name: "s", Type: "String"}},
		Tests: []schemas.Test{{Index: 0, Args: `["D1"]`}, {Index: 1, Args: `["12"]`}, {Index: 2, Args: `["7"]`}}}
	golds := []Gold{
		gold("java", "10", "1", "!java.lang.NullPointerException: Cannot invoke \"java.lang.Integer.intValue()\""),
		gold("python", "!ValueError: invalid literal for int() with base 10: 'D'", "1", "7"),
		gold("cpp", "10", "1", "!ZeroDivisionError"),
	}
	rows, dep := Compare("r", p, golds, values.DefaultTolerance)
	want := map[string]string{
		"java-python#0": CauseGoldException, "python-cpp#0": CauseGoldException, "java-cpp#0": "",
		"java-python#2": CauseGoldException, // Java's NullPointerException against Python's 7
		"java-cpp#2":    "",                 // both raise: they agree
		"python-cpp#2":  CauseOther,         // not in the list of port errors: stays other
	}
	wantCauses(t, rows, want)
	if dep[0] != CauseGoldException {
		t.Errorf("test 0 should be marked (gold_exception), got %v", dep)
	}
}

func TestPartialRange(t *testing.T) {
	p := schemas.Problem{ID: "P", Returns: "int", Params: []schemas.Param{{Name: "arr", Type: "int[]"}, {Name: "n", Type: "int"}},
		Tests: []schemas.Test{{Index: 0, Args: "[[9,1,8,2],2]"}, {Index: 1, Args: "[[9,1,8,2],4]"}}}
	java := gold("java", "17", "17")
	java.Code = "static int f(int arr[], int n) { Arrays . sort ( arr ) ; return arr[n-1] + arr[n-2]; }"
	cpp := gold("cpp", "10", "18")
	cpp.Code = "int f(int arr[], int n) { sort ( arr, arr + n ); return arr[n-1] + arr[n-2]; }"
	rows, _ := Compare("r", p, []Gold{java, cpp}, values.DefaultTolerance)
	if rows[0].Cause != CausePartialRange {
		t.Errorf("n=2 < 4 elements, C++ sorts a prefix: cause %q", rows[0].Cause)
	}
	if rows[1].Cause != CauseOther {
		t.Errorf("n = length: the range is the whole array, cause %q, want other", rows[1].Cause)
	}
	ranged := java
	ranged.Code = "static int f(int arr[], int n) { Arrays.sort(arr, 0, n); return arr[n-1] + arr[n-2]; }"
	if rows, _ := Compare("r", p, []Gold{ranged, cpp}, values.DefaultTolerance); rows[0].Cause != CauseOther {
		t.Errorf("both sort the prefix: cause %q, want other", rows[0].Cause)
	}
}

// wantCauses checks the cause of the rows named in want ("java-python#1": the
// pair's row of test 1); a row not there counts as the cause "".
func wantCauses(t *testing.T, rows []schemas.FidelityRow, want map[string]string) {
	t.Helper()
	got := map[string]string{}
	for _, r := range rows {
		got[r.LangA+"-"+r.LangB+"#"+string(rune('0'+r.TestIndex))] = r.Cause
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: cause %q, want %q", k, got[k], v)
		}
	}
}
