package mbta

import (
	"bytes"
	"context"
	"encoding/gob"
	"os/exec"
	"reflect"
	"testing"

	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/execute"
	"transmute/transforms/execute/python"
	"transmute/transforms/mutate"
	"transmute/transforms/runner"
	"transmute/transforms/score"
	"transmute/transforms/translate"
	"transmute/transforms/translate/identity"
	"transmute/transforms/values"
)

// frozen always returns the original function, whatever variant it is asked for:
// it kills every mutant whose tests' outputs differ from the original's.
type frozen struct{ code string }

func (f frozen) Name() string { return "frozen" }
func (f frozen) Translate(context.Context, translate.Request) ([]translate.Translation, error) {
	return []translate.Translation{{Status: schemas.TranslationOK, Code: f.code}}, nil
}
func (frozen) TranslatesVariants() bool { return true }
func (frozen) Directions() [][2]string  { return nil }
func (frozen) Close() error             { return nil }

// roundTrip encodes v and decodes it into a fresh T, as a runner does between stages.
func roundTrip[T any](t *testing.T, v T) T {
	t.Helper()
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(v); err != nil {
		t.Fatal(err)
	}
	var got T
	if err := gob.NewDecoder(&buf).Decode(&got); err != nil {
		t.Fatal(err)
	}
	return got
}

func zeroTimes(o *Output) {
	for i := range o.Executions {
		o.Executions[i].CPUMicros, o.Executions[i].WallMicros, o.Executions[i].MaxRSSKB = 0, 0, 0
	}
}

