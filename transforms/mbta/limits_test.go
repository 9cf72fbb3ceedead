package mbta

import (
	"testing"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/runner"
	"transmute/transforms/sandbox"
)

func TestMutantLimits(t *testing.T) {
	fixed := sandbox.Limits{CPUTime: time.Second, WallTime: 2 * time.Second}
	orig := execute.Result{Status: schemas.StatusOK, Tests: []execute.TestResult{
		{Status: schemas.StatusOK, CPUTime: 2 * time.Millisecond, WallTime: 3 * time.Millisecond},
		{Status: schemas.StatusRuntimeError, CPUTime: 10 * time.Millisecond, WallTime: 12 * time.Millisecond},
	}}
	m := &Runner{Tools: runner.Tools{Limits: fixed}}
	if l, adapted := m.mutantLimits(orig); adapted || l != fixed {
		t.Errorf("factor 0 must keep the fixed limits, got %+v %v", l, adapted)
	}
	m.MutantTimeFactor = 20
	l, adapted := m.mutantLimits(orig)
	// 20 × 12 ms + 100 ms = 340 ms CPU; wall 2 × 340 + 100 = 780 ms
	if !adapted || l.CPUTime != 340*time.Millisecond || l.WallTime != 780*time.Millisecond {
		t.Errorf("got %v CPU, %v wall (%v), want 340ms, 780ms", l.CPUTime, l.WallTime, adapted)
	}
	slow := execute.Result{Status: schemas.StatusOK, Tests: []execute.TestResult{{Status: schemas.StatusOK, CPUTime: 400 * time.Millisecond}}}
	if l, _ := m.mutantLimits(slow); l.CPUTime != time.Second || l.WallTime != 2*time.Second {
		t.Errorf("never above the fixed limits: %+v", l)
	}
	hung := execute.Result{Status: schemas.StatusTimeout, Tests: []execute.TestResult{{Status: schemas.StatusTimeout}}}
	if l, adapted := m.mutantLimits(hung); adapted || l != fixed {
		t.Errorf("an original that timed out keeps the fixed limits: %+v", l)
	}
}
