package inputs

import (
	"context"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/mutate"
	"transmute/transforms/sandbox"
	"transmute/transforms/values"
)

// Reducer picks, from a problem's valid tests, a small subset that kills the same
// mutants of the golds as the whole suite (EvalPlus's "mini" suites): it runs the
// MBTA mutants (transforms/mutate) of every gold on every test, and covers the
// mutants the suite kills greedily.
type Reducer struct {
	Engines   map[string]execute.Engine
	Limits    sandbox.Limits
	Tolerance values.Tolerance
	Mutate    mutate.Options
	// TimeFactor sets a mutant's per-test CPU limit to TimeFactor × the gold's
	// slowest test plus 200 ms (within Limits), as MBTA's PIT-like timeout factor:
	// a mutant that loops costs a fraction of the fixed limit. 0 means 10.
	TimeFactor float64
}

// KillMatrix says which tests kill which mutants: Kills[t] lists the mutants
// (indices into Mutants) that test t kills.
type KillMatrix struct {
	Mutants []string // "<lang>/<mutant id>"
	Kills   [][]int
}

// Killed is the set of mutants the tests at positions keep kill (all tests when
// keep is nil).
func (k KillMatrix) Killed(keep []int) map[int]bool {
	out := map[int]bool{}
	if keep == nil {
		for t := range k.Kills {
			keep = append(keep, t)
		}
	}
	for _, t := range keep {
		for _, m := range k.Kills[t] {
			out[m] = true
		}
	}
	return out
}

// Matrix runs the golds in langs and their mutants on tests; slowest is each gold's
// slowest test (Validated.Slowest), from which the mutants' time limits follow.
func (r *Reducer) Matrix(ctx context.Context, p schemas.Problem, langs []string, tests []schemas.Test, slowest map[string]time.Duration) (KillMatrix, []schemas.ErrorRow) {
	km := KillMatrix{Kills: make([][]int, len(tests))}
	var errs []schemas.ErrorRow
	errRow := func(lang, reason, detail string) {
		errs = append(errs, schemas.ErrorRow{Stage: "augment", Corpus: p.Corpus, ProblemID: p.ID, Lang: lang,
			Reason: reason, Detail: detail})
	}
	ret, err := values.ParseType(p.Returns)
	if err != nil || len(tests) == 0 {
		return km, errs
	}
	factor := r.TimeFactor
	if factor <= 0 {
		factor = 10
	}
	for _, lang := range langs {
		f, ok := p.Function(lang)
		if !ok {
			continue
		}
		ms, _, err := mutate.Generate(lang, f.Code, r.Mutate)
		if err != nil {
			errRow(lang, "mutation failed", err.Error())
			continue
		}
		b := execute.Batch{ProblemID: p.ID, Lang: lang, Params: p.Params, Returns: p.Returns, Tests: tests,
			Limits: r.Limits, StopAfterTimeouts: 1}
		lim := r.Limits.WithDefaults()
		// A wall limit well above the CPU one: on a loaded machine a quick test can
		// wait longer than it runs.
		cpu := time.Duration(factor*float64(slowest[lang])) + 200*time.Millisecond
		b.Limits.CPUTime = min(cpu, lim.CPUTime)
		b.Limits.WallTime = min(2*cpu+2*time.Second, lim.WallTime)
		// The gold runs beside its mutants, under their limits: a gold that does not
		// return within them leaves its test out of the matrix.
		b.Candidates = []execute.Candidate{{ID: "gold", Code: f.Code, Imports: f.Imports, Entry: f.Name}}
		seen := map[string]bool{f.Code: true}
		var kept []mutate.Mutant
		for _, m := range ms {
			if seen[m.Code] {
				continue
			}
			seen[m.Code] = true
			kept = append(kept, m)
			b.Candidates = append(b.Candidates, execute.Candidate{ID: m.ID, Code: m.Code, Imports: f.Imports, Entry: f.Name})
		}
		if len(kept) == 0 {
			continue
		}
		res, err := execute.RunOn(ctx, r.Engines, b, true)
		if err != nil {
			errRow(lang, "engine failure", err.Error())
			continue
		}
		gold := res[0]
		for i, m := range kept {
			mi := len(km.Mutants)
			km.Mutants = append(km.Mutants, lang+"/"+m.ID)
			mr := res[i+1]
			if mr.Status == schemas.StatusCompileError || mr.Status == schemas.StatusInfraError {
				continue // a mutant that cannot run is nobody's kill
			}
			for t := range tests {
				if t >= len(gold.Tests) || t >= len(mr.Tests) || gold.Tests[t].Status != schemas.StatusOK {
					continue
				}
				mt := mr.Tests[t]
				if mt.Status == schemas.StatusInfraError {
					continue
				}
				if mt.Status != schemas.StatusOK || !values.Equal(ret, gold.Tests[t].Output, mt.Output, r.Tolerance) {
					km.Kills[t] = append(km.Kills[t], mi)
				}
				if stopsTest(lang, mt) {
					break // the tests after it were marked, not run
				}
			}
		}
	}
	return km, errs
}

// stopsTest is stops for an engine's test result.
func stopsTest(lang string, t execute.TestResult) bool {
	return stops(lang, schemas.ExecutionRow{TestStatus: t.Status, Error: t.Error})
}

// Cover picks tests greedily until they kill every mutant the whole suite kills:
// each step takes the test that kills the most mutants not yet killed, the
// earliest on a tie (the original tests come first). At least one test is kept.
func Cover(km KillMatrix) []int {
	left := km.Killed(nil)
	var keep []int
	taken := map[int]bool{}
	for len(left) > 0 {
		best, bestN := -1, 0
		for t, ks := range km.Kills {
			if taken[t] {
				continue
			}
			n := 0
			for _, m := range ks {
				if left[m] {
					n++
				}
			}
			if n > bestN {
				best, bestN = t, n
			}
		}
		if best < 0 {
			break
		}
		taken[best] = true
		keep = append(keep, best)
		for _, m := range km.Kills[best] {
			delete(left, m)
		}
	}
	if len(keep) == 0 && len(km.Kills) > 0 {
		keep = []int{0}
	}
	return keep
}
