package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"transmute/internal/proctree"
)

// capWriter keeps the first limit bytes written to it and drops the rest.
type capWriter struct {
	buf       bytes.Buffer
	limit     int64
	truncated bool
}

func (w *capWriter) Write(p []byte) (int, error) {
	room := w.limit - int64(w.buf.Len())
	if room <= 0 {
		w.truncated = true
		return len(p), nil
	}
	if int64(len(p)) > room {
		w.buf.Write(p[:room])
		w.truncated = true
		return len(p), nil
	}
	return w.buf.Write(p)
}

// launch is one sandboxed process tree being started, run and torn down.
type launch struct {
	cmd       *exec.Cmd
	caps      *caps
	cg        *cgroup
	cfg       initConfig
	limits    Limits
	cfgW      *os.File
	statusR   *os.File
	status    *bufio.Reader
	cleanup   func() // removes a WorkDir the sandbox created
	start     time.Time
	targetPid int
	backstop  *time.Timer
	killed    bool   // the parent killed the tree (backstop timer, stop watchdog)
	stopped   bool   // killed because a process of the tree stayed stopped
	endWatch  func() // ends the stop watchdog (stopped.go)
	release   func() // untracks the init (proctree) once it has been waited for
	poolUID   int    // the uid leased for this run alone; 0 when shared or none
	ownDir    string // the WorkDir the sandbox created, "" when the caller gave one
	mu        sync.Mutex
	done      bool
}

// buildEnv returns the target's complete environment: PATH, HOME, TMPDIR, LANG,
// then Spec.Env (which overrides them); nothing of the parent's.
func buildEnv(s *Spec) []string {
	env := []string{
		"PATH=/usr/local/bin:/usr/bin:/bin",
		"HOME=" + s.WorkDir,
		"TMPDIR=" + s.WorkDir,
		"LANG=C.UTF-8",
	}
	idx := map[string]int{}
	for i, kv := range env {
		idx[strings.SplitN(kv, "=", 2)[0]] = i
	}
	for _, kv := range s.Env {
		k := strings.SplitN(kv, "=", 2)[0]
		if i, ok := idx[k]; ok {
			env[i] = kv
			continue
		}
		idx[k] = len(env)
		env = append(env, kv)
	}
	return env
}

// prepare resolves the spec, creates the WorkDir and cgroups, and builds the
// command (not yet started).
func prepare(s Spec) (*launch, error) {
	l := s.Limits.WithDefaults()
	s.Limits = l
	c := detect()
	lc := &launch{caps: c, limits: l, cleanup: func() {}, release: func() {}}
	if s.WorkDir == "" {
		sweepAtStart() // directories of killed runs (sweep.go)
		d, err := newWorkDir("")
		if err != nil {
			return nil, err
		}
		s.WorkDir = d
		lc.ownDir = d
		lc.cleanup = func() { os.RemoveAll(d) }
	} else {
		d, err := filepath.Abs(s.WorkDir)
		if err != nil {
			return nil, err
		}
		s.WorkDir = d
	}
	if !strings.Contains(s.Path, "/") {
		if p, err := exec.LookPath(s.Path); err == nil {
			s.Path = p
		}
	}
	if p, err := filepath.Abs(s.Path); err == nil {
		s.Path = p
	}
	if !c.uidDrop {
		hideParent()
	}
	if c.legacy {
		return prepareLegacy(lc, s)
	}
	ro := make([]string, 0, len(s.ReadOnly))
	for _, p := range s.ReadOnly {
		a, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		if _, err := os.Stat(a); err != nil {
			continue // nothing to expose
		}
		ro = append(ro, a)
	}
	uid, gid := sandboxUID, sandboxGID
	if c.uidDrop {
		var release func()
		uid, gid, release = leaseSandboxUID(c)
		if uid != sandboxUID {
			lc.poolUID = uid
		}
		removeDir := lc.cleanup
		// Given back only when the tree has ended (every path calls cleanup
		// last); release kills any process of the uid that is still left.
		lc.cleanup = func() { removeDir(); release() }
		if err := chownTree(s.WorkDir, uid, gid); err != nil {
			lc.cleanup()
			return nil, fmt.Errorf("sandbox: hand WorkDir to uid %d: %w", uid, err)
		}
		for _, p := range ro {
			makeWorldReadable(p)
		}
		if !under(s.Path, s.WorkDir) {
			makeWorldReadable(s.Path)
		}
	}
	goStage := !s.NoAddressSpaceLimit && c.prlimit == "" // see initMain
	lc.cg = &cgroup{}
	if c.cgroupMemory || c.cgroupPids {
		owner := -1
		if c.uidDrop {
			owner = uid
		}
		lc.cg = newCgroup(l, goStage, owner)
	}
	nproc := 0
	if c.uidDrop {
		// RLIMIT_NPROC counts every process of the uid: exact with a uid per
		// sandbox (uidpool.go), shared by all sandboxes when they all run as
		// nobody; the pids cgroup, when present, is exact either way.
		nproc = l.MaxProcs
		if lc.cg.pids != "" {
			nproc = nprocBackstp
		}
	}
	lc.cfg = initConfig{
		Path:     s.Path,
		Args:     s.Args,
		Env:      buildEnv(&s),
		Dir:      s.WorkDir,
		ReadOnly: ro,
		Limits:   l,
		NoAS:     s.NoAddressSpaceLimit,
		NPROC:    nproc,
		Prlimit:  c.prlimit,
		MountNS:  c.mountNS,
		PIDNS:    c.pidNS,
		UTSNS:    c.utsNS,
		DropUID:  c.uidDrop,
		UID:      uid,
		GID:      gid,
		Seccomp:  c.seccomp,

		RTPriority: s.RealTimePriority,
	}
	if goStage {
		lc.cfg.JoinProcs = lc.cg.joinFiles("cgroup.procs")
	} else {
		lc.cfg.JoinTasks = lc.cg.joinFiles("tasks")
	}
	var ids []int
	if c.uidDrop {
		ids = []int{uid}
	}
	cmd, cfgW, statusR, err := c.initCommand("run", ids...)
	if err != nil {
		lc.cg.remove()
		lc.cleanup()
		return nil, err
	}
	lc.cmd, lc.cfgW, lc.statusR = cmd, cfgW, statusR
	lc.status = bufio.NewReader(statusR)
	return lc, nil
}

