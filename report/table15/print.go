package table15

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"transmute/data/paper"
	"transmute/schemas"
	"transmute/transforms/score"
)

// DefaultResamples is the bootstrap's resample count (as the efficiency job's).
const DefaultResamples = 2000

// Input is what the report reads: a run that scored Pass on the TRACE tasks
// (evaluate or efficiency job), and optionally an efficiency run with profiles.
type Input struct {
	Scores    []schemas.ScoreRow
	Results   []schemas.ResultRow // optional: why failing tasks failed
	EffScores []schemas.ScoreRow  // optional: Beyond and Table 14
	Profiles  []schemas.ProfileRow
	Resamples int // 0: DefaultResamples
}

var dirNames = map[string]string{schemas.Cpp: "C++", schemas.Java: "Java", schemas.Python: "Py"}

func dirName(d paper.Direction) string { return dirNames[d.Src] + "->" + dirNames[d.Tgt] }

func fmtCauses(m map[string]int) string {
	if len(m) == 0 {
		return "-"
	}
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool {
		if m[ks[i]] != m[ks[j]] {
			return m[ks[i]] > m[ks[j]]
		}
		return ks[i] < ks[j]
	})
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// Summary is the Pass comparison's count.
type Summary struct {
	Cells, Meets int
	ByVerdict    map[Verdict]int
}

// Summarize counts the cells that meet the criterion.
func Summarize(cells []PassCell) Summary {
	s := Summary{Cells: len(cells), ByVerdict: map[Verdict]int{}}
	for _, c := range cells {
		s.ByVerdict[c.Verdict]++
		if c.Verdict.Meets() {
			s.Meets++
		}
	}
	return s
}

// Print writes the comparison with Table 15 (Pass; Beyond and Table 14 when an
// efficiency run is given).
func Print(w io.Writer, in Input) error {
	cells, err := paper.Table15()
	if err != nil {
		return err
	}
	pass, alt, src := PassFromScores(in.Scores)
	if len(pass) == 0 {
		return fmt.Errorf("table15: the run has no Pass on TRACE tasks (no score rows of corpus trace, oracle target_gold, or subset every_task)")
	}
	pcs := ComparePass(cells, pass, alt)
	var causes map[Key]map[string]int
	if len(in.Results) > 0 {
		causes = FailureCauses(in.Results)
	}

	fmt.Fprintf(w, "Pass on TRACE tasks against TRACE's Table 15\nsource: %s\n", src)
	fmt.Fprintf(w, "ours = passed/tasks; interval: Wilson 95%% on our tasks; verdict: within %.0f points, or the paper's figure inside the interval, or OUTSIDE\n", PassTolerancePoints)
	byDir := map[paper.Direction][]PassCell{}
	for _, c := range pcs {
		byDir[c.Dir] = append(byDir[c.Dir], c)
	}
	for _, d := range paper.TraceDirections {
		fmt.Fprintf(w, "\n%s\n", dirName(d))
		hasAlt := false
		for _, c := range byDir[d] {
			hasAlt = hasAlt || c.HaveAlt
		}
		fmt.Fprintf(w, "%-28s %-14s %6s %9s %-14s %6s %6s  %-11s", "model", "alias", "ours", "k/n", "interval", "paper", "diff", "verdict")
		if hasAlt {
			fmt.Fprintf(w, " %s", "C++ conv.")
		}
		fmt.Fprintln(w)
		var sumDiff, sumAbs, sumExp float64
		nd, meets, nTasks := 0, 0, 0
		for _, c := range byDir[d] {
			if !c.Have {
				fmt.Fprintf(w, "%-28s %-14s %6s %9s %-14s %6.1f %6s  %-11s\n", c.Model, c.Alias, "-", "-", "-", c.Pass, "-", c.Verdict)
				continue
			}
			fmt.Fprintf(w, "%-28s %-14s %6.1f %9s %-14s %6.1f %+6.1f  %-11s", c.Model, c.Alias, c.Ours.Pct(),
				fmt.Sprintf("%d/%d", c.Ours.Passed, c.Ours.N), fmt.Sprintf("[%.1f, %.1f]", c.Lo, c.Hi), c.Pass, c.Diff, c.Verdict)
			if c.HaveAlt {
				fmt.Fprintf(w, " %.1f", c.Alt.Pct())
			}
			fmt.Fprintln(w)
			sumDiff += c.Diff
			sumAbs += math.Abs(c.Diff)
			sumExp += ExpectedAbsDiff(c.Pass/100, c.Ours.N)
			nTasks = c.Ours.N
			nd++
			if c.Verdict.Meets() {
				meets++
			}
		}
		if nd > 0 {
			fmt.Fprintf(w, "%s: %d of %d cells meet; mean difference %+.1f points, mean |difference| %.1f (from sampling %d tasks alone, binomial at the paper's figure: %.1f)\n",
				dirName(d), meets, len(byDir[d]), sumDiff/float64(nd), sumAbs/float64(nd), nTasks, sumExp/float64(nd))
		}
	}
	s := Summarize(pcs)
	fmt.Fprintf(w, "\nCells within %.0f points or inside the interval: %d of %d (%.1f%%; target >= 90%%): within %d, in interval %d, outside %d, no result %d\n",
		PassTolerancePoints, s.Meets, s.Cells, 100*float64(s.Meets)/float64(s.Cells),
		s.ByVerdict[VerdictWithin], s.ByVerdict[VerdictInside], s.ByVerdict[VerdictOutside], s.ByVerdict[VerdictNoResult])
	fmt.Fprintln(w, "The other cells (failing tasks by cause: the program's status, or its first failing test's; wrong_output = ran, different value):")
	for _, c := range pcs {
		if c.Verdict.Meets() {
			continue
		}
		if !c.Have {
			fmt.Fprintf(w, "  %-28s %-9s no result in the run (paper %.1f)\n", c.Model, dirName(c.Dir), c.Pass)
			continue
		}
		line := fmt.Sprintf("  %-28s %-9s ours %.1f (%d/%d) [%.1f, %.1f], paper %.1f, diff %+.1f",
			c.Model, dirName(c.Dir), c.Ours.Pct(), c.Ours.Passed, c.Ours.N, c.Lo, c.Hi, c.Pass, c.Diff)
		if c.HaveAlt {
			line += fmt.Sprintf("; C++ conversions %.1f", c.Alt.Pct())
		}
		if causes != nil {
			line += "; fails: " + fmtCauses(causes[Key{c.Model, c.Dir}])
		}
		fmt.Fprintln(w, line)
	}
	if causes != nil {
		fmt.Fprintln(w, "\nFailing tasks by cause, per direction (all 28 models together):")
		for _, d := range paper.TraceDirections {
			tot := map[string]int{}
			for k, m := range causes {
				if k.Dir == d {
					for c, n := range m {
						tot[c] += n
					}
				}
			}
			fmt.Fprintf(w, "  %-9s %s\n", dirName(d), fmtCauses(tot))
		}
	}

	resamples := in.Resamples
	if resamples <= 0 {
		resamples = DefaultResamples
	}
	var cmp Comparison
	if len(in.EffScores) > 0 {
		cmp = Compare(cells, pass, in.EffScores, in.Profiles, resamples, 0.95)
		printBeyond(w, in, cells, cmp)
	} else {
		cmp = Compare(cells, pass, nil, nil, resamples, 0.95)
	}
	fmt.Fprintln(w)
	cmp.Print(w)
	if len(in.EffScores) > 0 {
		printReselection(w, in.EffScores)
	}
	return nil
}

