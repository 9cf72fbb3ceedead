package pipelines

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"transmute/schemas"
	"transmute/transforms/efficiency"
	"transmute/transforms/evaluate"
	"transmute/transforms/score"
)

// The rows of every efficiency score key together are the rows of one aggregate
// over every task: keying by direction loses and duplicates nothing.
func TestEfficiencyScoreKeys(t *testing.T) {
	task := func(id, src, tgt string) schemas.Task {
		return schemas.Task{ProblemID: id, Corpus: "trace", SrcLang: src, TgtLang: tgt}
	}
	outs := []efficiency.TaskOutcome{
		{Task: task("T1", "cpp", "java"), Translators: []string{"X", "Y"}, PassDefault: []bool{true, true},
			Profiles: []schemas.ProfileRow{effProf(schemas.RoleGroundTruth, "", 100, 1000, true),
				effProf(schemas.RoleTranslation, "X", 100, 1000, true), effProf(schemas.RoleTranslation, "Y", 200, 3000, true)}},
		{Task: task("T2", "cpp", "java"), Translators: []string{"X", "Y"}, PassDefault: []bool{true, false},
			Profiles: []schemas.ProfileRow{effProf(schemas.RoleGroundTruth, "", 100, 1000, true),
				effProf(schemas.RoleTranslation, "X", 300, 2000, true)}},
		{Task: task("T3", "java", "python"), Translators: []string{"X", "Y"}, PassDefault: []bool{false, true},
			Profiles: []schemas.ProfileRow{effProf(schemas.RoleGroundTruth, "", 50, 500, true),
				effProf(schemas.RoleTranslation, "Y", 40, 700, true)}},
		{Task: task("T4", "java", "python"), Translators: []string{"X", "Y"}, PassDefault: []bool{true, true}, NoSuite: true},
	}
	for i := range outs {
		if !outs[i].NoSuite {
			efficiency.ScoreTask(&outs[i], efficiency.DefaultScoreOptions)
		}
	}
	want := efficiency.Aggregate("r", append([]efficiency.TaskOutcome(nil), outs...))

	byKey := map[string][]efficiency.TaskOutcome{}
	for _, o := range outs {
		keyEffOutcome(efficiency.Output{Outcome: o}, func(k string, o efficiency.TaskOutcome) { byKey[k] = append(byKey[k], o) })
	}
	if len(byKey) != 3 {
		t.Fatalf("%d score keys, want 3 (two directions and the pooled key)", len(byKey))
	}
	var got []schemas.ScoreRow
	for k, os := range byKey {
		// the combiner as a runner lifts it: a partial accumulator per half, merged
		f := &scoreCombineFn[efficiency.ScoreAcc, efficiency.TaskOutcome, *efficiency.ScoreAcc]{Run: "r"}
		a, b := f.CreateAccumulator(), f.CreateAccumulator()
		for i, o := range os {
			if i%2 == 0 {
				a = f.AddInput(a, o)
			} else {
				b = f.AddInput(b, o)
			}
		}
		flattenEffScores(k, f.ExtractOutput(f.MergeAccumulators(b, a)), func(r schemas.ScoreRow) { got = append(got, r) })
	}
	key := func(r schemas.ScoreRow) string {
		return r.Translator + "|" + r.SrcLang + "|" + r.TgtLang + "|" + r.Subset + "|" + string(r.Metric)
	}
	sortRows := func(rs []schemas.ScoreRow) {
		sort.Slice(rs, func(i, j int) bool { return key(rs[i]) < key(rs[j]) })
	}
	sortRows(want)
	sortRows(got)
	if len(got) != len(want) {
		t.Fatalf("%d rows over the keys, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) && !(got[i].Value != got[i].Value && want[i].Value != want[i].Value) {
			t.Errorf("row %s: got %+v, want %+v", key(want[i]), got[i], want[i])
		}
	}
}

func profileID(r schemas.ProfileRow) string { return r.ProblemID }
func problemID(p schemas.Problem) string    { return p.ID }

func init() {
	beam.RegisterFunction(profileID)
	beam.RegisterFunction(problemID)
}

