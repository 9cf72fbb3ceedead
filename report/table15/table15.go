// Package table15 compares a run's TRACE figures with TRACE's Table 15 and
// Table 14 (data/paper): Pass per model and direction with its sampling interval
// and a verdict, the Beyond order of the models per direction (Spearman's rho with
// a bootstrap interval over tasks), and the correlations of Pass with B^P across
// models. It reads only the run's rows (plain Go, no Beam).
package table15

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"sort"

	"transmute/data/paper"
	"transmute/schemas"
	"transmute/transforms/score"
	"transmute/transforms/stats"
)

// Score-row names of the two jobs that score Pass on TRACE tasks. The efficiency
// job's are pipelines.SubsetEveryTask and pipelines.AllLangs; they are repeated
// here so that this package does not import the Beam pipelines.
const (
	subsetEveryTask = "every_task" // efficiency job: every task on its default tests
	allLangs        = "*"          // pooled rows
	corpusTrace     = "trace"
	metricPassRate  = "pass_rate"
	// pass_rate under the C++ scripts' conversions (evaluate job, into C++ only)
	metricPassRateCppConv = "pass_rate_cpp_conversions"
)

// Tolerance of the Pass comparison: within 5 points of the paper, or
// the paper's figure inside our 95% interval.
const (
	PassTolerancePoints = 5.0
	z95                 = 1.959963984540054
)

// Key is one (model, direction) cell.
type Key struct {
	Model string
	Dir   paper.Direction
}

// Rate is a pass rate as a count of tasks.
type Rate struct{ Passed, N int }

// Pct is the rate in %.
func (r Rate) Pct() float64 { return 100 * float64(r.Passed) / float64(r.N) }

// Wilson is the Wilson score interval of k successes in n trials at normal
// quantile z, as fractions. n = 0 gives [0, 1].
func Wilson(k, n int, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	p := float64(k) / float64(n)
	nf := float64(n)
	den := 1 + z*z/nf
	center := (p + z*z/(2*nf)) / den
	half := z / den * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return math.Max(0, center-half), math.Min(1, center+half)
}

// PassSource says which rows the Pass figures came from.
type PassSource string

const (
	// SourceEfficiency: the efficiency job's every_task rows.
	SourceEfficiency PassSource = "efficiency job, subset every_task (every TRACE task on its default tests)"
	// SourceEvaluate: the evaluate job's rows of corpus trace, target-gold oracle,
	// subset all (sample 0; nondeterministic tests and tests without an oracle
	// value left out).
	SourceEvaluate PassSource = "evaluate job, corpus trace, oracle target_gold, subset all (sample 0)"
)

// PassFromScores reads Pass per (model, direction) from a run's score rows: the
// efficiency job's every_task rows when present, else the evaluate job's TRACE
// rows. alt holds, into C++, the evaluate job's pass rate under the C++ scripts'
// conversions (empty for the efficiency job).
func PassFromScores(rows []schemas.ScoreRow) (pass, alt map[Key]Rate, src PassSource) {
	pass, alt = map[Key]Rate{}, map[Key]Rate{}
	rate := func(r schemas.ScoreRow) Rate {
		return Rate{Passed: int(math.Round(r.Value * float64(r.N))), N: int(r.N)}
	}
	for _, r := range rows {
		if r.Subset == subsetEveryTask && r.Metric == metricPassRate && r.SrcLang != allLangs && r.Translator != allLangs {
			pass[Key{r.Translator, paper.Direction{Src: r.SrcLang, Tgt: r.TgtLang}}] = rate(r)
		}
	}
	if len(pass) > 0 {
		return pass, alt, SourceEfficiency
	}
	for _, r := range rows {
		if r.Corpus != corpusTrace || r.Oracle != score.OracleTargetGold || r.Subset != score.SubsetAll {
			continue
		}
		k := Key{r.Translator, paper.Direction{Src: r.SrcLang, Tgt: r.TgtLang}}
		switch r.Metric {
		case metricPassRate:
			pass[k] = rate(r)
		case metricPassRateCppConv:
			alt[k] = rate(r)
		}
	}
	return pass, alt, SourceEvaluate
}

// Verdict of one Pass cell.
type Verdict string

