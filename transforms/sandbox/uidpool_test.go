package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// unprivilegedContainer is the sandbox as in an unprivileged container run as
// root: no namespaces, no cgroups, but setuid works. shared: every sandbox
// runs as nobody (the old behaviour); else each gets a uid of its own.
func unprivilegedContainer(t *testing.T, shared bool) *caps {
	t.Helper()
	real := detect()
	if real.legacy || !real.uidDrop || !real.uidPool {
		t.Skipf("needs root with setuid to the uid pool (protections: %v)", Protections())
	}
	return &caps{uidDrop: true, uidPool: !shared, seccomp: real.seccomp, noNewPrivs: real.noNewPrivs,
		prlimit: real.prlimit, exe: real.exe}
}

// forker forks n sleeping children, waits for them and prints how many forks
// failed; its own exit code is 0.
func forker(n int) Spec {
	s := sh(fmt.Sprintf(`fail=0; i=0; while [ $i -lt %d ]; do sleep 0.5 & [ $? -eq 0 ] || fail=$((fail+1)); i=$((i+1)); done; wait; echo "fail=$fail uid=$(id -u)"`, n))
	s.Limits = Limits{MaxProcs: 12, WallTime: 15 * time.Second, CPUTime: 5 * time.Second}
	return s
}

// runForkers runs k forkers at once, each forking 9 children under MaxProcs 12
// (the shell, a child, sleep and id fit too), and returns their outputs.
func runForkers(t *testing.T, k int) []string {
	outs := make([]string, k)
	var wg sync.WaitGroup
	for i := 0; i < k; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			o, err := Run(context.Background(), forker(9), nil)
			if err != nil {
				outs[i] = "error " + err.Error()
				return
			}
			outs[i] = fmt.Sprintf("exit=%d %s %s", o.ExitCode, strings.TrimSpace(string(o.Stdout)), strings.TrimSpace(string(o.Stderr)))
		}(i)
	}
	wg.Wait()
	return outs
}

// TestDegradedUnderLoadPerUID: many sandboxes each forking up to near its
// limit at the same time, with no namespaces and no pids cgroup. With a uid
// per sandbox none fails; the shared-uid run shows the failures it replaces
// (logged, not asserted: how many overlap depends on the scheduler).
func TestDegradedUnderLoadPerUID(t *testing.T) {
	const k = 16
	withCaps(t, unprivilegedContainer(t, false), func() {
		if p := Protections(); !has("uid_per_sandbox") || has("cgroup_pids") || has("pid_ns") {
			t.Fatalf("not the degraded mode: %v", p)
		}
		uids := map[string]bool{}
		for i, out := range runForkers(t, k) {
			if !strings.HasPrefix(out, "exit=0 fail=0 uid=") {
				t.Errorf("sandbox %d: %q", i, out)
				continue
			}
			u := strings.Fields(strings.TrimPrefix(out, "exit=0 fail=0 "))[0]
			uids[u] = true
			n, _ := strconv.Atoi(strings.TrimPrefix(u, "uid="))
			if n == sandboxUID || n == 0 {
				t.Errorf("sandbox %d ran as uid %d, want a pool uid", i, n)
			}
		}
		t.Logf("%d sandboxes x 9 children under MaxProcs 12: no fork failed; %d distinct uids", k, len(uids))
	})
	withCaps(t, unprivilegedContainer(t, true), func() {
		failed, example := 0, ""
		for _, out := range runForkers(t, k) {
			if !strings.HasPrefix(out, "exit=0 fail=0 ") {
				failed++
				example = out
			}
		}
		t.Logf("same load with one shared uid (before): %d of %d sandboxes saw a fork fail (e.g. %.120q)", failed, k, example)
	})
}

// TestDegradedForkBombIsolated: a fork bomb in one slot does not make the
// sandboxes running beside it fail.
func TestDegradedForkBombIsolated(t *testing.T) {
	withCaps(t, unprivilegedContainer(t, false), func() {
		bomb := sh(`b() { b | b & }; b; sleep 3`)
		bomb.Limits = Limits{MaxProcs: 12, WallTime: 3 * time.Second}
		var wg sync.WaitGroup
		wg.Add(1)
		var bo Outcome
		var berr error
		go func() {
			defer wg.Done()
			bo, berr = Run(context.Background(), bomb, nil)
		}()
		time.Sleep(300 * time.Millisecond) // only to let the bomb start first; nothing is timed
		for round := 0; round < 3; round++ {
			for i, out := range runForkers(t, 4) {
				if !strings.HasPrefix(out, "exit=0 fail=0 ") {
					t.Errorf("round %d sandbox %d beside a fork bomb: %q", round, i, out)
				}
			}
		}
		wg.Wait()
		if berr != nil {
			t.Errorf("fork bomb: %v", berr)
		}
		t.Logf("fork bomb outcome: exit %d signal %q wall %v", bo.ExitCode, bo.Signal, bo.WallTime)
	})
}

