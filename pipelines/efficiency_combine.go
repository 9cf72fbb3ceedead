package pipelines

import (
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"transmute/schemas"
	"transmute/transforms/efficiency"
)

func init() { register.Function3x0(flattenEffScores) }

// EfficiencyScore aggregates the outcomes per direction and pooled
// (keyEffOutcome) with a combiner over efficiency.ScoreAcc (one slim record per
// task: Aggregate needs every task) and keeps each key's rows.
func EfficiencyScore(s beam.Scope, run string, outs beam.PCollection) beam.PCollection {
	s = s.Scope("Score")
	keyed := beam.ParDo(s, keyEffOutcome, outs)
	return beam.ParDo(s, flattenEffScores, combineScores[efficiency.ScoreAcc, efficiency.TaskOutcome](s, run, keyed))
}

// flattenEffScores emits the rows of one key: one direction's, or the pooled ones
// (the accumulator does not know its key, so Aggregate's rows are cut here).
func flattenEffScores(key string, rows []schemas.ScoreRow, emit func(schemas.ScoreRow)) {
	pooled := key == effPooledKey
	for _, r := range rows {
		if (r.SrcLang == efficiency.AllLangs) == pooled {
			emit(r)
		}
	}
}
