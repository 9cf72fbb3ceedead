package execute

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"transmute/schemas"
)

// shortEngine answers for one candidate whatever the batch holds.
type shortEngine struct{}

func (shortEngine) Lang() string { return "x" }
func (shortEngine) Run(_ context.Context, b Batch) ([]Result, error) {
	return []Result{{CandidateID: b.Candidates[0].ID, Status: schemas.StatusOK}}, nil
}
func (shortEngine) Close() error { return nil }

func TestRunOnFailures(t *testing.T) {
	b := Batch{Lang: "x", Tests: []schemas.Test{{Index: 0}, {Index: 3}},
		Candidates: []Candidate{{ID: "a"}, {ID: "b"}}}
	res, err := RunOn(context.Background(), nil, b, true)
	if !errors.Is(err, ErrNoEngine) || err.Error() != "no execution engine for x" {
		t.Fatalf("no engine: %v", err)
	}
	if len(res) != 2 || res[1].CandidateID != "b" || res[1].Status != schemas.StatusInfraError ||
		len(res[1].Tests) != 2 || res[1].Tests[1].Index != 3 || res[1].Tests[1].Status != schemas.StatusInfraError {
		t.Fatalf("no engine results: %+v", res)
	}
	res, err = RunOn(context.Background(), map[string]Engine{"x": shortEngine{}}, b, false)
	if err == nil || err.Error() != "engine returned 1 results for 2 candidates" {
		t.Fatalf("short answer: %v", err)
	}
	if len(res) != 2 || res[0].Status != schemas.StatusInfraError || len(res[0].Tests) != 0 || res[0].Detail != err.Error() {
		t.Fatalf("short answer results: %+v", res)
	}
	b.Candidates = b.Candidates[:1]
	if res, err = RunOn(context.Background(), map[string]Engine{"x": shortEngine{}}, b, true); err != nil || res[0].Status != schemas.StatusOK {
		t.Fatalf("a good answer: %+v %v", res, err)
	}
}

// TestRunOnFaults: an engine that fails or panics in Run gives every candidate
// infra_error and an error naming the failure; a panic does not end the process.
func TestRunOnFaults(t *testing.T) {
	b := Batch{Lang: "x", ProblemID: "P", Tests: []schemas.Test{{Index: 0}, {Index: 3}},
		Candidates: []Candidate{{ID: "a"}, {ID: "gold/x#rerun"}}}
	for _, f := range []Fault{FaultError, FaultPanic} {
		res, err := RunOn(context.Background(), map[string]Engine{"x": Faulty(shortEngine{}, "#rerun", f)}, b, true)
		if err == nil || !strings.Contains(err.Error(), "injected engine failure (#rerun) in x P, candidate gold/x#rerun") ||
			(f == FaultPanic) != strings.HasPrefix(err.Error(), "engine panicked: ") {
			t.Fatalf("fault %d: error %v", f, err)
		}
		if len(res) != 2 || res[1].Status != schemas.StatusInfraError || len(res[1].Tests) != 2 ||
			res[1].Tests[1].Status != schemas.StatusInfraError || res[0].Detail != err.Error() {
			t.Fatalf("fault %d: results %+v", f, res)
		}
	}
	// a batch the fault does not match runs
	b.Candidates = b.Candidates[:1]
	res, err := RunOn(context.Background(), map[string]Engine{"x": Faulty(shortEngine{}, "#rerun", FaultPanic)}, b, true)
	if err != nil || res[0].Status != schemas.StatusOK {
		t.Fatalf("an unmatched batch: %+v %v", res, err)
	}
}

// panicMulti panics in Run and RunAll (after a delay, so that batches queue
// meanwhile).
type panicMulti struct{ *fake }

func (p panicMulti) Run(ctx context.Context, b Batch) ([]Result, error) {
	defer p.enter()()
	panic("engine bug")
}

func (p panicMulti) RunAll(ctx context.Context, bs []Batch) ([][]Result, error) {
	defer p.enter()()
	panic("engine bug")
}

// TestCoalescePanic: a panic in a coalesced group fails every request of the group
// with an error, and none of their callers waits forever.
func TestCoalescePanic(t *testing.T) {
	e := Coalesce(panicMulti{&fake{delay: 50 * time.Millisecond}}, CoalesceOptions{Parallel: 1})
	errs := make(chan error, 6)
	for i := 0; i < 6; i++ {
		go func() {
			_, err := e.Run(context.Background(), batchOf(fmt.Sprint(i), 1))
			errs <- err
		}()
	}
	for i := 0; i < 6; i++ {
		select {
		case err := <-errs:
			if err == nil || !strings.Contains(err.Error(), "engine panicked: engine bug") {
				t.Errorf("caller %d: %v", i, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("only %d of 6 callers returned", i)
		}
	}
}
