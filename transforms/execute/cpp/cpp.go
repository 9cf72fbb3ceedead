// Package cpp is the C++ execution engine: one translation unit per batch, or per
// group of batches.
//
// Run generates one program for all candidates of a batch: each candidate in its own
// namespace (c0, c1, ...) with `using namespace std;`, its #includes hoisted to the
// top, the tests as C++ literals built through adapter types (harness.h) that convert
// to what the candidate takes (T*, vector<T>&, const vector<T>&, T**, int a[][N],
// std::string&, char*, ...), and a main that runs one candidate's tests from a given
// test on, printing the runner protocol (transforms/execute/protocol.go). harness.h
// and <bits/stdc++.h> are precompiled once into the cache directory. RunAll does the
// same for several batches of different problems at once (each problem's tests in
// its own namespace th::p<j>): a unit costs about 0.4 s of compiler CPU plus about
// 10 ms per candidate (mutants of TransCoder-test functions; each candidate's glue is
// built at -O1, see glueOpt), so problems with a few translations each share that
// fixed cost (execute.Coalesce groups a pipeline's concurrent batches).
//
// A program that does not compile is split: a candidate the compiler's error lines
// point at gets compile_error with those messages when its code is contained (its
// brackets, comments, literals and #if blocks close: lex.go) and no uncontained
// candidate comes before it (they are put last), so that its errors are its own; any
// other suspect is checked alone with -fsyntax-only, and the rest is built again. A
// group whose messages point at no candidate (a link error) is halved. A candidate
// gets compile_error only when it would fail to compile alone. Macros a candidate
// defines or undefines are saved before it and restored after (push_macro); an error
// in the expansion of a macro is the candidate's that expanded it (attribute).
//
// Every compiler run is itself a sandboxed program under CompileLimits (compile.go).
// A unit is compiled to an object first: one with code that runs at load time (a
// global constructor, a startup array, a libc function of its own) is not linked as it
// is, and its owners get units of their own whose load-time code runs in the child
// that serves them (loadtime.go), so that no candidate acts on the shared server.
//
// The binary runs in the sandbox once per program, as a server (serve.go) that forks a
// child per candidate; when the child dies on test k (a signal, a timeout), test k
// gets its status and a new child goes on from test k+1 (after MaxConsecutiveTimeouts
// timeouts in a row, the rest are timeouts unrun).
// Batch.Limits.CPUTime and WallTime bound each test (a CPU-clock timer and an
// interval timer in the program);
// MemoryBytes is the program's address space.
package cpp

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"transmute/internal/proctree"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/sandbox"
)

//go:embed harness.h
var harnessSource []byte

// ValuePrinterAndAdapters returns the section of harness.h that prints values
// (th::pv) and converts arguments (th::Arr, Arr2, Arr3, Str, th::as): the profiling
// harness (transforms/profile) includes the same code, so that a program measured
// there takes and prints its values as it does here. It panics if harness.h lost
// its section markers.
func ValuePrinterAndAdapters() string {
	return harnessSection("// ---- value printer", "// ---- per-test measurement")
}

// JSONPrimitives returns the section of harness.h that defines the protocol writer
// (th::write_all) and the JSON string and number printers (th::jstr, jchar,
// special, jdouble, jfloat), each prefixed with the macro TH_RT: empty in the
// engine's runtime object, inline in the profiling harness, which includes the
// same section. It panics if harness.h lost its section markers.
func JSONPrimitives() string {
	return harnessSection("// ---- JSON primitives", "// ---- end JSON primitives")
}

// harnessSection returns harness.h from the line starting with begin up to the
// line starting with end (excluded).
func harnessSection(begin, end string) string {
	s := string(harnessSource)
	i := strings.Index(s, begin)
	j := strings.Index(s, end)
	if i < 0 || j < i {
		panic("cpp: harness.h has no section " + begin)
	}
	return s[i:j]
}

func init() {
	execute.Register(schemas.Cpp, func(opts execute.Options) (execute.Engine, error) {
		return New(opts)
	})
}

// Flags are the compiler flags of the precompiled header and of every program; the
// header is only used with exactly these.
var Flags = []string{"-O2", "-std=c++17"}

// MaxConsecutiveTimeouts is the engines' rule (execute.MaxConsecutiveTimeouts).
const MaxConsecutiveTimeouts = execute.MaxConsecutiveTimeouts

// stackSize is the stack of the thread the tests run on, for deep recursion.
const stackSize = 256 << 20

