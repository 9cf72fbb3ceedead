// Package profile is the profiling mode of the execution engines, for efficiency
// work (SPEC section 4; TRACE): it measures a candidate's execution time
// (ET: CPU time, user+sys) and peak memory (PM: peak resident set size) on a whole
// stress suite, as the mean over repetitions.
//
// As TRACE does, one repetition runs the candidate on its WHOLE suite in ONE fresh
// process. The program is built once, before the repetitions, so compilation never
// counts: javac to class files, g++ -O2 to a binary, a Python source file checked by
// the parser. Every repetition is then a fresh process, pinned to one core (taskset
// -c N) and run through the sandbox (transforms/sandbox) with the time and memory
// limits; its CPU time and peak RSS come from the process's rusage
// (sandbox.Outcome.CPUTime and MaxRSSKB).
//
// The harness of each language reads the typed inputs from a data file, converts
// all of them, then calls the function on every test and prints each result as a
// protocol line (transforms/execute/protocol.go), which the Go side canonicalizes
// (transforms/values.Canonical). The fixed cost of the harness (interpreter or JVM
// start-up, reading and converting the inputs, printing) is in every measurement;
// Profile measures it by profiling an empty candidate with the same signature on
// the same inputs and reports it as Report.Overhead, or takes it from
// Options.Baseline, measured once per suite by MeasureBaseline (see
// docs/EFFICIENCY.md).
package profile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/sandbox"
	"transmute/transforms/stats"
	"transmute/transforms/values"
)

// Options configure a profiling run. Zero fields take the defaults.
type Options struct {
	// Repetitions is the number of measured runs (default 5).
	Repetitions int
	// CPU is the core every run is pinned to (default 0).
	CPU int
	// LeastLoaded pins to the core that was least busy over 200ms before the
	// first run (TRACE's choice), instead of CPU.
	LeastLoaded bool
	// TimeLimit bounds the CPU time of one repetition (default 180s); wall time is
	// bounded at twice this plus 10s.
	TimeLimit time.Duration
	// MemoryBytes bounds one repetition's memory (default 4 GiB).
	MemoryBytes int64
	// WorkDir is where programs are built; empty means a temporary directory. A
	// sub-directory is created per call and removed afterwards.
	WorkDir string
	// OverheadRepetitions is the number of runs of the empty candidate that measure
	// the harness overhead (default 3; negative: do not measure it).
	OverheadRepetitions int
	// Baseline, when set, is the harness overhead of this suite measured earlier
	// (by MeasureBaseline, with the same language, signature, tests and
	// limits): Profile then fills Overhead, OverheadRSSKB and NetCPU from it
	// instead of measuring the empty candidate again. The overhead depends only on
	// the harness, the signature and the inputs, so the programs of one suite can
	// share one measurement.
	Baseline *Baseline
	// Warmup is the number of unmeasured runs before the repetitions, which bring
	// the program, the runtime and the inputs into the page cache (default 1;
	// negative: none).
	Warmup int
	// NoPin disables CPU pinning (for machines without taskset).
	NoPin bool
	// NoRealTime runs the repetitions under the ordinary scheduling policy. By
	// default each run but the JVM's (see program.ownThreads) gets the SCHED_FIFO
	// real-time policy (priority 1) where the
	// kernel allows it (root), so that no ordinary process shares its core while it
	// runs: on the shared 2-core machine under load, the CPU time of a 30 ms C++
	// program varied by 17-18% (coefficient of variation over 8 runs) pinned alone
	// and by 2.4-4.8% pinned under SCHED_FIFO.
	NoRealTime bool
	// Count adds the count mode (count.go): after its native repetitions, every
	// program that ran correctly runs once more under callgrind, which counts the
	// instructions of its calls (Report.Instructions), with the allocation peak
	// measured beside. CountTimeLimit bounds that run's CPU time (default 600s:
	// callgrind runs a program 20-60 times slower).
	Count          bool
	CountTimeLimit time.Duration
	// CountMaxCalls: in the count mode, a program whose calls took longer than
	// this natively (Report.MeanCallsCPU) is timed, not counted: it runs
	// HeavyRepetitions native repetitions instead (default 200ms and 5; < 0:
	// count every program). Callgrind runs a program's calls 20-200 times slower,
	// so one CPython program of seconds costs many minutes to count, while at
	// 200 ms the timer's 2-4% of noise is far below what separates translations.
	CountMaxCalls    time.Duration
	HeavyRepetitions int
	// CountInterpreted counts Java programs under the bytecode interpreter alone
	// (-Xint instead of C1): a cost per bytecode that does not change when the
	// JIT compiles a loop part-way, as it does at some input sizes and not others
	// (transforms/growth compares costs across sizes).
	CountInterpreted bool
	// Cache, when set in the count mode, keeps every report by content (the
	// harness version, the toolchain, the suite, the options and the program: see
	// countKey): a program counted before is not run again. Toolchain, when set,
	// stands for the detected toolchain banner in the key (tests).
	Cache     execute.Store
	Toolchain string
}

