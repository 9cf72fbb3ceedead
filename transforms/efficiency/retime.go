package efficiency

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"transmute/io/cache"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/profile"
	"transmute/transforms/stats"
	"transmute/transforms/values"
)

// Side-by-side timing. A count-mode task with a correct program too heavy to
// count is scored on its programs' calls CPU (CostCalls). Timed one program at a
// time, minutes apart, those times moved 5-31% between two runs of the same
// programs under a co-runner's load (cache contention on this machine comes in
// episodes of minutes), enough to swap translations a few percent apart and to
// take a direction's B_T^P order to rho 0.87. So such a suite's correct programs
// are timed again together, in rounds on one core, and each round's times are
// divided by the round's geometric mean: the task compares ratios measured under
// the same load, which is what a reference-relative score needs.

// RetimeRounds is the number of rounds of a side-by-side timing.
const RetimeRounds = 5

// TimedSuites returns the suites of p whose correct programs include one that
// ran correctly but was not counted (timed instead: profile.Options.CountMaxCalls),
// each holding only its correct programs: the ground truth and the programs whose
// stress outputs equal its.
func TimedSuites(p Problem, profiles []SuiteProfile) []Suite {
	measured := measuredByKey(profiles)
	ret, _ := values.ParseType(p.Returns)
	var out []Suite
	for _, s := range Suites(p) {
		var goldOut []string
		for _, g := range p.Golds {
			m, ok := measured[programKey(g.Lang, execute.Candidate{Code: g.Code, Imports: g.Imports, Entry: g.Name})]
			if g.Lang == s.Lang && ok && m.Err == "" && m.Report.Status == schemas.StatusOK {
				goldOut = m.Report.Outputs
			}
		}
		if goldOut == nil {
			continue
		}
		keep, timed := s.Programs[:0:0], false
		for _, pr := range s.Programs {
			m, ok := measured[pr.Key]
			if !ok || m.Err != "" || m.Report.Status != schemas.StatusOK || !StressMatch(ret, goldOut, m.Report.Outputs, values.DefaultTolerance) {
				continue
			}
			keep = append(keep, pr)
			timed = timed || !m.Report.Counted
		}
		if timed && len(keep) > 1 {
			s.Programs = keep
			out = append(out, s)
		}
	}
	return out
}

func measuredByKey(profiles []SuiteProfile) map[string]Measured {
	measured := map[string]Measured{}
	for _, sp := range profiles {
		for _, m := range sp.Measured {
			measured[m.Key] = m
		}
	}
	return measured
}

// Retimed is what a side-by-side timing keeps of each program (and the cache
// holds): its native runs, with the calls' times normalised by their rounds.
type Retimed struct {
	OK                        bool
	Detail                    string
	CPUTime, WallTime         []time.Duration
	MaxRSSKB                  []int64
	CallsCPU                  []time.Duration
	Started, Ended            time.Time
	MeanCallsCPU, StdCallsCPU time.Duration
}

// Retime times s's programs side by side (profile.ProfileSuite: RetimeRounds
// rounds on core, one run of each program per round, under the real-time policy
// where the kernel allows it) and returns, by program key, each program's native
// runs with its calls' CPU time of round r multiplied by G/G_r, where G_r is the
// geometric mean over the programs that ran in every round of their times in
// round r, and G the geometric mean of the G_r. A program that failed a round
// keeps its raw times. The result is cached in o.CountCache by the suite and
// its programs' contents.
func Retime(ctx context.Context, s Suite, core int, o ProfileOptions) (map[string]Retimed, error) {
	var key string
	if o.CountCache != nil {
		keys := make([]string, len(s.Programs))
		for i, p := range s.Programs {
			keys[i] = p.Key
		}
		key = cache.Key("retime/v2", profile.HarnessVersion(), profile.Toolchain(s.Lang), s.Lang, s.Params, s.Returns,
			s.Tests, RetimeRounds, o.TimeLimit, o.MemoryBytes, keys)
		var c map[string]Retimed
		if ok, err := o.CountCache.Get(ctx, key, &c); err == nil && ok {
			return c, nil
		}
	}
	cands := make([]execute.Candidate, len(s.Programs))
	for i, p := range s.Programs {
		cands[i] = p.Candidate
	}
	opt := profile.Options{Repetitions: RetimeRounds, CPU: core, TimeLimit: o.TimeLimit, MemoryBytes: o.MemoryBytes,
		WorkDir: o.WorkDir, OverheadRepetitions: -1}
	reps, errs, err := profile.ProfileSuite(ctx, s.Lang, cands, s.Params, s.Returns, s.Tests, opt)
	if err != nil {
		return nil, err
	}
	out := map[string]Retimed{}
	var okKeys []string
	var calls [][]time.Duration
	for i, r := range reps {
		ok := errs[i] == nil && r.Status == schemas.StatusOK && len(r.CallsCPU) == RetimeRounds
		out[s.Programs[i].Key] = Retimed{OK: ok, Detail: r.Detail, CPUTime: r.CPUTime, WallTime: r.WallTime,
			MaxRSSKB: r.MaxRSSKB, CallsCPU: r.CallsCPU, Started: r.Started, Ended: r.Ended,
			MeanCallsCPU: r.MeanCallsCPU, StdCallsCPU: r.StdCallsCPU}
		if ok {
			okKeys = append(okKeys, s.Programs[i].Key)
			calls = append(calls, r.CallsCPU)
		}
	}
	if len(calls) < 2 {
		return nil, fmt.Errorf("side-by-side timing: %d of %d programs ran in every round", len(calls), len(reps))
	}
	for i, fs := range NormaliseRounds(calls) {
		r := out[okKeys[i]]
		r.CallsCPU = make([]time.Duration, len(fs))
		for k, f := range fs {
			r.CallsCPU[k] = time.Duration(math.Round(f))
		}
		mean, std, _ := stats.MeanStdCV(fs)
		r.MeanCallsCPU, r.StdCallsCPU = time.Duration(math.Round(mean)), time.Duration(math.Round(std))
		out[okKeys[i]] = r
	}
	if key != "" {
		_ = o.CountCache.Put(ctx, key, out) // a failed Put costs a rerun its timing, not a result
	}
	return out, nil
}

