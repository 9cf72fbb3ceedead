package pipelines

import (
	"bytes"
	"encoding/gob"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"transmute/schemas"
	"transmute/transforms/mbta"
)

func init() {
	register.Combiner3[*mbta.ScoreAcc, mbta.Group, []schemas.ScoreRow](&mbtaCombineFn{})
	// Gob, as for score.CAAcc: the accumulator's maps have pointer values, which
	// the row coder does not take.
	beam.RegisterCoder(reflect.TypeOf((*mbta.ScoreAcc)(nil)), encodeMBTAAcc, decodeMBTAAcc)
}

// mbtaCombineFn combines the groups of one (translator, corpus, direction) into its
// MBTA scores (mbta.ScoreAcc): counts and one small record per problem instead of
// every problem's mutant and result rows in one DoFn call.
type mbtaCombineFn struct {
	Run string
}

func (f *mbtaCombineFn) CreateAccumulator() *mbta.ScoreAcc { return &mbta.ScoreAcc{} }

func (f *mbtaCombineFn) AddInput(a *mbta.ScoreAcc, g mbta.Group) *mbta.ScoreAcc {
	a.Add(g)
	return a
}

func (f *mbtaCombineFn) MergeAccumulators(a, b *mbta.ScoreAcc) *mbta.ScoreAcc {
	a.Merge(b)
	return a
}

func (f *mbtaCombineFn) ExtractOutput(a *mbta.ScoreAcc) []schemas.ScoreRow {
	return a.Scores(f.Run, a.Key)
}

// MBTAScore scores each (translator, corpus, direction) of the problems' outputs
// with a combiner (mbtaCombineFn).
func MBTAScore(s beam.Scope, run string, outs beam.PCollection) beam.PCollection {
	s = s.Scope("Score")
	perKey := beam.CombinePerKey(s, &mbtaCombineFn{Run: run}, beam.ParDo(s, splitMBTAGroups, outs))
	return beam.ParDo(s, flattenScores, perKey)
}

func encodeMBTAAcc(a *mbta.ScoreAcc) ([]byte, error) {
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode(a)
	return b.Bytes(), err
}

func decodeMBTAAcc(data []byte) (*mbta.ScoreAcc, error) {
	a := &mbta.ScoreAcc{}
	err := gob.NewDecoder(bytes.NewReader(data)).Decode(a)
	return a, err
}
