package report

import (
	"context"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"gocloud.dev/blob"

	"transmute/io/sink"
	"transmute/report/table15"
	"transmute/schemas"
	eff "transmute/transforms/efficiency"
)

// effDirOrder is the direction order of TRACE's Table 15.
var effDirOrder = [][2]string{{"cpp", "java"}, {"cpp", "python"}, {"java", "cpp"}, {"java", "python"}, {"python", "cpp"}, {"python", "java"}}

// effDirName is a direction as Table 15 names it (C++->Java).
func effDirName(src, tgt string) string {
	short := map[string]string{"cpp": "C++", "java": "Java", "python": "Py", eff.AllLangs: "all"}
	if src == eff.AllLangs {
		return "all directions"
	}
	name := func(lang string) string {
		if s, ok := short[lang]; ok {
			return s
		}
		return lang // a language outside Table 15 keeps its own name
	}
	return name(src) + "->" + name(tgt)
}

// PrintEfficiencySummary prints the efficiency scores of a run in the layout of
// TRACE's Table 15 (Pass, B_T, B_M, B_T^P, B_M^P in %, per model and direction,
// with n the tasks scored), then the measurement figures and the correlations.
func PrintEfficiencySummary(ctx context.Context, w io.Writer, b *blob.Bucket) error {
	rows, err := sink.Read[schemas.ScoreRow](ctx, b, "scores")
	if err != nil {
		return err
	}
	type key struct{ tr, src, tgt, subset string }
	m := map[key]map[schemas.Metric]schemas.ScoreRow{}
	trs := map[string]bool{}
	dirsPresent := map[[2]string]bool{}
	for _, r := range rows {
		k := key{r.Translator, r.SrcLang, r.TgtLang, r.Subset}
		if m[k] == nil {
			m[k] = map[schemas.Metric]schemas.ScoreRow{}
		}
		m[k][r.Metric] = r
		if r.Translator != eff.AllLangs {
			trs[r.Translator] = true
		}
		dirsPresent[[2]string{r.SrcLang, r.TgtLang}] = true
	}
	var dirs [][2]string
	for _, d := range effDirOrder {
		if dirsPresent[d] {
			dirs = append(dirs, d)
		}
	}
	// Directions outside Table 15 follow, in order (map order would differ run to run).
	var others [][2]string
	for d := range dirsPresent {
		known := d[0] == eff.AllLangs
		for _, x := range effDirOrder {
			known = known || x == d
		}
		if !known {
			others = append(others, d)
		}
	}
	sort.Slice(others, func(i, j int) bool { return others[i][0]+"|"+others[i][1] < others[j][0]+"|"+others[j][1] })
	dirs = append(dirs, others...)
	dirs = append(dirs, [2]string{eff.AllLangs, eff.AllLangs})
	models := slices.Sorted(maps.Keys(trs))
	val := func(ms map[schemas.Metric]schemas.ScoreRow, metric schemas.Metric, scale float64) string {
		r, ok := ms[metric]
		if !ok || math.IsNaN(r.Value) {
			return "-"
		}
		return fmt.Sprintf("%.1f", r.Value*scale)
	}
	count := func(ms map[schemas.Metric]schemas.ScoreRow, metric schemas.Metric) string {
		r, ok := ms[metric]
		if !ok {
			return "-"
		}
		return fmt.Sprintf("%d", int64(r.Value))
	}
	for _, subset := range []string{eff.SubsetAllTasks, eff.SubsetSelected} {
		title := "all scored tasks"
		if subset == eff.SubsetSelected {
			title = "our re-selection: tasks passing TRACE's task selection on our measurements (Table 15 covers TRACE's tasks as the benchmark selected them once: compare subset all)"
		}
		fmt.Fprintf(w, "\nEfficiency, %s (layout of TRACE Table 15; %% ; n = tasks scored)\n", title)
		for start := 0; start < len(dirs); start += 3 {
			block := dirs[start:min(start+3, len(dirs))]
			fmt.Fprintf(w, "%-28s", "model")
			for _, d := range block {
				fmt.Fprintf(w, " | %-38s", effDirName(d[0], d[1]))
			}
			fmt.Fprintf(w, "\n%-28s", "")
			for range block {
				fmt.Fprintf(w, " | %6s %6s %6s %6s %6s %4s", "Pass", "B_T", "B_M", "B_T^P", "B_M^P", "n")
			}
			fmt.Fprintln(w)
			avg := make([][5]float64, len(block))
			cnt := make([][5]int, len(block))
			for _, tr := range models {
				fmt.Fprintf(w, "%-28s", eff.Clip(tr, 28))
				for i, d := range block {
					ms := m[key{tr, d[0], d[1], subset}]
					fmt.Fprintf(w, " | %6s %6s %6s %6s %6s %4s", val(ms, schemas.MetricPassRate, 100), val(ms, schemas.MetricBeyondTime, 1), val(ms, schemas.MetricBeyondMem, 1),
						val(ms, schemas.MetricBeyondTimePass, 1), val(ms, schemas.MetricBeyondMemPass, 1), count(ms, schemas.MetricTasks))
					for j, metric := range []schemas.Metric{schemas.MetricPassRate, schemas.MetricBeyondTime, schemas.MetricBeyondMem,
						schemas.MetricBeyondTimePass, schemas.MetricBeyondMemPass} {
						if r, ok := ms[metric]; ok && !math.IsNaN(r.Value) {
							v := r.Value
							if metric == schemas.MetricPassRate {
								v *= 100
							}
							avg[i][j] += v
							cnt[i][j]++
						}
					}
				}
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "%-28s", "Average")
			for i := range block {
				for j := 0; j < 5; j++ {
					if j == 0 {
						fmt.Fprint(w, " |")
					}
					if cnt[i][j] == 0 {
						fmt.Fprintf(w, " %6s", "-")
					} else {
						fmt.Fprintf(w, " %6.1f", avg[i][j]/float64(cnt[i][j]))
					}
				}
				fmt.Fprintf(w, " %4s", "")
			}
			fmt.Fprintln(w)
		}
		cm := m[key{eff.AllLangs, eff.AllLangs, eff.AllLangs, subset}]
		if _, ok := cm[schemas.MetricCorrPearsonPassBeyondTimePass]; ok {
			fmt.Fprintf(w, "Pass vs B_T^P across models: Pearson %s (p %s), Spearman %s (p %s), OLS R^2 %s; Pass vs B_M^P: Pearson %s (p %s), Spearman %s (p %s), OLS R^2 %s (n = %d models)\n",
				val(cm, schemas.MetricCorrPearsonPassBeyondTimePass, 1e0), val(cm, schemas.MetricCorrPearsonPassBeyondTimePass+schemas.SuffixP, 1),
				val(cm, schemas.MetricCorrSpearmanPassBeyondTimePass, 1), val(cm, schemas.MetricCorrSpearmanPassBeyondTimePass+schemas.SuffixP, 1),
				val(cm, schemas.MetricOLSR2PassBeyondTimePass, 1),
				val(cm, schemas.MetricCorrPearsonPassBeyondMemPass, 1), val(cm, schemas.MetricCorrPearsonPassBeyondMemPass+schemas.SuffixP, 1),
				val(cm, schemas.MetricCorrSpearmanPassBeyondMemPass, 1), val(cm, schemas.MetricCorrSpearmanPassBeyondMemPass+schemas.SuffixP, 1),
				val(cm, schemas.MetricOLSR2PassBeyondMemPass, 1), cm[schemas.MetricCorrPearsonPassBeyondTimePass].N)
		}
	}
	fmt.Fprintf(w, "\nB_T^P of all scored tasks with its 95%% bootstrap interval over tasks (%d resamples); order kept: the share of resamples that keep the models' order by B_T^P\n",
		eff.BootstrapResamples)
	fmt.Fprintf(w, "%-16s", "direction")
	for _, tr := range models {
		fmt.Fprintf(w, " | %-22s", eff.Clip(tr, 22))
	}
	fmt.Fprintf(w, " | %s\n", "order kept")
	for _, d := range dirs {
		fmt.Fprintf(w, "%-16s", effDirName(d[0], d[1]))
		for _, tr := range models {
			ms := m[key{tr, d[0], d[1], eff.SubsetAllTasks}]
			cell := "-"
			if _, ok := ms[schemas.MetricBeyondTimePass+schemas.SuffixCILo]; ok {
				cell = fmt.Sprintf("%s [%s, %s]", val(ms, schemas.MetricBeyondTimePass, 1), val(ms, schemas.MetricBeyondTimePass+schemas.SuffixCILo, 1), val(ms, schemas.MetricBeyondTimePass+schemas.SuffixCIHi, 1))
			}
			fmt.Fprintf(w, " | %-22s", cell)
		}
		fmt.Fprintf(w, " | %s%%\n", val(m[key{eff.AllLangs, d[0], d[1], eff.SubsetAllTasks}], schemas.MetricBeyondTimePass+schemas.SuffixOrderKept, 100))
	}
	fmt.Fprintln(w, "\nPass over every task, with or without a stress suite (default tests; Table 15's Pass covers every task; % (n))")
	fmt.Fprintf(w, "%-28s", "model")
	for _, d := range dirs {
		fmt.Fprintf(w, " | %-14s", effDirName(d[0], d[1]))
	}
	fmt.Fprintln(w)
	for _, tr := range models {
		fmt.Fprintf(w, "%-28s", eff.Clip(tr, 28))
		for _, d := range dirs {
			ms := m[key{tr, d[0], d[1], eff.SubsetEveryTask}]
			fmt.Fprintf(w, " | %-14s", val(ms, schemas.MetricPassRate, 100)+" ("+count(ms, schemas.MetricTasks)+")")
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "\nTasks and reference sets:")
	for _, d := range dirs {
		ms := m[key{eff.AllLangs, d[0], d[1], eff.SubsetAllTasks}]
		if _, ok := ms[schemas.MetricTasks]; !ok {
			continue
		}
		fmt.Fprintf(w, "  %-16s tasks %s, usable (ground truth ok) %s, selected %s, mean reference set %s programs\n",
			effDirName(d[0], d[1]), count(ms, schemas.MetricTasks), count(ms, schemas.MetricTasksUsable), count(ms, schemas.MetricTasksSelected), val(ms, schemas.MetricReferenceSetMean, 1))
	}
	profiles, err := sink.Read[schemas.ProfileRow](ctx, b, "profiles")
	if err != nil {
		return err
	}
	for _, l := range EfficiencyFloorLines(rows, profiles) {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w, "Measurement (every profiled program that ran):")
	for _, lang := range []string{"cpp", "java", "python", eff.AllLangs} {
		ms := m[key{eff.AllLangs, eff.AllLangs, lang, eff.SubsetAllTasks}]
		if _, ok := ms[schemas.MetricProgramsProfiled]; !ok {
			continue
		}
		name := lang
		if lang == eff.AllLangs {
			name = "all"
		}
		fmt.Fprintf(w, "  %-7s programs %s, median CV of CPU time %s%%, median overhead share %s%%, overhead / measured CPU %s%%\n",
			name, count(ms, schemas.MetricProgramsProfiled), val(ms, schemas.MetricMedianCPUCV, 100), val(ms, schemas.MetricMedianOverheadShare, 100), val(ms, schemas.MetricOverheadShareTotal, 100))
	}
	if ws := eff.CVOverTime(profiles, 5*time.Minute); len(ws) > 0 {
		fmt.Fprint(w, "  median CV by 5-minute stretch of the run (UTC, by each program's first measured run; programs):")
		lo, hi := -1, -1
		for i, x := range ws {
			sep := ","
			if i == 0 {
				sep = ""
			}
			fmt.Fprintf(w, "%s %s %.1f%% (%d)", sep, x.Start.Format("15:04"), 100*x.MedianCV, x.Programs)
			if x.Programs >= 20 {
				if lo < 0 || x.MedianCV < ws[lo].MedianCV {
					lo = i
				}
				if hi < 0 || x.MedianCV > ws[hi].MedianCV {
					hi = i
				}
			}
		}
		fmt.Fprintln(w)
		if lo >= 0 {
			fmt.Fprintf(w, "  over the stretches of 20 programs or more: lowest %.1f%% (%s), highest %.1f%% (%s)\n",
				100*ws[lo].MedianCV, ws[lo].Start.Format("15:04"), 100*ws[hi].MedianCV, ws[hi].Start.Format("15:04"))
		}
	}
	if err := table15.PrintComparison(w, rows, profiles, 0); err != nil { // nothing for models outside Table 15
		return err
	}
	noise, err := sink.Read[schemas.NoiseRow](ctx, b, "noise")
	if err != nil {
		return err
	}
	if ns := eff.SummarizeNoise(noise); len(ns) > 0 {
		fmt.Fprintf(w, "Machine noise (noise table: probes of %d compute chunks and %d cache-walk chunks of fixed work on a profiling core, between suites; the CV that the machine alone adds to a program that computes, or that reads memory beyond its core's caches):\n",
			noise[0].Chunks, noise[0].Chunks)
		for _, n := range ns {
			name := fmt.Sprintf("core %d", n.Core)
			if n.Core < 0 {
				name = "all"
			}
			fmt.Fprintf(w, "  %-7s probes %d; compute: median CV %.1f%%, median slowdown %.2fx over the fastest chunk; cache walk: median CV %.1f%%, median slowdown %.2fx\n",
				name, n.Probes, 100*n.MedianCV, n.Slowdown, 100*n.CacheMedianCV, n.CacheSlowdown)
		}
	}
	return nil
}

// PrintEfficiencyRunCPU prints how much of this process's CPU (its own and its
// waited-for children's) went into the measured repetitions of the profiles table,
// and how much went elsewhere (builds, the default tests, the harness-overhead
// baselines -- one warm-up and the empty candidate's runs per suite, shared by the
// suite's programs --, sandbox set-up, the pipeline itself). cpu is the run's CPU
// (the launcher's ProcessCPU at the end of the run, after stopping the javac server
// so that its CPU counts).
func PrintEfficiencyRunCPU(ctx context.Context, w io.Writer, b *blob.Bucket, cpu time.Duration) error {
	rows, err := sink.Read[schemas.ProfileRow](ctx, b, "profiles")
	if err != nil {
		return err
	}
	measured, net := 0.0, 0.0
	// Identical programs of a problem (two models' equal translations) are profiled
	// once and their rows share the figures: count each measurement once. Rows of one
	// measurement agree on every figure; two measurements never do to the bit.
	type measurement struct {
		problem, lang             string
		cpu, std, wall, rss, over float64
		reps                      int32
	}
	seen := map[measurement]bool{}
	for _, r := range rows {
		m := measurement{r.ProblemID, r.TgtLang, r.CPUMeanMs, r.CPUStdMs, r.WallMean, r.RSSMeanKB, r.OverheadCPUMs, r.Repetitions}
		if seen[m] {
			continue
		}
		seen[m] = true
		measured += r.CPUMeanMs * float64(r.Repetitions) / 1000
		net += r.NetCPUMs * float64(r.Repetitions) / 1000
	}
	total := cpu.Seconds()
	if total <= 0 {
		return nil
	}
	fmt.Fprintf(w, "Run CPU: %.0f s in all (this process and its children); measured repetitions %.0f s (%.1f%%), of which the functions themselves (net of harness overhead) %.0f s (%.1f%%); outside the measured repetitions (builds, default tests, overhead baselines, pipeline) %.1f%%\n",
		total, measured, 100*measured/total, net, 100*net/total, 100*(1-measured/total))
	return nil
}

// effMeasureText says what each time measure of the profiles is.
var effMeasureText = map[string]string{
	eff.TimeProcessCPU:   "ET = mean over the repetitions of the user+sys CPU time (ms) of a fresh process running the whole stress suite, start-up included; PM = mean peak RSS (VmHWM, KiB) of the same runs",
	eff.TimeInstructions: "ET = instructions of the candidate's calls on the whole stress suite, counted once under callgrind (start-up excluded; deterministic, cached by content); PM = allocation peak of the calls (KiB: C++ live heap, Python tracemalloc, Java bytes allocated by the calling thread)",
	eff.TimeCallsCPU:     "ET = mean over the repetitions of the thread CPU time (ms) of the candidate's calls on the whole stress suite, measured in the process (start-up excluded); PM = mean peak RSS (VmHWM, KiB)",
}

// EfficiencyFloorLines describes how the run's Beyond scores were made: the cost
// measures (the mode), the reference set, the resolution floor and, per
// direction, the tasks without efficiency signal (their reference range lies
// within the floor: every correct program scored 100), listed by problem.
func EfficiencyFloorLines(scores []schemas.ScoreRow, profiles []schemas.ProfileRow) []string {
	var out []string
	measures := map[string]bool{}
	count := false
	var countFloor, allocFloor float64
	for _, p := range profiles {
		if p.TimeMeasure != "" {
			measures[p.TimeMeasure] = true
		}
		if p.TimeMeasure == eff.TimeInstructions && !count {
			count, countFloor, allocFloor = true, p.FloorTime, p.FloorMemKB
		}
	}
	for _, m := range slices.Sorted(maps.Keys(measures)) {
		text, ok := effMeasureText[m]
		if !ok {
			text = "ET = " + m
		}
		mode := eff.CostTime
		switch m {
		case eff.TimeInstructions:
			mode = eff.CostCount
		case eff.TimeCallsCPU:
			mode = eff.CostCalls
			if count {
				text += "; in the count mode, the tasks with a correct program whose calls took longer natively than the count limit (--count-max-calls) are timed so: the correct programs of their suite side by side on one core, 5 rounds, each round divided by its geometric mean over them (timed_with)"
			}
		}
		out = append(out, "Cost mode "+mode+" ("+m+"): "+text+".")
	}
	run := map[schemas.Metric]float64{}
	type dirKey [2]string
	perDir := map[dirKey]map[schemas.Metric]schemas.ScoreRow{}
	for _, r := range scores {
		if r.Translator != eff.AllLangs || r.Subset != eff.SubsetAllTasks {
			continue
		}
		if r.SrcLang == eff.AllLangs && r.TgtLang == eff.AllLangs {
			run[r.Metric] = r.Value
		}
		k := dirKey{r.SrcLang, r.TgtLang}
		if perDir[k] == nil {
			perDir[k] = map[schemas.Metric]schemas.ScoreRow{}
		}
		perDir[k][r.Metric] = r
	}
	if _, ok := run[schemas.MetricFloorTimeSpreads]; !ok {
		return out // a run scored before the floor existed
	}
	ref := "the correct translations of the evaluated models, without the ground truth (TRACE's definition)"
	if run[schemas.MetricReferenceHasGold] == 1 {
		ref = "the correct translations of the evaluated models and the ground truth (--reference-gold)"
	}
	out = append(out, "Reference set: "+ref+".")
	pos := func(x float64) float64 { return math.Max(x, 0) }
	unit := "ms"
	if count {
		unit = "instructions"
		out = append(out, fmt.Sprintf("Resolution floor (count mode, a fixed quantum): values closer than %g instructions, or %g KiB of allocation peak, tie; values within the floor of the best score 100; a task whose reference range lies within the floor has no signal and scores every correct program 100.",
			countFloor, allocFloor))
	} else {
		out = append(out, fmt.Sprintf("Resolution floor: values closer than max(%g ms, %g x the pooled within-program std of the reference set's repetitions) in time, max(%g KiB, %g x that std) in memory, tie; values within the floor of the best score 100; a task whose reference range lies within the floor has no signal and scores every correct program 100.",
			pos(run[schemas.MetricFloorTimeQuantum]), pos(run[schemas.MetricFloorTimeSpreads]), pos(run[schemas.MetricFloorMemQuantumKB]), pos(run[schemas.MetricFloorMemSpreads])))
	}
	noSig := map[dirKey][2][]string{}
	seen := map[[3]string]bool{}
	for _, p := range profiles {
		k := [3]string{p.SrcLang, p.TgtLang, p.ProblemID}
		if seen[k] || !p.NoSignalTime && !p.NoSignalMem {
			continue
		}
		seen[k] = true
		l := noSig[dirKey{p.SrcLang, p.TgtLang}]
		if p.NoSignalTime {
			l[0] = append(l[0], p.ProblemID)
		}
		if p.NoSignalMem {
			l[1] = append(l[1], p.ProblemID)
		}
		noSig[dirKey{p.SrcLang, p.TgtLang}] = l
	}
	list := func(ids []string) string {
		sort.Strings(ids)
		if len(ids) > 40 {
			return fmt.Sprintf("%s ... and %d more", strings.Join(ids[:40], " "), len(ids)-40)
		}
		return strings.Join(ids, " ")
	}
	dirs := append(append([][2]string(nil), effDirOrder...), [2]string{eff.AllLangs, eff.AllLangs})
	for d := range perDir {
		known := false
		for _, x := range dirs {
			known = known || x == [2]string(d)
		}
		if !known {
			dirs = append(dirs, d)
		}
	}
	for _, d := range dirs {
		ms, ok := perDir[dirKey(d)]
		if _, has := ms[schemas.MetricNoSignalTasksTime]; !ok || !has {
			continue
		}
		floorT := "-"
		if f, ok := ms[schemas.MetricFloorTimeMedian]; ok {
			floorT = fmt.Sprintf("%.3g %s", f.Value, unit)
		}
		line := fmt.Sprintf("  %-16s no signal in time %d, in memory %d of %d usable tasks; median floor %s, %s KiB",
			effDirName(d[0], d[1]), int(ms[schemas.MetricNoSignalTasksTime].Value), int(ms[schemas.MetricNoSignalTasksMem].Value),
			ms[schemas.MetricNoSignalTasksTime].N, floorT, fmt.Sprintf("%.3g", ms[schemas.MetricFloorMemMedianKB].Value))
		if t, ok := ms[schemas.MetricTasksTimed]; ok {
			line += fmt.Sprintf("; timed, not counted: %d", int(t.Value))
		}
		if l := noSig[dirKey(d)]; d[0] != eff.AllLangs && len(l[0])+len(l[1]) > 0 {
			line += "; time: " + list(l[0]) + "; memory: " + list(l[1])
		}
		out = append(out, line)
	}
	return out
}
