package score

import (
	"math"
	"testing"
)

func entries(scores ...float64) []BeyondEntry {
	e := make([]BeyondEntry, len(scores))
	for i, s := range scores {
		e[i] = BeyondEntry{Correct: !math.IsNaN(s), Score: s}
	}
	return e
}

func TestBootstrapBeyondPass(t *testing.T) {
	// Translator A scores 100 on task 0 and 0 on tasks 1 and 2; B the reverse.
	// B^P: A 33.3, B 66.7. A resample of three tasks keeps B > A when it draws
	// task 0 at most once: (2/3)^3 + 3 (1/3) (2/3)^2 = 20/27.
	tasks := [][]BeyondEntry{entries(100, 0), entries(0, 100), entries(0, 100)}
	b := BootstrapBeyondPass(tasks, 20000, 0.95, 1)
	if math.Abs(b.Estimate[0]-100.0/3) > 1e-9 || math.Abs(b.Estimate[1]-200.0/3) > 1e-9 {
		t.Errorf("estimates %v", b.Estimate)
	}
	if math.Abs(b.OrderKept-20.0/27) > 0.015 {
		t.Errorf("order kept %v, want 20/27 = %.4f", b.OrderKept, 20.0/27)
	}
	// A's B^P is 0, 33.3, 66.7 or 100 with probabilities 8, 12, 6, 1 in 27: the
	// 2.5th percentile is 0 and the 97.5th 100 (1/27 = 3.7% > 2.5%).
	if b.Lo[0] != 0 || b.Hi[0] != 100 || b.Lo[1] != 0 || b.Hi[1] != 100 {
		t.Errorf("intervals A [%v, %v] B [%v, %v], want [0, 100] each", b.Lo[0], b.Hi[0], b.Lo[1], b.Hi[1])
	}
	// At the 90% level A's interval is [0, 66.7]: P(0) = 8/27 > 5%, and
	// P(<= 66.7) = 26/27 > 95% > P(<= 33.3) = 20/27.
	h := BootstrapBeyondPass(tasks, 20000, 0.9, 1)
	if h.Lo[0] != 0 || math.Abs(h.Hi[0]-200.0/3) > 1e-9 {
		t.Errorf("90%% interval of A [%v, %v], want [0, 66.7]", h.Lo[0], h.Hi[0])
	}

	// Reproducible with the same seed.
	if c := BootstrapBeyondPass(tasks, 20000, 0.95, 1); c.OrderKept != b.OrderKept {
		t.Errorf("same seed, order kept %v then %v", b.OrderKept, c.OrderKept)
	}

	// Incorrect and absent translations do not count; constant scores give a
	// point interval; a translator without a correct translation has no order.
	tasks = [][]BeyondEntry{
		{{Correct: true, Score: 40}, {Correct: false, Score: 99}},
		{{Correct: true, Score: 40}, {}},
	}
	b = BootstrapBeyondPass(tasks, 500, 0.95, 7)
	if b.Estimate[0] != 40 || b.Lo[0] != 40 || b.Hi[0] != 40 {
		t.Errorf("constant: estimate %v [%v, %v]", b.Estimate[0], b.Lo[0], b.Hi[0])
	}
	if !math.IsNaN(b.Estimate[1]) || !math.IsNaN(b.Lo[1]) || !math.IsNaN(b.OrderKept) {
		t.Errorf("no correct translation: estimate %v lo %v order kept %v, want NaN", b.Estimate[1], b.Lo[1], b.OrderKept)
	}

	// With many tasks the interval narrows around the estimate: 400 tasks whose
	// scores alternate 0 and 100 give B^P 50 with a standard error of 2.5, so a 95%
	// interval of about 50 +- 4.9.
	tasks = nil
	for i := 0; i < 400; i++ {
		tasks = append(tasks, entries(float64(100*(i%2))))
	}
	b = BootstrapBeyondPass(tasks, 4000, 0.95, 3)
	if math.Abs(b.Lo[0]-45.1) > 1 || math.Abs(b.Hi[0]-54.9) > 1 {
		t.Errorf("400 tasks: [%v, %v], want about [45.1, 54.9]", b.Lo[0], b.Hi[0])
	}
}
