package report

// Golden-file tests of the text summaries: small hand-made tables, written to a
// memory bucket as a run writes them, printed, and compared with
// testdata/<name>.golden. The goldens are the specification of the printed text:
// after a deliberate change of a printer, rewrite them with
//
//	go test ./report -run Golden -update
//
// and read the diff before committing it.

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/blob/memblob"

	"transmute/io/sink"
	"transmute/schemas"
	"transmute/transforms/consistency"
	"transmute/transforms/metamorph"
	"transmute/transforms/properties"
	"transmute/transforms/score"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the printers' output")

// golden compares got with testdata/name.golden (or rewrites it with -update).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < max(len(gl), len(wl)); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s: first difference at line %d:\n got: %q\nwant: %q\n(after a deliberate change: go test ./report -run Golden -update, then read the diff)", path, i+1, g, w)
			}
		}
	}
}

// put writes rows as one shard of table.
func put[T any](t *testing.T, b *blob.Bucket, table string, rows []T) {
	t.Helper()
	if _, err := sink.WriteShard(context.Background(), b, table, rows); err != nil {
		t.Fatal(err)
	}
}

// printed runs a printer on b and returns what it wrote.
func printed(t *testing.T, b *blob.Bucket, print func(context.Context, *bytes.Buffer, *blob.Bucket) error) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := print(context.Background(), &buf, b); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func sc(tr, corpus, src, tgt, oracle, subset string, metric schemas.Metric, v float64, n int64) schemas.ScoreRow {
	return schemas.ScoreRow{Run: "g", Translator: tr, Corpus: corpus, SrcLang: src, TgtLang: tgt, Oracle: oracle,
		Subset: subset, Metric: metric, Value: v, N: n}
}

// Scores: rows without a pass rate and subsets other than "all" are left out;
// order by translator, corpus, direction, then oracle target_gold before source.
func scoresFixture(t *testing.T, b *blob.Bucket) {
	put(t, b, "scores", []schemas.ScoreRow{
		sc("gpt", "tc", "java", "python", score.OracleSource, score.SubsetAll, "pass_rate", 0.5, 4),
		sc("gpt", "tc", "java", "python", score.OracleSource, score.SubsetAll, "ca_overall", 0.75, 20),
		sc("gpt", "tc", "java", "python", score.OracleTargetGold, score.SubsetAll, "pass_rate", 0.25, 4),
		sc("gpt", "tc", "java", "python", score.OracleTargetGold, score.SubsetAll, "ca_overall", 0.6, 20),
		sc("gpt", "tc", "java", "python", score.OracleSource, score.SubsetLangIndependent, "pass_rate", 1, 3),
		sc("gpt", "tc", "cpp", "java", score.OracleSource, score.SubsetAll, "ca_overall", 0.1, 10),
		sc("gpt", "tc", "cpp", "python", score.OracleSource, score.SubsetAll, "pass_rate", 0.125, 8),
		sc("gpt", "tc", "cpp", "python", score.OracleSource, score.SubsetAll, "ca_overall", 1.0/3, 30),
		sc("a-model", "tc", "python", "java", score.OracleSource, score.SubsetAll, "pass_rate", 1, 2),
	})
}

func TestGoldenScores(t *testing.T) {
	b := memblob.OpenBucket(nil)
	scoresFixture(t, b)
	golden(t, "scores", printed(t, b, func(ctx context.Context, w *bytes.Buffer, b *blob.Bucket) error {
		return PrintSummary(ctx, w, b)
	}))
}

