package table15

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"transmute/data/paper"
	"transmute/schemas"
	"transmute/transforms/score"
)

func near(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.IsNaN(got) || math.Abs(got-want) > tol {
		t.Errorf("%s = %v, want %v (tol %v)", name, got, want, tol)
	}
}

var cj = paper.Direction{Src: "cpp", Tgt: "java"}
var pc = paper.Direction{Src: "python", Tgt: "cpp"}

func TestWilson(t *testing.T) {
	// Hand values: center (p + z^2/2n) / (1 + z^2/n), half-width
	// z / (1 + z^2/n) * sqrt(p(1-p)/n + z^2/4n^2), z = 1.96: 8/10 -> [0.4902, 0.9433]
	// (the usual textbook example), 0/10 -> [0, 0.2775], 10/10 -> [0.7225, 1].
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{{8, 10, 0.49016, 0.94332}, {0, 10, 0, 0.27753}, {10, 10, 0.72247, 1}, {106, 108, 0.93498, 0.99491}} {
		lo, hi := Wilson(c.k, c.n, z95)
		near(t, "lo", lo, c.lo, 5e-5)
		near(t, "hi", hi, c.hi, 5e-5)
	}
	if lo, hi := Wilson(0, 0, z95); lo != 0 || hi != 1 {
		t.Errorf("n = 0: [%v, %v], want [0, 1]", lo, hi)
	}
}

func TestComparePassVerdicts(t *testing.T) {
	cell := func(model string, d paper.Direction, p float64) paper.Table15Cell {
		return paper.Table15Cell{Model: model, Dir: d, Figures: paper.Figures{Pass: p}}
	}
	cells := []paper.Table15Cell{
		cell("a", cj, 85.0), // ours 8/10 = 80: -5.0, within
		cell("b", cj, 60.0), // ours 8/10: +20, but 60 is in [49.0, 94.3]
		cell("c", cj, 30.0), // ours 8/10: 30 is below 49.0
		cell("d", cj, 50.0), // no result
		cell("e", pc, 90.0), // ours 106/108 = 98.1: +8.1, 90 < 93.5: outside
	}
	pass := map[Key]Rate{{"a", cj}: {8, 10}, {"b", cj}: {8, 10}, {"c", cj}: {8, 10}, {"e", pc}: {106, 108}}
	alt := map[Key]Rate{{"e", pc}: {100, 108}}
	got := ComparePass(cells, pass, alt)
	want := []Verdict{VerdictWithin, VerdictInside, VerdictOutside, VerdictNoResult, VerdictOutside}
	for i, c := range got {
		if c.Verdict != want[i] {
			t.Errorf("%s: verdict %q, want %q (ours %v, diff %v, [%v, %v])", c.Model, c.Verdict, want[i], c.Ours, c.Diff, c.Lo, c.Hi)
		}
	}
	near(t, "a diff", got[0].Diff, -5, 1e-9)
	near(t, "b lo", got[1].Lo, 49.016, 5e-3)
	if !got[4].HaveAlt || got[4].Alt.Passed != 100 {
		t.Errorf("alt rate not carried: %+v", got[4])
	}
	s := Summarize(got)
	if s.Cells != 5 || s.Meets != 2 || s.ByVerdict[VerdictOutside] != 2 || s.ByVerdict[VerdictNoResult] != 1 {
		t.Errorf("summary %+v", s)
	}
}

