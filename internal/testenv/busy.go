package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// wakerEnv makes a test binary a waker (see BusyMachine) instead of running tests.
const wakerEnv = "TRANSMUTE_TEST_WAKER"

// BusyMachine starts n processes that each run for about 300 µs and sleep for 300
// µs, over and over, until the test ends: more work than two cores take, in pieces
// shorter than a scheduler tick. Beside them, tick-based CPU accounting (interval
// timers, RLIMIT_CPU) charges a running program CPU it did not use. The test
// binary's TestMain must call RunWaker first.
func BusyMachine(tb testing.TB, n int) {
	tb.Helper()
	for i := 0; i < n; i++ {
		cmd := exec.Command("/proc/self/exe", "-test.run=^$")
		cmd.Env = append(os.Environ(), wakerEnv+"=300")
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		if err := cmd.Start(); err != nil {
			tb.Fatalf("start a waker: %v", err)
		}
		tb.Cleanup(func() {
			cmd.Process.Kill()
			cmd.Wait()
		})
	}
	time.Sleep(200 * time.Millisecond)
}

// RunWaker makes this process a waker and never returns when BusyMachine started
// it; otherwise it returns at once. Call it first thing in TestMain.
func RunWaker() {
	us := os.Getenv(wakerEnv)
	if us == "" {
		return
	}
	d, err := strconv.Atoi(us)
	if err != nil {
		fmt.Fprintln(os.Stderr, "waker:", err)
		os.Exit(2)
	}
	// A fixed amount of work, so that a waker kept waiting wants as much CPU as one
	// that is not: found by timing it while the machine is still quiet.
	work := 1 << 16
	for {
		t0 := time.Now()
		spin(work)
		if time.Since(t0) >= time.Duration(d)*time.Microsecond {
			break
		}
		work *= 2
	}
	ts := unix.NsecToTimespec(int64(d) * 1000)
	for {
		spin(work)
		unix.Nanosleep(&ts, nil)
	}
}

func spin(n int) {
	x := 0
	for i := 0; i < n; i++ {
		x += i ^ (x >> 3)
	}
	// KeepAlive keeps the compiler from dropping the loop as dead code.
	runtime.KeepAlive(x)
}