// Engine runs C++ batches. It is safe for concurrent use.
type Engine struct {
	cxx     string
	objcopy string // "" when absent: load-time code is not deferred (loadtime.go)
	dir     string // cache: harness.h and its .gch
	pch     bool   // the precompiled header is valid

	// CompileLimits bound each compiler run of a unit (DefaultCompileLimits; zero
	// fields take the sandbox's defaults). Set before the first Run.
	CompileLimits sandbox.Limits

	mu    sync.Mutex // guards stats
	stats Stats
}

// Stats counts the engine's work.
type Stats struct {
	Compiles     int           // compiler runs for programs
	SyntaxChecks int           // compiler runs with -fsyntax-only
	Compile      time.Duration // time spent in the compiler (both kinds)
	CompileCPU   time.Duration // the compiler's CPU (user+sys)
	// CompileMaxRSSKB is the largest peak RSS of a compiler run (its process tree)
	CompileMaxRSSKB int64
	Servers         int           // programs started in the sandbox (serve mode)
	Runs            int           // candidate runs (a child of a server each)
	RunCPU          time.Duration // the candidate runs' CPU (user+sys), tests included
}

// New prepares the cache directory (opts.WorkDir, else transmute-cache-<uid> in the
// temporary directory) and the precompiled header in it, unless already there. The
// directory and its parents must be readable by the sandbox's user. A header that
// cannot be precompiled only makes compiles slower.
func New(opts execute.Options) (*Engine, error) {
	cxx := opts.CXX
	if cxx == "" {
		var err error
		if cxx, err = exec.LookPath("g++"); err != nil {
			return nil, fmt.Errorf("cpp engine: no g++ on PATH: %w", err)
		}
	}
	version, err := proctree.Output(exec.Command(cxx, "-dumpfullversion", "-dumpversion"))
	if err != nil {
		return nil, fmt.Errorf("cpp engine: %s: %w", cxx, err)
	}
	sub := "cpp-harness-" + execute.Digest(6, string(harnessSource), cxx, string(version), strings.Join(Flags, " "))
	e := &Engine{cxx: cxx, CompileLimits: DefaultCompileLimits}
	e.objcopy, _ = exec.LookPath("objcopy")
	root := opts.WorkDir
	if root == "" {
		// A cache shared by the processes of this user: the precompiled header (about
		// 100 MB, seconds to build) is built once per compiler and harness version.
		root = execute.UserDir("transmute-cache")
		if err := os.MkdirAll(root, 0o755); err != nil {
			return nil, fmt.Errorf("cpp engine: %w", err)
		}
	} else {
		_ = os.Chmod(root, 0o755)
	}
	e.dir = filepath.Join(root, sub)
	if err := os.MkdirAll(e.dir, 0o755); err != nil {
		return nil, fmt.Errorf("cpp engine: %w", err)
	}
	_ = os.Chmod(e.dir, 0o755)
	if err := writeIfChanged(filepath.Join(e.dir, "harness.h"), harnessSource); err != nil {
		return nil, fmt.Errorf("cpp engine: %w", err)
	}
	if err := e.buildRuntime(); err != nil {
		return nil, err
	}
	e.pch = e.precompile()
	return e, nil
}

// buildRuntime compiles the harness's runtime (its functions defined under
// TH_RUNTIME) into harness_rt.o in the cache directory unless present; every
// program is linked with it.
func (e *Engine) buildRuntime() error {
	obj := e.runtimeObject()
	if _, err := os.Stat(obj); err == nil {
		return nil
	}
	out, err := e.buildOwn(obj, func(out string) []string {
		return append(append([]string{}, Flags...), "-DTH_RUNTIME", "-x", "c++", "-c", "-o", out, filepath.Join(e.dir, "harness.h"))
	})
	if err != nil {
		return fmt.Errorf("cpp engine: compile the harness runtime: %v\n%s", err, out)
	}
	return nil
}

func (e *Engine) runtimeObject() string { return filepath.Join(e.dir, "harness_rt.o") }

