// Package java is Transmute's Java execution engine, registered as "java".
//
// A worker JVM (Runner.java) serves jobs, one a line of JSON on its stdin; a job is a
// batch (or its rest, after a restart). For each it compiles every candidate in memory
// with javax.tools (each as its own class C<i>, with its own compile status), loads
// each in its own class loader, converts the tests' JSON arguments to the entry
// method's actual parameter types by reflection, prints the runner protocol
// (execute.Line) on stdout and ends with a line "#end" ("#end retire" when it is not
// fit for another job: a candidate's thread still runs, global state changed...).
//
// The engine keeps idle workers in a pool, keyed by their start configuration (the
// JVM's arguments, which hold the heap size from Batch.Limits.MemoryBytes, and the
// process limits), so that the JVM and its warmed-up compiler serve many batches. A
// worker is retired after maxWorkerJobs jobs, when it asks, or after workerIdle
// unused; Close ends the idle ones. The Go side supervises each job: when no line
// arrives within a test's wall-time limit, or the worker dies, it kills that worker,
// marks the current test (and the rest of that candidate's tests) and resumes with
// another worker from the next candidate. Per-test CPU time is enforced inside the
// worker: a watchdog stops the test through checks the worker compiles into every
// candidate's loops and method entries (Runner.Tick), and the worker goes on with the
// next candidate (the rest of that candidate's tests are marked timeouts, as after a
// restart); a candidate that the checks cannot stop ends the JVM. The worker's own
// sandbox limits are generous process-level bounds (workerCPU, workerWall).
//
// The worker (Runner.java) and a stub of javafx.util.Pair, which benchmark Java code
// imports and JDK 17 lacks, are compiled once into a cache directory keyed by a hash
// of their source.
package java

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"transmute/internal/proctree"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/sandbox"
)

//go:embed Runner.java
var runnerSource string

//go:embed Pair.java
var pairSource string

const (
	runnerMain = "transmute.runner.Runner"
	// exportTaskPool lets the worker use javac's JavacTaskPool (a jdk.compiler
	// internal, as JShell does), at compile time and at run time.
	exportTaskPool = "jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED"
	// exportASM lets the worker use the JDK's own copy of ASM to rewrite candidate
	// classes (Runner.Tick), at compile time and at run time.
	exportASM = "java.base/jdk.internal.org.objectweb.asm=ALL-UNNAMED"
)

// javacArgs compile the worker: a one-off compile, so the JVM running javac gets the
// flags of a short run (C1 only), which halve its CPU time.
var javacArgs = []string{"-J-XX:TieredStopAtLevel=1", "-J-XX:CICompilerCount=1", "-J-XX:+UseSerialGC",
	"-J-Xshare:auto", "-J-XX:-UsePerfData", "-nowarn", "-encoding", "UTF-8", "--add-exports", exportTaskPool, "--add-exports", exportASM}

func init() {
	execute.Register("java", func(opts execute.Options) (execute.Engine, error) { return Open(opts) })
}

const (
	// DefaultTestTime is the time limit of one test when the batch sets none.
	DefaultTestTime = 5 * time.Second
	// maxInfraRestarts bounds the worker restarts that made no progress (the JVM did
	// not start, or died while compiling) before the remaining candidates get
	// infra_error. A restart caused by a candidate (timeout, crash) always makes
	// progress and is not bounded.
	maxInfraRestarts = 3
	// stackBytes is the stack of the thread that runs the candidates (deep recursion).
	stackBytes = 64 << 20
	// compileBase and compilePerCandidate bound the worker's start and compile phase.
	compileBase         = 60 * time.Second
	compilePerCandidate = 200 * time.Millisecond
	// jvmOverhead is memory beyond the heap that the JVM needs (metaspace, code cache,
	// the in-process compiler).
	jvmOverhead = 512 << 20

	// maxWorkerJobs is the number of jobs after which a worker is retired.
	maxWorkerJobs = 256
	// workerIdle is how long a worker may wait in the pool before it is closed
	// (Engine.idleTimeout overrides it in tests).
	workerIdle = 30 * time.Second
	// workerCPU and workerWall are a worker's sandbox limits, over its whole life (per
	// test, the worker's watchdog enforces the CPU limit and the supervisor the wall
	// time). A worker retires once it has used half of either, so that no job starts
	// near them.
	workerCPU  = time.Hour
	workerWall = 6 * time.Hour
	// closeGrace is how long a worker told to stop (stdin closed) may take to exit
	// before it is killed.
	closeGrace = 5 * time.Second
)

// Engine runs Java batches. It is safe for concurrent use: each Run uses its own
// worker.
type Engine struct {
	java     string // absolute path of the java launcher
	javaHome string // the JDK's home, for sandboxes that hide host files
	classDir string // compiled Runner and Pair (and the same in runner.jar)
	archive  string // class-data sharing archive of a worker's classes, or ""
	readOnly []string
	// idleTimeout, when set, replaces workerIdle
	idleTimeout time.Duration

	mu       sync.Mutex
	closed   bool
	idle     []*worker // the pool, least recently used first
	stats    Stats
	stopping int        // workers being stopped in the background
	stopped  *sync.Cond // signalled (on mu) when stopping drops
}

