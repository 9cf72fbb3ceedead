// Package stats holds the descriptive statistics and correlations Transmute reports:
// mean, median, standard deviation, Pearson's r and Spearman's rho with two-sided
// p-values, and the R^2 of a simple least-squares fit.
//
// Written here rather than imported: the formulas are a few lines each, and gonum
// (the well-kept choice) would add a large dependency for four functions. The
// p-values use the t distribution through the regularized incomplete beta
// function (Numerical Recipes' continued fraction), checked in the tests against
// scipy.stats values.
package stats

import (
	"math"
	"sort"
)

// Mean of xs; NaN when empty.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// Median of xs; NaN when empty.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	c := append([]float64(nil), xs...)
	sort.Float64s(c)
	n := len(c)
	if n%2 == 1 {
		return c[n/2]
	}
	return (c[n/2-1] + c[n/2]) / 2
}

// Std is the population standard deviation (ddof 0, as numpy's default); NaN when empty.
func Std(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	m := Mean(xs)
	s := 0.0
	for _, x := range xs {
		s += (x - m) * (x - m)
	}
	return math.Sqrt(s / float64(len(xs)))
}

// MeanStdCV gives the mean, the sample standard deviation (ddof 1, 0 for one value)
// and the coefficient of variation std/mean (0 when the mean is not positive) of
// repeated measurements; all 0 when there are none. It is the spread that the
// profiles (CPU time, wall time, RSS over repetitions) and the noise probes report.
func MeanStdCV(xs []float64) (mean, std, cv float64) {
	if len(xs) == 0 {
		return 0, 0, 0
	}
	mean = Mean(xs)
	if len(xs) > 1 {
		ss := 0.0
		for _, x := range xs {
			ss += (x - mean) * (x - mean)
		}
		std = math.Sqrt(ss / float64(len(xs)-1))
	}
	if mean > 0 {
		cv = std / mean
	}
	return mean, std, cv
}

// Correlation is a coefficient with its two-sided p-value and sample size.
type Correlation struct {
	R float64
	P float64
	N int
}

// Pearson computes Pearson's r and its p-value (t test with n-2 degrees of freedom).
// R is NaN when a variable is constant or n < 3.
func Pearson(x, y []float64) Correlation {
	n := len(x)
	if n != len(y) || n < 3 {
		return Correlation{R: math.NaN(), P: math.NaN(), N: n}
	}
	mx, my := Mean(x), Mean(y)
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return Correlation{R: math.NaN(), P: math.NaN(), N: n}
	}
	r := sxy / math.Sqrt(sxx*syy)
	r = math.Max(-1, math.Min(1, r))
	return Correlation{R: r, P: pValueR(r, n), N: n}
}

// Spearman computes Spearman's rho (Pearson on average ranks, ties shared) and its
// p-value by the t approximation, as scipy.stats.spearmanr does.
func Spearman(x, y []float64) Correlation {
	if len(x) != len(y) {
		return Correlation{R: math.NaN(), P: math.NaN(), N: len(x)}
	}
	return Pearson(Ranks(x), Ranks(y))
}

// Ranks gives 1-based ranks, ties getting their average rank.
func Ranks(xs []float64) []float64 {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return xs[idx[a]] < xs[idx[b]] })
	r := make([]float64, len(xs))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && xs[idx[j+1]] == xs[idx[i]] {
			j++
		}
		avg := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[idx[k]] = avg
		}
		i = j + 1
	}
	return r
}

// R2 is the coefficient of determination of the least-squares line y = a + b x,
// which for one regressor equals Pearson's r squared.
func R2(x, y []float64) float64 {
	c := Pearson(x, y)
	return c.R * c.R
}

func pValueR(r float64, n int) float64 {
	df := float64(n - 2)
	if math.Abs(r) >= 1 {
		return 0
	}
	t := r * math.Sqrt(df/(1-r*r))
	return StudentTTwoSided(t, df)
}

// StudentTTwoSided is P(|T| > |t|) for Student's t with df degrees of freedom.
func StudentTTwoSided(t, df float64) float64 {
	x := df / (df + t*t)
	return RegIncBeta(df/2, 0.5, x)
}

// RegIncBeta is the regularized incomplete beta function I_x(a, b).
func RegIncBeta(a, b, x float64) float64 {
	if x <= 0 {
		return 0
	}
	if x >= 1 {
		return 1
	}
	lbeta, _ := math.Lgamma(a + b)
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	front := math.Exp(lbeta - la - lb + a*math.Log(x) + b*math.Log(1-x))
	if x < (a+1)/(a+b+2) {
		return front * betacf(a, b, x) / a
	}
	return 1 - front*betacf(b, a, 1-x)/b
}

func betacf(a, b, x float64) float64 {
	const maxIter, eps, fpmin = 300, 3e-16, 1e-300
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1-qab*x/qap
	if math.Abs(d) < fpmin {
		d = fpmin
	}
	d = 1 / d
	h := d
	for m := 1; m <= maxIter; m++ {
		fm := float64(m)
		m2 := 2 * fm
		aa := fm * (b - fm) * x / ((qam + m2) * (a + m2))
		d = 1 + aa*d
		if math.Abs(d) < fpmin {
			d = fpmin
		}
		c = 1 + aa/c
		if math.Abs(c) < fpmin {
			c = fpmin
		}
		d = 1 / d
		h *= d * c
		aa = -(a + fm) * (qab + fm) * x / ((a + m2) * (qap + m2))
		d = 1 + aa*d
		if math.Abs(d) < fpmin {
			d = fpmin
		}
		c = 1 + aa/c
		if math.Abs(c) < fpmin {
			c = fpmin
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < eps {
			break
		}
	}
	return h
}

// Quantile is the q-quantile (0 <= q <= 1) of xs with linear interpolation between
// order statistics (numpy's default, Hyndman and Fan's type 7); NaN when xs is
// empty. NaN values in xs are ignored.
func Quantile(xs []float64, q float64) float64 {
	c := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			c = append(c, x)
		}
	}
	if len(c) == 0 || math.IsNaN(q) {
		return math.NaN()
	}
	sort.Float64s(c)
	h := q * float64(len(c)-1)
	i := int(math.Floor(h))
	if i >= len(c)-1 {
		return c[len(c)-1]
	}
	if i < 0 {
		return c[0]
	}
	return c[i] + (h-float64(i))*(c[i+1]-c[i])
}
