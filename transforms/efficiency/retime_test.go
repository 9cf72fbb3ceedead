package efficiency

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"transmute/io/cache"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/sandbox"
)

func TestMain(m *testing.M) { sandbox.Main(m) }

// A load that slows whole rounds leaves the normalised times unchanged; the
// programs' ratios and their geometric mean's scale stay.
func TestNormaliseRounds(t *testing.T) {
	base := []float64{100, 200, 400}
	load := []float64{1, 1.3, 0.9, 1.1, 1}
	calls := make([][]time.Duration, len(base))
	for i, b := range base {
		for _, f := range load {
			calls[i] = append(calls[i], time.Duration(b*f*1e6))
		}
	}
	var gLoad float64
	for _, f := range load {
		gLoad += math.Log(f) / float64(len(load))
	}
	for i, fs := range NormaliseRounds(calls) {
		for r, f := range fs {
			if want := base[i] * 1e6 * math.Exp(gLoad); math.Abs(f-want) > 1e-6*want {
				t.Errorf("program %d round %d: %.0f, want %.0f", i, r, f, want)
			}
		}
	}
	// A program slowed in one round alone keeps that round's excess: normalising
	// corrects what the round's programs share, not a program's own outlier.
	calls[2][1] *= 2
	fs := NormaliseRounds(calls)
	if fs[2][1] < 1.5*fs[2][0] || math.Abs(fs[0][1]-fs[0][0]) < 0.1*fs[0][0] {
		t.Errorf("outlier round: program 2 %.0f against %.0f; program 0 %.0f against %.0f", fs[2][1], fs[2][0], fs[0][1], fs[0][0])
	}
}

// TimedSuites keeps the suites with a correct program that was not counted, and
// in them only the correct programs.
func TestTimedSuites(t *testing.T) {
	tr := func(name, code string) Translation { return Translation{Translator: name, Code: code, Entry: "f"} }
	p := Problem{ProblemID: "P", Returns: "int",
		Golds:  []schemas.Function{{Lang: "java", Name: "f", Code: "gj"}, {Lang: "cpp", Name: "f", Code: "gc"}},
		Suites: []StressSuite{{Lang: "java", Tests: make([]schemas.Test, 2)}, {Lang: "cpp", Tests: make([]schemas.Test, 2)}},
		Tasks: []Task{
			{Task: schemas.Task{ProblemID: "P", SrcLang: "python", TgtLang: "java"},
				Translations: []Translation{tr("a", "heavy"), tr("b", "wrong"), tr("c", "light")}},
			{Task: schemas.Task{ProblemID: "P", SrcLang: "java", TgtLang: "cpp"},
				Translations: []Translation{tr("a", "counted")}},
		}}
	profiles := func(timeGold bool) []SuiteProfile {
		var out []SuiteProfile
		for _, s := range Suites(p) {
			sp := SuiteProfile{ProblemID: "P", Lang: s.Lang}
			for _, pr := range s.Programs {
				m := Measured{Key: pr.Key}
				m.Report.Status, m.Report.Outputs, m.Report.Counted = schemas.StatusOK, []string{"1", "2"}, true
				switch pr.Candidate.Code {
				case "heavy":
					m.Report.Counted = false
				case "wrong":
					m.Report.Outputs, m.Report.Counted = []string{"1", "3"}, false
				case "gc":
					m.Report.Counted = !timeGold
				}
				sp.Measured = append(sp.Measured, m)
			}
			out = append(out, sp)
		}
		return out
	}
	got := TimedSuites(p, profiles(false))
	if len(got) != 1 || got[0].Lang != "java" {
		t.Fatalf("timed suites %+v, want java's alone", got)
	}
	var codes []string
	for _, pr := range got[0].Programs {
		codes = append(codes, pr.Candidate.Code)
	}
	sort.Strings(codes)
	if strings.Join(codes, ",") != "gj,heavy,light" {
		t.Errorf("java's timed programs %v, want the gold, heavy and light (not the wrong one)", codes)
	}
	// An uncounted ground truth makes its suite timed too.
	if got := TimedSuites(p, profiles(true)); len(got) != 2 {
		t.Errorf("%d timed suites with cpp's gold uncounted, want 2", len(got))
	}
}

