package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// How a sandboxed run works.
//
// The parent (Run, Start) re-executes a binary that calls Init — this one
// (/proc/self/exe) or the small cmd/transmute-sandbox-init (see
// InitExecutable) — as the sandbox's init, in new PID, network, mount, IPC and
// UTS namespaces (whichever the probe found to work), with an environment
// holding only the marker. It passes an initConfig as JSON on fd cfgFD; the
// init reports initStatus records as JSON lines on fd statusFD: one when the
// target started (or failed to), one when the tree has ended.
//
// The init (PID 1 of its namespace, root) makes mounts private, puts fresh
// tmpfs on /tmp, /var/tmp, /dev/shm and /run/lock, binds WorkDir (read-write)
// and ReadOnly paths (read-only) back at their own paths, mounts /proc for the
// PID namespace, sets the rlimits, no_new_privs and the seccomp filter on its
// forking thread, moves that thread into the run's cgroups, and forks the
// target as uid/gid 65534 with no supplementary groups and a parent-death
// signal. RLIMIT_AS is set by a second stage (prlimit(1), or this binary in
// "exec" mode) because it cannot be applied to a Go process. The init then
// reaps everything; when the target exits (or the wall time passes) it kills
// the rest of the tree, and reports the target's wait status and the tree's
// CPU time and peak RSS (RUSAGE_CHILDREN). It does not exec the target
// itself: as a namespace's PID 1 the target would ignore its own default
// signals (abort, raise) and leave zombies.

const (
	initEnv      = "TRANSMUTE_SANDBOX_INIT" // marker; value "run", "probe" or "exec"
	initArg0     = "transmute-sandbox-init"
	cfgFD        = 3
	statusFD     = 4
	sandboxUID   = 65534 // nobody
	sandboxGID   = 65534 // nogroup
	nprocBackstp = 4096  // RLIMIT_NPROC when a pids cgroup counts the tree exactly
)

// initConfig is what the init needs; the parent's environment never reaches it.
type initConfig struct {
	Path     string
	Args     []string
	Env      []string // complete environment of the target
	Dir      string
	ReadOnly []string
	Limits   Limits
	NoAS     bool
	NPROC    int    // RLIMIT_NPROC; 0 leaves it alone (it counts per uid)
	Prlimit  string // prlimit(1), for the RLIMIT_AS stage; "" uses this binary

	MountNS, PIDNS, UTSNS bool
	DropUID               bool
	UID, GID              int // the sandbox user when DropUID; 0: nobody
	Seccomp               bool
	JoinTasks             []string // cgroup v1 "tasks" files the forking thread joins
	JoinProcs             []string // cgroup v1 "cgroup.procs" files the second stage joins
	RTPriority            int      // > 0: the target runs under SCHED_FIFO at this priority
}

// initStatus is reported by the init.
type initStatus struct {
	Started     bool     `json:",omitempty"`
	TargetPid   int      `json:",omitempty"` // pid in the parent's view when no PID namespace
	Err         string   `json:",omitempty"` // setup or exec failure
	Done        bool     `json:",omitempty"`
	WaitStatus  uint32   `json:",omitempty"`
	UserNS      int64    `json:",omitempty"` // tree user CPU, ns
	SysNS       int64    `json:",omitempty"` // tree system CPU, ns
	MaxRSSKB    int64    `json:",omitempty"`
	WallTimeout bool     `json:",omitempty"`
	CPUTimeout  bool     `json:",omitempty"` // killed by the init at Limits.CPUTime
	Active      []string `json:",omitempty"` // protections that took effect (probe)
}

// Main is the TestMain of a package whose tests run sandboxed programs: Init (the
// test binary is the sandbox's init), then the tests, then exit with their code.
// m is a *testing.M; the interface keeps package testing out of the binaries.
func Main(m interface{ Run() int }) {
	Init()
	os.Exit(m.Run())
}

// Init must be called first thing in main and TestMain. In a sandbox init
// process (marked by the environment) it sets up the sandbox, runs the target
// and exits; otherwise it returns at once.
func Init() {
	mode := os.Getenv(initEnv)
	if mode == "" {
		markInitCalled()
		return
	}
	if mode == "exec" {
		os.Exit(execMain())
	}
	os.Exit(initMain(mode == "probe"))
}

