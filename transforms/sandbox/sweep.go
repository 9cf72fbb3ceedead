package sandbox

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"transmute/internal/procfs"
)

// Work directories the sandbox creates (Spec.WorkDir empty) are named after
// their creator: transmute-sbx-<boot>.<pidns>.<pid>.<start>-<random>, with the
// boot id, the inode of the creator's PID namespace, its pid and its start time
// (clock ticks after boot, /proc/<pid>/stat). A run killed with SIGKILL leaves
// its directory behind; the first sandbox of a later process removes those
// whose creator is provably dead: same boot and PID namespace (so the pid means
// the same process table), and no process with that pid and start time. A live
// creator (another launcher, a test binary of another package) always matches,
// so its directories are never touched; names it cannot read (another boot or
// namespace, the older transmute-sbx-<random>) are left alone.

const workDirPrefix = "transmute-sbx-"

// owner identifies the process that created a work directory.
type owner struct {
	boot  string // first 16 hex digits of the boot id
	pidNS uint64
	pid   int
	start uint64
}

func (o owner) tag() string {
	return fmt.Sprintf("%s.%d.%d.%d", o.boot, o.pidNS, o.pid, o.start)
}

// parseOwner reads the owner from a work directory's name.
func parseOwner(name string) (owner, bool) {
	rest, ok := strings.CutPrefix(name, workDirPrefix)
	if !ok {
		return owner{}, false
	}
	tag, _, ok := strings.Cut(rest, "-")
	if !ok {
		return owner{}, false
	}
	f := strings.Split(tag, ".")
	if len(f) != 4 || len(f[0]) != 16 {
		return owner{}, false
	}
	if _, err := hex.DecodeString(f[0]); err != nil {
		return owner{}, false
	}
	ns, err1 := strconv.ParseUint(f[1], 10, 64)
	pid, err2 := strconv.Atoi(f[2])
	start, err3 := strconv.ParseUint(f[3], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || pid <= 0 {
		return owner{}, false
	}
	return owner{boot: f[0], pidNS: ns, pid: pid, start: start}, true
}

var self struct {
	once sync.Once
	o    owner
	ok   bool
}

// selfOwner is this process as an owner; ok is false when /proc cannot tell
// (then directories get the old, unsweepable names).
func selfOwner() (owner, bool) {
	self.once.Do(func() {
		b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
		if err != nil {
			return
		}
		boot := strings.ReplaceAll(strings.TrimSpace(string(b)), "-", "")
		if len(boot) < 16 {
			return
		}
		ns, ok := pidNamespace()
		if !ok {
			return
		}
		start, ok := startTime(os.Getpid())
		if !ok {
			return
		}
		self.o = owner{boot: boot[:16], pidNS: ns, pid: os.Getpid(), start: start}
		self.ok = true
	})
	return self.o, self.ok
}

// pidNamespace is the inode of this process's PID namespace.
func pidNamespace() (uint64, bool) {
	l, err := os.Readlink("/proc/self/ns/pid") // "pid:[4026531836]"
	if err != nil {
		return 0, false
	}
	l, ok := strings.CutPrefix(l, "pid:[")
	l, ok2 := strings.CutSuffix(l, "]")
	n, err := strconv.ParseUint(l, 10, 64)
	return n, ok && ok2 && err == nil
}

// startTime is field 22 of /proc/<pid>/stat: when the process started, in clock
// ticks after boot; with the pid it names one process of a boot.
func startTime(pid int) (uint64, bool) {
	s, ok := procfs.StartTime(pid)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil
}

// dead tells whether o is provably not running, seen by me.
func (o owner) dead(me owner) bool {
	if o.boot != me.boot || o.pidNS != me.pidNS {
		return false // another boot or PID namespace: its pid is not ours to read
	}
	st, ok := startTime(o.pid)
	if !ok {
		_, err := os.Stat(filepath.Join("/proc", strconv.Itoa(o.pid)))
		return os.IsNotExist(err) // gone (an unreadable /proc proves nothing)
	}
	return st != o.start // the pid now names another process
}

// newWorkDir creates a private work directory under dir ("" for os.TempDir())
// named after this process.
func newWorkDir(dir string) (string, error) {
	pattern := workDirPrefix
	if o, ok := selfOwner(); ok {
		pattern += o.tag() + "-"
	}
	return os.MkdirTemp(dir, pattern)
}

// sweepStale removes the work directories under dir ("" for os.TempDir()) whose
// creator is provably dead, and returns how many it removed.
func sweepStale(dir string) int {
	me, ok := selfOwner()
	if !ok {
		return 0
	}
	if dir == "" {
		dir = os.TempDir()
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range ents {
		o, ok := parseOwner(e.Name())
		if !ok || !e.IsDir() || !o.dead(me) { // IsDir is false for a symlink
			continue
		}
		if os.RemoveAll(filepath.Join(dir, e.Name())) == nil {
			n++
		}
	}
	return n
}

var sweepOnce sync.Once

// sweepAtStart sweeps the temporary directory once per process, in the
// background: a first run does not wait for hundreds of old directories.
func sweepAtStart() {
	sweepOnce.Do(func() { go sweepStale("") })
}
