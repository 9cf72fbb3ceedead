package pipelines

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"transmute/internal/testenv"
	"transmute/io/blobs/blobstest"
	"transmute/io/sink"
	"transmute/schemas"
	"transmute/transforms/sandbox"

	_ "transmute/transforms/execute/cpp"
	_ "transmute/transforms/execute/java"
	_ "transmute/transforms/execute/python"
	_ "transmute/transforms/translate/identity"
	_ "transmute/transforms/translate/openai"
	_ "transmute/transforms/translate/recorded"
)

func TestMain(m *testing.M) {
	sandbox.Init()
	SweepBeamTemp(time.Minute) // what earlier runs' ptest.Run left (ptest.Main exits)
	code := ptest.MainRet(m)
	if effWork != "" {
		os.RemoveAll(effWork)
	}
	os.Exit(code)
}

// effWork is the WorkDir of the efficiency jobs these tests run, one for the test
// binary as a machine's runs share one: the engines' harnesses, the profiler's
// headers and the profiled programs (content-addressed) are built by the first job,
// not again by each. What these tests check is the job around the builds
// (transforms/profile's own tests check the builds, on a fresh cache).
var effWork string

// effWorkDir returns effWork, made on first use.
func effWorkDir(t *testing.T) string {
	t.Helper()
	if effWork == "" {
		dir, err := os.MkdirTemp("", "pipelines-eff-work-")
		if err != nil {
			t.Fatal(err)
		}
		os.Chmod(dir, 0o755)
		effWork = dir
	}
	return effWork
}

func repoRoot(t *testing.T) string {
	t.Helper()
	return testenv.Root(t)
}

func runPipeline(t *testing.T, c Config) string {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	BuildEvaluate(s, c)
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
	ctx := context.Background()
	b := blobstest.Open(t, c.Output)
	m := &Manifest{Run: c.Run, Config: c}
	if err := Finish(ctx, b, m, Tables); err != nil {
		t.Fatal(err)
	}
	return c.Output
}

func read[T any](t *testing.T, out, table string) []T {
	t.Helper()
	ctx := context.Background()
	b := blobstest.Open(t, out)
	rows, err := sink.Read[T](ctx, b, table)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestBundledCorpusEndToEnd runs the default job on data/ and checks it against the
// deliberate mistakes listed in data/translations/README.md.
func TestBundledCorpusEndToEnd(t *testing.T) {
	root := repoRoot(t)
	out := t.TempDir()
	runPipeline(t, Config{Run: "test", Output: out, Parallelism: 2,
		Corpora:     []string{"jsonl:" + filepath.Join(root, "data/problems.jsonl")},
		Translators: []string{"recorded:" + filepath.Join(root, "data/translations/toy-llm.jsonl"), "identity:"},
		Directions:  "java-python,java-cpp,python-java,python-cpp,cpp-java,cpp-python,java-java,python-python,cpp-cpp"})

	for _, table := range Tables {
		files, _ := filepath.Glob(filepath.Join(out, table, "part-*.parquet"))
		if len(files) == 0 {
			t.Errorf("table %s has no Parquet shard", table)
		}
		if tmp, _ := filepath.Glob(filepath.Join(out, table, "_tmp", "*")); len(tmp) > 0 {
			t.Errorf("table %s left temporary files %v", table, tmp)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "manifest.json")); err != nil {
		t.Error("no manifest.json")
	}

	problems := read[schemas.Problem](t, out, "problems")
	if len(problems) != 30 {
		t.Fatalf("want 30 problems, got %d", len(problems))
	}
	scores := read[schemas.ScoreRow](t, out, "scores")
	passed := map[string]float64{} // subset -> passing problems summed over toy-llm directions
	for _, s := range scores {
		if s.Metric != "pass_rate" || s.Oracle != "source" {
			continue
		}
		if s.Translator == "identity" {
			if s.Value != 1 {
				t.Errorf("identity %s->%s %s pass rate %v, want 1 (the pipeline's self-check)", s.SrcLang, s.TgtLang, s.Subset, s.Value)
			}
			continue
		}
		passed[s.Subset] += s.Value * float64(s.N)
	}
	// data/translations/README.md: 147 of 180 tasks pass on all tests, 155 without
	// the language-dependent tests.
	if int(passed["all"]+0.5) != 147 || int(passed["lang_independent"]+0.5) != 155 {
		t.Errorf("toy-llm passing tasks: all %.1f (want 147), lang_independent %.1f (want 155)", passed["all"], passed["lang_independent"])
	}

	results := read[schemas.ResultRow](t, out, "results")
	status := map[string]schemas.Status{}
	for _, r := range results {
		if r.Oracle == "source" && r.Translator == "toy-llm" {
			status[fmt.Sprintf("%s %s-%s %d", r.ProblemID, r.SrcLang, r.TgtLang, r.TestIndex)] = r.Status
			status[fmt.Sprintf("%s %s-%s program", r.ProblemID, r.SrcLang, r.TgtLang)] = r.ProgramStatus
		}
	}
	for k, want := range map[string]schemas.Status{
		"COUNT_SET_BITS java-python 8":              schemas.StatusTimeout,
		"COUNT_SET_BITS java-python 0":              schemas.StatusOK,
		"LCS_LENGTH java-cpp program":               schemas.StatusCompileError,
		"CAPITALIZE_LONG_WORDS python-java program": schemas.StatusCompileError,
		"LONGEST_COMMON_PREFIX cpp-python 2":        schemas.StatusRuntimeError,
		"IS_PALINDROME_ALNUM cpp-java 3":            schemas.StatusRuntimeError,
		"BINARY_SEARCH_RECURSIVE python-java 1":     schemas.StatusRuntimeError,
		"TRANSPOSE_MATRIX cpp-java 0":               "no_translation",
		"TRANSPOSE_MATRIX cpp-java program":         schemas.Status(schemas.TranslationMissing),
	} {
		if status[k] != want {
			t.Errorf("%s: status %q, want %q", k, status[k], want)
		}
	}

	// Harness fidelity: the two deliberate language differences, nothing else.
	fid := read[schemas.FidelityRow](t, out, "fidelity")
	causes := map[string]bool{}
	for _, f := range fid {
		if !f.Agree {
			causes[fmt.Sprintf("%s #%d %s", f.ProblemID, f.TestIndex, f.Cause)] = true
		}
	}
	var got []string
	for k := range causes {
		got = append(got, k)
	}
	sort.Strings(got)
	want := []string{
		"FLOAT_VARIANCE #7 float_precision", "FLOAT_VARIANCE #8 float_precision",
		"SUM_OF_SQUARES_FORMULA #6 integer_overflow", "SUM_OF_SQUARES_FORMULA #7 integer_overflow",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("fidelity disagreements:\n got %v\nwant %v", got, want)
	}
	for _, p := range problems {
		for _, tt := range p.Tests {
			dep := causes[fmt.Sprintf("%s #%d %s", p.ID, tt.Index, tt.DependCause)]
			if tt.LangDependent != dep {
				t.Errorf("%s test %d: lang_dependent=%v cause %q", p.ID, tt.Index, tt.LangDependent, tt.DependCause)
			}
		}
	}
	if errs := read[schemas.ErrorRow](t, out, "errors"); len(errs) != 0 {
		t.Errorf("unexpected error rows: %+v", errs)
	}
}
