package efficiency

import (
	"fmt"
	"math"
	"testing"
	"time"

	"transmute/schemas"
	"transmute/transforms/score"
	"transmute/transforms/values"
)

func TestEfficiencySampleTasks(t *testing.T) {
	var tasks []schemas.Task
	for _, id := range []string{"A", "B", "C", "D", "E"} {
		tasks = append(tasks, schemas.Task{ProblemID: id, SrcLang: "java", TgtLang: "python"},
			schemas.Task{ProblemID: id, SrcLang: "cpp", TgtLang: "java"})
	}
	got := SampleTasks(tasks, 2)
	if len(got) != 4 {
		t.Fatalf("want 2 per direction, got %v", got)
	}
	// The sample does not depend on the corpus order.
	rev := append([]schemas.Task(nil), tasks...)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	again := SampleTasks(rev, 2)
	for i := range got {
		if got[i] != again[i] {
			t.Fatalf("sample depends on input order: %v vs %v", got, again)
		}
	}
	if n := len(SampleTasks(tasks, 0)); n != len(tasks) {
		t.Errorf("0 keeps every task, got %d", n)
	}
}

func TestEfficiencyDefaultPass(t *testing.T) {
	row := func(tr, oracle string, ostatus schemas.Status, match bool) schemas.ResultRow {
		return schemas.ResultRow{Translator: tr, SrcLang: "java", TgtLang: "python", Oracle: oracle, OracleStatus: ostatus, Match: match}
	}
	rows := []schemas.ResultRow{
		row("a", score.OracleTargetGold, "ok", true), row("a", score.OracleTargetGold, "ok", true),
		row("a", score.OracleSource, "ok", false), // the source oracle is not used when the target gold answers
		row("b", score.OracleTargetGold, "ok", true), row("b", score.OracleTargetGold, "ok", false),
		row("c", score.OracleTargetGold, "ok", true), row("c", score.OracleTargetGold, "runtime_error", false),
		row("d", score.OracleTargetGold, "runtime_error", false), row("d", score.OracleSource, "ok", true),
	}
	got := DefaultPass(rows)
	want := map[string]bool{"a|java|python": true, "b|java|python": false, "c|java|python": true, "d|java|python": true}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: pass %v, want %v", k, got[k], v)
		}
	}
}

func TestEfficiencyStressMatch(t *testing.T) {
	f, _ := values.ParseType("double")
	tol := values.DefaultTolerance
	if !StressMatch(f, []string{"1.0", "2.5"}, []string{"1.0", "2.5000000001"}, tol) {
		t.Error("close floats should match")
	}
	if StressMatch(f, []string{"1.0", "2.5"}, []string{"1.0", "3.5"}, tol) {
		t.Error("different outputs should not match")
	}
	if StressMatch(f, []string{"1.0", "2.5"}, []string{"1.0"}, tol) || StressMatch(f, nil, nil, tol) {
		t.Error("missing outputs should not match")
	}
	if StressMatch(f, []string{"1.0", "2.5"}, []string{"1.0", ""}, tol) {
		t.Error("a test that raised should not match")
	}
}

func effProf(role schemas.Role, tr string, cpu, rss float64, correct bool) schemas.ProfileRow {
	return schemas.ProfileRow{Role: role, Translator: tr, Status: "ok", CPUMeanMs: cpu, RSSMeanKB: rss,
		PassDefault: true, StressMatch: correct, Correct: correct, Repetitions: 5, SrcLang: "cpp", TgtLang: "java"}
}

func effNear(t *testing.T, name string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-9 {
		t.Errorf("%s = %v, want %v", name, got, want)
	}
}

