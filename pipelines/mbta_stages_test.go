package pipelines

import (
	"bytes"
	"context"
	"os/exec"
	"reflect"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/execute"
	"transmute/transforms/execute/python"
	"transmute/transforms/mbta"
	"transmute/transforms/mutate"
	"transmute/transforms/runner"
	"transmute/transforms/translate"
	"transmute/transforms/translate/identity"
	"transmute/transforms/values"
)

// beamRoundTrip encodes v with the coder Beam infers for T (the schema row coder)
// and decodes it, as the runner does between the MBTA stages.
func beamRoundTrip[T any](t *testing.T, v T) T {
	t.Helper()
	typ := reflect.TypeOf(v)
	var buf bytes.Buffer
	if err := beam.NewElementEncoder(typ).Encode(v, &buf); err != nil {
		t.Fatalf("encode %v: %v", typ, err)
	}
	got, err := beam.NewElementDecoder(typ).Decode(&buf)
	if err != nil {
		t.Fatalf("decode %v: %v", typ, err)
	}
	return got.(T)
}

// TestMBTAStagesCoder: mbta.Expanded and mbta.Translated survive Beam's coder with
// every field the next stage reads (mutants, the source runs with their per-test
// outputs and times, the distinct translations), so the stages split across
// workers give what one mbta.Runner.Evaluate gives.
func TestMBTAStagesCoder(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	eng, err := python.New(execute.Options{WorkDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	p := schemas.Problem{ID: "MAX", Corpus: "test", Returns: "int",
		Params: []schemas.Param{{Name: "a", Type: "int"}, {Name: "b", Type: "int"}},
		Functions: []schemas.Function{{Lang: schemas.Python, Name: "mx",
			Code: "def mx(a, b):\n    if a > b:\n        return a\n    return b // (a - b)\n"}},
		Tests: []schemas.Test{{Index: 0, Args: "[3,1]"}, {Index: 1, Args: "[1,2]"}}}
	it := evaluate.Item{Problem: p, Tasks: []schemas.Task{{ProblemID: p.ID, Corpus: "test", SrcLang: schemas.Python, TgtLang: schemas.Python}}}
	r := &mbta.Runner{Tools: runner.Tools{Run: "t", Translators: []translate.Translator{identity.Translator{}},
		Engines: map[string]execute.Engine{schemas.Python: eng}, Tolerance: values.DefaultTolerance}, Mutate: mutate.Options{Seed: 3}}
	ctx := context.Background()

	ex := r.Expand(ctx, it)
	if len(ex.Sides) != 1 || len(ex.Sides[0].Mutants) == 0 || len(ex.Sides[0].Runs) < 2 {
		t.Fatalf("expanded %+v: want a Python side with mutants and their runs", ex.Sides)
	}
	dex := beamRoundTrip(t, ex)
	if !reflect.DeepEqual(dex.Sides, ex.Sides) || !reflect.DeepEqual(dex.Directions, ex.Directions) || !reflect.DeepEqual(dex.Item, ex.Item) {
		t.Errorf("Expanded changed in Beam's coder:\n got %+v\nwant %+v", dex, ex)
	}
	tr := r.Translate(ctx, dex)
	if len(tr.Translations) == 0 || len(tr.Uses) == 0 {
		t.Fatalf("translated: %d distinct translations, %d uses", len(tr.Translations), len(tr.Uses))
	}
	dtr := beamRoundTrip(t, tr)
	if !reflect.DeepEqual(dtr.Translations, tr.Translations) || !reflect.DeepEqual(dtr.Uses, tr.Uses) {
		t.Errorf("Translated changed in Beam's coder:\n got %+v\nwant %+v", dtr, tr)
	}
	got, want := r.Execute(ctx, dtr), r.Evaluate(ctx, it)
	for _, o := range []*mbta.Output{&got, &want} {
		for i := range o.Executions {
			o.Executions[i].CPUMicros, o.Executions[i].WallMicros, o.Executions[i].MaxRSSKB = 0, 0, 0
		}
	}
	if !reflect.DeepEqual(got.MutantResults, want.MutantResults) || !reflect.DeepEqual(got.Executions, want.Executions) ||
		!reflect.DeepEqual(got.Translations, want.Translations) || !reflect.DeepEqual(got.Variants, want.Variants) ||
		!reflect.DeepEqual(got.Groups, want.Groups) || len(got.MutantResults) == 0 {
		t.Errorf("stages through Beam's coder differ from Evaluate:\n got %+v\nwant %+v", got, want)
	}
}
