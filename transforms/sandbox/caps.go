package sandbox

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"transmute/internal/proctree"
)

// caps is what this process can apply, found once by probing.
type caps struct {
	// legacy: Init was not called in this binary, so it cannot be re-executed as
	// the sandbox init; programs run directly under prlimit(1) in their own
	// process group, as in the first implementation.
	legacy bool

	cloneflags                          uintptr
	userNS                              bool
	pidNS, netNS, mountNS, ipcNS, utsNS bool
	uidDrop, seccomp                    bool
	uidPool                             bool // a uid of its own per sandbox (uidpool.go)
	privateTmp, privateProc, noNewPrivs bool
	cgroupMemory, cgroupPids            bool
	prlimit                             string // prlimit(1) path, "" when absent
	exe                                 string // binary re-executed as the init
}

// InitExecutable, when set, is the binary re-executed as the sandbox's init
// instead of this one: a small program whose main calls only Init (see
// cmd/transmute-sandbox-init). When empty, a file named
// "transmute-sandbox-init" next to this executable is used if present, else
// this executable itself, whose main must then call Init first. Set it before
// the first Run, Start or Protections.
var InitExecutable string

// initHelperName is the name looked for next to the executable.
const initHelperName = "transmute-sandbox-init"

// initExecutable returns the binary to re-execute and whether it is a helper
// (so that Init need not have been called in this process).
func initExecutable() (string, bool) {
	if InitExecutable != "" {
		return InitExecutable, true
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), initHelperName)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, true
		}
	}
	return "/proc/self/exe", false
}

var (
	// capsOverride replaces the probed capabilities (tests of degraded modes).
	capsOverride *caps
	initCalled   bool // Init ran in this process and returned: it is not an init
	detected     struct {
		once sync.Once
		c    *caps
	}
)

// markInitCalled is called by Init in the ordinary (non-init) process.
func markInitCalled() { initCalled = true }

// detect probes once which protections work here.
func detect() *caps {
	if capsOverride != nil {
		return capsOverride
	}
	detected.once.Do(func() { detected.c = probeCaps() })
	return detected.c
}

func probeCaps() *caps {
	exe, helper := initExecutable()
	if !initCalled && !helper {
		return &caps{legacy: true}
	}
	if _, err := os.Stat(exe); err != nil {
		return &caps{legacy: true}
	}
	if os.Getenv(DegradedEnv) != "" {
		return probeDegraded(exe)
	}
	const all = syscall.CLONE_NEWPID | syscall.CLONE_NEWNET | syscall.CLONE_NEWNS | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS
	root := os.Geteuid() == 0
	var (
		c  *caps
		st initStatus
	)
	try := func(flags uintptr, user bool) bool {
		cand := &caps{cloneflags: flags, userNS: user, exe: exe}
		cand.setFlags()
		// Root drops the program's uid in a user namespace too (initCommand maps
		// the sandbox uids there): the namespace's root is the host's root, and
		// a program left as it could write every file root can (rootful podman).
		cand.uidDrop = root
		s, err := cand.probe()
		if err != nil {
			return false
		}
		if root && user && !contains(s.Active, "uid_drop") {
			// Namespaces without the drop would run the program as root's uid:
			// the mode without namespaces (uid drop, seccomp, rlimits) keeps
			// the host's files safer, so it is preferred.
			return false
		}
		c, st = cand, s
		return true
	}
	if !try(all, false) && !try(all, true) {
		// Greedy: keep each namespace that works on its own terms.
		var flags uintptr
		for _, f := range []uintptr{syscall.CLONE_NEWNS, syscall.CLONE_NEWPID, syscall.CLONE_NEWNET, syscall.CLONE_NEWIPC, syscall.CLONE_NEWUTS} {
			if try(flags|f, false) {
				flags |= f
			}
		}
		if flags == 0 && !try(all, true) && !try(0, false) {
			return &caps{legacy: true}
		}
		if c == nil {
			return &caps{legacy: true}
		}
	}
	for _, a := range st.Active {
		switch a {
		case "private_tmp":
			c.privateTmp = true
		case "private_proc":
			c.privateProc = true
		case "no_new_privs":
			c.noNewPrivs = true
		case "seccomp":
			c.seccomp = true
		case "uid_drop":
			// confirmed below
		case "uid_pool":
			c.uidPool = true
		}
	}
	c.uidDrop = c.uidDrop && contains(st.Active, "uid_drop")
	if p, err := exec.LookPath("prlimit"); err == nil {
		c.prlimit = p
	}
	detectCgroups()
	c.cgroupMemory = cgroupBases.memory != ""
	c.cgroupPids = cgroupBases.pids != ""
	return c
}

