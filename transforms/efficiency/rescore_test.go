package efficiency

import (
	"testing"

	"transmute/schemas"
)

// Rescoring a run's profile rows gives the B^P that Aggregate gives on the same
// outcomes, and the calls mode ranks by the in-process time of the calls, not by
// the process's CPU.
func TestRescore(t *testing.T) {
	prof := func(id string, role schemas.Role, tr string, cpu, calls float64) schemas.ProfileRow {
		p := effProf(role, tr, cpu, 1000+cpu, true)
		p.ProblemID, p.Corpus, p.CallsCPUMeanMs = id, "trace", calls
		return p
	}
	rows := []schemas.ProfileRow{
		prof("T1", schemas.RoleGroundTruth, "", 100, 1), prof("T1", schemas.RoleTranslation, "X", 100, 5),
		prof("T1", schemas.RoleTranslation, "Y", 200, 1), prof("T2", schemas.RoleGroundTruth, "", 100, 1),
		prof("T2", schemas.RoleTranslation, "X", 300, 1), prof("T2", schemas.RoleTranslation, "Z", 200, 3),
	}
	outs := Outcomes(rows)
	if len(outs) != 2 || len(outs[0].Translators) != 2 || outs[1].Task.ProblemID != "T2" {
		t.Fatalf("outcomes %+v", outs)
	}
	for i := range outs {
		ScoreTask(&outs[i], DefaultScoreOptions)
	}
	agg := map[string]float64{}
	for _, r := range Aggregate("r", outs) {
		if r.SrcLang == "cpp" && r.Subset == SubsetAllTasks && r.Metric == schemas.MetricBeyondTimePass {
			agg[r.Translator] = r.Value
		}
	}
	got := Rescore(rows, DefaultScoreOptions)["cpp-java"]
	if len(got) != 3 || len(agg) != 3 {
		t.Fatalf("rescored %v, aggregated %v", got, agg)
	}
	for tr, b := range got {
		effNear(t, tr+" B_T^P", b.Time, agg[tr])
	}
	// process CPU: T1 X 100 Y 0, T2 X 0 Z 50. Calls: T1 X 0 Y 100, T2 X 100 Z 0.
	calls := Rescore(rows, ScoreOptions{Resolution: DefaultResolution, Cost: CostCalls})["cpp-java"]
	for tr, want := range map[string]float64{"X": 50, "Y": 100, "Z": 0} {
		effNear(t, tr+" calls B_T^P", calls[tr].Time, want)
	}
}
