package consistency

import (
	"math"
	"sort"

	"transmute/schemas"
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
type Key struct {
	Translator, Corpus, SrcLang, TgtLang string
}

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
	var out []schemas.ScoreRow
	add := func(name schemas.Metric, v float64, n int) {
		out = append(out, schemas.ScoreRow{Run: run, Translator: k.Translator, Corpus: k.Corpus, SrcLang: k.SrcLang,
			TgtLang: k.TgtLang, Oracle: OracleConsistency, Subset: "all", Metric: name, Value: v, N: int64(n)})
	}
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
	add(ScoreProblems, float64(len(problems)), len(problems))
	add(ScorePairs, float64(len(rows)), len(rows))
	add(ScorePairsLiteral, float64(literal), len(rows))
	add(ScoreExecInconsistent, float64(execBad), len(rows))
	add(ScoreExecRate, ratio(execBad, len(rows)), len(rows))
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
		mc := Evaluate(measure, th)
		ac := Evaluate(all, th)
		p := schemas.Metric(m)
		add(p+SuffixThreshold, th, len(choose))
		add(p+SuffixChooseF1, cc.F1(), len(choose))
		add(p+SuffixBelowOne, float64(below1), len(rows))
		add(p+SuffixInconsistent, float64(ac.TP+ac.FP), len(rows))
		add(p+SuffixRate, ratio(ac.TP+ac.FP, len(rows)), len(rows))
		add(p+SuffixPrecision, mc.Precision(), mc.TP+mc.FP)
		add(p+SuffixRecall, mc.Recall(), mc.TP+mc.FN)
		add(p+SuffixF1, mc.F1(), len(measure))

		// Repairs ranked by m, of the translations m (at th) or execution flags.
		flagged, repaired, worse, better := 0, 0, 0, 0
		var before, after []float64
		for _, rp := range repairs {
			if rp.RankMetric != string(m) || (rp.ExecInconsistent == 0 && rp.MinScore >= th) {
				continue
			}
			flagged++
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
		add(p+SuffixFlagged, float64(flagged), flagged)
		add(p+SuffixRepaired, float64(repaired), flagged)
		add(p+SuffixRepairedRate, ratio(repaired, flagged), flagged)
		add(p+SuffixPassBefore, sortedSum(before)/math.Max(float64(flagged), 1), flagged)
		add(p+SuffixPassAfter, sortedSum(after)/math.Max(float64(flagged), 1), flagged)
		add(p+SuffixWorse, float64(worse), repaired)
		add(p+SuffixBetter, float64(better), repaired)
	}
	return out
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