func (o Options) withDefaults() Options {
	if o.Repetitions <= 0 {
		o.Repetitions = 5
	}
	if o.CPU < 0 {
		o.CPU = 0
	}
	if o.TimeLimit <= 0 {
		o.TimeLimit = 180 * time.Second
	}
	if o.MemoryBytes <= 0 {
		o.MemoryBytes = 4 << 30
	}
	if o.Warmup == 0 {
		o.Warmup = 1
	}
	if o.OverheadRepetitions == 0 {
		o.OverheadRepetitions = 3
	}
	if o.CountTimeLimit <= 0 {
		o.CountTimeLimit = 600 * time.Second
	}
	if o.CountMaxCalls == 0 {
		o.CountMaxCalls = DefaultCountMaxCalls
	}
	if o.HeavyRepetitions <= 0 {
		o.HeavyRepetitions = 5
	}
	return o
}

// Report is the outcome of profiling one candidate on one stress suite.
type Report struct {
	// Status: ok, compile_error, runtime_error (the process died, or a test raised),
	// timeout, memory_limit (or output_limit, infra_error).
	Status schemas.Status
	// Detail is the compiler's message, the first failing test's error, or why the
	// process ended.
	Detail string
	// Outputs holds the canonical JSON result of every test (in the order of the
	// tests given) from the first repetition; "" for a test that raised or was
	// not reached.
	Outputs []string
	// TestStatus is the status of every test in the first repetition.
	TestStatus []schemas.Status
	// CPUTime (user+sys), WallTime and MaxRSSKB of each repetition (only the
	// repetitions that ran: profiling stops at the first failed repetition).
	// MaxRSSKB is the peak RSS of the program's own image (VmHWM, which its
	// harness prints when it ends); when it did not end normally, the sandbox's
	// rusage figure. RusageRSSKB is the sandbox's figure (sandbox.Outcome.MaxRSSKB),
	// which on Linux may include the parent's RSS from before exec.
	CPUTime, WallTime     []time.Duration
	MaxRSSKB, RusageRSSKB []int64
	// MeanCPU and StdCPU (sample standard deviation) of CPUTime; CVCPU = Std/Mean.
	MeanCPU, StdCPU time.Duration
	CVCPU           float64
	// MeanRSSKB is the mean peak RSS.
	MeanRSSKB float64
	// Overhead is the mean CPU time of the empty candidate (same harness, same
	// inputs, same signature): the part of MeanCPU that is not the function's.
	// It is reported, not subtracted: NetCPU is MeanCPU - Overhead (floored at 0).
	Overhead, NetCPU time.Duration
	// OverheadRSSKB is the empty candidate's mean peak RSS.
	OverheadRSSKB float64
	// Started is when the first measured repetition started, Ended when the last
	// one ended (zero when none ran): the stretch of time the figures come from,
	// to set beside the machine's own noise then (MeasureNoise).
	Started, Ended time.Time
	// CallsCPU is the thread CPU time of the candidate's calls in each repetition,
	// as the harness measures it around its loop over the tests (start-up, input
	// conversion and printing excluded); MeanCallsCPU and StdCallsCPU its mean and
	// sample standard deviation. Empty where the harness could not measure it.
	CallsCPU                  []time.Duration
	MeanCallsCPU, StdCallsCPU time.Duration
	// The count mode: Counted when the callgrind run succeeded; Instructions is
	// its count of the calls' instructions; AllocPeakBytes the allocation peak of
	// the calls in that run (C++: live heap through operator new; Python:
	// tracemalloc's peak, in a second pass; Java: the bytes the calling thread
	// allocated), -1 when not measured; CountCPU and CountWall the counted run's
	// cost. Cached: the report came from Options.Cache. CountShared: the counted
	// run's figures came from Options.Cache under the built program's bytes (a
	// program counted before that differs only in its text), so this report's
	// CountCPU and CountWall are zero.
	Counted             bool
	Instructions        int64
	AllocPeakBytes      int64
	CountCPU, CountWall time.Duration
	Cached, CountShared bool
	// TimedWith is the number of programs whose calls were timed side by side
	// with this one, its CallsCPU then normalised by each round's geometric mean
	// (efficiency.Retime); 0 when not timed so.
	TimedWith int
}

