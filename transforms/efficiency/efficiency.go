// Package efficiency is the domain side of the efficiency job (TRACE):
// task sampling, the default-test check, Beyond scores against each task's
// reference set, their aggregation and the machine-noise summaries. Plain Go, no
// Beam: the pipelines' DoFns and the report printers call it, the tests call it
// directly.
package efficiency

import (
	"hash/fnv"
	"maps"
	"math"
	"slices"
	"sort"
	"time"

	"transmute/internal/clip"
	"transmute/schemas"
	"transmute/transforms/profile"
	"transmute/transforms/score"
	"transmute/transforms/stats"
	"transmute/transforms/values"
)

// TaskSelection holds TRACE's task-selection thresholds (section 3.3, appendix A.1):
// a task is impactful when some reference program exceeds EpsTimeMs of CPU or
// EpsMemKB of peak RSS, and diverse when the coefficient of variation of the
// reference set's ET or PM exceeds EpsDiversity.
type TaskSelection struct {
	EpsTimeMs    float64 `json:"eps_time_ms"`
	EpsMemKB     float64 `json:"eps_mem_kb"`
	EpsDiversity float64 `json:"eps_diversity"`
}

// DefaultTaskSelection is TRACE's: 0.01 s, 1.5 MB, CV 0.05.
var DefaultTaskSelection = TaskSelection{EpsTimeMs: 10, EpsMemKB: 1.5 * 1024, EpsDiversity: 0.05}

// Subsets of tasks the efficiency scores are computed on.
const (
	SubsetAllTasks = "all"
	// SubsetSelected keeps the tasks that pass TaskSelection on our reference set.
	SubsetSelected = "selected"
	// SubsetEveryTask is every task evaluated on its default tests, with or without
	// a stress suite (only tasks and pass_rate): the Pass of TRACE's Table 15,
	// which covers every task of a direction, where the shared sample ships stress
	// suites for only some (into C++, 24 of 62 and 15 of 47).
	SubsetEveryTask = "every_task"
)

// AllLangs is the SrcLang/TgtLang (and Translator) of pooled score rows.
const AllLangs = "*"

// TaskOutcome is everything the efficiency job learned about one task.
type TaskOutcome struct {
	Task schemas.Task
	// Translators evaluated on the task and whether each passed the default tests
	// (parallel slices; a translator without a translation did not pass).
	Translators []string
	PassDefault []bool
	// Profiles: the ground truth (role ground_truth) and every translation that
	// passed the default tests (role translation).
	Profiles []schemas.ProfileRow
	// Usable: the ground truth ran correctly on the stress suite, so the task is
	// scored (ScoreTask sets it).
	Usable bool
	// NoSuite: the target language has no stress suite for the task, which counts
	// only in SubsetEveryTask.
	NoSuite bool
	// Set by ScoreTask: the task's resolution floors (FloorTime in the time
	// measure's unit), whether its reference range lies within them (no
	// efficiency signal), and the options they came from.
	FloorTime    float64
	FloorMemKB   float64
	NoSignalTime bool
	NoSignalMem  bool
	Resolution   Resolution
	RefGold      bool
	// CostMode is the mode the task was scored in: the job's, except that a
	// count-mode task with a correct program that was timed, not counted (its
	// calls too long to count, profile.Options.CountMaxCalls), is scored on the
	// calls' CPU time (CostCalls).
	CostMode string
}

// SampleTasks keeps at most perDir tasks per direction (all when perDir <= 0),
// chosen by a hash of the problem id (a fixed pseudo-random sample that does not
// depend on the order of the corpus), and returns them sorted by direction, then id.
func SampleTasks(tasks []schemas.Task, perDir int) []schemas.Task {
	h := func(id string) uint64 {
		f := fnv.New64a()
		f.Write([]byte(id))
		return f.Sum64()
	}
	sorted := append([]schemas.Task(nil), tasks...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if a.SrcLang+a.TgtLang != b.SrcLang+b.TgtLang {
			return a.SrcLang+a.TgtLang < b.SrcLang+b.TgtLang
		}
		if ha, hb := h(a.ProblemID), h(b.ProblemID); ha != hb {
			return ha < hb
		}
		return a.ProblemID < b.ProblemID
	})
	var out []schemas.Task
	n := map[[2]string]int{}
	for _, t := range sorted {
		d := [2]string{t.SrcLang, t.TgtLang}
		if perDir > 0 && n[d] >= perDir {
			continue
		}
		n[d]++
		out = append(out, t)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.SrcLang+a.TgtLang != b.SrcLang+b.TgtLang {
			return a.SrcLang+a.TgtLang < b.SrcLang+b.TgtLang
		}
		return a.ProblemID < b.ProblemID
	})
	return out
}

