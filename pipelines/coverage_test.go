package pipelines

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
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
