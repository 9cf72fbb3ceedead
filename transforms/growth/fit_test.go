package growth

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Exact power laws give their exponent with a degenerate interval; noisy ones an
// interval that holds the truth; the floor flattens costs below the resolution.
func TestFitExponent(t *testing.T) {
	sizes := []float64{100, 200, 400, 800, 1600}
	for _, e := range []float64{0, 1, 2, 3} {
		var costs []float64
		for _, n := range sizes {
			costs = append(costs, 7*math.Pow(n, e)+1e4*boolF(e == 0))
		}
		f := FitExponent(sizes, costs, 1, 0.95)
		if !f.OK() || math.Abs(f.Exponent-e) > 1e-9 || f.Hi-f.Lo > 1e-6 || f.R2 < 0.999 {
			t.Errorf("n^%v: %+v", e, f)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	hits := 0
	for k := 0; k < 200; k++ {
		var costs []float64
		for _, n := range sizes {
			costs = append(costs, 3*n*n*math.Exp(0.1*r.NormFloat64()))
		}
		f := FitExponent(sizes, costs, 1, 0.95)
		if f.Lo <= 2 && 2 <= f.Hi {
			hits++
		}
	}
	// a 95% interval covers the truth in about 190 of 200 draws
	if hits < 180 || hits == 200 {
		t.Errorf("the 95%% interval covered the true exponent in %d of 200 noisy fits", hits)
	}
	// Costs under the floor count as the floor: a cost that does not grow beyond
	// the resolution has exponent 0, not the slope of its noise.
	f := FitExponent(sizes, []float64{3, 700, -2 + 5, 900, 12}, 1000, 0.95)
	if math.Abs(f.Exponent) > 1e-12 || f.Points != 5 {
		t.Errorf("floored: %+v", f)
	}
	// Failed sizes (negative costs) are left out; fewer than 3 points: no fit.
	if f := FitExponent(sizes, []float64{100, -1, 400, -1, -1}, 1, 0.95); f.OK() || f.Points != 2 {
		t.Errorf("two points: %+v", f)
	}
	if f := FitExponent(sizes, []float64{100, -1, 400, 800, -1}, 1, 0.95); !f.OK() || f.Points != 3 || math.Abs(f.Exponent-1) > 1e-9 {
		t.Errorf("three linear points: %+v", f)
	}
}

func boolF(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// A regression needs both the margin and intervals apart.
func TestRegression(t *testing.T) {
	gold := Fit{Points: 5, Exponent: 1, Lo: 0.95, Hi: 1.05}
	for _, c := range []struct {
		prog Fit
		want bool
	}{
		{Fit{Points: 5, Exponent: 2, Lo: 1.9, Hi: 2.1}, true},
		{Fit{Points: 5, Exponent: 1.02, Lo: 0.9, Hi: 1.1}, false},  // equal
		{Fit{Points: 5, Exponent: 1.2, Lo: 1.15, Hi: 1.25}, false}, // apart, below the margin
		{Fit{Points: 5, Exponent: 2, Lo: 1.0, Hi: 3.0}, false},     // intervals overlap
		{Fit{Points: 2, Exponent: 2}, false},                       // no fit
	} {
		if got := Regression(c.prog, gold, 0.5); got != c.want {
			t.Errorf("Regression(%+v) = %v, want %v", c.prog, got, c.want)
		}
	}
}
