package enginetest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"transmute/internal/testenv"
	"transmute/io/corpus"
	"transmute/schemas"
	"transmute/transforms/execute"
	_ "transmute/transforms/execute/cpp"
	_ "transmute/transforms/execute/golang"
	_ "transmute/transforms/execute/java"
	_ "transmute/transforms/execute/python"
	"transmute/transforms/sandbox"
)

// langs are the engines this package exercises.
var langs = []string{schemas.Java, schemas.Python, schemas.Cpp, schemas.Go}

func TestMain(m *testing.M) {
	testenv.RunWaker()
	sandbox.Init()
	// a secret the parent holds from the start; hostile candidates must not see it
	os.Setenv(secretEnv, fmt.Sprintf("s3cr3t-%d-value", os.Getpid()))
	os.Exit(runTests(m))
}

// cacheEnv hands the engines' cache directory to the child test processes this
// binary starts (the degraded and user-namespace hostile runs), so that they too
// find the harnesses built.
const cacheEnv = "TRANSMUTE_ENGINETEST_CACHE"

// engineCache is the work directory of every engine the tests open: the engines
// share it as a launch's workers share --work-dir, so the C++ precompiled header
// and harness runtime, the Java worker's classes and archive and the Python runner
// are built once per test binary instead of once per engine (seconds of CPU each).
var engineCache string

func runTests(m *testing.M) int {
	engineCache = os.Getenv(cacheEnv)
	if engineCache == "" {
		dir, err := os.MkdirTemp("", "enginetest-cache-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		os.Chmod(dir, 0o755)
		os.Setenv(cacheEnv, dir)
		engineCache = dir
	}
	return m.Run()
}

// built makes the first opening of each language's engine build its harness alone:
// the tests that open the same engine at once then wait for it instead of all
// building it.
var built = map[string]*sync.Once{schemas.Java: {}, schemas.Python: {}, schemas.Cpp: {}}

// buildHarness builds lang's harness in the shared cache unless another test did.
func buildHarness(lang string) {
	if once := built[lang]; once != nil {
		once.Do(func() {
			if e, err := execute.Open(lang, execute.Options{WorkDir: engineCache}); err == nil {
				e.Close()
			}
		})
	}
}

// openEngine opens the engine for lang on the shared cache, closed at cleanup.
func openEngine(tb testing.TB, lang string) execute.Engine {
	tb.Helper()
	buildHarness(lang)
	e, err := execute.Open(lang, execute.Options{WorkDir: engineCache})
	if err != nil {
		tb.Fatalf("open %s engine: %v", lang, err)
	}
	tb.Cleanup(func() { e.Close() })
	return e
}

// moduleRoot is the directory holding go.mod.
func moduleRoot(tb testing.TB) string {
	tb.Helper()
	return testenv.Root(tb)
}

// corporaDir is ../shared/corpora next to the module root; it skips when absent.
func corporaDir(tb testing.TB) string {
	tb.Helper()
	c := filepath.Join(moduleRoot(tb), "..", "shared", "corpora")
	if _, err := os.Stat(filepath.Join(c, "transcoder-test")); err != nil {
		tb.Skipf("shared corpora absent (%s): %v", c, err)
	}
	return c
}

var (
	tcOnce sync.Once
	tc     *corpus.Corpus
	tcErr  error
)

// transcoder loads the shared TransCoder-test sample once.
func transcoder(tb testing.TB) *corpus.Corpus {
	tb.Helper()
	dir := corporaDir(tb)
	tcOnce.Do(func() {
		tc, tcErr = corpus.Load(context.Background(), "transcoder:"+filepath.Join(dir, "transcoder-test"))
	})
	if tcErr != nil {
		tb.Fatalf("load transcoder-test: %v", tcErr)
	}
	return tc
}

// runBatch runs b and checks that results come back one per candidate, in order.
func runBatch(tb testing.TB, e execute.Engine, b execute.Batch) []execute.Result {
	tb.Helper()
	res, err := e.Run(context.Background(), b)
	if err != nil {
		tb.Fatalf("%s %s: engine error: %v", b.Lang, b.ProblemID, err)
	}
	if len(res) != len(b.Candidates) {
		tb.Fatalf("%s %s: %d results for %d candidates", b.Lang, b.ProblemID, len(res), len(b.Candidates))
	}
	for i, r := range res {
		if r.CandidateID != b.Candidates[i].ID {
			tb.Fatalf("%s %s: result %d is for %q, want %q", b.Lang, b.ProblemID, i, r.CandidateID, b.Candidates[i].ID)
		}
	}
	return res
}

// sameResult compares two results of one candidate, ignoring timing and memory
// fields; it returns a description of the first difference, or "".
func sameResult(a, b execute.Result) string {
	if a.Status != b.Status {
		return fmt.Sprintf("status %s vs %s (%s | %s)", a.Status, b.Status, short(a.Detail), short(b.Detail))
	}
	if len(a.Tests) != len(b.Tests) {
		return fmt.Sprintf("%d vs %d tests", len(a.Tests), len(b.Tests))
	}
	for i := range a.Tests {
		x, y := a.Tests[i], b.Tests[i]
		if x.Index != y.Index || x.Status != y.Status || x.Output != y.Output {
			return fmt.Sprintf("test %d: %s %q (%s) vs %s %q (%s)", i, x.Status, short(x.Output), short(x.Error),
				y.Status, short(y.Output), short(y.Error))
		}
	}
	return ""
}

func short(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}

// cpuNow is the process's and its reaped children's user+sys CPU time.
var cpuNow = testenv.CPU

// eachLang runs f in a parallel subtest per language, with the language's engine
// and the batch that f's candidates join: problem id, f(int x) -> int on tests,
// limits lim.
func eachLang(t *testing.T, id string, tests []schemas.Test, lim sandbox.Limits, f func(t *testing.T, e execute.Engine, base execute.Batch)) {
	for _, lang := range langs {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			e := openEngine(t, lang)
			base := execute.Batch{ProblemID: id, Lang: lang, Params: []schemas.Param{{Name: "x", Type: "int"}},
				Returns: "int", Tests: tests, Limits: lim}
			f(t, e, base)
		})
	}
}
