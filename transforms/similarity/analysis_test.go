package similarity

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"transmute/schemas"
)

// simRow is a scored translation of problem P (java->python) with every metric
// defined on all translations set to bleu, and STS to sts.
func simRow(tr string, bleu, sts, ca float64, tokens int32) schemas.SimilarityRow {
	return schemas.SimilarityRow{Translator: tr, ProblemID: "P", SrcLang: "java", TgtLang: "python", Status: StatusOK,
		BLEU: bleu, CrystalBLEU: bleu, CodeBLEU: bleu, RUBY: bleu, STS: sts, TRS: math.NaN(), GRS: math.NaN(),
		RubyLevel: string(LevelTokens), HypTokens: tokens, CA: ca, Pass: ca == 1, Tests: 10}
}

// Rows without a translation (metrics 0, CA 0) are left out of the correlations;
// an empty translation the translator did give stays in (and only the nonempty
// scope leaves it out). Values computed by hand (Spearman = Pearson of average
// ranks):
//   - BLEU (0.9, 0.5, 0.2) against CA (0.5, 1, 0): ranks (3,2,1) and (2,3,1), rho 0.5;
//   - with the empty translation (BLEU 0, CA 0): rho 0.7379 (ranks 4,3,2,1 and 3,4,1.5,1.5);
//   - were the two missing ones counted as well, rho would be 0.8262: the inflation removed;
//   - STS (0.6, 0.8, 0.1, 0) against CA: rho 0.9487, so STS leads by 0.9487 - 0.7379.
func TestAnalyzeLeavesOutMissingTranslations(t *testing.T) {
	rows := []schemas.SimilarityRow{
		simRow("a", 0.9, 0.6, 0.5, 20),
		simRow("b", 0.5, 0.8, 1, 20),
		simRow("c", 0.2, 0.1, 0, 20),
		simRow("empty", 0, 0, 0, 0),
	}
	for _, tr := range []string{"m1", "m2"} {
		r := simRow(tr, 0, 0, 0, 0)
		r.Status = StatusNoTranslation
		rows = append(rows, r)
	}
	st := Analyze("r", rows, AnalysisOptions{Resamples: 20, Seed: 1})
	find := func(scope string, m Metric, stat string) schemas.SimilarityStatRow {
		t.Helper()
		for _, s := range st {
			if s.Scope == scope && s.Metric == string(m) && s.Target == string(TargetCA) && s.Statistic == stat && s.Translator == "" {
				return s
			}
		}
		t.Fatalf("no %s %s %s row", scope, m, stat)
		return schemas.SimilarityStatRow{}
	}
	if s := find(ScopeAll, MetricBLEU, StatSpearman); s.N != 4 || !near(s.Value, 0.7378647873726218, 1e-12) {
		t.Errorf("all: BLEU spearman %v over %d, want 0.7379 over 4", s.Value, s.N)
	}
	if s := find(ScopeNonEmpty, MetricBLEU, StatSpearman); s.N != 3 || !near(s.Value, 0.5, 1e-12) {
		t.Errorf("nonempty: BLEU spearman %v over %d, want 0.5 over 3", s.Value, s.N)
	}
	if s := find(ScopeDirection, MetricSTS, StatSpearman); s.N != 4 || !near(s.Value, 0.9486832980505138, 1e-12) {
		t.Errorf("direction: STS spearman %v over %d", s.Value, s.N)
	}
	// The best metric (STS) against the runner-up (RUBY, first of the tied rest).
	l := find(ScopeAll, MetricSTS, StatLeadPrefix+string(MetricRUBY))
	if !near(l.Value, 0.9486832980505138-0.7378647873726218, 1e-12) || l.N != 4 || math.IsNaN(l.Lo) || l.Lo > l.Hi {
		t.Errorf("lead %+v", l)
	}
	// Counterexamples and system level see no missing row either: 6 pairs CA orders
	// among a, b, c, empty minus the one tie (c, empty at CA 0).
	if s := find(ScopeAll, MetricBLEU, StatOrderedPairs); s.Value != 5 {
		t.Errorf("ordered pairs %v, want 5", s.Value)
	}
	var buf bytes.Buffer
	Summary(&buf, rows, st)
	out := buf.String()
	for _, want := range []string{
		"6 rows: 2 without a translation and 0 errors",
		"4 translations scored (1 of them empty",
		"4 of those joined to execution results and analysed",
		"all directions, non-empty translations only",
		"best sts - runner-up ruby: +0.211",
		"Which metric tracks CA best:",
		"RUBY against BLEU",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
}
