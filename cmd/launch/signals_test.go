package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"transmute/internal/procfs"
	"transmute/internal/proctree"
	"transmute/transforms/sandbox"
)

// sessionProc is a process of the launcher's session, read from /proc.
type sessionProc struct {
	pid, ppid int
	state     string
	cmdline   string
}

// sessionProcs lists the processes (zombies left out) of session sid: the
// launcher started with Setsid and everything it started, in any process group
// or PID namespace, unless one of them made a session of its own (none does).
func sessionProcs(sid int) []sessionProc {
	ents, _ := os.ReadDir("/proc")
	var ps []sessionProc
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		f, ok := procfs.Stat(pid)
		if !ok || len(f) < 4 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if sess, _ := strconv.Atoi(f[3]); sess != sid {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		cl, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		ps = append(ps, sessionProc{pid: pid, ppid: ppid, state: f[0], cmdline: strings.ReplaceAll(string(cl), "\x00", " ")})
	}
	return ps
}

// looping tells whether the looping candidates run: a process whose parent runs
// the same program, for both the Python runner and the C++ server (each forks a
// child per candidate).
func looping(ps []sessionProc) bool {
	cmd := map[int]string{}
	for _, p := range ps {
		cmd[p.pid] = p.cmdline
	}
	var py, cpp bool
	for _, p := range ps {
		if pc, ok := cmd[p.ppid]; ok && pc == p.cmdline {
			py = py || strings.Contains(p.cmdline, "runner.py")
			cpp = cpp || strings.Contains(p.cmdline, "prog serve")
		}
	}
	return py && cpp
}

func describe(ps []sessionProc) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString("\n  " + strconv.Itoa(p.pid) + " (parent " + strconv.Itoa(p.ppid) + ", " + p.state + ") " + p.cmdline)
	}
	return b.String()
}

// A SIGTERM stops the launcher through its deferred closes and leaves no process
// of its tree behind (sandboxed servers and the children they forked for the
// candidates included, in the degraded sandbox too, where no PID namespace takes
// them down with their init); so does a SIGKILL, through the parent-death signals.
func TestSignalStopsEveryProcess(t *testing.T) {
	for _, tool := range []string{"python3", "g++", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s on PATH", tool)
		}
	}
	dir := t.TempDir()
	// The degraded sandbox's user reads the compiled programs in place: open the
	// test's directory (0700 by default) to it, as the launcher's --work-dir would be.
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	rec := filepath.Join(dir, "loops.jsonl")
	loops := `{"problem_id":"COUNT_SET_BITS","src_lang":"java","tgt_lang":"python","code":"def count_set_bits(n):\n    while True:\n        n += 1"}` + "\n" +
		`{"problem_id":"COUNT_SET_BITS","src_lang":"java","tgt_lang":"cpp","code":"int countSetBits(int n) {\n    volatile int k = 0;\n    while (true) { k++; }\n    return k;\n}"}` + "\n"
	if err := os.WriteFile(rec, []byte(loops), 0o644); err != nil {
		t.Fatal(err)
	}
	work := sharedWork // the test binary's: the harnesses are built once
	for _, tc := range []struct {
		name     string
		degraded bool
		sig      syscall.Signal
		code     int // -1: killed by sig
	}{
		{"sigterm", false, syscall.SIGTERM, 1},
		{"sigterm-degraded", true, syscall.SIGTERM, 1},
		// No Go code runs: the parent-death signals alone must end the trees.
		{"sigkill-degraded", true, syscall.SIGKILL, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, tc.name, "out")
			cmd := exec.Command(os.Args[0], "--", "--corpus", "jsonl:"+filepath.Join(repo(t), "data/problems.jsonl"),
				"--translator", "recorded:"+rec, "--directions", "java-python,java-cpp", "--limit", "1",
				"--workers", "1", "--run", "r", "--out", out, "--work-dir", work, "--cache", "off",
				"--cpu-limit", "120s", "--wall-limit", "120s", "--quiet")
			tmp := filepath.Join(dir, tc.name, "tmp") // the sandboxes' work dirs
			if err := os.MkdirAll(tmp, 0o755); err != nil {
				t.Fatal(err)
			}
			cmd.Env = append(os.Environ(), "TRANSMUTE_TEST_LAUNCH=1", "TMPDIR="+tmp)
			if tc.degraded {
				cmd.Env = append(cmd.Env, sandbox.DegradedEnv+"=1")
			}
			cmd.Dir = t.TempDir()
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // its session holds its whole tree
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stderr, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			sid := cmd.Process.Pid
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			t.Cleanup(func() { // a failed check must not leave loops burning CPU
				for _, p := range sessionProcs(sid) {
					syscall.Kill(p.pid, syscall.SIGKILL)
				}
			})

			// Both looping candidates are running (compiles under load can be slow).
			deadline := time.Now().Add(3 * time.Minute)
			for !looping(sessionProcs(sid)) {
				select {
				case err := <-exited:
					t.Fatalf("launch ended (%v) before its candidates ran:\n%s", err, stderr.String())
				default:
				}
				if time.Now().After(deadline) {
					t.Fatalf("the looping candidates never ran:%s\n%s", describe(sessionProcs(sid)), stderr.String())
				}
				time.Sleep(100 * time.Millisecond)
			}
			if err := syscall.Kill(sid, tc.sig); err != nil {
				t.Fatal(err)
			}
			var err error
			select {
			case err = <-exited:
			case <-time.After(time.Minute):
				t.Fatalf("launch still running a minute after SIGTERM:%s", describe(sessionProcs(sid)))
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tc.code {
				t.Errorf("launch ended with %v, want exit code %d\n%s", err, tc.code, stderr.String())
			}
			if tc.sig == syscall.SIGTERM && !strings.Contains(stderr.String(), "launch: interrupted") {
				t.Errorf("no interruption message:\n%s", stderr.String())
			}
			if tc.sig == syscall.SIGTERM && (strings.Contains(stderr.String(), "level=ERROR") || strings.Contains(stderr.String(), "Bundle Failed")) {
				t.Errorf("a clean interrupt printed the runner's error lines:\n%s", stderr.String())
			}
			if _, err := os.Stat(filepath.Join(out, "manifest.json")); err == nil {
				t.Error("an interrupted run was published")
			}
			// SIGKILL takes effect at once; the margin is for a loaded machine.
			var left []sessionProc
			for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
				if left = sessionProcs(sid); len(left) == 0 {
					break
				}
			}
			if len(left) > 0 {
				t.Errorf("processes of the launcher's tree left 10s after it ended:%s", describe(left))
			}
			// A stopped launcher removes its sandboxes' work dirs, the pooled
			// workers' included (a killed one leaves them to the next one's sweep).
			dirs, _ := filepath.Glob(filepath.Join(tmp, "transmute-sbx-*"))
			if tc.sig == syscall.SIGTERM && len(dirs) > 0 {
				t.Errorf("work dirs left after a SIGTERM: %q", dirs)
			}
			if tc.sig == syscall.SIGKILL && len(dirs) == 0 {
				t.Error("no work dir left by a launcher killed with SIGKILL: did the workers run in TMPDIR?")
			}
		})
	}
}

