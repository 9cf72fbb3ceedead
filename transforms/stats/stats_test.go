package stats

import (
	"math"
	"testing"
)

func near(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.12g, want %.12g", name, got, want)
	}
}

func TestDescriptive(t *testing.T) {
	xs := []float64{3, 1, 4, 1, 5, 9, 2, 6}
	near(t, "mean", Mean(xs), 31.0/8, 1e-12)
	near(t, "median", Median(xs), 3.5, 1e-12)
	near(t, "median odd", Median([]float64{5, 1, 3}), 3, 0)
	// population std: sqrt(sum((x-m)^2)/n)
	m := 31.0 / 8
	s := 0.0
	for _, x := range xs {
		s += (x - m) * (x - m)
	}
	near(t, "std", Std(xs), math.Sqrt(s/8), 1e-12)
	if !math.IsNaN(Mean(nil)) || !math.IsNaN(Median(nil)) || !math.IsNaN(Std(nil)) {
		t.Error("empty input should give NaN")
	}
}

func TestStudentTClosedForms(t *testing.T) {
	// df=1 is the Cauchy distribution: P(|T|>1) = 0.5, P(|T|>t) = 1 - 2/pi*atan(t).
	for _, x := range []float64{0.3, 1, 2.5, 10} {
		near(t, "t1", StudentTTwoSided(x, 1), 1-2/math.Pi*math.Atan(x), 1e-10)
	}
	// df=2: P(|T|>t) = 1 - t/sqrt(2+t^2).
	for _, x := range []float64{0.1, 1, 3, 7} {
		near(t, "t2", StudentTTwoSided(x, 2), 1-x/math.Sqrt(2+x*x), 1e-10)
	}
	// Large df tends to the normal: P(|Z|>1.96) = 0.0499958.
	near(t, "t_inf", StudentTTwoSided(1.959963984540054, 1e7), 0.05, 1e-5)
}

func TestPearsonSpearman(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5}
	y := []float64{2, 4, 5, 4, 5}
	c := Pearson(x, y)
	// r = 6 / sqrt(10 * 6)
	near(t, "pearson r", c.R, 6/math.Sqrt(60), 1e-12)
	tt := c.R * math.Sqrt(3/(1-c.R*c.R))
	near(t, "pearson p", c.P, StudentTTwoSided(tt, 3), 1e-12)
	near(t, "pearson p value", c.P, 0.1240270626, 1e-6)
	near(t, "r2", R2(x, y), 0.6, 1e-12)

	// Ranks with ties: y ranks = [1, 2.5, 4.5, 2.5, 4.5]
	r := Ranks(y)
	want := []float64{1, 2.5, 4.5, 2.5, 4.5}
	for i := range r {
		near(t, "rank", r[i], want[i], 0)
	}
	s := Spearman(x, y)
	near(t, "spearman", s.R, Pearson(x, want).R, 1e-12)
	// A monotone but non-linear relation has rho exactly 1 and p 0.
	s = Spearman([]float64{1, 2, 3, 4}, []float64{1, 8, 27, 64})
	near(t, "spearman monotone", s.R, 1, 1e-12)
	near(t, "spearman monotone p", s.P, 0, 0)
	if c := Pearson([]float64{1, 1, 1}, []float64{1, 2, 3}); !math.IsNaN(c.R) {
		t.Error("constant variable should give NaN")
	}
}

func TestQuantile(t *testing.T) {
	xs := []float64{4, 1, math.NaN(), 3, 2}
	for _, c := range []struct{ q, want float64 }{{0, 1}, {0.25, 1.75}, {0.5, 2.5}, {0.975, 3.925}, {1, 4}} {
		near(t, "quantile", Quantile(xs, c.q), c.want, 1e-12) // numpy.quantile([1,2,3,4], q)
	}
	if !math.IsNaN(Quantile(nil, 0.5)) || !math.IsNaN(Quantile([]float64{math.NaN()}, 0.5)) {
		t.Error("quantile of nothing is not NaN")
	}
	if Quantile([]float64{7}, 0.3) != 7 {
		t.Error("quantile of one value")
	}
}

func TestMeanStdCV(t *testing.T) {
	// 10, 10, 14, 10: mean 11, sample std sqrt((1+1+9+1)/3) = 2, CV 2/11.
	m, s, cv := MeanStdCV([]float64{10, 10, 14, 10})
	if m != 11 || math.Abs(s-2) > 1e-12 || math.Abs(cv-2.0/11) > 1e-12 {
		t.Errorf("got %v %v %v, want 11 2 %v", m, s, cv, 2.0/11)
	}
	if m, s, cv := MeanStdCV([]float64{5}); m != 5 || s != 0 || cv != 0 {
		t.Errorf("one value: %v %v %v", m, s, cv)
	}
	if m, s, cv := MeanStdCV(nil); m != 0 || s != 0 || cv != 0 {
		t.Errorf("none: %v %v %v", m, s, cv)
	}
	if _, s, cv := MeanStdCV([]float64{0, 0}); s != 0 || cv != 0 {
		t.Errorf("zero mean: std %v CV %v", s, cv)
	}
}
