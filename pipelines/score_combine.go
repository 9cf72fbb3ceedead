package pipelines

import (
	"bytes"
	"encoding/gob"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"transmute/schemas"
	"transmute/transforms/score"
)

func init() {
	register.Combiner3[*score.CAAcc, schemas.ResultRow, []schemas.ScoreRow](&caCombineFn{})
	// Gob, not Beam's schema coder: the accumulator's maps have struct keys and
	// pointer values, which the row coder does not take.
	beam.RegisterCoder(reflect.TypeOf((*score.CAAcc)(nil)), encodeCAAcc, decodeCAAcc)
	register.Function3x0(flattenScores)
	register.Emitter1[schemas.ScoreRow]()
}

// caCombineFn combines the result rows of one score key into its CA and pass-rate
// scores (score.CAAcc). A combiner, not a GroupByKey: the runner lifts it, adding
// rows to per-key accumulators in the bundle that makes them, so it holds
// accumulators (counts per problem) instead of every result row of the run.
type caCombineFn struct {
	Run string
}

func (f *caCombineFn) CreateAccumulator() *score.CAAcc { return &score.CAAcc{} }

func (f *caCombineFn) AddInput(a *score.CAAcc, r schemas.ResultRow) *score.CAAcc {
	a.Add(r)
	return a
}

func (f *caCombineFn) MergeAccumulators(a, b *score.CAAcc) *score.CAAcc {
	a.Merge(b)
	return a
}

func (f *caCombineFn) ExtractOutput(a *score.CAAcc) []schemas.ScoreRow {
	return a.Scores(f.Run, a.Key)
}

// flattenScores emits the score rows of one key.
func flattenScores(_ string, rows []schemas.ScoreRow, emit func(schemas.ScoreRow)) {
	for _, r := range rows {
		emit(r)
	}
}

func encodeCAAcc(a *score.CAAcc) ([]byte, error) {
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode(a)
	return b.Bytes(), err
}

func decodeCAAcc(data []byte) (*score.CAAcc, error) {
	a := &score.CAAcc{}
	err := gob.NewDecoder(bytes.NewReader(data)).Decode(a)
	return a, err
}
