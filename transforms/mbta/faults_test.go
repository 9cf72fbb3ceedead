package mbta

import (
	"context"
	"strings"
	"testing"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/mutate"
	"transmute/transforms/runner"
	"transmute/transforms/translate"
	"transmute/transforms/translate/identity"
	"transmute/transforms/values"
)

// TestEngineFaultOnMutants: an engine that fails (an error, a panic) on the mutants'
// batch gives one error row with its message; the job ends, and the original's rows
// are those of a run without the fault.
func TestEngineFaultOnMutants(t *testing.T) {
	eng := pythonEngine(t)
	_, it := divItem()
	run := func(e execute.Engine) Output {
		// the original runs alone first (MutantTimeFactor), the mutants after it
		m := Runner{Tools: runner.Tools{Run: "t", Tolerance: values.DefaultTolerance, Translators: []translate.Translator{identity.Translator{}},
			Engines: map[string]execute.Engine{schemas.Python: e}}, Mutate: mutate.Options{Seed: 1}, MutantTimeFactor: 10}
		out := m.Evaluate(context.Background(), it)
		zeroTimes(&out)
		return out
	}
	gold := func(o Output) []schemas.ExecutionRow {
		var rows []schemas.ExecutionRow
		for _, r := range o.Executions {
			if r.ProgramID == SourceID(schemas.Python) {
				rows = append(rows, r)
			}
		}
		return rows
	}
	clean := run(eng)
	if len(clean.Errors) != 0 || len(gold(clean)) == 0 || len(clean.MutantResults) == 0 {
		t.Fatalf("without faults: errors %+v, %d gold rows, %d mutant results", clean.Errors, len(gold(clean)), len(clean.MutantResults))
	}
	for _, f := range []execute.Fault{execute.FaultError, execute.FaultPanic} {
		out := run(execute.Faulty(eng, "mut/", f))
		n := 0
		for _, e := range out.Errors {
			if e.Reason == "engine failure" {
				n++
				if e.Stage != Stage || !strings.Contains(e.Detail, "injected engine failure (mut/)") {
					t.Errorf("fault %d: error row %+v", f, e)
				}
			}
		}
		if n != 1 {
			t.Errorf("fault %d: %d engine failure rows, want 1: %+v", f, n, out.Errors)
		}
		g, cg := gold(out), gold(clean)
		if len(g) != len(cg) {
			t.Fatalf("fault %d: gold rows %+v, want %+v", f, g, cg)
		}
		for i := range g {
			if g[i] != cg[i] {
				t.Errorf("fault %d: gold row %+v, want %+v", f, g[i], cg[i])
			}
		}
		if len(out.MutantResults) == 0 || len(out.Variants) != len(clean.Variants) {
			t.Errorf("fault %d: %d mutant results, %d variants (want %d)", f, len(out.MutantResults), len(out.Variants), len(clean.Variants))
		}
	}
}