const (
	VerdictWithin   Verdict = "within 5"    // |ours - paper| <= 5 points
	VerdictInside   Verdict = "in interval" // the paper's figure is inside our Wilson 95% interval
	VerdictOutside  Verdict = "OUTSIDE"
	VerdictNoResult Verdict = "no result" // the run has no figure for the cell
)

// Meets tells whether the verdict meets the criterion.
func (v Verdict) Meets() bool { return v == VerdictWithin || v == VerdictInside }

// PassCell is the comparison of one cell.
type PassCell struct {
	paper.Table15Cell
	Ours   Rate
	Have   bool
	Lo, Hi float64 // our Wilson 95% interval, in %
	Diff   float64 // ours - paper, points
	// Alt is the pass rate under the C++ scripts' conversions (into C++, evaluate
	// job), when the run has it.
	Alt     Rate
	HaveAlt bool
	Verdict Verdict
}

// ComparePass lines our Pass up against every cell of Table 15, in the paper's order.
func ComparePass(cells []paper.Table15Cell, pass, alt map[Key]Rate) []PassCell {
	out := make([]PassCell, 0, len(cells))
	for _, c := range cells {
		pc := PassCell{Table15Cell: c, Verdict: VerdictNoResult}
		k := Key{c.Model, c.Dir}
		if r, ok := pass[k]; ok && r.N > 0 {
			pc.Ours, pc.Have = r, true
			lo, hi := Wilson(r.Passed, r.N, z95)
			pc.Lo, pc.Hi = 100*lo, 100*hi
			pc.Diff = r.Pct() - c.Pass
			switch {
			case math.Abs(pc.Diff) <= PassTolerancePoints+1e-9:
				pc.Verdict = VerdictWithin
			case c.Pass >= pc.Lo-1e-9 && c.Pass <= pc.Hi+1e-9:
				pc.Verdict = VerdictInside
			default:
				pc.Verdict = VerdictOutside
			}
		}
		if a, ok := alt[k]; ok && a.N > 0 {
			pc.Alt, pc.HaveAlt = a, true
		}
		out = append(out, pc)
	}
	return out
}

// FailureCauses counts, per (model, direction), why its TRACE tasks failed in the
// evaluate job (sample 0, target-gold oracle): the translated program's status
// when it did not run (compile_error, missing, ...), else the status of its first
// test that did not match ("ok" there is a wrong output, reported as
// wrong_output). Tests without an oracle value or marked nondeterministic are left
// out, as in the Pass.
func FailureCauses(results []schemas.ResultRow) map[Key]map[string]int {
	type task struct {
		k  Key
		id string
	}
	type acc struct {
		tests     int
		firstBad  int32
		badStatus schemas.Status
		program   schemas.Status
	}
	accs := map[task]*acc{}
	for _, r := range results {
		if r.Corpus != corpusTrace || r.Oracle != score.OracleTargetGold || r.Sample != 0 ||
			r.OracleStatus != schemas.StatusOK || r.Nondeterministic {
			continue
		}
		t := task{Key{r.Translator, paper.Direction{Src: r.SrcLang, Tgt: r.TgtLang}}, r.ProblemID}
		a := accs[t]
		if a == nil {
			a = &acc{firstBad: math.MaxInt32, program: r.ProgramStatus}
			accs[t] = a
		}
		a.tests++
		if !r.Match && r.TestIndex < a.firstBad {
			a.firstBad, a.badStatus = r.TestIndex, r.Status
		}
	}
	out := map[Key]map[string]int{}
	for t, a := range accs {
		if a.firstBad == math.MaxInt32 {
			continue // passed
		}
		cause := a.program
		if cause == schemas.StatusOK || cause == "" {
			cause = a.badStatus
			if cause == schemas.StatusOK {
				cause = "wrong_output"
			}
		}
		if out[t.k] == nil {
			out[t.k] = map[string]int{}
		}
		out[t.k][string(cause)]++
	}
	return out
}

// BeyondFigures are a model's B_T, B_M, B_T^P, B_M^P on one direction (in %), with
// the tasks scored and its correct translations.
type BeyondFigures struct {
	BT, BM, BTP, BMP float64
	Tasks, Correct   int
	HaveBTP          bool
}