// DegradedEnv, when set (to anything), makes the sandbox use neither
// namespaces nor cgroups, as in an unprivileged container: for tests and for
// checking what such a worker still enforces.
const DegradedEnv = "TRANSMUTE_SANDBOX_DEGRADED"

// probeDegraded probes the init without namespaces and leaves cgroups out.
func probeDegraded(exe string) *caps {
	c := &caps{exe: exe, uidDrop: os.Geteuid() == 0}
	st, err := c.probe()
	if err != nil {
		return &caps{legacy: true}
	}
	c.uidDrop = c.uidDrop && contains(st.Active, "uid_drop")
	c.uidPool = contains(st.Active, "uid_pool")
	c.noNewPrivs = contains(st.Active, "no_new_privs")
	c.seccomp = contains(st.Active, "seccomp")
	if p, err := exec.LookPath("prlimit"); err == nil {
		c.prlimit = p
	}
	return c
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func (c *caps) setFlags() {
	f := c.cloneflags
	c.pidNS = f&syscall.CLONE_NEWPID != 0
	c.netNS = f&syscall.CLONE_NEWNET != 0
	c.mountNS = f&syscall.CLONE_NEWNS != 0
	c.ipcNS = f&syscall.CLONE_NEWIPC != 0
	c.utsNS = f&syscall.CLONE_NEWUTS != 0
}

// initCommand builds the command that re-executes this binary as the init, with
// the config pipe on fd 3 and the status pipe on fd 4.
// In a user namespace, ids (the uids, and gids of the same numbers, the init
// may drop to) are mapped to themselves beside 0, so that a root parent's
// program runs as such a uid on the host too; setgroups stays allowed then
// (root may) for the drop.
func (c *caps) initCommand(mode string, ids ...int) (cmd *exec.Cmd, cfgW, statusR *os.File, err error) {
	cfgR, cfgW, err := os.Pipe()
	if err != nil {
		return nil, nil, nil, err
	}
	statusR, statusW, err := os.Pipe()
	if err != nil {
		cfgR.Close()
		cfgW.Close()
		return nil, nil, nil, err
	}
	cmd = &exec.Cmd{
		Path:        c.exe,
		Args:        []string{initArg0},
		Env:         []string{initEnv + "=" + mode}, // never the parent's environment
		Dir:         "/",
		ExtraFiles:  []*os.File{cfgR, statusW},
		WaitDelay:   2 * time.Second,
		SysProcAttr: &syscall.SysProcAttr{Cloneflags: c.cloneflags, Pdeathsig: syscall.SIGKILL, Setpgid: true},
	}
	if !c.pidNS {
		// The init kills the tree on SIGTERM (initMain); SIGKILL would leave the
		// target's own forks running, as no namespace dies with the init.
		cmd.SysProcAttr.Pdeathsig = syscall.SIGTERM
	}
	if c.userNS {
		cmd.SysProcAttr.Cloneflags |= syscall.CLONE_NEWUSER
		cmd.SysProcAttr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}}
		cmd.SysProcAttr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}}
		cmd.SysProcAttr.GidMappingsEnableSetgroups = false
		if os.Geteuid() == 0 && len(ids) > 0 {
			seen := map[int]bool{0: true}
			for _, id := range ids {
				if seen[id] {
					continue
				}
				seen[id] = true
				cmd.SysProcAttr.UidMappings = append(cmd.SysProcAttr.UidMappings, syscall.SysProcIDMap{ContainerID: id, HostID: id, Size: 1})
				cmd.SysProcAttr.GidMappings = append(cmd.SysProcAttr.GidMappings, syscall.SysProcIDMap{ContainerID: id, HostID: id, Size: 1})
			}
			cmd.SysProcAttr.GidMappingsEnableSetgroups = true
		}
	}
	return cmd, cfgW, statusR, nil
}

