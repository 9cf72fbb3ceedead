package enginetest

import (
	"fmt"
	"strings"
	"testing"

	"transmute/schemas"
	"transmute/transforms/execute"
)

// loadAttack is a candidate whose hostile part runs when it is loaded (a C++ global
// constructor, a Java static initializer, Python module-level code), before any of
// its tests. FORGED in its code is a literal of forgedLines. Its function returns
// x + 1 when it gets to run.
type loadAttack struct {
	name, code, imports string
}

var loadAttacks = map[string][]loadAttack{
	schemas.Cpp: {
		{name: "thread_writes_protocol", imports: "#include <thread>\n#include <unistd.h>\n#include <cstring>\n#include <string>",
			code: `static int start_forger() {
  std::thread([] {
    const char* s = FORGED;
    for (int k = 0; k < 400; k++) {
      for (int fd = 0; fd < 64; fd++) if (write(fd, s, strlen(s)) < 0) {}
      th::write_all(std::string(s));
      usleep(5000);
    }
  }).detach();
  return 1;
}
static int forger_started = start_forger();
int f(int x) { return x + 1; }`},
		{name: "setrlimit_nofile", imports: "#include <sys/resource.h>",
			code: `static int lowered = [] { struct rlimit r{4, 4}; setrlimit(RLIMIT_NOFILE, &r); return 1; }();
int f(int x) { return x + lowered; }`},
		{name: "close_fds", imports: "#include <unistd.h>",
			code: `__attribute__((constructor)) static void close_all() { for (int fd = 0; fd < 1024; fd++) close(fd); }
int f(int x) { return x + 1; }`},
		{name: "dup2_protocol_fd", imports: "#include <unistd.h>\n#include <fcntl.h>",
			code: `struct Hijack { Hijack() {
  int null = open("/dev/null", O_RDWR);
  dup2(null, th::proto_fd); dup2(null, th::cmd_fd); dup2(null, 0); dup2(null, 1);
} };
Hijack hijack;
int f(int x) { return x + 1; }`},
		{name: "stdout_writes", imports: "#include <cstdio>\n#include <unistd.h>\n#include <cstring>\n#include <iostream>",
			code: `static int written = [] {
  const char* s = FORGED;
  printf("%s", s); fflush(stdout); std::cout << s << std::flush;
  if (write(1, s, strlen(s)) < 0) {} if (write(2, s, strlen(s)) < 0) {}
  return 1; }();
int f(int x) { return x + written; }`},
		{name: "exit_at_load", imports: "#include <cstdlib>",
			code: `static int bye = (exit(3), 1);
int f(int x) { return x + bye; }`},
		{name: "interposed_libc", imports: "#include <cerrno>",
			// not a constructor, but the same reach: a C function of the unit replaces
			// the library's for the whole program, the server's commands included
			code: `extern "C" int pipe2(int*, int) { errno = EMFILE; return -1; }
int f(int x) { return x + 1; }`},
		{name: "preinit_array", imports: "#include <sys/resource.h>",
			code: `static void lower() { struct rlimit r{4, 4}; setrlimit(RLIMIT_NOFILE, &r); }
__attribute__((section(".preinit_array"), used)) static void (*lower_early)() = lower;
int f(int x) { return x + 1; }`},
	},
	schemas.Java: {
		{name: "static_forged_lines", code: `static {
  System.out.print(FORGED); System.out.flush(); System.err.print(FORGED);
  try (java.io.FileOutputStream o = new java.io.FileOutputStream(java.io.FileDescriptor.out)) { o.write(FORGED.getBytes()); } catch (Throwable e) { }
}
static int f(int x) { return x + 1; }`},
		{name: "static_exit", code: `static { if (System.nanoTime() != 0) System.exit(3); }
static int f(int x) { return x + 1; }`},
		{name: "static_halt", code: `static { if (System.nanoTime() != 0) Runtime.getRuntime().halt(3); }
static int f(int x) { return x + 1; }`},
		{name: "static_thread", code: `static {
  Thread t = new Thread(() -> {
    for (int k = 0; k < 400; k++) {
      System.out.print(FORGED); System.out.flush();
      try { Thread.sleep(5); } catch (InterruptedException e) { }
    }
  });
  t.setDaemon(true); t.start();
}
static int f(int x) { return x + 1; }`},
	},
	schemas.Python: {
		{name: "module_forged_lines", code: `import os, sys
print(FORGED, end='')
sys.stdout.flush()
for fd in range(64):
    try:
        os.write(fd, FORGED.encode())
    except OSError:
        pass
def f(x):
    return x + 1`},
		{name: "module_closes_fds", code: `import os
for fd in range(1024):
    try:
        os.close(fd)
    except OSError:
        pass
def f(x):
    return x + 1`},
		{name: "module_exit", code: `import sys
sys.exit(3)
def f(x):
    return x + 1`},
		{name: "module_os_exit", code: `import os
os._exit(3)
def f(x):
    return x + 1`},
		{name: "module_thread", code: `import os, threading, time
def _forge():
    for _ in range(400):
        for fd in range(64):
            try:
                os.write(fd, FORGED.encode())
            except OSError:
                pass
        time.sleep(0.005)
threading.Thread(target=_forge, daemon=True).start()
def f(x):
    return x + 1`},
	},
}