// DefaultPass tells, from the result rows of one problem (transforms/evaluate), which
// (translator, src, tgt) translations pass the default tests: sample 0, every test
// whose oracle returned a value matches. The oracle is the target-language gold
// function (the TRACE ground truth), as TRACE checks; when it returned no value on
// any test, the source function. The key is translator + "|" + src + "|" + tgt.
func DefaultPass(rows []schemas.ResultRow) map[string]bool {
	type acc struct{ tests, matched int }
	accs := map[string]map[string]*acc{} // key -> oracle -> acc
	for _, r := range rows {
		if r.Sample != 0 {
			continue
		}
		k := r.Translator + "|" + r.SrcLang + "|" + r.TgtLang
		if accs[k] == nil {
			accs[k] = map[string]*acc{}
		}
		a := accs[k][r.Oracle]
		if a == nil {
			a = &acc{}
			accs[k][r.Oracle] = a
		}
		if r.OracleStatus != schemas.StatusOK {
			continue
		}
		a.tests++
		if r.Match {
			a.matched++
		}
	}
	out := map[string]bool{}
	for k, byOracle := range accs {
		for _, o := range []string{score.OracleTargetGold, score.OracleSource} {
			if a := byOracle[o]; a != nil && a.tests > 0 {
				out[k] = a.matched == a.tests
				break
			}
		}
	}
	return out
}

// StressMatch tells whether a program's stress-suite outputs equal the ground
// truth's, test by test (canonical JSON values, floats with tolerance).
func StressMatch(ret values.Type, gold, cand []string, tol values.Tolerance) bool {
	if len(gold) == 0 || len(gold) != len(cand) {
		return false
	}
	for i := range gold {
		if gold[i] == "" || cand[i] == "" || !values.Equal(ret, gold[i], cand[i], tol) {
			return false
		}
	}
	return true
}

// Millis is d in milliseconds, the unit of the profile and noise tables.
func Millis(d time.Duration) float64 { return float64(d) / 1e6 }

// ProfileRowOf turns a profile.Report into a row (Beyond and reference fields are
// filled later by ScoreTask).
func ProfileRowOf(run string, t schemas.Task, role schemas.Role, translator string, tests int, core int, rep profile.Report) schemas.ProfileRow {
	r := schemas.ProfileRow{Run: run, Translator: translator, ProblemID: t.ProblemID, Corpus: t.Corpus,
		SrcLang: t.SrcLang, TgtLang: t.TgtLang, Role: role, Status: rep.Status, Detail: Clip(rep.Detail, 2000),
		Tests: int32(tests), Repetitions: int32(len(rep.CPUTime)), Core: int32(core),
		OverheadCPUMs: Millis(rep.Overhead), OverheadRSSKB: rep.OverheadRSSKB, NetCPUMs: Millis(rep.NetCPU)}
	var cpu, wall, rss []float64
	for i := range rep.CPUTime {
		cpu = append(cpu, Millis(rep.CPUTime[i]))
		if i < len(rep.WallTime) {
			wall = append(wall, Millis(rep.WallTime[i]))
		}
		if i < len(rep.MaxRSSKB) {
			rss = append(rss, float64(rep.MaxRSSKB[i]))
		}
	}
	r.CPUMeanMs, r.CPUStdMs, r.CPUCV = stats.MeanStdCV(cpu)
	r.WallMean, r.WallStd, r.WallCV = stats.MeanStdCV(wall)
	r.RSSMeanKB, r.RSSStdKB, r.RSSCV = stats.MeanStdCV(rss)
	var calls []float64
	for _, c := range rep.CallsCPU {
		calls = append(calls, Millis(c))
	}
	r.CallsCPUMeanMs, r.CallsCPUStdMs, _ = stats.MeanStdCV(calls)
	r.Instructions, r.AllocPeakKB = rep.Instructions, -1
	if rep.AllocPeakBytes >= 0 && rep.Counted {
		r.AllocPeakKB = float64(rep.AllocPeakBytes) / 1024
	}
	r.CountCPUMs, r.CountCached = Millis(rep.CountCPU), rep.Cached || rep.CountShared
	r.TimedWith = int32(rep.TimedWith)
	if !rep.Started.IsZero() {
		r.MeasuredFrom = rep.Started.UTC().Format(time.RFC3339Nano)
		r.MeasuredTo = rep.Ended.UTC().Format(time.RFC3339Nano)
	}
	return r
}

// Clip is clip.String, under the name the efficiency pipeline calls.
func Clip(s string, n int) string { return clip.String(s, n) }

// Measures the Beyond scores are computed from (ProfileRow.TimeMeasure).
const (
	// TimeProcessCPU is ET as the profiles measure it today: the mean over the
	// repetitions of the user+sys CPU time (ms) of a fresh process running the
	// whole stress suite, start-up included. Its spread is CPUStdMs.
	TimeProcessCPU = "process_cpu_ms"
	// MemPeakRSS is PM: the mean over the repetitions of the process's peak RSS
	// (VmHWM, KiB). Its spread is RSSStdKB.
	MemPeakRSS = "peak_rss_kb"
	// TimeInstructions is the count mode's cost: callgrind's count of the
	// instructions of the candidate's calls (profile.Report.Instructions), one
	// deterministic run per program. MemAllocPeak is the count mode's memory: the
	// allocation peak of the calls (KiB; see ProfileRow.AllocPeakKB).
	TimeInstructions = "instructions"
	MemAllocPeak     = "alloc_peak_kb"
)

