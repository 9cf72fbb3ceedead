package growth

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/profile"
)

// Units of the cost (GrowthRow.Measure).
const (
	// UnitInstructions: callgrind's count of the instructions of the calls
	// (profile's count mode), which does not depend on the machine's load.
	UnitInstructions = "instructions"
	// UnitCallsCPU: the thread CPU time of the calls in nanoseconds, measured in
	// the process (profile.Report.MeanCallsCPU), where valgrind is missing.
	UnitCallsCPU = "calls_cpu_ns"
)

// ProfileMeter measures with transforms/profile: each suite's programs in one
// ProfileSuite, the count mode unless Time. The empty candidate of the signature
// is measured on the same inputs and its cost subtracted: what remains is the
// function's own work, without the harness's inside the calls' bracket (the loop
// and call, about a thousand instructions a call in Python, and the printing of
// an array result, which grows with the size).
type ProfileMeter struct {
	// Options are the profile options of every run (limits, WorkDir, Cache); the
	// meter sets Count, the repetitions and the run limit.
	Options profile.Options
	// Time measures the calls' thread CPU time (Repetitions runs, mean) instead of
	// counting instructions.
	Time bool
	// Slots, when set, bounds the measurements that run at once (one token per
	// measurement), across every caller sharing it.
	Slots chan struct{}

	mu      sync.Mutex
	empties map[string]float64 // the empty candidate's cost by suite
}

func (pm *ProfileMeter) Unit() string {
	if pm.Time {
		return UnitCallsCPU
	}
	return UnitInstructions
}

// Scale: counts resolve to about a thousand instructions (Java's count of one
// program moves by a few hundred). The ladder starts where the gold's own work on
// a size's inputs is well above the function's fixed costs (its call, its
// setup): 5,000 instructions in C++, 30,000 in Java (interpreted) and Python,
// whose every operation costs ten to fifty times more; it stops past 3e8 (seconds
// under callgrind). Thread CPU times resolve to tens of microseconds at best.
func (pm *ProfileMeter) Scale(lang string) Scale {
	if pm.Time {
		return Scale{Floor: 50e3, MinCost: 2e6, MaxCost: 2e9}
	}
	if lang == schemas.Cpp {
		return Scale{Floor: 1000, MinCost: 5e3, MaxCost: 3e8}
	}
	return Scale{Floor: 1000, MinCost: 3e4, MaxCost: 3e8}
}

// NewProfileMeter returns a meter with the profile options opt (limits, WorkDir,
// Cache), counting instructions unless time, bounded by slots when not nil.
func NewProfileMeter(opt profile.Options, time bool, slots chan struct{}) *ProfileMeter {
	return &ProfileMeter{Options: opt, Time: time, Slots: slots, empties: map[string]float64{}}
}

// emptyCost is the empty candidate's cost on tests, measured once per suite with
// the default limit.
func (pm *ProfileMeter) emptyCost(ctx context.Context, lang string, params []schemas.Param, returns string, tests []schemas.Test) (float64, error) {
	key, err := json.Marshal([]any{lang, params, returns, tests})
	if err != nil {
		return 0, err
	}
	pm.mu.Lock()
	v, ok := pm.empties[string(key)]
	pm.mu.Unlock()
	if ok {
		return v, nil
	}
	e, err := profile.EmptyCandidate(lang, params, returns)
	if err != nil {
		return 0, err
	}
	reps, errs, err := profile.ProfileSuite(ctx, lang, []execute.Candidate{e}, params, returns, tests, pm.options(0))
	if err != nil {
		return 0, err
	}
	v, ok = pm.value(reps[0])
	if errs[0] != nil || reps[0].Status != schemas.StatusOK || !ok {
		return 0, fmt.Errorf("growth: the empty candidate failed: %v %s %s", errs[0], reps[0].Status, reps[0].Detail)
	}
	pm.mu.Lock()
	pm.empties[string(key)] = v
	pm.mu.Unlock()
	return v, nil
}

func (pm *ProfileMeter) options(limit time.Duration) profile.Options {
	opt := pm.Options
	opt.OverheadRepetitions, opt.Warmup = -1, -1
	opt.Count = !pm.Time
	// The interpreter's cost per bytecode stays the same at every size; C1's
	// compiles a loop only past a count of iterations.
	opt.CountInterpreted = true
	if opt.Count {
		opt.Repetitions = 1
	}
	if limit > 0 {
		// The native run is 20-60 times faster than the counted one: the same
		// limit bounds both.
		opt.CountTimeLimit = limit
		if opt.TimeLimit <= 0 || opt.TimeLimit > limit {
			opt.TimeLimit = limit
		}
	}
	return opt
}

func (pm *ProfileMeter) value(r profile.Report) (float64, bool) {
	if pm.Time {
		return float64(r.MeanCallsCPU), len(r.CallsCPU) > 0
	}
	return float64(r.Instructions), r.Counted
}

func (pm *ProfileMeter) Measure(ctx context.Context, lang string, cands []execute.Candidate, params []schemas.Param, returns string,
	tests []schemas.Test, limit time.Duration) ([]Cost, error) {
	if pm.Slots != nil {
		select {
		case pm.Slots <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		defer func() { <-pm.Slots }()
	}
	base, err := pm.emptyCost(ctx, lang, params, returns, tests)
	if err != nil {
		return nil, err
	}
	reps, errs, err := profile.ProfileSuite(ctx, lang, cands, params, returns, tests, pm.options(limit))
	if err != nil {
		return nil, err
	}
	out := make([]Cost, len(cands))
	for k := range cands {
		r := reps[k]
		c := Cost{Status: r.Status, Detail: r.Detail, Outputs: r.Outputs, CPU: r.CountCPU}
		if pm.Time {
			c.CPU = r.MeanCPU
		}
		if errs[k] != nil {
			c.Status, c.Detail = schemas.StatusInfraError, errs[k].Error()
		} else if v, ok := pm.value(r); r.Status == schemas.StatusOK && ok {
			c.Value = v - base
		} else if r.Status == schemas.StatusOK {
			c.Status, c.Detail = schemas.StatusInfraError, "not measured: "+r.Detail
		}
		out[k] = c
	}
	return out, nil
}
