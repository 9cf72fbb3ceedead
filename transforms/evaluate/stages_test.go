package evaluate

import (
	"bytes"
	"context"
	"encoding/gob"
	"reflect"
	"testing"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/translate"
	"transmute/transforms/values"
)

// Translate needs no engine and Execute no translator: run apart (as the pipeline's
// stages do, on other workers, after encoding), they give what Evaluate gives.
func TestTranslateThenExecute(t *testing.T) {
	eng := pythonEngine(t).Engine
	p := schemas.Problem{ID: "ADD", Corpus: "test", Returns: "int",
		Params:    []schemas.Param{{Name: "a", Type: "int"}, {Name: "b", Type: "int"}},
		Functions: []schemas.Function{{Lang: schemas.Python, Name: "add", Code: "def add(a, b):\n    return a + b\n"}},
		Tests:     []schemas.Test{{Index: 0, Args: "[1,2]"}, {Index: 1, Args: "[-3,3]"}}}
	it := Item{Problem: p, Tasks: []schemas.Task{{ProblemID: p.ID, Corpus: "test", SrcLang: schemas.Python, TgtLang: schemas.Python},
		{ProblemID: p.ID, Corpus: "test", SrcLang: schemas.Java, TgtLang: schemas.Python}}}
	good, bad := fixed{"def add(a, b):\n    return a + b\n"}, named{"minus", "def add(a, b):\n    return a - b\n"}
	trs := []translate.Translator{good, bad}

	tr := (&Evaluator{Run: "t", Translators: trs}).Translate(context.Background(), it)
	if len(tr.Translations) != 2 || !reflect.DeepEqual(tr.Translators, []string{"fixed", "minus"}) {
		t.Fatalf("translated: %d rows by %v, want 2 rows by [fixed minus]", len(tr.Translations), tr.Translators)
	}
	// The problem has no Java function: an error row, and nothing translated from Java.
	if len(tr.Errors) != 1 || tr.Errors[0].Reason != "no source function" {
		t.Fatalf("errors %+v, want one no-source-function row", tr.Errors)
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(tr); err != nil {
		t.Fatal(err)
	}
	var decoded Translated
	if err := gob.NewDecoder(&buf).Decode(&decoded); err != nil {
		t.Fatal(err)
	}
	engines := map[string]execute.Engine{schemas.Python: eng}
	got := (&Evaluator{Run: "t", Engines: engines, Tolerance: values.DefaultTolerance}).Execute(context.Background(), decoded)
	want := (&Evaluator{Run: "t", Translators: trs, Engines: engines, Tolerance: values.DefaultTolerance}).Evaluate(context.Background(), it)
	for i := range got.Executions { // timings differ from run to run
		got.Executions[i].CPUMicros, got.Executions[i].WallMicros, got.Executions[i].MaxRSSKB = 0, 0, 0
	}
	for i := range want.Executions {
		want.Executions[i].CPUMicros, want.Executions[i].WallMicros, want.Executions[i].MaxRSSKB = 0, 0, 0
	}
	if !reflect.DeepEqual(got.Results, want.Results) || !reflect.DeepEqual(got.Executions, want.Executions) ||
		!reflect.DeepEqual(got.Translations, want.Translations) || !reflect.DeepEqual(got.Errors, want.Errors) {
		t.Errorf("Execute(Translate) differs from Evaluate:\n got %+v\nwant %+v", got, want)
	}
	// 2 tests x 2 oracles (source and target gold are the same Python gold) per translator.
	match := map[string]int{}
	for _, r := range got.Results {
		if r.Match {
			match[r.Translator]++
		}
	}
	if len(got.Results) != 8 || match["fixed"] != 4 || match["minus"] != 0 {
		t.Errorf("%d result rows, matches %v; want 8 rows, fixed 4 and minus 0 (1-2 != 3, -3-3 != 0)", len(got.Results), match)
	}
}