// coverageScores are the scores of a recorded file with 3 translations (one wrong)
// of a 30-problem corpus, and of the identity, which translates all 30, as the
// coverage rows give them: pass_rate counts the 27 missing problems as failures,
// pass_rate_attempted does not.
func coverageScores() []schemas.ScoreRow {
	var rows []schemas.ScoreRow
	for _, c := range []struct {
		tr                                     string
		translated, missing, failed, evaluated float64
		pass, attempted, ca                    float64
	}{
		{"recorded:three", 3, 26, 1, 3, 2.0 / 30, 2.0 / 3, 0.1},
		{"identity", 30, 0, 0, 30, 1, 1, 1},
	} {
		rows = append(rows,
			sc(c.tr, "bundled", "java", "python", "", score.SubsetAll, "problems", 30, 30),
			sc(c.tr, "bundled", "java", "python", "", score.SubsetAll, "translated", c.translated, 30),
			sc(c.tr, "bundled", "java", "python", "", score.SubsetAll, "missing", c.missing, 30),
			sc(c.tr, "bundled", "java", "python", "", score.SubsetAll, "translation_failed", c.failed, 30),
			sc(c.tr, "bundled", "java", "python", "", score.SubsetAll, "coverage", c.translated/30, 30))
		for _, o := range []string{score.OracleSource, score.OracleTargetGold} {
			rows = append(rows,
				sc(c.tr, "bundled", "java", "python", o, score.SubsetAll, "evaluated", c.evaluated, int64(c.evaluated)),
				sc(c.tr, "bundled", "java", "python", o, score.SubsetAll, "pass_rate", c.pass, 30),
				sc(c.tr, "bundled", "java", "python", o, score.SubsetAll, "pass_rate_attempted", c.attempted, int64(c.evaluated)),
				sc(c.tr, "bundled", "java", "python", o, score.SubsetAll, "ca_overall", c.ca, 300),
				sc(c.tr, "bundled", "java", "python", o, score.SubsetAll, "problems", 30, 30))
		}
	}
	return rows
}

// TestGoldenScoresCoverage: with the coverage rows, the summary shows 3/30, the
// pass rate over the 3 attempted beside the one over all 30, and a warning line.
func TestGoldenScoresCoverage(t *testing.T) {
	b := memblob.OpenBucket(nil)
	put(t, b, "scores", coverageScores())
	got := printed(t, b, func(ctx context.Context, w *bytes.Buffer, b *blob.Bucket) error { return PrintSummary(ctx, w, b) })
	golden(t, "scores_coverage", got)
	if !strings.Contains(string(got), "\nwarning: coverage below 100% in 1 of 2 ") {
		t.Errorf("no coverage warning:\n%s", got)
	}
	checkThree(t, string(got))
}

// checkThree: the line of the three-translation file says coverage 3/30, pass over
// all 0.067 and pass over the 3 attempted 0.667.
func checkThree(t *testing.T, summary string) {
	t.Helper()
	for _, l := range strings.Split(summary, "\n") {
		if strings.HasPrefix(l, "recorded:three ") {
			f := strings.Fields(l)
			if got := strings.Join(f[3:8], " "); got != "3/30 target_gold 0.067 0.667 (3)" && got != "3/30 source 0.067 0.667 (3)" {
				t.Errorf("coverage, oracle, pass/all, pass/attempted: %q in %q", got, l)
			}
			return
		}
	}
	t.Errorf("no line of recorded:three:\n%s", summary)
}

// TestSummaryCoverageFromTranslations: an output without coverage rows gets its
// coverage counted from the translations table, and the pass rate over the
// attempted problems from pass_rate × n over them.
func TestSummaryCoverageFromTranslations(t *testing.T) {
	b := memblob.OpenBucket(nil)
	var trs []schemas.TranslationRow
	for i := 0; i < 30; i++ {
		st := schemas.TranslationMissing
		if i < 3 {
			st = schemas.TranslationOK
		}
		trs = append(trs, schemas.TranslationRow{Translator: "recorded:three", Corpus: "bundled", ProblemID: fmt.Sprintf("P%02d", i),
			VariantID: "orig", SrcLang: "java", TgtLang: "python", Status: st})
	}
	put(t, b, "translations", trs)
	put(t, b, "scores", []schemas.ScoreRow{
		sc("recorded:three", "bundled", "java", "python", score.OracleTargetGold, score.SubsetAll, "pass_rate", 2.0/30, 30),
		sc("recorded:three", "bundled", "java", "python", score.OracleTargetGold, score.SubsetAll, "ca_overall", 0.1, 300)})
	got := string(printed(t, b, func(ctx context.Context, w *bytes.Buffer, b *blob.Bucket) error { return PrintSummary(ctx, w, b) }))
	if !strings.Contains(got, "(lowest: recorded:three bundled java->python 3/30, 27 missing, 0 failed to translate)") {
		t.Errorf("no coverage warning:\n%s", got)
	}
	checkThree(t, got)
}

