package report

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"sort"

	"transmute/schemas"
	eff "transmute/transforms/efficiency"
	"transmute/transforms/stats"
)

// Reproducibility compares two efficiency runs of the same tasks: how many
// programs got the same instruction count, and how well each cost mode's B^P
// order of the translators agrees between the runs (Spearman's rho per
// direction), both runs rescored with the same options.
type Reproducibility struct {
	Counts []CountAgreement
	Orders []OrderAgreement
}

// CountAgreement: per target language, the programs counted in both runs, how
// many counts are equal, and the largest and median relative difference.
type CountAgreement struct {
	Lang              string
	Programs, Equal   int
	MaxRel, MedianRel float64
}

// OrderAgreement: one cost mode and direction, the translators with a B^P in both
// runs, Spearman's rho of B_T^P and of B_M^P, and the mean absolute difference.
type OrderAgreement struct {
	Cost, Direction string
	Translators     int
	RhoTime, RhoMem float64
	MeanAbsDiffTime float64
	MeanAbsDiffMem  float64
}

// CompareRuns compares the profiles of run a and run b. The cost modes are the
// count mode (when both runs counted), the in-process time of the calls and the
// process CPU time.
func CompareRuns(a, b []schemas.ProfileRow) Reproducibility {
	var r Reproducibility
	type key struct {
		id, src, tgt, tr string
		role             schemas.Role
	}
	counted := map[key]int64{}
	for _, p := range a {
		if p.Instructions > 0 {
			counted[key{p.ProblemID, p.SrcLang, p.TgtLang, p.Translator, p.Role}] = p.Instructions
		}
	}
	rel := map[string][]float64{}
	for _, p := range b {
		n, ok := counted[key{p.ProblemID, p.SrcLang, p.TgtLang, p.Translator, p.Role}]
		if !ok || p.Instructions <= 0 {
			continue
		}
		rel[p.TgtLang] = append(rel[p.TgtLang], math.Abs(float64(p.Instructions-n))/float64(n))
	}
	for _, lang := range slices.Sorted(maps.Keys(rel)) {
		c := CountAgreement{Lang: lang, Programs: len(rel[lang]), MedianRel: stats.Median(rel[lang])}
		for _, x := range rel[lang] {
			if x == 0 {
				c.Equal++
			}
			c.MaxRel = math.Max(c.MaxRel, x)
		}
		r.Counts = append(r.Counts, c)
	}
	costs := []string{eff.CostCalls, eff.CostTime}
	if len(counted) > 0 {
		costs = append([]string{eff.CostCount}, costs...)
	}
	for _, cost := range costs {
		opt := eff.DefaultScoreOptions
		opt.Cost = cost
		ba, bb := eff.Rescore(a, opt), eff.Rescore(b, opt)
		for _, d := range slices.Sorted(maps.Keys(ba)) {
			var xt, yt, xm, ym []float64
			o := OrderAgreement{Cost: cost, Direction: d}
			for _, tr := range slices.Sorted(maps.Keys(ba[d])) {
				y, ok := bb[d][tr]
				if !ok {
					continue
				}
				x := ba[d][tr]
				xt, yt, xm, ym = append(xt, x.Time), append(yt, y.Time), append(xm, x.Mem), append(ym, y.Mem)
				o.MeanAbsDiffTime += math.Abs(x.Time - y.Time)
				o.MeanAbsDiffMem += math.Abs(x.Mem - y.Mem)
			}
			o.Translators = len(xt)
			if o.Translators > 0 {
				o.MeanAbsDiffTime /= float64(o.Translators)
				o.MeanAbsDiffMem /= float64(o.Translators)
			}
			o.RhoTime, o.RhoMem = stats.Spearman(xt, yt).R, stats.Spearman(xm, ym).R
			r.Orders = append(r.Orders, o)
		}
	}
	return r
}

// Print writes the comparison as two tables.
func (r Reproducibility) Print(w io.Writer) {
	fmt.Fprintln(w, "Instruction counts of the same programs in both runs:")
	fmt.Fprintf(w, "  %-8s %9s %9s %12s %12s\n", "target", "programs", "equal", "max diff", "median diff")
	for _, c := range r.Counts {
		fmt.Fprintf(w, "  %-8s %9d %9d %11.4f%% %11.4f%%\n", c.Lang, c.Programs, c.Equal, 100*c.MaxRel, 100*c.MedianRel)
	}
	fmt.Fprintln(w, "\nThe translators' B^P order in both runs (Spearman's rho; mean |difference| in points):")
	fmt.Fprintf(w, "  %-6s %-12s %5s %9s %9s %11s %11s\n", "cost", "direction", "n", "rho B_T^P", "rho B_M^P", "|dB_T^P|", "|dB_M^P|")
	sort.SliceStable(r.Orders, func(i, j int) bool { return r.Orders[i].Cost < r.Orders[j].Cost })
	for _, o := range r.Orders {
		fmt.Fprintf(w, "  %-6s %-12s %5d %9.3f %9.3f %11.2f %11.2f\n", o.Cost, o.Direction, o.Translators, o.RhoTime, o.RhoMem,
			o.MeanAbsDiffTime, o.MeanAbsDiffMem)
	}
	fmt.Fprintln(w, "\ncount: instructions and allocation peak (deterministic); calls: thread CPU of the calls in the process and peak RSS; time: process CPU and peak RSS (TRACE's ET and PM).")
}
