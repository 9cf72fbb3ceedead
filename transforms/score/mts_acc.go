package score

import (
	"maps"
	"slices"

	"transmute/schemas"
	"transmute/transforms/stats"
)

// MTSAcc accumulates the mutant verdicts of one score key into the counts MTS's
// scores need (per problem and per operator), so that a combiner keeps counts
// instead of every MutantResultRow. It holds integers only and Scores computes the
// floats in problem order, so any split of the rows, merged in any order, gives
// the same scores to the last bit. The zero value is empty; fields are exported
// for gob.
type MTSAcc struct {
	Anomalous int
	// Problems holds each problem's non-anomalous mutants: one small record per
	// problem, because the individual MTS's mean, median and std need them all.
	Problems map[string]*KillCount
	Ops      map[string]*KillCount
}

// KillCount counts non-anomalous mutants and the killed ones among them.
type KillCount struct {
	Killed, Total int
}

func killCount(m *map[string]*KillCount, k string) *KillCount {
	if *m == nil {
		*m = map[string]*KillCount{}
	}
	c := (*m)[k]
	if c == nil {
		c = &KillCount{}
		(*m)[k] = c
	}
	return c
}

// Add counts one mutant's verdict.
func (a *MTSAcc) Add(r schemas.MutantResultRow) {
	if r.Verdict == Anomalous {
		a.Anomalous++
		return
	}
	p, o := killCount(&a.Problems, r.ProblemID), killCount(&a.Ops, r.Operator)
	p.Total++
	o.Total++
	if r.Verdict == Killed {
		p.Killed++
		o.Killed++
	}
}

// Merge adds o's counts to a (o is left as it was).
func (a *MTSAcc) Merge(o *MTSAcc) {
	a.Anomalous += o.Anomalous
	for id, c := range o.Problems {
		p := killCount(&a.Problems, id)
		p.Killed += c.Killed
		p.Total += c.Total
	}
	for op, c := range o.Ops {
		p := killCount(&a.Ops, op)
		p.Killed += c.Killed
		p.Total += c.Total
	}
}

// Scores are MTS's score rows of the verdicts added, for key k (see MTS).
func (a *MTSAcc) Scores(run string, k Key) []schemas.ScoreRow {
	var out []schemas.ScoreRow
	emit := func(metric schemas.Metric, v float64, n int) {
		out = append(out, schemas.ScoreRow{Run: run, Translator: k.Translator, Corpus: k.Corpus, SrcLang: k.SrcLang,
			TgtLang: k.TgtLang, Oracle: OracleSource, Subset: SubsetAll, Metric: metric, Value: v, N: int64(n)})
	}
	killed, total := 0, 0
	// In problem order: the float sums of the mean and std depend on the order.
	ind := make([]float64, 0, len(a.Problems))
	for _, id := range slices.Sorted(maps.Keys(a.Problems)) {
		p := a.Problems[id]
		killed += p.Killed
		total += p.Total
		ind = append(ind, float64(p.Killed)/float64(p.Total))
	}
	emit(schemas.MetricMutants, float64(total+a.Anomalous), total+a.Anomalous)
	emit(schemas.MetricAnomalousMutants, float64(a.Anomalous), total+a.Anomalous)
	emit(schemas.MetricNonAnomalousMutants, float64(total), total)
	if total > 0 {
		emit(schemas.MetricMTSOverall, float64(killed)/float64(total), total)
	}
	if len(ind) > 0 {
		emit(schemas.MetricMTSMean, stats.Mean(ind), len(ind))
		emit(schemas.MetricMTSMedian, stats.Median(ind), len(ind))
		emit(schemas.MetricMTSStd, stats.Std(ind), len(ind))
	}
	for _, op := range slices.Sorted(maps.Keys(a.Ops)) {
		o := a.Ops[op]
		emit(schemas.MetricMTSOp(op), float64(o.Killed)/float64(o.Total), o.Total)
	}
	return out
}