// TestSummaryColumnsAligned: every table line of the summary has its columns at
// the header's offsets, whatever the widths of the names (a long corpus name used
// to push its line's figures right).
func TestSummaryColumnsAligned(t *testing.T) {
	b := memblob.OpenBucket(nil)
	rows := coverageScores()
	rows = append(rows, sc("a-very-long-translator-name-x", "jsonl:problems-with-a-long-name", "cpp", "java", score.OracleSource, score.SubsetAll, "pass_rate", 0.5, 2))
	put(t, b, "scores", rows)
	got := string(printed(t, b, func(ctx context.Context, w *bytes.Buffer, b *blob.Bucket) error { return PrintSummary(ctx, w, b) }))
	var table []string
	for _, l := range strings.Split(got, "\n") {
		if strings.HasPrefix(l, "translator ") || strings.Contains(l, "->") && !strings.HasPrefix(l, "warning") {
			table = append(table, l)
		}
	}
	if len(table) != 6 {
		t.Fatalf("want a header and 5 lines, got %q", table)
	}
	end := strings.Index(table[0], "pass/all") + len("pass/all")
	for _, l := range table[1:] {
		if len([]rune(l)) < end || !strings.ContainsAny(string([]rune(l)[end-1]), "0123456789") || string([]rune(l)[end]) != " " {
			t.Errorf("pass/all not right-aligned under its header:\n%s\n%s", table[0], l)
		}
	}
}

func errorsFixture(t *testing.T, b *blob.Bucket) {
	put(t, b, "errors", []schemas.ErrorRow{{Stage: "translate", ProblemID: "A"}, {Stage: "ingest", ProblemID: "B"},
		{Stage: "execute", ProblemID: "C"}, {Stage: "ingest", ProblemID: "D"}})
}

func TestGoldenErrorCounts(t *testing.T) {
	b := memblob.OpenBucket(nil)
	errorsFixture(t, b)
	golden(t, "errors", printed(t, b, func(ctx context.Context, w *bytes.Buffer, b *blob.Bucket) error {
		return PrintErrorCounts(ctx, w, b)
	}))
	// No error rows: nothing at all is printed.
	empty := memblob.OpenBucket(nil)
	put(t, empty, "errors", []schemas.ErrorRow{})
	if out := printed(t, empty, func(ctx context.Context, w *bytes.Buffer, b *blob.Bucket) error {
		return PrintErrorCounts(ctx, w, b)
	}); len(out) != 0 {
		t.Errorf("no error rows printed %q, want nothing", out)
	}
}