// TestEfficiencyScoreTask checks Beyond, the clipping, the reference set and the
// inefficiency ratios against hand-computed values.
func TestEfficiencyScoreTask(t *testing.T) {
	o := TaskOutcome{Task: schemas.Task{ProblemID: "P", SrcLang: "cpp", TgtLang: "java"},
		Translators: []string{"A", "B", "C", "D", "E"}, PassDefault: []bool{true, true, true, true, true},
		Profiles: []schemas.ProfileRow{
			effProf(schemas.RoleGroundTruth, "", 100, 1000, true),
			effProf(schemas.RoleTranslation, "A", 200, 3000, true),
			effProf(schemas.RoleTranslation, "B", 150, 2000, true),
			effProf(schemas.RoleTranslation, "C", 50, 500, false), // wrong on the stress suite
			effProf(schemas.RoleTranslation, "D", 300, 4000, true),
			effProf(schemas.RoleTranslation, "E", 60, 800, true),
		}}
	// D and E are not reference translators: they are scored, clipped, but do not widen R.
	// The ground truth joins R (RefGold) and the floor is off: Beyond as the paper
	// defines it, plus the gold.
	ScoreTask(&o, ScoreOptions{InReference: func(tr string) bool { return tr != "D" && tr != "E" }, RefGold: true,
		Selection: DefaultTaskSelection})
	if !o.Usable {
		t.Fatal("task with a correct ground truth should be usable")
	}
	// R: ET {100, 200, 150}, PM {1000, 3000, 2000}.
	want := map[string][4]float64{ // B_T, B_M, ineff T, ineff M
		"":  {100, 100, 1, 1},
		"A": {0, 0, 2, 3},
		"B": {50, 50, 1.5, 2},
		"C": {0, 0, 0, 0},         // incorrect: 0
		"D": {0, 0, 3, 4},         // above r_max: clipped to 0
		"E": {100, 100, 0.6, 0.8}, // below r_min: clipped to 100
	}
	for _, p := range o.Profiles {
		w := want[p.Translator]
		effNear(t, p.Translator+" B_T", p.BeyondTime, w[0])
		effNear(t, p.Translator+" B_M", p.BeyondMem, w[1])
		effNear(t, p.Translator+" ineff T", p.InefficiencyTime, w[2])
		effNear(t, p.Translator+" ineff M", p.InefficiencyMem, w[3])
		wantRef := p.Translator == "" || p.Translator == "A" || p.Translator == "B"
		if p.InReference != wantRef {
			t.Errorf("%q in reference = %v", p.Translator, p.InReference)
		}
		if !p.Selected {
			t.Errorf("%q: a diverse, impactful task should be selected", p.Translator)
		}
	}

	// Negligible variance (CV < 0.05 for ET and PM): not selected.
	flat := TaskOutcome{Profiles: []schemas.ProfileRow{effProf(schemas.RoleGroundTruth, "", 100, 1000, true),
		effProf(schemas.RoleTranslation, "A", 101, 1001, true)}}
	ScoreTask(&flat, ScoreOptions{RefGold: true, Selection: DefaultTaskSelection})
	if flat.Profiles[0].Selected {
		t.Error("a task without diversity should not be selected")
	}
	// Trivial runtime (below 10 ms and 1.5 MB): not selected.
	tiny := TaskOutcome{Profiles: []schemas.ProfileRow{effProf(schemas.RoleGroundTruth, "", 1, 100, true),
		effProf(schemas.RoleTranslation, "A", 5, 900, true)}}
	ScoreTask(&tiny, ScoreOptions{RefGold: true, Selection: DefaultTaskSelection})
	if tiny.Profiles[0].Selected {
		t.Error("a task without impact should not be selected")
	}
	// Ground truth failed: not usable, nobody scored.
	bad := TaskOutcome{Profiles: []schemas.ProfileRow{effProf(schemas.RoleGroundTruth, "", 100, 1000, false),
		effProf(schemas.RoleTranslation, "A", 50, 900, false)}}
	ScoreTask(&bad, ScoreOptions{RefGold: true, Selection: DefaultTaskSelection})
	if bad.Usable || bad.Profiles[1].BeyondTime != 0 {
		t.Error("a task whose ground truth fails is not usable")
	}
}

// effNoisy is a correct profile with a spread over its repetitions.
func effNoisy(role schemas.Role, tr string, cpu, cpuStd, rss, rssStd float64) schemas.ProfileRow {
	p := effProf(role, tr, cpu, rss, true)
	p.CPUStdMs, p.RSSStdKB = cpuStd, rssStd
	return p
}

