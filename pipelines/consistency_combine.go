package pipelines

import (
	"bytes"
	"encoding/gob"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"transmute/schemas"
	"transmute/transforms/consistency"
)

func init() {
	register.Combiner3[*consistency.ScoreAcc, ConsistencyGroup, []schemas.ScoreRow](&consistencyCombineFn{})
	// Gob, as for score.CAAcc: the accumulator's maps have pointer values.
	beam.RegisterCoder(reflect.TypeOf((*consistency.ScoreAcc)(nil)), encodeConsAcc, decodeConsAcc)
}

// consistencyCombineFn combines the problems' pairs and repairs of one
// (translator, corpus, direction) into its scores (consistency.ScoreAcc): counts
// per threshold bin and small repair records instead of every row in one DoFn call.
type consistencyCombineFn struct {
	Run string
}

func (f *consistencyCombineFn) CreateAccumulator() *consistency.ScoreAcc {
	return &consistency.ScoreAcc{}
}

func (f *consistencyCombineFn) AddInput(a *consistency.ScoreAcc, g ConsistencyGroup) *consistency.ScoreAcc {
	a.Add(consistency.Key{Translator: g.Translator, Corpus: g.Corpus, SrcLang: g.SrcLang, TgtLang: g.TgtLang}, g.Results, g.Repairs)
	return a
}

func (f *consistencyCombineFn) MergeAccumulators(a, b *consistency.ScoreAcc) *consistency.ScoreAcc {
	a.Merge(b)
	return a
}

func (f *consistencyCombineFn) ExtractOutput(a *consistency.ScoreAcc) []schemas.ScoreRow {
	return a.Scores(f.Run, a.Key)
}

// ConsistencyScore scores each (translator, corpus, direction) of the problems'
// outputs with a combiner (consistencyCombineFn).
func ConsistencyScore(s beam.Scope, run string, outs beam.PCollection) beam.PCollection {
	s = s.Scope("Score")
	perKey := beam.CombinePerKey(s, &consistencyCombineFn{Run: run}, beam.ParDo(s, splitConsGroups, outs))
	return beam.ParDo(s, flattenScores, perKey)
}

func encodeConsAcc(a *consistency.ScoreAcc) ([]byte, error) {
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode(a)
	return b.Bytes(), err
}

func decodeConsAcc(data []byte) (*consistency.ScoreAcc, error) {
	a := &consistency.ScoreAcc{}
	err := gob.NewDecoder(bytes.NewReader(data)).Decode(a)
	return a, err
}