func TestPassFromScores(t *testing.T) {
	eval := []schemas.ScoreRow{
		{Translator: "m", Corpus: "trace", SrcLang: "cpp", TgtLang: "java", Oracle: score.OracleTargetGold, Subset: score.SubsetAll, Metric: "pass_rate", Value: 85.0 / 122, N: 122},
		{Translator: "m", Corpus: "trace", SrcLang: "python", TgtLang: "cpp", Oracle: score.OracleTargetGold, Subset: score.SubsetAll, Metric: "pass_rate", Value: 27.0 / 47, N: 47},
		{Translator: "m", Corpus: "trace", SrcLang: "python", TgtLang: "cpp", Oracle: score.OracleTargetGold, Subset: score.SubsetAll, Metric: "pass_rate_cpp_conversions", Value: 28.0 / 47, N: 47},
		// not TRACE's Pass: another corpus, the source oracle, another subset
		{Translator: "m", Corpus: "transcoder", SrcLang: "cpp", TgtLang: "java", Oracle: score.OracleTargetGold, Subset: score.SubsetAll, Metric: "pass_rate", Value: 0.1, N: 500},
		{Translator: "m", Corpus: "trace", SrcLang: "cpp", TgtLang: "python", Oracle: score.OracleSource, Subset: score.SubsetAll, Metric: "pass_rate", Value: 0.1, N: 69},
		{Translator: "m", Corpus: "trace", SrcLang: "cpp", TgtLang: "python", Oracle: score.OracleTargetGold, Subset: "lang_independent", Metric: "pass_rate", Value: 0.1, N: 69},
	}
	pass, alt, src := PassFromScores(eval)
	if src != SourceEvaluate || len(pass) != 2 || pass[Key{"m", cj}] != (Rate{85, 122}) || pass[Key{"m", pc}] != (Rate{27, 47}) || alt[Key{"m", pc}] != (Rate{28, 47}) {
		t.Errorf("evaluate: %v %v %v", pass, alt, src)
	}
	// An efficiency run's every_task rows win; pooled rows are not cells.
	eff := append(eval,
		schemas.ScoreRow{Translator: "m", Corpus: "trace", SrcLang: "cpp", TgtLang: "java", Oracle: score.OracleTargetGold, Subset: "every_task", Metric: "pass_rate", Value: 0.5, N: 122},
		schemas.ScoreRow{Translator: "m", Corpus: "trace", SrcLang: "*", TgtLang: "*", Oracle: score.OracleTargetGold, Subset: "every_task", Metric: "pass_rate", Value: 0.5, N: 485},
	)
	pass, alt, src = PassFromScores(eff)
	if src != SourceEfficiency || len(pass) != 1 || pass[Key{"m", cj}] != (Rate{61, 122}) || len(alt) != 0 {
		t.Errorf("efficiency: %v %v %v", pass, alt, src)
	}
}

func TestFailureCauses(t *testing.T) {
	row := func(problem string, test int32, match bool, status, program schemas.Status) schemas.ResultRow {
		return schemas.ResultRow{Translator: "m", ProblemID: problem, Corpus: "trace", SrcLang: "cpp", TgtLang: "java",
			Oracle: score.OracleTargetGold, TestIndex: test, Status: status, OracleStatus: schemas.StatusOK,
			ProgramStatus: program, Match: match}
	}
	rows := []schemas.ResultRow{
		row("P1", 0, true, "ok", "ok"), row("P1", 1, true, "ok", "ok"), // passes
		row("P2", 0, false, "compile_error", "compile_error"),
		row("P3", 1, false, "timeout", "timeout"), row("P3", 0, true, "ok", "timeout"), // program status first
		row("P4", 2, false, "ok", "ok"), row("P4", 1, false, "runtime_error", "ok"), // the first failing test decides
		row("P5", 0, false, "ok", "ok"),
		row("P6", 0, true, "ok", "ok"),
	}
	// left out as in the Pass: no oracle value, nondeterministic, other samples and oracles
	noOracle := row("P6", 1, false, "ok", "ok")
	noOracle.OracleStatus = schemas.StatusTimeout
	nondet := row("P6", 2, false, "ok", "ok")
	nondet.Nondeterministic = true
	sample1 := row("P6", 3, false, "ok", "ok")
	sample1.Sample = 1
	source := row("P6", 4, false, "ok", "ok")
	source.Oracle = score.OracleSource
	rows = append(rows, noOracle, nondet, sample1, source)
	got := FailureCauses(rows)[Key{"m", cj}]
	want := map[string]int{"compile_error": 1, "timeout": 1, "runtime_error": 1, "wrong_output": 1}
	if len(got) != len(want) {
		t.Fatalf("causes %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("causes %v, want %v", got, want)
		}
	}
}

