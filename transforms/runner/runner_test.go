package runner

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/sandbox"
	"transmute/transforms/score"
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
// RunTests every test of the candidate is one too.
func TestRunBatchEngineFailure(t *testing.T) {
	for _, infraTests := range []bool{false, true} {
		var errs []schemas.ErrorRow
		r := &Tools{Run: "r", Engines: map[string]execute.Engine{schemas.Python: failing{}}}
		b := r.Batch(problem, schemas.Python)
		b.Candidates = []execute.Candidate{{ID: "a"}, {ID: "b"}}
		run := r.RunBatch
		if infraTests {
			run = r.RunTests
		}
		res := run(context.Background(), b, Errors("r", schemas.StageMBTA, problem, &errs))
		if len(res) != 2 || res["a"].Status != schemas.StatusInfraError || res["b"].Status != schemas.StatusInfraError {
			t.Fatalf("results %+v", res)
		}
		if want := map[bool]int{false: 0, true: 2}[infraTests]; len(res["a"].Tests) != want {
			t.Errorf("RunTests %v: %d test results, want %d", infraTests, len(res["a"].Tests), want)
		}
		if len(errs) != 1 || errs[0].Stage != schemas.StageMBTA || errs[0].Reason != "engine failure" || errs[0].ProblemID != "P" {
			t.Errorf("error rows %+v", errs)
		}
	}
	// No candidate: no call, no row.
	var errs []schemas.ErrorRow
	r := &Tools{Engines: map[string]execute.Engine{schemas.Python: failing{}}}
	if res := r.RunBatch(context.Background(), r.Batch(problem, schemas.Python), Errors("r", schemas.StageMBTA, problem, &errs)); len(res) != 0 || len(errs) != 0 {
		t.Errorf("empty batch: %v, %v", res, errs)
	}
}

