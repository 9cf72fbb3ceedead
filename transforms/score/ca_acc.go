package score

import (
	"maps"
	"slices"
	"sort"

	"transmute/schemas"
	"transmute/transforms/stats"
)

// CAAcc accumulates the result rows of one score key into the counts that CA's
// scores need, so that a runner can combine rows where they are made and keep one
// accumulator per key instead of every row. It holds integers only: every float is
// computed by Scores, in problem order, so any split of the rows, merged in any
// order, gives the scores of CA on all of them to the last bit. The zero value is
// an empty accumulator; the fields are exported so that it can be encoded (gob).
type CAAcc struct {
	// Key is the score key of the rows added (the first non-zero one).
	Key    Key
	Groups map[CAGroup]*CAGroupAcc
}

// CAGroup is an oracle and a subset of tests: each one present gets a full set of
// metrics.
type CAGroup struct {
	Oracle, Subset string
}

// CAGroupAcc holds one CAGroup's counts.
type CAGroupAcc struct {
	// Problems counts sample 0's tests per problem (CA, pass rate, statuses).
	Problems map[string]*ProblemAcc
	// Samples counts every sample's tests with an oracle, per problem and sample
	// (pass rates any/all of n, pass@k).
	Samples        map[string]map[int32]*ProblemAcc
	OracleFailures int
	Nondet         int
}

// ProblemAcc counts the tests of one problem (or of one sample of it).
type ProblemAcc struct {
	Tests, Matched int
	MatchedConv    int // under the C++ scripts' conversions (MatchCppConversions)
	// ProgramStatus is the status of the problem's sample-0 program (from the first
	// row seen: every row of a program carries the same one).
	ProgramStatus schemas.Status
}

var subsets = [...]string{SubsetAll, SubsetLangIndependent}

func (a *CAAcc) group(g CAGroup) *CAGroupAcc {
	if a.Groups == nil {
		a.Groups = map[CAGroup]*CAGroupAcc{}
	}
	ga := a.Groups[g]
	if ga == nil {
		ga = &CAGroupAcc{}
		a.Groups[g] = ga
	}
	return ga
}

// problem returns the group's sample-0 counts of problem id, creating them with
// status when absent.
func (ga *CAGroupAcc) problem(id string, status schemas.Status) *ProblemAcc {
	if ga.Problems == nil {
		ga.Problems = map[string]*ProblemAcc{}
	}
	pa := ga.Problems[id]
	if pa == nil {
		pa = &ProblemAcc{ProgramStatus: status}
		ga.Problems[id] = pa
	}
	return pa
}

func (ga *CAGroupAcc) sample(id string, sample int32) *ProblemAcc {
	if ga.Samples == nil {
		ga.Samples = map[string]map[int32]*ProblemAcc{}
	}
	bySample := ga.Samples[id]
	if bySample == nil {
		bySample = map[int32]*ProblemAcc{}
		ga.Samples[id] = bySample
	}
	sa := bySample[sample]
	if sa == nil {
		sa = &ProblemAcc{}
		bySample[sample] = sa
	}
	return sa
}

// Add counts one result row.
func (a *CAAcc) Add(r schemas.ResultRow) {
	if a.Key == (Key{}) {
		a.Key = KeyOf(r)
	}
	if r.Nondeterministic {
		// a gold that disagrees with itself is no oracle: left out, counted
		if r.Sample == 0 {
			for _, subset := range subsets {
				if subset == SubsetLangIndependent && r.LangDependent {
					continue
				}
				ga := a.group(CAGroup{r.Oracle, subset})
				ga.Nondet++
				ga.problem(r.ProblemID, r.ProgramStatus)
			}
		}
		return
	}
	for _, subset := range subsets {
		if (subset == SubsetLangIndependent && r.LangDependent) || r.OracleStatus != schemas.StatusOK {
			continue
		}
		sa := a.group(CAGroup{r.Oracle, subset}).sample(r.ProblemID, r.Sample)
		sa.Tests++
		if r.Match {
			sa.Matched++
		}
	}
	if r.Sample != 0 {
		return
	}
	for _, subset := range subsets {
		if subset == SubsetLangIndependent && r.LangDependent {
			continue
		}
		ga := a.group(CAGroup{r.Oracle, subset})
		pa := ga.problem(r.ProblemID, r.ProgramStatus)
		if r.OracleStatus != schemas.StatusOK {
			ga.OracleFailures++
			continue
		}
		pa.Tests++
		if r.Match {
			pa.Matched++
		}
		if r.MatchCppConversions {
			pa.MatchedConv++
		}
	}
}

// Merge adds o's counts to a (o is left as it was). A problem's program status
// stays a's when both have the problem.
func (a *CAAcc) Merge(o *CAAcc) {
	if a.Key == (Key{}) {
		a.Key = o.Key
	}
	for g, og := range o.Groups {
		ga := a.group(g)
		ga.OracleFailures += og.OracleFailures
		ga.Nondet += og.Nondet
		for id, op := range og.Problems {
			pa := ga.problem(id, op.ProgramStatus)
			pa.Tests += op.Tests
			pa.Matched += op.Matched
			pa.MatchedConv += op.MatchedConv
		}
		for id, bySample := range og.Samples {
			for s, os := range bySample {
				sa := ga.sample(id, s)
				sa.Tests += os.Tests
				sa.Matched += os.Matched
			}
		}
	}
}

// ScoreRows are the score rows of what was added, for its key (Scores of a.Key).
func (a *CAAcc) ScoreRows(run string) []schemas.ScoreRow { return a.Scores(run, a.Key) }

