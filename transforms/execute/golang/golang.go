// Package golang is the Go execution engine: one `go build` per batch.
//
// Run writes one module for all candidates of a batch: each candidate in a package of
// its own (c0, c1, ...), so that their helpers and imports never clash, exposing its
// entry function as TransmuteEntry; a main package (harness_main.go.txt) holds the
// tests as JSON and serves any one candidate. The build runs inside the sandbox under
// CompileLimits, with GOFLAGS=-mod=mod, GOPROXY=off, CGO_ENABLED=0 and a GOCACHE of
// the build worker's own (seeded from a cache the engine builds once outside the
// sandbox, so that a worker does not compile the standard library again). A build
// that fails names its failing packages ("# tgo/c3"): those candidates get
// compile_error with their messages and the rest is built again (their packages are
// then in the cache).
//
// Each candidate's tests run in a sandboxed process of their own ("run <g> <from>"):
// a goroutine or an os.Exit of one candidate cannot reach another's tests, and a
// line that is not the candidate's own harness's is a forgery that makes all of its
// tests sandbox_violation, as in the C++ engine. When the process dies on test k (a
// timeout, a crash), test k gets that status and a new process goes on from k+1
// (after MaxConsecutiveTimeouts timeouts in a row the rest are timeouts unrun).
//
// Load-time code (init functions, package-level initialisers that may call, panic or
// block) would run in every candidate's process, since Go starts every package of a
// program; the engine refuses it as a compile error (source.go).
package golang

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/sandbox"
	"transmute/transforms/values"
)

//go:embed harness_main.go.txt
var harnessSource string

func init() {
	execute.Register(schemas.Go, func(opts execute.Options) (execute.Engine, error) {
		return New(opts)
	})
}

// MaxConsecutiveTimeouts is the engines' rule (execute.MaxConsecutiveTimeouts).
const MaxConsecutiveTimeouts = execute.MaxConsecutiveTimeouts

// stackSize is the most stack a candidate's goroutine may grow to (debug.SetMaxStack),
// a quarter of the memory limit when that is less.
const stackSize = 256 << 20

// goReserve is the address space the Go runtime reserves at start whatever the
// program allocates (its page allocator's summaries, about 700 MiB on linux/amd64: a
// program under RLIMIT_AS of 650 MB dies before main). A process's address-space
// limit is the memory limit plus this.
const goReserve = 1 << 30

// DefaultCompileLimits bound one `go build` (the go command and the compile and link
// processes it starts). A batch of 150 trivial candidates takes about 2 s of CPU with
// a warm cache; a cold standard library would take 20-30 s, which the seeded cache
// avoids.
var DefaultCompileLimits = sandbox.Limits{
	CPUTime:       60 * time.Second,
	WallTime:      120 * time.Second,
	MemoryBytes:   4<<30 + goReserve,
	MaxProcs:      256,
	FileSizeBytes: 1 << 30,
	OpenFiles:     1024,
	OutputBytes:   1 << 20,
}

// seedImports are the standard packages whose compiled form the seed cache holds:
// those of the harness and those translations commonly use.
var seedImports = []string{"math", "math/bits", "sort", "strings", "strconv", "unicode", "bytes",
	"container/heap", "container/list", "slices", "maps", "unsafe", "math/big", "fmt", "os"}

// Engine runs Go batches. It is safe for concurrent use.
type Engine struct {
	goroot, gobin string
	dir           string
	seedDir       string // the seed build cache (seed)
	// CompileLimits bound each build.
	CompileLimits sandbox.Limits

	mu      sync.Mutex
	workers []string // idle build workers' directories
	made    []string // every build worker's directory, removed on Close
	stats   Stats
}

// Stats counts the engine's work.
type Stats struct {
	Builds     int           // go build runs (a batch with compile errors takes two)
	BuildCPU   time.Duration // their CPU (the go command and its children)
	BuildWall  time.Duration
	Runs       int // candidate processes
	RunCPU     time.Duration
	Candidates int
}

