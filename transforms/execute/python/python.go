// Package python is the Python execution engine: a pool of fork servers that serve
// batch after batch.
//
// A worker is runner.py (embedded) run as `python3 -S -B -u runner.py` in the sandbox.
// It imports the usual benchmark modules once, then serves jobs, each one batch (or the
// candidates of a batch that a dead worker left unreached) as a line of JSON on its
// stdin, until its stdin closes. Per candidate it forks a child, which applies the
// limits, runs the candidate (compiled by the server) in the server's namespace and
// runs its tests; the server forwards the child's protocol lines
// (transforms/execute/protocol.go) once per candidate, and "#end" after the job. A
// child costs about 1-2 ms of CPU where a fresh interpreter costs about 20 ms, and the
// sandbox and the interpreter's start-up (about 60 ms of CPU) are paid once per worker
// instead of once per batch. See runner.py for what keeps a child cheap and what keeps
// candidates apart.
//
// Run takes an idle worker started with the same sandbox limits (they derive from
// Batch.Limits) or starts one, and puts it back when the job ended with "#end". A
// worker that died, or was killed (the context, the safety net below), is discarded.
// Workers retire after maxJobsPerWorker jobs, at most max(2, NumCPU) are kept idle,
// and an idle worker is closed after idleTimeout. A worker's start-up costs as much
// CPU as some 20 candidates, so for the engine's first warmJobs jobs a Run that finds
// every worker busy waits up to startWait for one before it starts another. Without a
// PID namespace (see sandbox.Protections) the server cannot kill the processes a
// candidate leaves behind, so each worker serves one batch, as before pooling. Close
// ends the idle workers, kills the busy ones (their Runs fail) and waits until all are
// reaped. Stats counts workers started and reused.
//
// Limits: Batch.Limits.CPUTime and WallTime bound each test (defaults from
// sandbox.DefaultLimits), enforced in the children (a CPU-clock timer, an interval timer, RLIMIT_CPU) and by
// the server's wall-time watchdog; a worker as a whole only gets generous limits (an
// hour of CPU, hours of wall time), and the engine kills it when a job prints nothing
// for (WallTime+2s) x (tests+2) x candidates + 10s. MemoryBytes is the address space
// of each child. A test that runs out of time is reported as timeout together with the
// candidate's remaining tests; a child killed by another signal (a C stack overflow
// on the thread with the big stack) makes that test a runtime_error and the runner
// goes on with the next test in a new child.
//
// When a worker dies in a job, the candidates it had finished keep their results and
// those not reached are retried in another worker. The one in progress loses the lines
// of its run (the runner forwards a candidate's lines when the candidate is over), and
// its tests get what the worker's end makes of it: a worker killed by a signal is a
// runtime_error, one stopped (SIGSTOP, SIGTSTP: the sandbox kills a stopped tree at
// once) or past its time limits a timeout, one killed by the memory cgroup a
// memory_limit: only the candidate's code runs meanwhile, and it may signal the server,
// its parent. A worker that exits, ends the job early or goes quiet for too long gives
// infra_error. Deaths that finish no candidate are retried at most three times.
package python

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/sandbox"
)

//go:embed runner.py
var runnerSource []byte

// ArgumentConversion returns the section of runner.py that converts a test's JSON
// arguments to the values the benchmarks' Python scripts pass (parse_type,
// to_float, conv) and finds the function to call (find_entry, bound): the
// profiling harness (transforms/profile) includes the same code, so that a program
// measured there gets its arguments and entry as it does here. It panics if
// runner.py lost its section markers.
func ArgumentConversion() string {
	return runnerSection("argument conversion and entry")
}

// ValueEncoding returns the section of runner.py that prints a return value as
// JSON (enc), which the profiling harness includes as well; the including code
// defines quote, EncodeError and exact_number. It panics if runner.py lost its
// section markers.
func ValueEncoding() string {
	return runnerSection("return value encoding")
}

