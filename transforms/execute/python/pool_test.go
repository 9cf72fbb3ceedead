package python

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"transmute/internal/testenv"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/execute/executetest"
	"transmute/transforms/sandbox"
)

// quick are short per-test limits for the tests that time out on purpose.
var quick = sandbox.Limits{CPUTime: 500 * time.Millisecond, WallTime: time.Second, MemoryBytes: 512 << 20}

// sameResults reports how two runs of one batch differ (statuses, outputs, errors,
// details), ignoring the times and memory measured.
func sameResults(a, b []execute.Result) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%d results vs %d", len(a), len(b))
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.CandidateID != y.CandidateID || x.Status != y.Status || x.Detail != y.Detail || len(x.Tests) != len(y.Tests) {
			return fmt.Sprintf("%s: %s %q %+v vs %s %q %+v", x.CandidateID, x.Status, x.Detail, x.Tests, y.Status, y.Detail, y.Tests)
		}
		for j := range x.Tests {
			s, u := x.Tests[j], y.Tests[j]
			if s.Status != u.Status || s.Output != u.Output || s.Error != u.Error {
				return fmt.Sprintf("%s test %d: %s %s %q vs %s %s %q", x.CandidateID, j, s.Status, s.Output, s.Error, u.Status, u.Output, u.Error)
			}
		}
	}
	return ""
}

// moduleDir is the directory holding go.mod.
func moduleDir(t *testing.T) string {
	t.Helper()
	return testenv.Root(t)
}

// procsWith lists the processes whose command line contains s.
var procsWith = testenv.ProcsWith

// mixedBatch has candidates of every outcome but timeouts.
func mixedBatch(k int) execute.Batch {
	return execute.Batch{ProblemID: fmt.Sprint("mixed", k), Lang: "python", Params: executetest.Params("int", "int[]"), Returns: "long",
		Tests: executetest.Tests(fmt.Sprintf("[%d,[1,2,3]]", k), "[0,[]]", "[-3,[5,7]]"),
		Candidates: []execute.Candidate{
			{ID: "sum", Code: fmt.Sprintf("def f(x, a):\n    return x * %d + sum(a)", k)},
			{ID: "div", Code: "def f(x, a):\n    return len(a) // x"},
			{ID: "syntax", Code: "def f(x, a)\n    return 1"},
			{ID: "exit", Code: "import os\ndef f(x, a):\n    if x == 0:\n        os._exit(4)\n    return x"},
			{ID: "state", Code: "import math\nmath.pi = 3\nseen = []\ndef f(x, a):\n    seen.append(x)\n    return len(seen) * 10 + int(math.pi)"},
			{ID: "class", Code: "class Solution:\n    def solve(self, x, a):\n        return max(a + [x])"},
		}}
}

// TestWorkerReuse: consecutive Runs share one worker and get what fresh engines get.
func TestWorkerReuse(t *testing.T) {
	e := newEngine(t)
	var got [][]execute.Result
	for k := 0; k < 3; k++ {
		got = append(got, executetest.Run(t, e, mixedBatch(k%2)))
	}
	if st := e.Stats(); st.Started != 1 || st.Reused != 2 || st.Idle != 1 {
		t.Errorf("stats %+v, want one worker started and reused twice", st)
	}
	if d := sameResults(got[0], got[2]); d != "" {
		t.Errorf("the same batch twice on one worker: %s", d)
	}
	for k := 0; k < 2; k++ {
		fresh := executetest.Run(t, newEngine(t), mixedBatch(k))
		if d := sameResults(got[k], fresh); d != "" {
			t.Errorf("batch %d on a reused worker vs a fresh engine: %s", k, d)
		}
	}
	// the candidate that changed math.pi and its globals did so in its own child only
	if r := got[2][4]; r.Status != schemas.StatusOK || r.Tests[2].Output != "33" {
		t.Errorf("state: %s %+v", r.Status, r.Tests)
	}
}

