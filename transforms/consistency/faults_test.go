package consistency

import (
	"context"
	"strings"
	"testing"

	"transmute/schemas"
	"transmute/transforms/execute"
)

// TestEngineFaultOnVariantTranslations: an engine that fails (an error, a panic) on
// the translations of the original and its variants gives error rows with its
// message; the job ends, and the variants' own runs are those of a run without it.
func TestEngineFaultOnVariantTranslations(t *testing.T) {
	// a translator whose translations are not the sources (so they run)
	r := pyRunner(t, rewriter{trigger: "return", from: "return res", to: "return res + 0"})
	sources := func(o Output) map[string]schemas.ExecutionRow {
		m := map[string]schemas.ExecutionRow{}
		for _, e := range o.Executions {
			if e.Role == "source" {
				e.CPUMicros, e.WallMicros, e.MaxRSSKB = 0, 0, 0
				m[e.ProgramID] = e
			}
		}
		return m
	}
	clean := r.Evaluate(context.Background(), pyProblem())
	if len(clean.Errors) != 0 || len(sources(clean)) != 6 {
		t.Fatalf("without faults: errors %+v, %d source runs", clean.Errors, len(sources(clean)))
	}
	eng := r.Engines["python"]
	for _, f := range []execute.Fault{execute.FaultError, execute.FaultPanic} {
		r.Engines = map[string]execute.Engine{"python": execute.Faulty(eng, "tr/", f)}
		out := r.Evaluate(context.Background(), pyProblem())
		n := 0
		for _, e := range out.Errors {
			if e.Reason == "engine failure" {
				n++
				if e.Stage != Stage || !strings.Contains(e.Detail, "injected engine failure (tr/)") {
					t.Errorf("fault %d: error row %+v", f, e)
				}
			}
		}
		if n == 0 {
			t.Errorf("fault %d: no engine failure row: %+v", f, out.Errors)
		}
		got, want := sources(out), sources(clean)
		for id, w := range want {
			if got[id] != w {
				t.Errorf("fault %d: source run %s: %+v, want %+v", f, id, got[id], w)
			}
		}
		if len(out.Variants) != len(clean.Variants) {
			t.Errorf("fault %d: %d variants, want %d", f, len(out.Variants), len(clean.Variants))
		}
	}
}