// runnerSection is runner.py from the line "# ---- name" to the line "# ---- end
// name".
func runnerSection(name string) string {
	s := string(runnerSource)
	i := strings.Index(s, "# ---- "+name)
	j := strings.Index(s, "# ---- end "+name)
	if i < 0 || j < i {
		panic("python: runner.py has no " + name + " section")
	}
	return s[i:j]
}

func init() {
	execute.Register(schemas.Python, func(opts execute.Options) (execute.Engine, error) {
		return New(opts)
	})
}

// Engine runs Python batches. It is safe for concurrent use.
type Engine struct {
	python string
	runner string // path of runner.py in the cache dir
	dir    string
	// flags for the runner: --reap when the sandbox gives the worker a PID namespace,
	// --private-tmp when its /tmp, /var/tmp, /dev/shm and /run/lock are its own
	flags []string
	// maxJobs is how many jobs a worker serves: maxJobsPerWorker, or 1 when the
	// server cannot kill what a candidate leaves behind (no PID namespace)
	maxJobs     int
	maxIdle     int
	idleTimeout time.Duration
	// Until the engine has run warmJobs jobs, a Run that finds every worker busy waits
	// up to startWait for one before it starts another (see get).
	warmJobs  int
	startWait time.Duration

	mu    sync.Mutex
	idle  map[sandbox.Limits][]*worker // by sandbox limits; the most recently used last
	nIdle int
	busy  map[*worker]bool
	// starting counts the workers being started, by sandbox limits
	starting map[sandbox.Limits]int
	// freed is closed (and replaced) when a worker is put back in the pool
	freed  chan struct{}
	jobs   int // jobs handed to workers
	closed bool
	stats  Stats
	// live counts the workers being started or not yet reaped; Close waits for it
	live sync.WaitGroup
}

// Stats counts the engine's workers.
type Stats struct {
	Started int // workers started
	Reused  int // jobs (batches, or retries of their unreached candidates) run by a worker that had run one before
	Idle    int // workers idle now
	Busy    int // workers running a job now
}

// Pool bounds.
const (
	maxJobsPerWorker = 500
	idleTimeout      = 30 * time.Second
	// A worker's own sandbox limits; the per-test ones are enforced inside it.
	workerCPU  = time.Hour
	workerWall = 6 * time.Hour
	// closeGrace is how long a closing idle worker may take to exit after its stdin
	// closes before it is killed.
	closeGrace = 2 * time.Second
	// A worker's start-up costs about 60 ms of CPU, as much as some 20 candidates: for
	// its first warmJobs jobs, the engine makes a Run wait up to startWait (a worker's
	// start-up and a few small batches, on a loaded machine) for a busy worker rather
	// than start another, so that a short run with concurrent callers does not pay for
	// workers it barely uses.
	warmJobs  = 16
	startWait = 500 * time.Millisecond
)

// New writes the runner into opts.WorkDir (else transmute-cache-<uid> in the temporary
// directory; it and its parents must be readable by the sandbox's user) and finds the
// interpreter: opts.Python, else /usr/bin/python3, else a python3 on PATH that is not a
// pyenv shim.
func New(opts execute.Options) (*Engine, error) {
	py, err := FindPython(opts.Python)
	if err != nil {
		return nil, err
	}
	e := &Engine{python: py, maxJobs: maxJobsPerWorker, maxIdle: max(2, runtime.NumCPU()),
		idleTimeout: idleTimeout, warmJobs: warmJobs, startWait: startWait,
		idle: map[sandbox.Limits][]*worker{}, busy: map[*worker]bool{},
		starting: map[sandbox.Limits]int{}, freed: make(chan struct{})}
	prot := sandbox.Protections()
	if slices.Contains(prot, "pid_ns") {
		e.flags = append(e.flags, "--reap")
	} else {
		e.maxJobs = 1
	}
	if slices.Contains(prot, "private_tmp") {
		e.flags = append(e.flags, "--private-tmp")
	}
	sub := "python-runner-" + execute.Digest(6, string(runnerSource))
	root := opts.WorkDir
	if root == "" {
		root = execute.UserDir("transmute-cache")
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("python engine: %w", err)
	}
	e.dir = filepath.Join(root, sub)
	if err := os.MkdirAll(e.dir, 0o755); err != nil {
		return nil, fmt.Errorf("python engine: %w", err)
	}
	_ = os.Chmod(e.dir, 0o755)
	e.runner = filepath.Join(e.dir, "runner.py")
	if old, err := os.ReadFile(e.runner); err != nil || string(old) != string(runnerSource) {
		tmp := e.runner + fmt.Sprintf(".%d.tmp", os.Getpid())
		if err := os.WriteFile(tmp, runnerSource, 0o644); err != nil {
			return nil, fmt.Errorf("python engine: %w", err)
		}
		_ = os.Chmod(tmp, 0o644)
		if err := os.Rename(tmp, e.runner); err != nil {
			return nil, fmt.Errorf("python engine: %w", err)
		}
	}
	return e, nil
}

