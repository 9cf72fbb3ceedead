package enginetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
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
	"transmute/transforms/sandbox"
)

// openCpp opens a C++ engine of its own (on the shared cache) with compile limits
// lim, and returns it with its work directory.
func openCpp(t *testing.T, lim sandbox.Limits) (*cpp.Engine, string) {
	t.Helper()
	buildHarness(schemas.Cpp)
	e, err := cpp.New(execute.Options{WorkDir: engineCache})
	if err != nil {
		t.Fatal(err)
	}
	if lim != (sandbox.Limits{}) {
		e.CompileLimits = lim
	}
	return e, engineCache
}

// seedHarness links the C++ harness files of the shared cache (header, precompiled
// header, runtime) into the work directory dir, so that an engine there finds them
// built; where linking fails the engine builds them itself.
func seedHarness(t *testing.T, dir string) {
	t.Helper()
	buildHarness(schemas.Cpp)
	subs, _ := filepath.Glob(filepath.Join(engineCache, "cpp-harness-*"))
	for _, sub := range subs {
		to := filepath.Join(dir, filepath.Base(sub))
		if err := os.MkdirAll(to, 0o755); err != nil {
			t.Fatal(err)
		}
		os.Chmod(to, 0o755)
		for _, f := range []string{"harness.h", "harness.h.gch", "harness_rt.o"} {
			os.Link(filepath.Join(sub, f), filepath.Join(to, f))
		}
	}
}

// resultText is everything of a result a reader of the tables sees.
func resultText(r execute.Result) string {
	var b strings.Builder
	b.WriteString(string(r.Status) + "\n" + r.Detail + "\n")
	for _, tr := range r.Tests {
		b.WriteString(string(tr.Status) + "\n" + tr.Output + "\n" + tr.Error + "\n")
	}
	return b.String()
}

// TestCompileCannotReadHostFiles: a candidate that includes a file only the
// launcher's user may read, or embeds it with .incbin, does not compile, and the
// file's content appears in no result; a neighbour is unaffected.
func TestCompileCannotReadHostFiles(t *testing.T) {
	if os.Getuid() != 0 || !slices.Contains(sandbox.Protections(), "uid_drop") {
		t.Skip("needs root and the sandbox's uid drop: the compiler would run as the launcher's user")
	}
	t.Parallel()
	e, work := openCpp(t, sandbox.Limits{})
	raw := make([]byte, 12)
	rand.Read(raw)
	marker := "transmute_secret_" + hex.EncodeToString(raw)
	tmp := t.TempDir()
	os.Chmod(tmp, 0o755)
	// one under /tmp (hidden by the private /tmp too), one inside the engine's own
	// directory, which the compiler sees: only the file's mode protects that one
	inTmp := filepath.Join(tmp, "secret.h")
	harness, _ := filepath.Glob(filepath.Join(work, "cpp-harness-*"))
	if len(harness) != 1 {
		t.Fatalf("engine directory: %v", harness)
	}
	inEngine := filepath.Join(harness[0], "secret.h")
	for _, p := range []string{inTmp, inEngine} {
		if err := os.WriteFile(p, []byte(marker+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Remove(p) })
	}
	var cands []execute.Candidate
	for k, p := range []string{inTmp, inEngine} {
		cands = append(cands,
			execute.Candidate{ID: fmt.Sprintf("include%d", k), Imports: fmt.Sprintf("#include %q", p),
				Code: "string f(int x) { return to_string(x); }"},
			execute.Candidate{ID: fmt.Sprintf("incbin%d", k), Code: fmt.Sprintf(`extern "C" const char leak_%d[];
asm(".section .rodata\n.global leak_%d\nleak_%d:\n.incbin \"%s\"\n.byte 0\n.text");
string f(int x) { return string(leak_%d); }`, k, k, k, p, k)})
	}
	cands = append(cands, execute.Candidate{ID: "honest", Code: "string f(int x) { return to_string(x * 2); }"})
	b := execute.Batch{ProblemID: "hostfiles", Lang: schemas.Cpp, Params: []schemas.Param{{Name: "x", Type: "int"}},
		Returns: "string", Tests: []schemas.Test{{Index: 0, Args: "[3]"}}, Limits: hostileLimits, Candidates: cands}
	res := runBatch(t, e, b)
	for _, r := range res {
		t.Logf("%s: %s %s", r.CandidateID, r.Status, short(r.Detail))
		if strings.Contains(resultText(r), marker) {
			t.Errorf("%s: the secret file's content is in the result: %s", r.CandidateID, short(resultText(r)))
		}
		if r.CandidateID == "honest" {
			if r.Status != schemas.StatusOK || r.Tests[0].Output != `"6"` {
				t.Errorf("honest: %s %+v", r.Status, r.Tests)
			}
		} else if r.Status != schemas.StatusCompileError {
			t.Errorf("%s: %s, want compile_error", r.CandidateID, r.Status)
		}
	}
}

// vmHWM is this process's peak resident set (KiB).
func vmHWM(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n
		}
	}
	t.Fatal("no VmHWM")
	return 0
}

