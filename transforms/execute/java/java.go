// Package java is Transmute's Java execution engine, registered as "java".
//
// One worker JVM runs a whole batch: it compiles every candidate in memory with
// javax.tools (each as its own class C<i>, with its own compile status), loads each in
// its own class loader, converts the tests' JSON arguments to the entry method's actual
// parameter types by reflection and prints the runner protocol (execute.Line) on
// stdout. The Go side supervises it: when no line arrives within a test's time limit,
// or the worker dies, it kills the JVM, marks the current test (and the rest of that
// candidate's tests) and resumes with a fresh worker from the next candidate.
//
// The worker (Runner.java) and a stub of javafx.util.Pair, which benchmark Java code
// imports and JDK 17 lacks, are compiled once into a cache directory keyed by a hash
// of their source.
package java

import (
	"bufio"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/sandbox"
)

//go:embed Runner.java
var runnerSource string

//go:embed Pair.java
var pairSource string

const (
	runnerMain      = "transmute.runner.Runner"
	runnerClassFile = "transmute/runner/Runner.class"
)

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
)

// Engine runs Java batches. It is safe for concurrent use.
type Engine struct {
	java     string // absolute path of the java launcher
	javaHome string // the JDK's home, for sandboxes that hide host files
	classDir string // compiled Runner and Pair
	readOnly []string

	mu     sync.Mutex
	closed bool
}

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
	home := filepath.Dir(filepath.Dir(java))
	ro := append([]string{dir, home}, linkedDirs(home)...)
	return &Engine{java: java, javaHome: home, classDir: dir, readOnly: ro}, nil
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