func TestCorrelateHandValues(t *testing.T) {
	// x = 1..5, y = 2,4,5,4,5: sxy = 6, sxx = 10, syy = 6, r = 6/sqrt(60) = 0.774597;
	// t = r sqrt(3/(1-r^2)) = 2.12132 on 3 df, whose two-sided p has the closed form
	// 1 - (2/pi)(atan(u) + u/(1+u^2)), u = t/sqrt(3) = 1.224745: 0.124027. Spearman: y's ranks
	// 1, 2.5, 4.5, 2.5, 4.5, so rho = 7/sqrt(90) = 0.737865. Model "z" has no y and
	// "w" a NaN: both left out.
	x := map[string]float64{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "z": 9, "w": 3}
	y := map[string]float64{"a": 2, "b": 4, "c": 5, "d": 4, "e": 5, "w": math.NaN()}
	c := Correlate(x, y)
	near(t, "pearson", c.Pearson.R, 0.774597, 1e-6)
	near(t, "pearson p", c.Pearson.P, 0.124027, 1e-6)
	near(t, "spearman", c.Spearman.R, 0.737865, 1e-6)
	if c.Pearson.N != 5 {
		t.Errorf("n = %d, want 5", c.Pearson.N)
	}
}

func TestPooledPass(t *testing.T) {
	// 8/10 and 1/30 pool to 9/40 (not the mean of 0.8 and 0.033)
	pass := map[Key]Rate{{"m", cj}: {8, 10}, {"m", pc}: {1, 30}, {"n", cj}: {5, 10}}
	got := PooledPass(pass, []paper.Direction{cj, pc})
	near(t, "m", got["m"], 9.0/40, 1e-12)
	near(t, "n", got["n"], 0.5, 1e-12)
}

func TestTaskEntriesAndBootstrapRho(t *testing.T) {
	prof := func(problem, tr string, correct bool, bt, bm float64) schemas.ProfileRow {
		role := schemas.RoleTranslation
		if tr == "" {
			role = schemas.RoleGroundTruth
		}
		return schemas.ProfileRow{Translator: tr, ProblemID: problem, SrcLang: "cpp", TgtLang: "java", Role: role,
			Correct: correct, BeyondTime: bt, BeyondMem: bm}
	}
	profiles := []schemas.ProfileRow{
		// T1: usable; a 90, b 50, c 10 (time); c incorrect for memory too
		prof("T1", "", true, 0, 0), prof("T1", "a", true, 90, 1), prof("T1", "b", true, 50, 2), prof("T1", "c", true, 10, 3),
		// T2: usable; a 80, b 40, c has no correct translation
		prof("T2", "", true, 0, 0), prof("T2", "a", true, 80, 1), prof("T2", "b", true, 40, 2), prof("T2", "c", false, 0, 0),
		// T3: its ground truth failed on the stress suite: not usable
		prof("T3", "", false, 0, 0), prof("T3", "a", true, 0, 0),
		// another direction, another model: ignored
		{Translator: "a", ProblemID: "T9", SrcLang: "java", TgtLang: "cpp", Role: schemas.RoleTranslation, Correct: true},
		prof("T1", "x", true, 0, 0),
	}
	models := []string{"a", "b", "c"}
	tasks := TaskEntries(profiles, models, cj, false)
	if len(tasks) != 2 {
		t.Fatalf("%d usable tasks, want 2", len(tasks))
	}
	if e := tasks[1][2]; e.Correct {
		t.Errorf("T2 c counted correct: %+v", e)
	}
	if e := tasks[0][1]; !e.Correct || e.Score != 50 {
		t.Errorf("T1 b: %+v", e)
	}
	if mem := TaskEntries(profiles, models, cj, true); mem[0][2].Score != 3 {
		t.Errorf("memory scores not taken: %+v", mem[0])
	}
	// Every resample orders a > b > c (c only when T1 is drawn), as the reference
	// 3 > 2 > 1 does: rho is 1 on the tasks and in every resample; with two models
	// left (no T1 drawn) rho is undefined (n < 3), so only those resamples drop:
	// P(no T1 in two draws) = 1/4.
	b := BootstrapRho(tasks, []float64{3, 2, 1}, 4000, 0.95, 7)
	near(t, "estimate", b.Estimate.R, 1, 1e-12)
	near(t, "lo", b.Lo, 1, 1e-12)
	near(t, "hi", b.Hi, 1, 1e-12)
	near(t, "defined", b.Defined, 0.75, 0.03)
	// Reversed reference: -1.
	if r := BootstrapRho(tasks, []float64{1, 2, 3}, 100, 0.95, 7); r.Estimate.R != -1 || r.Hi != -1 {
		t.Errorf("reversed: %+v", r)
	}
}

