package score

import (
	"math"
	"testing"

	"transmute/schemas"
)

// TestPassAtKHandValues checks n = 5 against 1 - C(5-c, k)/C(5, k) worked out by hand:
// e.g. c = 2, k = 2: C(3,2)/C(5,2) = 3/10, so 0.7.
func TestPassAtKHandValues(t *testing.T) {
	want := [6][5]float64{ // [c][k-1]
		{0, 0, 0, 0, 0},
		{0.2, 0.4, 0.6, 0.8, 1},
		{0.4, 0.7, 0.9, 1, 1},
		{0.6, 0.9, 1, 1, 1},
		{0.8, 1, 1, 1, 1},
		{1, 1, 1, 1, 1},
	}
	for c := 0; c <= 5; c++ {
		for k := 1; k <= 5; k++ {
			if got := PassAtK(5, c, k); math.Abs(got-want[c][k-1]) > 1e-12 {
				t.Errorf("pass@%d(n=5, c=%d) = %v, want %v", k, c, got, want[c][k-1])
			}
		}
	}
	// Large n where the binomials overflow float64: C(1000,10)/C(2000,10) ~ 2^-10.
	if got := PassAtK(2000, 1000, 10); got < 0.998 || got > 0.9995 || math.IsNaN(got) {
		t.Errorf("pass@10(2000, 1000) = %v", got)
	}
}

func TestCAPassAtK(t *testing.T) {
	var rows []schemas.ResultRow
	// Problem A: 5 samples, 2 pass; B: 5 samples, none pass (each has two tests;
	// a sample passes only when both match).
	for s := int32(0); s < 5; s++ {
		for i := int32(0); i < 2; i++ {
			rows = append(rows,
				schemas.ResultRow{ProblemID: "A", Sample: s, TestIndex: i, Match: s < 2 || i == 0, Oracle: OracleSource,
					OracleStatus: schemas.StatusOK, ProgramStatus: "ok"},
				schemas.ResultRow{ProblemID: "B", Sample: s, TestIndex: i, Match: false, Oracle: OracleSource,
					OracleStatus: schemas.StatusOK, ProgramStatus: "ok"})
		}
	}
	got := map[string]float64{}
	for _, r := range CA("r", Key{"t", "c", "java", "python"}, rows) {
		if r.Subset == SubsetAll {
			got[string(r.Metric)] = r.Value
		}
	}
	// mean over A (0.4 at k=1, 1 at k=5) and B (0).
	if math.Abs(got["pass@1"]-0.2) > 1e-12 || math.Abs(got["pass@5"]-0.5) > 1e-12 {
		t.Errorf("pass@k: %v", got)
	}
	if _, ok := got["pass@10"]; ok {
		t.Error("pass@10 emitted with 5 samples")
	}
	if got["pass_rate_any_of_n"] != 0.5 || got["pass_rate_all_of_n"] != 0 {
		t.Errorf("any/all: %v", got)
	}
}