// Cost modes of the efficiency job (ScoreOptions.Cost).
const (
	// CostCount: Beyond from instruction counts and allocation peaks, both
	// deterministic, with fixed quantum floors (Resolution.CountQuantum,
	// AllocQuantumKB).
	CostCount = "count"
	// CostTime: Beyond from the process's mean CPU time and peak RSS over the
	// repetitions, with floors from their spread.
	CostTime = "time"
	// CostCalls: Beyond from the thread CPU time of the candidate's calls
	// measured in the process (calls_cpu_mean_ms, start-up excluded) and peak RSS,
	// with floors from their spread. Profiles of either mode carry it, so a run
	// can be rescored in it (Rescore).
	CostCalls = "calls"
)

// TimeCallsCPU is the calls mode's time measure (ProfileRow.CallsCPUMeanMs).
const TimeCallsCPU = "calls_cpu_ms"

// Resolution is Beyond's resolution floor: reference values closer than the
// floor cannot be told apart by the measurement, so they are ties. A task's time
// floor is max(TimeQuantum, TimeSpreads x the pooled within-program std of its
// reference set's repetitions); the memory floor likewise. A deterministic
// measure (one run per program, no spread) gets the quantum alone: for counts a
// fixed number of instructions. A negative field counts as 0; Resolution{}
// switches the floor off (Beyond as the paper defines it).
type Resolution struct {
	TimeSpreads  float64 `json:"time_spreads"`
	TimeQuantum  float64 `json:"time_quantum"`
	MemSpreads   float64 `json:"mem_spreads"`
	MemQuantumKB float64 `json:"mem_quantum_kb"`
	// The count mode's floors: instructions, and KiB of allocation peak.
	CountQuantum   float64 `json:"count_quantum"`
	AllocQuantumKB float64 `json:"alloc_quantum_kb"`
}

// DefaultResolution: three pooled standard deviations (with five repetitions,
// the means of 28 programs of equal cost span 1.8 stds on average and more than
// 3 in 0.05% of draws, simulated with normal noise), at least the CPU clock's
// microsecond for times and one 4 KiB page for memory. In the count mode, 10,000
// instructions (a few microseconds of work; Java's counts of one program move by up
// to 0.04%, a few thousand instructions on a light suite) and one 4 KiB page.
var DefaultResolution = Resolution{TimeSpreads: 3, TimeQuantum: 0.001, MemSpreads: 3, MemQuantumKB: 4,
	CountQuantum: 10000, AllocQuantumKB: 4}

// ScoreOptions say how ScoreTask builds the reference set and scores against it.
type ScoreOptions struct {
	// InReference picks the translators whose correct translations form the
	// reference set (nil: every translator), as TRACE's reference set is the
	// correct translations of the evaluated models.
	InReference func(translator string) bool
	// RefGold adds the task's ground truth to the reference set (not TRACE's
	// definition; off by default).
	RefGold    bool
	Selection  TaskSelection
	Resolution Resolution
	// Cost is CostCount or CostTime ("" is CostTime).
	Cost string
}

// DefaultScoreOptions are the paper's definitions with the default floor.
var DefaultScoreOptions = ScoreOptions{Selection: DefaultTaskSelection, Resolution: DefaultResolution}

