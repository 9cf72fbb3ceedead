package pipelines

import (
	"bytes"
	"encoding/gob"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"transmute/schemas"
	"transmute/transforms/consistency"
	"transmute/transforms/efficiency"
	"transmute/transforms/mbta"
	"transmute/transforms/properties"
	"transmute/transforms/score"
)

func init() {
	// Gob, not Beam's schema coder: the accumulators' maps have struct keys and
	// pointer values, which the row coder does not take. One named pair of coder
	// functions per type: Beam finds a coder's functions by name, and every
	// instance of a generic function has the same one.
	registerScoreCombiner[score.CAAcc, schemas.ResultRow](encodeCAAcc, decodeCAAcc)
	registerScoreCombiner[mbta.ScoreAcc, mbta.Group](encodeMBTAAcc, decodeMBTAAcc)
	registerScoreCombiner[properties.ScoreAcc, schemas.PropertyResultRow](encodePropAcc, decodePropAcc)
	registerScoreCombiner[consistency.ScoreAcc, consistency.Group](encodeConsAcc, decodeConsAcc)
	registerScoreCombiner[efficiency.ScoreAcc, efficiency.TaskOutcome](encodeEffAcc, decodeEffAcc)
	register.Function3x0(flattenScores)
	register.Emitter1[schemas.ScoreRow]()
}

// scoreAcc is a domain package's score accumulator (score.CAAcc, mbta.ScoreAcc,
// properties.ScoreAcc, consistency.ScoreAcc, efficiency.ScoreAcc): inputs In are
// added to it, two are merged, and its score rows are read at the end.
type scoreAcc[A, In any] interface {
	*A
	Add(In)
	Merge(*A)
	ScoreRows(run string) []schemas.ScoreRow
}

// scoreCombineFn combines the inputs of one score key into its scores through the
// accumulator A. A combiner, not a GroupByKey: the runner lifts it, adding inputs
// to per-key accumulators in the bundle that makes them, so it holds accumulators
// (counts, small per-problem records) instead of every row of the key.
type scoreCombineFn[A, In any, P scoreAcc[A, In]] struct {
	Run string
}

func (f *scoreCombineFn[A, In, P]) CreateAccumulator() P { return P(new(A)) }

func (f *scoreCombineFn[A, In, P]) AddInput(a P, in In) P {
	a.Add(in)
	return a
}

func (f *scoreCombineFn[A, In, P]) MergeAccumulators(a, b P) P {
	a.Merge(b)
	return a
}

func (f *scoreCombineFn[A, In, P]) ExtractOutput(a P) []schemas.ScoreRow { return a.ScoreRows(f.Run) }

// registerScoreCombiner registers scoreCombineFn over A and A's coder.
func registerScoreCombiner[A, In any, P scoreAcc[A, In]](enc func(P) ([]byte, error), dec func([]byte) (P, error)) {
	register.Combiner3[P, In, []schemas.ScoreRow](&scoreCombineFn[A, In, P]{})
	beam.RegisterCoder(reflect.TypeOf(P(nil)), enc, dec)
}

// combineScores combines each key of keyed (KV<string, In>) into its score rows
// (KV<string, []ScoreRow>) with the accumulator A.
func combineScores[A, In any, P scoreAcc[A, In]](s beam.Scope, run string, keyed beam.PCollection) beam.PCollection {
	return beam.CombinePerKey(s, &scoreCombineFn[A, In, P]{Run: run}, keyed)
}

// flattenScores emits the score rows of one key.
func flattenScores(_ string, rows []schemas.ScoreRow, emit func(schemas.ScoreRow)) {
	for _, r := range rows {
		emit(r)
	}
}

func gobEncode(v any) ([]byte, error) {
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode(v)
	return b.Bytes(), err
}

func gobDecode[P any](data []byte, v P) (P, error) {
	return v, gob.NewDecoder(bytes.NewReader(data)).Decode(v)
}

func encodeCAAcc(a *score.CAAcc) ([]byte, error)           { return gobEncode(a) }
func decodeCAAcc(b []byte) (*score.CAAcc, error)           { return gobDecode(b, &score.CAAcc{}) }
func encodeMBTAAcc(a *mbta.ScoreAcc) ([]byte, error)       { return gobEncode(a) }
func decodeMBTAAcc(b []byte) (*mbta.ScoreAcc, error)       { return gobDecode(b, &mbta.ScoreAcc{}) }
func encodePropAcc(a *properties.ScoreAcc) ([]byte, error) { return gobEncode(a) }
func decodePropAcc(b []byte) (*properties.ScoreAcc, error) {
	return gobDecode(b, &properties.ScoreAcc{})
}
func encodeConsAcc(a *consistency.ScoreAcc) ([]byte, error) { return gobEncode(a) }
func decodeConsAcc(b []byte) (*consistency.ScoreAcc, error) {
	return gobDecode(b, &consistency.ScoreAcc{})
}
func encodeEffAcc(a *efficiency.ScoreAcc) ([]byte, error) { return gobEncode(a) }
func decodeEffAcc(b []byte) (*efficiency.ScoreAcc, error) {
	return gobDecode(b, &efficiency.ScoreAcc{})
}
