package table15

import (
	"fmt"
	"io"
	"math"
	"sort"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"transmute/data/paper"
	"transmute/schemas"
	"transmute/transforms/stats"
)

// PromptStrategyAliases are the three models of TRACE's prompt-strategy
// experiment, by the paper's names. In Table 15 they are the top three by B_T^P
// and B_M^P in both directions into Java and the bottom three into Python, which
// no harness that measures the translations reproduces if it is an effect of how
// the paper's batch was measured; the comparison is given with and without them.
var PromptStrategyAliases = []string{"Claude-4", "DS-V3.2", "GPT-4o"}

// PromptStrategyModels resolves PromptStrategyAliases to Table 15's model names
// (our translators' names: claude-sonnet-4, deepseek-chat, gpt-4o).
func PromptStrategyModels(cells []paper.Table15Cell) map[string]bool {
	alias := map[string]bool{}
	for _, a := range PromptStrategyAliases {
		alias[a] = true
	}
	out := map[string]bool{}
	for _, c := range cells {
		if alias[c.Alias] {
			out[c.Model] = true
		}
	}
	return out
}

// Without returns the models not in drop and their ref values, in order.
func Without(models []string, ref []float64, drop map[string]bool) ([]string, []float64) {
	var ms []string
	var rs []float64
	for i, m := range models {
		if !drop[m] {
			ms = append(ms, m)
			rs = append(rs, ref[i])
		}
	}
	return ms, rs
}

// CorrTests are Pearson's r and Spearman's rho (Pearson on average ranks) of x and
// y with two-sided p-values from Student's t on n-2 degrees of freedom,
// t = r sqrt((n-2)/(1-r^2)): the exact test of r = 0 under normality, and for rho
// the approximation scipy.stats.spearmanr uses. gonum computes r and the t
// distribution. R and P are NaN when n < 3 or a variable is constant.
func CorrTests(x, y []float64) (pearson, spearman stats.Correlation) {
	return corrTest(x, y), corrTest(stats.Ranks(x), stats.Ranks(y))
}

// SpearmanR is Spearman's rho alone (NaN as in CorrTests), for the bootstrap.
func SpearmanR(x, y []float64) float64 { return pearsonR(stats.Ranks(x), stats.Ranks(y)) }

func pearsonR(x, y []float64) float64 {
	if len(x) != len(y) || len(x) < 3 {
		return math.NaN()
	}
	r := stat.Correlation(x, y, nil) // NaN (0/0) when a variable is constant
	return math.Max(-1, math.Min(1, r))
}

func corrTest(x, y []float64) stats.Correlation {
	n := len(x)
	r := pearsonR(x, y)
	if math.IsNaN(r) {
		return stats.Correlation{R: math.NaN(), P: math.NaN(), N: n}
	}
	return stats.Correlation{R: r, P: CorrP(r, n), N: n}
}

// CorrP is the two-sided p-value of a correlation r on n pairs by the t test
// (the p-value the paper's printed r implies for its 28 models).
func CorrP(r float64, n int) float64 {
	if n < 3 || math.IsNaN(r) {
		return math.NaN()
	}
	if math.Abs(r) >= 1 {
		return 0
	}
	df := float64(n - 2)
	t := math.Abs(r) * math.Sqrt(df/(1-r*r))
	return 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(t)
}

// DirRho is the order of one direction's B^P against Table 15's.
type DirRho struct {
	Dir     paper.Direction
	Metric  string // B_T^P or B_M^P
	Tasks   int    // usable tasks the bootstrap resamples
	Models  []string
	All     RhoBootstrap // every model with a B^P
	Without RhoBootstrap // the same without PromptStrategyModels
	// WithoutModels are the models of Without (Models less the three).
	WithoutModels []string
}

// T14Row is one line of Table 14 side by side: Pass against B_T^P and B_M^P
// across models. The paper's printed line has the printed r and rho, with the
// p-values they imply for 28 models (the paper prints only p < 0.05).
type T14Row struct {
	Label    string
	BTP, BMP Correlations
}

// Comparison is our B^P order per direction and Table 14 against the paper's,
// with and without the prompt-strategy models.
type Comparison struct {
	Resamples int
	Level     float64
	Measure   string // the profiles' TimeMeasure (what B_T was computed from)
	Dirs      []DirRho
	Table14   []T14Row
	Dropped   []string // the models left out of the "without" figures
}