func writeIfChanged(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	tmp := fmt.Sprintf("%s.%d.tmp", path, os.Getpid())
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// precompile builds harness.h.gch unless present, and checks that g++ uses it.
func (e *Engine) precompile() bool {
	gch := filepath.Join(e.dir, "harness.h.gch")
	if _, err := os.Stat(gch); err != nil {
		if _, err := e.buildOwn(gch, func(out string) []string {
			return append(append([]string{}, Flags...), "-x", "c++-header", "-o", out, filepath.Join(e.dir, "harness.h"))
		}); err != nil {
			return false
		}
	}
	// -H prints "! <path>.gch" when the precompiled header is used.
	probe, err := os.MkdirTemp(e.dir, "probe-")
	if err != nil {
		return false
	}
	defer os.RemoveAll(probe)
	src := filepath.Join(probe, "tu.cpp")
	if err := os.WriteFile(src, []byte("#include \"harness.h\"\nint main() { return 0; }\n"), 0o644); err != nil {
		return false
	}
	args := append(append([]string{}, Flags...), "-Winvalid-pch", "-H", "-fsyntax-only", "-I", e.dir, src)
	run, err := e.runCompiler(context.Background(), probe, args, runOwn)
	if err != nil || run.failed || !strings.Contains(run.out, "! "+gch) {
		os.Remove(gch)
		return false
	}
	return true
}

// Lang returns "cpp".
func (e *Engine) Lang() string { return schemas.Cpp }

// Precompiled tells whether programs use the precompiled header.
func (e *Engine) Precompiled() bool { return e.pch }

// Stats returns the work done so far.
func (e *Engine) Stats() Stats {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stats
}

// Close releases nothing: the cache directory is kept for the next engine, and each
// batch removes its own files.
func (e *Engine) Close() error { return nil }

// program is a compiled binary and the candidates (group indices) it holds.
type program struct {
	bin   string
	cands []int
	// own is set for a program of one candidate with load-time code or a library
	// function of its own (loadtime.go): a server it breaks is its own failure
	own bool
	// deferred: its startup arrays run in the child (deferLoadTime), which says
	// {"c":..,"init":true} when they have run
	deferred bool
}

// Run compiles the batch and runs every candidate on every test.
func (e *Engine) Run(ctx context.Context, b execute.Batch) ([]execute.Result, error) {
	res, err := e.RunAll(ctx, []execute.Batch{b})
	if err != nil {
		return nil, err
	}
	return res[0], nil
}

// batchState is one batch of a group run: its generated parts, its results and the
// state of its candidates.
type batchState struct {
	b     execute.Batch
	bi    *batchInfo
	col   *execute.Collector
	lim   sandbox.Limits
	first int // group index of its candidate 0
	// noStart holds the candidates whose program, alone, did not start.
	noStart map[int]string
}

// RunAll runs several batches (of different problems) as one group: their candidates
// share translation units, so the compiler's fixed cost (about 0.4 s of CPU per unit
// against about 10 ms per extra candidate) is paid once for all of them. Every
// candidate gets the result it gets in a batch of its own. It returns one slice of
// results per batch, in order (execute.MultiEngine).
func (e *Engine) RunAll(ctx context.Context, batches []execute.Batch) ([][]execute.Result, error) {
	// Batches with bounds checks are built with other flags: a unit of their own.
	var plain, checked []int
	for j, b := range batches {
		if b.BoundsChecks {
			checked = append(checked, j)
		} else {
			plain = append(plain, j)
		}
	}
	if len(checked) == 0 || len(plain) == 0 {
		return e.runGroup(ctx, batches, len(plain) == 0)
	}
	out := make([][]execute.Result, len(batches))
	for _, part := range [][]int{plain, checked} {
		sub := make([]execute.Batch, len(part))
		for k, j := range part {
			sub[k] = batches[j]
		}
		res, err := e.runGroup(ctx, sub, sub[0].BoundsChecks)
		if err != nil {
			return nil, err
		}
		for k, j := range part {
			out[j] = res[k]
		}
	}
	return out, nil
}

// boundsFlags make an index outside an array a fatal runtime error (Batch.BoundsChecks).
var boundsFlags = []string{"-fsanitize=bounds", "-fno-sanitize-recover=bounds"}

// runGroup runs batches that share their compiler flags as one group.
func (e *Engine) runGroup(ctx context.Context, batches []execute.Batch, checked bool) ([][]execute.Result, error) {
	gr := &group{}
	r := &groupRun{e: e, gr: gr, checked: checked}
	var idx []int
	for j, b := range batches {
		st := &batchState{b: b, col: execute.NewCollector(b), lim: b.Limits.WithDefaults(), first: len(gr.members),
			noStart: map[int]string{}}
		r.batches = append(r.batches, st)
		bi, err := newBatchInfo(b.Params, b.Returns, b.Tests, b.CallTypes)
		if err != nil {
			// the problem itself cannot be run in C++: every candidate is an infra error
			for i := range b.Candidates {
				st.col.MarkRest(i, schemas.StatusInfraError, err.Error())
			}
			bi = &batchInfo{}
			st.bi = bi
			gr.batches = append(gr.batches, bi)
			for i := range b.Candidates {
				gr.members = append(gr.members, member{j, i})
			}
			continue
		}
		st.bi = bi
		gr.batches = append(gr.batches, bi)
		for i, c := range b.Candidates {
			p := prepare(c.Imports, c.Code, c.Entry)
			bi.prep = append(bi.prep, p)
			g := len(gr.members)
			gr.members = append(gr.members, member{j, i})
			if p.entry == "" {
				feed(st.col, lineCompile(i, "no function definition found in the code"))
				continue
			}
			idx = append(idx, g)
		}
	}
	out := make([][]execute.Result, len(batches))
	if len(idx) > 0 {
		work, err := os.MkdirTemp(e.dir, "batch-")
		if err != nil {
			return nil, fmt.Errorf("cpp engine: %w", err)
		}
		defer os.RemoveAll(work)
		_ = os.Chmod(work, 0o755)
		r.work = work
		if err := r.build(ctx, idx); err != nil {
			return nil, err
		}
		// r.progs grows when a program that does not start is split.
		for k := 0; k < len(r.progs); k++ {
			p := r.progs[k]
			var sv *server
			closeServer := func() {
				if sv != nil {
					sv.close()
					sv = nil
				}
			}
			for pos, g := range p.cands {
				started, err := r.runCandidate(ctx, p, g, &sv)
				if err != nil {
					closeServer()
					return nil, err
				}
				if started {
					continue
				}
				if len(p.cands) == 1 {
					break
				}
				// The program did not start: a static initializer of some candidate, or
				// the candidates' static data together, is too much. Split the rest.
				left := p.cands[pos:]
				h := len(left) / 2
				if err := r.build(ctx, left[:h]); err != nil {
					return nil, err
				}
				if err := r.build(ctx, left[h:]); err != nil {
					return nil, err
				}
				break
			}
			closeServer()
		}
	}
	for j, st := range r.batches {
		res := st.col.Finish(schemas.StatusInfraError, "not run")
		for i, msg := range st.noStart {
			res[i].Status, res[i].Detail = schemas.StatusRuntimeError, msg
		}
		out[j] = res
	}
	return out, nil
}

// groupRun is one RunAll: the group's batches, its compiled programs and its work dir.
type groupRun struct {
	e       *Engine
	gr      *group
	batches []*batchState
	work    string
	progs   []program
	n       int  // programs compiled, for unique names
	checked bool // built with boundsFlags
	// lexOK caches contained per candidate
	lexOK map[int]bool
}

// of returns the batch and the batch's candidate index of group index g.
func (r *groupRun) of(g int) (*batchState, int) {
	m := r.gr.members[g]
	return r.batches[m.j], m.i
}

func feed(col *execute.Collector, l execute.Line) {
	raw, _ := json.Marshal(l)
	col.Feed(raw)
}

func lineCompile(c int, msg string) execute.Line {
	return execute.Line{C: c, Compile: "error", Msg: msg}
}

// compiled is the result of one compiler run on a unit.
type compiled struct {
	u   unit
	bin string // the linked program; "" when the unit failed or was not linked
	ok  bool   // the unit compiled (and, unless only checked, has no load-time code to split)
	msg string // the compiler's output when it failed
	// limit is set when a compile limit stopped the compiler: its messages need not
	// point at the candidate that caused it
	limit bool
	// load is the load-time code of a unit of several candidates, which is then not
	// linked (loadtime.go)
	load loadReport
	// own: the program is of one candidate, with load-time code (program.own)
	own bool
	// deferred: its startup arrays were renamed (program.deferred)
	deferred bool
}

// compile builds a program of the candidates idx. With syntaxOnly it only checks the
// unit (-fsyntax-only: parsing, types and template instantiation, about a third of a
// build's cost, but not the link). A full build compiles the unit to an object file
// first, whose load-time code (loadtime.go) keeps a unit of several candidates from
// being linked.
func (r *groupRun) compile(ctx context.Context, idx []int, syntaxOnly bool) (compiled, error) {
	r.n++
	dir := filepath.Join(r.work, "p"+strconv.Itoa(r.n))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return compiled{}, err
	}
	_ = os.Chmod(dir, 0o755)
	// uncontained candidates last, so that the errors of every other one are its own
	order := make([]int, 0, len(idx))
	for _, g := range idx {
		if r.contained(g) {
			order = append(order, g)
		}
	}
	for _, g := range idx {
		if !r.contained(g) {
			order = append(order, g)
		}
	}
	c := compiled{u: generate(r.gr, order)}
	src := filepath.Join(dir, "tu.cpp")
	if err := os.WriteFile(src, c.u.src, 0o644); err != nil {
		return c, err
	}
	flags := append(append([]string{}, Flags...), "-w", "-fmax-errors=200")
	if r.checked {
		flags = append(flags, boundsFlags...)
	}
	args := append(append([]string{}, flags...), "-I", r.e.dir)
	obj := filepath.Join(dir, "tu.o")
	if syntaxOnly {
		args = append(args, "-fsyntax-only", src)
	} else {
		args = append(args, "-c", "-o", obj, src)
	}
	kind := runBuild
	if syntaxOnly {
		kind = runSyntax
	}
	run, err := r.e.runCompiler(ctx, dir, args, kind)
	if err != nil {
		return c, err
	}
	if run.failed {
		c.msg, c.limit = strings.ReplaceAll(run.out, dir+"/", ""), run.limit
		return c, nil
	}
	if syntaxOnly {
		c.ok = true
		return c, nil
	}
	members := map[int]bool{}
	for _, g := range idx {
		members[g] = true
	}
	rep, err := loadTimeCode(obj, members)
	if err != nil {
		return c, fmt.Errorf("cpp engine: read the unit's object: %w", err)
	}
	if rep.found() && len(idx) > 1 {
		c.load = rep
		return c, nil
	}
	if rep.found() {
		// objcopy leaves the object as it was when it fails: the code then runs in
		// the server, which serves this candidate alone
		run, err := r.e.deferLoadTime(ctx, dir, obj, rep)
		if err != nil {
			return c, err
		}
		c.deferred = r.e.objcopy != "" && len(rep.deferrable) > 0 && !run.failed
	}
	bin := filepath.Join(dir, "prog")
	link := append(append([]string{}, flags...), "-o", bin, obj, r.e.runtimeObject(), "-lpthread")
	run, err = r.e.runCompiler(ctx, dir, link, runStep)
	if err != nil {
		return c, err
	}
	if run.failed {
		c.msg, c.limit = strings.ReplaceAll(run.out, dir+"/", ""), run.limit
		return c, nil
	}
	// The compiler ran as the sandbox's user, which owned dir: handed back, so that
	// a later sandbox of the same uid cannot change the program before it runs.
	if err := handBack(dir); err != nil {
		return c, fmt.Errorf("cpp engine: %w", err)
	}
	_ = os.Chmod(bin, 0o755)
	c.bin, c.ok, c.own = bin, true, rep.found()
	return c, nil
}

