package growth

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Fit is a growth exponent: the slope of log cost on log size.
type Fit struct {
	// Points is the number of (size, cost) pairs fitted; the other fields are
	// set when it is at least 3.
	Points int
	// Exponent is the ordinary least-squares slope; Lo and Hi its two-sided
	// interval at the fit's level (Student's t on Points-2 degrees of freedom
	// times the slope's standard error); R2 the fit's coefficient of
	// determination.
	Exponent, Lo, Hi, R2 float64
}

// OK reports whether the fit has an exponent.
func (f Fit) OK() bool { return f.Points >= 3 }

// FitExponent fits log(max(cost, floor)) = a + b log(size) by ordinary least
// squares over the pairs with a positive size and a cost >= 0 (a negative cost
// marks a size the program did not run correctly) and returns b with its
// interval at level (0.95 when not in (0, 1)). The floor stands for the
// measurement's resolution: a cost below it (a program whose cost does not grow,
// measured net of the harness) counts as the floor, so that noise at the
// resolution does not become a slope.
func FitExponent(sizes, costs []float64, floor, level float64) Fit {
	if level <= 0 || level >= 1 {
		level = 0.95
	}
	var x, y []float64
	for i := range sizes {
		if i >= len(costs) || sizes[i] <= 0 || costs[i] < 0 || math.IsNaN(costs[i]) {
			continue
		}
		x = append(x, math.Log(sizes[i]))
		y = append(y, math.Log(math.Max(costs[i], math.Max(floor, 1e-300))))
	}
	f := Fit{Points: len(x)}
	if f.Points < 3 {
		return f
	}
	alpha, beta := stat.LinearRegression(x, y, nil, false)
	mx := stat.Mean(x, nil)
	var sxx, sse float64
	for i := range x {
		sxx += (x[i] - mx) * (x[i] - mx)
		r := y[i] - alpha - beta*x[i]
		sse += r * r
	}
	if sxx == 0 {
		f.Points = 0
		return f
	}
	se := math.Sqrt(sse / float64(f.Points-2) / sxx)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(f.Points - 2)}.Quantile(1 - (1-level)/2)
	f.Exponent, f.Lo, f.Hi = beta, beta-t*se, beta+t*se
	f.R2 = stat.RSquared(x, y, nil, alpha, beta)
	if math.IsNaN(f.R2) { // every cost equal: a flat line fits exactly
		f.R2 = 1
	}
	return f
}

// Regression reports whether a program's fit exceeds a reference's by a clear
// margin: its exponent is at least margin above the reference's and its interval
// lies wholly above the reference's interval.
func Regression(prog, ref Fit, margin float64) bool {
	if !prog.OK() || !ref.OK() {
		return false
	}
	return prog.Exponent-ref.Exponent >= margin && prog.Lo > ref.Hi
}
