package pipelines

import (
	"context"
	"os/exec"
	"reflect"
	"testing"

	"transmute/schemas"
	"transmute/transforms/consistency"
	"transmute/transforms/evaluate"
	"transmute/transforms/execute"
	"transmute/transforms/execute/python"
	"transmute/transforms/runner"
	"transmute/transforms/translate"
	"transmute/transforms/translate/identity"
	"transmute/transforms/values"
)

// TestConsistencyStagesCoder: consistency.Expanded and consistency.Translated
// survive Beam's coder with every field the next stage reads (the variants, the
// source runs, the translations), and the three stages on runners that hold only
// what their stage opens (Translate: translators; Execute: engines) give what one
// consistency.Runner.Evaluate gives.
func TestConsistencyStagesCoder(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	eng, err := python.New(execute.Options{WorkDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	table, err := consistency.DefaultTable()
	if err != nil {
		t.Fatal(err)
	}
	p := schemas.Problem{ID: "SUM", Corpus: "test", Returns: "int",
		Params: []schemas.Param{{Name: "arr", Type: "int[]"}, {Name: "n", Type: "int"}},
		Functions: []schemas.Function{{Lang: schemas.Python, Name: "f",
			Code: "def f ( arr , n ) :\n    res = 0\n    for i in range ( n ) :\n        res += arr [ i ]\n    return res"}},
		Tests: []schemas.Test{{Index: 0, Args: "[[1,2,3],3]"}, {Index: 1, Args: "[[5,-5,4],2]"}, {Index: 2, Args: "[[7],1]"}}}
	it := evaluate.Item{Problem: p, Tasks: []schemas.Task{{ProblemID: p.ID, Corpus: "test", SrcLang: schemas.Python, TgtLang: schemas.Python}}}
	engines := map[string]execute.Engine{schemas.Python: eng}
	trs := []translate.Translator{identity.Translator{}}
	full := &consistency.Runner{Tools: runner.Tools{Run: "t", Translators: trs, Engines: engines, Tolerance: values.DefaultTolerance},
		Table: table, Options: consistency.DefaultOptions}
	ctx := context.Background()

	ex := full.Expand(ctx, it)
	if len(ex.Sides) != 1 || len(ex.Sides[0].Variants) == 0 || len(ex.Sides[0].Runs) < 2 || len(ex.Directions) != 1 {
		t.Fatalf("expanded %+v: want a Python side with variants and their runs", ex)
	}
	dex := beamRoundTrip(t, ex)
	if !reflect.DeepEqual(dex.Sides, ex.Sides) || !reflect.DeepEqual(dex.Directions, ex.Directions) || !reflect.DeepEqual(dex.Item, ex.Item) {
		t.Errorf("Expanded changed in Beam's coder:\n got %+v\nwant %+v", dex, ex)
	}
	tr := (&consistency.Runner{Tools: runner.Tools{Run: "t", Translators: trs}}).Translate(ctx, dex)
	if len(tr.Translations) != 1+len(ex.Sides[0].Variants) {
		t.Fatalf("translated: %d translations for %d variants", len(tr.Translations), len(ex.Sides[0].Variants))
	}
	dtr := beamRoundTrip(t, tr)
	if !reflect.DeepEqual(dtr.Translations, tr.Translations) {
		t.Errorf("Translated changed in Beam's coder:\n got %+v\nwant %+v", dtr.Translations, tr.Translations)
	}
	got := (&consistency.Runner{Tools: runner.Tools{Run: "t", Engines: engines, Tolerance: values.DefaultTolerance}, Table: table,
		Options: consistency.DefaultOptions}).Execute(ctx, dtr)
	want := full.Evaluate(ctx, it)
	for _, o := range []*consistency.Output{&got, &want} {
		for i := range o.Executions {
			o.Executions[i].CPUMicros, o.Executions[i].WallMicros, o.Executions[i].MaxRSSKB = 0, 0, 0
		}
		for i := range o.Translations {
			o.Translations[i].LatencyMs = 0
		}
	}
	if len(got.Results) == 0 || !reflect.DeepEqual(got.Results, want.Results) || !reflect.DeepEqual(got.Executions, want.Executions) ||
		!reflect.DeepEqual(got.Translations, want.Translations) || !reflect.DeepEqual(got.Variants, want.Variants) ||
		!reflect.DeepEqual(got.Repairs, want.Repairs) || !reflect.DeepEqual(got.Errors, want.Errors) {
		t.Errorf("stages through Beam's coder differ from Evaluate:\n got %+v\nwant %+v", got, want)
	}
}