// probe runs the init in probe mode with these flags: it sets everything up
// and reports what took effect instead of starting a program.
func (c *caps) probe() (initStatus, error) {
	var st initStatus
	cfg := initConfig{Limits: DefaultLimits, MountNS: c.mountNS, PIDNS: c.pidNS, UTSNS: c.utsNS, DropUID: c.uidDrop}
	if base, count, ok, err := poolRange(); ok && err == nil {
		// the top of the range: a user namespace maps a prefix of uids
		cfg.UID, cfg.GID = base+count-1, base+count-1
	}
	var ids []int
	if c.uidDrop {
		ids = []int{sandboxUID}
		if cfg.UID > 0 {
			ids = append(ids, cfg.UID)
		}
	}
	cmd, cfgW, statusR, err := c.initCommand("probe", ids...)
	if err != nil {
		return st, err
	}
	defer statusR.Close()
	release, err := proctree.StartWith(cmd, func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	defer release()
	for _, f := range cmd.ExtraFiles {
		f.Close()
	}
	if err != nil {
		cfgW.Close()
		return st, err
	}
	b, _ := json.Marshal(cfg)
	cfgW.Write(b)
	cfgW.Close()
	line, rerr := bufio.NewReader(statusR).ReadBytes('\n')
	werr := cmd.Wait()
	if rerr != nil {
		return st, fmt.Errorf("probe: no report (%v, %v)", rerr, werr)
	}
	if err := json.Unmarshal(line, &st); err != nil {
		return st, err
	}
	if st.Err != "" {
		return st, fmt.Errorf("probe: %s", st.Err)
	}
	return st, nil
}

// prepareLegacy builds the direct prlimit(1) command used when Init was not
// wired into this binary.
func prepareLegacy(lc *launch, s Spec) (*launch, error) {
	l := lc.limits
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		lc.cleanup()
		return nil, fmt.Errorf("sandbox: prlimit(1) not found (install util-linux) and sandbox.Init not called: %w", err)
	}
	cpu := int64((l.CPUTime + time.Second - 1) / time.Second)
	args := []string{
		"--cpu=" + strconv.FormatInt(cpu, 10),
		"--fsize=" + strconv.FormatInt(l.FileSizeBytes, 10),
		"--nofile=" + strconv.Itoa(l.OpenFiles),
		"--nproc=" + strconv.Itoa(l.MaxProcs),
		"--core=0",
	}
	if !s.NoAddressSpaceLimit {
		args = append(args, "--as="+strconv.FormatInt(l.MemoryBytes, 10))
	}
	args = append(append(args, "--", s.Path), s.Args...)
	cmd := exec.Command(prlimit, args...)
	cmd.Dir = s.WorkDir
	cmd.Env = buildEnv(&s)
	cmd.WaitDelay = 2 * time.Second
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	lc.cmd = cmd
	lc.cfg = initConfig{Path: s.Path}
	return lc, nil
}

// Protections lists the protections this process applies, for the manifest:
// user_ns, pid_ns, net_ns, mount_ns, ipc_ns, uts_ns, private_tmp, private_proc,
// uid_drop, uid_per_sandbox, no_new_privs, seccomp, rlimits, cgroup_memory, cgroup_pids,
// clean_env, output_cap, private_workdir, tree_kill (or process_group_kill),
// and parent_nondumpable when the program runs as this process's user.
func Protections() []string {
	c := detect()
	if c.legacy {
		return []string{"clean_env", "rlimits", "process_group_kill", "output_cap", "private_workdir", "parent_nondumpable"}
	}
	var p []string
	add := func(ok bool, name string) {
		if ok {
			p = append(p, name)
		}
	}
	add(c.userNS, "user_ns")
	add(c.pidNS, "pid_ns")
	add(c.netNS, "net_ns")
	add(c.mountNS, "mount_ns")
	add(c.ipcNS, "ipc_ns")
	add(c.utsNS, "uts_ns")
	add(c.privateTmp, "private_tmp")
	add(c.privateProc, "private_proc")
	add(c.uidDrop, "uid_drop")
	add(c.uidDrop && c.uidPool, "uid_per_sandbox")
	add(!c.uidDrop, "parent_nondumpable")
	add(c.noNewPrivs, "no_new_privs")
	add(c.seccomp, "seccomp")
	add(true, "rlimits")
	add(c.cgroupMemory, "cgroup_memory")
	add(c.cgroupPids, "cgroup_pids")
	add(true, "clean_env")
	add(true, "output_cap")
	add(true, "private_workdir")
	add(true, "tree_kill")
	return p
}
