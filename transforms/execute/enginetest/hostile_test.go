package enginetest

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"transmute/internal/testenv"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/sandbox"
)

// secretEnv is set in the test process; no candidate may see it.
const secretEnv = "TRANSMUTE_HOSTILE_SECRET"

// hostileLimits are short so the suite stays fast: a looping candidate burns the
// CPU limit on each of its tests, in this suite and again in its degraded and
// user-namespace runs, while the normal candidates beside it need a few ms.
var hostileLimits = sandbox.Limits{CPUTime: time.Second, WallTime: 2 * time.Second, MemoryBytes: 512 << 20}

// hostile is one hostile int -> int candidate.
type hostile struct {
	name string
	// code has the placeholders MARKER (a unique string), PORT (a listening port)
	// and DIRMAIN (the module root).
	code    string
	imports string
	// nonOK requires a status other than ok for the candidate; otherwise ok is
	// allowed (a blocked action may return the harmless value) but the checks on
	// processes, files, network and secret still apply.
	nonOK bool
	// forbidden is an output the candidate must not produce (e.g. "1" when its
	// connection succeeded); may hold SECRETLEN.
	forbidden string
	// known describes an engine bug seen with this candidate (reported to the
	// engine's owner): its status and neighbour checks are then logged, not failed.
	// The process, file, network and secret checks stay strict.
	known string
}

// runAlone runs each of normals(base.Lang) alone in a batch like base: the
// results the hostile tests compare the same candidates' results beside an attacker to.
func runAlone(t *testing.T, e execute.Engine, base execute.Batch) []execute.Result {
	t.Helper()
	var alone []execute.Result
	for i, code := range normals(base.Lang) {
		b := base
		b.Candidates = []execute.Candidate{{ID: fmt.Sprintf("normal%d", i), Code: code, Entry: "f"}}
		alone = append(alone, runBatch(t, e, b)[0])
	}
	return alone
}

func normals(lang string) []string {
	switch lang {
	case schemas.Java:
		return []string{"static int f(int x) { return x * 2 + 1; }", "static int f(int x) { return x * x - 3; }"}
	case schemas.Python:
		return []string{"def f(x):\n    return x * 2 + 1", "def f(x):\n    return x * x - 3"}
	case schemas.Go:
		return []string{goNormal0, goNormal1}
	default:
		return []string{"int f(int x) { return x * 2 + 1; }", "int f(int x) { return x * x - 3; }"}
	}
}