// Baseline is the harness overhead of one suite: what the empty candidate (a
// function with the same signature that returns a default value) costs with the
// same harness, on the same inputs, pinned the same way.
type Baseline struct {
	// Status is the empty candidate's status (ok, or why it failed: then the
	// figures are not usable and Profile notes it in Report.Detail).
	Status schemas.Status
	Detail string
	// CPU is the mean CPU time (user+sys) of the empty runs, RSSKB their mean peak
	// RSS, Runs their number.
	CPU   time.Duration
	RSSKB float64
	Runs  int
}

// program is a built harness, ready to run.
type program struct {
	path     string
	args     []string
	readOnly []string
	noAS     bool // the JVM: memory bounded by -Xmx, not RLIMIT_AS
	// ownThreads: the runtime works in threads of its own beside the program's
	// (the JVM's JIT compilers), which under SCHED_FIFO on the one pinned core
	// never run while the program computes: a Java loop then stays interpreted,
	// 45 times slower (measured). Such a program runs under the ordinary policy.
	ownThreads bool
	// countArgs are the arguments of the counted run (under callgrind) when
	// Options.Count is set: the counting helper loaded, the JVM's JIT synchronous.
	countArgs []string
	// artifact is a hash of the built program's bytes (the class files, the
	// binary) in the count mode, where they alone decide what a counted run does;
	// else "". Programs whose text differs only in spacing, comments or local
	// names build the same bytes and share one count.
	artifact string
}

// builder builds the harness of one language for a candidate.
type builder interface {
	// build builds the candidate's harness in dir; a compile error is returned as
	// (nil, message, nil).
	build(ctx context.Context, dir string, s *suite, c execute.Candidate, opt Options) (*program, string, error)
	// empty is a candidate with the same signature that does nothing.
	empty(s *suite) execute.Candidate
}

var builders = map[string]builder{
	schemas.Python: pyBuilder{},
	schemas.Java:   javaBuilder{},
	schemas.Cpp:    cppBuilder{},
}

// suite is what the builders need to know about the problem and its tests.
type suite struct {
	params  []schemas.Param
	types   []values.Type
	returns string
	ret     values.Type
	tests   []schemas.Test
}

