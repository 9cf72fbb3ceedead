package profile

import (
	"bytes"
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"transmute/internal/proctree"
	"transmute/io/cache"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/execute/python"
	"transmute/transforms/sandbox"
)

// The count mode (Options.Count): besides the native repetitions, every program
// runs once under valgrind's callgrind with instrumentation off until the
// harness's bracket around the candidate's calls switches it on, so
// Report.Instructions is the number of instructions executed by the calls (and by
// the loop that makes them), not by start-up. Counts do not depend on the
// machine's load: a C++ or Python program counted twice gives the same number
// (CPython with a fixed PYTHONHASHSEED), a Java program within 0.001% (C1 only, countJVMArgs). The counted run stays in the sandbox like every run.

//go:embed prof_count.h
var countHelperSrc []byte

// countValgrindArgs are callgrind's options (before its output file): part of the
// harness version, so that changing them invalidates cached counts.
var countValgrindArgs = []string{"--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no", "--dump-line=no", "-q"}

// countJVMArgs are the JVM's options in a counted run (build.go says why);
// part of the harness version.
var countJVMArgs = []string{"-Xbatch", "-XX:TieredStopAtLevel=1", "-XX:+UnlockDiagnosticVMOptions",
	"-XX:GuaranteedSafepointInterval=0", "-Dtm.alloc=1"}

// countJVMArgsInt replace them under Options.CountInterpreted.
var countJVMArgsInt = []string{"-Xint", "-XX:+UnlockDiagnosticVMOptions", "-XX:GuaranteedSafepointInterval=0", "-Dtm.alloc=1"}

// CountEnv is the environment of every counted run: a fixed hash seed, without
// which CPython's counts move by 0.1-0.3% from run to run.
var CountEnv = []string{"PYTHONHASHSEED=0"}

var helperMu sync.Mutex

// countHelper returns the path of the counting helper library (prof_count.h),
// built once per WorkDir (cached like the programs), or "" when it cannot be built
// (the harnesses then run without it: no thread CPU in Java, no count).
func countHelper(ctx context.Context, opt Options) string {
	helperMu.Lock()
	defer helperMu.Unlock()
	cc, err := exec.LookPath("gcc")
	if err != nil {
		return ""
	}
	target, _, err := cachedBuild(opt, "count-helper", countHelperSrc, func(target string) (string, error) {
		dir := filepath.Dir(target)
		if err := os.WriteFile(filepath.Join(dir, "prof_count.c"), countHelperSrc, 0o644); err != nil {
			return "", err
		}
		if err := os.MkdirAll(target, 0o755); err != nil {
			return "", err
		}
		return runTool(ctx, dir, cc, "-O2", "-shared", "-fPIC", "-o", filepath.Join(target, "libtmcount.so"), "prof_count.c")
	})
	if err != nil {
		return ""
	}
	return filepath.Join(target, "libtmcount.so")
}

// HarnessVersion identifies the harnesses, the counting helper and callgrind's
// options: a cached count is reused only under the same.
func HarnessVersion() string {
	// The last, empty part ends the others' NUL-separated run as before.
	return execute.Digest(12, "count/v1", string(pyRunner), string(javaHarness), string(cppHeader), string(countHelperSrc),
		strings.Join(countValgrindArgs, " "), strings.Join(cppFlags, " "),
		strings.Join(countJVMArgs, " "), strings.Join(javacFlags, " "), "")
}

var (
	toolMu   sync.Mutex
	toolVers = map[string]string{}
)

// Toolchain is the version banner of valgrind and of the language's toolchain
// (the Python interpreter the harness runs, java, g++): part of a count's cache key.
func Toolchain(lang string) string {
	toolMu.Lock()
	defer toolMu.Unlock()
	if v, ok := toolVers[lang]; ok {
		return v
	}
	banner := func(name string, args ...string) string {
		b, _ := proctree.CombinedOutput(exec.Command(name, args...))
		return strings.TrimSpace(string(b))
	}
	v := banner("valgrind", "--version") + "\n"
	switch lang {
	case schemas.Python:
		if py, err := python.FindPython(""); err == nil {
			v += py + " " + banner(py, "--version")
		}
	case schemas.Java:
		if java, _, _, err := javaTools(); err == nil {
			v += banner(java, "-version")
		}
	case schemas.Cpp:
		v += banner("g++", "--version")
	}
	toolVers[lang] = v
	return v
}

// countKey is the content key of a candidate's report in the count mode: the
// harness version, the toolchain, the suite (signature and tests), the options
// that shape the report and the candidate's code.
func countKey(lang string, s *suite, c execute.Candidate, opt Options) string {
	return cache.Key(HarnessVersion(), toolchainOf(lang, opt), lang, s.params, s.returns, s.tests, opt.Repetitions,
		opt.TimeLimit, opt.CountTimeLimit, opt.MemoryBytes, c.Code, c.Imports, c.Entry, opt.CountInterpreted,
		opt.CountMaxCalls, opt.HeavyRepetitions)
}

