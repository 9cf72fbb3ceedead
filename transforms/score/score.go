// Package score aggregates result rows into the scores of SPEC section 6 that need
// only execution results: computational accuracy (CA, seed 000 section 4.4) overall and
// per problem (mean, median, std), pass rate (share of problems passing every test,
// seed 002), and counts of program statuses. Rows come in long format (ScoreRow).
package score

import (
	"slices"
	"sort"

	"transmute/schemas"
	"transmute/transforms/stats"
)

// Key groups results that are scored together.
type Key struct {
	Translator, Corpus, SrcLang, TgtLang string
}

// KeyOf is the score key of a result row.
func KeyOf(r schemas.ResultRow) Key {
	return Key{r.Translator, r.Corpus, r.SrcLang, r.TgtLang}
}

// String renders the key for use as a Beam key.
func (k Key) String() string {
	return k.Translator + "\x1f" + k.Corpus + "\x1f" + k.SrcLang + "\x1f" + k.TgtLang
}

// Subsets of tests: all, or without the language-dependent ones.
const (
	SubsetAll             = "all"
	SubsetLangIndependent = "lang_independent"
)

// Oracles.
const (
	OracleSource     = "source"
	OracleTargetGold = "target_gold"
)

// NoTranslation is the test status of a translation that could not be run.
const NoTranslation = schemas.StatusNoTranslation

type problemAcc struct {
	tests, matched int
	matchedConv    int // under the C++ scripts' conversions (MatchCppConversions)
	programStatus  schemas.Status
}

