package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/parquet-go/parquet-go"
	"gocloud.dev/blob"

	"transmute/io/blobs/blobstest"
	"transmute/io/sink"
	"transmute/pipelines"
	"transmute/schemas"
	"transmute/transforms/sandbox"
	"transmute/transforms/translate"
)

// The test binary is also the launch command (TRANSMUTE_TEST_LAUNCH=1), so the
// lifecycle tests run the real command without building it a second time.
func TestMain(m *testing.M) {
	sandbox.Init()
	if os.Getenv("TRANSMUTE_TEST_LAUNCH") == "1" {
		os.Args = append(os.Args[:1], os.Args[2:]...) // drop the "--" separator
		main()
		os.Exit(0)
	}
	os.Exit(runTests(m))
}

// sharedWork is the --work-dir of the launches these tests start, one for the test
// binary as a machine's runs share one: the engines' harnesses (the C++ precompiled
// header and runtime, the Java worker and its archive, the Python runner) are built
// by the first launch, not by each of the twenty. TestResumeAfterKill keeps its own:
// its cold run, which builds them, is the CPU its warm rerun is held to.
var sharedWork string

// sharedCache is the --cache (execution cache) of the launches of the lifecycle,
// input and full-disk tests, as a user's reruns share .cache/exec: they run the same
// programs on the same tests again and again (the golds of every language for the
// fidelity oracle, the translations), which the first launch runs and the others
// take from the cache. Those tests are about the run around the programs (lock,
// staging, publish, inputs); TestResumeAfterKill checks the cache itself, and
// TestSignalStopsEveryProcess runs without one (its programs must be running).
var sharedCache string

func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "launchtest-work-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	sharedWork = dir
	sharedCache = filepath.Join(dir, "exec")
	return m.Run()
}

// repo is the module root (the bundled corpus lives in data/).
func repo(t *testing.T) string {
	t.Helper()
	abs, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// recordedFile writes a recorded-translation file with one good line and one
// malformed line (a problem of the bundled corpus whose line is cut short).
func recordedFile(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "rec.jsonl")
	data := `{"problem_id":"COUNT_SET_BITS","src_lang":"java","tgt_lang":"python","code":"def count_set_bits(n):\n    return bin(n & 0xffffffff).count(\"1\")"}` + "\n" +
		`{"problem_id":"SUM_OF_SQUARES_FORMULA","src_lang":"java","tgt_lang":"python","code":"def f(n):` + "\n"
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func launchCmd(t *testing.T, out, run string, extra ...string) *exec.Cmd {
	t.Helper()
	args := []string{"--", "--corpus", "jsonl:" + filepath.Join(repo(t), "data/problems.jsonl"),
		"--translator", "identity:", "--directions", "python-python,java-python", "--limit", "2",
		"--shards", "2", "--workers", "1", "--run", run, "--out", out, "--work-dir", sharedWork, "--cache", sharedCache}
	args = append(args, extra...)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "TRANSMUTE_TEST_LAUNCH=1")
	cmd.Dir = t.TempDir()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

// launch runs a whole run and returns its combined output.
func launch(t *testing.T, out, run string, extra ...string) (string, error) {
	t.Helper()
	cmd := launchCmd(t, out, run, extra...)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	return buf.String(), err
}

// startPaused starts a run that stops at point, and returns once it says so.
func startPaused(t *testing.T, out, run, point string, extra ...string) *exec.Cmd {
	t.Helper()
	cmd := launchCmd(t, out, run, extra...)
	cmd.Env = append(cmd.Env, pipelines.PauseEnv+"="+point)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	paused := make(chan bool, 1)
	var seen bytes.Buffer
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Split(bufio.ScanRunes) // the progress line ends in \r, not \n
		var line strings.Builder
		for sc.Scan() {
			seen.WriteString(sc.Text())
			line.WriteString(sc.Text())
			if strings.Contains(line.String(), "transmute: paused at "+point) {
				paused <- true
				return
			}
			if sc.Text() == "\n" || sc.Text() == "\r" {
				line.Reset()
			}
		}
		paused <- false
	}()
	if !<-paused {
		cmd.Wait()
		t.Fatalf("run %s ended without pausing at %s:\n%s", run, point, seen.String())
	}
	return cmd
}

