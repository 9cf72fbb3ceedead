package sandbox

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// withCaps runs f with the sandbox restricted to c, as on a machine (an
// unprivileged container) where only those protections work.
func withCaps(t *testing.T, c *caps, f func()) {
	t.Helper()
	detect() // the real probe first, so that it is not skipped later
	capsOverride = c
	defer func() { capsOverride = nil }()
	f()
}

// degradedModes are the fallbacks: no namespaces at all (init re-exec with
// rlimits, subreaper and group kill), and legacy (Init not called: prlimit(1)).
func degradedModes() map[string]*caps {
	return map[string]*caps{
		"no_namespaces": {seccomp: true, noNewPrivs: true, exe: "/proc/self/exe"},
		"legacy":        {legacy: true},
	}
}

func TestDegradedModes(t *testing.T) {
	for name, c := range degradedModes() {
		t.Run(name, func(t *testing.T) {
			withCaps(t, c, func() {
				p := Protections()
				if has("pid_ns") || has("cgroup_memory") || !has("rlimits") {
					t.Errorf("protections %v do not reflect mode %s", p, name)
				}
				o := run(t, sh("cat; exit 5"), "in")
				if o.ExitCode != 5 || string(o.Stdout) != "in" {
					t.Errorf("exit %d out %q err %q", o.ExitCode, o.Stdout, o.Stderr)
				}
				// (No /proc scan here: these modes run the program as this
				// process's user, root in this test, which may read anything.)
				o = run(t, sh("env"), "")
				if strings.Contains(string(o.Stdout), secret) {
					t.Errorf("secret leaked: %s", o.Stdout)
				}
				if !strings.Contains(string(o.Stdout), "PATH=") {
					t.Errorf("env not readable: %q", o.Stdout)
				}

				marker := fmt.Sprint(600000 + os.Getpid()%99999)
				s := sh("sleep " + marker + " & sleep " + marker)
				s.Limits = Limits{WallTime: 300 * time.Millisecond}
				o = run(t, s, "")
				if !o.WallTimeout || o.WallTime > 4*time.Second {
					t.Errorf("wall timeout: %+v", o)
				}
				if left := procsMatching("sleep\x00"+marker, ""); len(left) > 0 {
					t.Errorf("processes left: %v", left)
				}

				s = sh("while :; do :; done")
				s.Limits = Limits{CPUTime: time.Second, WallTime: 10 * time.Second}
				if o = run(t, s, ""); !o.CPUTimeout {
					t.Errorf("want CPUTimeout: %+v", o)
				}

				pr, err := Start(context.Background(), sh("sleep "+marker+" & cat"))
				if err != nil {
					t.Fatal(err)
				}
				io.WriteString(pr.Stdin(), "ping\n")
				buf := make([]byte, 5)
				if _, err := io.ReadFull(pr.Stdout(), buf); err != nil || string(buf) != "ping\n" {
					t.Errorf("echo: %q %v", buf, err)
				}
				pr.Kill()
				if o, _ := pr.Wait(); o.Signal != "killed" {
					t.Errorf("after Kill: %+v", o)
				}
				if left := procsMatching("sleep\x00"+marker, ""); len(left) > 0 {
					t.Errorf("processes left after Kill: %v", left)
				}
			})
		})
	}
}

func TestDegradedOrphanWithSetsid(t *testing.T) {
	needPython(t)
	marker := fmt.Sprint(500000 + os.Getpid()%99999)
	prog := `import os
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/bin/sleep", ["sleep", "` + marker + `"])
    os._exit(0)
`
	withCaps(t, degradedModes()["no_namespaces"], func() {
		o := run(t, Spec{Path: python, Args: []string{"-c", prog}}, "")
		if o.ExitCode != 0 || o.WallTime > 5*time.Second {
			t.Errorf("%+v", o)
		}
		if left := procsMatching("sleep\x00"+marker, ""); len(left) > 0 {
			t.Errorf("escaped orphan alive: %v", left)
		}
	})
}

// TestNetNamespaceAloneBlocksNetwork checks the network namespace without the
// seccomp filter (which would refuse the socket first).
func TestNetNamespaceAloneBlocksNetwork(t *testing.T) {
	needPython(t)
	need(t, "net_ns")
	c := *detect()
	c.seccomp = false
	c.prlimit = "" // and the Go second stage instead of prlimit(1)
	prog := `import socket
for host, port in (("127.0.0.1", 22), ("1.1.1.1", 53)):
    try:
        socket.create_connection((host, port), timeout=2); print("CONNECTED", host)
    except OSError as e: print("failed", host, e)
`
	withCaps(t, &c, func() {
		o := run(t, Spec{Path: python, Args: []string{"-c", prog}}, "")
		out := string(o.Stdout) + string(o.Stderr)
		if strings.Contains(out, "CONNECTED") || strings.Count(out, "failed") != 2 || strings.Contains(out, "Permission denied") {
			t.Errorf("want both connections to fail without seccomp:\n%s", out)
		}
		t.Logf("%s", out)
	})
}

// TestInitExecutableHelper builds cmd/transmute-sandbox-init and runs the
// sandbox through it, with both exec stages (prlimit(1) and the Go one).
func TestInitExecutableHelper(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil || testing.Short() {
		t.Skip("needs the go tool (and not -short)")
	}
	bin := filepath.Join(t.TempDir(), initHelperName)
	if out, err := exec.Command(goTool, "build", "-o", bin, "./cmd/transmute-sandbox-init").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, prlimit := range []bool{true, false} {
		c := *detect()
		if c.legacy {
			t.Skip("sandbox init unavailable here")
		}
		c.exe = bin
		if !prlimit {
			c.prlimit = ""
		}
		withCaps(t, &c, func() {
			o := run(t, sh("cat; exit 3"), "via helper")
			if o.ExitCode != 3 || string(o.Stdout) != "via helper" {
				t.Errorf("prlimit=%v: exit %d out %q err %q", prlimit, o.ExitCode, o.Stdout, o.Stderr)
			}
			s := Spec{Path: "/bin/true"}
			start := time.Now()
			for i := 0; i < 10; i++ {
				if o := run(t, s, ""); o.ExitCode != 0 {
					t.Fatalf("exit %d %s", o.ExitCode, o.Stderr)
				}
			}
			t.Logf("prlimit stage=%v: Run /bin/true through the helper: %v per run", prlimit, time.Since(start)/10)
		})
	}
}