// execMain is the Go second stage (when prlimit(1) is absent): argv is [name,
// AS bytes, NPROC, cgroup.procs files joined by commas or "-", path, args...];
// the environment is the target's plus the marker. It joins the cgroups, sets
// the limits and execs the target, reporting a failure on fd 3.
func execMain() int {
	errw := os.NewFile(3, "exec-errors")
	fail := func(format string, a ...any) int {
		fmt.Fprintf(errw, format, a...)
		return 127
	}
	a := os.Args
	if len(a) < 5 {
		return fail("sandbox exec stage: bad arguments")
	}
	as, err1 := strconv.ParseUint(a[1], 10, 64)
	nproc, err2 := strconv.ParseUint(a[2], 10, 64)
	if err1 != nil || err2 != nil {
		return fail("sandbox exec stage: bad limits")
	}
	if a[3] != "-" {
		// Joined now, just before exec: this Go process's memory and threads
		// are not charged to the program.
		for _, f := range strings.Split(a[3], ",") {
			if err := os.WriteFile(f, []byte(strconv.Itoa(os.Getpid())), 0); err != nil {
				return fail("join cgroup %s: %v", f, err)
			}
		}
	}
	// The environment the init passed, not os.Environ(): a main that changed
	// its environment before calling Init would leak that into the target.
	all := os.Environ()
	if b, err := os.ReadFile("/proc/self/environ"); err == nil {
		all = strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
	}
	var env []string
	for _, kv := range all {
		if !strings.HasPrefix(kv, initEnv+"=") {
			env = append(env, kv)
		}
	}
	path := a[4]
	pathp, err := syscall.BytePtrFromString(path)
	if err != nil {
		return fail("start %s: %v", path, err)
	}
	argvp, err := syscall.SlicePtrFromStrings(a[4:])
	if err != nil {
		return fail("start %s: %v", path, err)
	}
	envp, err := syscall.SlicePtrFromStrings(env)
	if err != nil {
		return fail("start %s: %v", path, err)
	}
	syscall.CloseOnExec(3)
	if nproc > 0 {
		if err := unix.Setrlimit(unix.RLIMIT_NPROC, &unix.Rlimit{Cur: nproc, Max: nproc}); err != nil {
			return fail("rlimit nproc: %v", err)
		}
	}
	// From here on no new memory may be needed: the limit can be below what
	// this Go process has already reserved.
	lim := unix.Rlimit{Cur: as, Max: as}
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRLIMIT64, 0, unix.RLIMIT_AS,
		uintptr(unsafe.Pointer(&lim)), 0, 0, 0); e != 0 {
		return fail("rlimit as: %v", e)
	}
	_, _, e := syscall.RawSyscall(syscall.SYS_EXECVE, uintptr(unsafe.Pointer(pathp)),
		uintptr(unsafe.Pointer(&argvp[0])), uintptr(unsafe.Pointer(&envp[0])))
	return fail("start %s: %v", path, e)
}

// masked directories get a fresh tmpfs in the mount namespace.
var maskedDirs = []string{"/tmp", "/var/tmp", "/dev/shm", "/run/lock"}

func under(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, dir+"/")
}

func isMasked(path string) bool {
	for _, d := range maskedDirs {
		if under(path, d) {
			return true
		}
	}
	return false
}