// hideParent makes this process non-dumpable, so that a program running as
// the same user (no uid drop here) cannot read its /proc files (environ, mem,
// fds). Core dumps and same-user ptrace of this process are disabled with it.
func hideParent() {
	unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
}

// HandBack gives dir and everything in it back to this process's user after a run
// that wrote there as a leased uid (a build's work directory that a later run will
// read): a later sandbox that leases the same uid can then not change it. Only root
// hands directories over.
func HandBack(dir string) error {
	if os.Getuid() != 0 {
		return nil
	}
	return chownTree(dir, 0, os.Getgid())
}

// chownTree hands dir and everything in it to the sandbox's user.
func chownTree(dir string, uid, gid int) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, gid)
	})
}

// makeWorldReadable adds read (and search/execute where the owner has it)
// permission for others to p itself, so that the unprivileged sandbox user can
// use a ReadOnly path or an executable outside WorkDir.
func makeWorldReadable(p string) {
	st, err := os.Stat(p)
	if err != nil {
		return
	}
	m := st.Mode().Perm()
	want := m | 0o004
	if st.IsDir() || m&0o100 != 0 {
		want |= 0o001
	}
	if want != m {
		os.Chmod(p, want|st.Mode()&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky))
	}
}

// abort releases what prepare acquired, when the init was never started.
func (lc *launch) abort() {
	if lc.cfgW != nil {
		lc.cfgW.Close()
	}
	if lc.statusR != nil {
		lc.statusR.Close()
	}
	for _, f := range lc.cmd.ExtraFiles {
		f.Close()
	}
	if lc.cg != nil {
		lc.cg.remove()
	}
	lc.cleanup()
}

// begin starts the init, hands it the config and waits for the target to start.
func (lc *launch) begin() error {
	lc.start = time.Now()
	if lc.caps.legacy {
		if err := lc.startTracked(); err != nil {
			lc.cleanup()
			return fmt.Errorf("sandbox: start %s: %w", lc.cfg.Path, err)
		}
		lc.targetPid = lc.cmd.Process.Pid
		lc.backstop = time.AfterFunc(lc.limits.WallTime, func() { lc.kill(true) })
		lc.endWatch = watchStops(lc.cmd.Process.Pid, lc.killStopped)
		return nil
	}
	err := lc.startTracked()
	for _, f := range lc.cmd.ExtraFiles {
		f.Close()
	}
	if err != nil {
		lc.cfgW.Close()
		lc.statusR.Close()
		lc.cg.remove()
		lc.cleanup()
		return fmt.Errorf("sandbox: start init: %w", err)
	}
	b, _ := json.Marshal(lc.cfg)
	_, werr := lc.cfgW.Write(b)
	lc.cfgW.Close()
	var st initStatus
	line, rerr := lc.status.ReadBytes('\n')
	if werr == nil && rerr == nil {
		rerr = json.Unmarshal(line, &st)
	}
	if werr != nil || rerr != nil || !st.Started {
		syscall.Kill(-lc.cmd.Process.Pid, syscall.SIGKILL)
		lc.cmd.Wait()
		lc.release()
		lc.statusR.Close()
		lc.cg.remove()
		lc.cleanup()
		switch {
		case st.Err != "":
			return fmt.Errorf("sandbox: %s", st.Err)
		case werr != nil:
			return fmt.Errorf("sandbox: send config: %w", werr)
		default:
			return fmt.Errorf("sandbox: init failed to report: %v", rerr)
		}
	}
	lc.targetPid = st.TargetPid
	// The init enforces the wall time itself (so it can report the tree's CPU
	// time); this is the backstop in case it cannot.
	lc.backstop = time.AfterFunc(lc.limits.WallTime+time.Second, func() { lc.kill(true) })
	lc.endWatch = watchStops(lc.cmd.Process.Pid, lc.killStopped)
	return nil
}