// ScoreTask settles one task: it is Usable when its ground truth ran correctly on
// the stress suite. The efficiency reference set R is every correct translation
// of a reference translator (opt.InReference), and the ground truth only with
// opt.RefGold. Each correct program gets B_T and B_M (BeyondFloor of its mean CPU
// time and mean peak RSS against R, with the task's resolution floors) and its
// inefficiency ratios against R's best; the task's Selected flag applies TRACE's
// task selection to R (feasible: a correct reference translation; impactful;
// diverse). A task whose reference range lies within a floor, or whose R is
// empty, has no signal in that measure: every correct program scores 100.
func ScoreTask(o *TaskOutcome, opt ScoreOptions) {
	var et, pm, selT, selM []float64
	var tSpread, mSpread pooledSpread
	var refTr int
	mode := opt.Cost
	if mode == "" {
		mode = CostTime
	}
	if mode == CostCount && !allCounted(o.Profiles) {
		mode = CostCalls
	}
	o.CostMode = mode
	count, calls := mode == CostCount, mode == CostCalls
	cost := func(p *schemas.ProfileRow) (float64, float64) {
		switch {
		case count:
			return float64(p.Instructions), math.Max(p.AllocPeakKB, 0)
		case calls:
			return p.CallsCPUMeanMs, p.RSSMeanKB
		}
		return p.CPUMeanMs, p.RSSMeanKB
	}
	o.Usable = false
	for i := range o.Profiles {
		p := &o.Profiles[i]
		p.InReference = false
		p.BeyondTime, p.BeyondMem, p.InefficiencyTime, p.InefficiencyMem = 0, 0, 0, 0
		if p.Role == schemas.RoleGroundTruth && p.Correct {
			o.Usable = true
		}
		if !p.Correct {
			continue
		}
		if p.Role == schemas.RoleGroundTruth && !opt.RefGold {
			continue
		}
		if p.Role == schemas.RoleTranslation && opt.InReference != nil && !opt.InReference(p.Translator) {
			continue
		}
		p.InReference = true
		t, m := cost(p)
		et = append(et, t)
		pm = append(pm, m)
		selT = append(selT, p.CPUMeanMs)
		selM = append(selM, p.RSSMeanKB)
		if calls {
			tSpread.add(p.Repetitions, p.CallsCPUStdMs)
		} else {
			tSpread.add(p.Repetitions, p.CPUStdMs)
		}
		mSpread.add(p.Repetitions, p.RSSStdKB)
		if p.Role == schemas.RoleTranslation {
			refTr++
		}
	}
	res := opt.Resolution
	if count {
		// One deterministic run per program: the floors are the quanta alone.
		o.FloorTime, o.FloorMemKB = math.Max(res.CountQuantum, 0), math.Max(res.AllocQuantumKB, 0)
	} else {
		o.FloorTime = math.Max(math.Max(res.TimeQuantum, 0), math.Max(res.TimeSpreads, 0)*tSpread.std())
		o.FloorMemKB = math.Max(math.Max(res.MemQuantumKB, 0), math.Max(res.MemSpreads, 0)*mSpread.std())
	}
	o.NoSignalTime = o.Usable && !hasSignal(et, o.FloorTime)
	o.NoSignalMem = o.Usable && !hasSignal(pm, o.FloorMemKB)
	o.Resolution, o.RefGold = res, opt.RefGold
	selected := false
	if o.Usable && refTr > 0 {
		impact := false
		// TRACE's thresholds are in ms and KB: the process's figures in every mode.
		for i := range selT {
			impact = impact || selT[i] > opt.Selection.EpsTimeMs || selM[i] > opt.Selection.EpsMemKB
		}
		_, _, cvT := stats.MeanStdCV(et)
		_, _, cvM := stats.MeanStdCV(pm)
		selected = impact && (cvT > opt.Selection.EpsDiversity || cvM > opt.Selection.EpsDiversity)
	}
	for i := range o.Profiles {
		p := &o.Profiles[i]
		p.Selected = selected
		p.TimeMeasure, p.MemMeasure, p.CostMode = TimeProcessCPU, MemPeakRSS, CostTime
		if count {
			p.TimeMeasure, p.MemMeasure, p.CostMode = TimeInstructions, MemAllocPeak, CostCount
		} else if calls {
			p.TimeMeasure, p.CostMode = TimeCallsCPU, CostCalls
		}
		p.FloorTime, p.FloorMemKB = o.FloorTime, o.FloorMemKB
		p.NoSignalTime, p.NoSignalMem = o.NoSignalTime, o.NoSignalMem
		if !p.Correct || !o.Usable {
			continue
		}
		t, m := cost(p)
		p.BeyondTime = BeyondFloor(t, et, o.FloorTime)
		p.BeyondMem = BeyondFloor(m, pm, o.FloorMemKB)
		p.InefficiencyTime = zeroNaN(score.Inefficiency(t, et))
		p.InefficiencyMem = zeroNaN(score.Inefficiency(m, pm))
	}
}

// allCounted: every correct program has an instruction count (a counted run
// always counts the harness's loop around the calls, so a count is never 0).
func allCounted(ps []schemas.ProfileRow) bool {
	for _, p := range ps {
		if p.Correct && p.Instructions <= 0 {
			return false
		}
	}
	return true
}

// hasSignal: the reference set is not empty and its range exceeds the floor.
func hasSignal(ref []float64, floor float64) bool {
	if len(ref) == 0 {
		return false
	}
	lo, hi := minMax(ref)
	return hi-lo > floor
}

