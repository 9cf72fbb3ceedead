package enginetest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/execute/cpp"
	"transmute/transforms/execute/golang"
	"transmute/transforms/sandbox"
)

// stopLimits: a candidate that stops its worker must cost about this wall time, not
// the worker's life.
var stopLimits = sandbox.Limits{CPUTime: time.Second, WallTime: time.Second, MemoryBytes: 512 << 20}

// stopper is a candidate that stops (or kills) the process that serves it.
type stopper struct {
	name, code, imports string
	// stop: the candidate stops a process, which must make it a timeout; otherwise
	// it kills one, which must be its own failure (any status but ok and
	// infra_error)
	stop bool
	// outside, when set, is sent by the test to the process with a thread named
	// MARKER (the candidate names its own), for engines whose candidates cannot
	// signal their worker themselves
	outside syscall.Signal
}

// javaOutside names the candidate's thread MARKER and sleeps, for the test to signal
// its JVM (a Java candidate cannot: running programs is refused, and sun.misc.Signal
// raises only the signals the JVM handles).
const javaOutside = `static int f(int x) throws Exception {
  Thread.currentThread().setName("MARKER"); Thread.sleep(600); return x; }`

// A stop signal sent to another thread's process (the server; or the whole group,
// when another thread takes it) acts at that thread's next entry into the kernel:
// the stoppers sleep after it, so that they stop before they return.
func pyStop(call string) string {
	return "import os, signal, time\ndef f(x):\n    " + call + "\n    time.sleep(0.5)\n    return x"
}

const cppSignal = "#include <signal.h>\n#include <unistd.h>"

func cppStop(call string) string { return "int f(int x) { " + call + "; usleep(500000); return x; }" }

var stoppers = map[string][]stopper{
	schemas.Python: {
		{name: "stop_server", stop: true, code: pyStop("os.kill(os.getppid(), signal.SIGSTOP)")},
		{name: "tstp_server", stop: true, code: pyStop("os.kill(os.getppid(), signal.SIGTSTP)")},
		{name: "stop_self", stop: true, code: pyStop("os.kill(os.getpid(), signal.SIGSTOP)")},
		{name: "stop_group", stop: true, code: pyStop("os.killpg(0, signal.SIGSTOP)")},
		{name: "stop_all", stop: true, code: pyStop("os.kill(-1, signal.SIGSTOP)")},
		{name: "kill_server", code: "import os, signal, time\ndef f(x):\n    os.kill(os.getppid(), signal.SIGKILL)\n    time.sleep(1)\n    return x"},
	},
	schemas.Java: {
		{name: "stop_jvm", stop: true, code: javaOutside, outside: syscall.SIGSTOP},
		{name: "tstp_jvm", stop: true, code: javaOutside, outside: syscall.SIGTSTP},
		{name: "kill_jvm", code: javaOutside, outside: syscall.SIGKILL},
	},
	schemas.Cpp: {
		{name: "stop_server", stop: true, imports: cppSignal, code: cppStop("kill(getppid(), SIGSTOP)")},
		{name: "tstp_server", stop: true, imports: cppSignal, code: cppStop("kill(getppid(), SIGTSTP)")},
		{name: "stop_self", stop: true, imports: cppSignal, code: cppStop("raise(SIGSTOP)")},
		{name: "stop_group", stop: true, imports: cppSignal, code: cppStop("kill(0, SIGSTOP)")},
		{name: "stop_all", stop: true, imports: cppSignal, code: cppStop("kill(-1, SIGSTOP)")},
		{name: "kill_server", imports: "#include <signal.h>\n#include <unistd.h>", code: "int f(int x) { kill(getppid(), SIGKILL); sleep(1); return x; }"},
	},
}

