package enginetest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"transmute/io/corpus"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/transpile/java2go"
)

// The Go engine's cases of the suite. Go's load-time code (init functions,
// package-level initialisers that call) is refused as a compile error, so its load-time
// attackers must end as compile_error; those that only use what Go allows at load time
// (a function literal stored in a variable) must not act before their tests.

const goNormal0, goNormal1 = "func f(x int) int { return x*2 + 1 }", "func f(x int) int { return x*x - 3 }"

func goStop(call string) string {
	return "func f(x int) int {\n\t" + call + "\n\ttime.Sleep(500 * time.Millisecond)\n\treturn x\n}"
}

const goSignalImports = "import (\n\t\"syscall\"\n\t\"time\"\n)"

func init() {
	hostiles[schemas.Go] = []hostile{
		{name: "infinite_loop", nonOK: true, code: "func f(x int) int {\n\tfor {\n\t\tx++\n\t}\n}"},
		{name: "deep_recursion", nonOK: true, code: "func f(x int) int { return f(x+1) + 1 }"},
		{name: "memory_bomb", nonOK: true, code: "var sink [][]byte\n\nfunc f(x int) int {\n\tfor {\n\t\tb := make([]byte, 1<<24)\n\t\tfor i := range b {\n\t\t\tb[i] = 1\n\t\t}\n\t\tsink = append(sink, b)\n\t}\n}"},
		{name: "fork_bomb", nonOK: true, imports: `import "os/exec"`, code: `func f(x int) int {
	for {
		exec.Command("/bin/sh", "-c", "sleep 1000; : MARKER").Start()
	}
}`},
		{name: "goroutine_bomb", nonOK: true, code: "func f(x int) int {\n\tfor {\n\t\tgo func() {\n\t\t\tfor {\n\t\t\t}\n\t\t}()\n\t}\n}"},
		{name: "output_flood", nonOK: true, imports: "import (\n\t\"fmt\"\n\t\"os\"\n\t\"strings\"\n\t\"syscall\"\n)", code: `func f(x int) int {
	s := strings.Repeat("x", 10000)
	for {
		fmt.Print(s)
		fmt.Fprint(os.Stderr, s)
		syscall.Write(1, []byte(s))
	}
}`},
		{name: "orphan", imports: "import (\n\t\"os/exec\"\n\t\"syscall\"\n)", code: `func f(x int) int {
	c := exec.Command("/bin/sh", "-c", "sleep 1000; : MARKER")
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	c.Start()
	return x + 1
}`},
		{name: "network", forbidden: "1", imports: `import "net"`, code: `func f(x int) int {
	c, err := net.Dial("tcp", "127.0.0.1:PORT")
	if err != nil {
		return 0
	}
	c.Close()
	return 1
}`},
		{name: "write_files", imports: `import "os"`, code: `func f(x int) int {
	os.WriteFile("DIRMAIN/MARKER", []byte("x"), 0o644)
	os.WriteFile("/tmp/MARKER", []byte("x"), 0o644)
	return x
}`},
		{name: "secret", forbidden: "SECRETLEN", imports: `import "os"`, code: `func f(x int) int {
	s, ok := os.LookupEnv("TRANSMUTE_HOSTILE_SECRET")
	if !ok {
		return -1
	}
	return len(s)
}`},
		{name: "exit", nonOK: true, imports: `import "os"`, code: "func f(x int) int {\n\tos.Exit(3)\n\treturn x\n}"},
		{name: "exit0", nonOK: true, imports: `import "os"`, code: "func f(x int) int {\n\tos.Exit(0)\n\treturn x\n}"},
		{name: "panic_goroutine", nonOK: true, imports: `import "time"`, code: "func f(x int) int {\n\tgo func() { panic(\"boom\") }()\n\ttime.Sleep(time.Second)\n\treturn x\n}"},
		{name: "sigkill_self", nonOK: true, imports: `import "syscall"`, code: "func f(x int) int {\n\tsyscall.Kill(syscall.Getpid(), syscall.SIGKILL)\n\treturn x\n}"},
		{name: "sigsegv_self", nonOK: true, imports: `import "syscall"`, code: "func f(x int) int {\n\tsyscall.Kill(syscall.Getpid(), syscall.SIGSEGV)\n\treturn x\n}"},
		{name: "recover_loop", nonOK: true, code: `func f(x int) int {
	for {
		func() {
			defer func() { recover() }()
			for {
				x++
			}
		}()
	}
}`},
	}
	forgers[schemas.Go] = []forger{
		{name: "inherited_fds", imports: `import "syscall"`, code: `func f(x int) int {
	for fd := 0; fd < 1024; fd++ {
		syscall.Write(fd, []byte(FORGED))
	}
	return x + 1
}`},
		{name: "proc_fd", imports: "import (\n\t\"fmt\"\n\t\"os\"\n)", code: `func f(x int) int {
	for _, pid := range []string{"self", fmt.Sprint(os.Getppid()), "1", "2", "3"} {
		for fd := 0; fd < 64; fd++ {
			w, err := os.OpenFile(fmt.Sprintf("/proc/%s/fd/%d", pid, fd), os.O_WRONLY, 0)
			if err == nil {
				w.WriteString(FORGED)
				w.Close()
			}
		}
	}
	return x + 1
}`},
		{name: "parent_mem", forbidden: "1", imports: "import (\n\t\"fmt\"\n\t\"os\"\n)", code: `func f(x int) int {
	w, err := os.OpenFile(fmt.Sprintf("/proc/%d/mem", os.Getppid()), os.O_RDWR, 0)
	if err == nil {
		w.Close()
		return 1
	}
	return x + 1
}`},
		{name: "stdout", imports: "import (\n\t\"fmt\"\n\t\"os\"\n)", code: `func f(x int) int {
	fmt.Print(FORGED)
	os.Stdout.WriteString(FORGED)
	os.Stderr.WriteString(FORGED)
	return x + 1
}`},
		// the harness's own writer, reached through the linker: its own channel, so
		// what it writes is seen, and it must fail
		{name: "runner_objects", violation: true, imports: "import _ \"unsafe\"", code: `//go:linkname emit main.emit
func emit(s string)

func f(x int) int {
	for _, l := range splitLines(FORGED) {
		emit(l)
	}
	return x + 1
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}`},
	}
	loadAttacks[schemas.Go] = []loadAttack{
		{name: "init_writes_protocol", imports: `import "syscall"`, code: `func init() {
	go func() {
		for k := 0; k < 400; k++ {
			for fd := 0; fd < 64; fd++ {
				syscall.Write(fd, []byte(FORGED))
			}
		}
	}()
}

func f(x int) int { return x + 1 }`},
		{name: "init_exit", imports: `import "os"`, code: "func init() { os.Exit(3) }\n\nfunc f(x int) int { return x + 1 }"},
		{name: "var_initialiser_closes_fds", imports: `import "syscall"`, code: `var closed = func() int {
	for fd := 0; fd < 1024; fd++ {
		syscall.Close(fd)
	}
	return 0
}()

func f(x int) int { return x + 1 + closed }`},
		{name: "var_initialiser_panics", code: "var table = []int{1, 2, 3}\nvar idx = 7\nvar bad = table[idx]\n\nfunc f(x int) int { return x + 1 }"},
		{name: "var_initialiser_divides", code: "var zero = 0\nvar bad = 1 / zero\n\nfunc f(x int) int { return x + 1 }"},
		// allowed at load time: nothing runs before the test
		{name: "func_literal_var", imports: `import "os"`, code: "var quit = func() { os.Exit(3) }\n\nfunc f(x int) int { return x + 1 }"},
	}
	// A Go candidate's tests run in a sandboxed process of their own, whose parent is
	// the sandbox's init: there is no server to stop, and PID 1 of a PID namespace
	// takes no signal from inside it, so the stoppers of the parent (stop_server,
	// tstp_server, kill_server, and stop_all, which stops everything but the caller
	// and the init) do not apply; the candidate stopping itself or its group does.
	stoppers[schemas.Go] = []stopper{
		{name: "stop_self", stop: true, imports: goSignalImports, code: goStop("syscall.Kill(syscall.Getpid(), syscall.SIGSTOP)")},
		{name: "tstp_self", stop: true, imports: goSignalImports, code: goStop("syscall.Kill(syscall.Getpid(), syscall.SIGTSTP)")},
		{name: "stop_group", stop: true, imports: goSignalImports, code: goStop("syscall.Kill(0, syscall.SIGSTOP)")},
	}
	dims3Gold[schemas.Go] = []string{`func solve(X []byte, Y []byte, l int, r int, k int, dp [][][]int) int {
	if k == 0 {
		return 0
	}
	if l < 0 || r < 0 {
		return 1000000000
	}
	if dp[l][r][k] != -1 {
		return dp[l][r][k]
	}
	cost := int(X[l]-'a') ^ int(Y[r]-'a')
	dp[l][r][k] = min(cost+solve(X, Y, l-1, r-1, k-1, dp), solve(X, Y, l-1, r, k, dp), solve(X, Y, l, r-1, k, dp))
	return dp[l][r][k]
}`}
	dims3Memo[schemas.Go] = []string{"func memo(X []byte, Y []byte, l int, r int, k int, dp [][][]int) {\n\tsolve(X, Y, l, r, k, dp)\n}"}
}

