package inputs

import (
	"context"
	"sort"
	"strings"
	"time"

	"transmute/schemas"
)

// Augmenter generates, validates and reduces the tests of one problem.
type Augmenter struct {
	Run       string
	Generate  Options
	Validator Validator
	Reducer   Reducer
	// NoReduce skips the mutants and the reduced suite.
	NoReduce bool
}

// Output is one augmented problem: the problem with every valid test (originals
// first), its test rows, its summary and drop rows.
type Output struct {
	Problem schemas.Problem
	Tests   []schemas.AugmentedTestRow
	Summary schemas.AugmentRow
	Drops   []schemas.AugmentDropRow
	Errors  []schemas.ErrorRow
}

// Augment runs the three steps on p. It never fails: what it cannot do becomes
// error rows, and the problem keeps its original tests.
func (a *Augmenter) Augment(ctx context.Context, p schemas.Problem) Output {
	out := Output{Problem: p}
	sum := &out.Summary
	*sum = schemas.AugmentRow{Run: a.Run, ProblemID: p.ID, Corpus: p.Corpus, Original: int32(len(p.Tests))}
	errRow := func(reason, detail string) {
		out.Errors = append(out.Errors, schemas.ErrorRow{Run: a.Run, Stage: "augment", Corpus: p.Corpus,
			ProblemID: p.ID, Reason: reason, Detail: detail})
	}
	t0 := time.Now()
	cands, err := Generate(p, a.Generate)
	sum.GenerateSeconds = time.Since(t0).Seconds()
	if err != nil {
		errRow("generate", err.Error())
	}
	sum.Candidates = int32(len(cands))
	t0 = time.Now()
	v := a.Validator.Validate(ctx, p, cands)
	sum.ValidateSeconds = time.Since(t0).Seconds()
	for _, e := range v.Errors {
		e.Run = a.Run
		out.Errors = append(out.Errors, e)
	}
	sum.Golds = strings.Join(v.Golds, ",")
	if len(v.Tests) == 0 { // nothing ran: keep the benchmark's tests
		v.Tests = p.Tests
		for range p.Tests {
			v.Origins = append(v.Origins, OriginOriginal)
		}
	}
	sum.Valid = int32(len(v.Tests) - len(p.Tests))
	reasons := make([]string, 0, len(v.Drops))
	for r := range v.Drops {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		out.Drops = append(out.Drops, schemas.AugmentDropRow{Run: a.Run, ProblemID: p.ID, Corpus: p.Corpus,
			Reason: r, Count: int32(v.Drops[r])})
	}
	out.Problem.Tests = v.Tests
	reduced := map[int]bool{}
	kills := make([]int, len(v.Tests))
	if !a.NoReduce && len(v.Golds) > 0 {
		t0 = time.Now()
		km, errs := a.Reducer.Matrix(ctx, p, v.Golds, v.Tests, v.Slowest)
		for _, e := range errs {
			e.Run = a.Run
			out.Errors = append(out.Errors, e)
		}
		keep := Cover(km)
		for _, t := range keep {
			reduced[t] = true
		}
		var orig []int
		for t := range p.Tests {
			orig = append(orig, t)
		}
		for t, ks := range km.Kills {
			kills[t] = len(ks)
		}
		sum.Mutants = int32(len(km.Mutants))
		sum.KilledAll = int32(len(km.Killed(nil)))
		sum.KilledOriginal = int32(len(km.Killed(orig)))
		sum.KilledReduced = int32(len(km.Killed(keep)))
		sum.Reduced = int32(len(keep))
		sum.ReduceSeconds = time.Since(t0).Seconds()
	}
	for i, t := range v.Tests {
		if t.LangDependent && i >= len(p.Tests) {
			sum.LangDependent++
		}
		out.Tests = append(out.Tests, schemas.AugmentedTestRow{Run: a.Run, ProblemID: p.ID, Corpus: p.Corpus,
			TestIndex: t.Index, Args: t.Args, Origin: v.Origins[i], LangDependent: t.LangDependent,
			DependCause: t.DependCause, Reduced: reduced[i], Kills: int32(kills[i])})
	}
	return out
}
