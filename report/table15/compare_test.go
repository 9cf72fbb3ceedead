package table15

import (
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"transmute/data/paper"
	"transmute/schemas"
	"transmute/transforms/score"
	"transmute/transforms/stats"
)

func TestCorrTestsAgainstScipy(t *testing.T) {
	// rho by hand: both are permutations of 1..10, d = -1,1,-1,1,-2,-2,2,2,-1,1,
	// sum d^2 = 22, rho = 1 - 6*22/(10*99) = 0.866667 (= Pearson r here). p-values:
	// scipy 1.10.1, stats.spearmanr and stats.pearsonr on the same vectors.
	x := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	y := []float64{2, 1, 4, 3, 7, 8, 5, 6, 10, 9}
	p, s := CorrTests(x, y)
	near(t, "rho", s.R, 1-6*22.0/990, 1e-12)
	near(t, "rho p", s.P, 0.0011735381801554687, 1e-9)
	near(t, "r p", p.P, 0.0011735381801554628, 1e-9)
	if SpearmanR(x, y) != s.R {
		t.Errorf("SpearmanR %v != %v", SpearmanR(x, y), s.R)
	}
	// With ties (97.2 twice) and r != rho: scipy pearsonr -0.5656783103674119, p
	// 0.18563667577728482; spearmanr -0.46848748060169076, p 0.2889967715971478.
	a := []float64{95.6, 97.2, 98.0, 81.2, 97.2, 58.8, 68.4}
	b := []float64{38.8, 41.0, 44.1, 55.0, 60.2, 62.0, 49.5}
	p, s = CorrTests(a, b)
	near(t, "r", p.R, -0.5656783103674119, 1e-12)
	near(t, "r p", p.P, 0.18563667577728482, 1e-9)
	near(t, "rho", s.R, -0.46848748060169076, 1e-12)
	near(t, "rho p", s.P, 0.2889967715971478, 1e-9)
	// The p-values Table 14's printed r imply for 28 models (scipy: 2 t.sf(|t|, 26)).
	for r, want := range map[float64]float64{-0.54: 0.0030161698860306525, -0.61: 0.0005679121703235032, 0.57: 0.001542498185890561, 0.70: 3.3779151516665144e-05} {
		near(t, "CorrP", CorrP(r, 28), want, want*1e-7)
	}
	// undefined: constant variable, n < 3
	if p, s := CorrTests([]float64{1, 1, 1, 1}, []float64{1, 2, 3, 4}); !math.IsNaN(p.R) || !math.IsNaN(s.P) {
		t.Errorf("constant x: %+v %+v", p, s)
	}
	if p, _ := CorrTests([]float64{1, 2}, []float64{1, 2}); !math.IsNaN(p.R) || p.N != 2 {
		t.Errorf("n = 2: %+v", p)
	}
	// gonum's figures agree with the project's own incomplete-beta p-values
	rng := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < 20; k++ {
		n := 5 + rng.IntN(30)
		u, v := make([]float64, n), make([]float64, n)
		for i := range u {
			u[i] = rng.NormFloat64()
			v[i] = 0.5*u[i] + rng.NormFloat64()
		}
		p, s := CorrTests(u, v)
		op, os := stats.Pearson(u, v), stats.Spearman(u, v)
		near(t, "r vs stats", p.R, op.R, 1e-12)
		near(t, "p vs stats", p.P, op.P, 1e-9)
		near(t, "rho p vs stats", s.P, os.P, 1e-9)
	}
}

func TestPromptStrategyModelsAndWithout(t *testing.T) {
	cells, err := paper.Table15()
	if err != nil {
		t.Fatal(err)
	}
	drop := PromptStrategyModels(cells)
	if len(drop) != 3 || !drop["claude-sonnet-4"] || !drop["deepseek-chat"] || !drop["gpt-4o"] {
		t.Fatalf("prompt-strategy models %v", drop)
	}
	var models []string
	var ref []float64
	for _, c := range cells {
		if c.Dir == cj {
			models = append(models, c.Model)
			ref = append(ref, c.BTP)
		}
	}
	ms, rs := Without(models, ref, drop)
	if len(models) != 28 || len(ms) != 25 {
		t.Fatalf("%d models, %d without", len(models), len(ms))
	}
	kept := map[string]float64{}
	for i, m := range ms {
		kept[m] = rs[i]
	}
	for i, m := range models {
		v, ok := kept[m]
		if ok == drop[m] {
			t.Errorf("%s: kept %v, in the three %v", m, ok, drop[m])
		}
		if ok && v != ref[i] {
			t.Errorf("%s: ref %v, want %v (misaligned)", m, v, ref[i])
		}
	}
	// the names that contain a dropped one stay (claude-sonnet-4-thinking, gpt-4o-mini)
	if _, ok := kept["claude-sonnet-4-thinking"]; !ok {
		t.Error("claude-sonnet-4-thinking dropped")
	}
	if _, ok := kept["gpt-4o-mini"]; !ok {
		t.Error("gpt-4o-mini dropped")
	}
}