// build compiles idx, setting apart the candidates that do not compile and those with
// load-time code (each then built alone). A unit that fails costs about what a check
// with -fsyntax-only costs (the compiler stops after its front end), so units are
// built without a check first.
func (r *groupRun) build(ctx context.Context, idx []int) error {
	c, err := r.compile(ctx, idx, false)
	if err != nil {
		return err
	}
	u := c.u
	if c.bin != "" {
		r.progs = append(r.progs, program{bin: c.bin, cands: u.order, own: c.own, deferred: c.deferred})
		return nil
	}
	if c.load.found() {
		// Load-time code runs in the server the unit's candidates share: its owners
		// get units of their own; code nobody owns is found by halving.
		var alone, rest []int
		for _, g := range u.order {
			if c.load.cands[g] {
				alone = append(alone, g)
			} else {
				rest = append(rest, g)
			}
		}
		if len(alone) == 0 {
			h := len(idx) / 2
			alone, rest = nil, nil
			if err := r.build(ctx, u.order[:h]); err != nil {
				return err
			}
			return r.build(ctx, u.order[h:])
		}
		for _, g := range alone {
			if err := r.build(ctx, []int{g}); err != nil {
				return err
			}
		}
		if len(rest) > 0 {
			return r.build(ctx, rest)
		}
		return nil
	}
	msg := c.msg
	if len(idx) == 1 {
		st, i := r.of(idx[0])
		feed(st.col, lineCompile(i, trimMsg(msg)))
		return nil
	}
	if c.limit {
		// A compile limit says nothing of whose code it was: each candidate is
		// checked alone (a few tenths of a second each, against a limit's worth for
		// each halving), and those that pass are built together.
		passed, err := r.checkAlone(ctx, u.order)
		if err != nil {
			return err
		}
		if len(passed) > 0 && len(passed) < len(idx) {
			return r.build(ctx, passed)
		}
		if len(passed) == 0 {
			return nil
		}
	}
	sus := suspects(msg, u)
	var rest, bad []int
	for _, i := range u.order {
		if sus[i] {
			bad = append(bad, i)
		} else {
			rest = append(rest, i)
		}
	}
	if len(bad) == 0 || len(rest) == 0 {
		// the messages do not say: halve
		h := len(idx) / 2
		if err := r.build(ctx, u.order[:h]); err != nil {
			return err
		}
		return r.build(ctx, u.order[h:])
	}
	// The suspects that fail alone are compile errors; those that pass (an error
	// only together with others, or at link time) are built alone.
	passed, err := r.setApart(ctx, bad, msg, u)
	if err != nil {
		return err
	}
	if err := r.build(ctx, rest); err != nil {
		return err
	}
	for _, g := range passed {
		if err := r.build(ctx, []int{g}); err != nil {
			return err
		}
	}
	return nil
}