// Stats counts the engine's workers.
type Stats struct {
	// Started is the number of worker JVMs started, Reused the number of jobs given to
	// a worker from the pool, Retired the workers closed because they asked (a
	// candidate left a thread or changed global state), served maxWorkerJobs jobs or
	// used half their limits. Workers killed during a job (a test past its wall-time
	// limit, a crash) are counted in none but Started.
	Started, Reused, Retired int
	// Shipped is the number of candidates given to a worker already compiled (by the
	// worker that ran the start of their batch and was killed or crashed).
	Shipped int
	// Idle is the number of workers in the pool now.
	Idle int
}

// Stats returns the engine's worker counts.
func (e *Engine) Stats() Stats {
	e.mu.Lock()
	defer e.mu.Unlock()
	st := e.stats
	st.Idle = len(e.idle)
	return st
}

// maxIdle is the most workers the pool keeps.
func maxIdle() int { return max(2, runtime.NumCPU()) }

// Open finds the JDK, compiles the worker once (cached under opts.WorkDir or the
// temporary directory) and returns the engine.
func Open(opts execute.Options) (*Engine, error) {
	java, javac, err := findJDK(opts.JavaHome)
	if err != nil {
		return nil, err
	}
	base := opts.WorkDir
	if base == "" {
		base = os.TempDir()
	}
	dir, err := compileRunner(javac, base)
	if err != nil {
		return nil, err
	}
	jdk := jdkOf(java, javac)
	ro := append([]string{dir}, jdk.ReadOnly...)
	return &Engine{java: java, javaHome: jdk.Home, classDir: dir, readOnly: ro, archive: ensureArchive(java, dir)}, nil
}

// JDK is a JDK's launchers and what a sandboxed JVM of it reads.
type JDK struct {
	Java, Javac string // absolute paths
	Home        string
	// ReadOnly are the host directories a sandbox hiding the host's files must show
	// the JVM: its home and the directories its configuration links to.
	ReadOnly []string
}

// FindJDK finds the JDK as Open does (home, a JDK home or its bin dir, else PATH),
// for programs that run a JVM of their own in the sandbox (scriptcheck's scripts run
// one JVM each, as the benchmark's harness runs them).
func FindJDK(home string) (JDK, error) {
	java, javac, err := findJDK(home)
	if err != nil {
		return JDK{}, err
	}
	return jdkOf(java, javac), nil
}

func jdkOf(java, javac string) JDK {
	home := filepath.Dir(filepath.Dir(java))
	return JDK{Java: java, Javac: javac, Home: home, ReadOnly: append([]string{home}, linkedDirs(home)...)}
}

// runnerJar is the worker's classes packed as a jar, next to them.
const runnerJar = "runner.jar"

// writeJar packs the class tree under dir into a jar (a zip) at path.
func writeJar(dir, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".class") {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		w, err := zw.Create(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	})
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(path, 0o644)
	}
	return err
}

// archiveJob is the job a worker runs once, outside the sandbox, to record the
// classes a worker loads (the JDK's, javac's and the runner's) in a class-data
// sharing archive: a small batch compiled in memory and run, with a compile error, an
// exception and the common argument and result types.
func archiveJob() []byte {
	j := job{Params: []string{"int[]", "String", "long"}, Returns: "String",
		Tests: []json.RawMessage{json.RawMessage(`[[3,1,2],"ab",5]`), json.RawMessage(`[[],"",-1]`)},
		Cands: []jobCand{
			{Entry: "f", Code: `static String f(int[] a, String s, long n) {
  java.util.List<Integer> l = new java.util.ArrayList<>();
  for (int x : a) l.add(x);
  java.util.Collections.sort(l);
  java.util.Map<String, Long> m = new java.util.HashMap<>();
  m.put(s, n);
  if (n < 0) throw new IllegalArgumentException("n");
  return l.toString() + s.toUpperCase() + m.get(s) + Math.max(n, 2L);
}`},
			{Entry: "f", Code: "static String f(int[] a, String s, long n) { return x; }"},
		},
		CPUNs: int64(5 * time.Second)}
	b, _ := json.Marshal(j)
	return append(b, '\n')
}

var archiveMu sync.Mutex

