package execute

import (
	"context"
	"errors"
	"fmt"

	"transmute/schemas"
)

// ErrNoEngine is RunOn's error when no engine is open for the batch's language.
var ErrNoEngine = errors.New("no execution engine")

// RunOn runs b on the engine of its language in engines. When there is none, when it
// fails, or when it answers for another number of candidates, every candidate gets
// infra_error (and, with perTest, every test too) and the error is returned for the
// caller's error row: one failing batch never loses the others' results.
func RunOn(ctx context.Context, engines map[string]Engine, b Batch, perTest bool) ([]Result, error) {
	var res []Result
	var err error
	if eng := engines[b.Lang]; eng == nil {
		err = fmt.Errorf("%w for %s", ErrNoEngine, b.Lang)
	} else if res, err = eng.Run(ctx, b); err == nil && len(res) != len(b.Candidates) {
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