// A batch stops a candidate at its first timeout and takes the Tools' limits; BatchOf
// takes the parameters and tests of a program that are not its problem's.
func TestBatch(t *testing.T) {
	r := &Tools{Limits: sandbox.Limits{CPUTime: time.Second}}
	b := r.Batch(problem, schemas.Java)
	if b.ProblemID != "P" || b.Lang != schemas.Java || len(b.Tests) != 2 || b.StopAfterTimeouts != 1 || b.Limits.CPUTime != time.Second {
		t.Errorf("batch %+v", b)
	}
	params := []schemas.Param{{Name: "x", Type: "int"}}
	b = r.BatchOf("Q", schemas.Python, params, "int", problem.Tests[:1])
	if b.ProblemID != "Q" || len(b.Params) != 1 || b.Returns != "int" || len(b.Tests) != 1 || b.StopAfterTimeouts != 1 {
		t.Errorf("batch of %+v", b)
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
// code, leaves out a direction without one, and says once per translator why a
// recorded one is left out.
func TestDirections(t *testing.T) {
	var errs []schemas.ErrorRow
	trs := []translate.Translator{fixed{name: "rec", recorded: true}, fixed{name: "llm"}}
	dirs := []schemas.Direction{{Src: "java", Tgt: "python"}, {Src: "java", Tgt: "cpp"}, {Src: "python", Tgt: "java"}}
	got := Directions(dirs, trs, "the job", Errors("r", schemas.StageProperties, problem, &errs))
	want := []Direction{{SrcLang: "java", TgtLang: "python", Translators: []string{"llm"}},
		{SrcLang: "python", TgtLang: "java", Translators: []string{"llm"}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("directions %+v, want %+v", got, want)
	}
	if len(errs) != 1 || errs[0].Reason != ReasonNoVariants || !strings.Contains(errs[0].Detail, "rec is skipped by the job") {
		t.Errorf("error rows %+v", errs)
	}
}

// Start refuses a problem without tests or with a return type that does not parse,
// with one error row, before it looks at the translators.
func TestStart(t *testing.T) {
	r := &Tools{Translators: []translate.Translator{fixed{name: "rec", recorded: true}, fixed{name: "llm"}}}
	dirs := []schemas.Direction{{Src: "java", Tgt: "python"}}
	for _, tc := range []struct {
		p      schemas.Problem
		reason string
	}{
		{schemas.Problem{ID: "A", Returns: "int"}, "no tests"},
		{schemas.Problem{ID: "B", Returns: "int[[", Tests: problem.Tests}, "bad return type"},
	} {
		var errs []schemas.ErrorRow
		if _, _, ok := r.Start(tc.p, dirs, "the job", Errors("r", schemas.StageMBTA, tc.p, &errs)); ok {
			t.Errorf("%s: started", tc.p.ID)
		}
		if len(errs) != 1 || errs[0].Reason != tc.reason {
			t.Errorf("%s: error rows %+v, want one %q", tc.p.ID, errs, tc.reason)
		}
	}
	var errs []schemas.ErrorRow
	p := schemas.Problem{ID: "C", Returns: "int[]", Tests: problem.Tests}
	got, ret, ok := r.Start(p, dirs, "the job", Errors("r", schemas.StageMBTA, p, &errs))
	if !ok || ret.String() != "int[]" || len(got) != 1 || len(errs) != 1 || errs[0].Reason != ReasonNoVariants {
		t.Errorf("started: %v %v %+v, errors %+v", ok, ret, got, errs)
	}
}

// echo answers with the request it got, so a test sees what was asked.
type echo struct{ name string }

func (e echo) Name() string { return e.name }
func (e echo) Translate(_ context.Context, r translate.Request) ([]translate.Translation, error) {
	return []translate.Translation{{Status: schemas.TranslationOK, Code: e.name + ":" + r.VariantID + ":" + r.Code + ":" + r.Returns,
		Entry: r.Entry, Imports: r.Imports}}, nil
}
func (echo) TranslatesVariants() bool { return true }
func (echo) Directions() [][2]string  { return nil }
func (echo) Close() error             { return nil }

// TranslateInputs asks each of the direction's translators, in its order, for every
// input in order, with the input's own signature; a translator the Tools lack gives
// a translation error, not a gap.
func TestTranslateInputs(t *testing.T) {
	r := &Tools{Run: "r", Translators: []translate.Translator{echo{"a"}, echo{"b"}}}
	d := Direction{SrcLang: "java", TgtLang: "python", Translators: []string{"b", "a", "gone"}}
	ins := []Input{{Variant: schemas.VariantOrig, Code: "f", Entry: "f", Returns: "int"},
		{Variant: "v1", Code: "g", Entry: "f", Returns: "long", Params: []schemas.Param{{Name: "x", Type: "int"}}}}
	var got []string
	r.TranslateInputs(context.Background(), problem, d, ins, func(name string, in Input, res []translate.Translation) {
		row := r.TranslationRow(problem, name, in.Variant, d, res[0])
		got = append(got, fmt.Sprintf("%s %s %s %s %s", name, row.VariantID, row.Status, row.Code, row.SrcLang+"-"+row.TgtLang))
	})
	want := []string{"b orig ok b:orig:f:int java-python", "b v1 ok b:v1:g:long java-python",
		"a orig ok a:orig:f:int java-python", "a v1 ok a:v1:g:long java-python",
		"gone orig error  java-python", "gone v1 error  java-python"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("translations\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A source language is made once; one whose side fails is tried again by the
// next direction from it.
func TestEachSource(t *testing.T) {
	dirs := []Direction{{SrcLang: "java", TgtLang: "python"}, {SrcLang: "cpp", TgtLang: "go"},
		{SrcLang: "java", TgtLang: "go"}, {SrcLang: "cpp", TgtLang: "python"}, {SrcLang: "cpp", TgtLang: "java"},
		{SrcLang: "cpp", TgtLang: "go"}}
	var calls []string
	EachSource(dirs, func(lang string) bool {
		calls = append(calls, lang)
		return lang == "java" || len(calls) > 3 // cpp fails twice, then is made
	})
	if want := []string{"java", "cpp", "cpp", "cpp"}; !reflect.DeepEqual(calls, want) {
		t.Errorf("calls = %v, want %v", calls, want)
	}
}

// Keyed keeps the first key added or merged, and counts; merging an empty one
// changes nothing.
func TestKeyed(t *testing.T) {
	k1, k2 := score.Key{Translator: "a"}, score.Key{Translator: "b"}
	var a, b, empty Keyed
	if a.Merge(empty) || a.Added != 0 {
		t.Errorf("merged an empty one: %+v", a)
	}
	b.Add(k2)
	b.Add(k1)
	if !a.Merge(b) || a.Key != k2 || a.Added != 2 {
		t.Errorf("merge into empty: %+v", a)
	}
	a.Add(k1)
	if a.Key != k2 || a.Added != 3 || b.Added != 2 {
		t.Errorf("after add: %+v, %+v", a, b)
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