// FindPython returns want if set, else /usr/bin/python3 if it exists, else the first
// python3 on PATH that is not under a pyenv shims directory.
func FindPython(want string) (string, error) {
	if want != "" {
		return want, nil
	}
	if fi, err := os.Stat("/usr/bin/python3"); err == nil && !fi.IsDir() {
		return "/usr/bin/python3", nil
	}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if dir == "" || strings.Contains(dir, "pyenv") && strings.Contains(dir, "shims") {
			continue
		}
		p := filepath.Join(dir, "python3")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("python engine: no python3 found (outside pyenv shims)")
}

// Lang returns "python".
func (e *Engine) Lang() string { return schemas.Python }

// Close ends the idle workers (their stdin closes; they are killed if they do not exit
// within closeGrace) and kills the busy ones, waits until every worker is reaped (so
// that their CPU time is in this process's RUSAGE_CHILDREN), and makes later Runs fail.
// The runner stays in the cache directory for the next engine.
func (e *Engine) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		e.live.Wait()
		return nil
	}
	e.closed = true
	close(e.freed) // Runs waiting for a worker give up
	var idle []*worker
	for _, ws := range e.idle {
		idle = append(idle, ws...)
	}
	e.idle, e.nIdle = nil, 0
	for w := range e.busy {
		w.kill()
	}
	e.mu.Unlock()
	for _, w := range idle {
		w.idleTimer.Stop()
		w.p.Stdin().Close()
	}
	for _, w := range idle {
		e.reap(w, closeGrace)
	}
	e.live.Wait()
	return nil
}

// Stats returns the counts of workers started and reused so far.
func (e *Engine) Stats() Stats {
	e.mu.Lock()
	defer e.mu.Unlock()
	st := e.stats
	st.Idle, st.Busy = e.nIdle, len(e.busy)
	return st
}

type jobCand struct {
	C       int    `json:"c"`
	Code    string `json:"code"`
	Imports string `json:"imports,omitempty"`
	Entry   string `json:"entry,omitempty"`
}

type job struct {
	Params  []string          `json:"params"`
	Returns string            `json:"returns"`
	Tests   []json.RawMessage `json:"tests"`
	Cands   []jobCand         `json:"cands"`
	CPU     float64           `json:"cpu"`
	Wall    float64           `json:"wall"`
	Mem     int64             `json:"mem"`
	Stack   int64             `json:"stack"`
	MaxOut  int64             `json:"max_out"`
	Seed    int64             `json:"seed,omitempty"`
}

// stackSize is the thread stack the tests run on, for deep recursion.
const stackSize = 256 << 20

// errClosed is returned by Run after Close.
var errClosed = errors.New("python engine: closed")

