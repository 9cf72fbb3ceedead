package pipelines

import (
	"bytes"
	"encoding/gob"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"transmute/schemas"
	"transmute/transforms/efficiency"
)

func init() {
	register.Combiner3[*efficiency.ScoreAcc, efficiency.TaskOutcome, []schemas.ScoreRow](&effCombineFn{})
	// Gob, as for score.CAAcc: one coder for every score accumulator.
	beam.RegisterCoder(reflect.TypeOf((*efficiency.ScoreAcc)(nil)), encodeEffAcc, decodeEffAcc)
	register.Function3x0(flattenEffScores)
}

// effCombineFn aggregates the task outcomes of one score key (efficiency.ScoreAcc:
// one slim record per task, as Aggregate needs every task).
type effCombineFn struct {
	Run string
}

func (f *effCombineFn) CreateAccumulator() *efficiency.ScoreAcc { return &efficiency.ScoreAcc{} }

func (f *effCombineFn) AddInput(a *efficiency.ScoreAcc, o efficiency.TaskOutcome) *efficiency.ScoreAcc {
	a.Add(o)
	return a
}

func (f *effCombineFn) MergeAccumulators(a, b *efficiency.ScoreAcc) *efficiency.ScoreAcc {
	a.Merge(b)
	return a
}

func (f *effCombineFn) ExtractOutput(a *efficiency.ScoreAcc) []schemas.ScoreRow {
	return a.Scores(f.Run)
}

// EfficiencyScore aggregates the outcomes per direction and pooled
// (keyEffOutcome) with a combiner (effCombineFn) and keeps each key's rows.
func EfficiencyScore(s beam.Scope, run string, outs beam.PCollection) beam.PCollection {
	s = s.Scope("Score")
	perKey := beam.CombinePerKey(s, &effCombineFn{Run: run}, beam.ParDo(s, keyEffOutcome, outs))
	return beam.ParDo(s, flattenEffScores, perKey)
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

func encodeEffAcc(a *efficiency.ScoreAcc) ([]byte, error) {
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode(a)
	return b.Bytes(), err
}

func decodeEffAcc(data []byte) (*efficiency.ScoreAcc, error) {
	a := &efficiency.ScoreAcc{}
	err := gob.NewDecoder(bytes.NewReader(data)).Decode(a)
	return a, err
}