// TestEfficiencyFloorNoSignal: a task whose reference range lies within the floor
// (three pooled standard deviations) gives every correct program 100, however far
// apart their means, and is flagged as having no signal; Aggregate counts it.
func TestEfficiencyFloorNoSignal(t *testing.T) {
	// ET means 40..46 ms, each with std 3 ms: floor 9 ms > range 6 ms. PM means
	// 10000..10012 KiB with std 0: the 4 KiB page is the floor, range 12 > 4.
	o := TaskOutcome{Task: schemas.Task{ProblemID: "P", Corpus: "trace", SrcLang: "java", TgtLang: "python"},
		Translators: []string{"A", "B", "C"}, PassDefault: []bool{true, true, true},
		Profiles: []schemas.ProfileRow{
			effNoisy(schemas.RoleGroundTruth, "", 30, 3, 9000, 0),
			effNoisy(schemas.RoleTranslation, "A", 40, 3, 10000, 0),
			effNoisy(schemas.RoleTranslation, "B", 46, 3, 10012, 0),
			effNoisy(schemas.RoleTranslation, "C", 43, 3, 10006, 0),
		}}
	ScoreTask(&o, DefaultScoreOptions)
	effNear(t, "time floor", o.FloorTime, 9)
	effNear(t, "memory floor", o.FloorMemKB, 4)
	if !o.NoSignalTime || o.NoSignalMem {
		t.Errorf("no signal: time %v (want true), memory %v (want false)", o.NoSignalTime, o.NoSignalMem)
	}
	for _, p := range o.Profiles {
		effNear(t, p.Translator+" B_T", p.BeyondTime, 100)
		if !p.NoSignalTime || p.FloorTime != o.FloorTime {
			t.Errorf("%q: the row does not carry the task's flag and floor", p.Translator)
		}
	}
	// Memory has signal: best+floor = 10004 -> 100, worst 10012 -> 0, 10006 -> 75.
	for tr, want := range map[string]float64{"A": 100, "B": 0, "C": 75} {
		p, _ := o.translatorProfile(tr)
		effNear(t, tr+" B_M", p.BeyondMem, want)
	}
	rows := Aggregate("r", []TaskOutcome{o})
	got := map[schemas.Metric]float64{}
	for _, r := range rows {
		if r.Translator == AllLangs && r.SrcLang == "java" {
			got[r.Metric] = r.Value
		}
		if r.Translator == "B" && r.SrcLang == "java" && r.Subset == SubsetAllTasks && r.Metric == schemas.MetricBeyondTimePass {
			effNear(t, "B's B_T^P", r.Value, 100)
		}
	}
	effNear(t, "no_signal_tasks_time", got[schemas.MetricNoSignalTasksTime], 1)
	effNear(t, "no_signal_tasks_mem", got[schemas.MetricNoSignalTasksMem], 0)
	effNear(t, "floor_time_median", got[schemas.MetricFloorTimeMedian], 9)
}

// TestEfficiencyFloorTies: values within the floor of the best tie with it at
// 100, the scale runs from best+floor to the worst, and a real spread with the
// floor off is score.Beyond exactly.
func TestEfficiencyFloorTies(t *testing.T) {
	ref := []float64{100, 102, 150, 200}
	for _, c := range []struct{ x, floor, want float64 }{
		{100, 5, 100}, {102, 5, 100}, {105, 5, 100}, // within the floor of the best
		{152.5, 5, 50}, {200, 5, 0}, {300, 5, 0}, {50, 5, 100},
		{150, 0, 50}, {102, 0, 98}, // floor off: the paper's Beyond
		{150, 100, 100}, // range inside the floor: no signal
	} {
		effNear(t, fmt.Sprintf("BeyondFloor(%v, floor %v)", c.x, c.floor), BeyondFloor(c.x, ref, c.floor), c.want)
		if c.floor == 0 {
			effNear(t, "floor off", BeyondFloor(c.x, ref, 0), score.Beyond(c.x, ref))
		}
	}
	// One reference value, floor off: no signal, every value 100 (score.Beyond gives
	// a slower one 0).
	effNear(t, "one-value reference", BeyondFloor(120, []float64{100}, 0), 100)
	effNear(t, "empty reference", BeyondFloor(120, nil, 0), 100)
	// A task with a real spread: pooled std 1 ms (floor 3 ms) against a 100 ms
	// range orders and scores the programs as before, to within the floor's share.
	o := TaskOutcome{Translators: []string{"A", "B", "C"}, PassDefault: []bool{true, true, true},
		Profiles: []schemas.ProfileRow{effNoisy(schemas.RoleGroundTruth, "", 100, 1, 1000, 0),
			effNoisy(schemas.RoleTranslation, "A", 100, 1, 1000, 0), effNoisy(schemas.RoleTranslation, "B", 150, 1, 2000, 0),
			effNoisy(schemas.RoleTranslation, "C", 200, 1, 3000, 0)}}
	ScoreTask(&o, DefaultScoreOptions)
	if o.NoSignalTime || o.NoSignalMem {
		t.Error("a real spread has signal")
	}
	for tr, want := range map[string]float64{"A": 100, "B": 50, "C": 0} {
		p, _ := o.translatorProfile(tr)
		if math.Abs(p.BeyondTime-want) > 2 {
			t.Errorf("%s: B_T %v, want about %v", tr, p.BeyondTime, want)
		}
	}
}

