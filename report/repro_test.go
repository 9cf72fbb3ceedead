package report

import (
	"math"
	"testing"

	"transmute/schemas"
)

// Two runs with the same counts but for one program give Equal for the others
// and the relative difference of that one; a swapped order gives rho -1.
func TestCompareRuns(t *testing.T) {
	row := func(id string, role schemas.Role, tr string, instr int64, calls float64) schemas.ProfileRow {
		return schemas.ProfileRow{ProblemID: id, Corpus: "trace", SrcLang: "cpp", TgtLang: "java", Role: role, Translator: tr,
			Status: "ok", Correct: true, PassDefault: true, StressMatch: true, Repetitions: 1, Instructions: instr,
			CallsCPUMeanMs: calls, CPUMeanMs: 50, RSSMeanKB: 1000, AllocPeakKB: 8}
	}
	run := func(yInstr int64, calls [3]float64) []schemas.ProfileRow {
		return []schemas.ProfileRow{row("T", schemas.RoleGroundTruth, "", 100000, calls[0]),
			row("T", schemas.RoleTranslation, "X", 200000, calls[1]), row("T", schemas.RoleTranslation, "Y", yInstr, calls[2]),
			row("T", schemas.RoleTranslation, "Z", 400000, 1)}
	}
	a := run(300000, [3]float64{1, 2, 3})
	b := run(300030, [3]float64{1, 3, 2})
	r := CompareRuns(a, b)
	if len(r.Counts) != 1 || r.Counts[0].Programs != 4 || r.Counts[0].Equal != 3 || math.Abs(r.Counts[0].MaxRel-1e-4) > 1e-12 {
		t.Fatalf("counts %+v", r.Counts)
	}
	got := map[string]OrderAgreement{}
	for _, o := range r.Orders {
		got[o.Cost] = o
	}
	if o := got["count"]; o.Translators != 3 || math.Abs(o.RhoTime-1) > 1e-9 {
		t.Errorf("count order %+v, want rho 1 over 3", o)
	}
	// calls: X and Y swap places (Z, the fastest, stays first in both): rho 0.5.
	if o := got["calls"]; math.Abs(o.RhoTime-0.5) > 1e-9 {
		t.Errorf("calls order %+v, want rho 0.5", o)
	}
}