// ensureArchive returns dir's class-data sharing archive of a worker's classes
// (worker.jsa), creating it on first use (about 1.5 s of CPU: a worker run with
// -XX:ArchiveClassesAtExit), or "" when it cannot be made. A worker started with it
// maps those classes instead of loading and verifying them: about 0.25 s less CPU per
// worker start (0.74 s -> 0.52 s measured for a one-candidate job). The JVM ignores
// an archive that does not match it (-Xshare:auto).
func ensureArchive(java, dir string) string {
	archiveMu.Lock()
	defer archiveMu.Unlock()
	path := filepath.Join(dir, "worker.jsa")
	if _, err := os.Stat(path); err == nil {
		return path
	}
	if _, err := os.Stat(filepath.Join(dir, runnerJar)); err != nil {
		return ""
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "transmute-jsa-")
	if err != nil {
		return ""
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	args := append(jvmFlags(256<<20), "-XX:ArchiveClassesAtExit="+filepath.Join(tmp, "worker.jsa"),
		"-cp", filepath.Join(dir, runnerJar), runnerMain)
	cmd := exec.CommandContext(ctx, java, args...)
	cmd.Stdin = bytes.NewReader(archiveJob())
	cmd.Dir = tmp
	if err := proctree.Run(cmd); err != nil {
		return ""
	}
	if err := os.Chmod(filepath.Join(tmp, "worker.jsa"), 0o644); err != nil {
		return ""
	}
	if err := os.Rename(filepath.Join(tmp, "worker.jsa"), path); err != nil {
		if _, serr := os.Stat(path); serr != nil {
			return ""
		}
	}
	return path
}

// jvmFlags are a worker JVM's options before its class path.
func jvmFlags(heap int64) []string {
	return []string{
		"-Xshare:auto", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1",
		"-XX:-UsePerfData", "-XX:+UseCompressedOops", "-Xss8m",
		"-Xmx" + strconv.FormatInt(heap>>20, 10) + "m", "-Xms32m",
		"-XX:MaxMetaspaceSize=256m", "-XX:ReservedCodeCacheSize=64m",
		"-XX:ErrorFile=/dev/null", "-Djava.security.manager=allow", "-Dfile.encoding=UTF-8",
		"--add-exports", exportTaskPool, "--add-exports", exportASM,
	}
}

// linkedDirs lists the directories outside home that the JDK's configuration links
// to (Debian links lib/jvm.cfg and conf/* to /etc/java-17-openjdk), which a sandbox
// hiding the host's files must also show the JVM.
func linkedDirs(home string) []string {
	var dirs []string
	for _, sub := range []string{"lib", "conf"} {
		filepath.WalkDir(filepath.Join(home, sub), func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && strings.Count(strings.TrimPrefix(p, home), string(filepath.Separator)) > 3 {
				return filepath.SkipDir
			}
			if d.Type()&os.ModeSymlink == 0 {
				return nil
			}
			t, err := filepath.EvalSymlinks(p)
			if err != nil || strings.HasPrefix(t, home+string(filepath.Separator)) {
				return nil
			}
			dirs = append(dirs, filepath.Dir(t))
			return nil
		})
	}
	sort.Strings(dirs) // parents first
	var out []string
	for _, d := range dirs {
		covered := false
		for _, o := range out {
			if d == o || strings.HasPrefix(d, o+string(filepath.Separator)) {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, d)
		}
	}
	return out
}

// findJDK resolves java and javac from home (a JDK home or its bin dir), else PATH.
func findJDK(home string) (java, javac string, err error) {
	if home != "" {
		for _, bin := range []string{filepath.Join(home, "bin"), home} {
			j, c := filepath.Join(bin, "java"), filepath.Join(bin, "javac")
			if isExec(j) && isExec(c) {
				java, javac = j, c
				break
			}
		}
		if java == "" {
			return "", "", fmt.Errorf("java engine: no java and javac in %s", home)
		}
	} else {
		if java, err = exec.LookPath("java"); err != nil {
			return "", "", fmt.Errorf("java engine: java not found on PATH: %w", err)
		}
		if javac, err = exec.LookPath("javac"); err != nil {
			return "", "", fmt.Errorf("java engine: javac not found on PATH (a JDK is needed): %w", err)
		}
	}
	// resolve /usr/bin/java -> /usr/lib/jvm/.../bin/java, and make both absolute
	for _, p := range []*string{&java, &javac} {
		if r, err := filepath.EvalSymlinks(*p); err == nil {
			*p = r
		}
		if a, err := filepath.Abs(*p); err == nil {
			*p = a
		}
	}
	return java, javac, nil
}