// TestEfficiencyReferenceWithoutGold: by default the ground truth is outside the
// reference set, so a gold far faster than every translation moves nobody's
// score; with RefGold it joins R and does.
func TestEfficiencyReferenceWithoutGold(t *testing.T) {
	mk := func(gold float64) TaskOutcome {
		return TaskOutcome{Translators: []string{"A", "B"}, PassDefault: []bool{true, true},
			Profiles: []schemas.ProfileRow{effProf(schemas.RoleGroundTruth, "", gold, 100, true),
				effProf(schemas.RoleTranslation, "A", 100, 1000, true), effProf(schemas.RoleTranslation, "B", 200, 3000, true)}}
	}
	scores := func(o TaskOutcome) map[string]float64 {
		m := map[string]float64{}
		for _, p := range o.Profiles {
			if p.Role == schemas.RoleTranslation {
				m[p.Translator] = p.BeyondTime
			}
			if p.Role == schemas.RoleGroundTruth && p.InReference {
				m["gold in R"] = 1
			}
		}
		return m
	}
	fast, slow := mk(1), mk(150)
	ScoreTask(&fast, DefaultScoreOptions)
	ScoreTask(&slow, DefaultScoreOptions)
	f, s := scores(fast), scores(slow)
	if f["gold in R"] != 0 || f["A"] != 100 || f["B"] != 0 || f["A"] != s["A"] || f["B"] != s["B"] {
		t.Errorf("without RefGold the gold moved the scores: fast gold %v, slow gold %v", f, s)
	}
	withGold := DefaultScoreOptions
	withGold.RefGold = true
	ScoreTask(&fast, withGold)
	if g := scores(fast); g["gold in R"] != 1 || g["A"] >= 100 {
		t.Errorf("with RefGold the fast gold should be R's best: %v", g)
	}
}