// kill9 kills the run's process group with SIGKILL, as a user's kill -9 or the OOM
// killer would, and reaps it.
func kill9(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
}

// snapshot is what a reader of the output sees: through the manifest (sink.Read)
// and through the glob DuckDB uses (every OUT/<table>/*.parquet file).
type snapshot struct {
	run      string
	tables   map[string][]string // table -> sorted rows (JSON), read through the manifest
	globRows map[string]int64    // table -> rows in OUT/<table>/*.parquet
}

func readOutput(t *testing.T, out string) snapshot {
	t.Helper()
	ctx := context.Background()
	b := blobstest.Open(t, out)
	raw, err := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err != nil {
		t.Fatalf("no readable manifest: %v", err)
	}
	var m pipelines.Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	s := snapshot{run: m.Run, tables: map[string][]string{}, globRows: map[string]int64{}}
	add := func(table string, rows any) {
		v := reflect.ValueOf(rows)
		var enc []string
		for i := 0; i < v.Len(); i++ {
			j, _ := json.Marshal(v.Index(i).Interface())
			enc = append(enc, string(j))
		}
		sort.Strings(enc)
		s.tables[table] = enc
	}
	read := func(table string, f func() (any, error)) {
		rows, err := f()
		if err != nil {
			t.Fatalf("table %s unreadable: %v", table, err)
		}
		add(table, rows)
	}
	read("problems", func() (any, error) { return sink.Read[schemas.Problem](ctx, b, "problems") })
	read("translations", func() (any, error) { return sink.Read[schemas.TranslationRow](ctx, b, "translations") })
	read("executions", func() (any, error) { return sink.Read[schemas.ExecutionRow](ctx, b, "executions") })
	read("results", func() (any, error) { return sink.Read[schemas.ResultRow](ctx, b, "results") })
	read("scores", func() (any, error) { return sink.Read[schemas.ScoreRow](ctx, b, "scores") })
	read("errors", func() (any, error) { return sink.Read[schemas.ErrorRow](ctx, b, "errors") })
	read("fidelity", func() (any, error) { return sink.Read[schemas.FidelityRow](ctx, b, "fidelity") })
	for table, enc := range s.tables {
		if int64(len(enc)) != m.Counts[table] {
			t.Errorf("table %s: %d rows, the manifest counts %d", table, len(enc), m.Counts[table])
		}
		files, _ := filepath.Glob(filepath.Join(out, table, "*.parquet"))
		for _, f := range files {
			keys, _ := filepath.Rel(out, f)
			rows, err := readShard(ctx, b, keys)
			if err != nil {
				t.Fatalf("%s unreadable: %v", f, err)
			}
			s.globRows[table] += rows
		}
	}
	return s
}

func readShard(ctx context.Context, b *blob.Bucket, key string) (int64, error) {
	data, err := b.ReadAll(ctx, filepath.ToSlash(key))
	if err != nil {
		return 0, err
	}
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return 0, err
	}
	return f.NumRows(), nil
}

// assertWhole checks that out holds one whole run named run with the row counts of
// want (a rerun's timing columns differ, its counts do not), through the manifest
// and through the glob alike.
func assertWhole(t *testing.T, out, run string, want snapshot) {
	t.Helper()
	now := readOutput(t, out)
	if now.run != run {
		t.Fatalf("manifest names run %q, want %q", now.run, run)
	}
	for table, rows := range want.tables {
		if len(now.tables[table]) != len(rows) || now.globRows[table] != int64(len(rows)) {
			t.Errorf("table %s: %d rows (glob %d), want %d", table, len(now.tables[table]), now.globRows[table], len(rows))
		}
	}
}