// Profile builds cand once and runs it opt.Repetitions times on all tests, each
// time in a fresh process pinned to one core; it returns the measurements. A
// failure of the candidate is a Status; an error means profiling itself failed.
// The harness overhead is opt.Baseline when given, else measured here by the
// empty candidate (unless opt.OverheadRepetitions < 0).
func Profile(ctx context.Context, lang string, cand execute.Candidate, params []schemas.Param, returns string, tests []schemas.Test, opt Options) (Report, error) {
	if opt.Count {
		reps, errs, err := ProfileSuite(ctx, lang, []execute.Candidate{cand}, params, returns, tests, opt)
		if err != nil {
			return Report{}, err
		}
		return reps[0], errs[0]
	}
	b, s, dir, opt, err := prepare(lang, params, returns, tests, opt)
	if err != nil {
		return Report{}, err
	}
	defer os.RemoveAll(dir)
	rep, err := measure(ctx, b, filepath.Join(dir, "cand"), s, cand, opt, opt.Repetitions, true)
	if err != nil || rep.Status == schemas.StatusCompileError || (opt.Baseline == nil && opt.OverheadRepetitions < 0) {
		return rep, err
	}
	bl := opt.Baseline
	if bl == nil {
		m, err := baseline(ctx, b, filepath.Join(dir, "empty"), s, opt)
		if err != nil {
			return rep, err
		}
		bl = &m
	}
	rep.applyBaseline(*bl)
	return rep, nil
}

// applyBaseline fills Overhead, OverheadRSSKB and NetCPU from the suite's baseline,
// or notes in Detail why the baseline is not usable.
func (r *Report) applyBaseline(bl Baseline) {
	if bl.Status != schemas.StatusOK {
		r.Detail = strings.TrimSpace(r.Detail + "; overhead run: " + string(bl.Status) + " " + bl.Detail)
		return
	}
	r.Overhead = bl.CPU
	r.OverheadRSSKB = bl.RSSKB
	r.NetCPU = max(r.MeanCPU-r.Overhead, 0)
}

// MeasureBaseline measures the harness overhead of a suite once: the empty candidate of
// the signature, built and run like Profile runs a candidate (opt.Warmup warm-ups,
// then opt.OverheadRepetitions fresh pinned runs, default 3). Pass the result as
// Options.Baseline to Profile the suite's programs without measuring it again.
// opt.Baseline is ignored.
func MeasureBaseline(ctx context.Context, lang string, params []schemas.Param, returns string, tests []schemas.Test, opt Options) (Baseline, error) {
	b, s, dir, opt, err := prepare(lang, params, returns, tests, opt)
	if err != nil {
		return Baseline{}, err
	}
	defer os.RemoveAll(dir)
	return baseline(ctx, b, filepath.Join(dir, "empty"), s, opt)
}

func baseline(ctx context.Context, b builder, dir string, s *suite, opt Options) (Baseline, error) {
	n := opt.OverheadRepetitions
	if n <= 0 {
		n = 3
	}
	over, err := measure(ctx, b, dir, s, b.empty(s), opt, n, false)
	if err != nil {
		return Baseline{}, err
	}
	return Baseline{Status: over.Status, Detail: over.Detail, CPU: over.MeanCPU, RSSKB: over.MeanRSSKB, Runs: len(over.CPUTime)}, nil
}

// Languages lists the languages that have a profiling harness, in the order of
// schemas.Languages (not every language with an engine has one).
func Languages() []string {
	var ls []string
	for _, l := range schemas.Languages {
		if _, ok := builders[l]; ok {
			ls = append(ls, l)
		}
	}
	return ls
}

