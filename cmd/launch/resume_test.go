package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"transmute/io/blobs/blobstest"
	"transmute/io/sink"
	"transmute/schemas"
	"transmute/transforms/sandbox"
)

// The test binary doubles as the launcher: run with TRANSMUTE_RESUME_AS_LAUNCH=1 it
// is main() (so the runs below need no separate build, and the execution cache's
// version, this binary's build id, is the same for all of them).
func init() {
	sandbox.Init() // as main() does first: a sandboxed child re-executes this binary
	if os.Getenv("TRANSMUTE_RESUME_AS_LAUNCH") == "1" {
		// The launcher re-executes itself (the sandbox's init, engine helpers):
		// those must not become launchers too.
		os.Unsetenv("TRANSMUTE_RESUME_AS_LAUNCH")
		os.Args = append(os.Args[:1], strings.Fields(os.Getenv("TRANSMUTE_RESUME_ARGS"))...)
		main()
		os.Exit(0)
	}
}

type launchRun struct {
	cmd    *exec.Cmd
	out    string
	stderr strings.Builder
}

// startLaunch starts the launcher on a sample of the bundled corpus.
func startLaunch(t *testing.T, root, out, cacheDir, workDir string) *launchRun {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--corpus", "jsonl:" + filepath.Join(root, "data/problems.jsonl"),
		"--translator", "recorded:" + filepath.Join(root, "data/translations/toy-llm.jsonl"), "--translator", "identity:",
		"--directions", "java-python,java-cpp,python-java,python-cpp,cpp-java,cpp-python,java-java",
		"--limit", "12", "--run", "resume", "--out", out, "--cache", cacheDir, "--work-dir", workDir, "--quiet"}
	r := &launchRun{out: out}
	r.cmd = exec.Command(exe, "-test.run=^$")
	r.cmd.Env = append(os.Environ(), "TRANSMUTE_RESUME_AS_LAUNCH=1", "TRANSMUTE_RESUME_ARGS="+strings.Join(args, " "))
	r.cmd.Dir = root
	r.cmd.Stderr = &r.stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return r
}

// wait waits for the run and returns the CPU time of the launcher and everything it
// waited for (wait4's rusage: its sandboxed programs and engine workers).
func (r *launchRun) wait(t *testing.T) time.Duration {
	t.Helper()
	if err := r.cmd.Wait(); err != nil {
		t.Fatalf("launch: %v\n%s", err, r.stderr.String())
	}
	return cpuOf(r.cmd)
}

func cpuOf(c *exec.Cmd) time.Duration {
	ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	return time.Duration(syscall.TimevalToNsec(ru.Utime) + syscall.TimevalToNsec(ru.Stime))
}

func repoRoot(t *testing.T) string {
	wd, _ := os.Getwd()
	return filepath.Dir(filepath.Dir(wd))
}

func cacheEntries(dir string) int {
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			n++
		}
		return nil
	})
	return n
}

// tables reads a run's tables as sorted strings, timing and cache columns cleared.
func tables(t *testing.T, out string) map[string][]string {
	t.Helper()
	ctx := context.Background()
	b := blobstest.Open(t, out)
	got := map[string][]string{}
	add := func(name string, rows []any) {
		var s []string
		for _, r := range rows {
			s = append(s, rowString(r))
		}
		sort.Strings(s)
		got[name] = s
	}
	read := func(name string, f func() ([]any, error)) {
		rows, err := f()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		add(name, rows)
	}
	read("problems", func() ([]any, error) { return anyRows(sink.Read[schemas.Problem](ctx, b, "problems")) })
	read("translations", func() ([]any, error) {
		rows, err := sink.Read[schemas.TranslationRow](ctx, b, "translations")
		for i := range rows {
			rows[i].LatencyMs = 0
		}
		return anyRows(rows, err)
	})
	read("executions", func() ([]any, error) {
		rows, err := sink.Read[schemas.ExecutionRow](ctx, b, "executions")
		for i := range rows {
			rows[i].CPUMicros, rows[i].WallMicros, rows[i].MaxRSSKB, rows[i].Cached = 0, 0, 0, false
		}
		return anyRows(rows, err)
	})
	read("results", func() ([]any, error) { return anyRows(sink.Read[schemas.ResultRow](ctx, b, "results")) })
	read("scores", func() ([]any, error) { return anyRows(sink.Read[schemas.ScoreRow](ctx, b, "scores")) })
	read("errors", func() ([]any, error) { return anyRows(sink.Read[schemas.ErrorRow](ctx, b, "errors")) })
	read("fidelity", func() ([]any, error) { return anyRows(sink.Read[schemas.FidelityRow](ctx, b, "fidelity")) })
	return got
}