// Fidelity: java-python has 6 tests over 2 problems (3 agree, one of each of
// overflow, float, other); cpp-java has 5 over 1 problem (2 agree, then modulo,
// out of bounds, partial range) and a gold exception on a second problem.
func fidelityFixture(t *testing.T, b *blob.Bucket) {
	long := "[" + strings.Repeat("1234567890,", 13) + "0]" // 144 characters: clipped to 120
	f := func(p string, i int32, a, bl string, agree bool, cause, va, vb string) schemas.FidelityRow {
		return schemas.FidelityRow{Run: "g", ProblemID: p, TestIndex: i, LangA: a, LangB: bl, Agree: agree, Cause: cause,
			ValueA: va, ValueB: vb, StatusA: "ok", StatusB: "ok"}
	}
	gold := func(p, lang string, status schemas.Status) schemas.ExecutionRow {
		return schemas.ExecutionRow{Run: "g", ProblemID: p, ProgramID: "gold/" + lang, Role: "gold", Lang: lang, Status: status}
	}
	put(t, b, "fidelity", []schemas.FidelityRow{
		f("P1", 0, "java", "python", true, "", "1", "1"),
		f("P1", 1, "java", "python", true, "", "2", "2"),
		f("P1", 2, "java", "python", false, "integer_overflow", "-2147483648", "2147483648"),
		f("P2", 0, "java", "python", true, "", "3", "3"),
		f("P2", 1, "java", "python", false, "float_precision", "0.1", "0.10000000001"),
		f("P2", 2, "java", "python", false, "other", long, "[]"),
		f("P3", 0, "cpp", "java", true, "", "0", "0"),
		f("P3", 1, "cpp", "java", true, "", "0", "0"),
		f("P3", 2, "cpp", "java", false, "signed_modulo", "-1", "1"),
		f("P3", 3, "cpp", "java", false, "out_of_bounds", "7", "null"),
		f("P3", 4, "cpp", "java", false, "partial_range", "[1,2]", "[1,2,3]"),
		{Run: "g", ProblemID: "P4", TestIndex: 0, LangA: "cpp", LangB: "java", Cause: "gold_exception", ValueA: "5",
			StatusA: "ok", StatusB: "runtime_error"},
	})
	put(t, b, "executions", []schemas.ExecutionRow{gold("P1", "java", "ok"), gold("P4", "java", "runtime_error"),
		gold("P5", "python", "timeout"), {Run: "g", ProblemID: "P6", Role: "translation", Lang: "cpp", Status: "compile_error"}})
}

func TestGoldenFidelity(t *testing.T) {
	b := memblob.OpenBucket(nil)
	fidelityFixture(t, b)
	golden(t, "fidelity", printed(t, b, func(ctx context.Context, w *bytes.Buffer, b *blob.Bucket) error {
		return PrintFidelitySummary(ctx, w, b)
	}))
}

func mbtaFixture(t *testing.T, b *blob.Bucket) {
	var rows []schemas.ScoreRow
	m := func(tr string, metric schemas.Metric, v float64, n int64) {
		rows = append(rows, sc(tr, "tc", "java", "python", score.OracleSource, score.SubsetAll, metric, v, n))
	}
	for _, x := range []struct {
		metric schemas.Metric
		v      float64
		n      int64
	}{{"mutants", 10, 10}, {"anomalous_mutants", 2, 10}, {"non_anomalous_mutants", 8, 10},
		{"funnel_non_anomalous_mutants", 8, 8}, {"funnel_translation_outputs", 7, 8}, {"funnel_compilable", 6, 8},
		{"funnel_timeouts", 1, 8}, {"funnel_exceptions", 0, 8}, {"funnel_non_anomalous_translations", 5, 8},
		{"mts_overall", 0.625, 8}, {"mts_mean", 0.6, 3}, {"mts_median", 0.5, 3}, {"mts_std", 0.1234567, 3},
		{"ca_overall", 0.9, 30}, {"mts_op_ROR", 1, 2}, {"mts_op_AORB", 0.5, 4},
		{"corr_spearman_mts_ca", 0.5, 3}, {"corr_spearman_mts_ca_p", 0.6667, 3},
		{"corr_pearson_mts_ca", -0.25, 3}, {"corr_pearson_mts_ca_p", 0.84, 3},
		{"corr_spearman_mutants_mts", math.NaN(), 3}} {
		m("gpt", x.metric, x.v, x.n)
	}
	m("builtin", "mutants", 3, 3)
	// Only subset "all" is shown.
	rows = append(rows, sc("gpt", "tc", "java", "python", score.OracleSource, score.SubsetLangIndependent, "mts_overall", 0.1, 1))
	put(t, b, "scores", rows)
}

func TestGoldenMBTA(t *testing.T) {
	b := memblob.OpenBucket(nil)
	mbtaFixture(t, b)
	golden(t, "mbta", printed(t, b, func(ctx context.Context, w *bytes.Buffer, b *blob.Bucket) error {
		return PrintMBTASummary(ctx, w, b)
	}))
}