// Retime on real C++ programs: 1, 2 and 4 times the CPU per call keep those
// ratios after normalisation, every program gets the rounds, ApplyRetimed puts
// them into the reports (counts kept), and a second timing of the same suite
// comes from the cache.
func TestRetimeCpp(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs C++ programs")
	}
	// burn(k) spins until its thread has used k*5 ms of CPU per call.
	burn := func(k int) execute.Candidate {
		return execute.Candidate{ID: fmt.Sprint("burn", k), Entry: "f", Code: fmt.Sprintf(`#include <time.h>
long long f(int n) {
  timespec a, b; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
  volatile long long s = 0;
  do { for (int i = 0; i < 1000; i++) s = s + i; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b); }
  while ((b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec) < %d * 5000000LL);
  return n;
}
`, k)}
	}
	s := Suite{ProblemID: "P", Lang: schemas.Cpp, Params: []schemas.Param{{Name: "n", Type: "int"}}, Returns: "long",
		Tests: []schemas.Test{{Index: 1, Args: "[1]"}, {Index: 2, Args: "[2]"}}}
	for _, k := range []int{1, 2, 4} {
		c := burn(k)
		s.Programs = append(s.Programs, Program{Key: programKey(s.Lang, c), Candidate: c})
	}
	store, err := cache.Open(context.Background(), t.TempDir(), "retime")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	o := ProfileOptions{TimeLimit: 20 * time.Second, MemoryBytes: 1 << 30, WorkDir: t.TempDir(), CountCache: store}
	got, err := Retime(context.Background(), s, 0, o)
	if err != nil {
		t.Fatal(err)
	}
	// The median round: under load a single call can take far longer than its
	// thread's CPU target (one round of burn4 took 61 ms against 41 ms at load
	// 40, a program's own outlier, which no normalisation by rounds removes).
	median := map[int]float64{}
	for i, k := range []int{1, 2, 4} {
		r := got[s.Programs[i].Key]
		if !r.OK || len(r.CallsCPU) != RetimeRounds || len(r.CPUTime) != RetimeRounds {
			t.Fatalf("burn%d: ok %v, %d rounds of calls, %d runs: %s", k, r.OK, len(r.CallsCPU), len(r.CPUTime), r.Detail)
		}
		rounds := append([]time.Duration(nil), r.CallsCPU...)
		slices.Sort(rounds)
		median[k] = float64(rounds[len(rounds)/2])
		t.Logf("burn%d: calls %v (std %v), normalised %v", k, r.MeanCallsCPU, r.StdCallsCPU, r.CallsCPU)
	}
	for _, k := range []int{2, 4} {
		if ratio := median[k] / median[1]; math.Abs(ratio/float64(k)-1) > 0.05 {
			t.Errorf("burn%d / burn1 = %.2f, want about %d", k, ratio, k)
		}
	}
	// Into the reports: the count fields stay, the timing replaces the first pass.
	sp := SuiteProfile{ProblemID: "P", Lang: s.Lang}
	for _, pr := range s.Programs {
		m := Measured{Key: pr.Key}
		m.Report.Status, m.Report.Counted, m.Report.Instructions = schemas.StatusOK, true, 123
		m.Report.CPUTime, m.Report.CallsCPU = []time.Duration{time.Second}, []time.Duration{time.Second}
		sp.Measured = append(sp.Measured, m)
	}
	profiles := []SuiteProfile{sp}
	ApplyRetimed(profiles, got)
	for _, m := range profiles[0].Measured {
		r := m.Report
		if r.TimedWith != 3 || r.Instructions != 123 || len(r.CallsCPU) != RetimeRounds || r.MeanCallsCPU != got[m.Key].MeanCallsCPU ||
			!strings.Contains(r.Detail, "side by side") {
			t.Errorf("applied report: timed with %d, %d instructions, %d calls, mean %v, %q", r.TimedWith, r.Instructions,
				len(r.CallsCPU), r.MeanCallsCPU, r.Detail)
		}
		if row := ProfileRowOf("r", schemas.Task{}, schemas.RoleTranslation, "a", 2, 0, r); row.TimedWith != 3 || row.Repetitions != RetimeRounds {
			t.Errorf("row: timed_with %d, repetitions %d", row.TimedWith, row.Repetitions)
		}
	}
	// The same suite again: from the cache, with the same figures.
	hits, _ := store.Stats()
	again, err := Retime(context.Background(), s, 0, o)
	if err != nil {
		t.Fatal(err)
	}
	if h, _ := store.Stats(); h != hits+1 {
		t.Errorf("second timing: %d cache hits, want %d", h, hits+1)
	}
	for key, r := range got {
		a := again[key]
		if a.MeanCallsCPU != r.MeanCallsCPU || !a.Started.Equal(r.Started) || fmt.Sprint(a.CallsCPU) != fmt.Sprint(r.CallsCPU) {
			t.Errorf("cached timing differs: %v %v against %v %v", a.MeanCallsCPU, a.Started, r.MeanCallsCPU, r.Started)
		}
	}
}