func isExec(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

var compileMu sync.Mutex

// cacheLayout names what compileRunner leaves in its directory; it is part of the
// directory's name, so that a change of the layout (the jar, 2026-11-23) does not
// find an older directory complete. A directory compiled by the code before the jar
// existed, under the same source hash, kept every worker on this machine from the
// class-data sharing archive for a day (found 2026-11-24).
const cacheLayout = "classes+runner.jar"

// compileRunner compiles Runner.java and Pair.java into base/transmute-java-<hash>
// unless already there, and returns that directory (world-readable, since the sandbox
// may run the worker as another user).
func compileRunner(javac, base string) (string, error) {
	dir := filepath.Join(base, "transmute-java-"+execute.Digest(8, runnerSource, pairSource, javac, strings.Join(javacArgs, " "), cacheLayout))
	compileMu.Lock()
	defer compileMu.Unlock()
	// the jar is written last: a directory with it is complete
	if _, err := os.Stat(filepath.Join(dir, runnerJar)); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(base, 0o755); err != nil {
		return "", fmt.Errorf("java engine: %w", err)
	}
	tmp, err := os.MkdirTemp(base, "transmute-java-build-")
	if err != nil {
		return "", fmt.Errorf("java engine: %w", err)
	}
	defer os.RemoveAll(tmp)
	src := filepath.Join(tmp, "src")
	out := filepath.Join(tmp, "classes")
	if err := os.MkdirAll(filepath.Join(src, "javafx", "util"), 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(src, "Runner.java"), []byte(runnerSource), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(src, "javafx", "util", "Pair.java"), []byte(pairSource), 0o644); err != nil {
		return "", err
	}
	args := append(append([]string{}, javacArgs...), "-d", out,
		filepath.Join(src, "Runner.java"), filepath.Join(src, "javafx", "util", "Pair.java"))
	cmd := exec.Command(javac, args...)
	if msg, err := proctree.CombinedOutput(cmd); err != nil {
		return "", fmt.Errorf("java engine: compiling the worker: %v\n%s", err, msg)
	}
	// world-readable, for a sandbox running the worker as an unprivileged user
	err = filepath.Walk(out, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.IsDir() {
			return os.Chmod(p, 0o755)
		}
		return os.Chmod(p, 0o644)
	})
	if err != nil {
		return "", err
	}
	// the same classes as a jar: class-data sharing archives only classes from jars
	if err := writeJar(out, filepath.Join(out, runnerJar)); err != nil {
		return "", fmt.Errorf("java engine: %w", err)
	}
	if err := os.Rename(out, dir); err != nil {
		// another process may have won the race
		if _, serr := os.Stat(filepath.Join(dir, runnerJar)); serr == nil {
			return dir, nil
		}
		return "", fmt.Errorf("java engine: %w", err)
	}
	return dir, nil
}

// Lang returns "java".
func (e *Engine) Lang() string { return "java" }

// Close marks the engine closed (later Run calls fail) and ends the idle workers,
// waiting for them to exit (so that their CPU time is in this process's
// RUSAGE_CHILDREN). A worker still serving a Run is closed when that Run returns it.
// The compiled worker stays cached on disk.
func (e *Engine) Close() error {
	e.mu.Lock()
	e.closed = true
	idle := e.idle
	e.idle = nil
	for _, w := range idle {
		w.pooled = false
		w.timer.Stop()
	}
	e.mu.Unlock()
	var wg sync.WaitGroup
	for _, w := range idle {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.stop()
		}()
	}
	wg.Wait()
	e.mu.Lock()
	for e.stopping > 0 {
		e.cond().Wait()
	}
	e.mu.Unlock()
	return nil
}

// cond returns the condition signalled when a background stop ends; e.mu is held.
func (e *Engine) cond() *sync.Cond {
	if e.stopped == nil {
		e.stopped = sync.NewCond(&e.mu)
	}
	return e.stopped
}

var errClosed = errors.New("java engine: closed")

// worker is a running worker JVM.
type worker struct {
	p     sandbox.Process
	key   string
	lines chan lineOrEnd // its stdout, line by line; closed after the end
	born  time.Time
	jobs  int // jobs given to it
	// pooled, gen (its releases) and timer (the idle expiry) are guarded by the
	// engine's mu
	pooled bool
	gen    int
	timer  *time.Timer
}

// workerSpec is the sandbox spec of a worker for a batch's limits.
func (e *Engine) workerSpec(l sandbox.Limits) sandbox.Spec {
	lim := l.WithDefaults()
	heap := lim.MemoryBytes
	if heap < 64<<20 {
		heap = 64 << 20
	}
	args := jvmFlags(heap)
	cp := e.classDir
	if e.archive != "" {
		args = append(args, "-XX:SharedArchiveFile="+e.archive)
		cp = filepath.Join(e.classDir, runnerJar)
	}
	args = append(args, "-cp", cp, runnerMain)
	return sandbox.Spec{
		Path:     e.java,
		Args:     args,
		ReadOnly: e.readOnly,
		Limits: sandbox.Limits{
			CPUTime:       workerCPU,
			WallTime:      workerWall,
			MemoryBytes:   heap + jvmOverhead,
			MaxProcs:      max(lim.MaxProcs, 64),
			FileSizeBytes: lim.FileSizeBytes,
			OpenFiles:     max(lim.OpenFiles, 64),
			OutputBytes:   lim.OutputBytes,
		},
		NoAddressSpaceLimit: true,
	}
}

// specKey identifies workers that are interchangeable: same arguments, same limits.
func specKey(sp sandbox.Spec) string {
	return fmt.Sprintf("%q %+v", sp.Args, sp.Limits)
}