// Run runs every candidate of b on every test. Candidates that a dying worker left
// unreached are retried once in another worker; those never reached get infra_error.
func (e *Engine) Run(ctx context.Context, b execute.Batch) ([]execute.Result, error) {
	lim := b.Limits.WithDefaults()
	col := execute.NewCollector(b)
	if len(b.Candidates) == 0 {
		return col.Results, nil
	}
	j := job{Returns: b.Returns, CPU: lim.CPUTime.Seconds(), Wall: lim.WallTime.Seconds(),
		Mem: lim.MemoryBytes, MaxOut: min(lim.OutputBytes, 16<<20),
		Params: []string{}, Tests: []json.RawMessage{}, Seed: b.Seed}
	j.Stack = min(int64(stackSize), lim.MemoryBytes/4)
	for _, p := range b.Params {
		j.Params = append(j.Params, p.Type)
	}
	for _, t := range b.Tests {
		raw := json.RawMessage(t.Args)
		if !json.Valid(raw) {
			raw = json.RawMessage("null") // the runner reports the test as infra_error
		}
		j.Tests = append(j.Tests, raw)
	}
	done := make([]bool, len(b.Candidates))
	seen := make([]bool, len(b.Candidates))
	pending := make([]int, len(b.Candidates))
	for i := range pending {
		pending[i] = i
	}
	detail := ""
	fresh := false            // a reused worker found dead: take a new one
	crashed := map[int]bool{} // candidates that killed their worker
	// Jobs whose worker died are retried with the candidates not reached; a death in
	// a candidate is that candidate's (it is marked, and the next job goes on after
	// it), so only deaths that finished no candidate are bounded.
	for idle := 0; idle < 3 && len(pending) > 0; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		j.Cands = j.Cands[:0]
		for _, i := range pending {
			c := b.Candidates[i]
			j.Cands = append(j.Cands, jobCand{C: i, Code: c.Code, Imports: c.Imports, Entry: c.Entry})
		}
		r, err := e.runJob(ctx, lim, &j, col, done, seen, fresh)
		if err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if r.clean {
			detail = "python worker ended the job early"
		} else {
			detail = "python worker died: " + r.msg
		}
		if r.stale && !fresh {
			// A worker that had served before died before printing anything for this
			// job (killed while idle): not the batch's fault; retry once in a new one.
			fresh = true
			continue
		}
		// A candidate whose "done" never came: the one in progress (the runner marks a
		// candidate as reached before its code runs) keeps what came of it, its other
		// tests get the status of the worker's end (r.status: what the candidate did
		// to it); those not reached are retried.
		var next []int
		for _, i := range pending {
			switch {
			case done[i]:
			case seen[i]:
				col.MarkRest(i, r.status, detail)
				if res := &col.Results[i]; res.Detail == "" {
					res.Detail = detail
				}
				if r.status == schemas.StatusRuntimeError {
					crashed[i] = true
				}
			default:
				next = append(next, i)
			}
		}
		if len(next) == len(pending) {
			idle++
		}
		pending = next
	}
	res := col.Finish(schemas.StatusInfraError, detail)
	for i := range crashed {
		if res[i].Status == schemas.StatusOK {
			// not a clean run, though the collector counts runtime errors as run
			res[i].Status = schemas.StatusRuntimeError
		}
	}
	return res, nil
}

// worker is one sandboxed fork server.
type worker struct {
	key       sandbox.Limits // the pool it belongs to
	p         sandbox.Process
	sc        *bufio.Scanner
	jobs      int
	born      time.Time
	wall      time.Duration // its sandbox wall-time limit
	idleTimer *time.Timer   // closes it after idleTimeout in the pool
	killOnce  sync.Once
	reapOnce  sync.Once
	outcome   sandbox.Outcome
	waitErr   error
}

// kill ends the worker's whole sandbox at once.
func (w *worker) kill() {
	w.killOnce.Do(w.p.Kill)
}

// jobResult is how one job on one worker ended.
type jobResult struct {
	clean bool   // the runner printed #end
	stale bool   // a reused worker died before printing anything
	msg   string // how the worker ended, when not clean
	// status is for the tests of the candidate in progress when the worker died: the
	// candidate's own failure when its end is one a candidate causes (killed by a
	// signal, stopped, out of time or memory), else infra_error
	status schemas.Status
}

// quietLimit is how long a job may go without printing a line before the engine
// kills its worker. The runner writes before each candidate's first child, and a
// candidate takes at most about WallTime plus the runner's grace second per test, for
// its top level and for a test run again on the big stack, so this bound, which covers
// the whole job, only catches a server that hangs.
func quietLimit(lim sandbox.Limits, j *job) time.Duration {
	return (lim.WallTime+2*time.Second)*time.Duration((len(j.Tests)+2)*len(j.Cands)) + 10*time.Second
}