// assertIntact checks that out still holds exactly the run before, whole, both
// through the manifest and through the glob, with no lock and no staging left once
// the next run has started (checked by the callers).
func assertIntact(t *testing.T, out string, before snapshot, glob bool) {
	t.Helper()
	now := readOutput(t, out)
	if now.run != before.run {
		t.Fatalf("manifest names run %q, want the previous run %q", now.run, before.run)
	}
	if !reflect.DeepEqual(now.tables, before.tables) {
		for table := range before.tables {
			if !reflect.DeepEqual(now.tables[table], before.tables[table]) {
				t.Errorf("table %s changed: %d rows, was %d", table, len(now.tables[table]), len(before.tables[table]))
			}
		}
		t.FailNow()
	}
	if glob && !reflect.DeepEqual(now.globRows, before.globRows) {
		t.Fatalf("OUT/<table>/*.parquet rows %v, was %v", now.globRows, before.globRows)
	}
}

func noLeftovers(t *testing.T, out string) {
	t.Helper()
	for _, p := range []string{sink.LockKey, sink.JournalKey, sink.StagingDir} {
		if _, err := os.Stat(filepath.Join(out, p)); err == nil {
			t.Errorf("%s left in the output", p)
		}
	}
}

// TestLifecycle: a published run survives kill -9 at several points of the next
// run, a concurrent second run, and a bad corpus path; the next run after a kill
// cleans up and publishes.
func TestLifecycle(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the launch command several times")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	rec := recordedFile(t, dir)
	logs, err := launch(t, out, "A", "--translator", "recorded:"+rec)
	if err != nil {
		t.Fatalf("first run: %v\n%s", err, logs)
	}
	noLeftovers(t, out)
	a := readOutput(t, out)
	if len(a.tables["problems"]) != 2 || len(a.tables["results"]) == 0 {
		t.Fatalf("first run: %d problems, %d results", len(a.tables["problems"]), len(a.tables["results"]))
	}
	for table, n := range a.globRows {
		if n != int64(len(a.tables[table])) {
			t.Errorf("glob %s/*.parquet: %d rows, manifest %d", table, n, len(a.tables[table]))
		}
	}
	// The malformed recorded line is one error row naming file and line, and the
	// translation it was (SUM_OF_SQUARES_FORMULA java->python) a failure in the
	// translations table, not repeated in the errors table.
	var badLines, repeated int
	for _, e := range a.tables["errors"] {
		var r schemas.ErrorRow
		json.Unmarshal([]byte(e), &r)
		if r.Stage == translate.Stage && r.Reason == translate.ReasonBadRecord && strings.Contains(r.Detail, "rec.jsonl line 2") {
			badLines++
		}
		if r.Stage == translate.Stage && r.Reason == translate.ReasonFailed && r.ProblemID == "SUM_OF_SQUARES_FORMULA" {
			repeated++
		}
	}
	sawFailed := false
	for _, tr := range a.tables["translations"] {
		var r schemas.TranslationRow
		json.Unmarshal([]byte(tr), &r)
		sawFailed = sawFailed || (r.ProblemID == "SUM_OF_SQUARES_FORMULA" && r.SrcLang == "java" && r.Status == schemas.TranslationError)
	}
	if badLines != 1 || repeated != 0 || !sawFailed {
		t.Errorf("malformed line: %d error rows (want 1), %d repeated as failed translations (want 0), translation failed %v: %v",
			badLines, repeated, sawFailed, a.tables["errors"])
	}
	if !strings.Contains(logs, "error rows by stage:") || !strings.Contains(logs, "translate ") {
		t.Errorf("the summary does not count the translate errors:\n%s", logs)
	}

	for _, point := range []string{"evaluate", "write", "publish"} {
		t.Run("kill9-"+point, func(t *testing.T) {
			cmd := startPaused(t, out, "B-"+point, point, "--translator", "recorded:"+rec)
			kill9(t, cmd)
			// Until the killed run's publish is finished, readers going through the
			// manifest see the previous run; the glob does too unless the kill hit
			// the publish step itself.
			assertIntact(t, out, a, point != "publish")
			logs, err := launch(t, out, "A", "--translator", "recorded:"+rec)
			if err != nil {
				t.Fatalf("run after the kill: %v\n%s", err, logs)
			}
			if !strings.Contains(logs, "took over the lock") {
				t.Errorf("the killed run's lock was not reported:\n%s", logs)
			}
			// killed while evaluating, the run had staged nothing yet; killed in the
			// write, its partial shards are removed; in the publish, it is finished
			want := map[string]string{"write": "removed _staging/", "publish": `finished publishing run "B-publish"`}[point]
			if want != "" && !strings.Contains(logs, want) {
				t.Errorf("the next run did not say %q:\n%s", want, logs)
			}
			noLeftovers(t, out)
			assertWhole(t, out, "A", a)
			a = readOutput(t, out) // the published run the next point's kill must keep
		})
	}

	t.Run("concurrent", func(t *testing.T) {
		cmd := startPaused(t, out, "B", "evaluate")
		logs, err := launch(t, out, "C")
		kill9(t, cmd)
		if err == nil || !strings.Contains(logs, "output is in use by another run") || !strings.Contains(logs, `run "B"`) {
			t.Fatalf("second run into a busy output: %v\n%s", err, logs)
		}
		assertIntact(t, out, a, true)
		if logs, err := launch(t, out, "A", "--translator", "recorded:"+rec); err != nil {
			t.Fatalf("after the concurrent attempt: %v\n%s", err, logs)
		}
		noLeftovers(t, out)
		assertWhole(t, out, "A", a)
		a = readOutput(t, out)
	})

	t.Run("bad-inputs-lose-nothing", func(t *testing.T) {
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"--corpus", "jsonl:" + filepath.Join(dir, "no-such-corpus.jsonl")}, "no-such-corpus.jsonl"},
			{[]string{"--translator", "recorded:" + filepath.Join(dir, "no-such.jsonl")}, "no-such.jsonl"},
			{[]string{"--translator", "nosuch:x"}, "unknown translator scheme"},
			{[]string{"--directions", "java-pyton"}, `unknown language "pyton"`},
			{[]string{"--limit", "-1"}, "--limit -1: must not be negative"},
			{[]string{"--problems", "COUNT_SET_BITS,NO_SUCH_PROBLEM"}, "unknown problem id(s), in none of the corpora: NO_SUCH_PROBLEM"},
			{[]string{"--problems-file", filepath.Join(dir, "no-such-ids.txt")}, "no-such-ids.txt"},
			{[]string{"--workers", "-2"}, "--workers -2: must not be negative"},
			{[]string{"--cpu-limit", "-1s"}, "must not be negative"},
			{[]string{"--job", "evaluat"}, "unknown --job"},
			{[]string{"stray-argument"}, `unexpected argument "stray-argument"`},
			{[]string{"--no-such-flag"}, "flag provided but not defined"},
		} {
			logs, err := launch(t, out, "BAD", c.args...)
			if err == nil || !strings.Contains(logs, c.want) {
				t.Errorf("%v: %v, want an error saying %q:\n%s", c.args, err, c.want, logs)
			}
			noLeftovers(t, out)
			assertIntact(t, out, a, true)
		}
		cfg := filepath.Join(dir, "typo.json")
		os.WriteFile(cfg, []byte(`{"corpora": ["jsonl:x"], "translators": ["identity:"], "parallelizm": 4}`), 0o644)
		logs, err := launch(t, out, "BAD", "--config", cfg)
		if err == nil || !strings.Contains(logs, `unknown field "parallelizm"`) {
			t.Errorf("config with an unknown key: %v\n%s", err, logs)
		}
		assertIntact(t, out, a, true)
	})
}

// TestOutputNotWritable: an output that cannot be written fails before any work.
func TestOutputNotWritable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes anywhere")
	}
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro")
	os.MkdirAll(ro, 0o555)
	logs, err := launch(t, ro, "X")
	if err == nil || !strings.Contains(logs, "not writable") {
		t.Fatalf("%v\n%s", err, logs)
	}
}