// prepare checks the options, the language and the types, and makes the working
// directory of one call (the caller removes it).
func prepare(lang string, params []schemas.Param, returns string, tests []schemas.Test, opt Options) (builder, *suite, string, Options, error) {
	opt = opt.withDefaults()
	if opt.LeastLoaded && !opt.NoPin {
		opt.CPU = LeastLoadedCPU(200*time.Millisecond, opt.CPU)
	}
	if !opt.NoPin && opt.CPU >= runtime.NumCPU() {
		return nil, nil, "", opt, fmt.Errorf("profile: cannot pin to CPU %d: this machine has %d", opt.CPU, runtime.NumCPU())
	}
	b, ok := builders[lang]
	if !ok {
		return nil, nil, "", opt, fmt.Errorf("profile: no harness for language %q", lang)
	}
	s := &suite{params: params, returns: returns, tests: tests}
	for _, p := range params {
		t, err := values.ParseType(p.Type)
		if err != nil {
			return nil, nil, "", opt, fmt.Errorf("profile: parameter %s: %w", p.Name, err)
		}
		s.types = append(s.types, t)
	}
	var err error
	if s.ret, err = values.ParseType(returns); err != nil {
		return nil, nil, "", opt, fmt.Errorf("profile: return type: %w", err)
	}
	base := opt.WorkDir
	if base == "" {
		base = os.TempDir()
	}
	if err := os.MkdirAll(base, 0o755); err != nil {
		return nil, nil, "", opt, fmt.Errorf("profile: %w", err)
	}
	dir, err := fixedTemp(base, "profile-")
	if err != nil {
		return nil, nil, "", opt, fmt.Errorf("profile: %w", err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		os.RemoveAll(dir)
		return nil, nil, "", opt, err
	}
	return b, s, dir, opt, nil
}

// measure builds c in dir and runs it n times.
func measure(ctx context.Context, b builder, dir string, s *suite, c execute.Candidate, opt Options, n int, keepOutputs bool) (Report, error) {
	r, err := newRuns(ctx, b, dir, s, c, opt, n, keepOutputs)
	if err != nil || r.done {
		return r.rep, err
	}
	if err := r.warmup(ctx, opt); err != nil {
		return r.rep, err
	}
	for !r.done {
		if err := r.next(ctx, opt); err != nil {
			return r.rep, err
		}
	}
	r.rep.stats()
	return r.rep, nil
}

// observeRun, when set (by tests), is called with the candidate's ID before each
// measured repetition.
var observeRun func(id string)

// runs are the repetitions of one built program: next runs one more and records it.
type runs struct {
	s           *suite
	c           execute.Candidate
	prog        *program
	n           int // repetitions wanted
	keepOutputs bool
	rep         Report
	i           int  // repetitions run
	done        bool // n reached, or stopped (a failed repetition, a compile error)
}

// newRuns builds c in dir; a compile error gives runs that are done, with that status.
func newRuns(ctx context.Context, b builder, dir string, s *suite, c execute.Candidate, opt Options, n int, keepOutputs bool) (*runs, error) {
	r := &runs{s: s, c: c, n: n, keepOutputs: keepOutputs}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return r, err
	}
	prog, msg, err := b.build(ctx, dir, s, c, opt)
	if err != nil {
		r.done = true
		return r, err
	}
	if prog == nil {
		r.rep, r.done = Report{Status: schemas.StatusCompileError, Detail: msg}, true
		return r, nil
	}
	r.prog, r.done = prog, n <= 0
	return r, nil
}

// warmup runs the program opt.Warmup times without measuring.
func (r *runs) warmup(ctx context.Context, opt Options) error {
	for i := 0; i < opt.Warmup; i++ {
		o, err := runOnce(ctx, r.prog, opt)
		if err != nil {
			return err
		}
		// A warm-up run that fails is measured again below, where it counts.
		if st, _, _, _ := judge(r.s, r.c, o, opt.TimeLimit); st != schemas.StatusOK && st != schemas.StatusRuntimeError {
			break
		}
	}
	return nil
}

