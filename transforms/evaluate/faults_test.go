package evaluate

import (
	"context"
	"slices"
	"strings"
	"testing"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/translate"
	"transmute/transforms/values"
)

// TestEngineFaultAtEachCallSite makes the engine fail (an error, then a panic) at each
// of Execute's call sites in turn: the golds' runs, their second runs and the
// translations. Each failure is one error row with the engine's message, the problem
// is evaluated to its end, and the rows the failed call did not decide are those of a
// run without the fault.
func TestEngineFaultAtEachCallSite(t *testing.T) {
	eng := pythonEngine(t).Engine
	p := schemas.Problem{ID: "ADD", Corpus: "test", Returns: "int",
		Params:    []schemas.Param{{Name: "a", Type: "int"}, {Name: "b", Type: "int"}},
		Functions: []schemas.Function{{Lang: schemas.Python, Name: "add", Code: "def add(a, b):\n    return a + b\n"}},
		Tests:     []schemas.Test{{Index: 0, Args: "[1,2]"}, {Index: 1, Args: "[-3,3]"}, {Index: 2, Args: "[5,0]"}}}
	it := Item{Problem: p, Tasks: []schemas.Task{{ProblemID: p.ID, Corpus: "test", SrcLang: schemas.Python, TgtLang: schemas.Python}}}
	trs := []translate.Translator{fixed{"def add(a, b):\n    return b + a\n"}, named{"minus", "def add(a, b):\n    return a - b\n"}}
	evaluate := func(e execute.Engine) Output {
		ev := &Evaluator{Run: "t", Translators: trs, Engines: map[string]execute.Engine{schemas.Python: e},
			Tolerance: values.DefaultTolerance}
		out := ev.Evaluate(context.Background(), it)
		for i := range out.Executions {
			out.Executions[i].CPUMicros, out.Executions[i].WallMicros, out.Executions[i].MaxRSSKB = 0, 0, 0
		}
		return out
	}
	clean := evaluate(eng)
	if len(clean.Errors) != 0 || len(clean.Executions) != 9 || len(clean.Results) != 12 {
		t.Fatalf("the run without faults: %d errors %+v, %d executions, %d results", len(clean.Errors), clean.Errors,
			len(clean.Executions), len(clean.Results))
	}
	rowsOf := func(out Output, prefix string) []schemas.ExecutionRow {
		var rows []schemas.ExecutionRow
		for _, r := range out.Executions {
			if strings.HasPrefix(r.ProgramID, prefix) {
				rows = append(rows, r)
			}
		}
		return rows
	}
	sites := []struct {
		name, match string
		// check checks the rows of a run whose engine failed at the site
		check func(t *testing.T, out Output)
	}{
		{"golds", GoldID(schemas.Python), func(t *testing.T, out Output) {
			for _, r := range rowsOf(out, "gold/") {
				if r.TestStatus != schemas.StatusInfraError {
					t.Errorf("gold row %+v, want infra_error", r)
				}
			}
			// no oracle returned a value: the translations are not run
			for _, r := range rowsOf(out, "tr/") {
				if r.TestStatus != StatusSkipped {
					t.Errorf("translation row %+v, want skipped", r)
				}
			}
			if len(out.Results) != len(clean.Results) {
				t.Errorf("%d result rows, want %d", len(out.Results), len(clean.Results))
			}
		}},
		{"gold reruns", "#rerun", func(t *testing.T, out Output) {
			if !slices.Equal(out.Executions, clean.Executions) || len(out.Results) != len(clean.Results) || len(out.Fidelity) != len(clean.Fidelity) {
				t.Errorf("executions %+v\nwant %+v", out.Executions, clean.Executions)
			}
			for i := range out.Results {
				if out.Results[i] != clean.Results[i] {
					t.Errorf("result %d: %+v, want %+v", i, out.Results[i], clean.Results[i])
				}
			}
		}},
		{"translations", "tr/", func(t *testing.T, out Output) {
			if !slices.Equal(rowsOf(out, "gold/"), rowsOf(clean, "gold/")) {
				t.Errorf("gold rows %+v, want %+v", rowsOf(out, "gold/"), rowsOf(clean, "gold/"))
			}
			for _, r := range rowsOf(out, "tr/") {
				if r.TestStatus != schemas.StatusInfraError {
					t.Errorf("translation row %+v, want infra_error", r)
				}
			}
			if len(out.Results) != len(clean.Results) {
				t.Errorf("%d result rows, want %d", len(out.Results), len(clean.Results))
			}
			for _, r := range out.Results {
				if r.Match {
					t.Errorf("a translation that did not run matches: %+v", r)
				}
			}
		}},
	}
	for _, site := range sites {
		for _, f := range []execute.Fault{execute.FaultError, execute.FaultPanic} {
			t.Run(site.name+map[execute.Fault]string{execute.FaultError: "/error", execute.FaultPanic: "/panic"}[f], func(t *testing.T) {
				out := evaluate(execute.Faulty(eng, site.match, f))
				var failures []schemas.ErrorRow
				for _, e := range out.Errors {
					if e.Reason == "engine failure" {
						failures = append(failures, e)
					}
				}
				if len(failures) != 1 {
					t.Fatalf("%d engine failure rows, want 1: %+v", len(failures), out.Errors)
				}
				e := failures[0]
				if e.Stage != "execute" || e.Lang != schemas.Python || e.ProblemID != p.ID ||
					!strings.Contains(e.Detail, "injected engine failure ("+site.match+")") ||
					(f == execute.FaultPanic) != strings.HasPrefix(e.Detail, "engine panicked: ") {
					t.Errorf("error row %+v", e)
				}
				site.check(t, out)
			})
		}
	}
}