func TestBootstrapRhoSpread(t *testing.T) {
	// Two tasks that order the models oppositely: task 0 a 100 > c 50 > b 0, task 1
	// b 100 > c 50 > a 0. Against the reference a > c > b a resample of task 0 twice
	// gives rho 1, task 1 twice -1, one of each ties all three at 50 (rho undefined).
	e := func(s float64) score.BeyondEntry { return score.BeyondEntry{Correct: true, Score: s} }
	tasks := [][]score.BeyondEntry{{e(100), e(0), e(50)}, {e(0), e(100), e(50)}}
	b := BootstrapRho(tasks, []float64{3, 1, 2}, 4000, 0.95, 11)
	if !math.IsNaN(b.Estimate.R) {
		t.Errorf("estimate on both tasks: all tied, rho %v, want NaN", b.Estimate.R)
	}
	near(t, "lo", b.Lo, -1, 1e-12)
	near(t, "hi", b.Hi, 1, 1e-12)
	near(t, "defined", b.Defined, 0.5, 0.03)
}

func TestPrintAgainstPaper(t *testing.T) {
	// Scores equal to the paper's Pass on 100 tasks for every cell but one: 167 cells
	// within 5 points, the last outside.
	cells, err := paper.Table15()
	if err != nil {
		t.Fatal(err)
	}
	var rows []schemas.ScoreRow
	for i, c := range cells {
		k := math.Round(c.Pass)
		if i == 0 {
			k = math.Round(c.Pass) - 30
		}
		rows = append(rows, schemas.ScoreRow{Translator: c.Model, Corpus: "trace", SrcLang: c.Dir.Src, TgtLang: c.Dir.Tgt,
			Oracle: score.OracleTargetGold, Subset: score.SubsetAll, Metric: "pass_rate", Value: k / 100, N: 100})
	}
	var buf bytes.Buffer
	if err := Print(&buf, Input{Scores: rows}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"Cells within 5 points or inside the interval: 167 of 168 (99.4%",
		"outside 1, no result 0",
		"claude-sonnet-4-thinking     C++->Java ours 66.0 (66/100)",
		// Table 14 from Table 15's own cells, no run of ours
		"paper, from Table 15 (mean of the 6 directions)        28 | -0.57 (p 0.0015)   -0.63 (p 0.00035)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if err := Print(&buf, Input{}); err == nil {
		t.Error("no scores: no error")
	}
}

