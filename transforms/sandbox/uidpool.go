package sandbox

import (
	"bufio"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A pool of uids, one leased to each running sandbox when the sandbox drops
// root. Without a pids cgroup (an unprivileged container) RLIMIT_NPROC is the
// only process limit, and the kernel counts it per real uid: with one shared
// uid every sandbox on the host shares MaxProcs, and a busy machine turns
// ordinary programs into spurious fork failures. With a uid of its own, a
// sandbox's RLIMIT_NPROC counts only its own processes.
//
// Before a uid is leased again, every process still running as it is killed,
// so a leftover of one lease cannot touch the next. A uid that has processes
// before this process ever leased it, or a passwd entry, belongs to someone
// else and is never used.
//
// Every process of the host draws from the same range (tests of several
// packages at once, a worker pool beside a launcher), so a lease is also an
// exclusive flock on a file per uid in a host-wide directory: without it two
// processes lease the same uid, and one's release scan kills the other's
// programs (seen in CI: a JVM and a C++ server SIGKILLed mid-run). The kernel
// drops the lock when its holder dies, so a crash leaks nothing.

// UIDPoolEnv overrides the pool's range as "base:count" (e.g. "40000:1024");
// "0" or "off" disables the pool (every sandbox runs as nobody).
const UIDPoolEnv = "TRANSMUTE_SANDBOX_UIDS"

// UIDLockDirEnv overrides the directory of the pool's lock files. It must be
// the same for every process that uses the range, so it does not follow
// TMPDIR.
const UIDLockDirEnv = "TRANSMUTE_SANDBOX_UID_LOCKS"

// Default range: below 65536 so that it is mapped in the usual user-namespaced
// containers (0-65535), above the usual login and system users, and below
// systemd's dynamic range (61184-65519).
const (
	defaultUIDBase  = 40000
	defaultUIDCount = 1024
)

type uidPool struct {
	base, count int
	lockDir     string // "" : no cross-process locks (the directory is unusable)
	mu          sync.Mutex
	cond        *sync.Cond
	free        []int            // uids ready for lease, least recently used first
	fresh       int              // next never-leased offset
	leased      map[int]*os.File // currently leased, with the lock held (nil without)
}

var (
	poolOnce sync.Once
	pool     *uidPool // nil: disabled
)

// poolRange reads UIDPoolEnv; ok is false when the pool is disabled.
func poolRange() (base, count int, ok bool, err error) {
	v := strings.TrimSpace(os.Getenv(UIDPoolEnv))
	switch v {
	case "":
		return defaultUIDBase, defaultUIDCount, true, nil
	case "0", "off":
		return 0, 0, false, nil
	}
	b, c, found := strings.Cut(v, ":")
	base, err1 := strconv.Atoi(b)
	count, err2 := strconv.Atoi(c)
	if !found || err1 != nil || err2 != nil || base <= 0 || count <= 0 || base+count > 1<<31 {
		return 0, 0, false, fmt.Errorf("sandbox: %s=%q: want base:count", UIDPoolEnv, v)
	}
	return base, count, true, nil
}

func newUIDPool(base, count int, lockDir string) *uidPool {
	p := &uidPool{base: base, count: count, lockDir: lockDir, leased: map[int]*os.File{}}
	p.cond = sync.NewCond(&p.mu)
	return p
}

// uidLockDir is the host-wide directory of the pool's lock files, created
// root-only; "" when it cannot be.
func uidLockDir() string {
	d := os.Getenv(UIDLockDirEnv)
	if d == "" {
		d = "/run/transmute-uids"
		if st, err := os.Stat("/run"); err != nil || !st.IsDir() {
			d = "/tmp/transmute-uids" // fixed, not TMPDIR: see UIDLockDirEnv
		}
	}
	if err := os.MkdirAll(d, 0o700); err != nil {
		return ""
	}
	return d
}

// lockUID takes u's lock without waiting. ok is false when another process
// holds it; f is nil when the pool has no lock directory.
func (p *uidPool) lockUID(u int) (f *os.File, ok bool) {
	if p.lockDir == "" {
		return nil, true
	}
	f, err := os.OpenFile(filepath.Join(p.lockDir, strconv.Itoa(u)+".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, true // as without a lock directory: never stuck on a broken one
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		f.Close()
		return nil, false
	}
	return f, true
}

// lease returns a uid no other sandbox uses and no process runs as; it blocks
// while all are leased. ok is false when no usable uid is left at all.
func (p *uidPool) lease() (int, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		// A free uid another process holds now stays in the list for later.
		for i, u := range p.free {
			if f, ok := p.lockUID(u); ok {
				p.free = append(p.free[:i:i], p.free[i+1:]...)
				p.leased[u] = f
				return u, true
			}
		}
		for p.fresh < p.count {
			u := p.base + p.fresh
			f, ok := p.lockUID(u)
			if !ok {
				// Another process's lease: ours to use once it releases.
				p.fresh++
				p.free = append(p.free, u)
				continue
			}
			p.fresh++
			if foreignUID(u) {
				if f != nil {
					f.Close()
				}
				continue
			}
			p.leased[u] = f
			return u, true
		}
		switch {
		case len(p.free) > 0:
			// The uids left are other processes' for now: their release
			// does not signal p.cond, so look again shortly.
			p.mu.Unlock()
			time.Sleep(5 * time.Millisecond)
			p.mu.Lock()
		case len(p.leased) == 0:
			return 0, false
		default:
			p.cond.Wait()
		}
	}
}

// release kills whatever still runs as u (when scan) and makes it available
// again.
func (p *uidPool) release(u int, scan bool) {
	if scan {
		killUID(u) // with the lock still held: no other process runs as u yet
	}
	p.mu.Lock()
	if f := p.leased[u]; f != nil {
		f.Close()
	}
	delete(p.leased, u)
	p.free = append(p.free, u)
	p.mu.Unlock()
	p.cond.Signal()
}

// foreignUID: u has a passwd entry or running processes, so it is not ours.
func foreignUID(u int) bool {
	if _, err := user.LookupId(strconv.Itoa(u)); err == nil {
		return true
	}
	return len(procsOfUID(u)) > 0
}

// procsOfUID lists the pids whose real, effective or saved uid is u.
func procsOfUID(u int) []int { return uidProcs(u, false) }

// uidProcs lists the pids whose real, effective or saved uid is u, leaving out
// zombies when live is set.
func uidProcs(u int, live bool) []int {
	ents, _ := os.ReadDir("/proc")
	want := strconv.Itoa(u)
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		f, err := os.Open(filepath.Join("/proc", e.Name(), "status"))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if st, ok := strings.CutPrefix(sc.Text(), "State:"); ok && live && strings.HasPrefix(strings.TrimSpace(st), "Z") {
				break // State: comes before Uid:
			}
			if rest, ok := strings.CutPrefix(sc.Text(), "Uid:"); ok {
				ids := strings.Fields(rest) // real, effective, saved, filesystem
				for _, id := range ids[:min(3, len(ids))] {
					if id == want {
						pids = append(pids, pid)
						break
					}
				}
				break
			}
		}
		f.Close()
	}
	return pids
}