// noisyTasks are n tasks of len(quality) models whose per-task Beyond is the
// model's quality plus noise (clipped to 0-100), every translation correct but
// one model's in a quarter of the tasks.
func noisyTasks(quality []float64, n int, noise float64, seed uint64) [][]score.BeyondEntry {
	rng := rand.New(rand.NewPCG(seed, 1))
	tasks := make([][]score.BeyondEntry, n)
	for i := range tasks {
		tasks[i] = make([]score.BeyondEntry, len(quality))
		for j, q := range quality {
			if j == 0 && i%4 == 0 {
				continue
			}
			tasks[i][j] = score.BeyondEntry{Correct: true, Score: math.Max(0, math.Min(100, q+noise*rng.NormFloat64()))}
		}
	}
	return tasks
}

func TestBootstrapIntervalContainsEstimateAndIsDeterministic(t *testing.T) {
	// 28 models 0.5 points apart (40 to 53.5), the paper's order a noisy copy.
	quality := make([]float64, 28)
	ref := make([]float64, 28)
	rng := rand.New(rand.NewPCG(3, 4))
	for j := range quality {
		quality[j] = 40 + float64(j)/2
		ref[j] = quality[j] + 4*rng.NormFloat64()
	}
	check := func(n int, noise float64, seed uint64) RhoBootstrap {
		tasks := noisyTasks(quality, n, noise, seed)
		b := BootstrapRho(tasks, ref, 1000, 0.95, seed)
		// the estimate is rho of the models' B^P on all tasks
		var x []float64
		for j := range quality {
			sum, k := 0.0, 0
			for _, task := range tasks {
				if task[j].Correct {
					sum += task[j].Score
					k++
				}
			}
			x = append(x, sum/float64(k))
		}
		near(t, "estimate", b.Estimate.R, SpearmanR(x, ref), 1e-12)
		t.Logf("n %d noise %v: rho %.3f [%.3f, %.3f], bias %.3f", n, noise, b.Estimate.R, b.Lo, b.Hi, b.Bias)
		again := BootstrapRho(tasks, ref, 1000, 0.95, seed)
		if again != b {
			t.Errorf("same seed, different result: %+v vs %+v", again, b)
		}
		other := BootstrapRho(tasks, ref, 1000, 0.95, seed+100)
		if other.Lo == b.Lo && other.Hi == b.Hi && other.Median == b.Median {
			t.Errorf("another seed gives the same interval %+v", other)
		}
		return b
	}
	// The per-model noise of B^P (noise / sqrt(n)) below the models' spread (sd 4):
	// the interval contains the estimate, with room on both sides.
	for _, c := range []struct {
		n     int
		noise float64
	}{{40, 10}, {72, 10}, {100, 10}, {200, 20}, {30, 5}} {
		b := check(c.n, c.noise, uint64(c.n))
		if b.Outside || !(b.Lo < b.Estimate.R && b.Estimate.R < b.Hi) {
			t.Errorf("n %d noise %v: estimate %.3f outside [%.3f, %.3f]", c.n, c.noise, b.Estimate.R, b.Lo, b.Hi)
		}
	}
	// Noise above the spread (20 / sqrt(12) = 5.8 per model): resampling pulls rho
	// toward 0 and the whole interval lies below the estimate; flagged.
	b := check(12, 20, 1)
	if !b.Outside || b.Hi >= b.Estimate.R || b.Bias >= -0.1 {
		t.Errorf("noisy sample: estimate %.3f, [%.3f, %.3f], bias %.3f, outside %v", b.Estimate.R, b.Lo, b.Hi, b.Bias, b.Outside)
	}
}

