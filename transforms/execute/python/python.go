// Package python is the Python execution engine: one fork server per batch.
//
// Run starts runner.py (embedded) once per batch as `python3 -S -B -u runner.py` in the
// sandbox and sends it the whole batch as JSON. The runner imports the usual benchmark
// modules once and forks a child per candidate, which applies the limits, compiles the
// candidate in a fresh namespace, runs its tests and prints the runner protocol
// (transforms/execute/protocol.go). A fork costs about 2 ms where a fresh interpreter
// costs about 15 ms.
//
// Limits: Batch.Limits.CPUTime and WallTime bound each test (defaults from
// sandbox.DefaultLimits); MemoryBytes is the address space of each child. A test that
// runs out of time is reported as timeout together with the candidate's remaining tests;
// a child killed by another signal (a C stack overflow) makes that test a runtime_error
// and the runner goes on with the next test in a new child.
package python

import (
	"bufio"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/sandbox"
)

//go:embed runner.py
var runnerSource []byte

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
}

// New writes the runner into opts.WorkDir (else transmute-cache-<uid> in the temporary
// directory; it and its parents must be readable by the sandbox's user) and finds the
// interpreter: opts.Python, else /usr/bin/python3, else a python3 on PATH that is not a
// pyenv shim.
func New(opts execute.Options) (*Engine, error) {
	py, err := FindPython(opts.Python)
	if err != nil {
		return nil, err
	}
	e := &Engine{python: py}
	sum := sha256.Sum256(runnerSource)
	sub := "python-runner-" + hex.EncodeToString(sum[:6])
	root := opts.WorkDir
	if root == "" {
		root = filepath.Join(os.TempDir(), fmt.Sprintf("transmute-cache-%d", os.Getuid()))
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

// Close releases nothing: each batch's worker ends with the batch, and the runner
// stays in the cache directory for the next engine.
func (e *Engine) Close() error { return nil }

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
}

// stackSize is the thread stack the tests run on, for deep recursion.
const stackSize = 256 << 20

// Run runs every candidate of b on every test. Candidates that a dying worker left
// unreached are retried once in a new worker; those never reached get infra_error.
func (e *Engine) Run(ctx context.Context, b execute.Batch) ([]execute.Result, error) {
	lim := b.Limits.WithDefaults()
	col := execute.NewCollector(b)
	if len(b.Candidates) == 0 {
		return col.Results, nil
	}
	j := job{Returns: b.Returns, CPU: lim.CPUTime.Seconds(), Wall: lim.WallTime.Seconds(),
		Mem: lim.MemoryBytes, MaxOut: min(lim.OutputBytes, 16<<20),
		Params: []string{}, Tests: []json.RawMessage{}}
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
	for attempt := 0; attempt < 3 && len(pending) > 0; attempt++ {
		j.Cands = j.Cands[:0]
		for _, i := range pending {
			c := b.Candidates[i]
			j.Cands = append(j.Cands, jobCand{C: i, Code: c.Code, Imports: c.Imports, Entry: c.Entry})
		}
		msg, err := e.runWorker(ctx, lim, &j, col, done, seen)
		if err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		detail = "python worker died: " + msg
		// A candidate whose "done" never came: the one in progress keeps what it got
		// (its other tests become infra_error); those not reached are retried.
		var next []int
		for _, i := range pending {
			switch {
			case done[i]:
			case seen[i]:
				col.MarkRest(i, schemas.StatusInfraError, detail)
			default:
				next = append(next, i)
			}
		}
		pending = next
	}
	return col.Finish(schemas.StatusInfraError, detail), nil
}

// runWorker runs one fork server on the job, feeding its lines to col. It returns a
// description of how the worker ended (for candidates it did not finish) and an error
// only when the worker could not be started.
func (e *Engine) runWorker(ctx context.Context, lim sandbox.Limits, j *job, col *execute.Collector, done, seen []bool) (string, error) {
	input, err := json.Marshal(j)
	if err != nil {
		return "", fmt.Errorf("python engine: %w", err)
	}
	n := time.Duration(len(j.Tests)*len(j.Cands) + 1)
	wl := lim
	// The per-test limits are enforced by the runner; the worker as a whole gets the
	// sum, plus the interpreter's start-up.
	wl.CPUTime = lim.CPUTime*n + 10*time.Second
	wl.WallTime = (lim.WallTime+time.Second)*n + 10*time.Second
	wl.MemoryBytes = lim.MemoryBytes + stackSize
	spec := sandbox.Spec{
		Path:     e.python,
		Args:     []string{"-S", "-B", "-u", e.runner},
		ReadOnly: []string{e.dir},
		Limits:   wl,
	}
	p, err := sandbox.Start(ctx, spec)
	for attempt := 1; err != nil && attempt < 3 && ctx.Err() == nil; attempt++ {
		time.Sleep(time.Duration(attempt) * 200 * time.Millisecond)
		p, err = sandbox.Start(ctx, spec)
	}
	if err != nil {
		return "", fmt.Errorf("python engine: start worker: %w", err)
	}
	werr := make(chan error, 1)
	go func() {
		_, err := p.Stdin().Write(input)
		p.Stdin().Close()
		werr <- err
	}()
	sc := bufio.NewScanner(p.Stdout())
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		col.Feed(line)
		var h struct {
			C    *int `json:"c"`
			Done bool `json:"done"`
		}
		if len(line) > 0 && line[0] == '{' && json.Unmarshal(line, &h) == nil && h.C != nil &&
			*h.C >= 0 && *h.C < len(done) {
			seen[*h.C] = true
			if h.Done {
				done[*h.C] = true
			}
		}
	}
	scanErr := sc.Err()
	if scanErr != nil {
		p.Kill()
		_, _ = io.Copy(io.Discard, p.Stdout())
	}
	o, err := p.Wait()
	<-werr
	switch {
	case err != nil:
		return err.Error(), nil
	case scanErr != nil:
		return scanErr.Error(), nil
	case o.WallTimeout:
		return "worker wall-time limit", nil
	case o.CPUTimeout:
		return "worker CPU-time limit", nil
	case o.Signal != "":
		return "worker killed by " + o.Signal + ": " + tail(o.Stderr), nil
	case o.ExitCode != 0:
		return fmt.Sprintf("worker exited with code %d: %s", o.ExitCode, tail(o.Stderr)), nil
	}
	return "worker ended early: " + tail(o.Stderr), nil
}

func tail(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 2000 {
		s = "..." + s[len(s)-2000:]
	}
	return s
}
