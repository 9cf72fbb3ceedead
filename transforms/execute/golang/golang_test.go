package golang

import (
	"context"
	"fmt"
	"os"
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

func newEngine(tb testing.TB) *Engine {
	tb.Helper()
	dir := os.Getenv("TRANSMUTE_GO_TEST_CACHE")
	if dir == "" {
		dir = tb.TempDir()
	}
	_ = os.Chmod(dir, 0o755)
	e, err := New(execute.Options{WorkDir: dir})
	if err != nil {
		tb.Fatal(err)
	}
	return e
}

func outputs(r execute.Result) string {
	var s []string
	for _, t := range r.Tests {
		if t.Status == schemas.StatusOK {
			s = append(s, t.Output)
		} else {
			s = append(s, string(t.Status))
		}
	}
	return strings.Join(s, " ")
}

// TestBatch runs honest, failing, panicking, looping and non-compiling candidates in
// one batch: each gets what it would alone.
func TestBatch(t *testing.T) {
	e := newEngine(t)
	b := execute.Batch{ProblemID: "p", Lang: schemas.Go, Params: executetest.Params("int", "int[]"), Returns: "long",
		Tests:  executetest.Tests("[1,[1,2,3]]", "[2,[]]", "[0,[5]]"),
		Limits: sandbox.Limits{CPUTime: 500 * time.Millisecond, WallTime: 2 * time.Second, MemoryBytes: 512 << 20},
		Candidates: []execute.Candidate{
			{ID: "sum", Code: "func f(x int, a []int) int64 {\n\ts := int64(0)\n\tfor _, v := range a {\n\t\ts += int64(v)\n\t}\n\treturn int64(x)*10 + s\n}"},
			{ID: "div", Code: "func helper(x int) int { return 10 / x }\nfunc f(x int, a []int) int { return helper(x) }"},
			{ID: "loop", Code: "func f(x int, a []int) int {\n\tfor x == 2 {\n\t}\n\treturn x\n}"},
			{ID: "bad", Code: "func f(x int, a []int) int { return \"x\" }"},
			{ID: "imports", Imports: "import (\n\t\"fmt\"\n\t\"os\"\n\t\"math\"\n)", Code: "func helper(x int) int { return x }\nfunc f(x int, a []int) int { return int(math.Abs(float64(-x))) + helper(len(a)) }"},
			{ID: "sig", Code: "func f(x int) int { return x }"},
			{ID: "init", Code: "func init() { println(1) }\nfunc f(x int, a []int) int { return x }"},
		},
	}
	res, err := e.Run(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"sum":     "16 20 5",
		"div":     "10 5 runtime_error",
		"loop":    "1 timeout 0",
		"bad":     "compile_error compile_error compile_error",
		"imports": "4 2 1",
		"sig":     "compile_error compile_error compile_error",
		"init":    "compile_error compile_error compile_error",
	}
	for _, r := range res {
		if got := outputs(r); got != want[r.CandidateID] {
			t.Errorf("%s: got %q, want %q (%s: %s)", r.CandidateID, got, want[r.CandidateID], r.Status, r.Detail)
		}
	}
	if !strings.Contains(res[3].Detail, "cannot use") {
		t.Errorf("bad's message: %q", res[3].Detail)
	}
	t.Logf("stats %+v", e.Stats())
}

// TestLiteralRoundTrip returns each value as the Go literal values.GoLiteral writes,
// from a candidate of the literal's Go type, in one batch: every output equals the
// canonical value it was written from.
func TestLiteralRoundTrip(t *testing.T) {
	cases := []struct{ typ, raw string }{
		{"int", "-2147483648"}, {"long", "9223372036854775807"}, {"double", "0.1"}, {"double", `"NaN"`},
		{"double", `"-Infinity"`}, {"boolean", "true"}, {"char", `"q"`}, {"String", `"tab\t\"quote\" é"`},
		{"int[]", "[1,-2,3]"}, {"long[][]", "[[1],[],[2,3]]"}, {"char[]", `["a","b"]`}, {"String[]", `["x",""]`},
		{"double[]", "[1.5,-0.0]"}, {"boolean[]", "[false,true]"},
	}
	e := newEngine(t)
	for _, c := range cases {
		t.Run(c.typ, func(t *testing.T) {
			t.Parallel()
			roundTrip(t, e, c.typ, c.raw)
		})
	}
}

func roundTrip(t *testing.T, e *Engine, typName, raw string) {
	c := struct{ typ, raw string }{typName, raw}
	{
		typ := values.MustParseType(c.typ)
		want, err := values.Canonical(typ, c.raw)
		if err != nil {
			t.Fatal(err)
		}
		lit, err := values.GoLiteral(typ, want)
		if err != nil {
			t.Fatalf("%s %s: %v", c.typ, c.raw, err)
		}
		gt, _ := values.GoType(typ)
		b := execute.Batch{ProblemID: "lit", Lang: schemas.Go, Params: executetest.Params("int"), Returns: c.typ, Tests: executetest.Tests("[0]"),
			Candidates: []execute.Candidate{{ID: c.typ, Imports: `import "math"`, Code: fmt.Sprintf("func f(x int) %s { return %s }", gt, lit)}}}
		res, err := e.Run(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		if got := res[0].Tests[0]; got.Status != schemas.StatusOK || !values.Equal(typ, got.Output, want, values.Tolerance{}) {
			t.Errorf("%s %s: literal %s gave %s %s %s (%s)", c.typ, c.raw, lit, got.Status, got.Output, got.Error, res[0].Detail)
		}
	}
}

// TestEnginesShareDirectory runs two engines of one process on one cache directory at
// the same time: neither takes the other's build worker (its GOCACHE), and Close
// removes each engine's own workers.
func TestEnginesShareDirectory(t *testing.T) {
	dir := t.TempDir()
	_ = os.Chmod(dir, 0o755)
	var engines [2]*Engine
	for i := range engines {
		e, err := New(execute.Options{WorkDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		engines[i] = e
	}
	errs := make(chan error, len(engines))
	for i, e := range engines {
		go func() {
			b := execute.Batch{ProblemID: "p", Lang: schemas.Go, Params: executetest.Params("int"), Returns: "int",
				Tests:      executetest.Tests("[1]", "[2]"),
				Limits:     sandbox.Limits{CPUTime: 2 * time.Second, WallTime: 20 * time.Second, MemoryBytes: 512 << 20},
				Candidates: []execute.Candidate{{ID: "c", Code: fmt.Sprintf("func f(x int) int { return x + %d }", 10*i)}},
			}
			res, err := e.Run(context.Background(), b)
			if err == nil && (len(res) != 1 || outputs(res[0]) != fmt.Sprintf("%d %d", 1+10*i, 2+10*i)) {
				err = fmt.Errorf("engine %d: %+v", i, res)
			}
			errs <- err
		}()
	}
	for range engines {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	for _, e := range engines {
		if len(e.made) != 1 {
			t.Errorf("engine made %d workers, want 1", len(e.made))
		}
	}
	if engines[0].made[0] == engines[1].made[0] {
		t.Fatalf("both engines build in %s", engines[0].made[0])
	}
	for _, e := range engines {
		w := e.made[0]
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(w); !os.IsNotExist(err) {
			t.Errorf("%s left after Close: %v", w, err)
		}
	}
}
