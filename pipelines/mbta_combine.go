package pipelines

import (
	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"transmute/transforms/mbta"
)

// MBTAScore scores each (translator, corpus, direction) of the problems' outputs
// with a combiner over mbta.ScoreAcc: counts and one small record per problem
// instead of every problem's mutant and result rows in one DoFn call.
func MBTAScore(s beam.Scope, run string, outs beam.PCollection) beam.PCollection {
	s = s.Scope("Score")
	return beam.ParDo(s, flattenScores, combineScores[mbta.ScoreAcc, mbta.Group](s, run, beam.ParDo(s, splitMBTAGroups, outs)))
}