// TestEfficiencyAggregate checks B, B^P, pass rate, inefficiency shares and the
// correlations across translators against values computed by hand.
func TestSummarizeNoise(t *testing.T) {
	if SummarizeNoise(nil) != nil {
		t.Error("no probes: want no stats")
	}
	rows := []schemas.NoiseRow{
		{Core: 1, ChunkMeanMs: 12, ChunkMinMs: 10, CV: 0.04, CacheChunkMeanMs: 8, CacheChunkMinMs: 6, CacheCV: 0.2},
		{Core: 0, ChunkMeanMs: 10, ChunkMinMs: 10, CV: 0.01, CacheChunkMeanMs: 5, CacheChunkMinMs: 4, CacheCV: 0.1},
		{Core: 0, ChunkMeanMs: 15, ChunkMinMs: 12, CV: 0.10, CacheChunkMeanMs: 9, CacheChunkMinMs: 5, CacheCV: 0.3},
		{Core: 0, ChunkMeanMs: 11, ChunkMinMs: 11, CV: 0.02, CacheChunkMeanMs: 6, CacheChunkMinMs: 6, CacheCV: 0.05},
		{Core: 1, ChunkMeanMs: 8, ChunkMinMs: 8, CV: 0.00, CacheChunkMeanMs: 3, CacheChunkMinMs: 3, CacheCV: 0.0},
	}
	got := SummarizeNoise(rows)
	// By hand, compute chunks. Core 0: CVs 0.01 0.10 0.02 -> 0.02; fastest 10,
	// means/10 = 1, 1.5, 1.1 -> 1.1. Core 1: CVs 0.04 0 -> 0.02; fastest 8, 12/8 =
	// 1.5 and 1 -> 1.25. All: CVs median 0.02; fastest 8: 1.5, 1.25, 1.875, 1.375, 1
	// -> 1.375.
	// Cache chunks. Core 0: CVs 0.1 0.3 0.05 -> 0.1; fastest 4: 5/4, 9/4, 6/4 ->
	// 1.5. Core 1: CVs 0.2 0 -> 0.1; fastest 3: 8/3 and 1 -> 11/6. All: CVs 0.2 0.1
	// 0.3 0.05 0 -> 0.1; fastest 3: 8/3, 5/3, 3, 2, 1 -> 2.
	want := []NoiseStat{{0, 3, 0.02, 1.1, 0.1, 1.5}, {1, 2, 0.02, 1.25, 0.1, 11.0 / 6}, {-1, 5, 0.02, 1.375, 0.1, 2}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i].Core != want[i].Core || got[i].Probes != want[i].Probes {
			t.Errorf("stat %d: %+v, want %+v", i, got[i], want[i])
		}
		effNear(t, "median CV", got[i].MedianCV, want[i].MedianCV)
		effNear(t, "slowdown", got[i].Slowdown, want[i].Slowdown)
		effNear(t, "cache median CV", got[i].CacheMedianCV, want[i].CacheMedianCV)
		effNear(t, "cache slowdown", got[i].CacheSlowdown, want[i].CacheSlowdown)
	}
}

