package consistency

import (
	"math"
	"sort"

	"transmute/schemas"
	"transmute/transforms/runner"
)

// ScoreAcc accumulates the pairs and repairs of one score key into what Score
// needs, so that the Score stage can be a combiner that keeps counts instead of
// every ConsistencyRow and RepairRow. A pair only matters to Score through the
// grid thresholds its score is below, so each metric counts pairs per grid bin,
// half and label; the confusions at any grid threshold follow exactly. Kept per
// item, because Score needs them: the problem ids (problems counted once) and one
// small record per repair (the mean pass rates before and after are float sums,
// added in sorted order as Score does). The zero value is empty; fields are
// exported for gob.
type ScoreAcc struct {
	// Keyed is the score key of the groups added and how many: a key without pairs
	// still has scores, one without groups has none.
	runner.Keyed
	Pairs, Literal, ExecBad int
	Problems                map[string]bool
	Metrics                 map[Metric]*MetricAcc
}

// MetricAcc counts one metric's pairs and holds its repairs.
type MetricAcc struct {
	// Bins[half][inconsistent][b] counts pairs (half 0 = choose, 1 = measure;
	// inconsistent 1 when execution says so) whose score is below the grid
	// thresholds from index b on (b = len(grid): below none).
	Bins     [2][2][]int
	BelowOne int
	Repairs  []RepairRec
}

// RepairRec is what Score uses of a repair.
type RepairRec struct {
	// Bin: the repair's MinScore is below the grid thresholds from index Bin on
	// (-1 for NaN, which Score never skips).
	Bin                   int
	ExecInconsistent      bool
	Accepted              bool
	PassBefore, PassAfter float64
}

// scoreGrid is the grid Score chooses thresholds on.
var scoreGrid = ThresholdGrid()

// gridBin is the first index of scoreGrid whose threshold x is below
// (len(scoreGrid) when none, NaN included): x < grid[i] exactly when i >= bin.
func gridBin(x float64) int {
	return sort.Search(len(scoreGrid), func(i int) bool { return x < scoreGrid[i] })
}

func (a *ScoreAcc) metric(m Metric) *MetricAcc {
	if a.Metrics == nil {
		a.Metrics = map[Metric]*MetricAcc{}
	}
	ma := a.Metrics[m]
	if ma == nil {
		ma = &MetricAcc{}
		for h := range ma.Bins {
			for l := range ma.Bins[h] {
				ma.Bins[h][l] = make([]int, len(scoreGrid)+1)
			}
		}
		a.Metrics[m] = ma
	}
	return ma
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Group is what one problem contributes to one score key: its pairs and repairs.
type Group struct {
	Key     Key
	Results []schemas.ConsistencyRow
	Repairs []schemas.RepairRow
}

// Add counts the pairs and repairs of g (one problem's, or any part of a key's).
func (a *ScoreAcc) Add(g Group) {
	rows, repairs := g.Results, g.Repairs
	a.Keyed.Add(g.Key)
	for _, r := range rows {
		if a.Problems == nil {
			a.Problems = map[string]bool{}
		}
		a.Problems[r.ProblemID] = true
		a.Pairs++
		if !r.ExecConsistent {
			a.ExecBad++
		}
		if r.Kind == string(KindLiteral) {
			a.Literal++
		}
		half := b2i(r.Half != HalfChoose)
		for _, m := range Metrics {
			ma, x := a.metric(m), scoreOf(r, m)
			ma.Bins[half][b2i(!r.ExecConsistent)][gridBin(x)]++
			if x < 1 {
				ma.BelowOne++
			}
		}
	}
	for _, rp := range repairs {
		if !knownMetric(Metric(rp.RankMetric)) {
			continue // Score ranks by its Metrics only
		}
		ma := a.metric(Metric(rp.RankMetric))
		bin := gridBin(rp.MinScore)
		if math.IsNaN(rp.MinScore) {
			bin = -1 // Score skips a repair when MinScore >= th: never for NaN
		}
		ma.Repairs = append(ma.Repairs, RepairRec{Bin: bin, ExecInconsistent: rp.ExecInconsistent != 0,
			Accepted: rp.Accepted, PassBefore: rp.PassBefore, PassAfter: rp.PassAfter})
	}
}

func knownMetric(m Metric) bool {
	for _, k := range Metrics {
		if k == m {
			return true
		}
	}
	return false
}

// Merge adds o's counts and records to a (o is left as it was).
func (a *ScoreAcc) Merge(o *ScoreAcc) {
	if !a.Keyed.Merge(o.Keyed) {
		return
	}
	a.Pairs += o.Pairs
	a.Literal += o.Literal
	a.ExecBad += o.ExecBad
	for id := range o.Problems {
		if a.Problems == nil {
			a.Problems = map[string]bool{}
		}
		a.Problems[id] = true
	}
	for m, om := range o.Metrics {
		ma := a.metric(m)
		for h := range om.Bins {
			for l := range om.Bins[h] {
				for b, n := range om.Bins[h][l] {
					ma.Bins[h][l][b] += n
				}
			}
		}
		ma.BelowOne += om.BelowOne
		ma.Repairs = append(ma.Repairs, om.Repairs...)
	}
}

// confusion is Evaluate at scoreGrid[i] of the pairs counted in halves.
func (ma *MetricAcc) confusion(i int, halves ...int) Confusion {
	var c Confusion
	for _, h := range halves {
		for b, n := range ma.Bins[h][1] {
			if b <= i {
				c.TP += n
			} else {
				c.FN += n
			}
		}
		for b, n := range ma.Bins[h][0] {
			if b <= i {
				c.FP += n
			} else {
				c.TN += n
			}
		}
	}
	return c
}

// ScoreRows are Score's rows of what was added, for its key; none when nothing was.
func (a *ScoreAcc) ScoreRows(run string) []schemas.ScoreRow { return a.Scores(run, a.Key) }

// Scores are Score's rows of what was added, for key k; none when nothing was.
func (a *ScoreAcc) Scores(run string, k Key) []schemas.ScoreRow {
	if a.Added == 0 {
		return nil
	}
	w := scoreWriter{run: run, k: k}
	w.counts(len(a.Problems), a.Pairs, a.Literal, a.ExecBad)
	for _, m := range Metrics {
		ma := a.metric(m)
		nChoose, nMeasure := 0, 0
		for l := range ma.Bins[0] {
			for _, n := range ma.Bins[0][l] {
				nChoose += n
			}
			for _, n := range ma.Bins[1][l] {
				nMeasure += n
			}
		}
		th, cc := chooseThreshold(scoreGrid, func(i int) Confusion { return ma.confusion(i, 0) })
		ti := sort.SearchFloat64s(scoreGrid, th) // th is a grid value
		var flagged []RepairRec
		for _, rp := range ma.Repairs {
			if rp.ExecInconsistent || rp.Bin <= ti {
				flagged = append(flagged, rp)
			}
		}
		w.metric(m, metricFigures{th: th, choose: cc, measure: ma.confusion(ti, 1), all: ma.confusion(ti, 0, 1),
			nChoose: nChoose, nMeasure: nMeasure, below1: ma.BelowOne, pairs: a.Pairs}, flagged)
	}
	return w.out
}