// acquire takes an idle worker started with spec (the most recently used), or starts
// one. It reports whether the worker was reused.
func (e *Engine) acquire(spec sandbox.Spec) (*worker, bool, error) {
	key := specKey(spec)
	for {
		e.mu.Lock()
		if e.closed {
			e.mu.Unlock()
			return nil, false, errClosed
		}
		var w *worker
		for i := len(e.idle) - 1; i >= 0; i-- {
			if e.idle[i].key == key {
				w = e.idle[i]
				e.idle = append(e.idle[:i], e.idle[i+1:]...)
				w.pooled = false
				w.timer.Stop()
				break
			}
		}
		if w == nil {
			e.mu.Unlock()
			break
		}
		// an idle worker says nothing: anything on its stdout (or its end) unfits it
		select {
		case <-w.lines:
			e.mu.Unlock()
			e.closeAsync(w)
			continue
		default:
		}
		e.stats.Reused++
		e.mu.Unlock()
		w.jobs++
		return w, true, nil
	}
	// a pooled worker must not die with the context of the Run that started it: Run
	// kills it itself when its context ends
	p, err := sandbox.Start(context.Background(), spec)
	if err != nil {
		return nil, false, err
	}
	w := &worker{p: p, key: key, lines: make(chan lineOrEnd, 64), born: time.Now(), jobs: 1}
	go func() {
		r := bufio.NewReaderSize(p.Stdout(), 1<<16)
		for {
			l, err := readLine(r)
			if err != nil {
				w.lines <- lineOrEnd{err: err}
				close(w.lines)
				return
			}
			w.lines <- lineOrEnd{line: l}
		}
	}()
	e.mu.Lock()
	e.stats.Started++
	e.mu.Unlock()
	return w, false, nil
}

// release returns a worker that finished a job to the pool, or closes it when it is
// to retire (it asked, or it is worn) or the engine is closed.
func (e *Engine) release(w *worker, retire bool) {
	if w.jobs >= maxWorkerJobs || time.Since(w.born) > workerWall/2 {
		retire = true
	}
	e.mu.Lock()
	if retire {
		e.stats.Retired++
	}
	if retire || e.closed {
		e.mu.Unlock()
		e.closeAsync(w)
		return
	}
	var evict *worker
	if len(e.idle) >= maxIdle() {
		evict = e.idle[0]
		e.idle = e.idle[1:]
		evict.pooled = false
		evict.timer.Stop()
	}
	w.pooled = true
	e.idle = append(e.idle, w)
	idleFor := workerIdle
	if e.idleTimeout > 0 {
		idleFor = e.idleTimeout
	}
	w.gen++
	gen := w.gen
	w.timer = time.AfterFunc(idleFor, func() { e.expire(w, gen) })
	e.mu.Unlock()
	if evict != nil {
		e.closeAsync(evict)
	}
}

// expire closes a worker that stayed idle for workerIdle since its release number gen.
func (e *Engine) expire(w *worker, gen int) {
	e.mu.Lock()
	if !w.pooled || w.gen != gen {
		e.mu.Unlock()
		return
	}
	for i, x := range e.idle {
		if x == w {
			e.idle = append(e.idle[:i], e.idle[i+1:]...)
			break
		}
	}
	w.pooled = false
	e.stopping++
	e.mu.Unlock()
	w.stop()
	e.stopDone()
}

// closeAsync stops a worker in the background; Close waits for it.
func (e *Engine) closeAsync(w *worker) {
	e.mu.Lock()
	e.stopping++
	e.mu.Unlock()
	go func() {
		w.stop()
		e.stopDone()
	}()
}

func (e *Engine) stopDone() {
	e.mu.Lock()
	e.stopping--
	e.cond().Broadcast()
	e.mu.Unlock()
}

// stop ends a worker between jobs: stdin closed, it exits; killed after closeGrace.
func (w *worker) stop() {
	w.p.Stdin().Close()
	t := time.AfterFunc(closeGrace, w.p.Kill)
	for range w.lines {
	}
	t.Stop()
	w.p.Wait()
}

// kill ends a worker at once and returns how it ended.
func (w *worker) kill() (sandbox.Outcome, error) {
	w.p.Kill()
	for range w.lines {
	}
	return w.p.Wait()
}

// ClassDir is the directory holding the compiled worker (for diagnostics and tests).
func (e *Engine) ClassDir() string { return e.classDir }

type jobCand struct {
	Code    string `json:"code"`
	Imports string `json:"imports"`
	Entry   string `json:"entry"`
	// Cls is the candidate as compiled by an earlier worker of the batch (its "#cls"
	// line: compile error, or methods and class files), so that a worker restarted
	// after a timeout or a crash does not compile it again.
	Cls json.RawMessage `json:"cls,omitempty"`
}

type job struct {
	Params  []string          `json:"params"`
	Returns string            `json:"returns"`
	Tests   []json.RawMessage `json:"tests"`
	Cands   []jobCand         `json:"cands"`
	Start   int               `json:"start"`
	CPUNs   int64             `json:"cpu_ns"`
	OutCap  int64             `json:"out_cap"`
	Stack   int64             `json:"stack"`
	// RetireCPUNs: the worker retires after a job once its process has used this much CPU
	RetireCPUNs int64 `json:"retire_cpu_ns"`
	// ShipClasses asks the worker for a "#cls" line per candidate it compiled.
	ShipClasses bool `json:"ship_classes,omitempty"`
}