// Split emits a slice field's elements, or a plain field's value, by field path.
func TestSplit(t *testing.T) {
	p, s := beam.NewPipelineWithRoot()
	outs := beam.Create(s,
		efficiency.Output{Outcome: efficiency.TaskOutcome{Profiles: []schemas.ProfileRow{{ProblemID: "a"}, {ProblemID: "b"}}}},
		efficiency.Output{Outcome: efficiency.TaskOutcome{Profiles: []schemas.ProfileRow{{ProblemID: "c"}}}})
	ids := beam.ParDo(s, profileID, Split[schemas.ProfileRow](s, outs, "Outcome.Profiles"))
	passert.Equals(s, ids, "a", "b", "c")
	problems := beam.Create(s, evaluate.Output{Problem: schemas.Problem{ID: "p1"}}, evaluate.Output{Problem: schemas.Problem{ID: "p2"}})
	pids := beam.ParDo(s, problemID, Split[schemas.Problem](s, problems, "Problem"))
	passert.Equals(s, pids, "p1", "p2")
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if recover() == nil {
			t.Error("Split on a field of another type did not panic")
		}
	}()
	Split[schemas.ErrorRow](s, outs, "Outcome.Profiles")
}

// effProf is one profile row of the score-key test (a copy of the domain tests'
// helper, which moved with the aggregation to transforms/efficiency).
func effProf(role schemas.Role, tr string, cpu, rss float64, correct bool) schemas.ProfileRow {
	return schemas.ProfileRow{Role: role, Translator: tr, Status: schemas.StatusOK, CPUMeanMs: cpu, RSSMeanKB: rss,
		PassDefault: true, StressMatch: correct, Correct: correct, Repetitions: 5, SrcLang: "cpp", TgtLang: "java"}
}

// TestExecSerialized: the embedded Exec of the DoFns that run programs survives the
// JSON round trip by which Beam ships a DoFn to its workers (jsonx).
func TestExecSerialized(t *testing.T) {
	x := execOf(Config{Run: "r", Translators: []string{"recorded:a"}, Parallelism: 3, CPUTime: 2 * time.Second,
		WallTime: 5 * time.Second, MemoryBytes: 1 << 30, CppArgs: "gold", WorkDir: "/w", Progress: true, ExecCache: "/c"})
	for _, fn := range []any{&executeFn{Exec: x}, &effCheckFn{Exec: x}, &mbtaExpandFn{Exec: x}, &mbtaExecuteFn{Exec: x}, &consExpandFn{Exec: x}, &consExecuteFn{Exec: x},
		&propExpandFn{propBatchFn{Exec: x, MergeGroups: 2}}, &propExecuteFn{Exec: x}, &searchFn{propBatchFn{Exec: x}}} {
		b, err := json.Marshal(fn)
		if err != nil {
			t.Fatal(err)
		}
		back := reflect.New(reflect.TypeOf(fn).Elem())
		if err := json.Unmarshal(b, back.Interface()); err != nil {
			t.Fatal(err)
		}
		if got := back.Elem().FieldByName("Exec").Interface().(Exec); !reflect.DeepEqual(got, x) {
			t.Errorf("%T: Exec after the round trip %+v, want %+v", fn, got, x)
		}
		if mg := reflect.ValueOf(fn).Elem().FieldByName("MergeGroups"); mg.IsValid() {
			if got := back.Elem().FieldByName("MergeGroups").Int(); got != mg.Int() {
				t.Errorf("%T: MergeGroups after the round trip %d, want %d", fn, got, mg.Int())
			}
		}
	}
}

// TestScoresIgnoreValues: the scores of rows stripped by keyResult are those of the
// whole rows (if score ever reads Expected or Actual, keyResult must keep them).
func TestScoresIgnoreValues(t *testing.T) {
	var rows, stripped []schemas.ResultRow
	for i := 0; i < 40; i++ {
		r := schemas.ResultRow{Translator: "m", Corpus: "c", ProblemID: fmt.Sprintf("P%d", i/4), SrcLang: "java", TgtLang: "python",
			TestIndex: int32(i % 4), Expected: fmt.Sprint(i), Actual: fmt.Sprint(i + i%3), Match: i%3 == 0,
			Status: schemas.StatusOK, OracleStatus: schemas.StatusOK, ProgramStatus: schemas.StatusOK, LangDependent: i%7 == 0}
		for _, o := range []string{"source", "target_gold"} {
			r.Oracle = o
			rows = append(rows, r)
			_, s := keyResult(r)
			if s.Expected != "" || s.Actual != "" {
				t.Fatal("keyResult kept the values")
			}
			stripped = append(stripped, s)
		}
	}
	k := score.KeyOf(rows[0])
	if a, b := score.CA("r", k, rows), score.CA("r", k, stripped); len(a) == 0 || !reflect.DeepEqual(a, b) {
		t.Errorf("scores differ without the values:\n%v\n%v", a, b)
	}
}
