package growth

import (
	"context"
	"fmt"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/profile"
	"transmute/transforms/sandbox"
)

// TestMain lets the sandbox re-execute this test binary as its init, as the
// profiled runs need.
func TestMain(m *testing.M) { sandbox.Main(m) }

// powMeter costs a candidate whose Code is "e,c" c*n^e per input, or
// "nlogn,c" c*n*log2(n), n the length of argument 0; a suite costing more than
// limit is a timeout.
type powMeter struct {
	limit float64
	runs  int
}

func (*powMeter) Unit() string            { return "fake" }
func (*powMeter) Scale(lang string) Scale { return Scale{Floor: 1, MinCost: 1e4, MaxCost: 1e12} }

func (pm *powMeter) Measure(_ context.Context, _ string, cands []execute.Candidate, _ []schemas.Param, _ string,
	tests []schemas.Test, _ time.Duration) ([]Cost, error) {
	out := make([]Cost, len(cands))
	for k, c := range cands {
		pm.runs++
		kind, cs, _ := strings.Cut(c.Code, ",")
		coef, _ := strconv.ParseFloat(cs, 64)
		total := 0.0
		var outs []string
		for _, t := range tests {
			n := float64(strings.Count(t.Args, ",")) // the length of [[...],n]
			if kind == "nlogn" {
				total += coef * n * math.Log2(n)
			} else {
				e, _ := strconv.ParseFloat(kind, 64)
				total += coef * math.Pow(n, e)
			}
			outs = append(outs, "1")
		}
		out[k] = Cost{Value: total, Status: schemas.StatusOK, Outputs: outs}
		if pm.limit > 0 && total > pm.limit {
			out[k] = Cost{Status: schemas.StatusTimeout, Detail: "time limit exceeded"}
		}
	}
	return out, nil
}

// linearProblem is f(a int[], n int) with n = len(a), stress arrays of length n,
// and golds.
func linearProblem(golds map[string]string, n int) (schemas.Problem, []schemas.Test) {
	p := prob("LIN", []string{"a:int[]", "n:int"}, "long", "[[3,1,2],3]", "[[5,6],2]", "[[9,8,7,6],4]")
	for lang, code := range golds {
		p.Functions = append(p.Functions, schemas.Function{Lang: lang, Name: "f", Code: code})
	}
	return p, testsOf(fmt.Sprintf("[%s,%d]", arr(1, n, 0, 99), n), fmt.Sprintf("[%s,%d]", arr(2, n, 0, 99), n))
}

