package consistency

import (
	"fmt"
	"math"
	"testing"
)

func TestChooseThreshold(t *testing.T) {
	// Inconsistent pairs score 0.70, 0.85, 0.95; consistent ones 1, 1, 0.97, 0.90.
	s := []Labeled{{0.70, true}, {0.85, true}, {0.95, true}, {1, false}, {1, false}, {0.97, false}, {0.90, false}}
	// t in 0.96..0.97 flags 0.70, 0.85, 0.90, 0.95: TP 3, FP 1, FN 0: F1 = 6/7 (the
	// tie goes to 0.97). t = 0.86 flags 0.70 and 0.85: F1 = 4/5. t = 0.98 adds
	// 0.97: F1 = 3/4.
	th, c := ChooseThreshold(s, ThresholdGrid())
	if th != 0.97 || c != (Confusion{TP: 3, FP: 1, FN: 0, TN: 3}) {
		t.Fatalf("threshold %v %+v", th, c)
	}
	if !near(c.F1(), 6.0/7) || !near(c.Precision(), 0.75) || c.Recall() != 1 {
		t.Fatalf("P %v R %v F1 %v", c.Precision(), c.Recall(), c.F1())
	}
	// Measured elsewhere: the other half.
	other := []Labeled{{0.5, true}, {0.99, true}, {0.92, false}, {1, false}}
	m := Evaluate(other, th)
	if m != (Confusion{TP: 1, FP: 1, FN: 1, TN: 1}) || !near(m.F1(), 0.5) {
		t.Fatalf("%+v", m)
	}
	// Execution finds an inconsistency that no threshold flags: F1 0, not NaN.
	if f := Evaluate([]Labeled{{1, true}, {1, false}}, 0.5).F1(); f != 0 {
		t.Fatalf("F1 with TP 0, FN 1: %v", f)
	}
	// No inconsistency at all (the identity translator): F1 is undefined at
	// every threshold; the choice makes no error and flags nothing.
	th, c = ChooseThreshold([]Labeled{{1, false}, {1, false}}, ThresholdGrid())
	if th != 1 || c.FP != 0 || !math.IsNaN(c.F1()) {
		t.Fatalf("identity: %v %+v", th, c)
	}
}

func TestHalfOf(t *testing.T) {
	n := map[string]int{}
	for i := 0; i < 200; i++ {
		id := fmt.Sprintf("P%03d", i)
		h := HalfOf(id)
		if h != HalfOf(id) {
			t.Fatal("not deterministic")
		}
		n[h]++
	}
	// Binomial(200, 1/2): 100 +- 3 sd is 79..121.
	if n[HalfChoose]+n[HalfMeasure] != 200 || n[HalfChoose] < 79 || n[HalfChoose] > 121 {
		t.Fatalf("halves %v", n)
	}
}