// TestStoppedWorker runs each stopper with two normal candidates at a wall limit of
// 1 s, last and between them: the batch ends within the wall limit plus 2 s (the C++
// compiler's time aside; between them, a new worker's start too), the stopper is a
// timeout (one that kills its worker, its own failure), and the neighbours' results
// are those of their runs alone.
func TestStoppedWorker(t *testing.T) {
	t.Parallel()
	tests := []schemas.Test{{Index: 0, Args: "[3]"}, {Index: 1, Args: "[5]"}, {Index: 2, Args: "[7]"}}
	eachLang(t, "stopped", tests, stopLimits, func(t *testing.T, e execute.Engine, base execute.Batch) {
		lang := base.Lang
		alone := runAlone(t, e, base)
		for i, r := range alone {
			if r.Status != schemas.StatusOK {
				t.Fatalf("normal candidate %d alone: %s %s %+v", i, r.Status, r.Detail, r.Tests)
			}
		}
		for _, s := range stoppers[lang] {
			// Last in its batch, the stopper's time is the batch's but for its
			// neighbours' own (small) time: that bound is strict. Between two
			// normal candidates, the one after it runs in a new worker (a new JVM on
			// a loaded machine takes seconds): the bound is looser there, and the
			// neighbours' results are checked.
			for _, order := range []struct {
				name  string
				at    int           // the stopper's position
				slack time.Duration // beyond the wall limit plus 2 s
			}{{"last", 2, 0}, {"middle", 1, 10 * time.Second}} {
				t.Run(s.name+"/"+order.name, func(t *testing.T) {
					marker := fmt.Sprintf("tms%d%s%d", os.Getpid()%1000000, s.name[:2], order.at)
					normal := []execute.Candidate{{ID: "before", Code: normals(lang)[0], Entry: "f"},
						{ID: "after", Code: normals(lang)[1], Entry: "f"}}
					b := base
					b.Candidates = slices.Insert(normal, order.at,
						execute.Candidate{ID: "stopper", Code: strings.ReplaceAll(s.code, "MARKER", marker), Imports: s.imports, Entry: "f"})
					compile0 := compileTime(e)
					var sent chan bool
					if s.outside != 0 {
						sent = make(chan bool, 1)
						go func() { sent <- signalThread(marker, s.outside, 10*time.Second) }()
					}
					start := time.Now()
					res := runBatch(t, e, b)
					took := time.Since(start)
					if sent != nil && !<-sent {
						t.Fatalf("no thread named %s appeared", marker)
					}
					compiled := compileTime(e) - compile0
					r := res[order.at]
					var st []string
					for _, tr := range r.Tests {
						st = append(st, string(tr.Status)+":"+tr.Output+":"+short(tr.Error))
					}
					t.Logf("%s/%s/%s: %s in %v (compiler %v); tests %v; %s", lang, s.name, order.name, r.Status,
						took.Round(time.Millisecond), compiled.Round(time.Millisecond), st, short(r.Detail))
					if r.Status == schemas.StatusCompileError {
						t.Fatalf("does not compile: %s", r.Detail)
					}
					if limit := stopLimits.WallTime + 2*time.Second + order.slack; took-compiled > limit {
						t.Errorf("the batch took %v (compiler %v), more than %v", took, compiled, limit)
					}
					if s.stop && r.Status != schemas.StatusTimeout {
						t.Errorf("status %s, want timeout", r.Status)
					}
					// A killed worker is the candidate's failure: its tests are runtime
					// errors (the status stays ok, "every test ran", in C++ as for a
					// candidate that kills itself), timeouts or the like, never ok,
					// infra_error or not run.
					if r.Status == schemas.StatusInfraError {
						t.Errorf("status %s, want the candidate's own failure", r.Status)
					}
					for _, tr := range r.Tests {
						if tr.Status == schemas.StatusOK || tr.Status == schemas.StatusInfraError || tr.Status == schemas.StatusNotRun {
							t.Errorf("test %d: %s %s", tr.Index, tr.Status, tr.Error)
						}
					}
					res = slices.Delete(res, order.at, order.at+1)
					for i := range res {
						if d := sameResult(res[i], alone[i]); d != "" {
							t.Errorf("normal candidate %s differs from its run alone: %s", res[i].CandidateID, d)
						}
					}
				})
			}
		}
	})
}

// signalThread sends sig to the process one of whose threads is named marker, as
// soon as one is (within d); it reports whether it found one.
func signalThread(marker string, sig syscall.Signal, d time.Duration) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		procs, _ := filepath.Glob("/proc/[0-9]*/task/[0-9]*/comm")
		for _, p := range procs {
			b, err := os.ReadFile(p)
			if err != nil || strings.TrimSpace(string(b)) != marker {
				continue
			}
			pid, err := strconv.Atoi(strings.Split(p, "/")[2])
			if err == nil && syscall.Kill(pid, sig) == nil {
				return true
			}
		}
	}
	return false
}

// compileTime is the C++ engine's time in the compiler so far, the Go engine's in go
// build (0 for the others).
func compileTime(e execute.Engine) time.Duration {
	if c, ok := e.(*cpp.Engine); ok {
		return c.Stats().Compile
	}
	if g, ok := e.(*golang.Engine); ok {
		return g.Stats().BuildWall
	}
	return 0
}