// Compare computes the comparison from an efficiency run's score rows (B^P per
// model and direction, pooled B^P) and profiles (the per-task scores the
// bootstrap resamples), with pass the Pass per cell (PassFromScores). The
// bootstrap draws every usable task with replacement resamples times (seeded per
// direction and metric) and recomputes each model's B^P and rho; the intervals
// are percentile intervals at level.
func Compare(cells []paper.Table15Cell, pass map[Key]Rate, effScores []schemas.ScoreRow, profiles []schemas.ProfileRow, resamples int, level float64) Comparison {
	drop := PromptStrategyModels(cells)
	cmp := Comparison{Resamples: resamples, Level: level}
	for m := range drop {
		cmp.Dropped = append(cmp.Dropped, m)
	}
	sort.Strings(cmp.Dropped)
	for _, p := range profiles {
		if p.TimeMeasure != "" {
			cmp.Measure = p.TimeMeasure
			break
		}
	}
	ours := BeyondFromScores(effScores)
	var models []string
	seen := map[string]bool{}
	paperOf := map[Key]paper.Figures{}
	for _, c := range cells {
		if !seen[c.Model] {
			seen[c.Model] = true
			models = append(models, c.Model)
		}
		paperOf[Key{c.Model, c.Dir}] = c.Figures
	}
	var effDirs []paper.Direction
	for _, d := range paper.TraceDirections {
		var have []string
		var pt, pm []float64
		for _, m := range models {
			if f, ok := ours[Key{m, d}]; ok && f.HaveBTP {
				have = append(have, m)
				p := paperOf[Key{m, d}]
				pt, pm = append(pt, p.BTP), append(pm, p.BMP)
			}
		}
		if len(have) == 0 {
			continue
		}
		effDirs = append(effDirs, d)
		for _, x := range []struct {
			name   string
			memory bool
			ref    []float64
		}{{"B_T^P", false, pt}, {"B_M^P", true, pm}} {
			dr := DirRho{Dir: d, Metric: x.name, Models: have}
			tasks := TaskEntries(profiles, have, d, x.memory)
			dr.Tasks = len(tasks)
			dr.All = BootstrapRho(tasks, x.ref, resamples, level, DirSeed(d, x.name))
			wm, wr := Without(have, x.ref, drop)
			dr.WithoutModels = wm
			dr.Without = BootstrapRho(TaskEntries(profiles, wm, d, x.memory), wr, resamples, level, DirSeed(d, x.name+" without"))
			cmp.Dirs = append(cmp.Dirs, dr)
		}
	}

	// Table 14 from the paper's printed figures, from Table 15's cells (each
	// model's mean over the six directions), and ours (Pass pooled over the
	// directions the efficiency run covers, pooled B^P), each with and without.
	t14, _ := paper.Table14()
	printed := T14Row{Label: "paper, printed (1,000 tasks; p from r, n = 28)"}
	fromPrinted := func(r, rho float64) Correlations {
		return Correlations{stats.Correlation{R: r, P: CorrP(r, 28), N: 28}, stats.Correlation{R: rho, P: CorrP(rho, 28), N: 28}}
	}
	for _, r := range t14 {
		if r.Set == "full" && r.X == "pass" && r.Y == "b_t_pass" {
			printed.BTP = fromPrinted(r.PearsonR, r.SpearmanRho)
		}
		if r.Set == "full" && r.X == "pass" && r.Y == "b_m_pass" {
			printed.BMP = fromPrinted(r.PearsonR, r.SpearmanRho)
		}
	}
	cmp.Table14 = append(cmp.Table14, printed)
	ppass, pbt, pbm := map[string]float64{}, map[string]float64{}, map[string]float64{}
	for _, c := range cells {
		ppass[c.Model] += c.Pass / 6
		pbt[c.Model] += c.BTP / 6
		pbm[c.Model] += c.BMP / 6
	}
	opass := PooledPass(pass, effDirs)
	obt, obm := map[string]float64{}, map[string]float64{}
	for k, f := range ours {
		if k.Dir.Src == allLangs && f.HaveBTP {
			obt[k.Model], obm[k.Model] = f.BTP, f.BMP
		}
	}
	row := func(label string, pass, bt, bm map[string]float64, drop map[string]bool) T14Row {
		keep := func(m map[string]float64) map[string]float64 {
			out := map[string]float64{}
			for k, v := range m {
				if !drop[k] {
					out[k] = v
				}
			}
			return out
		}
		p := keep(pass)
		return T14Row{Label: label, BTP: Correlate(p, keep(bt)), BMP: Correlate(p, keep(bm))}
	}
	cmp.Table14 = append(cmp.Table14,
		row("paper, from Table 15 (mean of the 6 directions)", ppass, pbt, pbm, nil),
		row("paper, from Table 15, without the three", ppass, pbt, pbm, drop))
	if len(obt) > 0 {
		cmp.Table14 = append(cmp.Table14,
			row(fmt.Sprintf("ours (Pass pooled over %d direction%s, pooled B^P)", len(effDirs), plural(len(effDirs))), opass, obt, obm, nil),
			row("ours, without the three", opass, obt, obm, drop))
	}
	return cmp
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func fmtRho(b RhoBootstrap) string {
	if math.IsNaN(b.Estimate.R) {
		return "undefined"
	}
	mark := ""
	if b.Outside {
		mark = "*"
	}
	return fmt.Sprintf("%+.2f [%+.2f, %+.2f]%s", b.Estimate.R, b.Lo, b.Hi, mark)
}

func fmtCorr(c stats.Correlation) string {
	if math.IsNaN(c.R) {
		return "-"
	}
	return fmt.Sprintf("%+.2f (p %.2g)", c.R, c.P)
}

// Print writes the comparison: rho per direction (all models, without the three),
// then Table 14 side by side.
func (c Comparison) Print(w io.Writer) {
	if len(c.Dirs) > 0 {
		measure := c.Measure
		if measure == "" {
			measure = "not recorded"
		}
		fmt.Fprintf(w, "Spearman rho of our B^P against Table 15's across models, per direction (B_T computed from: %s).\n", measure)
		fmt.Fprintf(w, "Interval: %.0f%% percentile interval of rho over %d bootstrap resamples of the usable tasks (drawn with replacement, as many as there are; each model's B^P and rho recomputed; seeded per direction and metric).\n",
			100*c.Level, c.Resamples)
		fmt.Fprintln(w, "* the estimate lies outside its interval: resampling adds the tasks' noise a second time and pulls rho toward 0, so the tasks do not resolve the order (bootstrap bias in the detail).")
		fmt.Fprintf(w, "Without the three: %v (TRACE's prompt-strategy models) left out of the rho; their translations stay in the reference sets.\n", c.Dropped)
		fmt.Fprintf(w, "%-10s %5s | %-23s %-23s | %-23s %-23s\n", "direction", "tasks", "B_T^P, all models", "B_T^P, without three", "B_M^P, all models", "B_M^P, without three")
		for i := 0; i+1 < len(c.Dirs); i += 2 {
			t, m := c.Dirs[i], c.Dirs[i+1]
			fmt.Fprintf(w, "%-10s %5d | %-23s %-23s | %-23s %-23s\n", dirName(t.Dir), t.Tasks, fmtRho(t.All), fmtRho(t.Without), fmtRho(m.All), fmtRho(m.Without))
		}
		n, nw := 0, 0
		if len(c.Dirs) > 0 {
			n, nw = c.Dirs[0].All.Estimate.N, c.Dirs[0].Without.Estimate.N
		}
		fmt.Fprintf(w, "(models with a B^P: %d, without the three %d, in the first direction; p-values of the estimates in the per-direction detail)\n", n, nw)
	}
	fmt.Fprintln(w, "\nTable 14: Pass against B^P across models; Pearson r and Spearman rho, two-sided p from Student's t on n-2 df")
	fmt.Fprintf(w, "%-50s %6s | %-18s %-18s | %-18s %-18s\n", "", "models", "B_T^P: r", "rho", "B_M^P: r", "rho")
	for _, r := range c.Table14 {
		fmt.Fprintf(w, "%-50s %6d | %-18s %-18s | %-18s %-18s\n", r.Label, r.BTP.Pearson.N, fmtCorr(r.BTP.Pearson), fmtCorr(r.BTP.Spearman), fmtCorr(r.BMP.Pearson), fmtCorr(r.BMP.Spearman))
	}
}

// PrintComparison writes the comparison of an efficiency run's Beyond with
// Table 15 and Table 14 alone (its own every_task Pass), for the efficiency
// report; nothing when no model of the run is in Table 15.
func PrintComparison(w io.Writer, effScores []schemas.ScoreRow, profiles []schemas.ProfileRow, resamples int) error {
	cells, err := paper.Table15()
	if err != nil {
		return err
	}
	if resamples <= 0 {
		resamples = DefaultResamples
	}
	pass, _, _ := PassFromScores(effScores)
	c := Compare(cells, pass, effScores, profiles, resamples, 0.95)
	if len(c.Dirs) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nAgainst TRACE: our B^P order and Table 14 (go run ./cmd/report table15 OUT for every cell)")
	c.Print(w)
	return nil
}