// importLine matches an import placed in a candidate's code, which must go before the class.
var importLine = regexp.MustCompile(`^\s*import\s+(static\s+)?[\w.]+(\s*\.\s*\*)?\s*;\s*$`)

// packageLine matches a package declaration, which a candidate class cannot have.
var packageLine = regexp.MustCompile(`^\s*package\s+[\w.]+\s*;\s*$`)

// splitImports moves import lines out of code (a translator may put them there) into
// the imports, and drops package declarations; no line of a method body can start
// with "import" or "package".
func splitImports(code, imports string) (string, string) {
	if !strings.Contains(code, "import") && !strings.Contains(code, "package") {
		return code, imports
	}
	lines := strings.Split(code, "\n")
	var keep, moved []string
	for _, l := range lines {
		if packageLine.MatchString(l) {
			keep = append(keep, "")
			continue
		}
		if importLine.MatchString(l) {
			moved = append(moved, strings.TrimSpace(l))
			keep = append(keep, "") // keep line numbers
			continue
		}
		keep = append(keep, l)
	}
	if len(moved) == 0 {
		return strings.Join(keep, "\n"), imports
	}
	if imports != "" {
		moved = append([]string{imports}, moved...)
	}
	return strings.Join(keep, "\n"), strings.Join(moved, "\n")
}

// limits are the per-test limits of a batch.
type limits struct {
	cpu, wall time.Duration
}

// testLimits reads Batch.Limits as per-test limits: CPUTime is enforced inside the
// worker on the running thread's CPU clock, WallTime by the supervisor (no line within
// it). Defaults: 5 s CPU and twice the CPU limit of wall time.
func testLimits(l sandbox.Limits) limits {
	cpu := l.CPUTime
	if cpu <= 0 {
		cpu = DefaultTestTime
	}
	wall := l.WallTime
	if wall <= 0 {
		wall = 2 * cpu
	}
	if wall < cpu {
		wall = cpu
	}
	return limits{cpu: cpu, wall: wall}
}

// Run runs the batch and returns one Result per candidate, in order.
func (e *Engine) Run(ctx context.Context, b execute.Batch) ([]execute.Result, error) {
	e.mu.Lock()
	closed := e.closed
	e.mu.Unlock()
	if closed {
		return nil, errors.New("java engine: closed")
	}
	coll := execute.NewCollector(b)
	if len(b.Candidates) == 0 {
		return coll.Finish(schemas.StatusInfraError, ""), nil
	}
	tl := testLimits(b.Limits)
	j := job{Returns: b.Returns, CPUNs: int64(tl.cpu), OutCap: b.Limits.WithDefaults().OutputBytes, Stack: stackBytes,
		RetireCPUNs: int64(workerCPU / 2)}
	for _, p := range b.Params {
		j.Params = append(j.Params, p.Type)
	}
	badArgs := map[int]bool{} // tests whose arguments are not a JSON array
	for i, t := range b.Tests {
		args := strings.TrimSpace(t.Args)
		if args == "" {
			args = "[]"
		}
		if !json.Valid([]byte(args)) || args[0] != '[' {
			badArgs[i] = true
			args = "[]"
		}
		j.Tests = append(j.Tests, json.RawMessage(args))
	}
	for _, c := range b.Candidates {
		code, imports := splitImports(c.Code, c.Imports)
		j.Cands = append(j.Cands, jobCand{Code: code, Imports: imports, Entry: c.Entry})
	}
	s := &session{e: e, b: b, coll: coll, tl: tl, job: j, spec: e.workerSpec(b.Limits),
		done: make([]bool, len(b.Candidates)), crashed: map[int]string{}}
	infra := 0
	var lastInfra string
	for s.start < len(b.Candidates) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		progressed, reason, err := s.runWorker(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if errors.Is(err, errClosed) {
				return nil, err
			}
			progressed, reason = false, err.Error()
		}
		if !progressed {
			infra++
			lastInfra = reason
			if infra >= maxInfraRestarts {
				for i := s.start; i < len(b.Candidates); i++ {
					if !s.done[i] {
						coll.MarkRest(i, schemas.StatusInfraError, "java worker failed: "+reason)
						coll.Results[i].Detail = "java worker failed " + strconv.Itoa(infra) + " times: " + reason
					}
				}
				break
			}
		}
	}
	res := coll.Finish(schemas.StatusInfraError, "java worker failed: "+lastInfra)
	for i := range res {
		r := &res[i]
		// a malformed test is the harness's fault: infra_error on that test only (the
		// worker ran it with no arguments, which raised)
		for k := range badArgs {
			if tr := &r.Tests[k]; tr.Status == schemas.StatusRuntimeError {
				tr.Status, tr.Output, tr.Error = schemas.StatusInfraError, "", "test arguments are not a JSON array"
			}
		}
		for _, t := range r.Tests {
			r.CPUTime += t.CPUTime
			r.WallTime += t.WallTime
		}
		if msg, ok := s.crashed[i]; ok && r.Status == schemas.StatusOK {
			// the worker died in this candidate: not a clean run even though the
			// collector counts runtime errors as run
			r.Status, r.Detail = schemas.StatusRuntimeError, msg
		}
		if r.Status == schemas.StatusOK && r.Detail != "" {
			r.Detail = ""
		}
	}
	return res, nil
}