// BeyondFromScores reads the efficiency job's Beyond figures (subset all) per
// (model, direction), and per model pooled over directions (Dir = {"*", "*"}).
func BeyondFromScores(rows []schemas.ScoreRow) map[Key]BeyondFigures {
	out := map[Key]BeyondFigures{}
	for _, r := range rows {
		if r.Subset != score.SubsetAll || r.Translator == allLangs {
			continue
		}
		k := Key{r.Translator, paper.Direction{Src: r.SrcLang, Tgt: r.TgtLang}}
		f, ok := out[k]
		switch r.Metric {
		case "beyond_time":
			f.BT, f.Tasks = r.Value, int(r.N)
		case "beyond_mem":
			f.BM = r.Value
		case "beyond_time_pass":
			f.BTP, f.Correct, f.HaveBTP = r.Value, int(r.N), true
		case "beyond_mem_pass":
			f.BMP = r.Value
		default:
			if !ok {
				continue
			}
		}
		out[k] = f
	}
	return out
}

// TaskEntries turns the efficiency job's profile rows of one direction into the
// bootstrap's input: one row per usable task (its ground truth ran correctly on the
// stress suite, as pipelines.ScoreTask decides), one entry per model (correct: a
// correct translation, with its Beyond score, time or memory). Tasks are in
// problem order.
func TaskEntries(profiles []schemas.ProfileRow, models []string, dir paper.Direction, memory bool) [][]score.BeyondEntry {
	idx := map[string]int{}
	for j, m := range models {
		idx[m] = j
	}
	usable := map[string]bool{}
	byTask := map[string][]score.BeyondEntry{}
	for _, p := range profiles {
		if p.SrcLang != dir.Src || p.TgtLang != dir.Tgt {
			continue
		}
		if byTask[p.ProblemID] == nil {
			byTask[p.ProblemID] = make([]score.BeyondEntry, len(models))
		}
		switch p.Role {
		case schemas.RoleGroundTruth:
			if p.Correct {
				usable[p.ProblemID] = true
			}
		case schemas.RoleTranslation:
			j, ok := idx[p.Translator]
			if !ok || !p.Correct {
				continue
			}
			s := p.BeyondTime
			if memory {
				s = p.BeyondMem
			}
			byTask[p.ProblemID][j] = score.BeyondEntry{Correct: true, Score: s}
		}
	}
	ids := make([]string, 0, len(usable))
	for id := range usable {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := make([][]score.BeyondEntry, len(ids))
	for i, id := range ids {
		out[i] = byTask[id]
	}
	return out
}

// RhoBootstrap is Spearman's rho of the models' B^P against reference figures
// (the paper's), on the tasks as given and over resamples of the tasks.
type RhoBootstrap struct {
	Estimate stats.Correlation // on the tasks as given, models with a B^P
	Lo, Hi   float64           // percentile interval of rho over the resamples
	// Bias is the mean rho over the resamples minus the estimate. A resample's B^P
	// carries the task-sampling noise twice (the sample's and the resampling's),
	// so where that noise is of the size of the models' differences rho shrinks
	// toward 0 in the resamples, Bias has the opposite sign of the estimate, and
	// the interval can miss the estimate (Outside): the tasks do not resolve the
	// order.
	Bias     float64
	Outside  bool
	Median   float64 // median rho over the resamples
	Positive float64 // share of the resamples (rho defined) with rho > 0
	// Defined is the share of resamples where rho is defined (at least three models
	// with a B^P, not all tied).
	Defined   float64
	Resamples int
}

// BootstrapRho resamples the tasks with replacement (the same tasks for every
// model), computes each model's B^P (the mean score over its correct
// translations), and Spearman's rho of those against ref over the models that
// have a B^P in the resample; it returns the estimate and the percentile interval
// at level. seed makes it reproducible.
func BootstrapRho(tasks [][]score.BeyondEntry, ref []float64, resamples int, level float64, seed uint64) RhoBootstrap {
	return BootstrapRhoN(tasks, ref, len(tasks), resamples, level, seed)
}

// BootstrapRhoN is BootstrapRho with m tasks drawn per resample instead of all of
// them: how rho would spread on a sample of m tasks (m > len(tasks) extrapolates
// from the tasks at hand, so the report keeps m <= len(tasks)).
func BootstrapRhoN(tasks [][]score.BeyondEntry, ref []float64, m, resamples int, level float64, seed uint64) RhoBootstrap {
	bp := func(idx []int) (x, y []float64) {
		for j := range ref {
			sum, n := 0.0, 0
			for _, i := range idx {
				if e := tasks[i][j]; e.Correct {
					sum += e.Score
					n++
				}
			}
			if n > 0 {
				x = append(x, sum/float64(n))
				y = append(y, ref[j])
			}
		}
		return x, y
	}
	rho := func(idx []int) float64 { return SpearmanR(bp(idx)) }
	all := make([]int, len(tasks))
	for i := range all {
		all[i] = i
	}
	_, sp := CorrTests(bp(all))
	res := RhoBootstrap{Estimate: sp, Lo: math.NaN(), Hi: math.NaN(), Median: math.NaN(), Bias: math.NaN(), Resamples: resamples}
	if len(tasks) == 0 || resamples <= 0 || m <= 0 {
		return res
	}
	rng := rand.New(rand.NewPCG(seed, 0x7461626c653135)) // "table15"
	idx := make([]int, m)
	var draws []float64
	for r := 0; r < resamples; r++ {
		for i := range idx {
			idx[i] = rng.IntN(len(tasks))
		}
		if c := rho(idx); !math.IsNaN(c) {
			draws = append(draws, c)
		}
	}
	res.Defined = float64(len(draws)) / float64(resamples)
	if len(draws) > 0 {
		alpha := (1 - level) / 2
		res.Lo, res.Hi = stats.Quantile(draws, alpha), stats.Quantile(draws, 1-alpha)
		res.Median = stats.Median(draws)
		for _, d := range draws {
			if d > 0 {
				res.Positive++
			}
		}
		res.Positive /= float64(len(draws))
		res.Bias = stats.Mean(draws) - res.Estimate.R
		res.Outside = res.Estimate.R < res.Lo || res.Estimate.R > res.Hi
	}
	return res
}

// DirSeed is the bootstrap seed of a direction (and metric), so that a report's
// figures are reproducible.
func DirSeed(dir paper.Direction, metric string) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%s", dir, metric)
	return h.Sum64()
}