// TestGoBatchedEqualsAlone is TestBatchedEqualsAlone for Go, whose recorded LLM
// translations the corpora do not hold: on the sample's problems with a Go script in
// gfg-extra, the Go gold and the builtin Java-to-Go translation of the Java gold run
// in one batch and each alone, with the same results.
func TestGoBatchedEqualsAlone(t *testing.T) {
	t.Parallel()
	dir := corporaDir(t)
	goDir := filepath.Join(dir, "gfg-extra", "go")
	if _, err := os.Stat(goDir); err != nil {
		t.Skipf("no Go scripts: %v", err)
	}
	c, err := corpus.Load(context.Background(), "transcoder:"+filepath.Join(dir, "transcoder-test")+"?go="+goDir)
	if err != nil {
		t.Fatal(err)
	}
	var probs []schemas.Problem
	for _, p := range c.Problems {
		if _, ok := p.Function(schemas.Go); ok {
			probs = append(probs, p)
		}
	}
	if os.Getenv("TRANSMUTE_FULL") != "1" && len(probs) > equivSubset {
		var sub []schemas.Problem
		for i := 0; i < equivSubset; i++ {
			sub = append(sub, probs[i*len(probs)/equivSubset])
		}
		probs = sub
	}
	e := openEngine(t, schemas.Go)
	n := 0
	for _, p := range probs {
		g, _ := p.Function(schemas.Go)
		b := execute.Batch{ProblemID: p.ID, Lang: schemas.Go, Params: p.Params, Returns: p.Returns, Tests: p.Tests, Limits: equivLimits,
			Candidates: []execute.Candidate{{ID: "gold", Code: g.Code, Imports: g.Imports, Entry: g.Name}}}
		if j, ok := p.Function(schemas.Java); ok {
			if r, err := java2go.Translate(j.Code); err == nil {
				b.Candidates = append(b.Candidates, execute.Candidate{ID: "java2go", Code: r.Code, Imports: r.Imports, Entry: r.Entry})
			}
		}
		batched := runBatch(t, e, b)
		for i, cand := range b.Candidates {
			one := b
			one.Candidates = []execute.Candidate{cand}
			alone := runBatch(t, e, one)[0]
			n++
			if d := sameResult(batched[i], alone); d != "" {
				t.Errorf("%s %s: batched vs alone: %s", p.ID, cand.ID, d)
			}
		}
		if batched[0].Status != schemas.StatusOK {
			t.Errorf("%s: the Go gold: %s %s", p.ID, batched[0].Status, short(batched[0].Detail))
		}
	}
	t.Logf("%d problems, %d candidates", len(probs), n)
}