var hostiles = map[string][]hostile{
	schemas.Java: {
		{name: "infinite_loop", nonOK: true, code: "static int f(int x) { while (true) { x++; } }"},
		{name: "deep_recursion", nonOK: true, code: "static int f(int x) { return f(x + 1) + 1; }"},
		{name: "memory_bomb", nonOK: true, imports: "import java.util.*;",
			code: "static int f(int x) { List<long[]> l = new ArrayList<>(); while (true) { l.add(new long[1 << 20]); } }"},
		{name: "fork_bomb", code: `static int f(int x) throws Exception {
  for (int i = 0; i < 100000; i++) Runtime.getRuntime().exec(new String[]{"/bin/sh", "-c", "sleep 1000; : MARKER"});
  return x; }`},
		{name: "output_flood", nonOK: true, code: `static int f(int x) { String s = "x".repeat(10000); while (true) { System.out.print(s); System.err.print(s); } }`},
		{name: "orphan", code: `static int f(int x) throws Exception {
  new ProcessBuilder("/bin/sh", "-c", "sleep 1000; : MARKER").start(); return x + 1; }`},
		{name: "network", forbidden: "1", code: `static int f(int x) throws Exception {
  new java.net.Socket("127.0.0.1", PORT).close(); return 1; }`},
		{name: "write_files", code: `static int f(int x) throws Exception {
  java.nio.file.Files.writeString(java.nio.file.Path.of("DIRMAIN/MARKER"), "x");
  java.nio.file.Files.writeString(java.nio.file.Path.of("/tmp/MARKER"), "x"); return x; }`},
		{name: "secret", forbidden: "SECRETLEN", code: `static int f(int x) {
  String s = System.getenv("TRANSMUTE_HOSTILE_SECRET"); return s == null ? -1 : s.length(); }`},
		{name: "exit", nonOK: true, code: "static int f(int x) { System.exit(3); return x; }"},
		{name: "halt", nonOK: true, code: "static int f(int x) { Runtime.getRuntime().halt(3); return x; }"},
		{name: "signal_self", nonOK: true, code: `static int f(int x) throws Exception {
  long pid = ProcessHandle.current().pid();
  Runtime.getRuntime().exec(new String[]{"/bin/kill", "-9", Long.toString(pid)}).waitFor(); Thread.sleep(1000); return x; }`},
		{name: "catch_throwable", nonOK: true, code: `static int f(int x) {
  while (true) { try { while (true) { x++; } } catch (Throwable t) { x--; } } }`},
	},
	schemas.Python: {
		{name: "infinite_loop", nonOK: true, code: "def f(x):\n    while True:\n        x += 1"},
		{name: "deep_recursion", nonOK: true, code: "import sys\ndef g(x):\n    return g(x + 1) + 1\ndef f(x):\n    sys.setrecursionlimit(10**9)\n    return g(x)"},
		{name: "memory_bomb", nonOK: true, code: "def f(x):\n    a = []\n    while True:\n        a.append(bytearray(1 << 24))"},
		{name: "fork_bomb", nonOK: true, code: `import os
def f(x):
    while True:
        if os.fork() == 0 and os.getpid() % 2 == 0:
            os.execv('/bin/sh', ['sh', '-c', 'sleep 1000; : MARKER'])`},
		{name: "output_flood", nonOK: true, code: "import sys, os\ndef f(x):\n    s = 'x' * 10000\n    while True:\n        print(s)\n        sys.stderr.write(s)\n        os.write(1, s.encode())"},
		{name: "orphan", code: "import subprocess\ndef f(x):\n    subprocess.Popen(['/bin/sh', '-c', 'sleep 1000; : MARKER'], start_new_session=True)\n    return x + 1"},
		{name: "network", forbidden: "1", code: "import socket\ndef f(x):\n    socket.create_connection(('127.0.0.1', PORT), timeout=1).close()\n    return 1"},
		{name: "write_files", code: "def f(x):\n    open('DIRMAIN/MARKER', 'w').write('x')\n    open('/tmp/MARKER', 'w').write('x')\n    return x"},
		{name: "secret", forbidden: "SECRETLEN", code: "import os\ndef f(x):\n    s = os.environ.get('TRANSMUTE_HOSTILE_SECRET')\n    return -1 if s is None else len(s)"},
		{name: "os_exit", nonOK: true, code: "import os\ndef f(x):\n    os._exit(3)"},
		{name: "sys_exit", nonOK: true, code: "import sys\ndef f(x):\n    sys.exit(3)"},
		{name: "abort", nonOK: true, code: "import os\ndef f(x):\n    os.abort()"},
		{name: "sigkill_self", nonOK: true, code: "import os, signal\ndef f(x):\n    os.kill(os.getpid(), signal.SIGKILL)\n    return x"},
		{name: "sigsegv_self", nonOK: true, code: "import os, signal\ndef f(x):\n    os.kill(os.getpid(), signal.SIGSEGV)\n    return x"},
		{name: "catch_base_exception", nonOK: true, code: "def f(x):\n    while True:\n        try:\n            while True:\n                x += 1\n        except BaseException:\n            pass"},
	},
	schemas.Cpp: {
		{name: "infinite_loop", nonOK: true, code: "int f(int x) { volatile int y = x; while (true) { y = y + 1; } }"},
		{name: "deep_recursion", nonOK: true, code: "int f(int x) { volatile char buf[256]; buf[0] = (char)x; return f(x + 1) + buf[0]; }"},
		{name: "memory_bomb", nonOK: true, imports: "#include <cstdlib>\n#include <cstring>",
			code: "int f(int x) { while (true) { char* p = (char*)malloc(1 << 24); memset(p, 1, 1 << 24); } }"},
		{name: "fork_bomb", nonOK: true, imports: "#include <unistd.h>",
			code: `int f(int x) { while (true) { if (fork() == 0 && getpid() % 2 == 0) execl("/bin/sh", "sh", "-c", "sleep 1000; : MARKER", (char*)0); } }`},
		{name: "output_flood", nonOK: true, imports: "#include <cstdio>\n#include <unistd.h>\n#include <string>",
			code: `int f(int x) { std::string s(10000, 'x'); while (true) { fputs(s.c_str(), stdout); fputs(s.c_str(), stderr); if (write(1, s.data(), s.size()) < 0) {} } }`},
		{name: "orphan", imports: "#include <unistd.h>",
			code: `int f(int x) { if (fork() == 0) { setsid(); execl("/bin/sh", "sh", "-c", "sleep 1000; : MARKER", (char*)0); _exit(0); } return x + 1; }`},
		{name: "network", forbidden: "1", imports: "#include <sys/socket.h>\n#include <netinet/in.h>\n#include <arpa/inet.h>\n#include <unistd.h>",
			code: `int f(int x) { int s = socket(AF_INET, SOCK_STREAM, 0); if (s < 0) return -1;
  sockaddr_in a{}; a.sin_family = AF_INET; a.sin_port = htons(PORT); a.sin_addr.s_addr = inet_addr("127.0.0.1");
  int r = connect(s, (sockaddr*)&a, sizeof a); close(s); return r == 0 ? 1 : 0; }`},
		{name: "write_files", imports: "#include <cstdio>",
			code: `int f(int x) { FILE* a = fopen("DIRMAIN/MARKER", "w"); if (a) { fputs("x", a); fclose(a); }
  FILE* b = fopen("/tmp/MARKER", "w"); if (b) { fputs("x", b); fclose(b); } return x; }`},
		{name: "secret", forbidden: "SECRETLEN", imports: "#include <cstdlib>\n#include <cstring>",
			code: `int f(int x) { const char* s = getenv("TRANSMUTE_HOSTILE_SECRET"); return s ? (int)strlen(s) : -1; }`},
		{name: "exit", nonOK: true, imports: "#include <cstdlib>", code: "int f(int x) { exit(3); }"},
		{name: "_exit", nonOK: true, imports: "#include <unistd.h>", code: "int f(int x) { _exit(3); }"},
		{name: "abort", nonOK: true, imports: "#include <cstdlib>", code: "int f(int x) { abort(); }"},
		{name: "sigkill_self", nonOK: true, imports: "#include <signal.h>\n#include <unistd.h>", code: "int f(int x) { kill(getpid(), SIGKILL); return x; }"},
		{name: "sigsegv_self", nonOK: true, imports: "#include <signal.h>\n#include <unistd.h>", code: "int f(int x) { kill(getpid(), SIGSEGV); return x; }"},
		{name: "catch_all", nonOK: true, code: "int f(int x) { while (true) { try { volatile int y = x; while (true) { y = y + 1; } } catch (...) { } } }"},
	},
}