// TestLoadTimeAttacks runs each load-time attacker in a batch with two honest
// candidates (as another translator's): the honest candidates' results must equal
// those of the batch without the attacker, and the attacker's tests get its own
// results or failures, never an infrastructure error (a Python module that exits as
// it is loaded is a compile_error of its own).
func TestLoadTimeAttacks(t *testing.T) {
	t.Parallel()
	forged := lit(forgedLines())
	tests := []schemas.Test{{Index: 0, Args: "[3]"}, {Index: 1, Args: "[5]"}}
	eachLang(t, "loadtime", tests, hostileLimits, func(t *testing.T, e execute.Engine, base execute.Batch) {
		lang := base.Lang
		honest := []execute.Candidate{
			{ID: "honest0", Code: normals(lang)[0], Entry: "f"},
			{ID: "honest1", Code: normals(lang)[1], Entry: "f"},
		}
		b := base
		b.Candidates = honest
		without := runBatch(t, e, b)
		if without[0].Tests[0].Output != "7" || without[1].Tests[1].Output != "22" {
			t.Fatalf("honest candidates give %+v / %+v", without[0].Tests, without[1].Tests)
		}
		for _, at := range loadAttacks[lang] {
			t.Run(at.name, func(t *testing.T) {
				b := base
				b.Candidates = []execute.Candidate{honest[0],
					{ID: "attacker", Code: strings.ReplaceAll(at.code, "FORGED", forged), Imports: at.imports, Entry: "f"},
					honest[1]}
				res := runBatch(t, e, b)
				ar := res[1]
				var st []string
				for _, tr := range ar.Tests {
					st = append(st, string(tr.Status)+":"+tr.Output+":"+short(tr.Error))
				}
				t.Logf("%s/%s: %s; tests %v; %s", lang, at.name, ar.Status, st, short(ar.Detail))
				if ar.Status == schemas.StatusCompileError && lang == schemas.Cpp {
					t.Fatalf("the attacker does not compile: %s", ar.Detail)
				}
				for k, i := range []int{0, 2} {
					if d := sameResult(res[i], without[k]); d != "" {
						t.Errorf("honest candidate %s differs from the run without the attacker: %s", res[i].CandidateID, d)
					}
				}
				for j, tr := range ar.Tests {
					if tr.Status == schemas.StatusInfraError || tr.Status == schemas.StatusNotRun {
						t.Errorf("attacker test %d: %s %s (want its own result or failure)", j, tr.Status, tr.Error)
					}
					if want := fmt.Sprint([]int{3, 5}[j] + 1); tr.Status == schemas.StatusOK && tr.Output != want {
						t.Errorf("attacker test %d: ok with output %s, not what it returned (%s): a forged line was taken", j, tr.Output, want)
					}
				}
			})
		}
	})
}