// checkAlone checks each candidate of cands alone with -fsyntax-only: one that fails
// gets compile_error with the compiler's message; the others are returned.
func (r *groupRun) checkAlone(ctx context.Context, cands []int) ([]int, error) {
	var passed []int
	for _, g := range cands {
		c, err := r.compile(ctx, []int{g}, true)
		if err != nil {
			return nil, err
		}
		if c.ok {
			passed = append(passed, g)
			continue
		}
		st, i := r.of(g)
		feed(st.col, lineCompile(i, trimMsg(c.msg)))
	}
	return passed, nil
}

// setApart decides the suspects of a unit that did not compile (msg, the compiler's
// output for unit u). A suspect whose code is contained (lex.go: its brackets,
// comments, literals and #if blocks close) and that no uncontained candidate precedes
// in the unit has only its own errors at its lines, so it gets compile_error with
// them (compile puts uncontained candidates last). Any other suspect is checked alone
// with -fsyntax-only (about 0.2 s of compiler CPU, mostly loading the precompiled
// header): one that fails gets compile_error with the compiler's message (it would
// fail a build alone too). The others are returned.
func (r *groupRun) setApart(ctx context.Context, cands []int, msg string, u unit) ([]int, error) {
	firstUncontained := -1 // the first line of the first uncontained candidate
	for _, g := range u.order {
		if !r.contained(g) {
			firstUncontained = u.spans[g][0].from
			break
		}
	}
	var alone []int
	for _, g := range cands {
		trust := r.contained(g) && (firstUncontained < 0 || u.spans[g][0].from < firstUncontained)
		// (an error inside harness.h shows only its "required from" line here: the
		// check alone gives the whole message)
		if m := messagesAt(msg, u.spans[g]); trust && strings.Contains(m, "error:") {
			st, i := r.of(g)
			feed(st.col, lineCompile(i, trimMsg(m)))
			continue
		}
		alone = append(alone, g)
	}
	return r.checkAlone(ctx, alone)
}