// startTracked starts the command through proctree, so that the process's
// shutdown (proctree.KillAll: the launcher on SIGINT or SIGTERM) ends the tree.
func (lc *launch) startTracked() error {
	release, err := proctree.StartWith(lc.cmd, lc.shutdown)
	lc.release = release
	return err
}

// shutdown ends the tree for good when the whole process stops: besides kill,
// every process left of the run's own uid (a fork the target made in a process
// group of its own, which outlives the init without a PID namespace), and the
// WorkDir the sandbox made: a pooled worker is never waited for when the
// process exits, so its cleanup would not run.
func (lc *launch) shutdown() {
	lc.kill(false)
	if lc.poolUID > 0 {
		killLiveUID(lc.poolUID)
	}
	if lc.ownDir != "" {
		os.RemoveAll(lc.ownDir)
	}
}

// kill ends the whole tree at once.
func (lc *launch) kill(byTimer bool) {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	if lc.done {
		return
	}
	if byTimer {
		lc.killed = true
	}
	if lc.caps.pidNS {
		// The namespace dies with its init; Process.Kill signals through a
		// pidfd, immune to pid reuse.
		lc.cmd.Process.Kill()
	} else {
		syscall.Kill(-lc.cmd.Process.Pid, syscall.SIGKILL) // the init's (legacy: the program's) group
		if lc.targetPid > 0 && !lc.caps.legacy {
			syscall.Kill(-lc.targetPid, syscall.SIGKILL)
		}
	}
	if lc.cg != nil {
		lc.cg.kill()
	}
}

// killStopped ends the tree for the stop watchdog: as at the wall time, since a
// stopped program would have run it out.
func (lc *launch) killStopped() {
	lc.mu.Lock()
	live := !lc.done
	lc.stopped = lc.stopped || live
	lc.mu.Unlock()
	if live {
		lc.kill(true)
	}
}

// finish collects the outcome after cmd.Wait returned werr, and tears down.
func (lc *launch) finish(werr error) (Outcome, error) {
	wall := time.Since(lc.start)
	lc.backstop.Stop()
	lc.endWatch()
	if lc.caps.legacy {
		lc.kill(false) // stragglers left in the process group
	}
	lc.mu.Lock()
	lc.done = true
	stopped := lc.stopped
	lc.mu.Unlock()
	lc.release()
	defer lc.cleanup()
	o := Outcome{WallTime: wall, Stopped: stopped}
	var st initStatus
	if lc.status != nil {
		for {
			line, err := lc.status.ReadBytes('\n')
			if len(line) > 0 {
				var s initStatus
				if json.Unmarshal(line, &s) == nil && s.Done {
					st = s
				}
			}
			if err != nil {
				break
			}
		}
		lc.statusR.Close()
	}
	var peakKB int64
	if lc.cg != nil {
		o.MemoryExceeded = lc.cg.oomKilled()
		peakKB = lc.cg.peakKB()
		lc.cg.remove()
	}
	var ws syscall.WaitStatus
	if st.Done {
		ws = syscall.WaitStatus(st.WaitStatus)
		o.CPUTime = time.Duration(st.UserNS + st.SysNS)
		o.MaxRSSKB = st.MaxRSSKB
		o.WallTimeout = st.WallTimeout || lc.killed
	} else if ps := lc.cmd.ProcessState; ps != nil {
		ws = ps.Sys().(syscall.WaitStatus)
		o.CPUTime = ps.UserTime() + ps.SystemTime()
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			o.MaxRSSKB = ru.Maxrss
		}
		o.WallTimeout = lc.killed
	}
	// A child forked with vfork inherits its parent's peak RSS at exec: the
	// rusage figure is at least the init's own (tens of MB for a large main
	// binary). The memory cgroup's peak, charged only by the program's tree,
	// is the tighter bound when there is one.
	if peakKB > 0 && peakKB < o.MaxRSSKB {
		o.MaxRSSKB = peakKB
	}
	if ws.Signaled() {
		o.ExitCode = -1
		o.Signal = ws.Signal().String()
		// The init kills at the CPU limit and says so; RLIMIT_CPU (whole seconds; in
		// the legacy mode the limit itself) kills with SIGKILL, and counts ticks, which
		// can be above the CPU rusage reads, hence the margin.
		cpuLimit := time.Duration(rlimitCPU(lc.limits)) * time.Second
		if lc.caps.legacy {
			cpuLimit = (lc.limits.CPUTime + time.Second - 1) / time.Second * time.Second
		}
		o.CPUTimeout = st.CPUTimeout || ws.Signal() == syscall.SIGXCPU ||
			(ws.Signal() == syscall.SIGKILL && !o.WallTimeout && !o.MemoryExceeded && o.CPUTime >= cpuLimit*8/10)
	} else {
		o.ExitCode = ws.ExitStatus()
	}
	var ee *exec.ExitError
	if werr != nil && !errors.As(werr, &ee) && !errors.Is(werr, exec.ErrWaitDelay) {
		return o, fmt.Errorf("sandbox: wait: %w", werr)
	}
	return o, nil
}