// efficiencyFixture: two models, the known direction cpp->java and two outside
// Table 15 (go->python, cpp->go: listed after the known ones, in order), the
// pooled "*" rows, the selected and every_task subsets; profiles over three
// 5-minute stretches (the middle one under 20 programs) and the five noise probes
// of transforms/efficiency's TestSummarizeNoise.
func efficiencyFixture(t *testing.T, b *blob.Bucket) {
	const all, sel, every, star = "all", "selected", "every_task", "*"
	var rows []schemas.ScoreRow
	add := func(tr, src, tgt, subset string, metrics ...any) {
		for i := 0; i < len(metrics); i += 2 {
			rows = append(rows, sc(tr, "trace", src, tgt, score.OracleTargetGold, subset, schemas.Metric(metrics[i].(string)),
				metrics[i+1].(float64), 4))
		}
	}
	add("m1", "cpp", "java", all, "pass_rate", 0.5, "beyond_time", 40.0, "beyond_mem", 30.0, "beyond_time_pass", 80.0,
		"beyond_mem_pass", 60.0, "tasks", 4.0, "beyond_time_pass_ci_lo", 70.0, "beyond_time_pass_ci_hi", 90.0)
	add("m2", "cpp", "java", all, "pass_rate", 0.25, "beyond_time", 10.0, "beyond_mem", math.NaN(), "beyond_time_pass", 40.0,
		"tasks", 4.0, "beyond_time_pass_ci_lo", 40.0, "beyond_time_pass_ci_hi", 40.0)
	add("m1", "go", "python", all, "pass_rate", 1.0, "beyond_time", 50.0, "beyond_mem", 50.0, "beyond_time_pass", 50.0,
		"beyond_mem_pass", 50.0, "tasks", 1.0)
	add("m2", "cpp", "go", all, "pass_rate", 0.0, "beyond_time", 0.0, "beyond_mem", 0.0, "tasks", 2.0)
	add("m1", star, star, all, "pass_rate", 0.6, "beyond_time", 42.0, "beyond_mem", 34.0, "beyond_time_pass", 70.0,
		"beyond_mem_pass", 57.0, "tasks", 5.0)
	add("m2", star, star, all, "pass_rate", 0.2, "beyond_time", 8.0, "beyond_mem", 0.0, "beyond_time_pass", 40.0,
		"beyond_mem_pass", math.NaN(), "tasks", 5.0)
	add(star, "cpp", "java", all, "tasks", 4.0, "tasks_usable", 4.0, "tasks_selected", 2.0, "reference_set_mean", 2.5,
		"beyond_time_pass_order_kept", 0.9, "no_signal_tasks_time", 2.0, "no_signal_tasks_mem", 1.0,
		"floor_time_median", 4.5, "floor_mem_median_kb", 12.0)
	add(star, star, star, all, "floor_time_spreads", 3.0, "floor_time_quantum", 0.001, "floor_mem_spreads", 3.0,
		"floor_mem_quantum_kb", 4.0, "reference_has_gold", 0.0)
	add(star, star, star, all, "tasks", 7.0, "tasks_usable", 6.0, "tasks_selected", 2.0, "reference_set_mean", 2.25,
		"programs_profiled", 10.0, "median_cpu_cv", 0.02, "median_overhead_share", 0.05, "overhead_share_total", 0.04,
		"corr_pearson_pass_beyond_time_pass", 0.5, "corr_pearson_pass_beyond_time_pass_p", 0.667,
		"corr_spearman_pass_beyond_time_pass", 1.0, "corr_spearman_pass_beyond_time_pass_p", 0.0,
		"ols_r2_pass_beyond_time_pass", 0.25, "corr_pearson_pass_beyond_mem_pass", -0.5,
		"corr_pearson_pass_beyond_mem_pass_p", 0.667, "corr_spearman_pass_beyond_mem_pass", -1.0,
		"corr_spearman_pass_beyond_mem_pass_p", 0.0, "ols_r2_pass_beyond_mem_pass", 0.25)
	add(star, star, "cpp", all, "programs_profiled", 6.0, "median_cpu_cv", 0.012, "median_overhead_share", 0.05,
		"overhead_share_total", 0.04)
	add("m1", "cpp", "java", sel, "pass_rate", 0.5, "beyond_time_pass", 90.0, "tasks", 2.0)
	add("m1", "cpp", "java", every, "pass_rate", 0.5, "tasks", 6.0)
	add("m2", "cpp", "java", every, "pass_rate", 0.0, "tasks", 6.0)
	add("m1", star, star, every, "pass_rate", 4.0/7, "tasks", 7.0)
	put(t, b, "scores", rows)

	var profs []schemas.ProfileRow
	prof := func(id, tr, at string, cpu, net, cv float64) schemas.ProfileRow {
		return schemas.ProfileRow{Run: "g", Translator: tr, ProblemID: id, Corpus: "trace", SrcLang: "cpp", TgtLang: "java",
			Role: schemas.RoleTranslation, Status: "ok", Repetitions: 5, CPUMeanMs: cpu, NetCPUMs: net, CPUCV: cv,
			MeasuredFrom: at}
	}
	for i := 0; i < 20; i++ {
		profs = append(profs, prof(fmt.Sprintf("P%02d", i), "m1", fmt.Sprintf("2026-01-02T12:0%d:00Z", i%5),
			100+float64(i), 80+float64(i), 0.010+0.001*float64(i)))
		profs = append(profs, prof(fmt.Sprintf("Q%02d", i), "m1", "2026-01-02T12:20:30Z", 50, 40, 0.05+0.002*float64(i)))
	}
	// The same measurement under a second model (identical programs): counted once in
	// the run's CPU, but a program of its stretch.
	dup := profs[0]
	dup.Translator = "m2"
	profs = append(profs, dup)
	for i := 0; i < 3; i++ {
		profs = append(profs, prof(fmt.Sprintf("R%d", i), "m2", "2026-01-02T12:11:00Z", 10, 5, 0.5))
	}
	profs = append(profs, schemas.ProfileRow{Run: "g", ProblemID: "T", Translator: "m2", Status: "timeout",
		MeasuredFrom: "2026-01-02T12:00:00Z"})
	// The floor's flags are on every row of a task: each task is listed once.
	for k := range profs {
		profs[k].TimeMeasure = "process_cpu_ms"
		profs[k].NoSignalTime = profs[k].ProblemID == "P00" || profs[k].ProblemID == "P03"
		profs[k].NoSignalMem = profs[k].ProblemID == "P03"
	}
	put(t, b, "profiles", profs)
	put(t, b, "noise", []schemas.NoiseRow{
		{Core: 1, Chunks: 5, ChunkMeanMs: 12, ChunkMinMs: 10, CV: 0.04, CacheChunkMeanMs: 8, CacheChunkMinMs: 6, CacheCV: 0.2},
		{Core: 0, Chunks: 5, ChunkMeanMs: 10, ChunkMinMs: 10, CV: 0.01, CacheChunkMeanMs: 5, CacheChunkMinMs: 4, CacheCV: 0.1},
		{Core: 0, Chunks: 5, ChunkMeanMs: 15, ChunkMinMs: 12, CV: 0.10, CacheChunkMeanMs: 9, CacheChunkMinMs: 5, CacheCV: 0.3},
		{Core: 0, Chunks: 5, ChunkMeanMs: 11, ChunkMinMs: 11, CV: 0.02, CacheChunkMeanMs: 6, CacheChunkMinMs: 6, CacheCV: 0.05},
		{Core: 1, Chunks: 5, ChunkMeanMs: 8, ChunkMinMs: 8, CV: 0.00, CacheChunkMeanMs: 3, CacheChunkMinMs: 3, CacheCV: 0.0},
	})
}