// printBeyond writes our Beyond figures beside Table 15's per direction, with
// the ranks, and rho's detail (p-values, both intervals, by sample size).
func printBeyond(w io.Writer, in Input, cells []paper.Table15Cell, cmp Comparison) {
	resamples := cmp.Resamples
	ours := BeyondFromScores(in.EffScores)
	var models []string
	seen := map[string]bool{}
	for _, c := range cells {
		if !seen[c.Model] {
			seen[c.Model] = true
			models = append(models, c.Model)
		}
	}
	paperOf := map[Key]paper.Figures{}
	for _, c := range cells {
		paperOf[Key{c.Model, c.Dir}] = c.Figures
	}
	rhoOf := map[string]DirRho{}
	for _, dr := range cmp.Dirs {
		rhoOf[dr.Dir.String()+" "+dr.Metric] = dr
	}
	fmt.Fprintf(w, "\nBeyond against Table 15 (efficiency run, usable tasks; ours / paper; rank 1 = highest B^P; rho: Spearman of the models' B^P against the paper's, with a %d-resample bootstrap over tasks)\n", resamples)
	for _, d := range paper.TraceDirections {
		any := false
		for _, m := range models {
			_, ok := ours[Key{m, d}]
			any = any || ok
		}
		if !any {
			fmt.Fprintf(w, "\n%s: no Beyond figures in the efficiency run\n", dirName(d))
			continue
		}
		fmt.Fprintf(w, "\n%s\n%-28s %13s %13s %13s %13s %9s %9s\n", dirName(d), "model", "B_T", "B_M", "B_T^P", "B_M^P", "rank T", "rank M")
		var have []string
		var xt, pt, xm, pm []float64
		for _, m := range models {
			f, ok := ours[Key{m, d}]
			if ok && f.HaveBTP {
				have = append(have, m)
				p := paperOf[Key{m, d}]
				xt, pt = append(xt, f.BTP), append(pt, p.BTP)
				xm, pm = append(xm, f.BMP), append(pm, p.BMP)
			}
		}
		rank := func(v []float64) map[string]int {
			o := make([]int, len(v))
			for i := range o {
				o[i] = i
			}
			sort.SliceStable(o, func(a, b int) bool { return v[o[a]] > v[o[b]] })
			r := map[string]int{}
			for pos, i := range o {
				r[have[i]] = pos + 1
			}
			return r
		}
		rxt, rpt, rxm, rpm := rank(xt), rank(pt), rank(xm), rank(pm)
		for _, m := range models {
			p := paperOf[Key{m, d}]
			f, ok := ours[Key{m, d}]
			if !ok {
				fmt.Fprintf(w, "%-28s %13s\n", m, "no result")
				continue
			}
			two := func(a, b float64) string { return fmt.Sprintf("%.1f/%.1f", a, b) }
			bp := func(a, b float64) string {
				if !f.HaveBTP {
					return fmt.Sprintf("-/%.1f", b)
				}
				return two(a, b)
			}
			rk := func(r1, r2 map[string]int) string {
				if !f.HaveBTP {
					return "-"
				}
				return fmt.Sprintf("%d/%d", r1[m], r2[m])
			}
			fmt.Fprintf(w, "%-28s %13s %13s %13s %13s %9s %9s\n", m, two(f.BT, p.BT), two(f.BM, p.BM), bp(f.BTP, p.BTP), bp(f.BMP, p.BMP),
				rk(rxt, rpt), rk(rxm, rpm))
		}
		for _, x := range []struct {
			name   string
			memory bool
			ref    []float64
		}{{"B_T^P", false, pt}, {"B_M^P", true, pm}} {
			// rho on the run's own B^P figures; the bootstrap's estimate is the same
			// rho from the profiles' per-task scores, and must agree
			ys := xt
			if x.memory {
				ys = xm
			}
			c := Correlate(asMap(have, ys), asMap(have, x.ref)).Spearman
			dr, ok := rhoOf[d.String()+" "+x.name]
			if len(in.Profiles) == 0 || !ok {
				fmt.Fprintf(w, "%s rho %+.2f (p %.3g, %d models; no profiles: no bootstrap)\n", x.name, c.R, c.P, c.N)
				continue
			}
			for _, v := range []struct {
				label string
				b     RhoBootstrap
			}{{"all models", dr.All}, {"without the three", dr.Without}} {
				b := v.b
				fmt.Fprintf(w, "%s rho, %s: %+.2f [%+.2f, %+.2f] (p %.3g; %d models, %d tasks; bootstrap bias %+.2f, median %+.2f; rho defined in %.0f%% of resamples)\n",
					x.name, v.label, b.Estimate.R, b.Lo, b.Hi, b.Estimate.P, b.Estimate.N, dr.Tasks, b.Bias, b.Median, 100*b.Defined)
			}
			if math.Abs(dr.All.Estimate.R-c.R) > 1e-9 {
				fmt.Fprintf(w, "  note: the profiles' B^P give rho %+.2f, not the scores' %+.2f\n", dr.All.Estimate.R, c.R)
			}
			// How the answer moves with the sample size: rho on m tasks drawn from these.
			tasks := TaskEntries(in.Profiles, have, d, x.memory)
			fmt.Fprintf(w, "  by sample size (all models; m tasks drawn with replacement; median rho [95%% percentile], share > 0):")
			for _, m := range sampleSizes(len(tasks)) {
				bm := BootstrapRhoN(tasks, x.ref, m, resamples, 0.95, DirSeed(d, x.name))
				fmt.Fprintf(w, " m=%d %+.2f [%+.2f, %+.2f] %.0f%%;", m, bm.Median, bm.Lo, bm.Hi, 100*bm.Positive)
			}
			fmt.Fprintln(w)
		}
	}
}

