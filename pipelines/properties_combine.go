package pipelines

import (
	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"transmute/schemas"
	"transmute/transforms/properties"
)

// PropertiesScore scores each (translator, corpus, direction) of the problems'
// outputs with a combiner over properties.ScoreAcc (counts per property).
func PropertiesScore(s beam.Scope, run string, outs beam.PCollection) beam.PCollection {
	s = s.Scope("Score")
	keyed := beam.ParDo(s, splitPropKeyed, outs)
	return beam.ParDo(s, flattenScores, combineScores[properties.ScoreAcc, schemas.PropertyResultRow](s, run, keyed))
}
