package profile

import (
	"context"
	"strings"
	"testing"

	"transmute/schemas"
	"transmute/transforms/execute"
)

// TestProfileSuitePanicIsError: a panic while profiling a suite (injected at its
// start) is the suite's error, which the efficiency job makes error rows, not the
// end of the process.
func TestProfileSuitePanicIsError(t *testing.T) {
	faultHook = func(lang string, cands []execute.Candidate) { panic("injected profiler failure in " + lang) }
	defer func() { faultHook = nil }()
	reps, errs, err := ProfileSuite(context.Background(), schemas.Python,
		[]execute.Candidate{{ID: "a", Code: "def f(x):\n    return x\n", Entry: "f"}},
		[]schemas.Param{{Name: "x", Type: "int"}}, "int", []schemas.Test{{Index: 0, Args: "[1]"}}, Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "profiling panicked: injected profiler failure in python") ||
		reps != nil || errs != nil {
		t.Fatalf("ProfileSuite = %v, %v, %v; want the panic as its error", reps, errs, err)
	}
}