// TestHostileThenNormal: candidates that hang, kill their process group, kill the
// server, leave a daemon or files behind, do not change the next batch's results, and
// leave nothing behind.
func TestHostileThenNormal(t *testing.T) {
	e := newEngine(t)
	marker := fmt.Sprintf("tmpydaemon_%d", os.Getpid())
	hostile := execute.Batch{ProblemID: "hostile", Lang: "python", Params: executetest.Params("int"), Returns: "int",
		Tests: executetest.Tests("[1]", "[2]"), Limits: quick,
		Candidates: []execute.Candidate{
			{ID: "hang", Code: "def f(x):\n    while True:\n        pass"},
			{ID: "killpg", Code: "import os, signal\ndef f(x):\n    os.killpg(0, signal.SIGKILL)"},
			{ID: "files", Code: "import os\ndef f(x):\n    open('left_here', 'w').write('x')\n    open('/tmp/left_there', 'w').write('x')\n    os.mkdir('/dev/shm/dir_there')\n    return x"},
			{ID: "daemon", Code: "import subprocess\ndef f(x):\n    subprocess.Popen(['/bin/sh', '-c', 'sleep 1000; : " + marker + "'], start_new_session=True)\n    return x"},
			{ID: "look", Code: "import os\ndef f(x):\n    return sum(os.path.exists(p) for p in ('left_here', '/tmp/left_there', '/dev/shm/dir_there'))"},
			{ID: "killserver", Code: "import os, signal\ndef f(x):\n    os.kill(os.getppid(), signal.SIGKILL)\n    return x"},
			{ID: "after", Code: "def f(x):\n    return x + 1"},
		}}
	res := executetest.Run(t, e, hostile)
	if st := e.Stats(); st.Started != 2 || st.Idle != 1 {
		t.Errorf("stats %+v after the hostile batch, want 2 workers started (the first was killed), 1 idle", st)
	}
	by := map[string]execute.Result{}
	for _, r := range res {
		by[r.CandidateID] = r
	}
	if r := by["hang"]; r.Status != schemas.StatusTimeout {
		t.Errorf("hang: %s %+v", r.Status, r.Tests)
	}
	if r := by["killpg"]; r.Tests[0].Status != schemas.StatusRuntimeError || r.Tests[1].Status != schemas.StatusRuntimeError {
		t.Errorf("killpg: %s %+v", r.Status, r.Tests)
	}
	if r := by["look"]; r.Status != schemas.StatusOK || r.Tests[0].Output != "0" {
		t.Errorf("files left by an earlier candidate: %s %+v", r.Status, r.Tests)
	}
	// killing the server is the candidate's own failure, not the engine's
	if r := by["killserver"]; r.Status != schemas.StatusRuntimeError || r.Tests[0].Status != schemas.StatusRuntimeError ||
		r.Tests[1].Status != schemas.StatusRuntimeError {
		t.Errorf("killserver: %s %+v", r.Status, r.Tests)
	}
	if r := by["after"]; r.Status != schemas.StatusOK || r.Tests[1].Output != "3" {
		t.Errorf("after: %s %s %+v", r.Status, r.Detail, r.Tests)
	}
	if left := procsWith(marker); len(left) > 0 {
		t.Errorf("daemon left behind: %v", left)
	}
	// a normal batch on the same worker gets what a fresh engine gets
	normal := mixedBatch(3)
	normal.Limits = quick
	next := executetest.Run(t, e, normal)
	if d := sameResults(next, executetest.Run(t, newEngine(t), normal)); d != "" {
		t.Errorf("after the hostile batch: %s", d)
	}
	// the files candidate once more, alone: nothing of the first batch is there
	look := hostile
	look.Candidates = []execute.Candidate{hostile.Candidates[4]}
	if r := executetest.Run(t, e, look)[0]; r.Tests[0].Output != "0" {
		t.Errorf("files left by an earlier batch: %+v", r.Tests)
	}
	if st := e.Stats(); st.Started != 2 || st.Reused != 2 {
		t.Errorf("stats %+v at the end, want the second worker reused twice", st)
	}
}