// signalsHelperEnv makes the test binary a process whose shutdown hangs after
// the first signal (as a stuck deferred close would): only a second signal ends it.
const signalsHelperEnv = "TRANSMUTE_TEST_SIGNALS"

func init() {
	if os.Getenv(signalsHelperEnv) != "1" {
		return
	}
	ctx, stop := interruptible(context.Background())
	defer stop()
	child := exec.Command("sleep", "60")
	if _, err := proctree.Start(child); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Println(child.Process.Pid)
	<-ctx.Done()
	fmt.Println("cancelled")
	for {
		time.Sleep(time.Hour)
	}
}

// The first signal cancels the context and kills the children; a second one
// exits at once (128 + SIGTERM) even when the shutdown hangs.
func TestSecondSignalExitsAtOnce(t *testing.T) {
	cmd, stdout, stderr := startHelper(t, signalsHelperEnv)
	exited := make(chan error, 1)
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() {
		t.Fatalf("no child pid:\n%s", stderr.String())
	}
	child, err := strconv.Atoi(lines.Text())
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(child, syscall.SIGKILL)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if !lines.Scan() || lines.Text() != "cancelled" {
		t.Fatalf("context not cancelled by SIGTERM:\n%s", stderr.String())
	}
	go func() { exited <- cmd.Wait() }()
	// KillAll runs beside the cancellation: wait for the child to go (a zombie
	// until PID 1 reaps it; it is this test's grandchild).
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(child), "stat"))
		if err != nil || strings.Contains(string(b), ") Z ") {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("child %d still running after the first signal", child)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 143 {
			t.Errorf("ended with %v, want exit code 143\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("still running 30s after the second signal:\n%s", stderr.String())
	}
}

// startHelper starts this test binary as the helper that env=1 selects, with its
// stdout on a pipe and its stderr in a buffer.
func startHelper(t *testing.T, env string) (*exec.Cmd, io.ReadCloser, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env+"=1")
	stderr := &bytes.Buffer{}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, stdout, stderr
}