// The ladder and the verdicts on exact power laws: a quadratic translation of a
// linear gold is a regression (also when its largest size times out), an
// equal-complexity one and an n log n one are not; the source gold's exponent
// is reported beside.
func TestAnalyzeFlagsRegressions(t *testing.T) {
	p, st := linearProblem(map[string]string{schemas.Cpp: "1,10", schemas.Python: "1,500"}, 200)
	task := schemas.Task{ProblemID: p.ID, SrcLang: schemas.Python, TgtLang: schemas.Cpp}
	tr := func(name, code string) Translation {
		return Translation{Task: task, Translator: name, Cand: execute.Candidate{Code: code}}
	}
	in := Input{Problem: p, Stress: map[string][]schemas.Test{schemas.Cpp: st}, Tasks: []schemas.Task{task},
		Translations: []Translation{tr("same", "1,30"), tr("quad", "2,1"), tr("nlogn", "nlogn,10"), tr("quad-again", "2,1")}}
	for _, limit := range []float64{0, 5e7} {
		m := &powMeter{limit: limit}
		rows, errs := Analyze(context.Background(), m, in, Options{Run: "r", Seed: 1})
		if len(errs) > 0 || len(rows) != 5 {
			t.Fatalf("limit %v: %d rows, errors %v", limit, len(rows), errs)
		}
		by := map[string]schemas.GrowthRow{}
		for _, r := range rows {
			by[r.Translator] = r
		}
		gold := by[""]
		// 3 inputs of 200 cost 6,000 < 10,000: the ladder starts at 400.
		// (The base cost at size 25, subtracted, steepens a linear cost from 400 on
		// by 0.02.)
		if gold.Status != schemas.StatusOK || gold.Sizes != "400,800,1600,3200,6400" || math.Abs(gold.Exponent-1) > 0.03 ||
			math.Abs(gold.SourceExponent-1) > 0.03 || gold.SizeKind != KindLength || gold.SizeParams != "0" {
			t.Errorf("limit %v: gold row %+v", limit, gold)
		}
		q := by["quad"]
		if !q.Regression || !q.RegressionVsSource || math.Abs(q.Exponent-2) > 0.01 || q.Status != schemas.StatusOK {
			t.Errorf("limit %v: the quadratic translation: %+v", limit, q)
		}
		if limit > 0 && (!q.TimedOut || q.Points != 4) {
			t.Errorf("limit %v: want the quadratic timed out at the largest size, fitted on 4: %+v", limit, q)
		}
		if s := by["same"]; s.Regression || s.Status != schemas.StatusOK || math.Abs(s.Exponent-1) > 0.03 {
			t.Errorf("limit %v: equal complexity: %+v", limit, s)
		}
		if s := by["nlogn"]; s.Regression || s.Exponent < 1.05 || s.Exponent > 1.2 {
			t.Errorf("limit %v: n log n: %+v", limit, s)
		}
		sum := Summarize(rows)
		if len(sum) != 4 || sum[1].Translator != "quad" || sum[1].Regressions != 1 || len(sum[1].Examples) != 1 {
			t.Errorf("limit %v: summary %+v", limit, sum)
		}
	}
	// A problem without a size gets rows that say so, and no measurement.
	tiny := prob("TINY", []string{"a:int", "b:int"}, "int", "[1,2]", "[3,4]")
	task.ProblemID = "TINY"
	m := &powMeter{}
	rows, _ := Analyze(context.Background(), m, Input{Problem: tiny, Stress: map[string][]schemas.Test{schemas.Cpp: testsOf("[2,3]")},
		Tasks: []schemas.Task{task}, Translations: []Translation{{Task: task, Translator: "x"}}}, Options{})
	if len(rows) != 2 || rows[0].Status != schemas.StatusNoSize || rows[1].Status != schemas.StatusNoSize || m.runs != 0 {
		t.Errorf("no size: %d runs, rows %+v", m.runs, rows)
	}
}