// TestClose: Close ends idle and busy workers and reaps them; later Runs fail.
func TestClose(t *testing.T) {
	e, err := New(execute.Options{WorkDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	executetest.Run(t, e, mixedBatch(1))
	if len(procsWith(e.runner)) == 0 {
		t.Fatalf("no idle worker after a Run")
	}
	// the worker, busy with a candidate that hangs while Close runs
	hang := execute.Batch{Lang: "python", Params: executetest.Params("int"), Returns: "int", Tests: executetest.Tests("[1]"),
		Limits:     sandbox.Limits{CPUTime: 30 * time.Second, WallTime: 60 * time.Second},
		Candidates: []execute.Candidate{{ID: "sleep", Code: "import time\ndef f(x):\n    time.sleep(100)"}}}
	var wg sync.WaitGroup
	wg.Add(1)
	var runErr error
	go func() {
		defer wg.Done()
		_, runErr = e.Run(context.Background(), hang)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for e.Stats().Busy < 1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if left := procsWith(e.runner); len(left) > 0 {
		t.Errorf("processes left after Close: %v", left)
	}
	wg.Wait()
	if runErr == nil {
		t.Errorf("the Run that Close interrupted returned no error")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Close took %v", d)
	}
	if _, err := e.Run(context.Background(), mixedBatch(1)); err == nil {
		t.Errorf("Run after Close: no error")
	}
	if err := e.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// TestPoolBounds: workers retire after maxJobs jobs; idle ones are closed after
// idleTimeout; at most maxIdle stay idle.
func TestPoolBounds(t *testing.T) {
	e := newEngine(t)
	e.maxJobs = 2
	for k := 0; k < 3; k++ {
		executetest.Run(t, e, mixedBatch(k))
	}
	if st := e.Stats(); st.Started != 2 || st.Reused != 1 {
		t.Errorf("maxJobs 2, 3 runs: stats %+v", st)
	}
	e.idleTimeout = 200 * time.Millisecond
	e.maxIdle = 2
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			executetest.Run(t, e, mixedBatch(g))
		}()
	}
	wg.Wait()
	if st := e.Stats(); st.Idle > 2 {
		t.Errorf("%d idle workers, want at most 2", st.Idle)
	}
	deadline := time.Now().Add(5 * time.Second)
	for (e.Stats().Idle > 0 || len(procsWith(e.runner)) > 0) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if st, left := e.Stats(), procsWith(e.runner); st.Idle > 0 || len(left) > 0 {
		t.Errorf("after the idle timeout: stats %+v, processes %v", st, left)
	}
	executetest.Run(t, e, mixedBatch(0)) // a new worker
}

// TestWarmUp: while warming up, concurrent Runs wait for the busy worker instead of
// starting others; afterwards they start workers; Close wakes a Run that waits.
func TestWarmUp(t *testing.T) {
	e := newEngine(t)
	e.startWait = time.Minute // so that waiting never gives up in this test
	slow := execute.Batch{Lang: "python", Params: executetest.Params("int"), Returns: "int", Tests: executetest.Tests("[1]"),
		Candidates: []execute.Candidate{{ID: "nap", Code: "import time\ndef f(x):\n    time.sleep(0.1)\n    return x"}}}
	concurrently := func(n int, b execute.Batch) {
		var wg sync.WaitGroup
		for g := 0; g < n; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if r := executetest.Run(t, e, b)[0]; r.Status != schemas.StatusOK {
					t.Errorf("%s %+v", r.Status, r.Tests)
				}
			}()
		}
		wg.Wait()
	}
	concurrently(3, slow)
	if st := e.Stats(); st.Started != 1 || st.Reused != 2 {
		t.Errorf("warming up: stats %+v, want 1 worker for the 3 Runs", st)
	}
	e.mu.Lock()
	e.warmJobs = 0
	e.mu.Unlock()
	concurrently(3, slow)
	if st := e.Stats(); st.Started < 2 {
		t.Errorf("warm: stats %+v, want more workers for concurrent Runs", st)
	}

	// a Run waiting for the busy worker gives up when the engine closes
	w := newEngine(t)
	w.startWait = time.Minute
	hang := execute.Batch{Lang: "python", Params: executetest.Params("int"), Returns: "int", Tests: executetest.Tests("[1]"),
		Limits:     sandbox.Limits{CPUTime: 30 * time.Second, WallTime: 60 * time.Second},
		Candidates: []execute.Candidate{{ID: "sleep", Code: "import time\ndef f(x):\n    time.sleep(100)"}}}
	errs := make(chan error, 2)
	for g := 0; g < 2; g++ {
		go func() {
			_, err := w.Run(context.Background(), hang)
			errs <- err
		}()
	}
	deadline := time.Now().Add(10 * time.Second)
	for w.Stats().Busy < 1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	if st := w.Stats(); st.Started != 1 {
		t.Errorf("stats %+v, want one worker, the other Run waiting", st)
	}
	start := time.Now()
	w.Close()
	for g := 0; g < 2; g++ {
		if err := <-errs; err == nil {
			t.Errorf("a Run did not fail when the engine closed")
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Runs ended %v after Close", d)
	}
}

// TestConcurrentRuns: Runs from several goroutines get the results of sequential ones.
func TestConcurrentRuns(t *testing.T) {
	e := newEngine(t)
	want := map[int][]execute.Result{}
	for k := 0; k < 3; k++ {
		want[k] = executetest.Run(t, e, mixedBatch(k))
	}
	var wg sync.WaitGroup
	for g := 0; g < 6; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 3; i++ {
				k := (g + i) % 3
				res, err := e.Run(context.Background(), mixedBatch(k))
				if err != nil {
					t.Error(err)
					return
				}
				if d := sameResults(res, want[k]); d != "" {
					t.Errorf("goroutine %d batch %d: %s", g, k, d)
				}
			}
		}()
	}
	wg.Wait()
	if st := e.Stats(); st.Idle > e.maxIdle {
		t.Errorf("stats %+v", st)
	}
}

