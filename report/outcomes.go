package report

import (
	"math/rand/v2"
	"sort"

	"transmute/report/table15"
	"transmute/schemas"
)

// Outcome kinds of one translation against one oracle, from the most to the least
// instructive failure (the failures section's order).
const (
	OutcomePass         = "pass"
	OutcomeWrongAnswer  = "wrong_answer" // ran, returned a value the oracle disagrees with
	OutcomeRuntime      = "runtime_error"
	OutcomeTimeout      = "timeout"
	OutcomeCompile      = "compile_error"
	OutcomeOther        = "other_error" // memory, output limit, sandbox, infrastructure
	OutcomeUntranslated = "untranslated"
	OutcomeNoOracle     = "no_oracle" // every test left out (oracle failed, nondeterministic)
)

// outcomeRank orders failures by what they teach: wrong answers first.
var outcomeRank = map[string]int{OutcomeWrongAnswer: 0, OutcomeRuntime: 1, OutcomeTimeout: 2, OutcomeOther: 3,
	OutcomeCompile: 4, OutcomeUntranslated: 5, OutcomeNoOracle: 6, OutcomePass: 7}

type outcomeKey struct {
	tr, corpus, problem, src, tgt, oracle string
}

// outcome is one translation's (sample 0) record against one oracle, over the tests
// CA counts (the oracle returned a value and the test is deterministic).
type outcome struct {
	tests, matched int
	first          schemas.ResultRow // the lowest failing test
	hasFirst       bool
	untranslated   bool
}

// kind classifies the outcome.
func (o outcome) kind() string {
	switch {
	case o.untranslated:
		return OutcomeUntranslated
	case o.tests == 0:
		return OutcomeNoOracle
	case o.matched == o.tests:
		return OutcomePass
	}
	return failureKind(o.first)
}

// failureKind names a failing test: a test that ran to completion (status ok) and
// does not match is a wrong answer, never "ok".
func failureKind(x schemas.ResultRow) string {
	switch {
	case x.Status == schemas.StatusNoTranslation:
		return OutcomeUntranslated
	case x.ProgramStatus == schemas.StatusCompileError || x.Status == schemas.StatusCompileError:
		return OutcomeCompile
	case x.Status == schemas.StatusOK:
		return OutcomeWrongAnswer
	case x.Status == schemas.StatusRuntimeError:
		return OutcomeRuntime
	case x.Status == schemas.StatusTimeout:
		return OutcomeTimeout
	}
	return OutcomeOther
}

// outcomes reads every sample-0 translation's outcome per oracle from the results.
func outcomes(r *Run) map[outcomeKey]*outcome {
	out := map[outcomeKey]*outcome{}
	for _, x := range r.Results {
		if x.Sample != 0 {
			continue
		}
		k := outcomeKey{x.Translator, x.Corpus, x.ProblemID, x.SrcLang, x.TgtLang, x.Oracle}
		o := out[k]
		if o == nil {
			o = &outcome{}
			out[k] = o
		}
		if x.Status == schemas.StatusNoTranslation {
			o.untranslated = true
		}
		if x.Nondeterministic || x.OracleStatus != schemas.StatusOK {
			continue
		}
		o.tests++
		if x.Match {
			o.matched++
		} else if !o.hasFirst || x.TestIndex < o.first.TestIndex { // results come in shards
			o.first, o.hasFirst = x, true
		}
	}
	return out
}

// z95 is the normal quantile of a two-sided 95% interval.
const z95 = 1.959963984540054

// wilson is the Wilson score interval of k successes in n at 95%; n = 0 gives [0, 1].
func wilson(k, n int64) (lo, hi float64) { return table15.Wilson(int(k), int(n), z95) }

// caResamples is the bootstrap resamples of a CA interval.
const caResamples = 1000

// bootstrapCA is the 95% percentile interval of CA (matched tests over tests,
// pooled) when the problems are resampled with replacement: tests of one problem
// are not independent, so the problem is the unit. The seed makes the page the
// same from one rendering to the next.
func bootstrapCA(tests, matched []int, seed uint64) (lo, hi float64, ok bool) {
	n := len(tests)
	if n == 0 {
		return 0, 0, false
	}
	rng := rand.New(rand.NewPCG(seed, 0x5ca1ab1e))
	cas := make([]float64, 0, caResamples)
	for range caResamples {
		t, m := 0, 0
		for range n {
			i := rng.IntN(n)
			t += tests[i]
			m += matched[i]
		}
		if t > 0 {
			cas = append(cas, float64(m)/float64(t))
		}
	}
	if len(cas) == 0 {
		return 0, 0, false
	}
	sort.Float64s(cas)
	q := func(p float64) float64 { return cas[min(len(cas)-1, int(p*float64(len(cas))))] }
	return q(0.025), q(0.975), true
}

// caByCell gathers each cell and oracle's per-problem tests and matches, in problem
// order (the bootstrap's input and the CA histogram's).
type caSample struct {
	problems       []string
	tests, matched []int
	perProblemCA   []float64
}

func caByCell(outs map[outcomeKey]*outcome) map[scoreKeyCell]*caSample {
	keys := make([]outcomeKey, 0, len(outs))
	for k := range outs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].problem < keys[j].problem })
	m := map[scoreKeyCell]*caSample{}
	for _, k := range keys {
		o := outs[k]
		if o.tests == 0 {
			continue
		}
		ck := scoreKeyCell{cell{k.tr, k.corpus, k.src, k.tgt}, k.oracle}
		s := m[ck]
		if s == nil {
			s = &caSample{}
			m[ck] = s
		}
		s.problems = append(s.problems, k.problem)
		s.tests = append(s.tests, o.tests)
		s.matched = append(s.matched, o.matched)
		s.perProblemCA = append(s.perProblemCA, float64(o.matched)/float64(o.tests))
	}
	return m
}

// scoreKeyCell is a cell against one oracle.
type scoreKeyCell struct {
	c      cell
	oracle string
}

// seedOf derives a bootstrap seed from a cell, so that each cell's interval is
// reproducible and independent of the others' order.
func seedOf(k scoreKeyCell) uint64 {
	h := uint64(14695981039346656037)
	for _, s := range []string{k.c.tr, k.c.corpus, k.c.src, k.c.tgt, k.oracle} {
		for i := 0; i < len(s); i++ {
			h = (h ^ uint64(s[i])) * 1099511628211
		}
		h = (h ^ 0xff) * 1099511628211
	}
	return h
}