// contained tells whether candidate g's code is contained (lex.go), computed once.
func (r *groupRun) contained(g int) bool {
	if v, ok := r.lexOK[g]; ok {
		return v
	}
	st, i := r.of(g)
	v := contained(st.bi.prep[i].body)
	if r.lexOK == nil {
		r.lexOK = map[int]bool{}
	}
	r.lexOK[g] = v
	return v
}

// messagesAt returns the compiler's diagnostics (error lines and the source excerpts
// under them) that point at the lines of spans.
func messagesAt(msg string, spans []span) string {
	var b strings.Builder
	for _, l := range attribute(msg) {
		if l.at > 0 && inSpans(l.at, spans) {
			b.WriteString(l.text)
		}
	}
	return b.String()
}

// suspects returns the candidates whose lines the compiler's messages mention.
func suspects(msg string, u unit) map[int]bool {
	s := map[int]bool{}
	for _, l := range attribute(msg) {
		if !l.points {
			continue
		}
		for c, spans := range u.spans {
			if inSpans(l.at, spans) {
				s[c] = true
			}
		}
	}
	return s
}

// msgLine is a line of the compiler's output and the unit line it is about.
type msgLine struct {
	text string
	// at is the unit line the line is about (0: none, as for "In function ..."
	// context): its own for a diagnostic of the unit, its diagnostic's for a source
	// excerpt.
	at int
	// points tells whether the line is an error (or the "required from" line of an
	// error inside harness.h) that makes the candidate at line at a suspect; notes
	// do not (tuLineRe).
	points bool
}

