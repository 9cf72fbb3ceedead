package pipelines

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"transmute/schemas"
	"transmute/transforms/translate"
)

// TestNewUserCoverageAndVerdicts is the new user's run: a recorded file with three
// translations of the 30 bundled problems (one wrong, one a fenced chat answer),
// a line with a misnamed field and one of a problem no corpus has. The scores say
// 3 of 30 translated and give the pass rate over those; each bad line is one error
// row; the verdicts table has a verdict per problem, the executions table plain
// keys, and every file and the manifest the schema version.
func TestNewUserCoverageAndVerdicts(t *testing.T) {
	root := repoRoot(t)
	toy := map[string]string{} // java->python code of the toy LLM, by problem
	f, err := os.Open(filepath.Join(root, "data/translations/toy-llm.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l struct {
			ProblemID string `json:"problem_id"`
			SrcLang   string `json:"src_lang"`
			TgtLang   string `json:"tgt_lang"`
			Code      string `json:"code"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err == nil && l.SrcLang == "java" && l.TgtLang == "python" {
			toy[l.ProblemID] = l.Code
		}
	}
	f.Close()
	line := func(fields map[string]any) string {
		b, _ := json.Marshal(fields)
		return string(b)
	}
	rec := filepath.Join(t.TempDir(), "three.jsonl")
	lines := []string{
		line(map[string]any{"problem_id": "AVERAGE_OF_POSITIVES", "src_lang": "Java", "tgt_lang": "python", "code": toy["AVERAGE_OF_POSITIVES"]}),
		line(map[string]any{"problem_id": "IS_SORTED", "src_lang": "java", "tgt_lang": "python",
			"code": "Here is the translation:\n```python\n" + toy["IS_SORTED"] + "\n```\n"}),
		line(map[string]any{"problem_id": "COUNT_VOWELS", "src_lang": "java", "tgt_lang": "python", "code": toy["COUNT_VOWELS"]}), // wrong
		line(map[string]any{"problem_id": "NTH_FIBONACCI", "src_lang": "java", "tgt_lang": "python", "translation": toy["NTH_FIBONACCI"]}),
		line(map[string]any{"problem_id": "NO_SUCH_PROBLEM", "src_lang": "java", "tgt_lang": "python", "code": "def f():\n    return 1"}),
	}
	if err := os.WriteFile(rec, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runPipeline(t, Config{Run: "cov", Output: t.TempDir(), Parallelism: 2,
		Corpora:     []string{"jsonl:" + filepath.Join(root, "data/problems.jsonl")},
		Translators: []string{"recorded:" + rec}, Directions: "java-python"})

	got := map[string]schemas.ScoreRow{}
	for _, s := range read[schemas.ScoreRow](t, out, "scores") {
		if s.Oracle == "source" && s.Subset == "all" {
			got[string(s.Metric)] = s
		}
	}
	for m, want := range map[schemas.Metric]float64{schemas.MetricProblems: 30, schemas.MetricTranslated: 3,
		schemas.MetricMissing: 26, schemas.MetricTranslationFailed: 1, schemas.MetricCoverage: 0.1,
		schemas.MetricPassRate: 2.0 / 30, schemas.MetricPassRateAttempted: 2.0 / 3} {
		if s, ok := got[string(m)]; !ok || s.Value != want {
			t.Errorf("%s = %+v (present %v), want %v", m, s, ok, want)
		}
	}

	var translateErrs []string
	for _, e := range read[schemas.ErrorRow](t, out, "errors") {
		if e.Stage == translate.Stage {
			translateErrs = append(translateErrs, e.Reason+": "+e.Detail)
		}
	}
	if len(translateErrs) != 2 || !strings.Contains(strings.Join(translateErrs, "\n"), `unknown field "translation" (did you mean "code"?)`) ||
		!strings.Contains(strings.Join(translateErrs, "\n"), `three.jsonl line 5: unknown problem_id "NO_SUCH_PROBLEM"`) {
		t.Errorf("translate error rows:\n%s", strings.Join(translateErrs, "\n"))
	}

	pass := map[string]bool{}
	n := 0
	for _, v := range read[schemas.VerdictRow](t, out, "verdicts") {
		if v.Oracle != "source" {
			continue
		}
		n++
		if v.Pass != nil && *v.Pass {
			pass[v.ProblemID] = true
		}
		if v.Translation == "missing" && (v.Pass == nil || *v.Pass || v.CA == nil || *v.CA != 0) {
			t.Errorf("untranslated %s: pass %v ca %v, want false and 0", v.ProblemID, v.Pass, v.CA)
		}
	}
	if n != 30 || len(pass) != 2 || !pass["AVERAGE_OF_POSITIVES"] || !pass["IS_SORTED"] {
		t.Errorf("%d source verdicts, passing %v", n, pass)
	}
	for _, tr := range read[schemas.TranslationRow](t, out, "translations") {
		if tr.ProblemID == "IS_SORTED" && (strings.Contains(tr.Code, "```") || !strings.Contains(tr.Raw, "Here is the translation")) {
			t.Errorf("fenced answer: code %q raw %q", tr.Code, tr.Raw)
		}
	}
	for _, e := range read[schemas.ExecutionRow](t, out, "executions") {
		if keyed := e.SrcLang != "" && e.TgtLang != "" && e.Sample != nil; keyed != (e.Role == "translation") {
			t.Errorf("execution %s (%s): src %q tgt %q sample %v", e.ProgramID, e.Role, e.SrcLang, e.TgtLang, e.Sample)
		}
	}

	var m Manifest
	data, err := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err != nil || json.Unmarshal(data, &m) != nil || m.SchemaVersion != schemas.SchemaVersion || m.Commit == "" {
		t.Errorf("manifest: %v schema %q commit %q", err, m.SchemaVersion, m.Commit)
	}
	t.Run("arrow-rs and DuckDB", func(t *testing.T) { readElsewhere(t, root, out, m) })
	files, _ := filepath.Glob(filepath.Join(out, "*", "part-*.parquet"))
	for _, p := range files {
		data, _ := os.ReadFile(p)
		pf, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := pf.Lookup(schemas.MetaSchemaVersion); !ok || v != schemas.SchemaVersion {
			t.Errorf("%s: schema version %q", p, v)
		}
	}
}