// compileRunner compiles Runner.java and Pair.java into base/transmute-java-<hash>
// unless already there, and returns that directory (world-readable, since the sandbox
// may run the worker as another user).
func compileRunner(javac, base string) (string, error) {
	h := sha256.New()
	io.WriteString(h, runnerSource)
	io.WriteString(h, "\x00")
	io.WriteString(h, pairSource)
	io.WriteString(h, "\x00"+javac)
	dir := filepath.Join(base, "transmute-java-"+hex.EncodeToString(h.Sum(nil))[:16])
	compileMu.Lock()
	defer compileMu.Unlock()
	if _, err := os.Stat(filepath.Join(dir, runnerClassFile)); err == nil {
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
	cmd := exec.Command(javac, "-nowarn", "-encoding", "UTF-8", "-d", out,
		filepath.Join(src, "Runner.java"), filepath.Join(src, "javafx", "util", "Pair.java"))
	if msg, err := cmd.CombinedOutput(); err != nil {
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
	if err := os.Rename(out, dir); err != nil {
		// another process may have won the race
		if _, serr := os.Stat(filepath.Join(dir, runnerClassFile)); serr == nil {
			return dir, nil
		}
		return "", fmt.Errorf("java engine: %w", err)
	}
	return dir, nil
}

// Lang returns "java".
func (e *Engine) Lang() string { return "java" }

// Close marks the engine closed; workers live only during Run, so there is nothing
// else to release (the compiled worker stays cached on disk).
func (e *Engine) Close() error {
	e.mu.Lock()
	e.closed = true
	e.mu.Unlock()
	return nil
}

// ClassDir is the directory holding the compiled worker (for diagnostics and tests).
func (e *Engine) ClassDir() string { return e.classDir }

type jobCand struct {
	Code    string `json:"code"`
	Imports string `json:"imports"`
	Entry   string `json:"entry"`
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
	j := job{Returns: b.Returns, CPUNs: int64(tl.cpu), OutCap: b.Limits.WithDefaults().OutputBytes, Stack: stackBytes}
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
	s := &session{e: e, b: b, coll: coll, tl: tl, job: j, done: make([]bool, len(b.Candidates)),
		crashed: map[int]string{}}
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
	start int    // first candidate the next worker runs
	done  []bool // candidate finished (done line, or marked by the supervisor)
	// crashed holds the candidates during which the worker died, with the reason
	crashed map[int]string
}

type lineOrEnd struct {
	line []byte
	err  error // set (io.EOF or another) when the stream ended
}

// runWorker starts a worker for candidates s.start.., feeds its lines to the
// collector and handles its end. It reports whether any candidate was finished
// (progress) and, when not, why.
func (s *session) runWorker(ctx context.Context) (progressed bool, reason string, err error) {
	n := len(s.b.Candidates)
	remaining := n - s.start
	s.job.Start = s.start
	input, err := json.Marshal(s.job)
	if err != nil {
		return false, "", fmt.Errorf("java engine: encoding the job: %w", err)
	}
	lim := s.b.Limits.WithDefaults()
	compileBudget := compileBase + time.Duration(remaining)*compilePerCandidate
	runBudget := time.Duration(remaining*max(1, len(s.b.Tests))) * (s.tl.wall + 50*time.Millisecond)
	heap := lim.MemoryBytes
	if heap < 64<<20 {
		heap = 64 << 20
	}
	spec := sandbox.Spec{
		Path: s.e.java,
		Args: []string{
			"-Xshare:auto", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1",
			"-XX:-UsePerfData", "-XX:+UseCompressedOops", "-Xss8m",
			"-Xmx" + strconv.FormatInt(heap>>20, 10) + "m", "-Xms32m",
			"-XX:MaxMetaspaceSize=256m", "-XX:ReservedCodeCacheSize=64m",
			"-XX:ErrorFile=/dev/null", "-Djava.security.manager=allow", "-Dfile.encoding=UTF-8",
			"-cp", s.e.classDir, runnerMain,
		},
		ReadOnly: s.e.readOnly,
		Limits: sandbox.Limits{
			CPUTime:       compileBudget + runBudget,
			WallTime:      compileBudget + runBudget + 10*time.Second,
			MemoryBytes:   heap + jvmOverhead,
			MaxProcs:      max(lim.MaxProcs, 64),
			FileSizeBytes: lim.FileSizeBytes,
			OpenFiles:     max(lim.OpenFiles, 64),
			OutputBytes:   lim.OutputBytes,
		},
		NoAddressSpaceLimit: true,
	}
	p, err := sandbox.Start(ctx, spec)
	if err != nil {
		return false, "starting the JVM: " + err.Error(), nil
	}
	go func() {
		// a closed pipe (the worker died) is seen through stdout's end
		p.Stdin().Write(input)
		p.Stdin().Close()
	}()
	lines := make(chan lineOrEnd, 64)
	go func() {
		r := bufio.NewReaderSize(p.Stdout(), 1<<16)
		for {
			l, err := readLine(r)
			if err != nil {
				lines <- lineOrEnd{err: err}
				close(lines)
				return
			}
			lines <- lineOrEnd{line: l}
		}
	}()

	compiled := 0 // compile lines received
	needCompiled := remaining
	cur := -1        // candidate whose tests are running
	lastStatus := "" // status of the last test line of cur
	timer := time.NewTimer(compileBudget)
	defer timer.Stop()
	finish := func() (sandbox.Outcome, error) {
		p.Kill()
		// drain so that the reader goroutine ends
		for range lines {
		}
		return p.Wait()
	}

	for {
		select {
		case <-ctx.Done():
			finish()
			return progressed, "cancelled", ctx.Err()
		case <-timer.C:
			o, _ := finish()
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
		case le, ok := <-lines:
			if !ok || le.err != nil {
				o, werr := p.Wait()
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
			l := le.line
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
				lastStatus = pl.S
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
func (s *session) markCurrent(c int, status, msg string) {
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
func endStatus(o sandbox.Outcome, lastStatus string, sawTests bool) (string, string) {
	if sawTests && (lastStatus == schemas.StatusTimeout || lastStatus == schemas.StatusMemoryLimit) {
		if lastStatus == schemas.StatusTimeout {
			return schemas.StatusTimeout, "CPU time limit exceeded"
		}
		return schemas.StatusMemoryLimit, "memory limit exceeded"
	}
	switch {
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