// attribute tells which unit line each line of msg is about. An error inside the
// expansion of a macro is reported where the macro's tokens were spelled, then
// followed by "in expansion of macro" notes up to the place the code expanded it: the
// error and its notes are about that last place. Macros a candidate redefines are
// restored after it (pop_macro), and g++ spells a restored macro's tokens at the
// line after the pop_macro: an error that a later candidate's use of INT_MAX causes
// (`int INT_MAX = 9;`) is reported there, on no candidate's line (generate), and at
// the candidate's line only in the note.
func attribute(msg string) []msgLine {
	lines := strings.SplitAfter(msg, "\n")
	out := make([]msgLine, len(lines))
	at := 0
	for k := 0; k < len(lines); k++ {
		l := lines[k]
		out[k].text = l
		if m := diagLineRe.FindStringSubmatch(l); m != nil {
			at, _ = strconv.Atoi(m[1])
			out[k].points = tuLineRe.MatchString(l)
		} else if !strings.HasPrefix(l, " ") {
			at = 0 // "In function ...", "In file included from ...": context of what follows
		}
		out[k].at = at
		if !errorLineRe.MatchString(l) {
			continue
		}
		// the error's macro notes (source excerpts between them), the last note of
		// expansion the outermost
		site, end := 0, k+1
		for j := k + 1; j < len(lines); j++ {
			if strings.HasPrefix(lines[j], " ") {
				continue
			}
			m := expansionRe.FindStringSubmatch(lines[j])
			if m == nil {
				break
			}
			if m[2] == "expansion" {
				site, _ = strconv.Atoi(m[1])
			}
			end = j + 1
			for end < len(lines) && strings.HasPrefix(lines[end], " ") {
				end++
			}
		}
		if site == 0 {
			continue
		}
		out[k].points = true
		for j := k; j < end; j++ {
			out[j] = msgLine{text: lines[j], at: site, points: j == k}
		}
		at = site
		k = end - 1
	}
	return out
}

// inSpans tells whether unit line n is in one of spans.
func inSpans(n int, spans []span) bool {
	for _, sp := range spans {
		if n >= sp.from && n < sp.to {
			return true
		}
	}
	return false
}

func trimMsg(s string) string {
	const max = 4000
	if len(s) > max {
		return s[:max] + "\n..."
	}
	return s
}

// serverLimits are the sandbox's limits for p's server: each child is limited as a
// program run of one candidate was (RLIMIT_CPU and the address space count per
// process, so a child starts from zero), and the server's life is bounded by the sum
// of its candidates' budgets.
func (r *groupRun) serverLimits(p program) sandbox.Limits {
	var lim sandbox.Limits
	var life time.Duration
	for k, g := range p.cands {
		st, _ := r.of(g)
		n := time.Duration(st.bi.ntests)
		// each child's RLIMIT_CPU, a backstop behind its tests' CPU timers, is the
		// sandbox's: twice this (RLIMIT_CPU counts ticks; see sandbox.rlimitCPU)
		cpu := st.lim.CPUTime*n + time.Second
		mem := st.lim.MemoryBytes + stackOf(st.lim)
		if k == 0 {
			lim = st.lim
			lim.CPUTime, lim.MemoryBytes = cpu, mem
		}
		lim.CPUTime, lim.MemoryBytes = max(lim.CPUTime, cpu), max(lim.MemoryBytes, mem)
		life += budget(st.lim, st.bi.ntests)
	}
	lim.WallTime = life + 10*time.Second
	return lim
}

// stackOf is the size of the thread a candidate's tests run on.
func stackOf(l sandbox.Limits) int64 { return min(int64(stackSize), l.MemoryBytes/4) }

// budget bounds the wall time of a child that runs left tests.
func budget(l sandbox.Limits, left int) time.Duration {
	return (l.WallTime+500*time.Millisecond)*time.Duration(left) + 2*time.Second
}