func TestEfficiencyAggregate(t *testing.T) {
	task := func(id string) schemas.Task {
		return schemas.Task{ProblemID: id, Corpus: "trace", SrcLang: "cpp", TgtLang: "java"}
	}
	t1 := TaskOutcome{Task: task("T1"), Translators: []string{"X", "Y", "Z"}, PassDefault: []bool{true, true, false},
		Profiles: []schemas.ProfileRow{effProf(schemas.RoleGroundTruth, "", 100, 1000, true),
			effProf(schemas.RoleTranslation, "X", 100, 1000, true), effProf(schemas.RoleTranslation, "Y", 200, 3000, true)}}
	t2 := TaskOutcome{Task: task("T2"), Translators: []string{"X", "Y", "Z"}, PassDefault: []bool{true, false, true},
		Profiles: []schemas.ProfileRow{effProf(schemas.RoleGroundTruth, "", 100, 1000, true),
			effProf(schemas.RoleTranslation, "X", 300, 2000, true), effProf(schemas.RoleTranslation, "Z", 200, 1000, true)}}
	// T3 has no stress suite: it counts in the Pass over every task only.
	t3 := TaskOutcome{Task: task("T3"), Translators: []string{"X", "Y"}, PassDefault: []bool{true, false}, NoSuite: true}
	outs := []TaskOutcome{t1, t2}
	for i := range outs {
		ScoreTask(&outs[i], ScoreOptions{RefGold: true, Selection: DefaultTaskSelection})
	}
	rows := Aggregate("r", append(outs, t3))
	getIn := func(subset, tr, src, metric string) schemas.ScoreRow {
		for _, r := range rows {
			if r.Translator == tr && r.SrcLang == src && r.Subset == subset && string(r.Metric) == metric {
				return r
			}
		}
		t.Fatalf("no %s %s %s %s", subset, tr, src, metric)
		return schemas.ScoreRow{}
	}
	get := func(tr, src, metric string) schemas.ScoreRow { return getIn(SubsetAllTasks, tr, src, metric) }
	for _, c := range []struct {
		tr   string
		pass float64
		n    int64
	}{{"X", 1, 3}, {"Y", 1.0 / 3, 3}, {"Z", 0.5, 2}} {
		for _, src := range []string{"cpp", AllLangs} {
			r := getIn(SubsetEveryTask, c.tr, src, "pass_rate")
			effNear(t, c.tr+" pass over every task", r.Value, c.pass)
			if r.N != c.n {
				t.Errorf("%s %s: pass over every task of %d tasks, want %d", c.tr, src, r.N, c.n)
			}
		}
	}
	if n := get(AllLangs, "cpp", "tasks").Value; n != 2 {
		t.Errorf("%v tasks with a suite, want 2", n)
	}
	// T1: R_T {100,100,200}: X 100, Y 0; R_M {1000,1000,3000}: X 100, Y 0.
	// T2: R_T {100,300,200}: X 0, Z 50;  R_M {1000,2000,1000}: X 0, Z 100.
	want := map[string]map[string]float64{
		"X": {"pass_rate": 1, "beyond_time": 50, "beyond_time_pass": 50, "beyond_mem": 50, "beyond_mem_pass": 50,
			"inefficiency_time_mean": 2, "inefficient_time_share": 0.5, "tasks": 2},
		"Y": {"pass_rate": 0.5, "beyond_time": 0, "beyond_time_pass": 0, "beyond_mem": 0, "beyond_mem_pass": 0},
		"Z": {"pass_rate": 0.5, "beyond_time": 25, "beyond_time_pass": 50, "beyond_mem": 50, "beyond_mem_pass": 100},
	}
	for tr, ms := range want {
		for m, v := range ms {
			effNear(t, tr+" "+m, get(tr, "cpp", m).Value, v)
			effNear(t, tr+" pooled "+m, get(tr, AllLangs, m).Value, v)
		}
	}
	if n := get("Z", "cpp", "beyond_time_pass").N; n != 1 {
		t.Errorf("B^P of Z over %d correct translations, want 1", n)
	}
	// Across translators, pass (1, .5, .5) vs B_T^P (50, 0, 50): Pearson r = 0.5,
	// Spearman rho = 0.5, OLS R^2 = 0.25 (by hand).
	effNear(t, "pearson", get(AllLangs, AllLangs, "corr_pearson_pass_beyond_time_pass").Value, 0.5)
	effNear(t, "spearman", get(AllLangs, AllLangs, "corr_spearman_pass_beyond_time_pass").Value, 0.5)
	effNear(t, "r2", get(AllLangs, AllLangs, "ols_r2_pass_beyond_time_pass").Value, 0.25)
	effNear(t, "reference set", get(AllLangs, "cpp", "reference_set_mean").Value, 3)

	// Bootstrap over the two tasks. B_T^P: X scores 100 on T1 and 0 on T2, so a
	// resample gives 100, 50 or 0 (1/4, 1/2, 1/4): its 95% interval is [0, 100];
	// Y (T1 only, 0) and Z (T2 only, 50) have one value each.
	for _, c := range []struct {
		tr     string
		lo, hi float64
	}{{"X", 0, 100}, {"Y", 0, 0}, {"Z", 50, 50}} {
		effNear(t, c.tr+" B_T^P ci lo", get(c.tr, "cpp", "beyond_time_pass_ci_lo").Value, c.lo)
		effNear(t, c.tr+" B_T^P ci hi", get(c.tr, "cpp", "beyond_time_pass_ci_hi").Value, c.hi)
	}
	// X and Z tie on B_T^P (50): there is no order to keep, and no row.
	for _, r := range rows {
		if r.Metric == "beyond_time_pass_order_kept" && r.SrcLang == "cpp" && r.Subset == SubsetAllTasks {
			t.Errorf("order kept %v with tied B_T^P", r.Value)
		}
	}
	// B_M^P: X 50, Y 0, Z 100, an order Z > X > Y. A resample of T1 twice has no Z,
	// of T2 twice no Y; only the mixed ones (half) keep the order.
	if r := get(AllLangs, "cpp", "beyond_mem_pass_order_kept"); math.Abs(r.Value-0.5) > 0.05 || r.N != BootstrapResamples {
		t.Errorf("B_M^P order kept %v of %d resamples, want about 0.5 of %d", r.Value, r.N, BootstrapResamples)
	}
}