func TestGoldenEfficiency(t *testing.T) {
	b := memblob.OpenBucket(nil)
	efficiencyFixture(t, b)
	golden(t, "efficiency", printed(t, b, func(ctx context.Context, w *bytes.Buffer, b *blob.Bucket) error {
		if err := PrintEfficiencySummary(ctx, w, b); err != nil {
			return err
		}
		return PrintEfficiencyRunCPU(ctx, w, b, 100*time.Second)
	}))
}

// consistencyFixture: one model with every score of lcs and some of the others,
// context-similar variants of two languages with one identifier replacement that
// changed the outputs, and three execution inconsistencies.
func consistencyFixture(t *testing.T, b *blob.Bucket) {
	var rows []schemas.ScoreRow
	add := func(metric schemas.Metric, v float64) {
		rows = append(rows, sc("gpt", "tc", "java", "python", consistency.OracleConsistency, "all", metric, v, 10))
	}
	for _, x := range []struct {
		m schemas.Metric
		v float64
	}{{"problems", 3}, {"pairs", 10}, {"pairs_literal", 4}, {"exec_inconsistent", 2}, {"exec_inconsistent_rate", 0.2},
		{"lcs_threshold", 0.875}, {"lcs_below_1", 6}, {"lcs_inconsistent", 3}, {"lcs_inconsistent_rate", 0.3},
		{"lcs_f1_choose", 0.8}, {"lcs_precision", 0.5}, {"lcs_recall", 1}, {"lcs_f1", 2.0 / 3},
		{"lcs_repair_tried", 3}, {"lcs_repaired", 1}, {"lcs_repaired_rate", 1.0 / 3}, {"lcs_pass_before", 0.5},
		{"lcs_pass_after", 0.75}, {"lcs_repair_worse", 0}, {"lcs_repair_better", 1},
		{"ed_threshold", math.NaN()}, {"ed_inconsistent_rate", math.NaN()}, {"bleu_threshold", 0.5}} {
		add(x.m, x.v)
	}
	// Other oracles are not this job's.
	rows = append(rows, sc("gpt", "tc", "java", "python", score.OracleSource, "all", "pass_rate", 1, 1))
	put(t, b, "scores", rows)
	v := func(lang string, kind consistency.VariantKind, i int) schemas.VariantRow {
		return schemas.VariantRow{Run: "g", ProblemID: fmt.Sprintf("P%d", i), VariantID: fmt.Sprintf("%s-%s-%d", lang, kind, i),
			Kind: schemas.VariantKindContextSimilar, Lang: lang, Operator: string(kind)}
	}
	var vs []schemas.VariantRow
	for i := 0; i < 4; i++ {
		vs = append(vs, v("java", consistency.KindIdentifier, i))
	}
	vs = append(vs, v("java", consistency.KindLiteral, 9), v("python", consistency.KindLiteral, 1),
		schemas.VariantRow{Run: "g", ProblemID: "P1", Kind: "mutant", Lang: "python", Operator: "AORB"})
	put(t, b, "variants", vs)
	put(t, b, "errors", []schemas.ErrorRow{
		{Stage: consistency.Stage, ProblemID: "P2", Lang: "java", Reason: "identifier variant changed outputs", Detail: "i -> len"},
		{Stage: consistency.Stage, ProblemID: "P3", Lang: "java", Reason: "no variant"}})
	cr := func(tr, p, vid, kind, old, nw string, lcs float64, ok bool, detail string) schemas.ConsistencyRow {
		return schemas.ConsistencyRow{Run: "g", Translator: tr, Corpus: "tc", ProblemID: p, SrcLang: "java", TgtLang: "python",
			VariantID: vid, Kind: kind, Old: old, New: nw, LCS: lcs, ExecConsistent: ok, Detail: detail}
	}
	put(t, b, "consistency_results", []schemas.ConsistencyRow{
		cr("gpt", "P2", "v2", "identifier", "n", "count", 0.9, false, "test 0: 3 vs\n4"),
		cr("gpt", "P1", "v1", "literal", "1", "2", 0.95, false, "test 1: sources alike, translations differ"),
		cr("gpt", "P1", "v0", "identifier", "a", "b", 1, true, ""),
		cr("identity", "P1", "v1", "literal", "1", "2", 1, false, "identity differs"),
	})
}