// readElsewhere reads the output through scripts/arrow (arrow-rs compiled to
// WebAssembly with Arrow JS, and DuckDB): every table's rows, the schema version
// in each file's metadata, NULLs where a value is absent and dictionary encoding in
// the file metadata. It skips when node or the npm packages (make arrow-deps) are
// absent.
func readElsewhere(t *testing.T, root, out string, m Manifest) {
	dir := filepath.Join(root, "scripts", "arrow")
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "parquet-wasm")); err != nil {
		t.Skip("no scripts/arrow/node_modules (make arrow-deps)")
	}
	run := func(script string, v any) {
		cmd := exec.Command("node", filepath.Join(dir, script), out)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		data, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v\n%s", script, err, stderr.String())
		}
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("%s: %v", script, err)
		}
	}
	var arrow struct {
		Tables map[string]struct {
			Rows      int64
			Nulls     map[string]int64
			Encodings map[string][]string
			Metadata  map[string]string
		}
	}
	run("read.mjs", &arrow)
	if len(arrow.Tables) != len(Tables) {
		t.Errorf("arrow-rs read %d tables, want %d", len(arrow.Tables), len(Tables))
	}
	for name, tb := range arrow.Tables {
		if tb.Rows != m.Counts[name] || tb.Metadata[schemas.MetaSchemaVersion] != schemas.SchemaVersion {
			t.Errorf("arrow-rs %s: %d rows (manifest %d), metadata %v", name, tb.Rows, m.Counts[name], tb.Metadata)
		}
	}
	ex := arrow.Tables["executions"]
	gold := int64(0)
	for _, e := range read[schemas.ExecutionRow](t, out, "executions") {
		if e.Role == "gold" {
			gold++
		}
	}
	if gold == 0 || ex.Nulls["sample"] != gold || ex.Nulls["translator"] != gold || ex.Nulls["program_id"] != 0 {
		t.Errorf("arrow-rs executions NULLs %v, want %d in sample and translator", ex.Nulls, gold)
	}
	if !slices.Contains(ex.Encodings["run"], "RLE_DICTIONARY") || slices.Contains(ex.Encodings["output"], "DELTA_LENGTH_BYTE_ARRAY") {
		t.Errorf("arrow-rs executions encodings %v", ex.Encodings)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@duckdb", "node-api")); err != nil {
		t.Log("no DuckDB binding: only arrow-rs read the tables")
		return
	}
	var duck struct {
		Tables map[string]struct {
			Rows     int64
			Metadata map[string]string
		}
		PassRates []struct {
			PassRate                float64  `json:"pass_rate"`
			ScoresPassRate          float64  `json:"scores_pass_rate"`
			PassRateAttempted       *float64 `json:"pass_rate_attempted"`
			ScoresPassRateAttempted *float64 `json:"scores_pass_rate_attempted"`
		} `json:"pass_rates"`
	}
	run("duckdb.mjs", &duck)
	for name, tb := range duck.Tables {
		if tb.Rows != m.Counts[name] || tb.Metadata[schemas.MetaSchemaVersion] != schemas.SchemaVersion {
			t.Errorf("DuckDB %s: %d rows (manifest %d), metadata %v", name, tb.Rows, m.Counts[name], tb.Metadata)
		}
	}
	if len(duck.PassRates) == 0 {
		t.Error("DuckDB: no pass rates from verdicts")
	}
	for _, p := range duck.PassRates {
		if p.PassRateAttempted == nil || *p.PassRateAttempted == 0 {
			t.Errorf("DuckDB: no attempted pass rate in %+v", p) // the run has 2 of 3 passing
		}
		if p.PassRate != p.ScoresPassRate || (p.PassRateAttempted == nil) != (p.ScoresPassRateAttempted == nil) ||
			(p.PassRateAttempted != nil && *p.PassRateAttempted != *p.ScoresPassRateAttempted) {
			t.Errorf("DuckDB: verdicts and scores disagree: %+v", p)
		}
	}
}