func minMax(xs []float64) (lo, hi float64) {
	lo, hi = xs[0], xs[0]
	for _, x := range xs[1:] {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return lo, hi
}

// BeyondFloor is Beyond (score.Beyond: 100 at the reference set's best, 0 at its
// worst, clipped) with values within floor of the best tied with it: the scale
// runs from best+floor (100) to the worst (0), so that noise around the best
// cannot spread the scores. When the whole range lies within the floor, or the
// reference set is empty, the task has no signal and every value scores 100.
// With floor <= 0 it is score.Beyond, but for a reference set of one value, where
// every value scores 100 too.
func BeyondFloor(x float64, ref []float64, floor float64) float64 {
	floor = math.Max(floor, 0)
	if math.IsNaN(x) {
		return math.NaN()
	}
	if !hasSignal(ref, floor) {
		return 100
	}
	if floor == 0 {
		return score.Beyond(x, ref)
	}
	lo, hi := minMax(ref)
	best := lo + floor
	c := math.Max(best, math.Min(hi, x))
	return (hi - c) / (hi - best) * 100
}

// pooledSpread pools the within-program variances of a reference set's
// repetitions (each weighted by its degrees of freedom).
type pooledSpread struct{ ss, df float64 }

func (s *pooledSpread) add(reps int32, std float64) {
	if reps >= 2 && !math.IsNaN(std) {
		s.ss += float64(reps-1) * std * std
		s.df += float64(reps - 1)
	}
}

func (s pooledSpread) std() float64 {
	if s.df == 0 {
		return 0
	}
	return math.Sqrt(s.ss / s.df)
}

func zeroNaN(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// translatorProfile returns the translation row of translator in o, if profiled.
func (o *TaskOutcome) translatorProfile(translator string) (schemas.ProfileRow, bool) {
	for _, p := range o.Profiles {
		if p.Role == schemas.RoleTranslation && p.Translator == translator {
			return p, true
		}
	}
	return schemas.ProfileRow{}, false
}

// groundTruth returns the task's ground-truth row, if profiled.
func (o *TaskOutcome) groundTruth() (schemas.ProfileRow, bool) {
	for _, p := range o.Profiles {
		if p.Role == schemas.RoleGroundTruth {
			return p, true
		}
	}
	return schemas.ProfileRow{}, false
}

// Aggregate computes the scores of TRACE from scored task outcomes
// (ScoreTask), in long format with oracle "target_gold":
//
//   - per translator and direction, and pooled over directions (src = tgt = "*"),
//     on the usable tasks (subset "all") and on the selected ones ("selected"):
//     tasks, pass_rate (default tests, a fraction), correct_rate (default tests and
//     stress outputs), beyond_time, beyond_mem (B_T, B_M in 0..100, incorrect = 0),
//     beyond_time_pass, beyond_mem_pass (B^P: over correct translations, n = their
//     number), inefficiency_time_mean, inefficiency_mem_mean and
//     inefficient_time_share, inefficient_mem_share (ratio above 2), median_cpu_cv;
//   - translator "*": correlations across translators of the pooled pass_rate with
//     beyond_time_pass and beyond_mem_pass (Pearson r and p, Spearman rho and p, OLS
//     R^2), and the measurement figures of every profiled program: programs,
//     median_cpu_cv, median_overhead_share, overhead_share_total (overhead CPU over
//     measured CPU), per target language and pooled; tasks, tasks_usable,
//     tasks_selected, reference_set_mean per direction.
func Aggregate(run string, outs []TaskOutcome) []schemas.ScoreRow {
	var rows []schemas.ScoreRow
	emit := func(tr, src, tgt, subset string, metric schemas.Metric, v float64, n int) {
		rows = append(rows, schemas.ScoreRow{Run: run, Translator: tr, Corpus: corpusOf(outs), SrcLang: src,
			TgtLang: tgt, Oracle: score.OracleTargetGold, Subset: subset, Metric: metric, Value: v, N: int64(n)})
	}
	sort.SliceStable(outs, func(i, j int) bool {
		a, b := outs[i].Task, outs[j].Task
		if a.SrcLang+a.TgtLang != b.SrcLang+b.TgtLang {
			return a.SrcLang+a.TgtLang < b.SrcLang+b.TgtLang
		}
		return a.ProblemID < b.ProblemID
	})
	trSet := map[string]bool{}
	dirSet := map[[2]string]bool{}
	for _, o := range outs {
		for _, t := range o.Translators {
			trSet[t] = true
		}
		dirSet[[2]string{o.Task.SrcLang, o.Task.TgtLang}] = true
	}
	translators := slices.Sorted(maps.Keys(trSet))
	dirs := make([][2]string, 0, len(dirSet))
	for d := range dirSet {
		dirs = append(dirs, d)
	}
	sort.Slice(dirs, func(i, j int) bool { return dirs[i][0]+dirs[i][1] < dirs[j][0]+dirs[j][1] })
	dirs = append(dirs, [2]string{AllLangs, AllLangs})

	inScope := func(o TaskOutcome, d [2]string, subset string) bool {
		if !o.Usable {
			return false
		}
		if d[0] != AllLangs && (o.Task.SrcLang != d[0] || o.Task.TgtLang != d[1]) {
			return false
		}
		if subset == SubsetSelected {
			gt, _ := o.groundTruth()
			return gt.Selected
		}
		return true
	}
	// Pass over every task, stress suite or not.
	for _, d := range dirs {
		for _, tr := range translators {
			var n, passed int
			for _, o := range outs {
				if d[0] != AllLangs && (o.Task.SrcLang != d[0] || o.Task.TgtLang != d[1]) {
					continue
				}
				for i, t := range o.Translators {
					if t == tr {
						n++
						if o.PassDefault[i] {
							passed++
						}
					}
				}
			}
			if n > 0 {
				emit(tr, d[0], d[1], SubsetEveryTask, schemas.MetricTasks, float64(n), n)
				emit(tr, d[0], d[1], SubsetEveryTask, schemas.MetricPassRate, float64(passed)/float64(n), n)
			}
		}
	}

	type pooled struct{ pass, btp, bmp float64 }
	pool := map[string]map[string]pooled{} // subset -> translator -> pooled figures
	for _, subset := range []string{SubsetAllTasks, SubsetSelected} {
		pool[subset] = map[string]pooled{}
		for _, d := range dirs {
			for _, tr := range translators {
				var n, passed, correct int
				var bt, bm, it, im, cvs []float64
				var correctFlags []bool
				for _, o := range outs {
					if !inScope(o, d, subset) {
						continue
					}
					pass := false
					found := false
					for i, t := range o.Translators {
						if t == tr {
							pass, found = o.PassDefault[i], true
						}
					}
					if !found {
						continue
					}
					n++
					if pass {
						passed++
					}
					p, ok := o.translatorProfile(tr)
					if ok && p.Repetitions > 0 && p.Status == schemas.StatusOK {
						cvs = append(cvs, p.CPUCV)
					}
					c := ok && p.Correct
					correctFlags = append(correctFlags, c)
					bt = append(bt, p.BeyondTime)
					bm = append(bm, p.BeyondMem)
					if c {
						correct++
						it = append(it, p.InefficiencyTime)
						im = append(im, p.InefficiencyMem)
					}
				}
				if n == 0 {
					continue
				}
				e := func(metric schemas.Metric, v float64, k int) { emit(tr, d[0], d[1], subset, metric, v, k) }
				e(schemas.MetricTasks, float64(n), n)
				e(schemas.MetricPassRate, float64(passed)/float64(n), n)
				e(schemas.MetricCorrectRate, float64(correct)/float64(n), n)
				bT, bTP, _ := score.BeyondScores(correctFlags, bt)
				bM, bMP, _ := score.BeyondScores(correctFlags, bm)
				e(schemas.MetricBeyondTime, bT, n)
				e(schemas.MetricBeyondMem, bM, n)
				if correct > 0 {
					e(schemas.MetricBeyondTimePass, bTP, correct)
					e(schemas.MetricBeyondMemPass, bMP, correct)
					e(schemas.MetricInefficiencyTimeMean, stats.Mean(it), correct)
					e(schemas.MetricInefficiencyMemMean, stats.Mean(im), correct)
					e(schemas.MetricInefficientTimeShare, shareAbove(it, 2), correct)
					e(schemas.MetricInefficientMemShare, shareAbove(im, 2), correct)
				}
				if len(cvs) > 0 {
					e(schemas.MetricMedianCPUCV, stats.Median(cvs), len(cvs))
				}
				if d[0] == AllLangs {
					pool[subset][tr] = pooled{float64(passed) / float64(n), bTP, bMP}
				}
			}
			bootstrapRows(outs, d, subset, translators, inScope, emit)
		}
		// Correlations across translators (TRACE, appendix B.3).
		var pass, btp, bmp []float64
		for _, tr := range translators {
			if p, ok := pool[subset][tr]; ok && !math.IsNaN(p.btp) {
				pass = append(pass, p.pass)
				btp = append(btp, p.btp)
				bmp = append(bmp, p.bmp)
			}
		}
		if len(pass) >= 3 {
			for _, y := range []struct {
				pearson, spearman, r2 schemas.Metric
				v                     []float64
			}{{schemas.MetricCorrPearsonPassBeyondTimePass, schemas.MetricCorrSpearmanPassBeyondTimePass,
				schemas.MetricOLSR2PassBeyondTimePass, btp},
				{schemas.MetricCorrPearsonPassBeyondMemPass, schemas.MetricCorrSpearmanPassBeyondMemPass,
					schemas.MetricOLSR2PassBeyondMemPass, bmp}} {
				pr, sp := stats.Pearson(pass, y.v), stats.Spearman(pass, y.v)
				for _, m := range []struct {
					name schemas.Metric
					v    float64
				}{{y.pearson, pr.R}, {y.pearson + schemas.SuffixP, pr.P},
					{y.spearman, sp.R}, {y.spearman + schemas.SuffixP, sp.P},
					{y.r2, stats.R2(pass, y.v)}} {
					emit(AllLangs, AllLangs, AllLangs, subset, m.name, m.v, len(pass))
				}
			}
		}
	}

	// Tasks and reference sets per direction. In a count-mode run, the tasks
	// timed instead (CostCalls) are counted apart, and the time floor's median is
	// over the counted tasks, in instructions.
	countRun := false
	for _, o := range outs {
		countRun = countRun || o.Usable && o.CostMode == CostCount
	}
	for _, d := range dirs {
		var tasks, usable, selected, noT, noM, timed int
		var refSizes, floorT, floorM []float64
		for _, o := range outs {
			if o.NoSuite || d[0] != AllLangs && (o.Task.SrcLang != d[0] || o.Task.TgtLang != d[1]) {
				continue
			}
			tasks++
			if !o.Usable {
				continue
			}
			usable++
			if gt, _ := o.groundTruth(); gt.Selected {
				selected++
			}
			if o.NoSignalTime {
				noT++
			}
			if o.NoSignalMem {
				noM++
			}
			if countRun && o.CostMode == CostCalls {
				timed++
			} else {
				floorT = append(floorT, o.FloorTime)
			}
			floorM = append(floorM, o.FloorMemKB)
			k := 0
			for _, p := range o.Profiles {
				if p.InReference {
					k++
				}
			}
			refSizes = append(refSizes, float64(k))
		}
		emit(AllLangs, d[0], d[1], SubsetAllTasks, schemas.MetricTasks, float64(tasks), tasks)
		emit(AllLangs, d[0], d[1], SubsetAllTasks, schemas.MetricTasksUsable, float64(usable), tasks)
		emit(AllLangs, d[0], d[1], SubsetAllTasks, schemas.MetricTasksSelected, float64(selected), usable)
		if len(refSizes) > 0 {
			emit(AllLangs, d[0], d[1], SubsetAllTasks, schemas.MetricReferenceSetMean, stats.Mean(refSizes), len(refSizes))
			emit(AllLangs, d[0], d[1], SubsetAllTasks, schemas.MetricNoSignalTasksTime, float64(noT), usable)
			emit(AllLangs, d[0], d[1], SubsetAllTasks, schemas.MetricNoSignalTasksMem, float64(noM), usable)
			if countRun {
				emit(AllLangs, d[0], d[1], SubsetAllTasks, schemas.MetricTasksTimed, float64(timed), usable)
			}
			if len(floorT) > 0 {
				emit(AllLangs, d[0], d[1], SubsetAllTasks, schemas.MetricFloorTimeMedian, stats.Median(floorT), len(floorT))
			}
			emit(AllLangs, d[0], d[1], SubsetAllTasks, schemas.MetricFloorMemMedianKB, stats.Median(floorM), usable)
		}
	}
	// The floor's parameters and the reference set's definition, once per run
	// (every usable task was scored with the same options).
	for _, o := range outs {
		if !o.Usable {
			continue
		}
		gold := 0.0
		if o.RefGold {
			gold = 1
		}
		for _, m := range []struct {
			name schemas.Metric
			v    float64
		}{{schemas.MetricFloorTimeSpreads, o.Resolution.TimeSpreads}, {schemas.MetricFloorTimeQuantum, o.Resolution.TimeQuantum},
			{schemas.MetricFloorMemSpreads, o.Resolution.MemSpreads}, {schemas.MetricFloorMemQuantumKB, o.Resolution.MemQuantumKB},
			{schemas.MetricReferenceHasGold, gold}} {
			emit(AllLangs, AllLangs, AllLangs, SubsetAllTasks, m.name, m.v, 1)
		}
		break
	}

	// Measurement quality per target language and pooled (every profiled program).
	byLang := map[string][]schemas.ProfileRow{}
	for _, o := range outs {
		for _, p := range o.Profiles {
			if p.Status != schemas.StatusOK || p.Repetitions == 0 {
				continue
			}
			byLang[p.TgtLang] = append(byLang[p.TgtLang], p)
			byLang[AllLangs] = append(byLang[AllLangs], p)
		}
	}
	for _, lang := range slices.Sorted(maps.Keys(byLang)) {
		ps := byLang[lang]
		var cvs, shares []float64
		var over, total float64
		for _, p := range ps {
			cvs = append(cvs, p.CPUCV)
			if p.CPUMeanMs > 0 {
				shares = append(shares, math.Min(p.OverheadCPUMs/p.CPUMeanMs, 1))
			}
			over += math.Min(p.OverheadCPUMs, p.CPUMeanMs)
			total += p.CPUMeanMs
		}
		e := func(metric schemas.Metric, v float64, k int) {
			emit(AllLangs, AllLangs, lang, SubsetAllTasks, metric, v, k)
		}
		e(schemas.MetricProgramsProfiled, float64(len(ps)), len(ps))
		e(schemas.MetricMedianCPUCV, stats.Median(cvs), len(cvs))
		if len(shares) > 0 {
			e(schemas.MetricMedianOverheadShare, stats.Median(shares), len(shares))
		}
		if total > 0 {
			e(schemas.MetricOverheadShareTotal, over/total, len(ps))
		}
	}
	return rows
}

func corpusOf(outs []TaskOutcome) string {
	for _, o := range outs {
		if o.Task.Corpus != "" {
			return o.Task.Corpus
		}
	}
	return ""
}

// Bootstrap of B^P over tasks (BootstrapResamples resamples, 95% percentile
// intervals): how far the sample of tasks decides the translators' Beyond figures
// and their order.
const (
	BootstrapResamples = 2000
	bootstrapLevel     = 0.95
)

// bootstrapRows emits, for direction d and subset, each translator's
// beyond_time_pass_ci_lo/_hi and beyond_mem_pass_ci_lo/_hi, and (translator "*")
// beyond_time_pass_order_kept and beyond_mem_pass_order_kept: the share of
// resamples of the tasks that keep the translators' order by B^P.
func bootstrapRows(outs []TaskOutcome, d [2]string, subset string, translators []string,
	inScope func(TaskOutcome, [2]string, string) bool, emit func(tr, src, tgt, subset string, metric schemas.Metric, v float64, n int)) {
	var timeTasks, memTasks [][]score.BeyondEntry
	for _, o := range outs {
		if !inScope(o, d, subset) {
			continue
		}
		te := make([]score.BeyondEntry, len(translators))
		me := make([]score.BeyondEntry, len(translators))
		for j, tr := range translators {
			if p, ok := o.translatorProfile(tr); ok && p.Correct {
				te[j] = score.BeyondEntry{Correct: true, Score: p.BeyondTime}
				me[j] = score.BeyondEntry{Correct: true, Score: p.BeyondMem}
			}
		}
		timeTasks = append(timeTasks, te)
		memTasks = append(memTasks, me)
	}
	if len(timeTasks) == 0 {
		return
	}
	h := fnv.New64a()
	h.Write([]byte(subset + "/" + d[0] + "/" + d[1]))
	seed := h.Sum64()
	for _, x := range []struct {
		metric schemas.Metric
		tasks  [][]score.BeyondEntry
	}{{schemas.MetricBeyondTimePass, timeTasks}, {schemas.MetricBeyondMemPass, memTasks}} {
		b := score.BootstrapBeyondPass(x.tasks, BootstrapResamples, bootstrapLevel, seed)
		for j, tr := range translators {
			if math.IsNaN(b.Estimate[j]) {
				continue
			}
			emit(tr, d[0], d[1], subset, x.metric+schemas.SuffixCILo, b.Lo[j], len(x.tasks))
			emit(tr, d[0], d[1], subset, x.metric+schemas.SuffixCIHi, b.Hi[j], len(x.tasks))
		}
		if len(translators) >= 2 && !math.IsNaN(b.OrderKept) {
			emit(AllLangs, d[0], d[1], subset, x.metric+schemas.SuffixOrderKept, b.OrderKept, b.Resamples)
		}
	}
}

func shareAbove(xs []float64, t float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	n := 0
	for _, x := range xs {
		if x > t {
			n++
		}
	}
	return float64(n) / float64(len(xs))
}

// NoiseStat summarizes the machine-noise probes of one core (Core -1: every core).
type NoiseStat struct {
	Core   int
	Probes int
	// MedianCV is the median over the probes of the CV of their compute chunks' CPU
	// times.
	MedianCV float64
	// Slowdown is the median over the probes of their mean compute chunk over the
	// fastest compute chunk the core (every core, for Core -1) ran in the whole run:
	// 1 when the machine always ran the work at full speed.
	Slowdown float64
	// CacheMedianCV and CacheSlowdown: the same for the cache chunks.
	CacheMedianCV float64
	CacheSlowdown float64
}

// SummarizeNoise gives one NoiseStat per core, in core order, then one for every
// core together; none when there are no probes.
func SummarizeNoise(rows []schemas.NoiseRow) []NoiseStat {
	if len(rows) == 0 {
		return nil
	}
	byCore := map[int][]schemas.NoiseRow{}
	var cores []int
	for _, r := range rows {
		c := int(r.Core)
		if byCore[c] == nil {
			cores = append(cores, c)
		}
		byCore[c] = append(byCore[c], r)
	}
	sort.Ints(cores)
	// medians gives the median CV and the median slowdown of one kind of chunk.
	medians := func(rs []schemas.NoiseRow, kind func(schemas.NoiseRow) (mean, min, cv float64)) (cv, slowdown float64) {
		fastest := math.Inf(1)
		for _, r := range rs {
			_, m, _ := kind(r)
			fastest = math.Min(fastest, m)
		}
		cvs := make([]float64, len(rs))
		slow := make([]float64, len(rs))
		for i, r := range rs {
			mean, _, c := kind(r)
			cvs[i] = c
			slow[i] = mean / fastest
		}
		return stats.Median(cvs), stats.Median(slow)
	}
	compute := func(r schemas.NoiseRow) (float64, float64, float64) { return r.ChunkMeanMs, r.ChunkMinMs, r.CV }
	cache := func(r schemas.NoiseRow) (float64, float64, float64) {
		return r.CacheChunkMeanMs, r.CacheChunkMinMs, r.CacheCV
	}
	stat := func(core int, rs []schemas.NoiseRow) NoiseStat {
		n := NoiseStat{Core: core, Probes: len(rs)}
		n.MedianCV, n.Slowdown = medians(rs, compute)
		n.CacheMedianCV, n.CacheSlowdown = medians(rs, cache)
		return n
	}
	var out []NoiseStat
	for _, c := range cores {
		out = append(out, stat(c, byCore[c]))
	}
	return append(out, stat(-1, rows))
}

// CVWindow is the median CV of CPU time of the programs whose measured runs began
// in one stretch of the run, [Start, Start+window).
type CVWindow struct {
	Start    time.Time
	Programs int
	MedianCV float64
}

// CVOverTime cuts the run into stretches of the given length (aligned to the
// clock, UTC) and gives, in time order, the median CPU-time CV of the programs
// (status ok, at least two repetitions) whose first measured run began in each:
// how steady the machine was over the run, as the programs themselves saw it.
// Rows without a measured_from are left out.
func CVOverTime(rows []schemas.ProfileRow, window time.Duration) []CVWindow {
	by := map[int64][]float64{}
	for _, r := range rows {
		if r.Status != schemas.StatusOK || r.Repetitions < 2 || r.MeasuredFrom == "" {
			continue
		}
		from, err := time.Parse(time.RFC3339Nano, r.MeasuredFrom)
		if err != nil {
			continue
		}
		k := from.UnixNano() / int64(window)
		by[k] = append(by[k], r.CPUCV)
	}
	keys := make([]int64, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	out := make([]CVWindow, len(keys))
	for i, k := range keys {
		out[i] = CVWindow{Start: time.Unix(0, k*int64(window)).UTC(), Programs: len(by[k]), MedianCV: stats.Median(by[k])}
	}
	return out
}