// Run runs the program to its end with stdin as input.
func Run(ctx context.Context, s Spec, stdin []byte) (Outcome, error) {
	lc, err := prepare(s)
	if err != nil {
		return Outcome{}, err
	}
	l := lc.limits
	out := &capWriter{limit: l.OutputBytes}
	errw := &capWriter{limit: l.OutputBytes}
	lc.cmd.Stdout, lc.cmd.Stderr = out, errw
	if stdin != nil {
		lc.cmd.Stdin = bytes.NewReader(stdin)
	}
	if err := lc.begin(); err != nil {
		return Outcome{}, err
	}
	stop := context.AfterFunc(ctx, func() { lc.kill(false) })
	werr := lc.cmd.Wait()
	stop()
	o, err := lc.finish(werr)
	o.Stdout, o.Stderr = out.buf.Bytes(), errw.buf.Bytes()
	o.StdoutTruncated, o.StderrTruncated = out.truncated, errw.truncated
	if err != nil {
		return o, err
	}
	return o, ctx.Err()
}

type process struct {
	lc     *launch
	stdin  io.WriteCloser
	stdout io.Reader
	stderr *capWriter
	once   sync.Once
	out    Outcome
	err    error
	stop   func() bool
}

// Start starts a long-running sandboxed worker with pipes. The wall-time limit
// applies to the worker's whole life.
func Start(ctx context.Context, s Spec) (Process, error) {
	lc, err := prepare(s)
	if err != nil {
		return nil, err
	}
	p := &process{lc: lc, stderr: &capWriter{limit: lc.limits.OutputBytes}}
	lc.cmd.Stderr = p.stderr
	if p.stdin, err = lc.cmd.StdinPipe(); err == nil {
		p.stdout, err = lc.cmd.StdoutPipe()
	}
	if err != nil {
		lc.abort()
		return nil, err
	}
	if err := lc.begin(); err != nil {
		return nil, err
	}
	p.stop = context.AfterFunc(ctx, p.Kill)
	return p, nil
}

func (p *process) Stdin() io.WriteCloser { return p.stdin }
func (p *process) Stdout() io.Reader     { return p.stdout }

// Pid is the host pid of the sandbox's top process (the init when namespaces
// are used); killing its process group ends the tree.
func (p *process) Pid() int { return p.lc.cmd.Process.Pid }
func (p *process) Kill()    { p.lc.kill(false) }

// OOMKills is the number of OOM kills in the worker's memory cgroup so far (0 without
// one): an engine that forks a child per candidate inside the worker tells a child
// killed for memory from one killed otherwise (see OOMCounter).
func (p *process) OOMKills() int {
	if p.lc.cg == nil {
		return 0
	}
	return p.lc.cg.oomKills()
}

func (p *process) Wait() (Outcome, error) {
	p.once.Do(func() {
		werr := p.lc.cmd.Wait()
		p.stop()
		p.out, p.err = p.lc.finish(werr)
		p.out.Stderr, p.out.StderrTruncated = p.stderr.buf.Bytes(), p.stderr.truncated
	})
	return p.out, p.err
}
