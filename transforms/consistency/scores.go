package consistency

import (
	"math"
	"sort"

	"transmute/schemas"
	"transmute/transforms/score"
)

// OracleConsistency is the ScoreRow.Oracle of this job's scores.
const OracleConsistency = "consistency"

// Score names (ScoreRow.Metric). Per-metric ones are the metric and a Suffix:
// lcs_threshold, lcs_f1...
const (
	ScorePairs            schemas.Metric = "pairs"
	ScorePairsLiteral     schemas.Metric = "pairs_literal"
	ScoreExecInconsistent schemas.Metric = "exec_inconsistent"      // count; Value/N in ..._rate
	ScoreExecRate         schemas.Metric = "exec_inconsistent_rate" // share of pairs
	ScoreProblems         schemas.Metric = "problems"

	SuffixThreshold    = "_threshold"    // chosen on the choose half
	SuffixInconsistent = "_inconsistent" // pairs below it (all problems)
	SuffixRate         = "_inconsistent_rate"
	SuffixBelowOne     = "_below_1"   // pairs scoring below 1
	SuffixPrecision    = "_precision" // against execution, measure half
	SuffixRecall       = "_recall"
	SuffixF1           = "_f1"
	SuffixChooseF1     = "_f1_choose"    // on the choose half
	SuffixFlagged      = "_repair_tried" // translations flagged (metric or execution)
	SuffixRepaired     = "_repaired"     // accepted repairs among them
	SuffixRepairedRate = "_repaired_rate"
	SuffixPassBefore   = "_pass_before" // mean pass rate of the flagged translations
	SuffixPassAfter    = "_pass_after"
	SuffixWorse        = "_repair_worse"  // accepted repairs with a lower pass rate
	SuffixBetter       = "_repair_better" // accepted repairs with a higher pass rate
)

// Key is a score key.
type Key = score.Key

func scoreOf(r schemas.ConsistencyRow, m Metric) float64 {
	switch m {
	case MetricLCS:
		return r.LCS
	case MetricED:
		return r.ED
	case MetricTFIDF:
		return r.TFIDF
	case MetricBLEU:
		return r.BLEU
	}
	return math.NaN()
}

// Score computes one key's scores from its pairs and repairs: execution
// inconsistencies, each metric's threshold (chosen on the choose half against
// execution), its inconsistencies and its precision/recall/F1 on the measure
// half, and the repairs of the translations that metric or execution flags.
func Score(run string, k Key, rows []schemas.ConsistencyRow, repairs []schemas.RepairRow) []schemas.ScoreRow {
	w := scoreWriter{run: run, k: k}
	problems := map[string]bool{}
	execBad, literal := 0, 0
	for _, r := range rows {
		problems[r.ProblemID] = true
		if !r.ExecConsistent {
			execBad++
		}
		if r.Kind == string(KindLiteral) {
			literal++
		}
	}
	w.counts(len(problems), len(rows), literal, execBad)
	for _, m := range Metrics {
		var choose, measure, all []Labeled
		below1 := 0
		for _, r := range rows {
			l := Labeled{Score: scoreOf(r, m), Inconsistent: !r.ExecConsistent}
			all = append(all, l)
			if l.Score < 1 {
				below1++
			}
			if r.Half == HalfChoose {
				choose = append(choose, l)
			} else {
				measure = append(measure, l)
			}
		}
		th, cc := ChooseThreshold(choose, ThresholdGrid())
		// Repairs ranked by m, of the translations m (at th) or execution flags.
		var flagged []RepairRec
		for _, rp := range repairs {
			if rp.RankMetric != string(m) || (rp.ExecInconsistent == 0 && rp.MinScore >= th) {
				continue
			}
			flagged = append(flagged, RepairRec{Accepted: rp.Accepted, PassBefore: rp.PassBefore, PassAfter: rp.PassAfter})
		}
		w.metric(m, metricFigures{th: th, choose: cc, measure: Evaluate(measure, th), all: Evaluate(all, th),
			nChoose: len(choose), nMeasure: len(measure), below1: below1, pairs: len(rows)}, flagged)
	}
	return w.out
}

// scoreWriter writes the score rows of one key, for Score and ScoreAcc alike.
type scoreWriter struct {
	run string
	k   Key
	out []schemas.ScoreRow
}

func (w *scoreWriter) add(name schemas.Metric, v float64, n int) {
	w.out = append(w.out, schemas.ScoreRow{Run: w.run, Translator: w.k.Translator, Corpus: w.k.Corpus, SrcLang: w.k.SrcLang,
		TgtLang: w.k.TgtLang, Oracle: OracleConsistency, Subset: "all", Metric: name, Value: v, N: int64(n)})
}

// counts writes the key's problem and pair counts.
func (w *scoreWriter) counts(problems, pairs, literal, execBad int) {
	w.add(ScoreProblems, float64(problems), problems)
	w.add(ScorePairs, float64(pairs), pairs)
	w.add(ScorePairsLiteral, float64(literal), pairs)
	w.add(ScoreExecInconsistent, float64(execBad), pairs)
	w.add(ScoreExecRate, ratio(execBad, pairs), pairs)
}

// metricFigures are what a metric's rows report: the threshold chosen on the
// choose half and the confusion there, the confusions at it on the measure half and
// on every pair, and the counts.
type metricFigures struct {
	th                               float64
	choose, measure, all             Confusion
	nChoose, nMeasure, below1, pairs int
}

// metric writes metric m's rows, and those of the repairs flagged at its threshold.
func (w *scoreWriter) metric(m Metric, f metricFigures, flagged []RepairRec) {
	p := schemas.Metric(m)
	w.add(p+SuffixThreshold, f.th, f.nChoose)
	w.add(p+SuffixChooseF1, f.choose.F1(), f.nChoose)
	w.add(p+SuffixBelowOne, float64(f.below1), f.pairs)
	w.add(p+SuffixInconsistent, float64(f.all.TP+f.all.FP), f.pairs)
	w.add(p+SuffixRate, ratio(f.all.TP+f.all.FP, f.pairs), f.pairs)
	w.add(p+SuffixPrecision, f.measure.Precision(), f.measure.TP+f.measure.FP)
	w.add(p+SuffixRecall, f.measure.Recall(), f.measure.TP+f.measure.FN)
	w.add(p+SuffixF1, f.measure.F1(), f.nMeasure)

	repaired, worse, better := 0, 0, 0
	var before, after []float64
	for _, rp := range flagged {
		before = append(before, rp.PassBefore)
		after = append(after, rp.PassAfter)
		if rp.Accepted {
			repaired++
			if rp.PassAfter < rp.PassBefore {
				worse++
			} else if rp.PassAfter > rp.PassBefore {
				better++
			}
		}
	}
	n := len(flagged)
	w.add(p+SuffixFlagged, float64(n), n)
	w.add(p+SuffixRepaired, float64(repaired), n)
	w.add(p+SuffixRepairedRate, ratio(repaired, n), n)
	w.add(p+SuffixPassBefore, sortedSum(before)/math.Max(float64(n), 1), n)
	w.add(p+SuffixPassAfter, sortedSum(after)/math.Max(float64(n), 1), n)
	w.add(p+SuffixWorse, float64(worse), repaired)
	w.add(p+SuffixBetter, float64(better), repaired)
}

// sortedSum adds xs in ascending order (sorting xs): the rows of a key come in
// any order, and a float sum must not depend on it.
func sortedSum(xs []float64) float64 {
	sort.Float64s(xs)
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}
