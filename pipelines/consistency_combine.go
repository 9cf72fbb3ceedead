package pipelines

import (
	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"transmute/transforms/consistency"
)

// ConsistencyScore scores each (translator, corpus, direction) of the problems'
// outputs with a combiner over consistency.ScoreAcc: counts per threshold bin and
// small repair records instead of every row in one DoFn call.
func ConsistencyScore(s beam.Scope, run string, outs beam.PCollection) beam.PCollection {
	s = s.Scope("Score")
	keyed := beam.ParDo(s, splitConsGroups, outs)
	return beam.ParDo(s, flattenScores, combineScores[consistency.ScoreAcc, consistency.Group](s, run, keyed))
}
