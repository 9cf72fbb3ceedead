package consistency

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
)

// slowSource is an engine that reports a wall-time timeout on its first test for
// every source candidate ("orig" or a variant id, not a translation "tr/" or a
// repair "rep/") whose code contains match, as a source that loops does.
type slowSource struct {
	execute.Engine
	match string
}

func (e slowSource) Run(ctx context.Context, b execute.Batch) ([]execute.Result, error) {
	res, err := e.Engine.Run(ctx, b)
	if err != nil {
		return res, err
	}
	for i, c := range b.Candidates {
		if strings.HasPrefix(c.ID, "tr/") || strings.HasPrefix(c.ID, "rep/") || !strings.Contains(c.Code, e.match) {
			continue
		}
		r := execute.Result{CandidateID: c.ID, Status: schemas.StatusTimeout, WallTime: 2 * time.Second}
		r.Tests = []execute.TestResult{{Index: 0, Status: schemas.StatusTimeout, Error: "wall time limit", WallTime: 2 * time.Second}}
		for _, t := range b.Tests[1:] {
			r.Tests = append(r.Tests, execute.TestResult{Index: t.Index, Status: schemas.StatusTimeout, Error: "not run after 1 consecutive timeouts"})
		}
		res[i] = r
	}
	return res, nil
}

// A variant whose source run hits the wall-time limit tests nothing, so it is
// neither translated nor judged; it does not cost the problem anything else: the
// original and every other variant are still translated, every other pair judged,
// and the repairs of the memorised bug made from the variants that ran, whether
// the job runs as one call (Evaluate) or as its three steps with each result
// passed on.
func TestSourceTimeoutKeepsOtherTranslationsAndRepairs(t *testing.T) {
	bug := rewriter{trigger: sumPy, from: "range ( n )", to: "range ( n - 1 )"}
	r := pyRunner(t, bug)
	r.Engines = map[string]execute.Engine{"python": slowSource{Engine: r.Engines["python"], match: "size"}}
	ctx := context.Background()
	for name, out := range map[string]Output{
		"Evaluate": r.Evaluate(ctx, pyProblem()),
		"steps":    r.Execute(ctx, r.Translate(ctx, r.Expand(ctx, pyProblem()))),
	} {
		// An identifier variant must keep the outputs: one that does not run says so.
		if len(out.Errors) != 1 || out.Errors[0].Reason != "identifier variant changed outputs" ||
			out.Errors[0].Detail != "n->size: program timeout" {
			t.Errorf("%s: errors %+v", name, out.Errors)
		}
		// arr->nums, n->size, i->j, res->ans, and 0->1: all five generated and run.
		slow := ""
		for _, v := range out.Variants {
			if strings.Contains(v.Code, "size") {
				slow = v.VariantID
			}
		}
		if len(out.Variants) != 5 || slow == "" {
			t.Fatalf("%s: variants %+v", name, out.Variants)
		}
		var timedOut []string
		for _, e := range out.Executions {
			if e.Role == schemas.RoleSource && e.Status == schemas.StatusTimeout {
				timedOut = append(timedOut, e.ProgramID)
			}
		}
		if strings.Join(timedOut, ",") != slow {
			t.Errorf("%s: source timeouts %v, want %s", name, timedOut, slow)
		}
		var translated []string
		for _, tr := range out.Translations {
			if tr.Status != schemas.TranslationOK {
				t.Errorf("%s: translation %+v", name, tr)
			}
			translated = append(translated, tr.VariantID)
		}
		sort.Strings(translated)
		var want []string
		for _, v := range out.Variants {
			if v.VariantID != slow {
				want = append(want, v.VariantID)
			}
		}
		want = append(want, schemas.VariantOrig)
		sort.Strings(want)
		if strings.Join(translated, ",") != strings.Join(want, ",") {
			t.Errorf("%s: translated %v, want %v", name, translated, want)
		}
		if len(out.Results) != 4 {
			t.Errorf("%s: %d pairs judged, want 4", name, len(out.Results))
		}
		for _, res := range out.Results {
			if res.VariantID == slow || res.ExecConsistent {
				t.Errorf("%s: pair %+v", name, res)
			}
		}
		if len(out.Repairs) != len(Metrics) {
			t.Fatalf("%s: %d repairs, want %d", name, len(out.Repairs), len(Metrics))
		}
		for _, rp := range out.Repairs {
			if !rp.Accepted || rp.Candidates != 5 || rp.ChosenVariant == slow || rp.PassAfter != 1 || rp.After != sumPy {
				t.Errorf("%s: %s: %+v", name, rp.RankMetric, rp)
			}
		}
	}
}