// next runs and records one repetition; a failed one (other than a test that
// raised) or the last one makes the runs done.
func (r *runs) next(ctx context.Context, opt Options) error {
	if r.done {
		return nil
	}
	if observeRun != nil {
		observeRun(r.c.ID)
	}
	start := time.Now()
	o, err := runOnce(ctx, r.prog, opt)
	if err != nil {
		r.done = true
		return err
	}
	i := r.i
	r.i++
	rep := &r.rep
	if i == 0 {
		rep.Started = start
	}
	rep.Ended = time.Now()
	st, detail, outs, tst := judge(r.s, r.c, o, opt.TimeLimit)
	rep.CPUTime = append(rep.CPUTime, o.CPUTime)
	rep.WallTime = append(rep.WallTime, o.WallTime)
	rep.RusageRSSKB = append(rep.RusageRSSKB, o.MaxRSSKB)
	rss := o.MaxRSSKB
	if h, callsNs, _, ok := harnessDone(o.Stdout); ok {
		if h > 0 {
			rss = h
		}
		if callsNs >= 0 {
			rep.CallsCPU = append(rep.CallsCPU, time.Duration(callsNs))
		}
	}
	rep.MaxRSSKB = append(rep.MaxRSSKB, rss)
	if i == 0 {
		rep.Status, rep.Detail = st, detail
		if r.keepOutputs {
			rep.Outputs, rep.TestStatus = outs, tst
		}
	} else if r.keepOutputs && st == schemas.StatusOK && !slices.Equal(outs, rep.Outputs) {
		rep.Detail = strings.TrimSpace(rep.Detail + fmt.Sprintf(" outputs of repetition %d differ from the first", i+1))
	}
	// A test that raised does not stop the repetitions; anything else does.
	if st != schemas.StatusOK && st != schemas.StatusRuntimeError {
		if i > 0 {
			rep.Status, rep.Detail = st, fmt.Sprintf("repetition %d: %s", i+1, detail)
		}
		r.done = true
	}
	if r.i >= r.n {
		r.done = true
	}
	return ctx.Err()
}

// faultHook, when set (by fault-injection tests), is called at the start of
// ProfileSuite.
var faultHook func(lang string, cands []execute.Candidate)

// ProfileSuite profiles the programs of one suite together (the ground truth and the
// translations that one task compares), all pinned to opt.CPU: it builds each once,
// measures the suite's harness overhead first unless opt.Baseline is given (its
// warm-up, opt.Warmup runs of the empty candidate, also warms the runtime and the
// inputs for the programs, which get none of their own), then runs the repetitions
// in rounds: round i runs every program once, starting with program i mod n. The
// machine's drift over the suite's measurement (load from outside, frequency, the
// host) then falls on every program alike instead of on whichever was measured in
// its stretch, and no program is always first after the baseline. Reports are in
// the order of cands, each as Profile would return it; errs[k] is set when
// profiling cands[k] itself failed. The error is for the suite as a whole (the
// options, the overhead's measurement).
func ProfileSuite(ctx context.Context, lang string, cands []execute.Candidate, params []schemas.Param, returns string, tests []schemas.Test, opt Options) (reps []Report, errs []error, err error) {
	// A panic (a bug in a builder, a runner's output it did not expect) fails the
	// suite with an error, which the efficiency job makes error rows: the job's
	// other suites run on, in this process.
	defer func() {
		if v := recover(); v != nil {
			st := string(debug.Stack())
			if len(st) > 3000 {
				st = st[:3000] + "..."
			}
			reps, errs, err = nil, nil, fmt.Errorf("profiling panicked: %v\n%s", v, st)
		}
	}()
	if faultHook != nil {
		faultHook(lang, cands)
	}
	b, s, dir, opt, err := prepare(lang, params, returns, tests, opt)
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	reps = make([]Report, len(cands))
	errs = make([]error, len(cands))
	rs := make([]*runs, len(cands))
	keys := make([]string, len(cands))
	for k, c := range cands {
		if opt.Count && opt.Cache != nil {
			keys[k] = countKey(lang, s, c, opt)
			var cached Report
			if ok, err := opt.Cache.Get(ctx, keys[k], &cached); err == nil && ok {
				cached.Cached = true
				rs[k] = &runs{s: s, c: c, rep: cached, done: true}
				continue
			}
		}
		rs[k], errs[k] = newRuns(ctx, b, filepath.Join(dir, fmt.Sprintf("cand%d", k)), s, c, opt, opt.Repetitions, true)
	}
	bl := opt.Baseline
	if bl == nil && opt.OverheadRepetitions >= 0 {
		m, err := baseline(ctx, b, filepath.Join(dir, "empty"), s, opt)
		if err != nil {
			return nil, nil, err
		}
		bl = &m
	} else if bl == nil {
		for k, r := range rs {
			if errs[k] == nil && !r.done {
				errs[k] = r.warmup(ctx, opt)
			}
		}
	}
	for round := 0; round < opt.Repetitions; round++ {
		for i := range rs {
			k := (round + i) % len(rs)
			if r := rs[k]; errs[k] == nil && !r.done {
				errs[k] = r.next(ctx, opt)
			}
		}
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
	}
	for k, r := range rs {
		if r.rep.Cached {
			reps[k] = r.rep
			continue
		}
		if errs[k] == nil && r.rep.Status != schemas.StatusCompileError {
			r.rep.stats()
			if bl != nil {
				r.rep.applyBaseline(*bl)
			}
			if opt.Count {
				r.rep.AllocPeakBytes = -1
				if r.heavy(opt) {
					errs[k] = r.timeHeavy(ctx, opt)
				} else {
					errs[k] = r.count(ctx, lang, opt, dir)
				}
			}
		}
		reps[k] = r.rep
		if opt.Count && opt.Cache != nil && errs[k] == nil && cacheableReport(r.rep) {
			// A failed write costs only a count again later.
			_ = opt.Cache.Put(ctx, keys[k], r.rep)
		}
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
	}
	return reps, errs, nil
}

