package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// naiveTauB counts every pair: the definition, O(n^2).
func naiveTauB(x, y []float64) float64 {
	var c, d, tx, ty float64
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			dx, dy := x[i]-x[j], y[i]-y[j]
			switch {
			case dx == 0 && dy == 0:
			case dx == 0:
				tx++
			case dy == 0:
				ty++
			case (dx > 0) == (dy > 0):
				c++
			default:
				d++
			}
		}
	}
	return (c - d) / math.Sqrt((c+d+tx)*(c+d+ty))
}

func TestKendallTauB(t *testing.T) {
	// scipy.stats.kendalltau's documented example: -0.47140452079103173.
	if got := KendallTauB([]float64{12, 2, 1, 12, 2}, []float64{1, 4, 7, 1, 0}); math.Abs(got+0.47140452079103173) > 1e-12 {
		t.Errorf("scipy example: %v", got)
	}
	if got := KendallTauB([]float64{1, 2, 3}, []float64{3, 2, 1}); got != -1 {
		t.Errorf("reversed: %v", got)
	}
	if got := KendallTauB([]float64{1, 1, 1}, []float64{1, 2, 3}); !math.IsNaN(got) {
		t.Errorf("constant: %v", got)
	}
	// Against the pairwise definition on data with many ties (like CA and pass).
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 50; trial++ {
		n := 2 + r.IntN(60)
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i] = float64(r.IntN(4))
			y[i] = float64(r.IntN(3)) + 0.5*x[i]
		}
		a, b := KendallTauB(x, y), naiveTauB(x, y)
		if !(math.Abs(a-b) < 1e-12 || (math.IsNaN(a) && math.IsNaN(b))) {
			t.Fatalf("n=%d: %v, naive %v", n, a, b)
		}
	}
}
