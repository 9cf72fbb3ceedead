package sandbox

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// stopScripts stop the program itself, a child it waits for, its whole process
// group, and (SIGTSTP) itself with a signal it could have caught.
var stopScripts = map[string]string{
	"self":  "kill -STOP $$; echo continued",
	"child": "sleep 60 & kill -STOP $!; wait",
	"group": "sleep 60 & kill -STOP 0; wait",
	"tstp":  "kill -TSTP $$; echo continued",
}

// TestStoppedProgramKilled: a program that stops itself or a process of its tree
// ends at once as a stop (and a wall timeout), not at its wall-time limit.
func TestStoppedProgramKilled(t *testing.T) {
	check := func(t *testing.T) {
		for name, script := range stopScripts {
			t.Run(name, func(t *testing.T) {
				s := sh(script)
				s.Limits = Limits{WallTime: 30 * time.Second}
				start := time.Now()
				o := run(t, s, "")
				took := time.Since(start)
				if !o.Stopped || !o.WallTimeout || o.CPUTimeout {
					t.Errorf("want Stopped and WallTimeout, got %+v", o)
				}
				if took > 2*time.Second {
					t.Errorf("took %v", took)
				}
				if string(o.Stdout) != "" {
					t.Errorf("stdout %q: the program was continued", o.Stdout)
				}
			})
		}
	}
	t.Run("full", check)
	for name, c := range degradedModes() {
		t.Run(name, func(t *testing.T) { withCaps(t, c, func() { check(t) }) })
	}
}

// TestStoppedWorkerKilled: a worker (Start) whose program stops itself is killed
// and its Wait says so; one that is not stopped is left alone.
func TestStoppedWorkerKilled(t *testing.T) {
	p, err := Start(context.Background(), sh("read x; kill -STOP $$; echo continued"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	io.WriteString(p.Stdin(), "go\n")
	out, _ := io.ReadAll(p.Stdout())
	o, err := p.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if !o.Stopped || !o.WallTimeout || len(out) > 0 {
		t.Errorf("want Stopped, no output; got %+v, output %q", o, out)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("took %v", took)
	}

	// A worker that waits (not stopped) for longer than the watchdog's looks.
	p, err = Start(context.Background(), sh("read x; sleep 0.5; echo $x"))
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(p.Stdin(), "fine\n")
	out, _ = io.ReadAll(p.Stdout())
	o, err = p.Wait()
	if err != nil || o.Stopped || o.WallTimeout || string(out) != "fine\n" {
		t.Errorf("a worker that was not stopped: %+v %v, output %q", o, err, out)
	}
}

// TestStoppedIn: the walk finds a stopped grandchild (outside any sandbox, whose
// watchdog would kill it), and nothing in a running tree.
func TestStoppedIn(t *testing.T) {
	cmd := exec.Command("/bin/sh", "-c", "sleep 60 & kill -STOP $!; echo $!; read x")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer in.Close()
	var pid int
	if _, err := fmt.Fscan(out, &pid); err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(pid, syscall.SIGKILL)
	deadline := time.Now().Add(time.Second)
	for !stoppedIn(os.Getpid())[pid] && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := stoppedIn(os.Getpid()); len(got) != 1 || !got[pid] {
		t.Errorf("stoppedIn(tree with %d stopped) = %v", pid, got)
	}
	syscall.Kill(pid, syscall.SIGKILL)
	time.Sleep(50 * time.Millisecond)
	if got := stoppedIn(os.Getpid()); len(got) > 0 {
		t.Errorf("stoppedIn after the kill = %v", got)
	}
}

// BenchmarkStoppedIn is the cost of one look of the stop watchdog at this test
// process (a Go process: about ten threads, each with a children file).
func BenchmarkStoppedIn(b *testing.B) {
	for b.Loop() {
		stoppedIn(os.Getpid())
	}
}