func initMain(probe bool) int {
	runtime.LockOSThread() // prctl and seccomp are per thread: fork from this one
	// Without a PID namespace the parent's death signal is SIGTERM (caps.go): the
	// tree is then killed as at the wall time, instead of outliving a parent that
	// was killed (nothing else would end the target's own forks). Caught from the
	// start, so that none is lost.
	term := make(chan os.Signal, 1)
	if !probe {
		signal.Notify(term, syscall.SIGTERM)
	}
	status := os.NewFile(statusFD, "status")
	syscall.CloseOnExec(statusFD)
	report := func(s initStatus) {
		b, _ := json.Marshal(s)
		status.Write(append(b, '\n'))
	}
	fail := func(format string, a ...any) int {
		report(initStatus{Err: fmt.Sprintf(format, a...)})
		return 111
	}
	cfgFile := os.NewFile(cfgFD, "config")
	raw, err := io.ReadAll(cfgFile)
	cfgFile.Close()
	if err != nil {
		return fail("read config: %v", err)
	}
	var cfg initConfig
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return fail("decode config: %v", err)
	}
	var active []string
	if cfg.MountNS {
		a, err := setupMounts(&cfg)
		if err != nil {
			return fail("%v", err)
		}
		active = append(active, a...)
	}
	if cfg.UTSNS {
		syscall.Sethostname([]byte("sandbox"))
	}
	l := cfg.Limits
	// RLIMIT_AS cannot be set on this Go process (its runtime reserves more
	// address space than small limits allow, and without CAP_SYS_RESOURCE a
	// lowered hard limit cannot be raised back), so a second stage sets it and
	// execs the target: prlimit(1) when available (cheap), else this binary
	// again (goStage), which also sets RLIMIT_NPROC (its Go runtime needs
	// threads as the sandbox user) and joins the cgroups itself.
	prlimitStage := !cfg.NoAS && cfg.Prlimit != ""
	goStage := !cfg.NoAS && cfg.Prlimit == ""
	nproc := cfg.NPROC
	if goStage {
		nproc = 0
	}
	if err := setRlimits(l, nproc); err != nil {
		return fail("rlimits: %v", err)
	}
	realtime := false
	if cfg.RTPriority > 0 && !probe {
		// on this (forking) thread: the target inherits the policy through fork and exec
		if setFIFO(cfg.RTPriority) == nil {
			active = append(active, "realtime")
			realtime = true
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err == nil {
		active = append(active, "no_new_privs")
	}
	if cfg.Seccomp || probe {
		if err := installSeccomp(); err == nil {
			active = append(active, "seccomp")
		} else if cfg.Seccomp {
			return fail("seccomp: %v", err)
		}
	}
	if probe {
		if cfg.DropUID && cfg.UID > 0 && dropUIDThisThread(cfg.UID, cfg.GID) == nil {
			active = append(active, "uid_drop", "uid_pool")
		} else if cfg.DropUID && dropUIDThisThread(sandboxUID, sandboxGID) == nil {
			active = append(active, "uid_drop")
		}
		report(initStatus{Done: true, Active: active})
		return 0
	}
	if !cfg.PIDNS {
		unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	}
	attr := &syscall.ProcAttr{
		Dir:   cfg.Dir,
		Env:   cfg.Env,
		Files: []uintptr{0, 1, 2},
		Sys: &syscall.SysProcAttr{
			Pdeathsig: syscall.SIGKILL,
			Setpgid:   !cfg.PIDNS, // own group, killed as one without a PID namespace
		},
	}
	if cfg.DropUID {
		uid, gid := uint32(sandboxUID), uint32(sandboxGID)
		if cfg.UID > 0 {
			uid, gid = uint32(cfg.UID), uint32(cfg.GID)
		}
		attr.Sys.Credential = &syscall.Credential{Uid: uid, Gid: gid, Groups: []uint32{}}
	}
	path, argv := cfg.Path, append([]string{cfg.Path}, cfg.Args...)
	var errPipe [2]int
	var home []string // the cgroups' "tasks" files this thread returns to
	if goStage {
		// The Go stage reports an exec failure on fd 3, closed by a successful exec.
		if err := unix.Pipe2(errPipe[:], unix.O_CLOEXEC); err != nil {
			return fail("pipe: %v", err)
		}
		procs := strings.Join(cfg.JoinProcs, ",")
		if procs == "" {
			procs = "-"
		}
		argv = append([]string{initArg0 + "-exec", strconv.FormatInt(l.MemoryBytes, 10),
			strconv.Itoa(cfg.NPROC), procs, cfg.Path}, cfg.Args...)
		path = "/proc/self/exe"
		attr.Env = append(append([]string(nil), cfg.Env...), initEnv+"=exec")
		attr.Files = append(attr.Files, uintptr(errPipe[1]))
	} else {
		if prlimitStage {
			if _, err := os.Stat(cfg.Path); err != nil {
				return fail("start %s: %v", cfg.Path, err)
			}
			as := strconv.FormatInt(l.MemoryBytes, 10)
			argv = append([]string{cfg.Prlimit, "--as=" + as + ":" + as, "--", cfg.Path}, cfg.Args...)
			path = cfg.Prlimit
		}
		// Only this (forking) thread joins: the target inherits the cgroups
		// and the init's memory stays charged where it was.
		home = homeTasks(cfg.JoinTasks)
		for _, f := range cfg.JoinTasks {
			if err := os.WriteFile(f, []byte(strconv.Itoa(unix.Gettid())), 0); err != nil {
				return fail("join cgroup %s: %v", f, err)
			}
		}
	}
	start := time.Now()
	pid, err := syscall.ForkExec(path, argv, attr)
	if realtime {
		// Only the target measures under SCHED_FIFO. A real-time reaper livelocked
		// this 2-core machine for 90 minutes: its wait4 spun in the kernel
		// (shrink_dcache_parent) on work that ordinary tasks on its core had to do.
		setOther()
	}
	// Back home after the fork: this process must be neither charged nor
	// chosen by the cgroup's OOM killer, nor take a slot of pids.max.
	for _, f := range home {
		os.WriteFile(f, []byte(strconv.Itoa(unix.Gettid())), 0)
	}
	if goStage {
		unix.Close(errPipe[1])
		if err == nil {
			msg, _ := io.ReadAll(os.NewFile(uintptr(errPipe[0]), "exec-errors"))
			if len(msg) > 0 {
				var ws syscall.WaitStatus
				syscall.Wait4(pid, &ws, 0, nil)
				return fail("%s", msg)
			}
		}
	}
	if err != nil {
		return fail("start %s: %v", cfg.Path, err)
	}
	// The init itself must survive the OOM killer so that it can report.
	os.WriteFile("/proc/self/oom_score_adj", []byte("-1000"), 0)
	report(initStatus{Started: true, TargetPid: pid})

	killTree := func() {
		if cfg.PIDNS {
			syscall.Kill(-1, syscall.SIGKILL) // all but this init in the namespace
			return
		}
		syscall.Kill(-pid, syscall.SIGKILL)
		killChildren()
	}
	go func() {
		<-term
		killTree()
	}()
	var timedOut, cpuOut atomic.Bool
	timer := time.AfterFunc(l.WallTime-time.Since(start), func() {
		timedOut.Store(true)
		killTree()
	})
	stopCPU := cpuLimitTimer(pid, l.CPUTime, func() {
		cpuOut.Store(true)
		killTree()
	})
	var ws syscall.WaitStatus
	targetDone := false
	for {
		var s syscall.WaitStatus
		wpid, err := syscall.Wait4(-1, &s, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			break // ECHILD: everything reaped
		}
		if wpid == pid {
			ws, targetDone = s, true
			timer.Stop()
			stopCPU()
		}
		if targetDone {
			killTree() // orphans and daemons die with the target
		}
	}
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru)
	report(initStatus{
		Done:        true,
		WaitStatus:  uint32(ws),
		UserNS:      ru.Utime.Nano(),
		SysNS:       ru.Stime.Nano(),
		MaxRSSKB:    ru.Maxrss,
		WallTimeout: timedOut.Load(),
		CPUTimeout:  cpuOut.Load(),
	})
	return 0
}