// TestBigStack: recursion through C code (lru_cache) deeper than the main thread's
// stack allows dies there and succeeds on the retry with the big stack; the decimal
// context the top level sets does not apply to the tests (as on a thread of their own).
func TestBigStack(t *testing.T) {
	e := newEngine(t)
	b := execute.Batch{Lang: "python", Params: executetest.Params("int"), Returns: "long", Tests: executetest.Tests("[10]", "[100000]", "[20]"),
		Candidates: []execute.Candidate{
			{ID: "memo", Code: "from functools import lru_cache\n@lru_cache(maxsize=None)\ndef g(n):\n    return 0 if n == 0 else 2 + g(n - 1)\ndef f(n):\n    return g(n)"},
			{ID: "decimal", Code: "import decimal\ndecimal.getcontext().prec = 50\ndef f(n):\n    return len(str(decimal.Decimal(1) / decimal.Decimal(3)))"},
			{ID: "after", Code: "def f(n):\n    return n"},
		}}
	res := executetest.Run(t, e, b)
	if r := res[0]; r.Status != schemas.StatusOK || r.Tests[0].Output != "20" || r.Tests[1].Output != "200000" || r.Tests[2].Output != "40" {
		t.Errorf("memo: %s %+v", r.Status, r.Tests)
	}
	if r := res[1]; r.Status != schemas.StatusOK || r.Tests[0].Output != "30" {
		t.Errorf("decimal: %s %+v", r.Status, r.Tests)
	}
	if r := res[2]; r.Status != schemas.StatusOK || r.Tests[1].Output != "100000" {
		t.Errorf("after: %s %+v", r.Status, r.Tests)
	}
}

// TestEntryChoice: candidates without an entry, compiled by the server or (big
// sources) by the child, call the function find_entry picks.
func TestEntryChoice(t *testing.T) {
	e := newEngine(t)
	pad := "\n# " + strings.Repeat("x", 40<<10) + "\n"
	srcs := []string{
		"def g(x):\n    return 1\ndef f(x):\n    return 2",
		"def f(x):\n    return 2\ns = '''\ndef g(x):\n    return 1\n'''",
		"def f(x):\n    return 2\nif True:\n    def g(x):\n        return 1",
		"import functools\ndef g(x):\n    return 1\n@functools.lru_cache\ndef f(x):\n    return 2",
		"class A:\n    def g(self, x):\n        return 1\n    def f(self, x):\n        return 2",
		"def g(x):\n    return 1\r\ndef f(x):\r\n    return 2\r\n",
		"async def g(x):\n    return 1\ndef f(x):\n    return 2",
		"def f(x):\n    return 2\ndef \\\n g(x):\n    return 1\ng = f",
		"def g(x):\n    return 1\ndef f(x):\n    return 2\ndel f",
	}
	b := execute.Batch{Lang: "python", Params: executetest.Params("int"), Returns: "int", Tests: executetest.Tests("[0]")}
	for i, s := range srcs {
		b.Candidates = append(b.Candidates, execute.Candidate{ID: fmt.Sprint(i), Code: s},
			execute.Candidate{ID: fmt.Sprint(i, "big"), Code: s + pad})
	}
	res := executetest.Run(t, e, b)
	for i := 0; i < len(res); i += 2 {
		small, big := res[i], res[i+1]
		if small.Status == schemas.StatusCompileError {
			if i/2 != 8 || big.Status != schemas.StatusCompileError || !strings.HasPrefix(small.Detail, "KeyError") {
				t.Errorf("%s: %s %s; big: %s %s", small.CandidateID, small.Status, small.Detail, big.Status, big.Detail)
			}
			continue
		}
		if small.Tests[0].Output != "2" || big.Tests[0].Output != "2" {
			t.Errorf("%q: %s %+v; big: %s %+v", srcs[i/2], small.Status, small.Tests, big.Status, big.Tests)
		}
	}
}