// compileBombs never finish compiling, or need all memory.
var compileBombs = []struct{ name, imports, code string }{
	{name: "template_recursion", code: `template<int A, long B> struct T { using X = typename T<A-1, 2*B>::X;
  using Y = typename T<A-1, 2*B+1>::X; static const long v = T<A-1, 2*B>::v + T<A-1, 2*B+1>::v; };
template<long B> struct T<0, B> { using X = int; static const long v = B; };
int f(int x) { return x + (int)T<40, 1>::v; }`},
	{name: "include_dev_zero", imports: "#include </dev/zero>", code: "int f(int x) { return x + 1; }"},
	{name: "constexpr_loop", code: `constexpr long spin() { long s = 0; for (long i = 0; i < 200000; i++) for (long j = 0; j < 200000; j++) s += i ^ j; return s; }
int f(int x) { constexpr long s = spin(); return x + (int)(s & 1); }`},
}

// TestCompileLimits: each compile bomb, beside an honest candidate, ends as the
// bomb's compile_error within the compile limits (a unit that hits a limit, then the
// bomb's check alone), the honest candidate runs as alone, and the launcher's peak
// RSS does not grow.
func TestCompileLimits(t *testing.T) {
	// A bomb's compiler runs until RLIMIT_CPU stops it at twice CPUTime plus a second
	// (the sandbox's timer counts only the driver), twice per bomb; the honest
	// candidate's compile takes well under a second.
	lim := sandbox.Limits{CPUTime: time.Second, WallTime: 10 * time.Second, MemoryBytes: 1 << 30}
	e, _ := openCpp(t, lim)
	base := execute.Batch{ProblemID: "bombs", Lang: schemas.Cpp, Params: []schemas.Param{{Name: "x", Type: "int"}},
		Returns: "int", Tests: []schemas.Test{{Index: 0, Args: "[3]"}}, Limits: hostileLimits}
	honest := execute.Candidate{ID: "honest", Code: normals(schemas.Cpp)[0]}
	b := base
	b.Candidates = []execute.Candidate{honest}
	alone := runBatch(t, e, b)
	if alone[0].Status != schemas.StatusOK {
		t.Fatalf("honest alone: %s %s", alone[0].Status, alone[0].Detail)
	}
	hwm := vmHWM(t)
	for _, bomb := range compileBombs {
		t.Run(bomb.name, func(t *testing.T) {
			b := base
			b.Candidates = []execute.Candidate{{ID: "bomb", Imports: bomb.imports, Code: bomb.code}, honest}
			before := e.Stats()
			start := time.Now()
			res := runBatch(t, e, b)
			took := time.Since(start)
			st := e.Stats()
			t.Logf("%s: %s in %v (compile CPU %v, peak RSS of a compile %d MiB): %s", bomb.name, res[0].Status, took.Round(time.Millisecond),
				(st.CompileCPU - before.CompileCPU).Round(time.Millisecond), st.CompileMaxRSSKB>>10, short(res[0].Detail))
			if res[0].Status != schemas.StatusCompileError {
				t.Errorf("bomb: %s, want compile_error", res[0].Status)
			}
			if d := sameResult(res[1], alone[0]); d != "" {
				t.Errorf("honest candidate differs from its run alone: %s", d)
			}
			// the unit of both, then the bomb checked alone: two compiles at the limit,
			// and the honest candidate's build and run
			if max := 2*lim.WallTime + 20*time.Second; took > max {
				t.Errorf("took %v, more than two compile wall limits and the rest (%v)", took, max)
			}
			if grew := vmHWM(t) - hwm; grew > 64<<10 {
				t.Errorf("the launcher's peak RSS grew by %d MiB", grew>>10)
			}
		})
	}
}

const compileChildEnv = "TRANSMUTE_TEST_COMPILE_CHILD"

// TestCompileDiesWithLauncher kills a process compiling a bomb (as kill -9 of the
// launcher would) and checks that no process of its compile survives it.
func TestCompileDiesWithLauncher(t *testing.T) {
	if dir := os.Getenv(compileChildEnv); dir != "" {
		// the child: compile a bomb in an engine of dir until killed
		e, err := cpp.New(execute.Options{WorkDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		b := execute.Batch{ProblemID: "bomb", Lang: schemas.Cpp, Params: []schemas.Param{{Name: "x", Type: "int"}},
			Returns: "int", Tests: []schemas.Test{{Index: 0, Args: "[3]"}},
			Candidates: []execute.Candidate{{ID: "bomb", Code: compileBombs[2].code}}}
		e.Run(context.Background(), b)
		return
	}
	t.Parallel()
	dir, err := os.MkdirTemp("", "enginetest-compile-kill-")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	defer os.RemoveAll(dir)
	// a directory of its own, so that its processes are told apart from the other
	// tests' compiles, holding the shared cache's harness builds
	seedHarness(t, dir)
	cmd := exec.Command(os.Args[0], "-test.run", "^TestCompileDiesWithLauncher$", "-test.count=1")
	cmd.Env = append(os.Environ(), compileChildEnv+"="+dir)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// the compile's processes name the engine's directory in their arguments; the
	// unit's (not the harness's, built first) its source
	compiling := func(p string) bool { return strings.Contains(p, "cc1plus") && strings.Contains(p, "tu.cpp") }
	var procs []string
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		procs = procsWith(dir)
		if slices.ContainsFunc(procs, compiling) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !slices.ContainsFunc(procs, compiling) {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("no cc1plus of the child's compile appeared: %v", procs)
	}
	time.Sleep(500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	var left []string
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if left = procsWith(dir); len(left) == 0 {
			break
		}
	}
	if len(left) > 0 {
		for _, p := range left {
			if pid, err := strconv.Atoi(strings.Fields(p)[0]); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		t.Fatalf("processes of the compile outlived the killed launcher: %v", left)
	}
}