// printReselection writes TRACE's task selection (section 3.3) on our reference
// sets, per direction: our re-selection, not the subset compared with Table 15.
func printReselection(w io.Writer, effScores []schemas.ScoreRow) {
	sel := map[paper.Direction]schemas.ScoreRow{}
	for _, r := range effScores {
		if r.Translator == allLangs && r.Subset == score.SubsetAll && r.Metric == "tasks_selected" && r.SrcLang != allLangs {
			sel[paper.Direction{Src: r.SrcLang, Tgt: r.TgtLang}] = r
		}
	}
	for _, d := range paper.TraceDirections {
		if r, ok := sel[d]; ok {
			fmt.Fprintf(w, "  our re-selection (TRACE's task selection, section 3.3, on our measurements; subset selected, not compared with Table 15), %s: %d of %d usable tasks\n", dirName(d), int(r.Value), r.N)
		}
	}
}

func asMap(keys []string, v []float64) map[string]float64 {
	m := map[string]float64{}
	for i, k := range keys {
		m[k] = v[i]
	}
	return m
}

// sampleSizes are the task counts the report shows rho at: a quarter, half, three
// quarters and all of the n tasks (distinct, at least 2).
func sampleSizes(n int) []int {
	var out []int
	for _, f := range []int{1, 2, 3, 4} {
		m := n * f / 4
		if m >= 2 && (len(out) == 0 || out[len(out)-1] != m) {
			out = append(out, m)
		}
	}
	return out
}
