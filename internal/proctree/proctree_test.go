package proctree

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"transmute/internal/procfs"
)

// groupMembers lists the live (not zombie) processes of process group pgid.
func groupMembers(pgid int) []int {
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		f, ok := procfs.Stat(pid)
		if !ok || len(f) < 3 || f[0] == "Z" {
			continue
		}
		if g, _ := strconv.Atoi(f[2]); g == pgid {
			pids = append(pids, pid)
		}
	}
	return pids
}

// waitMembers waits until group pgid has want live processes (or fewer when want
// is 0), failing after a generous deadline.
func waitMembers(t *testing.T, pgid, want int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		n := len(groupMembers(pgid))
		if (want == 0 && n == 0) || (want > 0 && n >= want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("group %d has %d live processes, want %d", pgid, n, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func resetStopping() {
	mu.Lock()
	stopping = false
	mu.Unlock()
}

// The parent-death signal follows the forking thread: a child forked from a
// goroutine that then ends locked to its thread is killed at once (the witness,
// forked the naive way), while one started through Start lives on.
func TestChildOutlivesForkingGoroutinesThread(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep(1)")
	}
	witness := exec.Command(sleep, "60")
	witness.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	tracked := exec.Command(sleep, "60")
	var release func()
	errc := make(chan error, 1)
	errMain := errors.New("on the main thread")
	for {
		go func() {
			runtime.LockOSThread() // never unlocked: this thread exits with the goroutine
			if unix.Gettid() == os.Getpid() {
				errc <- errMain // the runtime keeps the main thread (it only wedges it)
				return
			}
			if err := witness.Start(); err != nil {
				errc <- err
				return
			}
			var err error
			release, err = Start(tracked)
			errc <- err
		}()
		err := <-errc
		if err == errMain {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		break
	}
	defer func() {
		tracked.Process.Kill()
		tracked.Wait()
		release()
	}()
	// Returns only once the forking thread has exited and the signal was sent.
	werr := witness.Wait()
	if ws, ok := witness.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("witness: %v, want killed by its parent-death signal", werr)
	}
	if err := tracked.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("child started through Start died with the forking goroutine's thread: %v", err)
	}
	var ws syscall.WaitStatus
	if pid, _ := syscall.Wait4(tracked.Process.Pid, &ws, syscall.WNOHANG, nil); pid != 0 {
		t.Fatalf("child started through Start has ended: %v", ws)
	}
}

// KillAll kills each child's whole group (a shell's background jobs included) and
// refuses new children.
func TestKillAllKillsTreesAndRefusesNewOnes(t *testing.T) {
	defer resetStopping()
	cmd := exec.Command("/bin/sh", "-c", "sleep 60 & sleep 60 & wait")
	release, err := Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	pgid := cmd.Process.Pid
	waitMembers(t, pgid, 3)
	if n := KillAll(); n < 1 {
		t.Fatalf("KillAll killed %d trees, want at least 1", n)
	}
	cmd.Wait()
	waitMembers(t, pgid, 0)
	if !Stopping() {
		t.Error("Stopping() = false after KillAll")
	}
	if _, err := Start(exec.Command("/bin/true")); !errors.Is(err, ErrStopping) {
		t.Errorf("Start after KillAll: %v, want ErrStopping", err)
	}
}

// A command of exec.CommandContext loses its whole group with the context, where
// exec alone kills only the shell and leaves its background job running.
func TestContextKillsWholeGroup(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", "sleep 60 & wait")
	release, err := Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	pgid := cmd.Process.Pid
	waitMembers(t, pgid, 2)
	cancel()
	cmd.Wait()
	waitMembers(t, pgid, 0)
}

func TestOutputs(t *testing.T) {
	out, err := CombinedOutput(exec.Command("/bin/sh", "-c", "echo out; echo err >&2"))
	if err != nil || string(out) != "out\nerr\n" {
		t.Errorf("CombinedOutput = %q, %v", out, err)
	}
	out, err = Output(exec.Command("/bin/sh", "-c", "echo out; echo err >&2; exit 3"))
	var ee *exec.ExitError
	if string(out) != "out\n" || !errors.As(err, &ee) || ee.ExitCode() != 3 || string(ee.Stderr) != "err\n" {
		t.Errorf("Output = %q, %v", out, err)
	}
}

// BenchmarkStart measures what the spawner costs: starting and waiting for
// /bin/true, 4 at a time (engines compile in parallel), through Run against
// exec.Cmd.Run directly in the same run.
func BenchmarkStart(b *testing.B) {
	var ns [2]int64
	for i, mode := range []string{"proctree", "exec"} {
		b.Run(mode, func(b *testing.B) {
			b.SetParallelism(2) // x GOMAXPROCS goroutines
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					cmd := exec.Command("/bin/true")
					var err error
					if mode == "proctree" {
						err = Run(cmd)
					} else {
						err = cmd.Run()
					}
					if err != nil {
						b.Error(err)
					}
				}
			})
			ns[i] = b.Elapsed().Nanoseconds() / int64(b.N)
		})
	}
	fmt.Printf("BENCH proctree_start us_per_start=%.0f naive_us_per_start=%.0f ratio=%.2f\n",
		float64(ns[0])/1e3, float64(ns[1])/1e3, float64(ns[0])/float64(ns[1]))
}
