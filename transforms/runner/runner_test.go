package runner

import (
	"context"
	"errors"
	"strings"
	"testing"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/translate"
)

// failing is an engine that always fails as a whole.
type failing struct{}

func (failing) Lang() string { return schemas.Python }
func (failing) Run(context.Context, execute.Batch) ([]execute.Result, error) {
	return nil, errors.New("worker died")
}
func (failing) Close() error { return nil }

var problem = schemas.Problem{ID: "P", Corpus: "c", Tests: []schemas.Test{{Index: 0}, {Index: 1}}}

// An engine failure is one error row and an infra error per candidate; with
// InfraTests every test of the candidate is one too.
func TestRunBatchEngineFailure(t *testing.T) {
	for _, infraTests := range []bool{false, true} {
		var errs []schemas.ErrorRow
		r := &Runner{Run: "r", Engines: map[string]execute.Engine{schemas.Python: failing{}}, InfraTests: infraTests}
		b := r.Batch(problem, schemas.Python)
		b.Candidates = []execute.Candidate{{ID: "a"}, {ID: "b"}}
		res := r.RunBatch(context.Background(), b, Errors("r", schemas.StageMBTA, problem, &errs))
		if len(res) != 2 || res["a"].Status != schemas.StatusInfraError || res["b"].Status != schemas.StatusInfraError {
			t.Fatalf("results %+v", res)
		}
		if want := map[bool]int{false: 0, true: 2}[infraTests]; len(res["a"].Tests) != want {
			t.Errorf("InfraTests %v: %d test results, want %d", infraTests, len(res["a"].Tests), want)
		}
		if len(errs) != 1 || errs[0].Stage != schemas.StageMBTA || errs[0].Reason != "engine failure" || errs[0].ProblemID != "P" {
			t.Errorf("error rows %+v", errs)
		}
	}
	// No candidate: no call, no row.
	var errs []schemas.ErrorRow
	r := &Runner{Engines: map[string]execute.Engine{schemas.Python: failing{}}}
	if res := r.RunBatch(context.Background(), r.Batch(problem, schemas.Python), Errors("r", schemas.StageMBTA, problem, &errs)); len(res) != 0 || len(errs) != 0 {
		t.Errorf("empty batch: %v, %v", res, errs)
	}
}

// full: one row per test; else a summary row (the first failing test's error when
// the program has no message) and the failing tests only; a compile error is its
// summary row alone.
func TestExecutionRows(t *testing.T) {
	r := execute.Result{Status: schemas.StatusOK, Tests: []execute.TestResult{
		{Index: 0, Status: schemas.StatusOK, Output: "1"},
		{Index: 1, Status: schemas.StatusRuntimeError, Error: "boom"},
	}}
	pg := Program{Lang: schemas.Java, Role: schemas.RoleTranslation, Translator: "t", ID: "tr/x", Variant: schemas.VariantOrig}
	full := ExecutionRows("r", problem, pg, r, true)
	if len(full) != 2 || full[0].TestIndex != 0 || full[1].Error != "boom" || full[0].Role != schemas.RoleTranslation {
		t.Errorf("full rows %+v", full)
	}
	sum := ExecutionRows("r", problem, pg, r, false)
	if len(sum) != 2 || sum[0].TestIndex != -1 || sum[0].Error != "boom" || sum[1].TestIndex != 1 {
		t.Errorf("summary rows %+v", sum)
	}
	ce := execute.Result{Status: schemas.StatusCompileError, Detail: strings.Repeat("é", 3000),
		Tests: []execute.TestResult{{Index: 0, Status: schemas.StatusCompileError}}}
	rows := ExecutionRows("r", problem, pg, ce, true)
	if len(rows) != 1 || rows[0].TestIndex != -1 || len(rows[0].Error) > 4000+len("…") || !strings.HasSuffix(rows[0].Error, "…") {
		t.Errorf("compile error rows: %d, error of %d bytes", len(rows), len(rows[0].Error))
	}
}

// fixed translates anything except java-cpp, and only recorded code when recorded.
type fixed struct {
	name     string
	recorded bool
	out      []translate.Translation
	err      error
}

func (f fixed) Name() string { return f.name }
func (f fixed) Translate(context.Context, translate.Request) ([]translate.Translation, error) {
	return f.out, f.err
}
func (f fixed) TranslatesVariants() bool { return !f.recorded }
func (f fixed) Directions() [][2]string  { return [][2]string{{"java", "python"}, {"python", "java"}} }
func (f fixed) Close() error             { return nil }

// Directions keeps the translators that support a direction and translate unseen
// code, and says once per translator why a recorded one is left out.
func TestDirections(t *testing.T) {
	var errs []schemas.ErrorRow
	trs := []translate.Translator{fixed{name: "rec", recorded: true}, fixed{name: "llm"}}
	dirs := []schemas.Direction{{Src: "java", Tgt: "python"}, {Src: "java", Tgt: "cpp"}, {Src: "python", Tgt: "java"}}
	got := Directions(dirs, trs, "the job", Errors("r", schemas.StageProperties, problem, &errs))
	if len(got) != 3 || len(got[0].Translators) != 1 || got[0].Translators[0].Name() != "llm" || len(got[1].Translators) != 0 {
		t.Fatalf("directions %+v", got)
	}
	if len(errs) != 1 || errs[0].Reason != ReasonNoVariants || !strings.Contains(errs[0].Detail, "rec is skipped by the job") {
		t.Errorf("error rows %+v", errs)
	}
}

// Translate always returns a translation: an error, a missing translator and an
// empty answer each become one.
func TestTranslate(t *testing.T) {
	ctx := context.Background()
	if res := Translate(ctx, fixed{err: errors.New("down")}, "x", translate.Request{}); len(res) != 1 || res[0].Status != schemas.TranslationError || res[0].Error != "down" {
		t.Errorf("error: %+v", res)
	}
	if res := Translate(ctx, nil, "x", translate.Request{}); len(res) != 1 || res[0].Status != schemas.TranslationError {
		t.Errorf("nil translator: %+v", res)
	}
	if res := Translate(ctx, fixed{}, "x", translate.Request{}); len(res) != 1 || res[0].Status != schemas.TranslationMissing {
		t.Errorf("no answer: %+v", res)
	}
	out := []translate.Translation{{Status: schemas.TranslationOK, Code: "c", Raw: "```c```"}}
	res := Translate(ctx, fixed{out: out}, "x", translate.Request{})
	row := TranslationRow("r", problem, "x", "v1", schemas.Direction{Src: "java", Tgt: "python"}, res[0])
	if row.Code != "c" || row.Raw != "```c```" || row.SrcLang != "java" || row.TgtLang != "python" || row.VariantID != "v1" || row.Corpus != "c" {
		t.Errorf("row %+v", row)
	}
}