// CVOverTime: stretches aligned to the clock, in time order, the median CV of the
// programs that began in each; failed, single-run and undated rows left out.
func TestCVOverTime(t *testing.T) {
	row := func(from string, cv float64) schemas.ProfileRow {
		return schemas.ProfileRow{Status: schemas.StatusOK, Repetitions: 5, MeasuredFrom: from, CPUCV: cv}
	}
	rows := []schemas.ProfileRow{
		row("2026-11-25T01:07:00.5Z", 0.09),
		row("2026-11-25T01:00:00Z", 0.02),
		row("2026-11-25T01:04:59.999999999Z", 0.04),
		row("2026-11-25T01:03:10Z", 0.03),
		row("2026-11-25T00:59:59Z", 0.50),
		row("", 0.70),
		{Status: schemas.StatusTimeout, Repetitions: 1, MeasuredFrom: "2026-11-25T01:01:00Z", CPUCV: 0.9},
		{Status: schemas.StatusOK, Repetitions: 1, MeasuredFrom: "2026-11-25T01:01:00Z", CPUCV: 0.8},
	}
	got := CVOverTime(rows, 5*time.Minute)
	want := []CVWindow{
		{Start: time.Date(2026, 11, 25, 0, 55, 0, 0, time.UTC), Programs: 1, MedianCV: 0.50},
		{Start: time.Date(2026, 11, 25, 1, 0, 0, 0, time.UTC), Programs: 3, MedianCV: 0.03},
		{Start: time.Date(2026, 11, 25, 1, 5, 0, 0, time.UTC), Programs: 1, MedianCV: 0.09},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range want {
		if !got[i].Start.Equal(want[i].Start) || got[i].Programs != want[i].Programs || math.Abs(got[i].MedianCV-want[i].MedianCV) > 1e-12 {
			t.Errorf("stretch %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if len(CVOverTime(nil, time.Minute)) != 0 {
		t.Error("no rows: want an empty list")
	}
}

// effCounted is a correct profile of the count mode: instructions and an
// allocation peak, with process times that disagree with them (noise).
func effCounted(role schemas.Role, tr string, instr int64, allocKB, cpu float64) schemas.ProfileRow {
	p := effProf(role, tr, cpu, 5000, true)
	p.Instructions, p.AllocPeakKB = instr, allocKB
	return p
}

// TestEfficiencyCountMode: in the count mode Beyond comes from the instruction
// counts and allocation peaks, not the process's CPU time, with the fixed quanta as
// floors; a task whose counts lie within the quantum has no signal.
func TestEfficiencyCountMode(t *testing.T) {
	task := schemas.Task{ProblemID: "P", Corpus: "trace", SrcLang: "java", TgtLang: "python"}
	o := TaskOutcome{Task: task, Translators: []string{"A", "B", "C"}, PassDefault: []bool{true, true, true},
		Profiles: []schemas.ProfileRow{
			effCounted(schemas.RoleGroundTruth, "", 1_000_000, 100, 30),
			// process CPU says C < B < A; the counts say A < C < B
			effCounted(schemas.RoleTranslation, "A", 1_000_000, 100, 46),
			effCounted(schemas.RoleTranslation, "B", 2_010_000, 300, 43),
			effCounted(schemas.RoleTranslation, "C", 1_510_000, 104, 40),
		}}
	opt := DefaultScoreOptions
	opt.Cost = CostCount
	ScoreTask(&o, opt)
	effNear(t, "count floor", o.FloorTime, 10000)
	effNear(t, "alloc floor", o.FloorMemKB, 4)
	// best+floor = 1,010,000 -> 100, worst 2,010,000 -> 0, C 1,510,000 -> 50.
	for tr, want := range map[string][2]float64{"A": {100, 100}, "B": {0, 0}, "C": {50, 100}} {
		p, _ := o.translatorProfile(tr)
		effNear(t, tr+" B_T", p.BeyondTime, want[0])
		effNear(t, tr+" B_M", p.BeyondMem, want[1])
		if p.TimeMeasure != TimeInstructions || p.MemMeasure != MemAllocPeak || p.CostMode != CostCount {
			t.Errorf("%s: measures %q %q mode %q", tr, p.TimeMeasure, p.MemMeasure, p.CostMode)
		}
	}
	flat := TaskOutcome{Task: task, Translators: []string{"A", "B"}, PassDefault: []bool{true, true},
		Profiles: []schemas.ProfileRow{
			effCounted(schemas.RoleGroundTruth, "", 1_000_000, 100, 30),
			effCounted(schemas.RoleTranslation, "A", 1_000_000, 100, 20),
			effCounted(schemas.RoleTranslation, "B", 1_009_000, 100, 60),
		}}
	ScoreTask(&flat, opt)
	if !flat.NoSignalTime || !flat.NoSignalMem {
		t.Errorf("counts within the quantum: no signal %v %v, want true", flat.NoSignalTime, flat.NoSignalMem)
	}
	for _, p := range flat.Profiles {
		effNear(t, p.Translator+" B_T in a flat task", p.BeyondTime, 100)
	}
}

// TestEfficiencyCountModeTimedTask: in the count mode, a task with a correct
// program that was timed, not counted (no instructions), is scored on the calls'
// CPU time, every program of it; Aggregate counts it among the timed tasks and
// keeps it out of the count floor's median.
func TestEfficiencyCountModeTimedTask(t *testing.T) {
	task := schemas.Task{ProblemID: "P", Corpus: "trace", SrcLang: "java", TgtLang: "python"}
	calls := func(p schemas.ProfileRow, ms float64) schemas.ProfileRow {
		p.CallsCPUMeanMs, p.CallsCPUStdMs = ms, 0.01*ms
		return p
	}
	heavy := calls(effProf(schemas.RoleTranslation, "B", 900, 5000, true), 800) // not counted
	o := TaskOutcome{Task: task, Translators: []string{"A", "B", "C"}, PassDefault: []bool{true, true, true},
		Profiles: []schemas.ProfileRow{
			calls(effCounted(schemas.RoleGroundTruth, "", 1_000_000, 100, 30), 2),
			// the counts would say C is best; the calls' times say A, then C, then B
			calls(effCounted(schemas.RoleTranslation, "A", 3_000_000, 100, 46), 10),
			heavy,
			calls(effCounted(schemas.RoleTranslation, "C", 1_010_000, 104, 40), 405),
		}}
	opt := DefaultScoreOptions
	opt.Cost = CostCount
	ScoreTask(&o, opt)
	if o.CostMode != CostCalls {
		t.Fatalf("task mode %q, want %q", o.CostMode, CostCalls)
	}
	// reference {10, 800, 405}: A 100, B 0, C (800-405)/(800-(10+floor)), about
	// 51 with the floor of the pooled spread (5.2 ms x 3)
	if o.FloorTime < 10 || o.FloorTime > 20 {
		t.Errorf("floor %v ms, want 3 pooled stds of the calls' times", o.FloorTime)
	}
	for tr, want := range map[string]float64{"A": 100, "B": 0, "C": 100 * 395 / (790 - o.FloorTime)} {
		p, _ := o.translatorProfile(tr)
		effNear(t, tr+" B_T", p.BeyondTime, want)
		if p.CostMode != CostCalls || p.TimeMeasure != TimeCallsCPU {
			t.Errorf("%s: mode %q measure %q", tr, p.CostMode, p.TimeMeasure)
		}
	}
	counted := TaskOutcome{Task: schemas.Task{ProblemID: "Q", Corpus: "trace", SrcLang: "java", TgtLang: "python"},
		Translators: []string{"A"}, PassDefault: []bool{true},
		Profiles: []schemas.ProfileRow{
			effCounted(schemas.RoleGroundTruth, "", 1_000_000, 100, 30),
			effCounted(schemas.RoleTranslation, "A", 2_000_000, 100, 30),
		}}
	ScoreTask(&counted, opt)
	if counted.CostMode != CostCount {
		t.Fatalf("fully counted task: mode %q", counted.CostMode)
	}
	rows := Aggregate("r", []TaskOutcome{o, counted})
	got := map[schemas.Metric]float64{}
	for _, r := range rows {
		if r.SrcLang == "java" && r.TgtLang == "python" && r.Translator == AllLangs && r.Subset == SubsetAllTasks {
			got[r.Metric] = r.Value
		}
	}
	if got[schemas.MetricTasksTimed] != 1 || got[schemas.MetricFloorTimeMedian] != 10000 {
		t.Errorf("timed tasks %v, floor median %v; want 1 and the count quantum 10000", got[schemas.MetricTasksTimed], got[schemas.MetricFloorTimeMedian])
	}
}
