// Package efficiency is the domain side of the efficiency job (seed 002, TRACE):
// task sampling, the default-test check, Beyond scores against each task's
// reference set, their aggregation and the machine-noise summaries. Plain Go, no
// Beam: the pipelines' DoFns and the report printers call it, the tests call it
// directly.
package efficiency

import (
	"hash/fnv"
	"math"
	"sort"
	"time"

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
	// a stress suite (only tasks and pass_rate): the Pass of seed 002's Table 15,
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
func ProfileRowOf(run string, t schemas.Task, role, translator string, tests int, core int, rep profile.Report) schemas.ProfileRow {
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
	if !rep.Started.IsZero() {
		r.MeasuredFrom = rep.Started.UTC().Format(time.RFC3339Nano)
		r.MeasuredTo = rep.Ended.UTC().Format(time.RFC3339Nano)
	}
	return r
}

// Clip cuts s to n bytes, marking the cut with "...".
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// ScoreTask settles one task: it is Usable when its ground truth ran correctly on
// the stress suite. The efficiency reference set R is the ground truth plus every
// correct translation of a reference translator (inRef; nil = every translator).
// Each correct program gets B_T and B_M (score.Beyond of its mean CPU time and mean
// peak RSS against R) and its inefficiency ratios against R's best; the task's
// Selected flag applies TRACE's task selection to R (feasible: a correct reference
// translation; impactful; diverse).
func ScoreTask(o *TaskOutcome, inRef func(translator string) bool, sel TaskSelection) {
	var et, pm []float64
	var refTr int
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
		if p.Role == schemas.RoleTranslation && inRef != nil && !inRef(p.Translator) {
			continue
		}
		p.InReference = true
		et = append(et, p.CPUMeanMs)
		pm = append(pm, p.RSSMeanKB)
		if p.Role == schemas.RoleTranslation {
			refTr++
		}
	}
	selected := false
	if o.Usable && refTr > 0 {
		impact := false
		for i := range et {
			impact = impact || et[i] > sel.EpsTimeMs || pm[i] > sel.EpsMemKB
		}
		_, _, cvT := stats.MeanStdCV(et)
		_, _, cvM := stats.MeanStdCV(pm)
		selected = impact && (cvT > sel.EpsDiversity || cvM > sel.EpsDiversity)
	}
	for i := range o.Profiles {
		p := &o.Profiles[i]
		p.Selected = selected
		if !p.Correct || !o.Usable {
			continue
		}
		p.BeyondTime = score.Beyond(p.CPUMeanMs, et)
		p.BeyondMem = score.Beyond(p.RSSMeanKB, pm)
		p.InefficiencyTime = zeroNaN(score.Inefficiency(p.CPUMeanMs, et))
		p.InefficiencyMem = zeroNaN(score.Inefficiency(p.RSSMeanKB, pm))
	}
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

// Aggregate computes the scores of seed 002 from scored task outcomes
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
	translators := SortedKeys(trSet)
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
		// Correlations across translators (seed 002, appendix B.3).
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

	// Tasks and reference sets per direction.
	for _, d := range dirs {
		var tasks, usable, selected int
		var refSizes []float64
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
		}
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
	for _, lang := range SortedKeys(byLang) {
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

// SortedKeys is the keys of m in order.
func SortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
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
