package pipelines

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"transmute/io/blobs"
	"transmute/report"
	"transmute/schemas"
	"transmute/transforms/efficiency"
)

// TestEfficiencySharedTRACE runs the efficiency job on a few shared TRACE tasks (one
// per direction into each target language, two recorded models) and checks that every
// Beyond value is recomputed exactly from the profiled numbers of its task's
// reference set, lies in [0, 100], and that the scores average them.
func TestEfficiencySharedTRACE(t *testing.T) {
	c := sharedTraceConfig(t, "efftest")
	out := c.Output
	p, s := beam.NewPipelineWithRoot()
	// NoiseEvery 1ns: a noise probe before every suite, whatever ran before. The
	// time mode: the expected Beyond below is recomputed from the times and the
	// pooled within-program spread, which is that mode's floor.
	BuildEfficiency(s, c, EfficiencyOptions{PerDirection: 1, Repetitions: 3, NoiseEvery: time.Nanosecond,
		Cost: efficiency.CostTime})
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
	ctx := context.Background()
	b, err := blobs.Open(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := FinishEfficiency(ctx, b, &Manifest{Run: c.Run, Config: c}); err != nil {
		t.Fatal(err)
	}
	profiles := read[schemas.ProfileRow](t, out, "profiles")
	scores := read[schemas.ScoreRow](t, out, "scores")
	// One noise probe per suite (problem, target language), on the suite's core.
	noise := read[schemas.NoiseRow](t, out, "noise")
	suites := map[[2]string]int32{}
	for _, r := range profiles {
		suites[[2]string{r.ProblemID, r.TgtLang}] = r.Core
	}
	cores := map[int32]int{}
	for _, r := range noise {
		cores[r.Core]++
		if r.Run != c.Run || r.Chunks != 5 || r.ChunkMinMs <= 0 || r.ChunkMinMs > r.ChunkMeanMs || r.ChunkMeanMs > r.ChunkMaxMs ||
			r.CV < 0 || r.CacheChunkMinMs <= 0 || r.CacheChunkMinMs > r.CacheChunkMeanMs || r.CacheChunkMeanMs > r.CacheChunkMaxMs ||
			r.CacheCV < 0 || r.At == "" {
			t.Errorf("noise row %+v", r)
		}
	}
	if len(noise) != len(suites) {
		t.Errorf("%d noise probes for %d suites", len(noise), len(suites))
	}
	for _, core := range suites {
		if cores[core] == 0 {
			t.Errorf("no noise probe on core %d, where suites were profiled", core)
		}
	}
	var summary strings.Builder
	if err := report.PrintEfficiencySummary(ctx, &summary, b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(summary.String(), "Machine noise") || !strings.Contains(summary.String(), "cache walk: median CV") ||
		!strings.Contains(summary.String(), "median CV by 5-minute stretch of the run") {
		t.Errorf("summary without the machine noise:\n%s", summary.String())
	}
	type task struct{ id, src, tgt string }
	byTask := map[task][]schemas.ProfileRow{}
	langs := map[string]bool{}
	for _, r := range profiles {
		k := task{r.ProblemID, r.SrcLang, r.TgtLang}
		byTask[k] = append(byTask[k], r)
		if r.Status == "ok" {
			if r.Repetitions != 3 || r.CPUMeanMs <= 0 || r.RSSMeanKB <= 0 {
				t.Errorf("%v %s: %d repetitions, %.2f ms, %.0f KB", k, r.Translator, r.Repetitions, r.CPUMeanMs, r.RSSMeanKB)
			}
			langs[r.TgtLang] = true
			// measured_from/to place the runs in time, after the probe of the
			// suite's core that came before them.
			from, err1 := time.Parse(time.RFC3339Nano, r.MeasuredFrom)
			to, err2 := time.Parse(time.RFC3339Nano, r.MeasuredTo)
			if err1 != nil || err2 != nil || !from.Before(to) {
				t.Errorf("%v %s: measured from %q to %q", k, r.Translator, r.MeasuredFrom, r.MeasuredTo)
			}
			probed := false
			for _, n := range noise {
				at, err := time.Parse(time.RFC3339Nano, n.At)
				probed = probed || (err == nil && n.Core == r.Core && at.Before(from))
			}
			if !probed {
				t.Errorf("%v %s: no probe of core %d before its runs (from %s)", k, r.Translator, r.Core, r.MeasuredFrom)
			}
		}
	}
	if len(byTask) != 3 || len(langs) != 3 {
		t.Fatalf("want 3 tasks profiled into 3 languages, got %d tasks, languages %v", len(byTask), langs)
	}
	sums := map[[3]string]float64{}
	for k, rows := range byTask {
		var et, pm []float64
		var tSS, mSS, df float64
		for _, r := range rows {
			if r.InReference {
				et = append(et, r.CPUMeanMs)
				pm = append(pm, r.RSSMeanKB)
				if r.Repetitions >= 2 {
					tSS += float64(r.Repetitions-1) * r.CPUStdMs * r.CPUStdMs
					mSS += float64(r.Repetitions-1) * r.RSSStdKB * r.RSSStdKB
					df += float64(r.Repetitions - 1)
				}
			}
			if r.Role == schemas.RoleGroundTruth && r.InReference {
				t.Errorf("%v: the ground truth is in the reference set without RefGold", k)
			}
		}
		// By hand: the floors are max(quantum, 3 x the pooled std of the reference
		// programs' repetitions).
		floorT, floorM := 0.001, 4.0
		if df > 0 {
			floorT, floorM = math.Max(floorT, 3*math.Sqrt(tSS/df)), math.Max(floorM, 3*math.Sqrt(mSS/df))
		}
		// (r_max - clip(x, r_min+floor, r_max)) / (r_max - r_min - floor) * 100, or
		// 100 when the range lies within the floor.
		beyond := func(x float64, ref []float64, floor float64) float64 {
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, v := range ref {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
			if len(ref) == 0 || hi-lo <= floor {
				return 100
			}
			return (hi - math.Max(lo+floor, math.Min(hi, x))) / (hi - lo - floor) * 100
		}
		for _, r := range rows {
			effNear(t, k.id+" "+r.Translator+" floor_time", r.FloorTime, floorT)
			effNear(t, k.id+" "+r.Translator+" floor_mem_kb", r.FloorMemKB, floorM)
			if r.BeyondTime < 0 || r.BeyondTime > 100 || r.BeyondMem < 0 || r.BeyondMem > 100 {
				t.Errorf("%v %s: Beyond out of [0,100]: %v %v", k, r.Translator, r.BeyondTime, r.BeyondMem)
			}
			if !r.Correct {
				if r.BeyondTime != 0 || r.BeyondMem != 0 {
					t.Errorf("%v %s: incorrect but Beyond %v %v", k, r.Translator, r.BeyondTime, r.BeyondMem)
				}
				continue
			}
			effNear(t, k.id+" "+r.Translator+" B_T", r.BeyondTime, beyond(r.CPUMeanMs, et, floorT))
			effNear(t, k.id+" "+r.Translator+" B_M", r.BeyondMem, beyond(r.RSSMeanKB, pm, floorM))
			if r.Role == schemas.RoleTranslation {
				sums[[3]string{r.Translator, k.src, k.tgt}] += r.BeyondTime
			}
		}
	}
	checked := 0
	for _, s := range scores {
		if s.Translator == efficiency.AllLangs || s.SrcLang == efficiency.AllLangs || s.Subset != efficiency.SubsetAllTasks {
			continue
		}
		switch s.Metric {
		case "beyond_time", "beyond_mem", "beyond_time_pass", "beyond_mem_pass":
			if s.Value < 0 || s.Value > 100 {
				t.Errorf("%s %s->%s %s = %v", s.Translator, s.SrcLang, s.TgtLang, s.Metric, s.Value)
			}
		}
		if s.Metric == "beyond_time" {
			effNear(t, s.Translator+" "+s.SrcLang+"->"+s.TgtLang+" B_T", s.Value, sums[[3]string{s.Translator, s.SrcLang, s.TgtLang}]/float64(s.N))
			checked++
		}
	}
	if checked != 6 {
		t.Errorf("want B_T for 2 translators x 3 directions, got %d", checked)
	}
}

// sharedTraceConfig is a run of the shared TRACE corpus (skipped under -short) with two recorded models
// in three directions (one into each target language), or a skip without it.
func sharedTraceConfig(t *testing.T, run string) Config {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping the shared-corpus efficiency run")
	}
	trace := filepath.Join(repoRoot(t), "..", "shared", "corpora", "trace")
	if _, err := os.Stat(filepath.Join(trace, "tasks.jsonl")); err != nil {
		t.Skipf("shared corpus not found at %s (../shared/corpora from the module root)", trace)
	}
	return Config{Run: run, Output: t.TempDir(), Parallelism: 2, WorkDir: effWorkDir(t),
		Corpora: []string{"trace:" + trace},
		Translators: []string{"recorded:" + filepath.Join(trace, "Ref_Translation", "m.gpt-4o"),
			"recorded:" + filepath.Join(trace, "Ref_Translation", "m.Qwen2.5-Coder-7B-Instruct")},
		Directions: "java-python,python-cpp,cpp-java"}
}

func effNear(t *testing.T, name string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-9 {
		t.Errorf("%s = %v, want %v", name, got, want)
	}
}

// In the count mode, a suite with a correct program too heavy to count is timed
// again side by side: with CountMaxCalls at 1ns no program is counted, so every
// suite with two or more correct programs has its correct programs timed
// together in efficiency.RetimeRounds rounds, and their tasks are scored on the
// normalised calls' time.
func TestEfficiencyCountTimesHeavySuitesSideBySide(t *testing.T) {
	c := sharedTraceConfig(t, "efftimed")
	out := c.Output
	p, s := beam.NewPipelineWithRoot()
	BuildEfficiency(s, c, EfficiencyOptions{PerDirection: 1, Cost: efficiency.CostCount, CountMaxCalls: time.Nanosecond})
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
	profiles := read[schemas.ProfileRow](t, out, "profiles")
	type suite struct{ id, tgt string }
	correct := map[suite]map[string]bool{} // the suite's distinct correct programs, by their timing
	timed := 0
	for _, r := range profiles {
		if !r.Correct {
			if r.TimedWith != 0 {
				t.Errorf("%s %s %s: incorrect, but timed with %d", r.ProblemID, r.TgtLang, r.Translator, r.TimedWith)
			}
			continue
		}
		if r.Instructions != 0 || r.CostMode != efficiency.CostCalls {
			t.Errorf("%s %s %s: %d instructions, cost mode %s", r.ProblemID, r.TgtLang, r.Translator, r.Instructions, r.CostMode)
		}
		k := suite{r.ProblemID, r.TgtLang}
		if correct[k] == nil {
			correct[k] = map[string]bool{}
		}
		correct[k][r.MeasuredFrom] = true
		if r.TimedWith > 0 {
			timed++
			if r.Repetitions != efficiency.RetimeRounds || !strings.Contains(r.Detail, "side by side") || r.CallsCPUMeanMs <= 0 {
				t.Errorf("%s %s %s: timed with %d, %d repetitions, calls %.3f ms, %q", r.ProblemID, r.TgtLang, r.Translator,
					r.TimedWith, r.Repetitions, r.CallsCPUMeanMs, r.Detail)
			}
		}
	}
	for _, r := range profiles {
		if n := len(correct[suite{r.ProblemID, r.TgtLang}]); r.Correct && n > 1 && int(r.TimedWith) != n {
			t.Errorf("%s %s %s: timed with %d, its suite has %d distinct correct programs", r.ProblemID, r.TgtLang,
				r.Translator, r.TimedWith, n)
		}
	}
	if timed == 0 {
		t.Errorf("no program timed side by side among %d profiles", len(profiles))
	}
}
