package efficiency

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A profile needs its core to itself, whatever else runs: the suites of every
// bundle and every worker process on the machine. So a core is leased through an
// exclusive flock on a file per core in a host-wide directory (as the sandbox's
// uid pool does): the kernel arbitrates between the bundles of one worker and
// between workers alike, and drops the lock when its holder dies.

// CoreLockDirEnv overrides the directory of the core lock files. It must be the
// same for every process that profiles on the machine, so it does not follow
// TMPDIR.
const CoreLockDirEnv = "TRANSMUTE_CORE_LOCKS"

func coreLockDir() (string, error) {
	d := os.Getenv(CoreLockDirEnv)
	if d == "" {
		d = "/tmp/transmute-cores"
	}
	if err := os.MkdirAll(d, 0o777); err != nil {
		return "", fmt.Errorf("core locks: %w", err)
	}
	return d, nil
}

// CoreLease is a core held for one suite; Release gives it back.
type CoreLease struct {
	Core int
	f    *os.File
}

// AcquireCore leases one of cpus, waiting while every one is leased (by this
// process or another), until ctx ends.
func AcquireCore(ctx context.Context, cpus []int) (*CoreLease, error) {
	if len(cpus) == 0 {
		return nil, fmt.Errorf("core locks: no core to profile on")
	}
	dir, err := coreLockDir()
	if err != nil {
		return nil, err
	}
	for {
		for _, c := range cpus {
			f, err := os.OpenFile(filepath.Join(dir, "core-"+strconv.Itoa(c)+".lock"), os.O_RDWR|os.O_CREATE, 0o666)
			if err != nil {
				return nil, fmt.Errorf("core locks: %w", err)
			}
			if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
				return &CoreLease{Core: c, f: f}, nil
			}
			f.Close()
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Release gives the core back.
func (l *CoreLease) Release() {
	if l != nil && l.f != nil {
		l.f.Close() // closing the file drops its flock
		l.f = nil
	}
}

// NoiseDue reports whether the core is due for a noise probe in run: never
// probed in run, or last probed at least every ago (every < 0: never); first says
// it is the core's first probe in run. A due probe is marked done now (the caller
// probes, holding the lease). The lock file holds the core's last probe, so the
// schedule is the machine's, whichever worker profiles on the core.
func (l *CoreLease) NoiseDue(run string, every time.Duration) (due, first bool) {
	if every < 0 || l.f == nil {
		return false, false
	}
	buf := make([]byte, 512)
	n, _ := l.f.ReadAt(buf, 0)
	lastRun, at, _ := strings.Cut(strings.TrimSpace(string(buf[:n])), "\t")
	nanos, err := strconv.ParseInt(at, 10, 64)
	first = lastRun != run || err != nil
	if !first && time.Since(time.Unix(0, nanos)) < every {
		return false, false
	}
	rec := run + "\t" + strconv.FormatInt(time.Now().UnixNano(), 10) + "\n"
	if l.f.Truncate(0) == nil {
		l.f.WriteAt([]byte(rec), 0)
	}
	return true, first
}