// sigevent is the kernel's struct sigevent.
type sigevent struct {
	value  uintptr
	signo  int32
	notify int32
	_      [48]byte
}

// cpuLimitTimer calls expired once the process pid has used limit of CPU time since
// it started, and returns a stop function to call once pid has ended (or is about
// to be reaped). It is a POSIX timer on pid's CPU clock, which counts what the
// scheduler counts: RLIMIT_CPU counts a whole tick for whoever runs when the tick
// comes, and beside short-lived tasks fired at 0.66 to 0.9 of the CPU it was set to
// (docs/runs/2026-11-26-cpu-timers.md); it stays as a backstop (rlimitCPU). Without
// the timer (it could not be made), stop does nothing.
func cpuLimitTimer(pid int, limit time.Duration, expired func()) (stop func()) {
	if limit <= 0 {
		return func() {}
	}
	// CPUCLOCK_SCHED of the process pid (MAKE_PROCESS_CPUCLOCK in the kernel)
	clock := int32(^uint32(pid)<<3 | 2)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR2)
	ev := sigevent{signo: int32(syscall.SIGUSR2), notify: 0 /* SIGEV_SIGNAL */}
	var id int32
	if _, _, e := syscall.RawSyscall(unix.SYS_TIMER_CREATE, uintptr(clock),
		uintptr(unsafe.Pointer(&ev)), uintptr(unsafe.Pointer(&id))); e != 0 {
		signal.Stop(sig)
		return func() {}
	}
	at := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(limit))}
	const timerAbstime = 1 // at, on the clock, not from now: the CPU counts from pid's start
	if _, _, e := syscall.RawSyscall6(unix.SYS_TIMER_SETTIME, uintptr(id), timerAbstime,
		uintptr(unsafe.Pointer(&at)), 0, 0, 0); e != 0 {
		syscall.RawSyscall(unix.SYS_TIMER_DELETE, uintptr(id), 0, 0)
		signal.Stop(sig)
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-sig:
			}
			// The program may send the signal too (as the same user, or to a PID
			// namespace's init, which has a handler): only the clock counts.
			var ts unix.Timespec
			if unix.ClockGettime(clock, &ts) == nil && time.Duration(ts.Nano()) >= limit {
				expired()
				return
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			syscall.RawSyscall(unix.SYS_TIMER_DELETE, uintptr(id), 0, 0)
			signal.Stop(sig)
		})
	}
}