// runJob runs the job on a worker of the pool (a new one if fresh), feeding its lines to
// col. It returns an error only when no worker could be started.
func (e *Engine) runJob(ctx context.Context, lim sandbox.Limits, j *job, col *execute.Collector, done, seen []bool, fresh bool) (jobResult, error) {
	input, err := json.Marshal(j)
	if err != nil {
		return jobResult{}, fmt.Errorf("python engine: %w", err)
	}
	if bytes.IndexByte(input, '\n') >= 0 {
		return jobResult{}, fmt.Errorf("python engine: a job's JSON holds a newline")
	}
	input = append(input, '\n')
	quiet := quietLimit(lim, j)
	wl := lim
	wl.CPUTime = workerCPU
	wl.WallTime = 0
	wl.MemoryBytes = lim.MemoryBytes + stackSize
	w, err := e.get(ctx, wl, quiet, fresh)
	if err != nil {
		return jobResult{}, err
	}
	reused := w.jobs > 0
	w.jobs++
	stopCtx := context.AfterFunc(ctx, w.kill)
	dog := newWatchdog(quiet, w.kill)
	werr := make(chan error, 1)
	go func() {
		_, err := w.p.Stdin().Write(input)
		werr <- err
	}()
	ended, lines := false, 0
	for w.sc.Scan() {
		line := w.sc.Bytes()
		dog.touch()
		lines++
		if string(line) == "#end" {
			ended = true
			break
		}
		col.Feed(line)
		if c, isDone, ok := header(line); ok && c >= 0 && c < len(done) {
			seen[c] = true
			if isDone {
				done[c] = true
			}
		}
	}
	fired := dog.stop()
	ctxFired := !stopCtx()
	var writeErr error
	if ended {
		// The runner read the whole line before it ran the job: the write is over.
		writeErr = <-werr
		if !fired && !ctxFired && writeErr == nil {
			e.put(w)
			return jobResult{clean: true}, nil
		}
	}
	// The worker is dead or must be: end it and say how it ended.
	scanErr := w.sc.Err()
	w.kill()
	_, _ = io.Copy(io.Discard, w.p.Stdout())
	if !ended {
		writeErr = <-werr
	}
	o, err := e.reap(w, 0)
	e.mu.Lock()
	closed := e.closed
	e.mu.Unlock()
	if closed {
		return jobResult{}, errClosed // Close killed it
	}
	r := jobResult{stale: reused && lines == 0, status: schemas.StatusInfraError}
	switch {
	case err == nil && !fired && !ctxFired && scanErr == nil && !ended:
		// Only the candidate in progress runs code of its own: a worker stopped or
		// killed meanwhile is its doing (it can signal the server, its parent).
		r.status, r.msg = deathStatus(o)
		if r.status != schemas.StatusInfraError {
			return r, nil
		}
	}
	switch {
	case fired:
		r.msg = fmt.Sprintf("no output for %v: killed", quiet)
	case ctxFired:
		r.msg = "cancelled: " + context.Cause(ctx).Error()
	case err != nil:
		r.msg = err.Error()
	case scanErr != nil:
		r.msg = scanErr.Error()
	case ended:
		r.msg = fmt.Sprintf("writing the job: %v", writeErr)
	case o.WallTimeout:
		r.msg = "worker wall-time limit"
	case o.CPUTimeout:
		r.msg = "worker CPU-time limit"
	case o.Signal != "":
		r.msg = "worker killed by " + o.Signal + ": " + tail(o.Stderr)
	case o.ExitCode != 0:
		r.msg = fmt.Sprintf("worker exited with code %d: %s", o.ExitCode, tail(o.Stderr))
	default:
		r.msg = "worker ended early: " + tail(o.Stderr)
	}
	return r, nil
}