// toolchainOf is opt.Toolchain, or the installed toolchain's banner.
func toolchainOf(lang string, opt Options) string {
	if opt.Toolchain != "" {
		return opt.Toolchain
	}
	return Toolchain(lang)
}

// countOnce runs the program once under callgrind, in the sandbox, and returns
// the instructions counted inside the harness's bracket and the run's outcome.
func countOnce(ctx context.Context, p *program, opt Options, dir string) (int64, sandbox.Outcome, error) {
	vg, err := exec.LookPath("valgrind")
	if err != nil {
		return 0, sandbox.Outcome{}, fmt.Errorf("profile: count mode needs valgrind (scripts/deps.sh installs it): %w", err)
	}
	wd, err := fixedTemp(dir, "count-")
	if err != nil {
		return 0, sandbox.Outcome{}, err
	}
	defer os.RemoveAll(wd)
	if err := os.Chmod(wd, 0o755); err != nil {
		return 0, sandbox.Outcome{}, err
	}
	out := filepath.Join(wd, "callgrind.out")
	args := append(append([]string{}, countValgrindArgs...), "--callgrind-out-file="+out, p.path)
	args = append(args, p.countArgs...)
	path := vg
	if !opt.NoPin {
		ts, err := taskset()
		if err != nil {
			return 0, sandbox.Outcome{}, err
		}
		path, args = ts, append([]string{"-c", strconv.Itoa(opt.CPU), vg}, args...)
	}
	spec := sandbox.Spec{
		Path:     path,
		Args:     args,
		Env:      CountEnv,
		WorkDir:  wd,
		ReadOnly: p.readOnly,
		Limits: sandbox.Limits{
			CPUTime:     opt.CountTimeLimit,
			WallTime:    2*opt.CountTimeLimit + 10*time.Second,
			MemoryBytes: 2*opt.MemoryBytes + 1<<30, // valgrind's own maps beside the program's
			MaxProcs:    256,
			OutputBytes: 256 << 20,
		},
		// valgrind reserves far more address space than it uses; the memory is
		// bounded by the cgroup where there is one.
		NoAddressSpaceLimit: true,
	}
	var o sandbox.Outcome
	for attempt := 0; attempt < 3; attempt++ {
		if o, err = sandbox.Run(ctx, spec, nil); err == nil || ctx.Err() != nil {
			break
		}
		time.Sleep(time.Duration(attempt+1) * 200 * time.Millisecond)
	}
	if err != nil {
		return 0, o, fmt.Errorf("profile: sandbox: %w", err)
	}
	n, err := callgrindTotal(out)
	if err != nil && strings.Contains(string(o.Stdout), `"done":true`) {
		return 0, o, err
	}
	return n, o, nil
}

// fixedTemp makes a new directory under base named prefix and 16 random hex
// digits. os.MkdirTemp's names vary in length, and the length of the paths an
// interpreter is given moved CPython's counts by a few hundred instructions (its
// allocator's state at the calls depends on the sizes it allocated before).
func fixedTemp(base, prefix string) (string, error) {
	for i := 0; i < 100; i++ {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", err
		}
		d := filepath.Join(base, prefix+hex.EncodeToString(b[:]))
		if err := os.Mkdir(d, 0o700); err == nil {
			return d, nil
		} else if !os.IsExist(err) {
			return "", err
		}
	}
	return "", fmt.Errorf("profile: no free directory name under %s", base)
}