func TestPrintBeyond(t *testing.T) {
	// An efficiency run whose every figure is the paper's, with three usable tasks
	// per direction on which each model scores its paper B^P: the order is the
	// paper's in every resample (rho 1), and Table 14 is Table 15's own.
	cells, err := paper.Table15()
	if err != nil {
		t.Fatal(err)
	}
	var scores []schemas.ScoreRow
	var profiles []schemas.ProfileRow
	pooled := map[string][3]float64{}
	add := func(tr, src, tgt, subset, metric string, v float64, n int) {
		scores = append(scores, schemas.ScoreRow{Translator: tr, Corpus: "trace", SrcLang: src, TgtLang: tgt,
			Oracle: score.OracleTargetGold, Subset: subset, Metric: schemas.Metric(metric), Value: v, N: int64(n)})
	}
	for _, c := range cells {
		s, tg := c.Dir.Src, c.Dir.Tgt
		add(c.Model, s, tg, "every_task", "pass_rate", c.Pass/100, 1000)
		add(c.Model, s, tg, "all", "beyond_time", c.BT, 3)
		add(c.Model, s, tg, "all", "beyond_mem", c.BM, 3)
		add(c.Model, s, tg, "all", "beyond_time_pass", c.BTP, 3)
		add(c.Model, s, tg, "all", "beyond_mem_pass", c.BMP, 3)
		p := pooled[c.Model]
		pooled[c.Model] = [3]float64{p[0] + c.Pass/600, p[1] + c.BTP/6, p[2] + c.BMP/6}
		for _, task := range []string{"T1", "T2", "T3"} {
			profiles = append(profiles, schemas.ProfileRow{Translator: c.Model, ProblemID: task, SrcLang: s, TgtLang: tg,
				Role: schemas.RoleTranslation, Correct: true, BeyondTime: c.BTP, BeyondMem: c.BMP})
		}
	}
	for _, d := range paper.TraceDirections {
		for _, task := range []string{"T1", "T2", "T3"} {
			profiles = append(profiles, schemas.ProfileRow{ProblemID: task, SrcLang: d.Src, TgtLang: d.Tgt, Role: schemas.RoleGroundTruth, Correct: true})
		}
		add("*", d.Src, d.Tgt, "all", "tasks_selected", 2, 3)
	}
	for m, p := range pooled {
		add(m, "*", "*", "all", "beyond_time_pass", p[1], 18)
		add(m, "*", "*", "all", "beyond_mem_pass", p[2], 18)
	}
	var buf bytes.Buffer
	if err := Print(&buf, Input{Scores: scores, EffScores: scores, Profiles: profiles, Resamples: 200}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"source: efficiency job",
		"168 of 168 (100.0%",
		"B_T^P rho, all models: +1.00 [+1.00, +1.00] (p 0; 28 models, 3 tasks; bootstrap bias +0.00, median +1.00; rho defined in 100% of resamples)",
		"B_M^P rho, without the three: +1.00 [+1.00, +1.00] (p 0; 25 models, 3 tasks;",
		"Py->Java       3 | +1.00 [+1.00, +1.00]    +1.00 [+1.00, +1.00]    | +1.00 [+1.00, +1.00]    +1.00 [+1.00, +1.00]",
		// C++->Java: gpt-4o's B_T^P 67.1 is third (after 69.2 and 68.8), its B_M^P 66.2 first
		fmt.Sprintf("%-28s %13s %13s %13s %13s %9s %9s", "gpt-4o", "63.9/63.9", "63.0/63.0", "67.1/67.1", "66.2/66.2", "3/3", "1/1"),
		// Table 15's own Table 14 (means over the six directions), now as ours
		"ours (Pass pooled over 6 directions, pooled B^P)       28 | -0.57 (p 0.0015)   -0.63 (p 0.00035)",
		"ours, without the three                                25 | -0.54 (p 0.0052)",
		"our re-selection (TRACE's task selection, section 3.3, on our measurements; subset selected, not compared with Table 15), Py->Java: 2 of 3 usable tasks",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestExpectedAbsDiff(t *testing.T) {
	// p = 0.5, n = 100: sd 5 points, E|X| = 5 sqrt(2/pi) = 3.98942
	near(t, "E|diff|", ExpectedAbsDiff(0.5, 100), 3.98942, 1e-5)
	if ExpectedAbsDiff(1, 50) != 0 || !math.IsNaN(ExpectedAbsDiff(0.5, 0)) {
		t.Error("edge cases")
	}
}

func TestBootstrapRhoBySampleSize(t *testing.T) {
	// The same two opposite tasks: a resample of m tasks is all task 0 (rho 1) with
	// probability 2^-m, all task 1 (rho -1) as often, and otherwise mixed. With one
	// task per resample rho is ±1, half of each; with three the share of defined
	// resamples with rho > 0 stays one half by symmetry.
	e := func(s float64) score.BeyondEntry { return score.BeyondEntry{Correct: true, Score: s} }
	tasks := [][]score.BeyondEntry{{e(100), e(0), e(50)}, {e(0), e(100), e(50)}}
	one := BootstrapRhoN(tasks, []float64{3, 1, 2}, 1, 4000, 0.95, 5)
	near(t, "m=1 defined", one.Defined, 1, 1e-12)
	near(t, "m=1 positive", one.Positive, 0.5, 0.03)
	near(t, "m=1 lo", one.Lo, -1, 1e-12)
	near(t, "m=1 hi", one.Hi, 1, 1e-12)
	three := BootstrapRhoN(tasks, []float64{3, 1, 2}, 3, 4000, 0.95, 5)
	near(t, "m=3 positive", three.Positive, 0.5, 0.03)
	// all m tasks is BootstrapRho itself
	a, b := BootstrapRhoN(tasks, []float64{3, 1, 2}, 2, 500, 0.95, 9), BootstrapRho(tasks, []float64{3, 1, 2}, 500, 0.95, 9)
	if a.Lo != b.Lo || a.Hi != b.Hi || a.Defined != b.Defined {
		t.Errorf("m = len(tasks) %+v differs from BootstrapRho %+v", a, b)
	}
	for n, want := range map[int]string{12: "[3 6 9 12]", 3: "[2 3]", 1: "[]", 5: "[2 3 5]"} {
		if got := fmt.Sprint(sampleSizes(n)); got != want {
			t.Errorf("sampleSizes(%d) = %s, want %s", n, got, want)
		}
	}
}
