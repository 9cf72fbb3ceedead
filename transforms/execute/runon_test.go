package execute

import (
	"context"
	"errors"
	"testing"

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