// callgrindTotal reads the "totals:" line of a callgrind output file (the first
// event, Ir). The file is written by the sandboxed process, so it is read only if
// it is a regular file.
func callgrindTotal(path string) (int64, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return 0, fmt.Errorf("profile: callgrind wrote no counts: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return 0, fmt.Errorf("profile: callgrind's output %s is not a regular file", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	i := bytes.LastIndex(data, []byte("\ntotals:"))
	if i < 0 {
		return 0, fmt.Errorf("profile: callgrind's output has no totals line")
	}
	f := strings.Fields(string(data[i+len("\ntotals:"):]))
	if len(f) == 0 {
		return 0, fmt.Errorf("profile: callgrind's totals line is empty")
	}
	return strconv.ParseInt(f[0], 10, 64)
}

// harnessDone reads the harness's final protocol line: VmHWM, the thread CPU time
// of the calls (-1: not measured) and the allocation peak (-1: not measured).
func harnessDone(stdout []byte) (rssKB, callsNs, alloc int64, ok bool) {
	i := bytes.LastIndex(stdout, []byte(`{"c":0,"done":true`))
	if i < 0 {
		return 0, -1, -1, false
	}
	line := stdout[i:]
	if j := bytes.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	var l struct {
		RSSKB   int64  `json:"rss_kb"`
		CallsNs *int64 `json:"calls_ns"`
		Alloc   *int64 `json:"alloc_peak"`
	}
	if json.Unmarshal(line, &l) != nil {
		return 0, -1, -1, false
	}
	callsNs, alloc = -1, -1
	if l.CallsNs != nil {
		callsNs = *l.CallsNs
	}
	if l.Alloc != nil {
		alloc = *l.Alloc
	}
	return l.RSSKB, callsNs, alloc, true
}

// DefaultCountMaxCalls is Options.CountMaxCalls's default.
const DefaultCountMaxCalls = 200 * time.Millisecond

// heavy: the program ran correctly and its calls took longer than
// opt.CountMaxCalls natively, so it is timed instead of counted.
func (r *runs) heavy(opt Options) bool {
	return r.prog != nil && r.rep.Status == schemas.StatusOK && opt.CountMaxCalls > 0 && r.rep.MeanCallsCPU > opt.CountMaxCalls
}

// timeHeavy runs a heavy program's further native repetitions, up to
// opt.HeavyRepetitions, for the spread its task's resolution floor needs: the
// task is then scored on the calls' CPU time (efficiency.ScoreTask).
func (r *runs) timeHeavy(ctx context.Context, opt Options) error {
	calls := r.rep.MeanCallsCPU
	r.n, r.done = opt.HeavyRepetitions, r.i >= opt.HeavyRepetitions
	for !r.done {
		if err := r.next(ctx, opt); err != nil {
			return err
		}
	}
	r.rep.stats()
	r.rep.Detail = strings.TrimSpace(r.rep.Detail + fmt.Sprintf(" timed, not counted: its calls took %.0f ms natively (more than %v)",
		float64(calls)/1e6, opt.CountMaxCalls))
	return nil
}

// count adds the counted run to a report whose native repetitions ran: the
// instructions and the allocation peak, or the counted run's failure as the
// report's status. A program whose built bytes were counted before (under the
// same suite, harness and toolchain) takes that count from opt.Cache instead.
func (r *runs) count(ctx context.Context, lang string, opt Options, dir string) error {
	if r.prog == nil || r.rep.Status != schemas.StatusOK {
		return nil
	}
	var key string
	if opt.Cache != nil && r.prog.artifact != "" {
		key = artifactKey(lang, r.s, r.prog, opt)
		var c countResult
		if ok, err := opt.Cache.Get(ctx, key, &c); err == nil && ok {
			c.apply(&r.rep)
			r.rep.CountShared = true
			return nil
		}
	}
	start := time.Now()
	n, o, err := countOnce(ctx, r.prog, opt, dir)
	if err != nil {
		return err
	}
	r.rep.CountCPU, r.rep.CountWall = o.CPUTime, time.Since(start)
	c := countResult{Status: schemas.StatusOK, Instructions: n, AllocPeakBytes: -1}
	st, detail, _, _ := judge(r.s, r.c, o, opt.CountTimeLimit)
	if st != schemas.StatusOK {
		c = countResult{Status: st, Detail: "counted run (callgrind): " + detail}
	} else if _, _, alloc, ok := harnessDone(o.Stdout); ok {
		c.AllocPeakBytes = alloc
	}
	c.apply(&r.rep)
	if key != "" && st != schemas.StatusInfraError {
		// A failed write costs only a count again later.
		_ = opt.Cache.Put(ctx, key, c)
	}
	return nil
}

// countResult is what a counted run adds to a report.
type countResult struct {
	Status         schemas.Status
	Detail         string
	Instructions   int64
	AllocPeakBytes int64
}

func (c countResult) apply(rep *Report) {
	if c.Status != schemas.StatusOK {
		rep.Status = c.Status
		rep.Detail = strings.TrimSpace(rep.Detail + " " + c.Detail)
		return
	}
	rep.Counted, rep.Instructions = true, c.Instructions
	if c.AllocPeakBytes >= 0 {
		rep.AllocPeakBytes = c.AllocPeakBytes
	}
}

// artifactKey is the content key of a counted run by the built program's bytes:
// what decides the run besides them (the harness version, the toolchain, the
// suite's signature and tests, the counted run's limits and JVM mode).
func artifactKey(lang string, s *suite, p *program, opt Options) string {
	return cache.Key("artifact/v1", HarnessVersion(), toolchainOf(lang, opt), lang, s.params, s.returns, s.tests,
		opt.CountTimeLimit, opt.MemoryBytes, opt.CountInterpreted, p.artifact)
}
