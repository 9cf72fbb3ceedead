package mbta

import (
	"fmt"
	"math"
	"testing"

	"transmute/schemas"
	"transmute/transforms/score"
)

// group builds a problem with `killed` killed and `survived` survived mutants, one
// anomalous mutant, and an original translation matching `matched` of 4 tests.
func group(id string, killed, survived, matched int) Group {
	g := Group{Translator: "t", Corpus: "c", SrcLang: "java", TgtLang: "python", ProblemID: id}
	add := func(verdict string, n int) {
		for i := 0; i < n; i++ {
			g.Mutants = append(g.Mutants, schemas.MutantResultRow{ProblemID: id, VariantID: fmt.Sprint(verdict, i),
				Operator: []string{"ROR", "AORB"}[i%2], Verdict: verdict})
		}
	}
	add(score.Killed, killed)
	add(score.Survived, survived)
	add(score.Anomalous, 1)
	for i := 0; i < 4; i++ {
		g.Results = append(g.Results, schemas.ResultRow{ProblemID: id, Translator: "t", Corpus: "c", SrcLang: "java",
			TgtLang: "python", Oracle: score.OracleSource, TestIndex: int32(i), OracleStatus: schemas.StatusOK,
			Status: schemas.StatusOK, Match: i < matched})
	}
	g.Funnel = FunnelCounts{NonAnomalous: int64(killed + survived), TranslationOutputs: int64(killed + survived)}
	return g
}

func metrics(rows []schemas.ScoreRow) map[string]schemas.ScoreRow {
	m := map[string]schemas.ScoreRow{}
	for _, r := range rows {
		if r.Subset == score.SubsetAll {
			m[string(r.Metric)] = r
		}
	}
	return m
}

func TestScoreCorrelationsAndTotals(t *testing.T) {
	// MTS rises (0, 1/4, 2/4, 3/4) as CA falls (4/4 .. 1/4); mutants fixed at 4 (constant).
	gs := []Group{group("a", 0, 4, 4), group("b", 1, 3, 3), group("c", 2, 2, 2), group("d", 3, 1, 1)}
	m := metrics(Score("r", gs[0].Key(), gs))
	if r := m["mts_overall"]; r.Value != 6.0/16 || r.N != 16 {
		t.Errorf("mts_overall %+v, want 6/16 over 16", r)
	}
	if r := m["anomalous_mutants"]; r.Value != 4 {
		t.Errorf("anomalous %v, want 4", r.Value)
	}
	if r := m["funnel_non_anomalous_mutants"]; r.Value != 16 {
		t.Errorf("funnel sum %v, want 16", r.Value)
	}
	if r := m["ca_overall"]; r.Value != 10.0/16 {
		t.Errorf("ca_overall %v, want 10/16", r.Value)
	}
	for _, name := range []string{"corr_spearman_mts_ca", "corr_pearson_mts_ca"} {
		if r, ok := m[name]; !ok || math.Abs(r.Value+1) > 1e-12 || r.N != 4 {
			t.Errorf("%s = %+v, want -1 over 4 problems", name, r)
		}
		if r := m[name+"_p"]; !(r.Value >= 0 && r.Value < 1e-6) {
			t.Errorf("%s_p = %v, want ~0", name, r.Value)
		}
	}
	// The number of mutants is constant: those correlations are undefined, not emitted.
	if _, ok := m["corr_spearman_mutants_mts"]; ok {
		t.Error("correlation with a constant variable emitted")
	}
}

func TestScoreIdentityLike(t *testing.T) {
	gs := []Group{group("a", 0, 4, 4), group("b", 0, 3, 4), group("c", 0, 2, 4), group("d", 0, 5, 4)}
	m := metrics(Score("r", gs[0].Key(), gs))
	if m["mts_overall"].Value != 0 || m["mts_mean"].Value != 0 || m["mts_std"].Value != 0 {
		t.Errorf("MTS %v/%v/%v, want 0", m["mts_overall"].Value, m["mts_mean"].Value, m["mts_std"].Value)
	}
	if _, ok := m["corr_spearman_mts_ca"]; ok {
		t.Error("MTS-CA correlation emitted though MTS is constant")
	}
	if _, ok := m["corr_spearman_mutants_mts"]; ok {
		t.Error("mutants-MTS correlation emitted though MTS is constant")
	}
}