// homeTasks maps cgroup "tasks" files under /sys/fs/cgroup/<controller>/ to
// the "tasks" files of this process's current cgroups of those controllers.
func homeTasks(join []string) []string {
	own := ownCgroups()
	var home []string
	for _, f := range join {
		rel, err := filepath.Rel(cgroupRoot, f)
		if err != nil {
			continue
		}
		ctrl := strings.SplitN(rel, "/", 2)[0]
		if p, ok := own[ctrl]; ok {
			home = append(home, filepath.Join(cgroupRoot, ctrl, p, "tasks"))
		}
	}
	return home
}

// dropUIDThisThread switches the calling thread (only: raw system calls) to
// uid and gid, to check in the probe that it is permitted.
func dropUIDThisThread(uid, gid int) error {
	if _, _, e := syscall.RawSyscall(syscall.SYS_SETGROUPS, 0, 0, 0); e != 0 {
		return e
	}
	if _, _, e := syscall.RawSyscall(syscall.SYS_SETRESGID, uintptr(gid), uintptr(gid), uintptr(gid)); e != 0 {
		return e
	}
	if _, _, e := syscall.RawSyscall(syscall.SYS_SETRESUID, uintptr(uid), uintptr(uid), uintptr(uid)); e != 0 {
		return e
	}
	return nil
}

// killChildren kills the init's direct children (orphans are re-parented to it
// as a subreaper) when there is no PID namespace to tear down.
func killChildren() {
	tasks, _ := os.ReadDir("/proc/self/task")
	for _, t := range tasks {
		b, err := os.ReadFile(filepath.Join("/proc/self/task", t.Name(), "children"))
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if p, err := strconv.Atoi(f); err == nil {
				syscall.Kill(p, syscall.SIGKILL)
			}
		}
	}
}

// setFIFO puts the calling thread under the SCHED_FIFO real-time policy.
func setFIFO(prio int) error {
	param := struct{ prio int32 }{int32(prio)}
	if _, _, e := syscall.RawSyscall(unix.SYS_SCHED_SETSCHEDULER, 0, 1 /* SCHED_FIFO */, uintptr(unsafe.Pointer(&param))); e != 0 {
		return e
	}
	return nil
}

// setOther returns the calling thread to the ordinary scheduling policy.
func setOther() error {
	param := struct{ prio int32 }{0}
	if _, _, e := syscall.RawSyscall(unix.SYS_SCHED_SETSCHEDULER, 0, 0 /* SCHED_OTHER */, uintptr(unsafe.Pointer(&param))); e != 0 {
		return e
	}
	return nil
}

// rlimitCPU is the RLIMIT_CPU of a sandbox with limits l, in seconds: a backstop
// behind the init's timer on the program's CPU clock (cpuLimitTimer), as RLIMIT_CPU
// counts ticks, which a busy machine charges a running program beyond its CPU; it
// also bounds each process the program starts.
func rlimitCPU(l Limits) uint64 {
	return uint64((2*l.CPUTime+time.Second-1)/time.Second) + 1
}

