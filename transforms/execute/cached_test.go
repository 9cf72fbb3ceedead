package execute

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"gocloud.dev/blob/memblob"

	"transmute/io/cache"
	"transmute/schemas"
	"transmute/transforms/sandbox"
)

// byContent answers each candidate from its code and the test inputs (as a real engine
// would), counting the candidates it ran; code "infra" gets an infra_error.
type byContent struct{ ran atomic.Int64 }

func (e *byContent) Lang() string { return "python" }
func (e *byContent) Close() error { return nil }
func (e *byContent) Run(ctx context.Context, b Batch) ([]Result, error) {
	var out []Result
	for _, c := range b.Candidates {
		e.ran.Add(1)
		r := Result{CandidateID: c.ID, Status: schemas.StatusOK}
		for _, t := range b.Tests {
			st := schemas.StatusOK
			if c.Code == "infra" {
				st = schemas.StatusInfraError
			}
			r.Tests = append(r.Tests, TestResult{Index: t.Index, Status: st,
				Output: fmt.Sprintf("%q", strings.ToUpper(c.Code)+t.Args+b.Limits.CPUTime.String())})
		}
		out = append(out, r)
	}
	return out, nil
}

func contentBatch(codes ...string) Batch {
	b := Batch{ProblemID: "P", Lang: "python", Tests: []schemas.Test{{Index: 0, Args: "[1]"}, {Index: 1, Args: "[2]"}},
		Limits: sandbox.Limits{CPUTime: 1e9}}
	for i, c := range codes {
		b.Candidates = append(b.Candidates, Candidate{ID: fmt.Sprint("c", i), Code: c})
	}
	return b
}

func TestCachedReusesResultsByContent(t *testing.T) {
	ctx := context.Background()
	inner := &byContent{}
	store := cache.New(memblob.OpenBucket(nil), "exec")
	e := Cached(inner, store, "v1")
	first, err := e.Run(ctx, contentBatch("a", "b", "infra"))
	if err != nil {
		t.Fatal(err)
	}
	if inner.ran.Load() != 3 {
		t.Fatalf("cold: ran %d, want 3", inner.ran.Load())
	}
	// Same programs under other ids, in another order, with a new one: only the new
	// one and the infra_error (never stored) run again.
	b := contentBatch("x", "b", "infra", "a")
	second, err := e.Run(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if got := inner.ran.Load() - 3; got != 2 {
		t.Fatalf("warm: ran %d, want 2 (x and infra)", got)
	}
	wantCached := []bool{false, true, false, true}
	for i, r := range second {
		if r.CandidateID != b.Candidates[i].ID || r.Cached != wantCached[i] {
			t.Errorf("result %d: id %s cached %v, want %s %v", i, r.CandidateID, r.Cached, b.Candidates[i].ID, wantCached[i])
		}
	}
	if second[1].Tests[1].Output != first[1].Tests[1].Output || second[3].Tests[0].Output != first[0].Tests[0].Output {
		t.Errorf("cached outputs differ: %+v vs %+v", second, first)
	}
	// Other limits, tests, seed, build or version: a different key (a gold's second
	// run, with another seed and bounds checks, must not be answered by its first).
	for name, mod := range map[string]func(*Batch){
		"limits": func(b *Batch) { b.Limits.CPUTime = 2e9 },
		"tests":  func(b *Batch) { b.Tests = b.Tests[:1] },
		"seed":   func(b *Batch) { b.Seed = 7 },
		"bounds": func(b *Batch) { b.BoundsChecks = true },
	} {
		b := contentBatch("a")
		mod(&b)
		before := inner.ran.Load()
		if r, _ := e.Run(ctx, b); r[0].Cached || inner.ran.Load() != before+1 {
			t.Errorf("%s changed but the cache answered", name)
		}
	}
	before := inner.ran.Load()
	if r, _ := Cached(inner, store, "v2").Run(ctx, contentBatch("a")); r[0].Cached || inner.ran.Load() != before+1 {
		t.Error("another engine version hit the cache")
	}
}

// TestCachedConcurrentWritersShareADirectory runs two cached engines over one local
// directory at once on overlapping programs: every result must be the engine's own.
func TestCachedConcurrentWritersShareADirectory(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	var wg sync.WaitGroup
	errs := make(chan error, 2*50)
	for w := 0; w < 2; w++ {
		s, err := cache.Open(ctx, dir, "exec")
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		e := Cached(&byContent{}, s, "v1")
		for g := 0; g < 50; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes := []string{fmt.Sprint("p", g%10), fmt.Sprint("q", g%7)}
				res, err := e.Run(ctx, contentBatch(codes...))
				if err != nil {
					errs <- err
					return
				}
				want, _ := (&byContent{}).Run(ctx, contentBatch(codes...))
				for i := range res {
					if res[i].Tests[1].Output != want[i].Tests[1].Output || res[i].Status != want[i].Status {
						errs <- fmt.Errorf("%s: got %+v want %+v", codes[i], res[i], want[i])
					}
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