// cacheableReport is false for reports the machinery, not the program, decided.
func cacheableReport(r Report) bool {
	return r.Status != schemas.StatusInfraError && r.Status != ""
}

// stats fills the means, standard deviation and coefficient of variation.
func (r *Report) stats() {
	n := len(r.CPUTime)
	if n == 0 {
		return
	}
	cpu := make([]float64, n)
	var rss float64
	for i, c := range r.CPUTime {
		cpu[i] = float64(c)
		rss += float64(r.MaxRSSKB[i])
	}
	mean, std, cv := stats.MeanStdCV(cpu)
	r.MeanCPU = time.Duration(mean)
	r.StdCPU = time.Duration(std)
	r.CVCPU = cv
	r.MeanRSSKB = rss / float64(n)
	if len(r.CallsCPU) > 0 {
		calls := make([]float64, len(r.CallsCPU))
		for i, c := range r.CallsCPU {
			calls[i] = float64(c)
		}
		m, sd, _ := stats.MeanStdCV(calls)
		r.MeanCallsCPU, r.StdCallsCPU = time.Duration(m), time.Duration(sd)
	}
}

// runOnce runs the program in a fresh sandboxed process pinned to opt.CPU.
func runOnce(ctx context.Context, p *program, opt Options) (sandbox.Outcome, error) {
	path, args := p.path, p.args
	if !opt.NoPin {
		ts, err := taskset()
		if err != nil {
			return sandbox.Outcome{}, err
		}
		path, args = ts, append([]string{"-c", strconv.Itoa(opt.CPU), p.path}, p.args...)
	}
	spec := sandbox.Spec{
		Path:     path,
		Args:     args,
		ReadOnly: p.readOnly,
		Limits: sandbox.Limits{
			CPUTime:     opt.TimeLimit,
			WallTime:    2*opt.TimeLimit + 10*time.Second,
			MemoryBytes: opt.MemoryBytes,
			MaxProcs:    256,
			OutputBytes: 256 << 20,
		},
		NoAddressSpaceLimit: p.noAS,
	}
	if !opt.NoRealTime && !p.ownThreads {
		spec.RealTimePriority = 1
	}
	var o sandbox.Outcome
	var err error
	for attempt := 0; attempt < 3; attempt++ { // an error is the sandbox's own failure
		if o, err = sandbox.Run(ctx, spec, nil); err == nil || ctx.Err() != nil {
			break
		}
		time.Sleep(time.Duration(attempt+1) * 200 * time.Millisecond)
	}
	if err != nil {
		return o, fmt.Errorf("profile: sandbox: %w", err)
	}
	return o, nil
}

