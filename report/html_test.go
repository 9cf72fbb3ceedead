package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"gocloud.dev/blob/memblob"

	"transmute/io/sink"
	"transmute/schemas"
)

// smallRun writes a tiny evaluate-style run (two translators, one direction, one
// failing translation) to a memory bucket.
func smallRun(t *testing.T) *Run {
	t.Helper()
	ctx := context.Background()
	b := memblob.OpenBucket(nil)
	m, _ := json.Marshal(Manifest{Run: "tiny", Config: map[string]any{"limit": 2}, Versions: map[string]string{"go": "go1.26"},
		Protections: []string{"seccomp"}, Counts: map[string]int64{"results": 4}})
	if err := b.WriteAll(ctx, "manifest.json", m, nil); err != nil {
		t.Fatal(err)
	}
	p := schemas.Problem{ID: "ADD", Corpus: "c", Params: []schemas.Param{{Name: "a", Type: "int"}}, Returns: "int",
		Functions: []schemas.Function{{Lang: "java", Code: "static int add(int a) { return a + 1; }"},
			{Lang: "python", Code: "def add(a):\n    return a + 1"}},
		Tests: []schemas.Test{{Index: 0, Args: "[1]"}, {Index: 1, Args: "[5]"}}}
	write := func(table string, err error) {
		if err != nil {
			t.Fatalf("%s: %v", table, err)
		}
	}
	_, err := sink.WriteShard(ctx, b, "problems", []schemas.Problem{p})
	write("problems", err)
	_, err = sink.WriteShard(ctx, b, "translations", []schemas.TranslationRow{
		{Translator: "bad", ProblemID: "ADD", SrcLang: "java", TgtLang: "python", VariantID: "orig", Code: "def add(a):\n    return a + 2"}})
	write("translations", err)
	var res []schemas.ResultRow
	for _, tr := range []string{"good", "bad"} {
		for i, want := range []string{"2", "6"} {
			got := want
			if tr == "bad" {
				got = []string{"3", "7"}[i]
			}
			res = append(res, schemas.ResultRow{Translator: tr, ProblemID: "ADD", Corpus: "c", SrcLang: "java", TgtLang: "python",
				Oracle: "target_gold", TestIndex: int32(i), Expected: want, Actual: got, Status: "ok", OracleStatus: "ok",
				ProgramStatus: "ok", Match: got == want})
		}
	}
	_, err = sink.WriteShard(ctx, b, "results", res)
	write("results", err)
	_, err = sink.WriteShard(ctx, b, "scores", []schemas.ScoreRow{
		{Translator: "good", Corpus: "c", SrcLang: "java", TgtLang: "python", Oracle: "target_gold", Subset: "all", Metric: "pass_rate", Value: 1, N: 1},
		{Translator: "bad", Corpus: "c", SrcLang: "java", TgtLang: "python", Oracle: "target_gold", Subset: "all", Metric: "pass_rate", Value: 0, N: 1},
		{Translator: "bad", Corpus: "c", SrcLang: "java", TgtLang: "python", Oracle: "target_gold", Subset: "all", Metric: "pass@1", Value: 0.25, N: 1}})
	write("scores", err)
	_, err = sink.WriteShard(ctx, b, "errors", []schemas.ErrorRow{{Stage: "ingest", Reason: "bad signature"}, {Stage: "ingest", Reason: "bad signature"}})
	write("errors", err)
	_, err = sink.WriteShard(ctx, b, "fidelity", []schemas.FidelityRow{{ProblemID: "ADD", LangA: "java", LangB: "python", Agree: true},
		{ProblemID: "ADD", LangA: "java", LangB: "python", Cause: "integer_overflow"}})
	write("fidelity", err)
	r, err := Load(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestWriteSmallRun(t *testing.T) {
	r := smallRun(t)
	if got, want := strings.Join(Sections(r), ","), "overview,correctness,fidelity,failures"; got != want {
		t.Fatalf("sections %s, want %s", got, want)
	}
	var buf bytes.Buffer
	if err := Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, want := range []string{
		`<section id="overview">`, `<td>ingest</td><td>bad signature</td><td class=n>2</td>`,
		`pass 1<br>CA`, `pass 0<br>CA`, `pass@1 0.25`,
		`<td>java–python</td><td class=n>2</td>`, `50.0%`, `integer_overflow 1`,
		`id="` + Anchor("bad", "ADD", "java", "python") + `"`, `Inputs <code>[1]</code>, expected <code>2</code>, actual <code>3</code>`,
		`<span class=del>-     return a + 1</span>`, `<span class=ins>+     return a + 2</span>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "http://") && !strings.Contains(page, `xmlns="http://www.w3.org/2000/svg"`) || strings.Contains(page, "https://") || strings.Contains(page, "<script") {
		t.Error("the page refers to the network or runs scripts")
	}
}

func TestDiff(t *testing.T) {
	got := Diff("a\nb\nc", "a\nx\nc")
	want := "  a\n<span class=ins>+ x</span>\n<span class=del>- b</span>\n  c\n"
	if got != want {
		t.Errorf("Diff = %q, want %q", got, want)
	}
}

// TestOtherJobsSections: a properties or consistency run's tables get their job's
// section (tables grouped under it, in ExtraTables' order) and its summary.txt a
// section of its own; a run without them has neither.
func TestOtherJobsSections(t *testing.T) {
	r := &Run{Summary: "Table 3: total violations <TV>\n",
		Extra: []Generic{
			{Section: "properties", Name: "transformations", Columns: []string{"lang", "n"}, Rows: [][]string{{"java", "270"}}, Total: 1},
			{Section: "properties", Name: "property_results", Columns: []string{"property"}, Rows: [][]string{{"renameParam|retValues"}}, Total: 300},
			{Section: "consistency", Name: "repairs", Columns: []string{"why"}, Rows: [][]string{{"kept"}}, Total: 1},
		}}
	got := Sections(r)
	want := []string{SecOverview, SecSummary, "properties", "consistency"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("sections %v, want %v", got, want)
	}
	var buf bytes.Buffer
	if err := Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, s := range []string{`<section id="summary">`, "<pre>Table 3: total violations &lt;TV&gt;\n</pre>",
		`<section id="properties"><h2>properties</h2><h3>transformations</h3>`, "<h3>property_results</h3><p>300 rows (the first 1 shown)",
		`<section id="consistency"><h2>consistency</h2><h3>repairs</h3>`} {
		if !strings.Contains(page, s) {
			t.Errorf("page lacks %q", s)
		}
	}
	if s := Sections(&Run{}); strings.Join(s, ",") != SecOverview {
		t.Errorf("empty run sections %v", s)
	}
}

// TestMBTAScatterDeterministic: the MTS-against-CA scatter of many programs renders
// the same bytes every time (its points came from map iteration).
func TestMBTAScatterDeterministic(t *testing.T) {
	r := &Run{}
	for i := 0; i < 12; i++ {
		id := fmt.Sprintf("P%02d", i)
		for k := 0; k < 3; k++ {
			v := "survived"
			if k <= i%3 {
				v = "killed"
			}
			r.Mutants = append(r.Mutants, schemas.MutantResultRow{Translator: "t", ProblemID: id, SrcLang: "java", TgtLang: "python", Verdict: v})
		}
		for j := int32(0); j < 4; j++ {
			r.Executions = append(r.Executions,
				schemas.ExecutionRow{ProblemID: id, Role: "gold", Lang: "java", TestIndex: j, TestStatus: schemas.StatusOK, Output: "1"},
				schemas.ExecutionRow{ProblemID: id, Role: "translation", Translator: "t", VariantID: "orig", ProgramID: "tr/t/java-python/orig",
					TestIndex: j, TestStatus: schemas.StatusOK, Output: fmt.Sprint(1 + min(1, int(j)/(1+i%4)))})
		}
	}
	render := func() string {
		var b strings.Builder
		mbtaSection(&page{w: &b}, r)
		return b.String()
	}
	first := render()
	if !strings.Contains(first, "MTS against CA") {
		t.Fatal("no scatter rendered")
	}
	for i := 0; i < 5; i++ {
		if render() != first {
			t.Fatal("the MBTA section differs between two renderings of one run")
		}
	}
}
