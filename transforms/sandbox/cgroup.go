package sandbox

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// cgroupRoot is where the cgroup v1 hierarchies are mounted.
const cgroupRoot = "/sys/fs/cgroup"

// cgroupBases holds, per v1 controller, the directory under which per-process
// cgroups are created: <mount>/<this process's cgroup>/transmute. Empty when the
// controller is unusable (absent, cgroup v2 only, or not writable).
var cgroupBases struct {
	once         sync.Once
	memory, pids string
	memsw        bool // memory.memsw.* exists: swap can be limited
}

var cgroupSeq atomic.Int64

// detectCgroups finds writable v1 memory and pids hierarchies.
func detectCgroups() {
	cgroupBases.once.Do(func() {
		own := ownCgroups()
		cgroupBases.memory = probeCgroupBase("memory", own["memory"], "memory.limit_in_bytes")
		cgroupBases.pids = probeCgroupBase("pids", own["pids"], "pids.max")
		if cgroupBases.memory != "" {
			_, err := os.Stat(filepath.Join(cgroupBases.memory, "memory.memsw.limit_in_bytes"))
			cgroupBases.memsw = err == nil
		}
	})
}

// ownCgroups parses /proc/self/cgroup into controller → path.
func ownCgroups() map[string]string {
	m := map[string]string{}
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return m
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			m[c] = parts[2]
		}
	}
	return m
}

// probeCgroupBase returns <mount>/<own>/transmute when a child cgroup can be
// created there with a working control file, else "".
func probeCgroupBase(controller, own, file string) string {
	mount := filepath.Join(cgroupRoot, controller)
	if _, err := os.Stat(filepath.Join(mount, "cgroup.procs")); err != nil {
		return ""
	}
	base := filepath.Join(mount, own, "transmute")
	if err := os.MkdirAll(base, 0o755); err != nil {
		return ""
	}
	probe := filepath.Join(base, fmt.Sprintf("probe-%d", os.Getpid()))
	if err := os.Mkdir(probe, 0o755); err != nil && !os.IsExist(err) {
		return ""
	}
	defer os.Remove(probe)
	if _, err := os.Stat(filepath.Join(probe, file)); err != nil {
		return ""
	}
	return base
}

// cgroup is the per-process set of v1 cgroups of one sandboxed tree.
type cgroup struct {
	memory, pids string // directories; "" when not used
}

// newCgroup creates the memory and pids cgroups for one run. Failures leave
// the corresponding controller unused. With selfJoin, the sandbox's second
// stage moves itself into the cgroups just before exec (as owner, when not
// -1, who is given their cgroup.procs files); otherwise the init's forking
// thread joins for the fork and leaves. The init process itself is never
// charged: the main binary can be large.
func newCgroup(l Limits, selfJoin bool, owner int) *cgroup {
	detectCgroups()
	name := fmt.Sprintf("%d-%d", os.Getpid(), cgroupSeq.Add(1))
	cg := &cgroup{}
	delegate := func(d string) error {
		if selfJoin && owner >= 0 {
			return os.Chown(filepath.Join(d, "cgroup.procs"), owner, owner)
		}
		return nil
	}
	if b := cgroupBases.memory; b != "" {
		d := filepath.Join(b, name)
		if os.Mkdir(d, 0o755) == nil {
			lim := strconv.FormatInt(l.MemoryBytes, 10)
			err := writeFile(filepath.Join(d, "memory.limit_in_bytes"), lim)
			if err == nil && cgroupBases.memsw {
				// Swap off: memory+swap capped at the same value.
				err = writeFile(filepath.Join(d, "memory.memsw.limit_in_bytes"), lim)
			}
			_ = writeFile(filepath.Join(d, "memory.swappiness"), "0")
			if err == nil {
				err = delegate(d)
			}
			if err == nil {
				cg.memory = d
			} else {
				os.Remove(d)
			}
		}
	}
	if b := cgroupBases.pids; b != "" {
		d := filepath.Join(b, name)
		if os.Mkdir(d, 0o755) == nil {
			// The init's forking thread, when it joins, takes one slot until it
			// leaves right after the fork: the tree never exceeds MaxProcs.
			err := writeFile(filepath.Join(d, "pids.max"), strconv.Itoa(l.MaxProcs))
			if err == nil {
				err = delegate(d)
			}
			if err == nil {
				cg.pids = d
			} else {
				os.Remove(d)
			}
		}
	}
	return cg
}

func writeFile(path, v string) error {
	return os.WriteFile(path, []byte(v), 0o644)
}

// joinFiles lists, for each cgroup in use, its file name (cgroup.procs for a
// whole process, tasks for one thread).
func (cg *cgroup) joinFiles(name string) []string {
	var fs []string
	for _, d := range []string{cg.memory, cg.pids} {
		if d != "" {
			fs = append(fs, filepath.Join(d, name))
		}
	}
	return fs
}

// kill sends SIGKILL to every process in the cgroups.
func (cg *cgroup) kill() {
	for _, d := range []string{cg.pids, cg.memory} {
		if d == "" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(d, "cgroup.procs"))
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
}

// oomKilled reports whether the memory cgroup's OOM killer fired.
func (cg *cgroup) oomKilled() bool { return cg.oomKills() > 0 }

// oomKills is the number of the memory cgroup's OOM kills so far (on older kernels
// without the counter, the number of times the limit was hit).
func (cg *cgroup) oomKills() int {
	if cg.memory == "" {
		return 0
	}
	b, err := os.ReadFile(filepath.Join(cg.memory, "memory.oom_control"))
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) == 2 && f[0] == "oom_kill" {
				n, _ := strconv.Atoi(f[1])
				return n
			}
		}
	}
	// Older kernels: no oom_kill counter; a hit limit is the best evidence.
	b, err = os.ReadFile(filepath.Join(cg.memory, "memory.failcnt"))
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return n
}

// peakKB is the memory cgroup's peak usage in KiB (0 when unknown).
func (cg *cgroup) peakKB() int64 {
	if cg.memory == "" {
		return 0
	}
	b, err := os.ReadFile(filepath.Join(cg.memory, "memory.max_usage_in_bytes"))
	if err != nil {
		return 0
	}
	n, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return n >> 10
}

// remove kills what is left and deletes the cgroups, retrying briefly while the
// kernel finishes tearing the processes down.
func (cg *cgroup) remove() {
	for _, d := range []string{cg.pids, cg.memory} {
		if d == "" {
			continue
		}
		for i := 0; i < 200; i++ {
			err := os.Remove(d)
			if err == nil || os.IsNotExist(err) {
				break
			}
			cg.kill()
			time.Sleep(time.Millisecond)
		}
	}
}
