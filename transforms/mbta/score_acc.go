package mbta

import (
	"maps"
	"math"
	"slices"

	"transmute/schemas"
	"transmute/transforms/runner"
	"transmute/transforms/score"
	"transmute/transforms/stats"
)

// ScoreAcc accumulates the groups of one score key into what Score needs, so that
// the Score stage can be a combiner that keeps counts instead of every problem's
// MutantResultRows and ResultRows: the MTS counts (score.MTSAcc), the CA counts
// (score.CAAcc), the funnel sums and, per problem, the test counts of the
// original's translation. The correlations across problems need each problem's
// (MTS, CA, mutants), so one small record per problem is kept (in MTS.Problems and
// Problems). Integers only: Scores computes every float in problem order, so any
// split of the groups, merged in any order, gives Score's rows to the last bit.
// The zero value is empty; fields are exported for gob.
type ScoreAcc struct {
	// Keyed is the score key of the groups added and how many (no group, no scores).
	runner.Keyed
	MTS    score.MTSAcc
	CA     score.CAAcc
	Funnel FunnelCounts
	// Problems counts, per problem, the sample-0 result rows of the original's
	// translation whose oracle ran, and the matching ones (its CA in the
	// correlations).
	Problems map[string]*CACount
}

// CACount counts a problem's tests with an oracle and the matching ones.
type CACount struct {
	Tests, Matched int
}

func (a *ScoreAcc) problem(id string) *CACount {
	if a.Problems == nil {
		a.Problems = map[string]*CACount{}
	}
	c := a.Problems[id]
	if c == nil {
		c = &CACount{}
		a.Problems[id] = c
	}
	return c
}

// Add counts one problem's group. Execute gives one group per problem and key; a
// second group of the same problem would be added to its counts.
func (a *ScoreAcc) Add(g Group) {
	a.Keyed.Add(g.Key())
	for _, r := range g.Mutants {
		a.MTS.Add(r)
	}
	c := a.problem(g.ProblemID)
	for _, r := range g.Results {
		a.CA.Add(r)
		if r.Sample != 0 || r.OracleStatus != schemas.StatusOK {
			continue
		}
		c.Tests++
		if r.Match {
			c.Matched++
		}
	}
	a.Funnel.Add(g.Funnel)
}

// Merge adds o's counts to a (o is left as it was).
func (a *ScoreAcc) Merge(o *ScoreAcc) {
	if !a.Keyed.Merge(o.Keyed) {
		return
	}
	a.MTS.Merge(&o.MTS)
	a.CA.Merge(&o.CA)
	a.Funnel.Add(o.Funnel)
	for id, oc := range o.Problems {
		c := a.problem(id)
		c.Tests += oc.Tests
		c.Matched += oc.Matched
	}
}

// ScoreRows are the score rows of what was added, for its key (Scores of a.Key).
func (a *ScoreAcc) ScoreRows(run string) []schemas.ScoreRow { return a.Scores(run, a.Key) }

// Scores are Score's rows of the groups added, for key k.
func (a *ScoreAcc) Scores(run string, k score.Key) []schemas.ScoreRow {
	if a.Added == 0 {
		return nil
	}
	out := a.MTS.Scores(run, k)
	out = append(out, a.Funnel.Funnel().Rows(run, k)...)
	out = append(out, a.CA.Scores(run, k)...)

	// Score's problems, in problem order: those with a non-anomalous mutant and a CA.
	var mts, ca, n []float64
	for _, id := range slices.Sorted(maps.Keys(a.Problems)) {
		c, m := a.Problems[id], a.MTS.Problems[id]
		if m == nil || m.Total == 0 || c.Tests == 0 {
			continue
		}
		mts = append(mts, float64(m.Killed)/float64(m.Total))
		ca = append(ca, float64(c.Matched)/float64(c.Tests))
		n = append(n, float64(m.Total))
	}
	return append(out, correlationRows(run, k, mts, ca, n)...)
}

// correlationRows are the correlations of Score between per-problem MTS, CA and
// numbers of non-anomalous mutants (undefined ones left out).
func correlationRows(run string, k score.Key, mts, ca, n []float64) []schemas.ScoreRow {
	var out []schemas.ScoreRow
	emit := func(name schemas.Metric, c stats.Correlation) {
		if math.IsNaN(c.R) {
			return
		}
		row := schemas.ScoreRow{Run: run, Translator: k.Translator, Corpus: k.Corpus, SrcLang: k.SrcLang,
			TgtLang: k.TgtLang, Oracle: score.OracleSource, Subset: score.SubsetAll, Metric: name, Value: c.R, N: int64(c.N)}
		out = append(out, row)
		row.Metric, row.Value = name+schemas.SuffixP, c.P
		out = append(out, row)
	}
	for _, pair := range []struct {
		spearman, pearson schemas.Metric
		x, y              []float64
	}{{schemas.MetricCorrSpearmanMTSCA, schemas.MetricCorrPearsonMTSCA, mts, ca},
		{schemas.MetricCorrSpearmanMutantsMTS, schemas.MetricCorrPearsonMutantsMTS, n, mts},
		{schemas.MetricCorrSpearmanMutantsCA, schemas.MetricCorrPearsonMutantsCA, n, ca}} {
		emit(pair.spearman, stats.Spearman(pair.x, pair.y))
		emit(pair.pearson, stats.Pearson(pair.x, pair.y))
	}
	return out
}
