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
	"transmute/transforms/values"
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
// ProfileSuite, the count mode unless Time. For a void function with array
// arguments, which the harness prints after each call inside the calls' bracket
// (work that grows with the size), the empty candidate of the signature is
// measured on the same inputs and its cost subtracted. (The harness's constant
// work per call goes with the program's cost at the smallest size, which
// Analyze subtracts.)
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
// a size's inputs is well above what is left of its fixed costs: 5,000
// instructions in C++, 30,000 in Java (interpreted), whose every operation costs
// ten to fifty times more, and 100,000 in Python, so that loops run past 256,
// where CPython's integers leave its cache of small ones and every step costs
// about a quarter more (a linear loop read as 1.16 from 150 to 600). It stops past
// 3e8 (seconds under callgrind). Thread CPU times resolve to tens of
// microseconds at best.
func (pm *ProfileMeter) Scale(lang string) Scale {
	if pm.Time {
		return Scale{Floor: 50e3, MinCost: 2e6, MaxCost: 2e9}
	}
	switch lang {
	case schemas.Cpp:
		return Scale{Floor: 1000, MinCost: 5e3, MaxCost: 3e8}
	case schemas.Python:
		return Scale{Floor: 1000, MinCost: 1e5, MaxCost: 3e8}
	}
	return Scale{Floor: 1000, MinCost: 3e4, MaxCost: 3e8}
}

// subtractEmpty: a void function whose array arguments the harness prints after
// each call, work inside the calls' bracket that grows with the size.
func subtractEmpty(params []schemas.Param, returns string) bool {
	if ret, err := values.ParseType(returns); err != nil || ret.Base != values.Void || ret.Dims > 0 {
		return false
	}
	for _, p := range params {
		if t, err := values.ParseType(p.Type); err == nil && t.Dims > 0 {
			return true
		}
	}
	return false
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
	opt.CountMaxCalls = -1 // every size is counted, however long
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
	var base float64
	if subtractEmpty(params, returns) {
		var err error
		if base, err = pm.emptyCost(ctx, lang, params, returns, tests); err != nil {
			return nil, err
		}
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
