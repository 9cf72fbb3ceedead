package similarity

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"transmute/schemas"
)

// Three translators of one problem into Python: identical to the gold (passes),
// renamed but wrong (fails half), missing; plus one too large. The rows join CA
// from the target-gold results (counted once across corpora), and the analysis
// finds the metric order agreeing with CA.
func TestScoreAllAndAnalyze(t *testing.T) {
	gold := "def f ( x ) :\n    m = 1\n    return x + m"
	p := schemas.Problem{ID: "P", Functions: []schemas.Function{{Lang: "python", Code: gold}, {Lang: "java", Code: "static int f ( int x ) { return x + 1 ; }"}}}
	tr := func(name string, status schemas.TranslationStatus, code string) schemas.TranslationRow {
		return schemas.TranslationRow{Translator: name, ProblemID: "P", VariantID: "orig", SrcLang: "java", TgtLang: "python", Status: status, Code: code}
	}
	trs := []schemas.TranslationRow{
		tr("same", schemas.TranslationOK, gold),
		tr("wrong", schemas.TranslationOK, "def f(y):\n    return y - 1"),
		tr("none", schemas.TranslationMissing, ""),
		{Translator: "empty", ProblemID: "P", VariantID: "orig", SrcLang: "java", TgtLang: "python",
			Status: schemas.TranslationError, Error: "the recorded translation is empty"},
		tr("huge", schemas.TranslationOK, strings.Repeat("#", DefaultOptions.MaxBytes+1)),
	}
	var results []schemas.ResultRow
	for _, name := range []string{"same", "wrong", "none", "empty", "huge"} {
		for _, corpus := range []string{"transcoder", "trace"} {
			for i := int32(0); i < 2; i++ {
				match := name == "same" || (name == "wrong" && i == 0)
				results = append(results, schemas.ResultRow{Translator: name, ProblemID: "P", Corpus: corpus, SrcLang: "java",
					TgtLang: "python", Oracle: "target_gold", TestIndex: i, OracleStatus: schemas.StatusOK, Match: match})
			}
		}
	}
	rows := ScoreAll("r", []schemas.Problem{p}, trs, results, DefaultOptions, 2)
	if len(rows) != 5 {
		t.Fatalf("%d rows", len(rows))
	}
	by := map[string]schemas.SimilarityRow{}
	for _, r := range rows {
		by[r.Translator] = r
	}
	if r := by["same"]; r.Status != StatusOK || r.RUBY != 1 || r.BLEU != 1 || r.CA != 1 || !r.Pass || r.Tests != 2 || r.RubyLevel != string(LevelGraph) {
		t.Errorf("same: %+v", r)
	}
	if r := by["wrong"]; r.Status != StatusOK || r.CA != 0.5 || r.Pass || !(r.RUBY < 1) || r.Tests != 2 {
		t.Errorf("wrong: %+v", r)
	}
	if r := by["none"]; r.Status != StatusNoTranslation || r.RUBY != 0 || r.BLEU != 0 || r.CA != 0 {
		t.Errorf("none: %+v", r)
	}
	// An empty answer is the translator's real output: scored (as empty code), kept.
	if r := by["empty"]; r.Status != StatusOK || r.RUBY != 0 || r.BLEU != 0 || r.STS != 0 || r.CodeBLEU != 0 ||
		r.RubyLevel != string(LevelTokens) || r.HypTokens != 0 || !strings.Contains(r.Error, "scored as its code") {
		t.Errorf("empty: %+v", r)
	}
	if r := by["huge"]; r.Status != StatusError || !strings.Contains(r.Error, "limit") || !math.IsNaN(r.RUBY) {
		t.Errorf("huge: %+v", r)
	}
	st := Analyze("r", rows, AnalysisOptions{Resamples: 50, Seed: 1, Workers: 2})
	found := false
	for _, s := range st {
		if s.Scope == ScopeAll && s.Metric == string(MetricRUBY) && s.Target == string(TargetCA) && s.Statistic == StatSpearman {
			found = true
			// Three usable rows (same, wrong, empty; none has no translation, huge is an
			// error): RUBY 1 > x > 0 and CA 1 > 0.5 > 0.
			if s.N != 3 || !near(s.Value, 1, 1e-12) {
				t.Errorf("spearman %+v", s)
			}
		}
		if s.Scope == ScopeAll && s.Metric == string(MetricRUBY) && s.Statistic == StatCounterexamples && s.Value != 0 {
			t.Errorf("counterexamples %+v", s)
		}
	}
	if !found {
		t.Error("no spearman row")
	}
	var buf bytes.Buffer
	Summary(&buf, rows, st)
	if !strings.Contains(buf.String(), "paper: mppSMT") || !strings.Contains(buf.String(), "RUBY - BLEU") {
		t.Errorf("summary:\n%s", buf.String())
	}
}