func setRlimits(l Limits, nproc int) error {
	cpu := rlimitCPU(l)
	set := []struct {
		res int
		v   uint64
	}{
		{unix.RLIMIT_CPU, cpu},
		{unix.RLIMIT_FSIZE, uint64(l.FileSizeBytes)},
		{unix.RLIMIT_NOFILE, uint64(l.OpenFiles)},
		{unix.RLIMIT_CORE, 0},
	}
	if nproc > 0 {
		set = append(set, struct {
			res int
			v   uint64
		}{unix.RLIMIT_NPROC, uint64(nproc)})
	}
	for _, r := range set {
		if err := syscall.Setrlimit(r.res, &syscall.Rlimit{Cur: r.v, Max: r.v}); err != nil {
			return fmt.Errorf("resource %d: %w", r.res, err)
		}
	}
	return nil
}

// setupMounts makes mounts private, hides the host's temporary directories
// behind fresh tmpfs, binds WorkDir (read-write) and ReadOnly paths (read-only)
// at their own paths, and mounts a /proc for the PID namespace.
func setupMounts(cfg *initConfig) ([]string, error) {
	var active []string
	if err := unix.Mount("none", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return nil, fmt.Errorf("make mounts private: %w", err)
	}
	type bind struct {
		path string
		fd   int
		ro   bool
	}
	var binds []bind
	open := func(p string, ro bool) error {
		if p == "" {
			return nil
		}
		fd, err := unix.Open(p, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("open %s: %w", p, err)
		}
		binds = append(binds, bind{p, fd, ro})
		return nil
	}
	if err := open(cfg.Dir, false); err != nil {
		return nil, err
	}
	for _, p := range cfg.ReadOnly {
		if err := open(p, true); err != nil {
			return nil, err
		}
	}
	if isMasked(cfg.Path) && !under(cfg.Path, cfg.Dir) {
		if err := open(cfg.Path, true); err != nil {
			return nil, err
		}
	}
	// A directory before the paths under it: the WorkDir of a compile lies inside the
	// read-only directory it compiles against, and a bind made later would hide it.
	sort.SliceStable(binds, func(i, j int) bool {
		return strings.Count(binds[i].path, "/") < strings.Count(binds[j].path, "/")
	})
	size := cfg.Limits.MemoryBytes
	masked := 0
	for _, d := range maskedDirs {
		if st, err := os.Lstat(d); err != nil || !st.IsDir() {
			continue
		}
		opts := fmt.Sprintf("mode=1777,size=%d", size)
		if err := unix.Mount("tmpfs", d, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
			return nil, fmt.Errorf("mount tmpfs on %s: %w", d, err)
		}
		masked++
	}
	if masked > 0 {
		active = append(active, "private_tmp")
	}
	for _, b := range binds {
		st, err := os.Stat(fmt.Sprintf("/proc/self/fd/%d", b.fd))
		if err != nil {
			return nil, err
		}
		if _, err := os.Lstat(b.path); err != nil {
			// Create the mount point inside the new tmpfs.
			if st.IsDir() {
				err = os.MkdirAll(b.path, 0o755)
			} else if err = os.MkdirAll(filepath.Dir(b.path), 0o755); err == nil {
				err = os.WriteFile(b.path, nil, 0o644)
			}
			if err != nil {
				return nil, fmt.Errorf("mount point %s: %w", b.path, err)
			}
		}
		src := fmt.Sprintf("/proc/self/fd/%d", b.fd)
		if err := unix.Mount(src, b.path, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return nil, fmt.Errorf("bind %s: %w", b.path, err)
		}
		flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_NOSUID | unix.MS_NODEV)
		if b.ro {
			flags |= unix.MS_RDONLY
		}
		// Best effort: a locked mount (user namespace) keeps its flags.
		unix.Mount("", b.path, "", flags, "")
		unix.Close(b.fd)
	}
	if cfg.PIDNS {
		if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err == nil {
			active = append(active, "private_proc")
		}
	}
	return active, nil
}