// TestFastEntry checks, in the interpreter, that the runner's fast_entry names the last
// top-level def of the ast (what find_entry calls) whenever it names one, on tricky
// sources and, when the shared corpora are here, on the recorded translations into
// Python.
func TestFastEntry(t *testing.T) {
	e := newEngine(t)
	srcs := []string{"def f():\n    pass", "x = 1", "def f(): pass\ndef g(): pass", "@dec\ndef f(): pass",
		"def f():\n    '''\ndef g(): pass\n'''\n", "async  def f(): pass", "def\tf(): pass\nclass C:\n  def g(self): pass",
		"def ﬁ(): pass", "def f(): pass\n\fdef g(): pass", "def f(): pass\rdef g(): pass",
		"def f(): pass\ndef \\\n g(): pass", "def f(): pass\nasync \\\n    def g(): pass",
		"def f(): pass\r\ndef g(): pass\r\n", "def f(): pass\nx = '''\\\ndef g(): pass'''"}
	// and, when the shared corpora are here, the recorded translations into Python
	files, _ := filepath.Glob(filepath.Join(moduleDir(t), "..", "shared", "corpora", "trace", "Ref_Translation", "m.*", "*_to_python", "*.jsonl"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			var row map[string]any
			if json.Unmarshal([]byte(line), &row) != nil {
				continue
			}
			codes, _ := row["python"].([]any)
			for _, c := range codes {
				if s, ok := c.(string); ok {
					srcs = append(srcs, strings.Replace(s, "--IMPORT_SPLIT--", "", 1))
				}
			}
		}
	}
	in, _ := json.Marshal(srcs)
	script := `
import json, sys
sys.path.insert(0, sys.argv[1])
import runner
bad = fast = 0
for src in json.load(sys.stdin):
    try:
        code = compile(src, "<candidate>", "exec")
    except Exception:
        continue
    name = runner.fast_entry(src, code)
    if name is None:
        continue
    fast += 1
    import ast
    last = None
    for node in ast.parse(src).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            last = node.name
    if last != name:
        bad += 1
        print("MISMATCH", repr(src[:200]), name, last)
print("fast", fast)
`
	cmd := exec.Command(e.python, "-S", "-B", "-c", script, e.dir)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if strings.Contains(string(out), "MISMATCH") {
		t.Errorf("fast_entry differs from find_entry:\n%s", out)
	}
	t.Logf("%d sources; %s", len(srcs), strings.TrimSpace(string(out)))
}

// TestWatchdog: it fires when not touched for its duration, and not once stopped.
func TestWatchdog(t *testing.T) {
	var mu sync.Mutex
	kills := 0
	kill := func() { mu.Lock(); kills++; mu.Unlock() }
	w := newWatchdog(100*time.Millisecond, kill)
	for i := 0; i < 5; i++ {
		time.Sleep(40 * time.Millisecond)
		w.touch()
	}
	if w.stop() {
		t.Errorf("fired although touched")
	}
	w = newWatchdog(50*time.Millisecond, kill)
	time.Sleep(200 * time.Millisecond)
	if !w.stop() {
		t.Errorf("did not fire")
	}
	mu.Lock()
	defer mu.Unlock()
	if kills != 1 {
		t.Errorf("%d kills, want 1", kills)
	}
}

// TestBigOutput: return values larger than the runner's shared buffer go down the pipe
// in order with the others; one above the output limit is output_limit.
func TestBigOutput(t *testing.T) {
	e := newEngine(t)
	b := execute.Batch{Lang: "python", Params: executetest.Params("int"), Returns: "int[]", Tests: executetest.Tests("[3]", "[30000]", "[5]", "[40000]"),
		Limits: sandbox.Limits{CPUTime: 2 * time.Second, WallTime: 3 * time.Second, OutputBytes: 200 << 10},
		Candidates: []execute.Candidate{
			{ID: "range", Code: "def f(n):\n    return list(range(n))"},
			{ID: "after", Code: "def f(n):\n    return [n]"},
		}}
	res := executetest.Run(t, e, b)
	r := res[0]
	if r.Status != schemas.StatusOutputLimit || r.Tests[0].Output != "[0,1,2]" || r.Tests[2].Output != "[0,1,2,3,4]" ||
		r.Tests[1].Status != schemas.StatusOK || !strings.HasSuffix(r.Tests[1].Output, ",29999]") {
		t.Errorf("range: %s %s %s %s", r.Status, r.Tests[0].Output, r.Tests[2].Output, r.Tests[1].Status)
	}
	if r.Tests[3].Status != schemas.StatusOutputLimit {
		t.Errorf("range test 3: %s %s", r.Tests[3].Status, r.Tests[3].Error)
	}
	if r := res[1]; r.Status != schemas.StatusOK || r.Tests[3].Output != "[40000]" {
		t.Errorf("after: %s %+v", r.Status, r.Tests)
	}
}
