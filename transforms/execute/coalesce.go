package execute

import (
	"context"
	"errors"
	"sync"
	"time"
)

// MultiEngine is an engine that runs several batches (of different problems) together,
// sharing their fixed cost (the C++ engine compiles them as one translation unit).
// Every candidate must get the result it gets in a batch of its own.
type MultiEngine interface {
	Engine
	// RunAll returns one slice of results per batch, in order.
	RunAll(ctx context.Context, batches []Batch) ([][]Result, error)
}

// CoalesceOptions configure Coalesce.
type CoalesceOptions struct {
	// Parallel bounds the engine calls running at once (default 1).
	Parallel int
	// MaxCandidates is the most candidates one RunAll gathers; a batch at least this
	// large runs alone (default 48).
	MaxCandidates int
	// Linger is how long a batch waits for others when a slot is free (default 0:
	// batches gather only while every slot is busy, so nothing waits needlessly).
	Linger time.Duration
}

// Coalesce wraps an engine for many concurrent callers (a pipeline's worker pool):
// at most Parallel calls of the engine run at once, and when the engine is a
// MultiEngine the batches that queue meanwhile are run together in one RunAll (up to
// MaxCandidates candidates). Closing the result closes e.
func Coalesce(e Engine, o CoalesceOptions) Engine {
	if o.Parallel <= 0 {
		o.Parallel = 1
	}
	if o.MaxCandidates <= 0 {
		o.MaxCandidates = 48
	}
	c := &coalescer{e: e, o: o, slots: make(chan struct{}, o.Parallel)}
	c.multi, _ = e.(MultiEngine)
	return c
}

type request struct {
	ctx  context.Context
	b    Batch
	res  []Result
	err  error
	done chan struct{}
}

type coalescer struct {
	e     Engine
	multi MultiEngine
	o     CoalesceOptions
	slots chan struct{}

	mu      sync.Mutex
	pending []*request
	closed  bool
}

func (c *coalescer) Lang() string { return c.e.Lang() }

// Close closes the wrapped engine; calls after it fail.
func (c *coalescer) Close() error {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	return c.e.Close()
}

func (c *coalescer) Run(ctx context.Context, b Batch) ([]Result, error) {
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return nil, errors.New("execute: engine closed")
	}
	if c.multi == nil || len(b.Candidates) >= c.o.MaxCandidates {
		select {
		case c.slots <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		defer func() { <-c.slots }()
		return c.e.Run(ctx, b)
	}
	r := &request{ctx: ctx, b: b, done: make(chan struct{})}
	c.mu.Lock()
	c.pending = append(c.pending, r)
	c.mu.Unlock()
	if c.o.Linger > 0 {
		t := time.NewTimer(c.o.Linger)
		select {
		case <-r.done:
			t.Stop()
			return r.res, r.err
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
	}
	// Take a slot, then run whatever is pending (this request among it, unless
	// another caller's group has taken it already).
	for {
		select {
		case <-r.done:
			return r.res, r.err
		case c.slots <- struct{}{}:
			if !c.pendingHas(r) {
				// another caller's group took this request: wait for it there
				<-c.slots
				<-r.done
				return r.res, r.err
			}
			c.runGroup(c.take())
			<-c.slots
		case <-ctx.Done():
			// leave it queued: a running group may still take it and finish it
			select {
			case <-r.done:
				return r.res, r.err
			default:
			}
			if c.remove(r) {
				return nil, ctx.Err()
			}
			<-r.done
			return r.res, r.err
		}
	}
}

// take removes pending requests up to MaxCandidates candidates (at least one).
func (c *coalescer) take() []*request {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, k := 0, 0
	for k < len(c.pending) {
		m := len(c.pending[k].b.Candidates)
		if k > 0 && n+m > c.o.MaxCandidates {
			break
		}
		n += m
		k++
	}
	group := append([]*request(nil), c.pending[:k]...)
	c.pending = append(c.pending[:0], c.pending[k:]...)
	return group
}

func (c *coalescer) pendingHas(r *request) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.pending {
		if p == r {
			return true
		}
	}
	return false
}

func (c *coalescer) remove(r *request) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, p := range c.pending {
		if p == r {
			c.pending = append(c.pending[:i], c.pending[i+1:]...)
			return true
		}
	}
	return false
}

// runGroup runs the requests as one RunAll and hands each its results. The group
// runs under the context of its first live request; a request whose own context
// ends meanwhile still gets the group's results.
func (c *coalescer) runGroup(group []*request) {
	ctx := group[0].ctx
	for _, r := range group {
		if r.ctx.Err() == nil {
			ctx = r.ctx
			break
		}
	}
	batches := make([]Batch, len(group))
	for i, r := range group {
		batches[i] = r.b
	}
	var res [][]Result
	var err error
	defer func() {
		// A panic of the engine fails every request of the group (their callers wait
		// for them) and goes on as an error in this one's caller.
		if v := recover(); v != nil {
			perr := panicError(v)
			for _, r := range group {
				r.err = perr
				close(r.done)
			}
		}
	}()
	if len(group) == 1 {
		var one []Result
		one, err = c.e.Run(ctx, batches[0])
		res = [][]Result{one}
	} else {
		res, err = c.multi.RunAll(ctx, batches)
		if err == nil && len(res) != len(group) {
			err = errors.New("execute: RunAll returned a wrong number of result sets")
		}
	}
	for i, r := range group {
		if err != nil {
			r.err = err
		} else {
			r.res = res[i]
		}
		close(r.done)
	}
}
