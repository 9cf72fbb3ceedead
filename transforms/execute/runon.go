package execute

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"transmute/schemas"
)

// ErrNoEngine is RunOn's error when no engine is open for the batch's language.
var ErrNoEngine = errors.New("no execution engine")

// RunOn runs b on the engine of its language in engines. When there is none, when it
// fails or panics, or when it answers for another number of candidates, every
// candidate gets infra_error (and, with perTest, every test too) and the error is
// returned for the caller's error row: one failing batch never loses the others'
// results, and the results always hold one entry per candidate.
func RunOn(ctx context.Context, engines map[string]Engine, b Batch, perTest bool) ([]Result, error) {
	var res []Result
	var err error
	if eng := engines[b.Lang]; eng == nil {
		err = fmt.Errorf("%w for %s", ErrNoEngine, b.Lang)
	} else if res, err = runGuarded(ctx, eng, b); err == nil && len(res) != len(b.Candidates) {
		err = fmt.Errorf("engine returned %d results for %d candidates", len(res), len(b.Candidates))
	}
	if err == nil {
		return res, nil
	}
	res = make([]Result, len(b.Candidates))
	for i, c := range b.Candidates {
		res[i] = Result{CandidateID: c.ID, Status: schemas.StatusInfraError, Detail: err.Error()}
		if perTest {
			for _, t := range b.Tests {
				res[i].Tests = append(res[i].Tests, TestResult{Index: t.Index, Status: schemas.StatusInfraError})
			}
		}
	}
	return res, err
}

// runGuarded runs b on eng, turning a panic of the engine (in this goroutine) into
// an error that says where it came from: a panic in an engine call ends only that
// batch, not the process with every other problem's work.
func runGuarded(ctx context.Context, eng Engine, b Batch) (res []Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			res, err = nil, panicError(v)
		}
	}()
	return eng.Run(ctx, b)
}

// panicError describes a recovered panic with the top of its stack.
func panicError(v any) error {
	st := string(debug.Stack())
	if len(st) > 3000 {
		st = st[:3000] + "..."
	}
	return fmt.Errorf("engine panicked: %v\n%s", v, st)
}