// killLiveUID SIGKILLs every process of u until none is left running, without
// waiting for the killed ones to be reaped (at shutdown their parent may be
// gone, and PID 1 reaps when it will).
func killLiveUID(u int) {
	for i := 0; i < 1000; i++ {
		pids := uidProcs(u, true)
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(time.Millisecond)
	}
}

// killUID SIGKILLs every process of u until none is left (a fork bomb refills
// between scans, but it is bounded by RLIMIT_NPROC and cannot outrun SIGKILL
// for long). A killed process stays counted until its parent reaps it, so
// this also waits for those to go.
func killUID(u int) {
	for i := 0; i < 1000; i++ {
		pids := procsOfUID(u)
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(time.Millisecond)
	}
}

// leaseSandboxUID returns the uid and gid for one run and the function that
// gives them back; the shared nobody when the pool is off or unusable.
func leaseSandboxUID(c *caps) (uid, gid int, release func()) {
	if !c.uidPool {
		return sandboxUID, sandboxGID, func() {}
	}
	poolOnce.Do(func() {
		if base, count, ok, err := poolRange(); ok && err == nil {
			pool = newUIDPool(base, count, uidLockDir())
		}
	})
	if pool == nil {
		return sandboxUID, sandboxGID, func() {}
	}
	u, ok := pool.lease()
	if !ok {
		return sandboxUID, sandboxGID, func() {}
	}
	var once sync.Once
	// A PID namespace is empty once its init has been reaped and nothing
	// leaves one, so the /proc scan (4-7 ms on this host, BenchmarkKillUIDScan)
	// is needed only without it.
	scan := !c.pidNS
	// The uid's own group: files of one lease are not the group's of another.
	return u, u, func() { once.Do(func() { pool.release(u, scan) }) }
}
