package enginetest

import (
	"fmt"
	"strings"
	"testing"

	"transmute/schemas"
	"transmute/transforms/execute"
)

// forgedLines are what a forger writes wherever it can: ok results of 0 for every
// candidate of its batch (itself, the one before it and the one after it, as a
// translation would forge the gold's outputs), "done" lines, and the lines with which
// the runners end a child or a job.
func forgedLines() string {
	var b strings.Builder
	for c := 0; c < 3; c++ {
		for t := 0; t < 2; t++ {
			fmt.Fprintf(&b, `{"c":%d,"t":%d,"s":"ok","v":0,"cpu_ns":1,"wall_ns":1}`+"\n", c, t)
		}
		fmt.Fprintf(&b, `{"c":%d,"done":true}`+"\n", c)
	}
	for g := 0; g < 3; g++ {
		fmt.Fprintf(&b, "#exit %d 0 0 0 0 0\n", g)
	}
	b.WriteString("#end\n")
	return b.String()
}

// lit is s as a double-quoted literal of Python, Java and C++.
func lit(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

// forger is one candidate that tries to write results for others. FORGED in its code
// is a literal of forgedLines. It returns x + 1 when it is not stopped, or 1 when an
// action that must be refused succeeded (forbidden then says so).
type forger struct {
	name, code, imports string
	// violation requires the forger's status to be sandbox_violation: it reached its
	// own reporting channel, so what it wrote there is seen (and it must fail)
	violation bool
	forbidden string
}

var forgers = map[string][]forger{
	schemas.Python: {
		{name: "inherited_fds", code: `import os
def f(x):
    for fd in range(1024):
        try:
            os.write(fd, FORGED.encode())
        except OSError:
            pass
    return x + 1`},
		{name: "proc_fd", code: `import os
def f(x):
    for pid in ('self', str(os.getppid()), '1', '2', '3'):
        for fd in range(64):
            try:
                with open('/proc/%s/fd/%d' % (pid, fd), 'w') as w:
                    w.write(FORGED)
            except Exception:
                pass
    return x + 1`},
		{name: "parent_mem", forbidden: "1", code: `import os
def f(x):
    try:
        open('/proc/%d/mem' % os.getppid(), 'r+b').close()
        return 1
    except OSError:
        return x + 1`},
		{name: "runner_objects", violation: true, code: `import sys
def f(x):
    # what the runner left in reach: its module, and the functions in the frames below
    m = sys.modules['__main__']
    seen = set()
    fr = sys._getframe(1)
    while fr is not None:
        for v in list(fr.f_locals.values()) + list(fr.f_globals.values()):
            name = getattr(v, '__name__', '')
            if callable(v) and name in ('emit_raw', 'emit_line', 'emit', 'reply', 'write_all') and id(v) not in seen:
                seen.add(id(v))
                for line in FORGED.splitlines():
                    try:
                        v(line)
                    except Exception:
                        pass
        fr = fr.f_back
    for name in ('flush',):
        try:
            getattr(m, name)()
        except Exception:
            pass
    return x + 1`},
	},
	schemas.Java: {
		{name: "proc_fd", imports: "import java.io.*;", code: `static int f(int x) {
  String[] paths = {"/proc/self/fd/1", "/./proc/self/fd/1", "//proc/self/fd/1", "/proc/./self/fd/1",
    "../../../../../../../../proc/self/fd/1", "/dev/stdout", "/dev/fd/1", "/./dev/stdout", "/proc/thread-self/fd/1"};
  for (String p : paths) {
    try (FileOutputStream o = new FileOutputStream(p, true)) { o.write(FORGED.getBytes()); } catch (Throwable e) { }
    try { java.nio.file.Files.writeString(java.nio.file.Path.of(p), FORGED, java.nio.file.StandardOpenOption.APPEND); } catch (Throwable e) { }
  }
  for (int fd = 0; fd < 64; fd++) {
    try (FileOutputStream o = new FileOutputStream("/./proc/self/fd/" + fd, true)) { o.write(FORGED.getBytes()); } catch (Throwable e) { }
  }
  return x + 1; }`},
		{name: "symlink", code: `static int f(int x) {
  try {
    java.nio.file.Path l = java.nio.file.Path.of("lnk" + x + "_" + System.nanoTime());
    java.nio.file.Files.createSymbolicLink(l, java.nio.file.Path.of("/proc/self/fd/1"));
    java.nio.file.Files.writeString(l, FORGED, java.nio.file.StandardOpenOption.APPEND);
  } catch (Throwable e) { }
  return x + 1; }`},
		{name: "inherited_fds", code: `static int f(int x) {
  try (java.io.FileOutputStream o = new java.io.FileOutputStream(java.io.FileDescriptor.out)) { o.write(FORGED.getBytes()); } catch (Throwable e) { }
  System.out.print(FORGED); System.out.flush(); System.err.print(FORGED);
  return x + 1; }`},
		{name: "runner_objects", code: `static int f(int x) {
  try {
    Class<?> r = Class.forName("transmute.runner.Runner");
    for (java.lang.reflect.Field fl : r.getDeclaredFields()) {
      try { fl.setAccessible(true); Object v = fl.get(null);
        if (v instanceof java.io.PrintStream) { ((java.io.PrintStream) v).print(FORGED); ((java.io.PrintStream) v).flush(); }
      } catch (Throwable e) { }
    }
    for (java.lang.reflect.Method m : r.getDeclaredMethods()) {
      if (!m.getName().equals("emit")) continue;
      try { m.setAccessible(true); for (String l : FORGED.split("\n")) m.invoke(null, l); } catch (Throwable e) { }
    }
    try {
      java.lang.invoke.MethodHandles.Lookup lk = java.lang.invoke.MethodHandles.privateLookupIn(r, java.lang.invoke.MethodHandles.lookup());
      java.lang.invoke.MethodHandle h = lk.findStatic(r, "emit", java.lang.invoke.MethodType.methodType(void.class, String.class));
      for (String l : FORGED.split("\n")) h.invoke(l);
    } catch (Throwable e) { }
  } catch (Throwable e) { }
  return x + 1; }`},
		{name: "load_library", forbidden: "1", code: `static int f(int x) {
  try { System.load("/nonexistent/libforge.so"); } catch (UnsatisfiedLinkError e) { return 1; } catch (Throwable e) { }
  return x + 1; }`},
	},
	schemas.Cpp: {
		{name: "inherited_fds", imports: "#include <unistd.h>\n#include <cstring>", code: `int f(int x) {
  const char* s = FORGED;
  for (int fd = 0; fd < 1024; fd++) { if (write(fd, s, strlen(s)) < 0) {} }
  return x + 1; }`},
		{name: "proc_fd", imports: "#include <unistd.h>\n#include <fcntl.h>\n#include <cstring>\n#include <cstdio>", code: `int f(int x) {
  const char* s = FORGED;
  int pids[] = {0, (int)getppid(), 1, 2, 3};
  for (int pid : pids) for (int fd = 0; fd < 64; fd++) {
    char p[64];
    if (pid == 0) snprintf(p, sizeof p, "/proc/self/fd/%d", fd); else snprintf(p, sizeof p, "/proc/%d/fd/%d", pid, fd);
    int o = open(p, O_WRONLY);
    if (o >= 0) { if (write(o, s, strlen(s)) < 0) {} close(o); }
  }
  return x + 1; }`},
		{name: "parent_mem", forbidden: "1", imports: "#include <unistd.h>\n#include <fcntl.h>\n#include <cstdio>", code: `int f(int x) {
  char p[64]; snprintf(p, sizeof p, "/proc/%d/mem", (int)getppid());
  int o = open(p, O_RDWR);
  if (o >= 0) { close(o); return 1; }
  return x + 1; }`},
		{name: "runner_objects", violation: true, imports: "#include <string>", code: `int f(int x) {
  th::write_all(std::string(FORGED));
  return x + 1; }`},
	},
}

// TestForgedResults runs each forger between two normal candidates: every attempt
// must end as a violation or a failed test of the forger alone, and both normal
// candidates' results must equal their results when run alone.
func TestForgedResults(t *testing.T) {
	t.Parallel()
	forged := lit(forgedLines())
	tests := []schemas.Test{{Index: 0, Args: "[3]"}, {Index: 1, Args: "[5]"}}
	eachLang(t, "forgery", tests, hostileLimits, func(t *testing.T, e execute.Engine, base execute.Batch) {
		lang := base.Lang
		alone := runAlone(t, e, base)
		if alone[0].Tests[0].Output != "7" || alone[1].Tests[1].Output != "22" {
			t.Fatalf("normal candidates alone give %+v / %+v", alone[0].Tests, alone[1].Tests)
		}
		for _, fg := range forgers[lang] {
			t.Run(fg.name, func(t *testing.T) {
				b := base
				b.Candidates = []execute.Candidate{
					{ID: "before", Code: normals(lang)[0], Entry: "f"},
					{ID: "forger", Code: strings.ReplaceAll(fg.code, "FORGED", forged), Imports: fg.imports, Entry: "f"},
					{ID: "after", Code: normals(lang)[1], Entry: "f"},
				}
				res := runBatch(t, e, b)
				fr := res[1]
				var st []string
				for _, tr := range fr.Tests {
					st = append(st, string(tr.Status)+":"+tr.Output+":"+short(tr.Error))
				}
				t.Logf("%s/%s: %s; tests %v; %s", lang, fg.name, fr.Status, st, short(fr.Detail))
				if fr.Status == schemas.StatusCompileError {
					t.Fatalf("the forger does not compile: %s", fr.Detail)
				}
				for i, k := range []int{0, 2} {
					if d := sameResult(res[k], alone[i]); d != "" {
						t.Errorf("normal candidate %s differs from its run alone: %s", res[k].CandidateID, d)
					}
				}
				for j, tr := range fr.Tests {
					if tr.Status == schemas.StatusInfraError || tr.Status == schemas.StatusNotRun {
						t.Errorf("forger test %d: %s %s (want its own result or a violation)", j, tr.Status, tr.Error)
					}
					want := fmt.Sprint([]int{3, 5}[j] + 1)
					if tr.Status == schemas.StatusOK && tr.Output != want && tr.Output != fg.forbidden {
						t.Errorf("forger test %d: ok with output %s, not what it returned (%s): a forged line was taken", j, tr.Output, want)
					}
					if fg.forbidden != "" && tr.Status == schemas.StatusOK && tr.Output == fg.forbidden {
						t.Errorf("forger test %d: output %s shows a refused action succeeded", j, tr.Output)
					}
				}
				if fg.violation && fr.Status != schemas.StatusSandboxViolation {
					t.Errorf("forger status %s, want %s", fr.Status, schemas.StatusSandboxViolation)
				}
			})
		}
	})
}
