package pipelines

import (
	"bytes"
	"encoding/gob"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"transmute/schemas"
	"transmute/transforms/properties"
)

func init() {
	register.Combiner3[*properties.ScoreAcc, schemas.PropertyResultRow, []schemas.ScoreRow](&propertiesCombineFn{})
	// Gob, as for score.CAAcc: one coder for every score accumulator.
	beam.RegisterCoder(reflect.TypeOf((*properties.ScoreAcc)(nil)), encodePropAcc, decodePropAcc)
}

// propertiesCombineFn combines the property result rows of one (translator,
// corpus, direction) into its scores (properties.ScoreAcc): counts per property
// instead of every row in one DoFn call.
type propertiesCombineFn struct {
	Run string
}

func (f *propertiesCombineFn) CreateAccumulator() *properties.ScoreAcc { return &properties.ScoreAcc{} }

func (f *propertiesCombineFn) AddInput(a *properties.ScoreAcc, r schemas.PropertyResultRow) *properties.ScoreAcc {
	a.Add(r)
	return a
}

func (f *propertiesCombineFn) MergeAccumulators(a, b *properties.ScoreAcc) *properties.ScoreAcc {
	a.Merge(b)
	return a
}

func (f *propertiesCombineFn) ExtractOutput(a *properties.ScoreAcc) []schemas.ScoreRow {
	return a.Scores(f.Run, a.Key)
}

// PropertiesScore scores each (translator, corpus, direction) of the problems'
// outputs with a combiner (propertiesCombineFn).
func PropertiesScore(s beam.Scope, run string, outs beam.PCollection) beam.PCollection {
	s = s.Scope("Score")
	perKey := beam.CombinePerKey(s, &propertiesCombineFn{Run: run}, beam.ParDo(s, splitPropKeyed, outs))
	return beam.ParDo(s, flattenScores, perKey)
}

func encodePropAcc(a *properties.ScoreAcc) ([]byte, error) {
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode(a)
	return b.Bytes(), err
}

func decodePropAcc(data []byte) (*properties.ScoreAcc, error) {
	a := &properties.ScoreAcc{}
	err := gob.NewDecoder(bytes.NewReader(data)).Decode(a)
	return a, err
}