// runCandidate runs candidate g of program p on all tests in a child of the program's
// server (*sv, started when nil), again from the test after the one the child died
// on. It returns false when the program did not start and p holds other candidates
// (the caller splits p); a program of one candidate that does not start makes the
// candidate's tests runtime errors.
func (r *groupRun) runCandidate(ctx context.Context, p program, g int, sv **server) (bool, error) {
	st, i := r.of(g)
	n := st.bi.ntests
	feed(st.col, execute.Line{C: i, Compile: "ok"})
	wall, cpu := st.lim.WallTime, st.lim.CPUTime
	from, timeouts := 0, execute.NewTimeouts(st.b)
	for from < n {
		if *sv == nil {
			lim := r.serverLimits(p)
			var s *server
			var o *sandbox.Outcome
			var err error
			// An error is the sandbox's own failure (not the program's): retry it.
			for attempt := 0; attempt < 3; attempt++ {
				if attempt > 0 {
					time.Sleep(time.Duration(attempt) * 200 * time.Millisecond)
				}
				s, o, err = startServer(ctx, p, lim)
				r.e.mu.Lock()
				r.e.stats.Servers++
				r.e.mu.Unlock()
				if ctx.Err() != nil {
					return false, ctx.Err()
				}
				if err == nil {
					break
				}
			}
			if err != nil {
				if len(p.cands) > 1 && from == 0 {
					return false, nil // maybe the program cannot be executed: split it
				}
				st.col.MarkRest(i, schemas.StatusInfraError, "sandbox: "+err.Error())
				return true, nil
			}
			if s == nil {
				// The program did not start: a static initializer of some candidate, or
				// the candidates' static data together, is too much.
				if len(p.cands) > 1 {
					return false, nil
				}
				msg := "the program did not start: " + describe(*o)
				st.col.MarkRest(i, schemas.StatusRuntimeError, msg)
				st.noStart[i] = msg
				return true, nil
			}
			*sv = s
		}
		s := *sv
		oomBefore := s.oomKills()
		lines, ex, overflow, err := s.command(ctx, g, from, wall, cpu, budget(st.lim, n-from), stackOf(st.lim))
		r.e.mu.Lock()
		r.e.stats.Runs++
		r.e.stats.RunCPU += ex.cpu
		r.e.mu.Unlock()
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		done := false
		next := from // the first test without a result
		forged := ""
		initDone := false
		for _, line := range lines {
			var h struct {
				C    int  `json:"c"`
				T    *int `json:"t"`
				Done bool `json:"done"`
				Init bool `json:"init"`
			}
			// Every line is the child's (of candidate i): one its harness does not
			// write is the candidate's forgery.
			if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &h) != nil || h.C != i ||
				h.T != nil && (*h.T < from || *h.T >= n) {
				forged = fmt.Sprintf("forged protocol output: %.80q", line)
				break
			}
			if h.Init && h.T == nil && !h.Done {
				initDone = true // the deferred load-time code ran (harness.h)
				continue
			}
			st.col.Feed(line)
			if h.Done {
				done = true
			}
			if h.T != nil && *h.T+1 > next {
				next = *h.T + 1
			}
		}
		var o sandbox.Outcome
		switch {
		case err == nil:
			o = ex.outcome(s.cpuLimit, s.oomKills() > oomBefore)
		case errors.Is(err, errServerGone):
			// the server itself ended (killed with the child's tree by the cgroup, the
			// output cap, a server that stopped answering): its outcome tells why
			o = s.kill()
			*sv = nil
			o.StdoutTruncated = o.StdoutTruncated || overflow
		default:
			s.kill()
			*sv = nil
			if p.own {
				st.col.MarkRest(i, schemas.StatusRuntimeError, "the candidate's own load-time code or library function broke its server: "+err.Error())
				return true, nil
			}
			st.col.MarkRest(i, schemas.StatusInfraError, err.Error())
			return true, nil
		}
		if forged != "" {
			// Every test of the candidate; those already reported get a second line,
			// which the collector also takes as a violation.
			for t := 0; t < n; t++ {
				feed(st.col, execute.Line{C: i, T: &t, S: string(schemas.StatusSandboxViolation), E: forged})
			}
			return true, nil
		}
		if done || next >= n {
			return true, nil
		}
		if p.deferred && from == 0 && !initDone && forged == "" {
			// its load-time code, run in the child, ended it: as a program whose
			// static initializers fail, the candidate did not start
			msg := "the program did not start: " + describe(o)
			st.col.MarkRest(i, schemas.StatusRuntimeError, msg)
			st.noStart[i] = msg
			return true, nil
		}
		status, msg := deathStatus(o)
		feed(st.col, execute.Line{C: i, T: &next, S: string(status), E: msg,
			WallNs: int64(min(o.WallTime, wall)), CPUNs: int64(min(o.CPUTime, cpu))})
		from = next + 1
		if timeouts.Add(status) && from < n {
			st.col.MarkRest(i, schemas.StatusTimeout, timeouts.Unrun())
			return true, nil
		}
	}
	return true, nil
}

// deathStatus is the status of the test a program died on.
func deathStatus(o sandbox.Outcome) (schemas.Status, string) {
	switch {
	case o.MemoryExceeded:
		return schemas.StatusMemoryLimit, "memory limit exceeded"
	case o.WallTimeout, o.CPUTimeout,
		o.Signal == "alarm clock", o.Signal == "profiling timer expired",
		o.Signal == "CPU time limit exceeded", o.Signal == "virtual timer expired":
		return schemas.StatusTimeout, "time limit exceeded"
	case o.StdoutTruncated:
		return schemas.StatusOutputLimit, "output limit exceeded"
	}
	return schemas.StatusRuntimeError, describe(o)
}

func describe(o sandbox.Outcome) string {
	var s string
	switch {
	case o.Signal != "":
		s = "killed by signal: " + o.Signal
	case o.ExitCode != 0:
		s = fmt.Sprintf("exited with code %d", o.ExitCode)
	default:
		s = "exited during the test"
	}
	if e := strings.TrimSpace(string(o.Stderr)); e != "" {
		if len(e) > 500 {
			e = e[:500] + "..."
		}
		s += ": " + e
	}
	return s
}