// Hand-written O(n), O(n log n) and O(n^2) functions in each language, measured by
// instruction counts: exponents within 0.25 of the truth over the sizes used
// (n log n's is the slope of log(n log n) over them, about 1.1 to 1.2), the
// quadratic flagged against the linear gold and an equal-complexity variant not.
func TestExponentsThreeLanguages(t *testing.T) {
	if _, err := exec.LookPath("valgrind"); err != nil {
		t.Skip("valgrind not installed (scripts/deps.sh)")
	}
	// All compute the sum of a; the extra loops count in a volatile (C++, where
	// -O2 would drop an empty loop) or a local (Python: one that stays 0 or 1, as
	// CPython's cost of c += 1 grows once c passes its cache of small ints).
	funcs := map[string]map[string]string{
		schemas.Cpp: {
			"lin":   "long long f(int a[], int n) { long long s = 0; volatile int c = 0; for (int i = 0; i < n; i++) { c = c + 1; s += a[i]; } return s; }",
			"lin2":  "long long f(int a[], int n) { long long s = 0; volatile int c = 0; for (int i = 0; i < n; i += 2) { c = c + 1; s += a[i]; } for (int i = 1; i < n; i += 2) { c = c + 1; s += a[i]; } return s; }",
			"nlogn": "long long f(int a[], int n) { long long s = 0; volatile int c = 0; for (int i = 0; i < n; i++) { for (int j = 1; j <= n; j *= 2) c = c + 1; s += a[i]; } return s; }",
			"quad":  "long long f(int a[], int n) { long long s = 0; volatile int c = 0; for (int i = 0; i < n; i++) { for (int j = 0; j < n; j++) c = c + 1; s += a[i]; } return s; }",
		},
		schemas.Python: {
			"lin":   "def f(a, n):\n    s = 0\n    for i in range(n):\n        s += a[i]\n    return s\n",
			"lin2":  "def f(a, n):\n    s = 0\n    for i in range(0, n, 2):\n        s += a[i]\n    for i in range(1, n, 2):\n        s += a[i]\n    return s\n",
			"nlogn": "def f(a, n):\n    s = 0\n    for i in range(n):\n        j = 1\n        while j <= n:\n            j *= 2\n        s += a[i]\n    return s\n",
			"quad":  "def f(a, n):\n    s = 0\n    for i in range(n):\n        c = 0\n        for j in range(n):\n            c ^= 1\n        s += a[i]\n    return s\n",
		},
		schemas.Java: {
			"lin":   "static long f(int[] a, int n) { long s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }",
			"nlogn": "static long f(int[] a, int n) { long s = 0; int c = 0; for (int i = 0; i < n; i++) { for (int j = 1; j <= n; j *= 2) c++; s += a[i]; } return s; }",
			"quad":  "static long f(int[] a, int n) { long s = 0; int c = 0; for (int i = 0; i < n; i++) { for (int j = 0; j < n; j++) c++; s += a[i]; } return s; }",
		},
	}
	// The stress size is near where each language's linear gold reaches the
	// ladder's minimum, so that the walk takes a step or two.
	base := map[string]int{schemas.Cpp: 1000, schemas.Python: 400, schemas.Java: 400}
	for _, lang := range []string{schemas.Cpp, schemas.Python, schemas.Java} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			fs := funcs[lang]
			p, st := linearProblem(map[string]string{lang: fs["lin"]}, base[lang])
			task := schemas.Task{ProblemID: p.ID, SrcLang: lang, TgtLang: lang}
			in := Input{Problem: p, Stress: map[string][]schemas.Test{lang: st}, Tasks: []schemas.Task{task}}
			for _, name := range []string{"lin2", "nlogn", "quad"} {
				if code, ok := fs[name]; ok {
					in.Translations = append(in.Translations, Translation{Task: task, Translator: name,
						Cand: execute.Candidate{Code: code, Entry: "f"}})
				}
			}
			m := NewProfileMeter(profile.Options{TimeLimit: 30 * time.Second, CountTimeLimit: 120 * time.Second,
				MemoryBytes: 2 << 30, WorkDir: t.TempDir(), NoPin: true, NoRealTime: true}, false, nil)
			start := time.Now()
			rows, errs := Analyze(context.Background(), m, in, Options{Seed: 1, Inputs: 1, Sizes: 3})
			if len(errs) > 0 {
				t.Fatalf("errors: %+v", errs)
			}
			var sizes []float64
			for _, s := range strings.Split(rows[0].Sizes, ",") {
				n, _ := strconv.ParseFloat(s, 64)
				sizes = append(sizes, n)
			}
			var nlogn []float64
			for _, n := range sizes {
				nlogn = append(nlogn, n*math.Log2(n))
			}
			truthNlogn := FitExponent(sizes, nlogn, 0, 0.95).Exponent
			want := map[string]float64{"": 1, "lin2": 1, "nlogn": truthNlogn, "quad": 2}
			for _, r := range rows {
				t.Logf("%s %-5s %s: exponent %.3f [%.3f, %.3f] sizes %s costs %s", lang, r.Translator, r.Status,
					r.Exponent, r.ExponentLo, r.ExponentHi, r.Sizes, r.Costs)
				if r.Status != schemas.StatusOK || math.Abs(r.Exponent-want[r.Translator]) > 0.25 {
					t.Errorf("%s %q: exponent %.3f (status %s), want %.2f within 0.25", lang, r.Translator, r.Exponent, r.Status, want[r.Translator])
				}
				if r.Regression != (r.Translator == "quad") {
					t.Errorf("%s %q: regression %v", lang, r.Translator, r.Regression)
				}
			}
			t.Logf("%s: %d rows in %s", lang, len(rows), time.Since(start).Round(time.Millisecond))
		})
	}
}