func TestGoldenConsistency(t *testing.T) {
	b := memblob.OpenBucket(nil)
	consistencyFixture(t, b)
	golden(t, "consistency", printed(t, b, func(ctx context.Context, w *bytes.Buffer, b *blob.Bucket) error {
		return PrintConsistencySummary(ctx, w, b)
	}))
}

// propertiesFixture: scores from properties.Score over four instances of the
// renameParam|arity property (one violated) and two of the 1-safety compiles
// property (none), plus the job's check time; and the transformations' outcomes.
func propertiesFixture(t *testing.T, b *blob.Bucket) {
	find := func(tr metamorph.Transformation, in properties.Inspection) properties.Property {
		for _, p := range properties.ByTransformation(tr) {
			if p.Inspection == in {
				return p
			}
		}
		t.Fatalf("no property %s|%s", tr, in)
		return properties.Property{}
	}
	res := func(p properties.Property, id string, violated bool) schemas.PropertyResultRow {
		return schemas.PropertyResultRow{Run: "g", Translator: "gpt", ProblemID: id, Corpus: "tc", SrcLang: "java",
			TgtLang: "python", Property: p.Name, Transformation: string(p.Transformation), Inspection: string(p.Inspection),
			K: int32(p.K), Syntactic: p.Syntactic(), Violated: violated}
	}
	ar, co := find(metamorph.RenameParam, properties.Arity), find("", properties.Compiles)
	rs := []schemas.PropertyResultRow{res(ar, "A", true), res(ar, "B", false), res(ar, "C", false), res(ar, "D", false),
		res(co, "A", false), res(co, "B", false)}
	rows := properties.Score("g", score.Key{Translator: "gpt", Corpus: "tc", SrcLang: "java", TgtLang: "python"}, rs)
	rows = append(rows, schemas.ScoreRow{Subset: "all", Metric: schemas.MetricCheckSeconds, Value: 12.5})
	put(t, b, "scores", rows)
	tr := func(lang string, tf metamorph.Transformation, id, vid, outcome string) schemas.TransformationRow {
		return schemas.TransformationRow{Run: "g", ProblemID: id, Lang: lang, Transformation: string(tf), VariantID: vid, Outcome: outcome}
	}
	put(t, b, "transformations", []schemas.TransformationRow{
		tr("java", metamorph.RenameParam, "A", "a1", properties.OutcomeValid),
		tr("java", metamorph.RenameParam, "B", "b1", properties.OutcomeValid),
		tr("java", metamorph.RenameParam, "C", "c1", properties.OutcomeChangedOutputs),
		tr("java", metamorph.RenameParam, "D", "", properties.OutcomeAbsent),
		tr("java", metamorph.RmLoop, "A", "a2", properties.OutcomeNoCompile),
		tr("java", metamorph.RmLoop, "B", "", properties.OutcomeFailed),
		tr("python", metamorph.Merge, "A", "a3", properties.OutcomeValid),
	})
}

func TestGoldenProperties(t *testing.T) {
	b := memblob.OpenBucket(nil)
	propertiesFixture(t, b)
	golden(t, "properties", printed(t, b, func(ctx context.Context, w *bytes.Buffer, b *blob.Bucket) error {
		return PrintPropertiesSummary(ctx, w, b, 50*time.Second)
	}))
	// Without the run's CPU, the check time stands alone.
	out := printed(t, b, func(ctx context.Context, w *bytes.Buffer, b *blob.Bucket) error {
		return PrintPropertiesSummary(ctx, w, b, 0)
	})
	if !bytes.HasSuffix(out, []byte("Inspections and property checks: 12.5 s\n")) {
		t.Errorf("without the run's CPU the summary ends %q", out[max(0, len(out)-80):])
	}
}