// pythonEngine is a Python engine for one test, or skips it without python3.
func pythonEngine(t *testing.T) execute.Engine {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	eng, err := python.New(execute.Options{WorkDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	return eng
}

// divItem is a Python problem whose mutants differ on its three tests (b = 0 among
// them), with its gold's code.
func divItem() (string, evaluate.Item) {
	code := "def div(a, b):\n    if b == 0:\n        return 0\n    return a // b\n"
	p := schemas.Problem{ID: "DIV", Corpus: "test", Returns: "int",
		Params:    []schemas.Param{{Name: "a", Type: "int"}, {Name: "b", Type: "int"}},
		Functions: []schemas.Function{{Lang: schemas.Python, Name: "div", Code: code}},
		Tests:     []schemas.Test{{Index: 0, Args: "[7,2]"}, {Index: 1, Args: "[7,0]"}, {Index: 2, Args: "[-7,2]"}}}
	return code, evaluate.Item{Problem: p, Tasks: []schemas.Task{{ProblemID: p.ID, Corpus: "test", SrcLang: schemas.Python, TgtLang: schemas.Python}}}
}

// Expand needs engines, Translate only translators and Execute only engines: run
// apart by three Runners, with their results encoded in between, they give what
// Evaluate gives.
func TestExpandTranslateExecute(t *testing.T) {
	eng := pythonEngine(t)
	code, it := divItem()
	trs := []translate.Translator{identity.Translator{}, frozen{code}}
	engines := map[string]execute.Engine{schemas.Python: eng}
	ctx := context.Background()
	base := Runner{Tools: runner.Tools{Run: "t", Tolerance: values.DefaultTolerance}, Mutate: mutate.Options{Seed: 1}}

	expander, translator, executor, whole := base, base, base, base
	expander.Translators, expander.Engines = trs, engines
	translator.Translators = trs
	executor.Engines = engines
	whole.Translators, whole.Engines = trs, engines

	ex := roundTrip(t, expander.Expand(ctx, it))
	if len(ex.Sides) != 1 || len(ex.Directions) != 1 || !reflect.DeepEqual(ex.Directions[0].Translators, []string{"identity", "frozen"}) {
		t.Fatalf("expanded: %d sides, directions %+v; want 1 side, python-python by [identity frozen]", len(ex.Sides), ex.Directions)
	}
	// The mutants that ran, by outcome: anomalous (b != 0 divides by zero on test 1),
	// or the same outputs as the original, or others.
	side := ex.Sides[0]
	runs := map[string]execute.Result{}
	for _, r := range side.Runs {
		runs[r.Program] = r.Result
	}
	prog := map[string]string{}
	for _, vp := range side.Programs {
		prog[vp.Variant] = vp.Program
	}
	orig := runs[SourceID(schemas.Python)]
	if orig.Status != schemas.StatusOK || len(orig.Tests) != 3 || orig.Tests[0].Output != "3" || orig.Tests[1].Output != "0" || orig.Tests[2].Output != "-4" {
		t.Fatalf("original run %+v, want 3, 0, -4 (7//2, b == 0, -7//2)", orig)
	}
	anomalies, same := 0, 0
	for _, mu := range side.Mutants {
		r := runs[prog[mu.ID]]
		if anomalous(r) {
			anomalies++
			continue
		}
		eq := true
		for i := range r.Tests {
			eq = eq && r.Tests[i].Output == orig.Tests[i].Output
		}
		if eq {
			same++
		}
	}
	nonAnomalous := len(side.Mutants) - anomalies
	t.Logf("%d mutants: %d anomalous, %d with the original's outputs", len(side.Mutants), anomalies, same)
	if anomalies == 0 || nonAnomalous == 0 {
		t.Fatalf("%d mutants, %d anomalous: want both kinds", len(side.Mutants), anomalies)
	}

	tr := roundTrip(t, translator.Translate(ctx, ex))
	// The original and each non-anomalous mutant, by both translators; frozen's
	// translations are all one text, so they are one distinct translation.
	if n := len(tr.Expanded.Output.Translations); n != 2*(1+nonAnomalous) {
		t.Errorf("%d translation rows, want %d", n, 2*(1+nonAnomalous))
	}
	if n := len(tr.Uses); n != 2*(1+nonAnomalous) {
		t.Errorf("%d uses, want %d", n, 2*(1+nonAnomalous))
	}
	got := executor.Execute(ctx, tr)
	want := whole.Evaluate(ctx, it)
	zeroTimes(&got)
	zeroTimes(&want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Execute(Translate(Expand)) differs from Evaluate:\n got %+v\nwant %+v", got, want)
	}

	verdicts := map[string]map[string]int{}
	for _, r := range got.MutantResults {
		if verdicts[r.Translator] == nil {
			verdicts[r.Translator] = map[string]int{}
		}
		verdicts[r.Translator][r.Verdict]++
	}
	// identity keeps every mutant's behaviour; frozen loses it unless the mutant
	// behaves as the original on every test.
	if v := verdicts["identity"]; v[score.Anomalous] != anomalies || v[score.Survived] != nonAnomalous || v[score.Killed] != 0 {
		t.Errorf("identity verdicts %v, want %d anomalous, %d survived", v, anomalies, nonAnomalous)
	}
	if v := verdicts["frozen"]; v[score.Anomalous] != anomalies || v[score.Survived] != same || v[score.Killed] != nonAnomalous-same {
		t.Errorf("frozen verdicts %v, want %d anomalous, %d survived, %d killed", v, anomalies, same, nonAnomalous-same)
	}
	if len(got.Groups) != 2 {
		t.Errorf("%d groups, want 2 (one per translator)", len(got.Groups))
	}
}

// A problem without tests stops at Expand: the later steps add nothing.
func TestExpandDone(t *testing.T) {
	m := &Runner{Tools: runner.Tools{Run: "t"}}
	it := evaluate.Item{Problem: schemas.Problem{ID: "X", Corpus: "c", Returns: "int"}}
	ex := m.Expand(context.Background(), it)
	if !ex.Done || len(ex.Output.Errors) != 1 || ex.Output.Errors[0].Reason != "no tests" {
		t.Fatalf("expanded %+v, want done with one no-tests error", ex)
	}
	out := m.Execute(context.Background(), m.Translate(context.Background(), ex))
	if !reflect.DeepEqual(out, ex.Output) {
		t.Errorf("output %+v, want the expanded rows %+v", out, ex.Output)
	}
}