// Correlations are Table 14's two correlations of Pass with one B^P across models.
type Correlations struct {
	Pearson, Spearman stats.Correlation
}

// Correlate computes Pearson and Spearman of x against y over the models present
// in both (and not NaN), in sorted model order.
func Correlate(x, y map[string]float64) Correlations {
	ms := make([]string, 0, len(x))
	for m := range x {
		if v, ok := y[m]; ok && !math.IsNaN(v) && !math.IsNaN(x[m]) {
			ms = append(ms, m)
		}
	}
	sort.Strings(ms)
	var a, b []float64
	for _, m := range ms {
		a = append(a, x[m])
		b = append(b, y[m])
	}
	p, s := CorrTests(a, b)
	return Correlations{p, s}
}

// PooledPass pools per-direction Pass counts over the directions given, per model:
// the share of all its tasks that pass, as a fraction.
func PooledPass(pass map[Key]Rate, dirs []paper.Direction) map[string]float64 {
	type acc struct{ p, n int }
	accs := map[string]*acc{}
	for _, d := range dirs {
		for k, r := range pass {
			if k.Dir != d {
				continue
			}
			a := accs[k.Model]
			if a == nil {
				a = &acc{}
				accs[k.Model] = a
			}
			a.p += r.Passed
			a.n += r.N
		}
	}
	out := map[string]float64{}
	for m, a := range accs {
		if a.n > 0 {
			out[m] = float64(a.p) / float64(a.n)
		}
	}
	return out
}

// ExpectedAbsDiff is the mean absolute difference, in points, between a pass rate
// measured on n tasks and the true rate p when only the sampling of the tasks
// differs: sqrt(p(1-p)/n) * sqrt(2/pi) (normal approximation of the binomial). Our
// tasks are a subset of the paper's, which makes the real spread smaller (by about
// 1/sqrt(2) for a half), so this is an upper reference.
func ExpectedAbsDiff(p float64, n int) float64 {
	if n <= 0 {
		return math.NaN()
	}
	return 100 * math.Sqrt(p*(1-p)/float64(n)) * math.Sqrt(2/math.Pi)
}