// TestUIDLeaseKillsLeftovers: a process still running as a leased uid is
// killed before the uid goes to the next sandbox.
func TestUIDLeaseKillsLeftovers(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
	p := newUIDPool(47000, 2, t.TempDir())
	u, ok := p.lease()
	if !ok {
		t.Skip("no free uid in 47000-47001 here")
	}
	cmd := exec.Command("/bin/sleep", "600")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(u), Gid: uint32(u)}, Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if got := procsOfUID(u); len(got) != 1 || got[0] != cmd.Process.Pid {
		t.Errorf("procsOfUID(%d) = %v, want [%d]", u, got, cmd.Process.Pid)
	}
	p.release(u, true)
	if err := <-done; err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("leftover after release: wait = %v, want killed", err)
	}
	// A uid with a process we did not start is someone else's: never leased.
	other := newUIDPool(u, 1, t.TempDir())
	cmd = exec.Command("/bin/sleep", "600")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(u), Gid: uint32(u)}}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	if v, ok := other.lease(); ok {
		t.Errorf("leased uid %d that another process runs as", v)
	}
}

// TestUIDLeaseAcrossProcesses: two pools over one range and one lock
// directory, as two processes of the host, never hold the same uid at once; a
// uid one releases goes to the other. (flock locks conflict between two open
// files of one process as between processes.) Without the locks, both took
// 47100 and the first release killed the other's programs.
func TestUIDLeaseAcrossProcesses(t *testing.T) {
	dir := t.TempDir()
	a, b := newUIDPool(47100, 2, dir), newUIDPool(47100, 2, dir)
	ua, ok := a.lease()
	if !ok {
		t.Skip("no free uid in 47100-47101 here")
	}
	ub, ok := b.lease()
	if !ok || ub == ua {
		t.Fatalf("second pool leased %d (ok %v) while the first holds %d", ub, ok, ua)
	}
	// Both uids held: a third lease of b waits until a releases one.
	got := make(chan int, 1)
	go func() {
		u, _ := b.lease()
		got <- u
	}()
	select {
	case u := <-got:
		t.Fatalf("leased %d while both uids are held", u)
	case <-time.After(100 * time.Millisecond):
	}
	a.release(ua, false)
	select {
	case u := <-got:
		if u != ua {
			t.Errorf("after a released %d, b leased %d", ua, u)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("b did not lease the uid a released")
	}
	// And a cannot take it back while b holds it; it waits for b's release.
	go func() {
		u, _ := a.lease()
		got <- u
	}()
	select {
	case u := <-got:
		t.Fatalf("a leased %d while b holds both", u)
	case <-time.After(100 * time.Millisecond):
	}
	b.release(ub, false)
	select {
	case u := <-got:
		if u != ub {
			t.Errorf("after b released %d, a leased %d", ub, u)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a did not lease the uid b released")
	}
	// The pools hold their lock files: unreachable, the files' finalizers
	// would close them and drop the locks (the real pool is a global).
	runtime.KeepAlive(a)
	runtime.KeepAlive(b)
}

func TestUIDLockDirIgnoresTMPDIR(t *testing.T) {
	t.Setenv(UIDLockDirEnv, "")
	t.Setenv("TMPDIR", t.TempDir())
	if d := uidLockDir(); d != "" && strings.HasPrefix(d, os.Getenv("TMPDIR")) {
		t.Errorf("lock directory %s follows TMPDIR: processes with another TMPDIR would not see it", d)
	}
	want := filepath.Join(t.TempDir(), "locks")
	t.Setenv(UIDLockDirEnv, want)
	if d := uidLockDir(); d != want {
		t.Errorf("uidLockDir() = %q with %s=%q", d, UIDLockDirEnv, want)
	}
}

func TestUIDPoolRange(t *testing.T) {
	for _, c := range []struct {
		env         string
		base, count int
		ok, err     bool
	}{
		{"", defaultUIDBase, defaultUIDCount, true, false},
		{"50000:16", 50000, 16, true, false},
		{"off", 0, 0, false, false},
		{"50000", 0, 0, false, true},
		{"-1:4", 0, 0, false, true},
	} {
		t.Setenv(UIDPoolEnv, c.env)
		b, n, ok, err := poolRange()
		if b != c.base || n != c.count || ok != c.ok || (err != nil) != c.err {
			t.Errorf("%q: %d %d %v %v", c.env, b, n, ok, err)
		}
	}
}

// BenchmarkKillUIDScan is the cost a release adds to every run that drops
// root: one scan of /proc finding nothing left.
func BenchmarkKillUIDScan(b *testing.B) {
	n, _ := os.ReadDir("/proc")
	for i := 0; i < b.N; i++ {
		killUID(47999)
	}
	b.StopTimer()
	fmt.Printf("BENCH kill_uid_scan entries_in_proc=%d ns_per_release=%d\n", len(n), b.Elapsed().Nanoseconds()/int64(b.N))
}