// session is one batch's run, across worker restarts.
type session struct {
	e     *Engine
	b     execute.Batch
	coll  *execute.Collector
	tl    limits
	job   job
	spec  sandbox.Spec // of the batch's workers
	start int          // first candidate the next worker runs
	done  []bool       // candidate finished (done line, or marked by the supervisor)
	// crashed holds the candidates during which the worker died, with the reason
	crashed map[int]string
}

type lineOrEnd struct {
	line []byte
	err  error // set (io.EOF or another) when the stream ended
}

// runWorker sends the job for candidates s.start.. to a worker (an idle one, or a new
// one), feeds its lines to the collector and handles the job's end: the worker's
// "#end" line (it goes back to the pool) or its death. It reports whether any
// candidate was finished (progress) and, when not, why.
func (s *session) runWorker(ctx context.Context) (progressed bool, reason string, err error) {
	n := len(s.b.Candidates)
	remaining := n - s.start
	s.job.Start = s.start
	// a restart can only come when a candidate is left after the one running
	s.job.ShipClasses = remaining > 1
	shipped := 0
	for _, c := range s.job.Cands[s.start:] {
		if c.Cls != nil {
			shipped++
		}
	}
	if shipped > 0 {
		s.e.mu.Lock()
		s.e.stats.Shipped += shipped
		s.e.mu.Unlock()
	}
	input, err := json.Marshal(s.job)
	if err != nil {
		return false, "", fmt.Errorf("java engine: encoding the job: %w", err)
	}
	input = append(input, '\n') // one line: json.Marshal escapes newlines in strings
	// the compile budget covers a fresh JVM's start too
	compileBudget := compileBase + time.Duration(remaining)*compilePerCandidate
	w, _, err := s.e.acquire(s.spec)
	if err != nil {
		if errors.Is(err, errClosed) {
			return false, "", err
		}
		return false, "starting the JVM: " + err.Error(), nil
	}
	wrote := make(chan error, 1)
	go func() {
		// a dead worker's pipe fails the write; its end is seen through stdout
		_, err := w.p.Stdin().Write(input)
		wrote <- err
	}()

	compiled := 0 // compile lines received
	needCompiled := remaining
	cur := -1                     // candidate whose tests are running
	var lastStatus schemas.Status // status of the last test line of cur
	timer := time.NewTimer(compileBudget)
	defer timer.Stop()
	// ended handles the worker's death (o is how it ended)
	ended := func(o sandbox.Outcome, werr error) (bool, string, error) {
		if s.allDone() {
			s.start = n
			return true, "", nil
		}
		if werr != nil {
			return progressed, "waiting for the worker: " + werr.Error(), nil
		}
		if compiled < needCompiled {
			return progressed, "the worker died while compiling: " + describeEnd(o), nil
		}
		c := s.current(cur)
		if c < 0 {
			return progressed, "the worker died between candidates: " + describeEnd(o), nil
		}
		status, msg := endStatus(o, lastStatus, c == cur)
		s.markCurrent(c, status, msg)
		if status == schemas.StatusRuntimeError {
			s.crashed[c] = msg
		}
		return true, "", nil
	}

	for {
		select {
		case <-ctx.Done():
			w.kill()
			return progressed, "cancelled", ctx.Err()
		case <-timer.C:
			o, _ := w.kill()
			if compiled < needCompiled {
				return progressed, fmt.Sprintf("the worker did not compile the batch within %v (%s)", compileBudget, describeEnd(o)), nil
			}
			c := s.current(cur)
			if c < 0 {
				return progressed, "the worker stalled between candidates", nil
			}
			msg := fmt.Sprintf("no result within %v (wall time)", s.tl.wall)
			s.markCurrent(c, schemas.StatusTimeout, msg)
			return true, "", nil
		case le, ok := <-w.lines:
			if !ok || le.err != nil {
				o, werr := w.kill() // reaps it (it has ended)
				return ended(o, werr)
			}
			l := le.line
			if bytes.HasPrefix(l, []byte("#end")) {
				if !s.allDone() {
					// the job ended early: the worker is broken
					o, werr := w.kill()
					return ended(o, werr)
				}
				s.start = n
				retire := bytes.HasPrefix(l, []byte("#end retire"))
				if werr := <-wrote; werr != nil {
					retire = true
				}
				s.e.release(w, retire)
				return true, "", nil
			}
			if bytes.HasPrefix(l, []byte("#cls ")) {
				s.keepClasses(l[len("#cls "):])
				continue
			}
			if len(l) == 0 || l[0] != '{' {
				continue
			}
			var pl execute.Line
			if json.Unmarshal(l, &pl) != nil || pl.C < 0 || pl.C >= n {
				continue
			}
			s.coll.Feed(l)
			switch {
			case pl.Compile != "":
				compiled++
				if pl.Compile == "error" {
					s.done[pl.C] = true
					progressed = true
				}
			case pl.T != nil:
				if pl.C != cur {
					cur, lastStatus = pl.C, ""
				}
				lastStatus = schemas.Status(pl.S)
				if pl.S == string(schemas.StatusTimeout) {
					// the worker stopped the test (Runner.Tick) and goes on with the next
					// candidate: the candidate's other tests are marked as after a restart
					s.coll.MarkRest(pl.C, schemas.StatusTimeout, timeoutMsg)
					if r := &s.coll.Results[pl.C]; r.Detail == "" {
						r.Detail = timeoutMsg
					}
				}
			case pl.Done:
				s.done[pl.C] = true
				progressed = true
				if pl.C >= s.start {
					s.start = pl.C + 1
				}
			}
			if compiled >= needCompiled {
				resetTimer(timer, s.tl.wall)
			}
		}
	}
}