// New finds the Go toolchain (go env GOROOT) and prepares the cache directory
// (opts.WorkDir, else transmute-go-<uid> under the temporary directory) with the seed
// build cache.
func New(opts execute.Options) (*Engine, error) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		return nil, fmt.Errorf("go engine: no go command on PATH: %w", err)
	}
	out, err := exec.Command(gobin, "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("go engine: go env GOROOT: %w", err)
	}
	goroot := strings.TrimSpace(string(out))
	dir := opts.WorkDir
	if dir == "" {
		dir = execute.UserDir("transmute-go")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	e := &Engine{goroot: goroot, gobin: filepath.Join(goroot, "bin", "go"), dir: dir, CompileLimits: DefaultCompileLimits}
	if err := e.seed(); err != nil {
		return nil, err
	}
	return e, nil
}

// Lang returns "go".
func (e *Engine) Lang() string { return schemas.Go }

// Close removes this engine's build workers and keeps the seed cache for the next
// engine.
func (e *Engine) Close() error {
	e.mu.Lock()
	made := e.made
	e.made, e.workers = nil, nil
	e.mu.Unlock()
	var first error
	for _, w := range made {
		if err := os.RemoveAll(w); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Stats returns the work done so far.
func (e *Engine) Stats() Stats {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stats
}

// buildEnv is the environment of every build.
func (e *Engine) buildEnv(work string) []string {
	return []string{
		"GOROOT=" + e.goroot,
		"PATH=" + filepath.Join(e.goroot, "bin") + ":/usr/bin:/bin",
		"GOCACHE=" + filepath.Join(work, "gocache"),
		"GOPATH=" + filepath.Join(work, "gopath"),
		"GOFLAGS=-mod=mod",
		"GOPROXY=off", "GOSUMDB=off", "GOTOOLCHAIN=local", "GOTELEMETRY=off", "GOENV=off",
		"GOWORK=off", "GO111MODULE=on", "CGO_ENABLED=0", "GOMAXPROCS=2",
		"HOME=" + work,
	}
}

// seed builds, once per machine, toolchain and harness, a program importing seedImports
// with the harness, outside the sandbox (it holds no candidate code), into the seed
// cache that each build worker copies.
func (e *Engine) seed() error {
	ver, _ := os.ReadFile(filepath.Join(e.goroot, "VERSION"))
	key := execute.Digest(8, string(ver)+harnessSource+strings.Join(seedImports, ","))
	seedDir := filepath.Join(e.seedRoot(), "seed-"+key)
	e.seedDir = seedDir
	if _, err := os.Stat(filepath.Join(seedDir, "ok")); err == nil {
		return nil
	}
	if err := os.MkdirAll(e.seedRoot(), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(e.seedRoot(), "seedbuild-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var imp strings.Builder
	for _, p := range seedImports {
		fmt.Fprintf(&imp, "import _ %q\n", p)
	}
	src := map[string]string{
		"c0/cand.go": "package c0\n" + imp.String() + "func f(x int) int { return x }\nvar " + entryAlias + " = f\n",
	}
	if err := writeModule(tmp, src, []int{0}, []string{"int"}, "int", nil); err != nil {
		return err
	}
	cmd := exec.Command(e.gobin, "build", "-o", "prog", ".")
	cmd.Dir = tmp
	cmd.Env = e.buildEnv(tmp)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go engine: seed build: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(tmp, "ok"), nil, 0o644); err != nil {
		return err
	}
	_ = os.Remove(filepath.Join(tmp, "prog"))
	// another engine may have made it meanwhile: its copy is as good
	if err := os.Rename(tmp, seedDir); err != nil {
		if _, serr := os.Stat(filepath.Join(seedDir, "ok")); serr == nil {
			return nil
		}
		return err
	}
	return nil
}

// seedRoot holds the seed caches of every engine of this user: built outside the
// sandbox by the engine, never written by a sandboxed program (a build copies it).
func (e *Engine) seedRoot() string {
	return execute.UserDir("transmute-go-seed")
}

// worker takes an idle build worker directory, or makes one with a copy of the seed
// cache.
func (e *Engine) worker() (string, error) {
	e.mu.Lock()
	if n := len(e.workers); n > 0 {
		w := e.workers[n-1]
		e.workers = e.workers[:n-1]
		e.mu.Unlock()
		return w, nil
	}
	e.mu.Unlock()
	w, err := ownDir(e.dir, "worker-")
	if err != nil {
		return "", err
	}
	e.mu.Lock()
	e.made = append(e.made, w)
	e.mu.Unlock()
	if err := copyTree(filepath.Join(e.seedDir, "gocache"), filepath.Join(w, "gocache")); err != nil {
		return "", err
	}
	return w, nil
}

// ownDir makes a directory of a name of its own in dir (engines of one process, or
// of two, share dir), readable by the sandbox's user.
func ownDir(dir, prefix string) (string, error) {
	d, err := os.MkdirTemp(dir, prefix)
	if err != nil {
		return "", err
	}
	if err := os.Chmod(d, 0o755); err != nil {
		os.RemoveAll(d)
		return "", err
	}
	return d, nil
}

func (e *Engine) release(w string) {
	e.mu.Lock()
	e.workers = append(e.workers, w)
	e.mu.Unlock()
}

// copyTree copies the regular files and directories of src into dst.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
}

// writeModule writes the module of a build into dir: go.mod, the candidates' packages
// (src: path -> source), and the main package serving the candidates in idx.
func writeModule(dir string, src map[string]string, idx []int, params []string, ret string, tests []schemas.Test) error {
	files := map[string]string{"go.mod": "module tgo\n\ngo 1.21\n", "harness.go": harnessSource}
	for p, s := range src {
		files[p] = s
	}
	var b strings.Builder
	b.WriteString("package main\n\n")
	for _, g := range idx {
		fmt.Fprintf(&b, "import c%d \"tgo/c%d\"\n", g, g)
	}
	n := 0
	for _, g := range idx {
		n = max(n, g+1)
	}
	fmt.Fprintf(&b, "\nvar cands = make([]any, %d)\n\nfunc init() {\n", n)
	for _, g := range idx {
		fmt.Fprintf(&b, "\tcands[%d] = c%d.%s\n", g, g, entryAlias)
	}
	b.WriteString("}\n\n")
	var tj strings.Builder
	tj.WriteByte('[')
	for i, t := range tests {
		if i > 0 {
			tj.WriteByte(',')
		}
		tj.WriteString(t.Args)
	}
	tj.WriteByte(']')
	fmt.Fprintf(&b, "const testsJSON = %s\n\n", strconv.Quote(tj.String()))
	fmt.Fprintf(&b, "const retType = %q\n\n", ret)
	fmt.Fprintf(&b, "var paramTypes = %#v\n", params)
	files["cands.go"] = b.String()
	for p, s := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// batchRun is the state of one Run.
type batchRun struct {
	e      *Engine
	b      execute.Batch
	col    *execute.Collector
	params []values.Type
	ret    values.Type
	preps  []prepared
}

// Run builds the batch and runs every candidate on every test.
func (e *Engine) Run(ctx context.Context, b execute.Batch) ([]execute.Result, error) {
	col := execute.NewCollector(b)
	ret, err := values.ParseType(b.Returns)
	if err != nil {
		return col.Finish(schemas.StatusInfraError, "bad return type: "+err.Error()), nil
	}
	params := make([]values.Type, len(b.Params))
	ptypes := make([]string, len(b.Params))
	for i, p := range b.Params {
		if params[i], err = values.ParseType(p.Type); err != nil {
			return col.Finish(schemas.StatusInfraError, "bad parameter type: "+err.Error()), nil
		}
		ptypes[i] = p.Type
	}
	r := &batchRun{e: e, b: b, col: col, params: params, ret: ret}
	var idx []int
	src := map[string]string{}
	for i, c := range b.Candidates {
		p := prepare(e.goroot, fmt.Sprintf("c%d", i), c.Imports, c.Code, c.Entry, params, ret)
		r.preps = append(r.preps, p)
		if p.err != "" {
			col.Feed(compileLine(i, p.err))
			continue
		}
		idx = append(idx, i)
		src[fmt.Sprintf("c%d/cand.go", i)] = p.src
	}
	e.mu.Lock()
	e.stats.Candidates += len(b.Candidates)
	e.mu.Unlock()
	if len(idx) == 0 {
		return col.Finish(schemas.StatusNotRun, ""), nil
	}
	bin, binDir, err := r.build(ctx, src, idx, ptypes)
	if binDir != "" {
		defer os.RemoveAll(binDir)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	for _, g := range idx {
		if r.preps[g].err != "" {
			continue
		}
		if err := r.runCandidate(ctx, bin, g); err != nil {
			return nil, err
		}
	}
	return col.Finish(schemas.StatusNotRun, ""), nil
}

func compileLine(c int, msg string) []byte {
	b, _ := json.Marshal(execute.Line{C: c, Compile: "error", Msg: msg})
	return b
}

// pkgHeader is the line with which go build starts a package's messages.
var pkgHeader = regexp.MustCompile(`^# tgo(/c(\d+))?\s*$`)

// candLine is a message line of a candidate's package.
var candLine = regexp.MustCompile(`^(?:\./)?c(\d+)/`)

// build builds the program of the candidates in idx, setting apart (compile_error)
// those whose packages fail; it returns the program's path and its directory.
func (r *batchRun) build(ctx context.Context, src map[string]string, idx []int, ptypes []string) (string, string, error) {
	e := r.e
	w, err := e.worker()
	if err != nil {
		return "", "", err
	}
	defer e.release(w)
	mod := filepath.Join(w, "mod")
	for attempt := 0; len(idx) > 0; attempt++ {
		_ = os.RemoveAll(mod)
		if err := os.MkdirAll(mod, 0o755); err != nil {
			return "", "", err
		}
		live := map[string]string{}
		for _, g := range idx {
			p := fmt.Sprintf("c%d/cand.go", g)
			live[p] = src[p]
		}
		if err := writeModule(mod, live, idx, ptypes, r.b.Returns, r.b.Tests); err != nil {
			return "", "", err
		}
		out, failed, limit, err := e.goBuild(ctx, w, mod)
		if err != nil {
			return "", "", err
		}
		if !failed {
			binDir, err := ownDir(e.dir, "bin-")
			if err != nil {
				return "", "", err
			}
			bin := filepath.Join(binDir, "prog")
			if err := os.Rename(filepath.Join(mod, "prog"), bin); err != nil {
				return "", binDir, err
			}
			_ = os.Chmod(bin, 0o755)
			return bin, binDir, nil
		}
		bad := attribute(out)
		var next []int
		for _, g := range idx {
			if msg, ok := bad[g]; ok {
				r.preps[g].err = msg
				r.col.Feed(compileLine(g, msg))
				continue
			}
			next = append(next, g)
		}
		if len(next) == len(idx) {
			// messages that name no candidate (a limit, a link error): every candidate
			// alone, so that only the one that fails alone gets the error
			if len(idx) == 1 || attempt > 0 && limit {
				for _, g := range idx {
					msg := strings.TrimSpace(out)
					if msg == "" {
						msg = "go build failed"
					}
					r.preps[g].err = msg
					r.col.Feed(compileLine(g, msg))
				}
				return "", "", nil
			}
			return r.buildApart(ctx, src, idx, ptypes)
		}
		idx = next
	}
	return "", "", nil
}

// buildApart builds each candidate alone (after a failure no message attributes), and
// then the survivors together.
func (r *batchRun) buildApart(ctx context.Context, src map[string]string, idx []int, ptypes []string) (string, string, error) {
	var ok []int
	for _, g := range idx {
		bin, dir, err := r.build(ctx, src, []int{g}, ptypes)
		if dir != "" {
			os.RemoveAll(dir)
		}
		if err != nil {
			return "", "", err
		}
		if bin != "" {
			ok = append(ok, g)
		}
	}
	if len(ok) == 0 {
		return "", "", nil
	}
	return r.build(ctx, src, ok, ptypes)
}

// attribute splits go build's messages by candidate package.
func attribute(out string) map[int]string {
	res := map[int]string{}
	cur := -1
	for _, line := range strings.Split(out, "\n") {
		if m := pkgHeader.FindStringSubmatch(line); m != nil {
			cur = -1
			if m[2] != "" {
				cur, _ = strconv.Atoi(m[2])
			}
			continue
		}
		g := cur
		if m := candLine.FindStringSubmatch(line); m != nil {
			g, _ = strconv.Atoi(m[1])
		}
		if g >= 0 && strings.TrimSpace(line) != "" {
			res[g] += candLine.ReplaceAllString(line, "") + "\n"
		}
	}
	for g, m := range res {
		res[g] = strings.TrimSpace(m)
	}
	return res
}

// goBuild runs go build in the sandbox, in the worker directory w (its only writable
// directory; its GOCACHE is there), and hands w back to this process's user.
func (e *Engine) goBuild(ctx context.Context, w, mod string) (out string, failed, limit bool, err error) {
	lim := e.CompileLimits.WithDefaults()
	spec := sandbox.Spec{
		Path:    e.gobin,
		Args:    []string{"build", "-C", mod, "-p", "2", "-o", "prog", "."},
		WorkDir: w,
		Env:     e.buildEnv(w),
		Limits:  lim,
	}
	start := time.Now()
	var o sandbox.Outcome
	for attempt := 0; attempt < 2; attempt++ {
		if o, err = sandbox.Run(ctx, spec, nil); err == nil || ctx.Err() != nil {
			break
		}
	}
	e.mu.Lock()
	e.stats.Builds++
	e.stats.BuildCPU += o.CPUTime
	e.stats.BuildWall += time.Since(start)
	e.mu.Unlock()
	if ctx.Err() != nil {
		return "", false, false, ctx.Err()
	}
	if err != nil {
		return "", false, false, fmt.Errorf("go engine: run go build: %w", err)
	}
	if herr := sandbox.HandBack(w); herr != nil {
		return "", false, false, herr
	}
	out = string(o.Stdout) + string(o.Stderr)
	failed = o.ExitCode != 0 || o.Signal != ""
	why := ""
	switch {
	case o.WallTimeout:
		why = fmt.Sprintf("the compile wall time limit (%v)", lim.WallTime)
	case o.CPUTimeout:
		why = fmt.Sprintf("the compile CPU time limit (%v)", lim.CPUTime)
	case o.MemoryExceeded:
		why = fmt.Sprintf("the compile memory limit (%d MiB)", lim.MemoryBytes>>20)
	case o.Signal != "":
		why = "a signal: " + o.Signal
	}
	if why != "" {
		failed, limit = true, true
		out = "the build was stopped by " + why + "\n" + out
	}
	if failed && strings.TrimSpace(out) == "" {
		out = fmt.Sprintf("go build exited with code %d", o.ExitCode)
	}
	return out, failed, limit, nil
}

// budget bounds the wall time of a process that runs left tests.
func budget(l sandbox.Limits, left int) time.Duration {
	return (l.WallTime+500*time.Millisecond)*time.Duration(left) + 2*time.Second
}

// runCandidate runs candidate g on all tests, a new process after each one that dies.
func (r *batchRun) runCandidate(ctx context.Context, bin string, g int) error {
	lim := r.b.Limits.WithDefaults()
	n := len(r.b.Tests)
	stack := min(int64(stackSize), lim.MemoryBytes/4)
	from, timeouts := 0, execute.NewTimeouts(r.b)
	for from < n {
		plim := lim
		plim.CPUTime = lim.CPUTime*time.Duration(n-from) + time.Second
		plim.WallTime = budget(lim, n-from)
		plim.MemoryBytes = lim.MemoryBytes + stack + goReserve
		spec := sandbox.Spec{
			Path: bin,
			Args: []string{"run", strconv.Itoa(g), strconv.Itoa(from),
				strconv.FormatInt(int64(lim.CPUTime), 10), strconv.FormatInt(int64(lim.WallTime), 10), strconv.FormatInt(stack, 10)},
			ReadOnly: []string{filepath.Dir(bin)},
			Env:      []string{"GOMAXPROCS=2", "GOTRACEBACK=single"},
			Limits:   plim,
		}
		var o sandbox.Outcome
		var err error
		for attempt := 0; attempt < 3; attempt++ {
			if attempt > 0 {
				time.Sleep(time.Duration(attempt) * 200 * time.Millisecond)
			}
			if o, err = sandbox.Run(ctx, spec, nil); err == nil || ctx.Err() != nil {
				break
			}
		}
		r.e.mu.Lock()
		r.e.stats.Runs++
		r.e.stats.RunCPU += o.CPUTime
		r.e.mu.Unlock()
		res := &r.col.Results[g]
		res.CPUTime += o.CPUTime
		res.WallTime += o.WallTime
		res.MaxRSSKB = max(res.MaxRSSKB, o.MaxRSSKB)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			r.col.MarkRest(g, schemas.StatusInfraError, "sandbox: "+err.Error())
			return nil
		}
		done, next, forged := false, from, ""
		for _, line := range bytes.Split(o.Stdout, []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			var h struct {
				C       *int   `json:"c"`
				T       *int   `json:"t"`
				Done    bool   `json:"done"`
				Compile string `json:"compile"`
			}
			// Every line is the process's, which serves candidate g alone: a line its
			// harness does not write is the candidate's forgery.
			if line[0] != '{' || json.Unmarshal(line, &h) != nil || h.C == nil || *h.C != g ||
				h.T != nil && (*h.T < from || *h.T >= n) || h.Compile != "" && (h.Compile != "ok" || from != 0) {
				forged = fmt.Sprintf("forged protocol output: %.80q", line)
				break
			}
			r.col.Feed(line)
			if h.Done {
				done = true
			}
			if h.T != nil && *h.T+1 > next {
				next = *h.T + 1
			}
		}
		if forged != "" {
			for t := 0; t < n; t++ {
				r.col.Feed(testLine(g, t, schemas.StatusSandboxViolation, forged, 0, 0))
			}
			return nil
		}
		if done || next >= n {
			return nil
		}
		if o.StdoutTruncated {
			r.col.MarkRest(g, schemas.StatusOutputLimit, "output limit exceeded")
			return nil
		}
		status, msg := deathStatus(o)
		r.col.Feed(testLine(g, next, status, msg, min(o.CPUTime, lim.CPUTime), min(o.WallTime, lim.WallTime)))
		from = next + 1
		if o.Stopped && from < n {
			// a process that stayed stopped (SIGSTOP, SIGTSTP) was the candidate's doing:
			// it would stop the next one too
			r.col.MarkRest(g, schemas.StatusTimeout, "not run after the candidate's process stopped")
			return nil
		}
		if timeouts.Add(status) && from < n {
			r.col.MarkRest(g, schemas.StatusTimeout, timeouts.Unrun())
			return nil
		}
	}
	return nil
}

func testLine(c, t int, s schemas.Status, msg string, cpu, wall time.Duration) []byte {
	b, _ := json.Marshal(execute.Line{C: c, T: &t, S: string(s), E: msg, CPUNs: int64(cpu), WallNs: int64(wall)})
	return b
}

// outOfMemory are the Go runtime's messages when an allocation fails.
var outOfMemory = regexp.MustCompile(`fatal error: (runtime: )?out of memory|cannot allocate memory`)

// deathStatus is the status of the test a process died on.
func deathStatus(o sandbox.Outcome) (schemas.Status, string) {
	stderr := string(o.Stderr)
	switch {
	case o.MemoryExceeded || outOfMemory.MatchString(stderr):
		return schemas.StatusMemoryLimit, "memory limit exceeded"
	case o.ExitCode == 124 || o.WallTimeout || o.CPUTimeout || o.Signal == "CPU time limit exceeded":
		return schemas.StatusTimeout, "time limit exceeded"
	case o.StdoutTruncated:
		return schemas.StatusOutputLimit, "output limit exceeded"
	}
	return schemas.StatusRuntimeError, describe(o)
}

// describe says how a process ended, with the Go runtime's own line for it (the
// panic, the fatal error, the signal) rather than its goroutine dump.
func describe(o sandbox.Outcome) string {
	why := "exited during the test"
	if o.Signal != "" {
		why = "killed by signal: " + o.Signal
	} else if o.ExitCode != 0 {
		why = fmt.Sprintf("exited with code %d", o.ExitCode)
	}
	if line := runtimeLine(string(o.Stderr)); line != "" {
		why += ": " + line
	}
	return why
}

// goFailure is the first line of a Go program's death: a panic, a fatal error, a
// signal the runtime caught.
var goFailure = regexp.MustCompile(`(?m)^(panic: .*|fatal error: .*|runtime: goroutine stack exceeds .*|SIGSEGV: .*|SIG[A-Z]+: .*)$`)

// runtimeLine picks the line that tells why the runtime died, else the start of stderr.
func runtimeLine(stderr string) string {
	if m := goFailure.FindString(stderr); m != "" {
		return strings.TrimSpace(m)
	}
	first, _, _ := strings.Cut(strings.TrimSpace(stderr), "\n")
	if len(first) > 300 {
		first = first[:300] + "..."
	}
	return first
}
