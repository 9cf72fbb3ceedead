package enginetest

import (
	"testing"
	"time"

	"transmute/internal/testenv"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/sandbox"
)

// TestCPULimitOnBusyMachine: a test stopped at its CPU limit has used that much CPU,
// also while short-lived tasks keep the machine busy. An interval timer
// (ITIMER_PROF) counts a whole tick for whoever runs when the tick comes; beside such
// tasks it fired at 0.66 to 0.9 of the CPU it was set to, so a candidate that needed
// 0.7 s of a 1 s limit could time out.
func TestCPULimitOnBusyMachine(t *testing.T) {
	const limit = 500 * time.Millisecond
	// The engines (and their harnesses, when no test built them yet) are opened on a
	// quiet machine: the busy processes burn both cores for as long as they run.
	engines := map[string]execute.Engine{}
	for _, lang := range langs {
		engines[lang] = openEngine(t, lang)
	}
	testenv.BusyMachine(t, 6)
	for _, lang := range langs {
		t.Run(lang, func(t *testing.T) {
			e := engines[lang]
			b := execute.Batch{ProblemID: "cpulimit", Lang: lang, Params: []schemas.Param{{Name: "x", Type: "int"}},
				Returns: "int", Tests: []schemas.Test{{Index: 0, Args: "[3]"}},
				Limits:     sandbox.Limits{CPUTime: limit, WallTime: 30 * time.Second, MemoryBytes: 512 << 20},
				Candidates: []execute.Candidate{{ID: "loop", Code: hostileCode(t, lang, "infinite_loop"), Entry: "f"}}}
			for k := 0; k < 3; k++ {
				start := time.Now()
				r := runBatch(t, e, b)[0]
				tr := r.Tests[0]
				if tr.Status != schemas.StatusTimeout {
					t.Fatalf("run %d: %s %+v, want a timeout", k, r.Status, tr)
				}
				t.Logf("run %d: stopped at %v of CPU (limit %v) after %v", k, tr.CPUTime, limit, time.Since(start).Round(time.Millisecond))
				// a few ms short at most: the engines' own CPU figures start a little
				// after their timers do
				if tr.CPUTime < limit-10*time.Millisecond {
					t.Errorf("run %d: timed out at %v of CPU, limit %v", k, tr.CPUTime, limit)
				}
			}
		})
	}
}

// hostileCode is the code of the hostile candidate name for lang.
func hostileCode(tb testing.TB, lang, name string) string {
	tb.Helper()
	for _, h := range hostiles[lang] {
		if h.name == name {
			return h.code
		}
	}
	tb.Fatalf("no hostile candidate %q for %s", name, lang)
	return ""
}
