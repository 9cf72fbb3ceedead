package report

import (
	"math"

	"transmute/schemas"
)

// Coverage is what became of a translator's problems in one direction.
type Coverage struct {
	Problems, Translated, Missing, Failed int64
	// FromScores: the figures are the scores table's coverage rows; else they were
	// counted from the translations table (outputs written before those rows).
	FromScores bool
}

// Complete tells whether every problem was translated.
func (c Coverage) Complete() bool { return c.Translated >= c.Problems }

// Coverages gives each translator, corpus and direction's coverage: from the coverage
// score rows when the run has them, else counted from the translations (sample 0 of
// the original functions: ok is translated, missing is missing, any other status a
// failed translation). A cell with neither has no entry.
func Coverages(scores []schemas.ScoreRow, translations []schemas.TranslationRow) map[cell]Coverage {
	out := map[cell]Coverage{}
	for _, s := range scores {
		if s.Subset != "all" && s.Subset != "" {
			continue
		}
		k := cell{s.Translator, s.Corpus, s.SrcLang, s.TgtLang}
		c := out[k]
		v := int64(math.Round(s.Value))
		switch s.Metric {
		case schemas.MetricTranslated:
			c.Translated, c.FromScores = v, true
		case schemas.MetricMissing:
			c.Missing = v
		case schemas.MetricTranslationFailed:
			c.Failed = v
		case schemas.MetricProblems:
			c.Problems = max(c.Problems, v)
		default:
			continue
		}
		out[k] = c
	}
	for k, c := range out {
		if !c.FromScores {
			delete(out, k) // a problems row alone is the CA scores' count, not coverage
		}
	}
	counted := map[cell]*Coverage{}
	seen := map[cell]map[string]bool{}
	for _, t := range translations {
		if t.Sample != 0 || t.VariantID != "orig" && t.VariantID != "" {
			continue
		}
		k := cell{t.Translator, t.Corpus, t.SrcLang, t.TgtLang}
		if _, ok := out[k]; ok {
			continue
		}
		c := counted[k]
		if c == nil {
			c, seen[k] = &Coverage{}, map[string]bool{}
			counted[k] = c
		}
		if seen[k][t.ProblemID] {
			continue
		}
		seen[k][t.ProblemID] = true
		c.Problems++
		switch t.Status {
		case schemas.TranslationOK:
			c.Translated++
		case schemas.TranslationMissing:
			c.Missing++
		default:
			c.Failed++
		}
	}
	for k, c := range counted {
		out[k] = *c
	}
	return out
}

// passAttempted is the pass rate over the problems that were translated (and
// evaluated) against one oracle, and how many those are: the scores table's
// pass_rate_attempted row, else the problems passed (pass_rate × n) over the
// problems translated. ok is false when neither is known.
func passAttempted(idx map[scoreKey]schemas.ScoreRow, c cell, oracle string, cov Coverage, haveCov bool) (v float64, n int64, ok bool) {
	if s, ok := idx[scoreKey{c.tr, c.corpus, c.src, c.tgt, oracle, "all", schemas.MetricPassRateAttempted}]; ok {
		return s.Value, s.N, true
	}
	pr, ok := idx[scoreKey{c.tr, c.corpus, c.src, c.tgt, oracle, "all", schemas.MetricPassRate}]
	if !ok || !haveCov || cov.Translated == 0 {
		return math.NaN(), 0, false
	}
	passed := math.Round(pr.Value * float64(pr.N))
	return math.Min(1, passed/float64(cov.Translated)), cov.Translated, true
}