// NormaliseRounds takes each program's times by round (calls[i][r]: program i,
// round r; every program has every round) and returns them multiplied by G/G_r,
// where G_r is the geometric mean of round r's times over the programs and G the
// geometric mean of the G_r: a load that slows a whole round by a factor leaves
// the result unchanged, and the programs' geometric mean keeps its scale.
func NormaliseRounds(calls [][]time.Duration) [][]float64 {
	rounds := len(calls[0])
	logG := make([]float64, rounds)
	for _, c := range calls {
		for r, d := range c {
			logG[r] += math.Log(math.Max(float64(d), 1)) / float64(len(calls))
		}
	}
	var logMean float64
	for _, g := range logG {
		logMean += g / float64(rounds)
	}
	out := make([][]float64, len(calls))
	for i, c := range calls {
		out[i] = make([]float64, rounds)
		for r, d := range c {
			out[i][r] = float64(d) * math.Exp(logMean-logG[r])
		}
	}
	return out
}

// ApplyRetimed puts a suite's side-by-side timing into its programs' reports:
// the native runs and the normalised calls replace the first pass's, the count
// fields stay, and TimedWith says how many programs were timed together.
func ApplyRetimed(profiles []SuiteProfile, t map[string]Retimed) {
	with := 0
	for _, r := range t {
		if r.OK {
			with++
		}
	}
	for i := range profiles {
		for j := range profiles[i].Measured {
			m := &profiles[i].Measured[j]
			r, ok := t[m.Key]
			if !ok || !r.OK {
				continue
			}
			rep := &m.Report
			rep.CPUTime, rep.WallTime, rep.MaxRSSKB, rep.RusageRSSKB = r.CPUTime, r.WallTime, r.MaxRSSKB, nil
			rep.CallsCPU, rep.MeanCallsCPU, rep.StdCallsCPU = r.CallsCPU, r.MeanCallsCPU, r.StdCallsCPU
			rep.Started, rep.Ended = r.Started, r.Ended
			rep.TimedWith = with
			rep.Detail = strings.TrimSpace(rep.Detail + fmt.Sprintf(" calls timed side by side with the suite's %d correct programs, %d rounds, each round divided by its geometric mean",
				with, RetimeRounds))
		}
	}
}

// RetimeProblem times side by side every suite of p that TimedSuites returns,
// each on a core leased from cpus, and puts the timings into profiles; a suite
// whose timing fails keeps its first pass, with the failure in its programs'
// details.
func RetimeProblem(ctx context.Context, p Problem, profiles []SuiteProfile, cpus []int, o ProfileOptions) error {
	for _, s := range TimedSuites(p, profiles) {
		lease, err := AcquireCore(ctx, cpus)
		if err != nil {
			return err
		}
		t, err := Retime(ctx, s, lease.Core, o)
		lease.Release()
		if err != nil {
			note(profiles, s, "side-by-side timing failed: "+err.Error())
			continue
		}
		ApplyRetimed(profiles, t)
	}
	return nil
}

func note(profiles []SuiteProfile, s Suite, msg string) {
	in := map[string]bool{}
	for _, p := range s.Programs {
		in[p.Key] = true
	}
	for i := range profiles {
		for j := range profiles[i].Measured {
			if m := &profiles[i].Measured[j]; in[m.Key] {
				m.Report.Detail = strings.TrimSpace(m.Report.Detail + " " + msg)
			}
		}
	}
}
