// Package score aggregates result rows into the scores of SPEC section 6 that need
// only execution results: computational accuracy (CA, MBTA section 4.4) overall and
// per problem (mean, median, std), pass rate (share of problems passing every test,
// TRACE), and counts of program statuses. Rows come in long format (ScoreRow).
package score

import "transmute/schemas"

// Key groups results that are scored together.
type Key struct {
	Translator, Corpus, SrcLang, TgtLang string
}

// KeyOf is the score key of a result row.
func KeyOf(r schemas.ResultRow) Key {
	return Key{r.Translator, r.Corpus, r.SrcLang, r.TgtLang}
}

// String renders the key for use as a Beam key.
func (k Key) String() string {
	return k.Translator + "\x1f" + k.Corpus + "\x1f" + k.SrcLang + "\x1f" + k.TgtLang
}

// Subsets of tests: all, or without the language-dependent ones.
const (
	SubsetAll             = "all"
	SubsetLangIndependent = "lang_independent"
)

// Oracles.
const (
	OracleSource     = "source"
	OracleTargetGold = "target_gold"
)

// NoTranslation is the test status of a translation that could not be run.
const NoTranslation = schemas.StatusNoTranslation

// CA computes the CA and pass-rate scores of one key from its result rows. The
// main metrics score sample 0; when a translator gave n > 1 samples, the pass rates
// "any of n" and "all of n" are added. Every oracle and subset present gets a full
// set of metrics. It is CAAcc over all rows at once.
func CA(run string, k Key, rows []schemas.ResultRow) []schemas.ScoreRow {
	var acc CAAcc
	for _, r := range rows {
		acc.Add(r)
	}
	return acc.Scores(run, k)
}