// CA computes the CA and pass-rate scores of one key from its result rows. The
// main metrics score sample 0; when a translator gave n > 1 samples, the pass rates
// "any of n" and "all of n" are added. Every oracle and subset present gets a full
// set of metrics.
func CA(run string, k Key, rows []schemas.ResultRow) []schemas.ScoreRow {
	type group struct{ oracle, subset string }
	accs := map[group]map[string]*problemAcc{}
	oracleFailures := map[group]int{}
	samples := map[group]map[string]map[int32]*problemAcc{} // problem -> sample -> acc
	nondet := map[group]int{}
	for _, r := range rows {
		if r.Nondeterministic {
			// a gold that disagrees with itself is no oracle: left out, counted
			if r.Sample == 0 {
				for _, subset := range []string{SubsetAll, SubsetLangIndependent} {
					if subset == SubsetLangIndependent && r.LangDependent {
						continue
					}
					g := group{r.Oracle, subset}
					nondet[g]++
					if accs[g] == nil {
						accs[g] = map[string]*problemAcc{}
					}
					if accs[g][r.ProblemID] == nil {
						accs[g][r.ProblemID] = &problemAcc{programStatus: r.ProgramStatus}
					}
				}
			}
			continue
		}
		for _, subset := range []string{SubsetAll, SubsetLangIndependent} {
			if (subset == SubsetLangIndependent && r.LangDependent) || r.OracleStatus != schemas.StatusOK {
				continue
			}
			g := group{r.Oracle, subset}
			if samples[g] == nil {
				samples[g] = map[string]map[int32]*problemAcc{}
			}
			if samples[g][r.ProblemID] == nil {
				samples[g][r.ProblemID] = map[int32]*problemAcc{}
			}
			sa := samples[g][r.ProblemID][r.Sample]
			if sa == nil {
				sa = &problemAcc{}
				samples[g][r.ProblemID][r.Sample] = sa
			}
			sa.tests++
			if r.Match {
				sa.matched++
			}
		}
		if r.Sample != 0 {
			continue
		}
		for _, subset := range []string{SubsetAll, SubsetLangIndependent} {
			if subset == SubsetLangIndependent && r.LangDependent {
				continue
			}
			g := group{r.Oracle, subset}
			if accs[g] == nil {
				accs[g] = map[string]*problemAcc{}
			}
			pa := accs[g][r.ProblemID]
			if pa == nil {
				pa = &problemAcc{programStatus: r.ProgramStatus}
				accs[g][r.ProblemID] = pa
			}
			if r.OracleStatus != schemas.StatusOK {
				oracleFailures[g]++
				continue
			}
			pa.tests++
			if r.Match {
				pa.matched++
			}
			if r.MatchCppConversions {
				pa.matchedConv++
			}
		}
	}
	groups := make([]group, 0, len(accs))
	for g := range accs {
		groups = append(groups, g)
	}
	sort.Slice(groups, func(i, j int) bool {
		if groups[i].oracle != groups[j].oracle {
			return groups[i].oracle < groups[j].oracle
		}
		return groups[i].subset < groups[j].subset
	})
	var out []schemas.ScoreRow
	for _, g := range groups {
		emit := func(metric schemas.Metric, v float64, n int) {
			out = append(out, schemas.ScoreRow{Run: run, Translator: k.Translator, Corpus: k.Corpus,
				SrcLang: k.SrcLang, TgtLang: k.TgtLang, Oracle: g.oracle, Subset: g.subset,
				Metric: metric, Value: v, N: int64(n)})
		}
		var perProblem []float64
		tests, matched, passed, passedConv := 0, 0, 0, 0
		statuses := map[schemas.Status]int{}
		// In problem order: float sums depend on the order, and a rerun must give
		// the same scores to the last bit.
		for _, id := range sortedProblems(accs[g]) {
			pa := accs[g][id]
			statuses[pa.programStatus]++
			if pa.tests == 0 {
				continue // every test of this problem was language-dependent or had no oracle
			}
			tests += pa.tests
			matched += pa.matched
			ca := float64(pa.matched) / float64(pa.tests)
			perProblem = append(perProblem, ca)
			if pa.matched == pa.tests {
				passed++
			}
			if pa.matchedConv == pa.tests {
				passedConv++
			}
		}
		n := len(perProblem)
		if tests > 0 {
			emit(schemas.MetricCAOverall, float64(matched)/float64(tests), tests)
		}
		if n > 0 {
			emit(schemas.MetricCAMean, stats.Mean(perProblem), n)
			emit(schemas.MetricCAMedian, stats.Median(perProblem), n)
			emit(schemas.MetricCAStd, stats.Std(perProblem), n)
			emit(schemas.MetricPassRate, float64(passed)/float64(n), n)
			if g.oracle == OracleTargetGold && k.TgtLang == schemas.Cpp {
				// the C++ scripts' convention beside ours (docs/SCHEMAS.md)
				emit(schemas.MetricPassRateCppConversions, float64(passedConv)/float64(n), n)
			}
		}
		anyOf, allOf, maxN, minN := 0, 0, 0, 0
		passAt := make([]float64, len(PassAtKs))
		for _, id := range sortedProblems(samples[g]) {
			bySample := samples[g][id]
			anyPass, allPass, c := false, true, 0
			for _, sa := range bySample {
				pass := sa.tests > 0 && sa.matched == sa.tests
				anyPass = anyPass || pass
				allPass = allPass && pass
				if pass {
					c++
				}
			}
			if minN == 0 || len(bySample) < minN {
				minN = len(bySample)
			}
			for i, k := range PassAtKs {
				passAt[i] += PassAtK(len(bySample), c, k)
			}
			if anyPass {
				anyOf++
			}
			if allPass {
				allOf++
			}
			maxN = max(maxN, len(bySample))
		}
		if maxN > 1 && len(samples[g]) > 0 {
			// n samples (seed 001's beam semantics): a problem passes "any of n" when
			// one sample passes, "all of n" when every sample does.
			np := len(samples[g])
			emit(schemas.MetricPassRateAnyOfN, float64(anyOf)/float64(np), np)
			emit(schemas.MetricPassRateAllOfN, float64(allOf)/float64(np), np)
			emit(schemas.MetricSamples, float64(maxN), np)
			// pass@k (unbiased, Chen et al. 2021) for the k every problem has samples for.
			for i, k := range PassAtKs {
				if k <= minN {
					emit(schemas.MetricPassAt(k), passAt[i]/float64(np), np)
				}
			}
		}
		emit(schemas.MetricProblems, float64(n), n)
		emit(schemas.MetricTests, float64(tests), tests)
		emit(schemas.MetricOracleFailures, float64(oracleFailures[g]), oracleFailures[g])
		if nondet[g] > 0 {
			emit(schemas.MetricNondeterministicTests, float64(nondet[g]), nondet[g])
		}
		names := make([]schemas.Status, 0, len(statuses))
		for s := range statuses {
			names = append(names, s)
		}
		slices.Sort(names)
		for _, s := range names {
			emit(schemas.MetricStatus(s), float64(statuses[s]), len(accs[g]))
		}
	}
	return out
}

func sortedProblems[V any](m map[string]V) []string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}