// keepClasses stores a "#cls <index> <json>" payload for the batch's later workers.
func (s *session) keepClasses(l []byte) {
	idx, rest, ok := bytes.Cut(l, []byte(" "))
	if !ok {
		return
	}
	i, err := strconv.Atoi(string(idx))
	if err != nil || i < 0 || i >= len(s.job.Cands) || !json.Valid(rest) {
		return
	}
	s.job.Cands[i].Cls = append(json.RawMessage(nil), rest...)
}

// readLine reads one line of any length.
func readLine(r *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, isPrefix, err := r.ReadLine()
		if err != nil {
			return nil, err
		}
		buf = append(buf, chunk...)
		if !isPrefix {
			return buf, nil
		}
	}
}

func resetTimer(t *time.Timer, d time.Duration) {
	if !t.Stop() {
		select {
		case <-t.C:
		default:
		}
	}
	t.Reset(d)
}

// current is the candidate that was running when the worker stopped: the first one
// from s.start not finished.
func (s *session) current(cur int) int {
	if cur >= s.start && cur < len(s.done) && !s.done[cur] {
		return cur
	}
	for i := s.start; i < len(s.done); i++ {
		if !s.done[i] {
			return i
		}
	}
	return -1
}

// markCurrent gives the not-run tests of candidate c the status, marks it finished
// and moves the start past it.
func (s *session) markCurrent(c int, status schemas.Status, msg string) {
	s.coll.MarkRest(c, status, msg)
	r := &s.coll.Results[c]
	if r.Detail == "" {
		r.Detail = msg
	}
	s.done[c] = true
	s.start = c + 1
}

func (s *session) allDone() bool {
	for i := s.start; i < len(s.done); i++ {
		if !s.done[i] {
			return false
		}
	}
	return true
}

// endStatus maps how a worker ended in the middle of a candidate to a test status.
// When the worker itself reported the test (the CPU watchdog's timeout line) the rest
// of the candidate's tests get that status.
// timeoutMsg is the error of the tests of a candidate after the one that used up its
// CPU time.
const timeoutMsg = "CPU time limit exceeded"

func endStatus(o sandbox.Outcome, lastStatus schemas.Status, sawTests bool) (schemas.Status, string) {
	if sawTests && (lastStatus == schemas.StatusTimeout || lastStatus == schemas.StatusMemoryLimit) {
		if lastStatus == schemas.StatusTimeout {
			return schemas.StatusTimeout, timeoutMsg
		}
		return schemas.StatusMemoryLimit, "memory limit exceeded"
	}
	switch {
	case o.Stopped:
		// the sandbox kills a tree with a stopped process at once (a stop signal)
		return schemas.StatusTimeout, "the JVM was stopped by a signal: killed"
	case o.MemoryExceeded:
		return schemas.StatusMemoryLimit, "memory limit exceeded (" + describeEnd(o) + ")"
	case o.CPUTimeout || o.WallTimeout:
		return schemas.StatusTimeout, "the worker's time limit was reached (" + describeEnd(o) + ")"
	}
	return schemas.StatusRuntimeError, "the JVM died: " + describeEnd(o)
}

// describeEnd says how a worker ended, with the tail of its stderr.
func describeEnd(o sandbox.Outcome) string {
	var d string
	if o.Signal != "" {
		d = "signal " + o.Signal
	} else {
		d = "exit code " + strconv.Itoa(o.ExitCode)
	}
	if tail := stderrTail(o.Stderr); tail != "" {
		d += ": " + tail
	}
	return d
}

func stderrTail(b []byte) string {
	var keep []string
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		// the JDK's warning about the security manager is expected
		if l == "" || strings.HasPrefix(l, "WARNING:") {
			continue
		}
		keep = append(keep, l)
	}
	s := strings.Join(keep, " | ")
	if len(s) > 500 {
		s = s[len(s)-500:]
	}
	return s
}
