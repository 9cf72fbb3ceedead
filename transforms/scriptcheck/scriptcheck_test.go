package scriptcheck

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"transmute/schemas"
	"transmute/transforms/sandbox"
)

func TestMain(m *testing.M) {
	sandbox.Init()
	code := m.Run()
	if javaEng != nil {
		javaEng.Close() // ends the idle worker JVMs
	}
	os.Exit(code)
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		out           string
		passed, total int
		ok            bool
	}{
		{"#Results: 10, 10\n", 10, 10, true},
		{"noise\n#Results: 7, 10\n", 7, 10, true},
		{"Traceback ...", 0, 0, false},
	} {
		p, tot, ok := Parse(c.out)
		if p != c.passed || tot != c.total || ok != c.ok {
			t.Errorf("Parse(%q) = %d, %d, %v", c.out, p, tot, ok)
		}
	}
}

// script is a TransCoder-test-shaped Python script.
const script = `def f_gold ( x ) :
    return x * 2


#TOFILL

if __name__ == '__main__':
    param = [(1,), (2,), (3,)]
    n_success = 0
    for i, parameters_set in enumerate(param):
        if f_filled(*parameters_set) == f_gold(*parameters_set):
            n_success+=1
    print("#Results: %i, %i" % (n_success, len(param)))
`

// TestRunPython fills real translations in and runs the script in the sandbox: a
// correct one (named f_gold: renamed, so it does not replace the gold), a recursive
// one, a wrong one, and one that raises.
func TestRunPython(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	for _, c := range []struct {
		code   string
		passed int
		ran    bool
	}{
		{"def f_gold(x):\n    return x + x\n", 3, true},
		{"def helper(y):\n    return y\ndef double(x):\n    return 0 if x == 0 else 2 + double(x - 1)\n", 3, true},
		{"def f(x):\n    return x + 1\n", 1, true}, // 1+1 == 2*1 only
		{"def f(x):\n    raise ValueError('no')\n", 0, false},
	} {
		filled, err := FillPython(script, "import math", c.code, "")
		if err != nil {
			t.Fatal(err)
		}
		o, err := Runner{}.RunPython(context.Background(), filled)
		if err != nil {
			t.Fatal(err)
		}
		if o.Ran != c.ran || o.Passed != c.passed || (c.ran && o.Total != 3) {
			t.Errorf("%q: %+v, want ran %v passed %d of 3", c.code, o, c.ran, c.passed)
		}
		if !c.ran && o.Status != schemas.StatusRuntimeError {
			t.Errorf("%q: status %q, want runtime_error", c.code, o.Status)
		}
	}
}

func TestOurVerdict(t *testing.T) {
	row := func(match bool, status, oracle schemas.Status, nondet bool) schemas.ResultRow {
		return schemas.ResultRow{Oracle: "target_gold", Status: status, OracleStatus: oracle, Match: match,
			ProgramStatus: schemas.StatusOK, Nondeterministic: nondet}
	}
	v := OurVerdict([]schemas.ResultRow{row(true, "ok", "ok", false), row(false, "timeout", "timeout", false), row(false, "ok", "ok", true)})
	if !v.Pass || v.Tests != 1 {
		t.Errorf("%+v: want pass on 1 counted test", v)
	}
	v = OurVerdict([]schemas.ResultRow{row(true, "ok", "ok", false), row(false, "ok", "ok", false)})
	if v.Pass || v.Cause != "value" {
		t.Errorf("%+v: want a value failure", v)
	}
}

// TestIsolatePython: a candidate that sorts the whole list in place passes the script
// (the gold then reads the sorted list) and fails once each gets its own copy.
func TestIsolatePython(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	script := `def f_gold ( arr , n ) :
    arr = sorted(arr[:n])
    return arr[0]


#TOFILL

if __name__ == '__main__':
    param = [([3, 2, 1], 2,), ([5, 9, 1], 3,)]
    n_success = 0
    for i, parameters_set in enumerate(param):
        if f_filled(*parameters_set) == f_gold(*parameters_set):
            n_success+=1
    print("#Results: %i, %i" % (n_success, len(param)))
`
	filled, err := FillPython(script, "", "def f(arr, n):\n    arr.sort()\n    return arr[0]\n", "")
	if err != nil {
		t.Fatal(err)
	}
	o, err := Runner{}.RunPython(context.Background(), filled)
	if err != nil || !o.Pass() {
		t.Fatalf("as the benchmark runs it: %+v %v, want a pass", o, err)
	}
	iso, ok := IsolatePython(filled)
	if !ok {
		t.Fatal("comparison not found")
	}
	o, err = Runner{}.RunPython(context.Background(), iso)
	if err != nil || o.Passed != 1 || o.Total != 2 {
		t.Fatalf("isolated: %+v %v, want 1 of 2", o, err)
	}
}