// Scores are the CA and pass-rate scores of the rows added, for key k (see CA).
func (a *CAAcc) Scores(run string, k Key) []schemas.ScoreRow {
	// A group is scored when it has sample-0 problems (a group with other samples
	// only has no main metrics to give).
	groups := make([]CAGroup, 0, len(a.Groups))
	for g, ga := range a.Groups {
		if len(ga.Problems) > 0 {
			groups = append(groups, g)
		}
	}
	sort.Slice(groups, func(i, j int) bool {
		if groups[i].Oracle != groups[j].Oracle {
			return groups[i].Oracle < groups[j].Oracle
		}
		return groups[i].Subset < groups[j].Subset
	})
	var out []schemas.ScoreRow
	for _, g := range groups {
		ga := a.Groups[g]
		emit := func(metric schemas.Metric, v float64, n int) {
			out = append(out, schemas.ScoreRow{Run: run, Translator: k.Translator, Corpus: k.Corpus,
				SrcLang: k.SrcLang, TgtLang: k.TgtLang, Oracle: g.Oracle, Subset: g.Subset,
				Metric: metric, Value: v, N: int64(n)})
		}
		var perProblem []float64
		tests, matched, passed, passedConv := 0, 0, 0, 0
		attempted, passedAttempted := 0, 0
		statuses := map[schemas.Status]int{}
		// In problem order: float sums depend on the order, and a rerun must give
		// the same scores to the last bit.
		for _, id := range slices.Sorted(maps.Keys(ga.Problems)) {
			pa := ga.Problems[id]
			statuses[pa.ProgramStatus]++
			if pa.Tests == 0 {
				continue // every test of this problem was language-dependent or had no oracle
			}
			tests += pa.Tests
			matched += pa.Matched
			ca := float64(pa.Matched) / float64(pa.Tests)
			perProblem = append(perProblem, ca)
			translated := Coverage(pa.ProgramStatus) == CoverageTranslated
			if translated {
				attempted++
			}
			if pa.Matched == pa.Tests {
				passed++
				if translated {
					passedAttempted++
				}
			}
			if pa.MatchedConv == pa.Tests {
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
			if g.Oracle == OracleTargetGold && k.TgtLang == schemas.Cpp {
				// the C++ scripts' convention beside ours (docs/SCHEMAS.md)
				emit(schemas.MetricPassRateCppConversions, float64(passedConv)/float64(n), n)
			}
		}
		anyOf, allOf, maxN, minN := 0, 0, 0, 0
		passAt := make([]float64, len(PassAtKs))
		for _, id := range slices.Sorted(maps.Keys(ga.Samples)) {
			bySample := ga.Samples[id]
			anyPass, allPass, c := false, true, 0
			for _, sa := range bySample {
				pass := sa.Tests > 0 && sa.Matched == sa.Tests
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
		if maxN > 1 && len(ga.Samples) > 0 {
			// n samples (NOMOS's beam semantics): a problem passes "any of n" when
			// one sample passes, "all of n" when every sample does.
			np := len(ga.Samples)
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
		// Coverage counts the problems of the oracle in any subset, so that both
		// subsets report the same problems (a problem whose tests are all
		// language-dependent is absent from lang_independent's counts).
		cov := a.coverage(g.Oracle)
		emit(schemas.MetricProblems, float64(cov.problems), cov.problems)
		emit(schemas.MetricTranslated, float64(cov.translated), cov.problems)
		emit(schemas.MetricMissing, float64(cov.missing), cov.problems)
		emit(schemas.MetricTranslationFailed, float64(cov.failed), cov.problems)
		emit(schemas.MetricEvaluated, float64(n), n)
		if cov.problems > 0 {
			emit(schemas.MetricCoverage, float64(cov.translated)/float64(cov.problems), cov.problems)
		}
		if attempted > 0 {
			emit(schemas.MetricPassRateAttempted, float64(passedAttempted)/float64(attempted), attempted)
		}
		emit(schemas.MetricTests, float64(tests), tests)
		emit(schemas.MetricOracleFailures, float64(ga.OracleFailures), ga.OracleFailures)
		if ga.Nondet > 0 {
			emit(schemas.MetricNondeterministicTests, float64(ga.Nondet), ga.Nondet)
		}
		names := make([]schemas.Status, 0, len(statuses))
		for s := range statuses {
			names = append(names, s)
		}
		slices.Sort(names)
		for _, s := range names {
			emit(schemas.MetricStatus(s), float64(statuses[s]), len(ga.Problems))
		}
	}
	return out
}

// Coverage classes of a problem's sample-0 program status (ProgramStatus is the
// translation's status when nothing ran).
const (
	CoverageTranslated = "translated"         // a translation ran (whatever its outcome)
	CoverageMissing    = "missing"            // the translator had none for the problem
	CoverageFailed     = "translation_failed" // the translator failed or cannot translate it
)

// Coverage classifies a result row's ProgramStatus.
func Coverage(programStatus schemas.Status) string {
	switch programStatus {
	case schemas.Status(schemas.TranslationMissing):
		return CoverageMissing
	case schemas.Status(schemas.TranslationError), schemas.Status(schemas.TranslationUnsupported):
		return CoverageFailed
	}
	return CoverageTranslated
}

type coverageCounts struct{ problems, translated, missing, failed int }

// coverage counts the problems of oracle over every subset's groups.
func (a *CAAcc) coverage(oracle string) coverageCounts {
	status := map[string]schemas.Status{}
	for g, ga := range a.Groups {
		if g.Oracle != oracle {
			continue
		}
		for id, pa := range ga.Problems {
			status[id] = pa.ProgramStatus
		}
	}
	c := coverageCounts{problems: len(status)}
	for _, st := range status {
		switch Coverage(st) {
		case CoverageMissing:
			c.missing++
		case CoverageFailed:
			c.failed++
		default:
			c.translated++
		}
	}
	return c
}
