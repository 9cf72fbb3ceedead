package properties

import (
	"transmute/schemas"
	"transmute/transforms/runner"
	"transmute/transforms/score"
)

// ScoreAcc accumulates the property result rows of one score key into Score's
// counts (instances and violations per property), so that the Score stage can be a
// combiner that keeps 38 pairs of counts instead of every result row. Counts only:
// any split of the rows, merged in any order, gives Score's rows exactly. The zero
// value is empty; fields are exported for gob.
type ScoreAcc struct {
	// Keyed is the score key of the rows added and how many (no row, no scores).
	runner.Keyed
	Violated              int
	Instances, Violations map[string]int
}

// Add counts one result row.
func (a *ScoreAcc) Add(r schemas.PropertyResultRow) {
	a.Keyed.Add(score.Key{Translator: r.Translator, Corpus: r.Corpus, SrcLang: r.SrcLang, TgtLang: r.TgtLang})
	if a.Instances == nil {
		a.Instances = map[string]int{}
	}
	a.Instances[r.Property]++
	if r.Violated {
		if a.Violations == nil {
			a.Violations = map[string]int{}
		}
		a.Violations[r.Property]++
		a.Violated++
	}
}

// Merge adds o's counts to a (o is left as it was).
func (a *ScoreAcc) Merge(o *ScoreAcc) {
	if !a.Keyed.Merge(o.Keyed) {
		return
	}
	a.Violated += o.Violated
	for p, n := range o.Instances {
		if a.Instances == nil {
			a.Instances = map[string]int{}
		}
		a.Instances[p] += n
	}
	for p, n := range o.Violations {
		if a.Violations == nil {
			a.Violations = map[string]int{}
		}
		a.Violations[p] += n
	}
}

// ScoreRows are the score rows of what was added, for its key (Scores of a.Key).
func (a *ScoreAcc) ScoreRows(run string) []schemas.ScoreRow { return a.Scores(run, a.Key) }

// Scores are Score's rows of the rows added, for key k; none without rows (as the
// Score stage gave none for a key without rows).
func (a *ScoreAcc) Scores(run string, k score.Key) []schemas.ScoreRow {
	if a.Added == 0 {
		return nil
	}
	return scoreRows(run, k, a.Violations, a.Instances, a.Violated, a.Added)
}