// rowString is %+v of a row with its pointer fields (nullable columns) shown by
// value: %+v would print their addresses, which differ between two reads.
func rowString(r any) string {
	v := reflect.ValueOf(r)
	var b strings.Builder
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if f.Kind() == reflect.Pointer && !f.IsNil() {
			f = f.Elem()
		}
		fmt.Fprintf(&b, "%s:%v ", v.Type().Field(i).Name, f)
	}
	return b.String()
}

func anyRows[T any](rows []T, err error) ([]any, error) {
	out := make([]any, len(rows))
	for i, r := range rows {
		out[i] = r
	}
	return out, err
}

func sameTables(t *testing.T, what string, a, b map[string][]string) {
	t.Helper()
	for name, rows := range a {
		if len(rows) == 0 && name != "errors" {
			t.Errorf("%s: table %s is empty", what, name)
		}
		if !reflect.DeepEqual(rows, b[name]) {
			n := 0
			for i := range rows {
				if i < len(b[name]) && rows[i] != b[name][i] && n < 3 {
					t.Errorf("%s: %s row %d:\n  %s\n  %s", what, name, i, rows[i], b[name][i])
					n++
				}
			}
			t.Errorf("%s: table %s differs (%d rows vs %d)", what, name, len(rows), len(b[name]))
		}
	}
}

// TestResumeAfterKill: a run killed with SIGKILL midway and started again with the
// same flags gives the tables of an uninterrupted run (timing columns aside), and a
// rerun over a full cache costs at most 10% of a cold run's CPU. Two runs into one
// cache at once give correct tables too.
func TestResumeAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the launcher six times")
	}
	root := repoRoot(t)
	tmp := t.TempDir()
	work := filepath.Join(tmp, "work") // compiled runners, shared like a machine's
	dir := func(name string) string { return filepath.Join(tmp, name) }

	// 1. Cold, uninterrupted.
	cold := startLaunch(t, root, dir("out-cold"), dir("cache-cold"), work)
	cpuCold := cold.wait(t)
	entries := cacheEntries(dir("cache-cold"))
	want := tables(t, dir("out-cold"))
	t.Logf("RESUME cold run: CPU %v, %d cache entries", cpuCold.Round(time.Millisecond), entries)

	// 2. Warm: every program is in the cache.
	warm := startLaunch(t, root, dir("out-warm"), dir("cache-cold"), work)
	cpuWarm := warm.wait(t)
	sameTables(t, "warm rerun", want, tables(t, dir("out-warm")))
	ratio := float64(cpuWarm) / float64(cpuCold)
	t.Logf("RESUME rerun over a full cache: CPU %v = %.1f%% of the cold run's", cpuWarm.Round(time.Millisecond), 100*ratio)
	if ratio > 0.10 {
		t.Errorf("rerun CPU %v is %.1f%% of the cold run's %v, want <= 10%%", cpuWarm, 100*ratio, cpuCold)
	}

	// 3. Killed midway (half the cache entries written), then run again.
	killed := startLaunch(t, root, dir("out-killed"), dir("cache-kill"), work)
	deadline := time.Now().Add(20 * time.Minute)
	for cacheEntries(dir("cache-kill")) < entries/2 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if err := killed.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed.cmd.Wait()
	atKill := cacheEntries(dir("cache-kill"))
	if atKill >= entries {
		t.Fatalf("the run finished before the kill (%d of %d entries)", atKill, entries)
	}
	rerun := startLaunch(t, root, dir("out-killed"), dir("cache-kill"), work)
	cpuRerun := rerun.wait(t)
	sameTables(t, "rerun after kill -9", want, tables(t, dir("out-killed")))
	f := float64(atKill) / float64(entries)
	t.Logf("RESUME killed at %d/%d cache entries (%.0f%%); the rerun's CPU %v = %.0f%% of the cold run's (the unfinished part alone would be ~%.0f%%)",
		atKill, entries, 100*f, cpuRerun.Round(time.Millisecond), 100*float64(cpuRerun)/float64(cpuCold), 100*(1-f))

	// 4. Two runs into one fresh cache at once.
	var wg sync.WaitGroup
	runs := []*launchRun{startLaunch(t, root, dir("out-a"), dir("cache-shared"), work),
		startLaunch(t, root, dir("out-b"), dir("cache-shared"), work)}
	errs := make([]error, 2)
	for i, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := r.cmd.Wait(); err != nil {
				errs[i] = fmt.Errorf("%v\n%s", err, r.stderr.String())
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("concurrent run %d: %v", i, err)
		}
	}
	sameTables(t, "concurrent run a", want, tables(t, dir("out-a")))
	sameTables(t, "concurrent run b", want, tables(t, dir("out-b")))
}
