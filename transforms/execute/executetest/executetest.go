// Package executetest holds what the engines' tests share: batches built from
// type and argument lists, a run with default limits, canonical values, and the
// TransCoder-test gold problems whose Python test scripts give the expected
// outputs. It imports no engine, so each engine's in-package tests can use it.
package executetest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"transmute/internal/testenv"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/sandbox"
	"transmute/transforms/values"
)

// Params names parameters of the given types p0, p1, ...
func Params(types ...string) []schemas.Param {
	var ps []schemas.Param
	for i, t := range types {
		ps = append(ps, schemas.Param{Name: fmt.Sprintf("p%d", i), Type: t})
	}
	return ps
}

// Tests makes one test per JSON argument list, indexed from 0.
func Tests(args ...string) []schemas.Test {
	var ts []schemas.Test
	for i, a := range args {
		ts = append(ts, schemas.Test{Index: int32(i), Args: a})
	}
	return ts
}

// Limits are the limits Run gives a batch that sets none.
var Limits = sandbox.Limits{CPUTime: 2 * time.Second, WallTime: 3 * time.Second}

// Run runs b on e (with Limits when b has none) and fails the test on an engine
// error or when the results are not one per candidate.
func Run(t testing.TB, e execute.Engine, b execute.Batch) []execute.Result {
	t.Helper()
	if b.Limits == (sandbox.Limits{}) {
		b.Limits = Limits
	}
	res, err := e.Run(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != len(b.Candidates) {
		t.Fatalf("%d results for %d candidates", len(res), len(b.Candidates))
	}
	return res
}

// RunOK is Run that also fails the test unless every candidate's status is ok.
func RunOK(t testing.TB, e execute.Engine, b execute.Batch) []execute.Result {
	t.Helper()
	res := Run(t, e, b)
	for _, r := range res {
		if r.Status != schemas.StatusOK {
			t.Fatalf("%s: %s %s", r.CandidateID, r.Status, r.Detail)
		}
	}
	return res
}

// ByID indexes results by candidate id.
func ByID(res []execute.Result) map[string]execute.Result {
	byID := map[string]execute.Result{}
	for _, r := range res {
		byID[r.CandidateID] = r
	}
	return byID
}

// Expect returns a check of one candidate of byID: its status, and the statuses of
// its first tests, in order.
func Expect(t testing.TB, byID map[string]execute.Result) func(id string, status schemas.Status, tests ...schemas.Status) {
	return func(id string, status schemas.Status, tests ...schemas.Status) {
		t.Helper()
		r := byID[id]
		if r.Status != status {
			t.Errorf("%s: status %s (%s), want %s", id, r.Status, r.Detail, status)
		}
		for i, s := range tests {
			if r.Tests[i].Status != s {
				t.Errorf("%s test %d: %s (%s), want %s", id, i, r.Tests[i].Status, r.Tests[i].Error, s)
			}
		}
	}
}

// Canon is raw in the canonical form of type typ.
func Canon(t testing.TB, typ, raw string) string {
	t.Helper()
	v, err := values.Canonical(values.MustParseType(typ), raw)
	if err != nil {
		t.Fatalf("canonical %s %s: %v", typ, raw, err)
	}
	return v
}

// BenchBatch is the engines' benchmark batch: n candidates of f(int x, int[] a)
// returning long, code(i) being the i-th, on five tests.
func BenchBatch(lang string, n int, code func(i int) string) execute.Batch {
	b := execute.Batch{Lang: lang, Params: Params("int", "int[]"), Returns: "long",
		Tests: Tests("[1,[1,2,3]]", "[2,[]]", "[3,[5]]", "[4,[1,1]]", "[5,[9,9,9,9]]")}
	for i := 0; i < n; i++ {
		b.Candidates = append(b.Candidates, execute.Candidate{ID: fmt.Sprint(i), Code: code(i)})
	}
	return b
}

// GoldIDs are the three TransCoder-test problems the engines' gold tests run.
var GoldIDs = []string{"ADD_1_TO_A_GIVEN_NUMBER", "ARRAY_ELEMENT_MOVED_K_USING_SINGLE_MOVES", "COUNT_PALINDROME_SUB_STRINGS_STRING"}

// TranscoderGold runs the lang gold functions of the GoldIDs problems on the
// inputs of their Python test scripts, on the engine open returns (called once
// the problems are loaded), and compares the outputs with the scripts' own
// f_gold run by a plain python3.
func TranscoderGold(t *testing.T, lang string, open func() execute.Engine) {
	t.Helper()
	probs := LoadGold(t, GoldIDs...)
	e := open()
	for _, p := range probs {
		b := execute.Batch{ProblemID: p.ID, Lang: lang, Params: p.Params, Returns: p.Returns,
			Tests: p.Tests, Candidates: []execute.Candidate{{ID: "gold", Code: p.Code[lang]}}}
		r := Run(t, e, b)[0]
		if r.Status != schemas.StatusOK {
			t.Fatalf("%s: %s %s", p.ID, r.Status, r.Detail)
		}
		typ := values.MustParseType(p.Returns)
		for i, tr := range r.Tests {
			want := Canon(t, p.Returns, p.Want[i])
			if tr.Status != schemas.StatusOK || !values.Equal(typ, tr.Output, want, values.DefaultTolerance) {
				t.Errorf("%s test %d: %s %s %s, want %s", p.ID, i, tr.Status, tr.Error, tr.Output, want)
			}
		}
	}
}

// GoldProblem is a TransCoder-test problem with its script's inputs and outputs.
type GoldProblem struct {
	ID      string
	Code    map[string]string
	Params  []schemas.Param
	Returns string
	Tests   []schemas.Test
	Want    []string // f_gold's outputs, as printed by python3
}

// goldTypes gives the declared types of the GoldIDs problems (their Python
// scripts carry no types).
var goldTypes = map[string][2]string{
	"ADD_1_TO_A_GIVEN_NUMBER":                  {"int", "int"},
	"ARRAY_ELEMENT_MOVED_K_USING_SINGLE_MOVES": {"int[],int,int", "int"},
	"COUNT_PALINDROME_SUB_STRINGS_STRING":      {"char[],int", "int"},
}

// LoadGold reads the problems from ../shared/corpora/transcoder-test and runs their
// Python test scripts' f_gold with a plain python3 to get the inputs and outputs.
// It skips when the corpus or one of the problems is absent.
func LoadGold(t testing.TB, ids ...string) []GoldProblem {
	t.Helper()
	dir := testenv.SharedCorpora(t, "")
	f, err := os.Open(filepath.Join(dir, "transcoder-test", "gold.jsonl"))
	if err != nil {
		t.Skipf("TransCoder-test gold.jsonl not available: %v", err)
	}
	defer f.Close()
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	var out []GoldProblem
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var row map[string]string
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		id := row["sample_id"]
		if !want[id] {
			continue
		}
		p := GoldProblem{ID: id, Code: row, Returns: goldTypes[id][1]}
		for i, typ := range strings.Split(goldTypes[id][0], ",") {
			p.Params = append(p.Params, schemas.Param{Name: fmt.Sprintf("p%d", i), Type: typ})
		}
		script := filepath.Join(dir, "transcoder-test", "testscript", "python", id+".py")
		src, err := os.ReadFile(script)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		// Replace the script's main by one that prints [args, f_gold(*args)] as JSON.
		body := strings.Replace(string(src), "#TOFILL", "f_filled = f_gold", 1)
		body = strings.Replace(body, "    n_success = 0", `    import json
    for ps in param:
        print(json.dumps([list(ps), f_gold(*ps)]))
    raise SystemExit(0)
    n_success = 0`, 1)
		cmd := exec.Command("/usr/bin/python3", "-S", "-")
		cmd.Stdin = strings.NewReader(body)
		res, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: running the test script: %v", id, err)
		}
		for i, line := range strings.Split(strings.TrimSpace(string(res)), "\n") {
			var pair [2]json.RawMessage
			if err := json.Unmarshal([]byte(line), &pair); err != nil {
				t.Fatalf("%s: %q: %v", id, line, err)
			}
			p.Tests = append(p.Tests, schemas.Test{Index: int32(i), Args: string(pair[0])})
			p.Want = append(p.Want, string(pair[1]))
		}
		if len(p.Tests) == 0 {
			t.Fatalf("%s: no tests in the script", id)
		}
		out = append(out, p)
	}
	if len(out) != len(ids) {
		t.Skipf("only %d of the problems %v are in this corpus sample", len(out), ids)
	}
	return out
}