// deathStatus is the status, and how it ended, of a worker that died in a candidate:
// infra_error when its end is none that a candidate causes (it exited, or ended
// early).
func deathStatus(o sandbox.Outcome) (schemas.Status, string) {
	switch {
	case o.Stopped:
		return schemas.StatusTimeout, "stopped by a signal: killed"
	case o.MemoryExceeded:
		return schemas.StatusMemoryLimit, "worker memory limit"
	case o.WallTimeout:
		return schemas.StatusTimeout, "worker wall-time limit"
	case o.CPUTimeout:
		return schemas.StatusTimeout, "worker CPU-time limit"
	case o.Signal != "":
		return schemas.StatusRuntimeError, strings.TrimSuffix("worker killed by signal: "+o.Signal+": "+tail(o.Stderr), ": ")
	}
	return schemas.StatusInfraError, ""
}

// header returns the candidate index of a protocol line and whether it is the
// candidate's "done" line.
func header(line []byte) (c int, done, ok bool) {
	var h struct {
		C    *int `json:"c"`
		Done bool `json:"done"`
	}
	if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &h) != nil || h.C == nil {
		return 0, false, false
	}
	return *h.C, h.Done, true
}

// get takes an idle worker with the sandbox limits wl (whose remaining wall time covers
// a job that may run quiet for quiet), unless fresh, or starts one. While the engine is
// warming up (see warmJobs) it first waits up to startWait for a busy worker.
func (e *Engine) get(ctx context.Context, wl sandbox.Limits, quiet time.Duration, fresh bool) (*worker, error) {
	var retire []*worker
	defer func() {
		for _, w := range retire {
			w.p.Stdin().Close()
			go e.reap(w, closeGrace)
		}
	}()
	var wait *time.Timer
	defer func() {
		if wait != nil {
			wait.Stop()
		}
	}()
	e.mu.Lock()
	for {
		if e.closed {
			e.mu.Unlock()
			return nil, errClosed
		}
		for ws := e.idle[wl]; !fresh && len(ws) > 0; ws = e.idle[wl] {
			w := ws[len(ws)-1]
			e.idle[wl] = ws[:len(ws)-1]
			e.nIdle--
			w.idleTimer.Stop() // if it fired, expire finds w gone from the pool
			if time.Since(w.born)+2*quiet+time.Minute > w.wall {
				retire = append(retire, w)
				continue
			}
			e.busy[w] = true
			e.stats.Reused++
			e.jobs++
			e.mu.Unlock()
			return w, nil
		}
		if fresh || e.jobs >= e.warmJobs || e.busyWith(wl) == 0 {
			break
		}
		if wait == nil {
			wait = time.NewTimer(e.startWait)
		}
		freed := e.freed
		e.mu.Unlock()
		select {
		case <-freed:
			e.mu.Lock()
			continue
		case <-wait.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		e.mu.Lock()
		break
	}
	e.live.Add(1)
	e.starting[wl]++
	e.jobs++
	e.mu.Unlock()
	w, err := e.start(ctx, wl, quiet)
	e.mu.Lock()
	e.starting[wl]--
	if err != nil {
		e.jobs--
		e.mu.Unlock()
		e.live.Done()
		return nil, err
	}
	if e.closed {
		e.mu.Unlock()
		w.kill()
		e.reap(w, 0)
		return nil, errClosed
	}
	e.busy[w] = true
	e.stats.Started++
	e.mu.Unlock()
	return w, nil
}

// busyWith counts the workers with the sandbox limits wl that run a job or are being
// started. The caller holds e.mu.
func (e *Engine) busyWith(wl sandbox.Limits) int {
	n := e.starting[wl]
	for w := range e.busy {
		if w.key == wl {
			n++
		}
	}
	return n
}

// start starts a worker with the sandbox limits wl (retrying twice).
func (e *Engine) start(ctx context.Context, wl sandbox.Limits, quiet time.Duration) (*worker, error) {
	spec := sandbox.Spec{
		Path:     e.python,
		Args:     append([]string{"-S", "-B", "-u", e.runner}, e.flags...),
		ReadOnly: []string{e.dir},
		Limits:   wl,
	}
	spec.Limits.WallTime = max(workerWall, 2*quiet+10*time.Minute)
	p, err := sandbox.Start(context.Background(), spec)
	for attempt := 1; err != nil && attempt < 3 && ctx.Err() == nil; attempt++ {
		time.Sleep(time.Duration(attempt) * 200 * time.Millisecond)
		p, err = sandbox.Start(context.Background(), spec)
	}
	if err != nil {
		return nil, fmt.Errorf("python engine: start worker: %w", err)
	}
	w := &worker{key: wl, p: p, born: time.Now(), wall: spec.Limits.WallTime}
	w.sc = bufio.NewScanner(p.Stdout())
	w.sc.Buffer(make([]byte, 64<<10), 64<<20)
	return w, nil
}

// put returns a worker whose job ended cleanly to the pool, or closes it when it has
// served its jobs, the pool is full or the engine is closed.
func (e *Engine) put(w *worker) {
	e.mu.Lock()
	delete(e.busy, w)
	if e.closed || w.jobs >= e.maxJobs || e.nIdle >= e.maxIdle {
		e.notify()
		e.mu.Unlock()
		w.p.Stdin().Close()
		e.reap(w, closeGrace)
		return
	}
	e.idle[w.key] = append(e.idle[w.key], w)
	e.nIdle++
	e.notify()
	if w.idleTimer == nil {
		w.idleTimer = time.AfterFunc(e.idleTimeout, func() { e.expire(w) })
	} else {
		w.idleTimer.Reset(e.idleTimeout)
	}
	e.mu.Unlock()
}

// notify wakes the Runs waiting for a worker (see get). The caller holds e.mu.
func (e *Engine) notify() {
	if !e.closed {
		close(e.freed)
		e.freed = make(chan struct{})
	}
}

// expire closes w if it is still idle.
func (e *Engine) expire(w *worker) {
	e.mu.Lock()
	ws := e.idle[w.key]
	i := slices.Index(ws, w)
	if i < 0 {
		e.mu.Unlock()
		return // taken, or being closed by Close
	}
	e.idle[w.key] = slices.Delete(ws, i, i+1)
	e.nIdle--
	e.mu.Unlock()
	w.p.Stdin().Close()
	e.reap(w, closeGrace)
}

// reap waits for the worker to end, killing it after grace (at once when 0), and
// takes it out of the engine's counts. It returns the worker's outcome.
func (e *Engine) reap(w *worker, grace time.Duration) (sandbox.Outcome, error) {
	w.reapOnce.Do(func() {
		if grace > 0 {
			t := time.AfterFunc(grace, w.kill)
			defer t.Stop()
		}
		w.outcome, w.waitErr = w.p.Wait()
		e.mu.Lock()
		if e.busy[w] {
			delete(e.busy, w)
			e.notify()
		}
		e.mu.Unlock()
		e.live.Done()
	})
	return w.outcome, w.waitErr
}

// watchdog calls kill when touch has not been called for d.
type watchdog struct {
	mu      sync.Mutex
	t       *time.Timer
	d       time.Duration
	last    time.Time
	fired   bool
	stopped bool
	kill    func()
}

func newWatchdog(d time.Duration, kill func()) *watchdog {
	w := &watchdog{d: d, last: time.Now(), kill: kill}
	w.t = time.AfterFunc(d, w.check)
	return w
}

func (w *watchdog) touch() {
	w.mu.Lock()
	w.last = time.Now()
	w.mu.Unlock()
}

func (w *watchdog) check() {
	w.mu.Lock()
	if w.stopped {
		w.mu.Unlock()
		return
	}
	if left := w.d - time.Since(w.last); left > 0 {
		w.t.Reset(left)
		w.mu.Unlock()
		return
	}
	w.fired = true
	w.mu.Unlock()
	w.kill()
}

// stop disarms the watchdog and reports whether it fired.
func (w *watchdog) stop() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	w.t.Stop()
	return w.fired
}

func tail(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 2000 {
		s = "..." + s[len(s)-2000:]
	}
	return s
}