var errNoTaskset = errors.New("profile: taskset(1) not found (install util-linux, or set Options.NoPin)")

func taskset() (string, error) {
	for _, p := range []string{"/usr/bin/taskset", "/bin/taskset"} {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	return "", errNoTaskset
}

// judge reads a repetition's protocol lines: the run's status, detail, canonical
// outputs and per-test statuses.
func judge(s *suite, c execute.Candidate, o sandbox.Outcome, limit time.Duration) (schemas.Status, string, []string, []schemas.Status) {
	col := execute.NewCollector(execute.Batch{Params: s.params, Returns: s.returns, Tests: s.tests,
		Candidates: []execute.Candidate{{ID: c.ID}}})
	_ = col.Read(strings.NewReader(string(o.Stdout)))
	res := col.Results[0]
	outs := make([]string, len(res.Tests))
	tst := make([]schemas.Status, len(res.Tests))
	var firstErr string
	raised := false
	for i, t := range res.Tests {
		tst[i] = t.Status
		if t.Status == schemas.StatusOK {
			outs[i] = t.Output
		} else if t.Status != schemas.StatusNotRun && firstErr == "" {
			firstErr = fmt.Sprintf("test %d (index %d): %s %s", i, t.Index, t.Status, t.Error)
		}
		if t.Status == schemas.StatusRuntimeError {
			raised = true
		}
	}
	if res.Status == schemas.StatusCompileError {
		return schemas.StatusCompileError, res.Detail, nil, nil
	}
	done := strings.Contains(string(o.Stdout), `"done":true`)
	switch {
	case o.MemoryExceeded:
		return schemas.StatusMemoryLimit, "memory limit exceeded", outs, tst
	case o.WallTimeout || o.CPUTimeout || o.Signal == "CPU time limit exceeded",
		// killed near the CPU limit: the limit's signal, as the sandbox may report it
		o.Signal != "" && !done && o.CPUTime >= limit*3/4:
		return schemas.StatusTimeout, "time limit exceeded", outs, tst
	case o.StdoutTruncated:
		return schemas.StatusOutputLimit, "output limit exceeded", outs, tst
	case !done || o.ExitCode != 0:
		st := schemas.StatusRuntimeError
		detail := describeEnd(o)
		if strings.Contains(string(o.Stderr), "OutOfMemoryError") || strings.Contains(string(o.Stderr), "MemoryError") ||
			strings.Contains(string(o.Stderr), "bad_alloc") {
			st = schemas.StatusMemoryLimit
		}
		return st, detail, outs, tst
	}
	for _, t := range tst {
		switch t {
		case schemas.StatusMemoryLimit, schemas.StatusTimeout, schemas.StatusInfraError, schemas.StatusOutputLimit:
			return t, firstErr, outs, tst
		}
	}
	if raised {
		return schemas.StatusRuntimeError, firstErr, outs, tst
	}
	return schemas.StatusOK, "", outs, tst
}

func describeEnd(o sandbox.Outcome) string {
	s := "ended before the last test"
	switch {
	case o.Signal != "":
		s = "killed by signal: " + o.Signal
	case o.ExitCode != 0:
		s = fmt.Sprintf("exited with code %d", o.ExitCode)
	}
	if e := strings.TrimSpace(string(o.Stderr)); e != "" {
		if len(e) > 300 {
			e = e[len(e)-300:]
		}
		s += ": " + e
	}
	return s
}

// Median returns the median of xs (0 for none).
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
