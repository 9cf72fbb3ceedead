package consistency

import (
	"math"
	"testing"

	"transmute/schemas"
)

func TestScore(t *testing.T) {
	row := func(problem, half string, lcs float64, execOK bool) schemas.ConsistencyRow {
		return schemas.ConsistencyRow{ProblemID: problem, Half: half, Kind: "identifier", LCS: lcs, ED: lcs, TFIDF: lcs, BLEU: lcs,
			ExecConsistent: execOK}
	}
	rows := []schemas.ConsistencyRow{
		// Choose half: inconsistent at 0.8, consistent at 1 and 0.95: threshold 0.95
		// (0.81..0.95 separate them; the tie goes to the highest).
		row("A", HalfChoose, 0.8, false), row("A", HalfChoose, 1, true), row("B", HalfChoose, 0.95, true),
		// Measure half: TP 0.5, FN 0.97, FP 0.9, TN 1 -> P 1/2, R 1/2, F1 1/2.
		row("C", HalfMeasure, 0.5, false), row("C", HalfMeasure, 0.97, false), row("D", HalfMeasure, 0.9, true),
		row("D", HalfMeasure, 1, true),
	}
	reps := []schemas.RepairRow{
		{ProblemID: "A", RankMetric: "lcs", ExecInconsistent: 1, MinScore: 0.8, Accepted: true, PassBefore: 0.5, PassAfter: 1},
		{ProblemID: "C", RankMetric: "lcs", ExecInconsistent: 2, MinScore: 0.5, Accepted: true, PassBefore: 1, PassAfter: 0.5},
		// Flagged by the metric alone at 0.9 < 0.95; not repaired.
		{ProblemID: "D", RankMetric: "lcs", MinScore: 0.9, PassBefore: 1, PassAfter: 1},
		// Not flagged: no execution inconsistency and above the threshold.
		{ProblemID: "B", RankMetric: "lcs", MinScore: 0.99, PassBefore: 1, PassAfter: 1},
	}
	got := map[string]float64{}
	for _, s := range Score("r", Key{Translator: "x"}, rows, reps) {
		got[string(s.Metric)] = s.Value
	}
	want := map[string]float64{"pairs": 7, "problems": 4, "exec_inconsistent": 3, "exec_inconsistent_rate": 3.0 / 7,
		"lcs_threshold": 0.95, "lcs_below_1": 5, "lcs_inconsistent": 3, // 0.8, 0.5, 0.9
		"lcs_precision": 0.5, "lcs_recall": 0.5, "lcs_f1": 0.5, "lcs_f1_choose": 1,
		"lcs_repair_tried": 3, "lcs_repaired": 2, "lcs_repaired_rate": 2.0 / 3,
		"lcs_pass_before": 2.5 / 3, "lcs_pass_after": 2.5 / 3, "lcs_repair_worse": 1, "lcs_repair_better": 1}
	for k, v := range want {
		if math.Abs(got[k]-v) > 1e-9 {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
}