// procsWith lists the processes whose command line contains marker.
var procsWith = testenv.ProcsWith

// TestHostileCandidates runs each hostile candidate between two normal ones and
// checks its status, the neighbours' results, leftover processes, host files,
// network and the secret.
func TestHostileCandidates(t *testing.T) {
	root := moduleRoot(t)
	t.Parallel()
	secret := os.Getenv(secretEnv)
	if secret == "" {
		t.Fatalf("%s is not set (TestMain sets it)", secretEnv)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	port := fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
	// Degraded mode (no mount namespace): the host's /tmp is the program's, so
	// a file there is a protection this sandbox reports absent, not a breach.
	prot := sandbox.Protections()
	t.Logf("sandbox protections: %v", prot)
	sharedTmp := !slices.Contains(prot, "private_tmp")
	arrived := make(chan string, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			arrived <- c.RemoteAddr().String()
			c.Close()
		}
	}()
	tests := []schemas.Test{{Index: 0, Args: "[3]"}, {Index: 1, Args: "[5]"}}
	eachLang(t, "hostile", tests, hostileLimits, func(t *testing.T, e execute.Engine, base execute.Batch) {
		lang := base.Lang
		// the normal candidates alone
		alone := runAlone(t, e, base)
		for i, r := range alone {
			if r.Status != schemas.StatusOK || r.Tests[0].Status != schemas.StatusOK {
				t.Fatalf("normal candidate %d alone: %s %s %+v", i, r.Status, r.Detail, r.Tests)
			}
		}
		if alone[0].Tests[0].Output != "7" || alone[1].Tests[1].Output != "22" {
			t.Fatalf("normal candidates alone give %+v / %+v", alone[0].Tests, alone[1].Tests)
		}
		for _, h := range hostiles[lang] {
			t.Run(h.name, func(t *testing.T) {
				marker := fmt.Sprintf("tmhostile_%d_%s_%s", os.Getpid(), lang, strings.Trim(h.name, "_"))
				code := strings.NewReplacer("MARKER", marker, "PORT", port, "DIRMAIN", root).Replace(h.code)
				b := base
				b.Candidates = []execute.Candidate{
					{ID: "before", Code: normals(lang)[0], Entry: "f"},
					{ID: "hostile", Code: code, Imports: h.imports, Entry: "f"},
					{ID: "after", Code: normals(lang)[1], Entry: "f"},
				}
				start := time.Now()
				res := runBatch(t, e, b)
				took := time.Since(start)
				hr := res[1]
				var st []string
				for _, tr := range hr.Tests {
					st = append(st, string(tr.Status)+":"+tr.Output+":"+short(tr.Error))
				}
				t.Logf("%s/%s: %s in %v (cpu %v); tests %v; %s", lang, h.name, hr.Status, took.Round(time.Millisecond),
					hr.CPUTime.Round(time.Millisecond), st, short(hr.Detail))
				// failf fails, or only logs for a known engine bug
				failf := t.Errorf
				if h.known != "" {
					failf = func(format string, args ...any) {
						t.Logf("KNOWN ENGINE BUG (%s): "+format, append([]any{h.known}, args...)...)
					}
				}
				// the hostile candidate
				if hr.Status == schemas.StatusCompileError {
					t.Fatalf("hostile candidate does not compile: %s", hr.Detail)
				}
				for _, tr := range hr.Tests {
					if tr.Status == schemas.StatusInfraError {
						t.Errorf("test %d: infra_error %s", tr.Index, tr.Error)
					}
					if h.nonOK && tr.Status == schemas.StatusOK {
						failf("test %d: status ok (output %s), want a failure status", tr.Index, tr.Output)
					}
					forb := strings.ReplaceAll(h.forbidden, "SECRETLEN", fmt.Sprint(len(secret)))
					if forb != "" && tr.Status == schemas.StatusOK && tr.Output == forb {
						t.Errorf("test %d: output %s shows the action succeeded", tr.Index, tr.Output)
					}
					if tr.WallTime > hostileLimits.WallTime+2*time.Second {
						t.Errorf("test %d: wall time %v beyond the limit %v", tr.Index, tr.WallTime, hostileLimits.WallTime)
					}
				}
				if h.nonOK && hr.Status == schemas.StatusOK && hr.Tests[0].Status == schemas.StatusOK {
					failf("candidate status ok, want a failure")
				}
				// a generous bound on the whole batch: two tests at most at the wall limit,
				// plus a restart of the worker
				if took > 4*hostileLimits.WallTime+20*time.Second {
					t.Errorf("batch took %v", took)
				}
				// the neighbours
				for i, k := range []int{0, 2} {
					if d := sameResult(res[k], alone[i]); d != "" {
						failf("normal candidate %s differs from its run alone: %s", res[k].CandidateID, d)
					}
				}
				// nothing left behind
				deadline := time.Now().Add(2 * time.Second)
				var left []string
				for {
					if left = procsWith(marker); len(left) == 0 || time.Now().After(deadline) {
						break
					}
					time.Sleep(100 * time.Millisecond)
				}
				if len(left) > 0 {
					t.Errorf("processes left after the run: %v", left)
				}
				for _, p := range []string{filepath.Join(root, marker), filepath.Join("/tmp", marker), filepath.Join(os.TempDir(), marker)} {
					if _, err := os.Stat(p); err == nil {
						os.Remove(p)
						if sharedTmp && p != filepath.Join(root, marker) {
							t.Logf("WITHOUT private_tmp: the candidate created %s", p)
							continue
						}
						t.Errorf("the candidate created %s on the host", p)
					}
				}
				select {
				case a := <-arrived:
					t.Errorf("a connection from %s reached the test's listener", a)
				default:
				}
			})
		}
	})
}
