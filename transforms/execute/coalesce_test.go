package execute

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"transmute/schemas"
)

// fake answers each candidate with its ID as output, counting concurrent calls and
// the groups RunAll received.
type fake struct {
	multi         bool
	delay         time.Duration
	running, peak atomic.Int32
	mu            sync.Mutex
	groups        []int // batches per call
	closed        bool
}

func (f *fake) Lang() string { return "fake" }
func (f *fake) Close() error { f.closed = true; return nil }

func (f *fake) enter() func() {
	n := f.running.Add(1)
	for {
		p := f.peak.Load()
		if n <= p || f.peak.CompareAndSwap(p, n) {
			break
		}
	}
	time.Sleep(f.delay)
	return func() { f.running.Add(-1) }
}

func answer(b Batch) []Result {
	var out []Result
	for _, c := range b.Candidates {
		out = append(out, Result{CandidateID: c.ID, Status: schemas.StatusOK, Tests: []TestResult{{Status: schemas.StatusOK, Output: b.ProblemID + "/" + c.ID}}})
	}
	return out
}

func (f *fake) Run(ctx context.Context, b Batch) ([]Result, error) {
	defer f.enter()()
	f.mu.Lock()
	f.groups = append(f.groups, 1)
	f.mu.Unlock()
	return answer(b), nil
}

type fakeMulti struct{ *fake }

func (f fakeMulti) RunAll(ctx context.Context, bs []Batch) ([][]Result, error) {
	defer f.enter()()
	f.mu.Lock()
	f.groups = append(f.groups, len(bs))
	f.mu.Unlock()
	var out [][]Result
	for _, b := range bs {
		out = append(out, answer(b))
	}
	return out, nil
}

func batchOf(p string, n int) Batch {
	b := Batch{ProblemID: p}
	for i := 0; i < n; i++ {
		b.Candidates = append(b.Candidates, Candidate{ID: fmt.Sprint(i)})
	}
	return b
}

func hammer(t *testing.T, e Engine, callers int) {
	t.Helper()
	var wg sync.WaitGroup
	for k := 0; k < callers; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			b := batchOf(fmt.Sprintf("p%d", k), 1+k%5)
			res, err := e.Run(context.Background(), b)
			if err != nil {
				t.Error(err)
				return
			}
			if len(res) != len(b.Candidates) {
				t.Errorf("p%d: %d results for %d candidates", k, len(res), len(b.Candidates))
				return
			}
			for i, r := range res {
				if want := fmt.Sprintf("p%d/%d", k, i); r.Tests[0].Output != want {
					t.Errorf("p%d candidate %d got %q, want %q", k, i, r.Tests[0].Output, want)
				}
			}
		}(k)
	}
	wg.Wait()
}

func TestCoalesceGroupsAndBounds(t *testing.T) {
	f := &fake{multi: true, delay: 20 * time.Millisecond}
	e := Coalesce(fakeMulti{f}, CoalesceOptions{Parallel: 2, MaxCandidates: 12})
	hammer(t, e, 40)
	if p := f.peak.Load(); p > 2 {
		t.Errorf("peak concurrency %d, want <= 2", p)
	}
	total, calls := 0, len(f.groups)
	for _, g := range f.groups {
		total += g
	}
	if total != 40 {
		t.Errorf("the engine saw %d batches, want 40", total)
	}
	if calls >= 40 {
		t.Errorf("%d engine calls for 40 batches: nothing was grouped", calls)
	}
	t.Logf("40 batches in %d calls", calls)
	e.Close()
	if !f.closed {
		t.Error("Close did not close the engine")
	}
	if _, err := e.Run(context.Background(), batchOf("x", 1)); err == nil {
		t.Error("Run after Close succeeded")
	}
}

func TestCoalescePlainEngineOnlyBounds(t *testing.T) {
	f := &fake{delay: 10 * time.Millisecond}
	e := Coalesce(f, CoalesceOptions{Parallel: 3})
	hammer(t, e, 30)
	if p := f.peak.Load(); p > 3 {
		t.Errorf("peak concurrency %d, want <= 3", p)
	}
	if len(f.groups) != 30 {
		t.Errorf("%d calls for 30 batches of a plain engine", len(f.groups))
	}
}

func TestCoalesceCancelledWhileQueued(t *testing.T) {
	f := &fake{multi: true, delay: 200 * time.Millisecond}
	e := Coalesce(fakeMulti{f}, CoalesceOptions{Parallel: 1})
	go e.Run(context.Background(), batchOf("busy", 1)) // holds the only slot
	time.Sleep(50 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := e.Run(ctx, batchOf("late", 1))
	if err == nil || time.Since(start) > 150*time.Millisecond {
		t.Errorf("cancelled queued request: err %v after %v", err, time.Since(start))
	}
}
