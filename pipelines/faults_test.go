package pipelines

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"transmute/schemas"
)

// TestEngineFaultsInRun runs the evaluate job on the bundled corpus's first problems
// with every engine failing at one call site (EngineFaultEnv): the golds, their
// second runs (panics) and the translations (panics). The run ends and publishes;
// each failure is an error row with the engine's message; the rows of the programs
// the failure did not reach are those of a run without it.
func TestEngineFaultsInRun(t *testing.T) {
	root := repoRoot(t)
	run := func(t *testing.T, name string) string {
		out := t.TempDir()
		runPipeline(t, Config{Run: name, Output: out, Parallelism: 2, Limit: 2,
			Corpora:     []string{"jsonl:" + filepath.Join(root, "data/problems.jsonl")},
			Translators: []string{"identity:"}, Directions: "python-python,java-python"})
		return out
	}
	// the executions of the programs whose ID starts with prefix, timing aside
	execs := func(t *testing.T, out, prefix string) map[string]string {
		m := map[string]string{}
		for _, r := range read[schemas.ExecutionRow](t, out, "executions") {
			if strings.HasPrefix(r.ProgramID, prefix) {
				m[fmt.Sprintf("%s %s %d", r.ProblemID, r.ProgramID, r.TestIndex)] = string(r.TestStatus) + " " + r.Output
			}
		}
		return m
	}
	clean := run(t, "clean")
	for _, site := range []struct{ name, env, match, same string }{
		{"golds", "gold/", "gold/", ""},
		{"reruns", "#rerun:panic", "#rerun", "gold/"},
		{"translations", "tr/:panic", "tr/", "gold/"},
	} {
		// (no '#' in a subtest's name: its temporary directory would be cut there as a URL)
		t.Run(site.name, func(t *testing.T) {
			t.Setenv(EngineFaultEnv, site.env)
			out := run(t, "fault-"+site.name)
			if n := len(read[schemas.Problem](t, out, "problems")); n != 2 {
				t.Errorf("%d problems, want 2", n)
			}
			failures := 0
			for _, e := range read[schemas.ErrorRow](t, out, "errors") {
				if e.Reason != "engine failure" {
					continue
				}
				failures++
				if e.Stage != "execute" || !strings.Contains(e.Detail, "injected engine failure ("+site.match+")") ||
					strings.HasSuffix(site.env, ":panic") != strings.HasPrefix(e.Detail, "engine panicked: ") {
					t.Errorf("error row %+v", e)
				}
			}
			if failures == 0 {
				t.Errorf("no engine failure row")
			}
			if len(read[schemas.ResultRow](t, out, "results")) == 0 {
				t.Errorf("no result rows")
			}
			if site.same != "" {
				got, want := execs(t, out, site.same), execs(t, clean, site.same)
				if len(want) == 0 || fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s executions\n got %v\nwant %v", site.same, got, want)
				}
			}
		})
	}
}