func TestCompareWithoutTheThree(t *testing.T) {
	// An efficiency run on Java->Py only: every model's per-task Beyond is its
	// Table 15 B^P plus a task-dependent offset, so rho with all models is 1; the
	// without variant must use exactly 25 models and the pooled Table 14 must drop
	// the same three.
	cells, err := paper.Table15()
	if err != nil {
		t.Fatal(err)
	}
	jp := paper.Direction{Src: "java", Tgt: "python"}
	var scores []schemas.ScoreRow
	var profiles []schemas.ProfileRow
	add := func(tr, src, tgt, subset, metric string, v float64, n int) {
		scores = append(scores, schemas.ScoreRow{Translator: tr, Corpus: "trace", SrcLang: src, TgtLang: tgt,
			Oracle: score.OracleTargetGold, Subset: subset, Metric: schemas.Metric(metric), Value: v, N: int64(n)})
	}
	pass := map[Key]Rate{}
	for _, c := range cells {
		if c.Dir != jp {
			continue
		}
		add(c.Model, "java", "python", "all", "beyond_time_pass", c.BTP, 4)
		add(c.Model, "java", "python", "all", "beyond_mem_pass", c.BMP, 4)
		add(c.Model, "*", "*", "all", "beyond_time_pass", c.BTP, 4)
		add(c.Model, "*", "*", "all", "beyond_mem_pass", c.BMP, 4)
		pass[Key{c.Model, jp}] = Rate{int(math.Round(c.Pass)), 100}
		for i, task := range []string{"T1", "T2", "T3", "T4"} {
			off := float64(i) - 1.5
			profiles = append(profiles, schemas.ProfileRow{Translator: c.Model, ProblemID: task, SrcLang: "java", TgtLang: "python",
				Role: schemas.RoleTranslation, Correct: true, BeyondTime: c.BTP + off, BeyondMem: c.BMP + off, TimeMeasure: "instructions"})
		}
	}
	for _, task := range []string{"T1", "T2", "T3", "T4"} {
		profiles = append(profiles, schemas.ProfileRow{ProblemID: task, SrcLang: "java", TgtLang: "python", Role: schemas.RoleGroundTruth, Correct: true})
	}
	cmp := Compare(cells, pass, scores, profiles, 300, 0.95)
	if len(cmp.Dirs) != 2 || cmp.Measure != "instructions" {
		t.Fatalf("%d direction rows, measure %q", len(cmp.Dirs), cmp.Measure)
	}
	for _, dr := range cmp.Dirs {
		if dr.Dir != jp || dr.Tasks != 4 || len(dr.Models) != 28 || len(dr.WithoutModels) != 25 {
			t.Fatalf("%s %s: %d tasks, %d models, %d without", dr.Dir, dr.Metric, dr.Tasks, len(dr.Models), len(dr.WithoutModels))
		}
		in := map[string]bool{}
		for _, m := range dr.WithoutModels {
			in[m] = true
		}
		var gone []string
		for _, m := range dr.Models {
			if !in[m] {
				gone = append(gone, m)
			}
		}
		sort.Strings(gone)
		if strings.Join(gone, ",") != "claude-sonnet-4,deepseek-chat,gpt-4o" {
			t.Errorf("%s: without drops %v", dr.Metric, gone)
		}
		if dr.All.Estimate.R != 1 || dr.All.Estimate.N != 28 || dr.Without.Estimate.N != 25 || dr.Without.Estimate.R != 1 {
			t.Errorf("%s: all %+v, without %+v", dr.Metric, dr.All.Estimate, dr.Without.Estimate)
		}
	}
	// Table 14, ours without the three: Pass and B^P of Java->Py over 25 models,
	// as computed directly from the cells.
	var ours, without T14Row
	for _, r := range cmp.Table14 {
		switch {
		case strings.HasPrefix(r.Label, "ours, without"):
			without = r
		case strings.HasPrefix(r.Label, "ours"):
			ours = r
		}
	}
	var px, py []float64
	for _, c := range cells {
		if c.Dir == jp && c.Model != "claude-sonnet-4" && c.Model != "deepseek-chat" && c.Model != "gpt-4o" {
			px = append(px, math.Round(c.Pass)/100)
			py = append(py, c.BMP)
		}
	}
	wp, ws := CorrTests(px, py)
	if ours.BTP.Pearson.N != 28 || without.BMP.Pearson.N != 25 {
		t.Fatalf("Table 14 rows: ours %+v, without %+v", ours, without)
	}
	near(t, "without r", without.BMP.Pearson.R, wp.R, 1e-12)
	near(t, "without rho", without.BMP.Spearman.R, ws.R, 1e-12)
	near(t, "without rho p", without.BMP.Spearman.P, ws.P, 1e-12)
	// the paper's printed line carries Table 14's figures and their p for n = 28
	near(t, "printed rho", cmp.Table14[0].BMP.Spearman.R, 0.70, 1e-12)
	near(t, "printed p", cmp.Table14[0].BTP.Pearson.P, 0.0030161698860306525, 1e-9)
}
