package enginetest

import (
	"context"
	"testing"

	"transmute/schemas"
	"transmute/transforms/execute"
)

// TestCppGroupedCompileErrorsHoldAlone runs the recorded LLM translations into C++
// of the benchmark's problems (about 200, 19 of which do not compile) as the
// pipelines do, several problems per translation unit, and then compiles every
// candidate that got compile_error alone, in a batch of its own: each must fail
// there too. The grouped engine takes a candidate's errors from the unit's messages
// when its code is contained (see cpp.contained), so this checks that rule on real
// translations; TestBatchedEqualsAlone checks the rest of the equivalence.
func TestCppGroupedCompileErrorsHoldAlone(t *testing.T) {
	t.Parallel()
	groups := translationVariants(t, schemas.Cpp)
	buildHarness(schemas.Cpp)
	cache := engineCache
	grouped := runEngine(t, schemas.Cpp, groups, false, cache)
	if grouped.compileErrs == 0 {
		t.Fatalf("no compile errors among %d translations: the check would be empty", grouped.variants)
	}
	e, err := execute.Open(schemas.Cpp, execute.Options{WorkDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	checked := 0
	for _, g := range groups {
		p := g[0].prob
		for _, v := range g {
			r, ok := grouped.results[v.cand.ID]
			if !ok {
				t.Fatalf("%s: no grouped result", v.cand.ID)
			}
			if r.Status != schemas.StatusCompileError {
				continue
			}
			checked++
			batch := execute.Batch{ProblemID: p.ID, Lang: schemas.Cpp, Params: p.Params, Returns: p.Returns, Tests: p.Tests,
				Limits: benchLimits, Candidates: []execute.Candidate{v.cand}}
			alone, err := e.Run(context.Background(), batch)
			if err != nil {
				t.Fatal(err)
			}
			if alone[0].Status != schemas.StatusCompileError {
				t.Errorf("%s: compile_error in a unit with others (%s), %s alone", v.cand.ID, short(r.Detail), alone[0].Status)
			}
		}
	}
	t.Logf("%d translations in %d problems; %d compile errors, each confirmed alone", grouped.variants, len(groups), checked)
}
