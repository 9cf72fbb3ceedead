package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
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
		{Translator: "bad", ProblemID: "ADD", Corpus: "c", SrcLang: "java", TgtLang: "python", VariantID: "orig", Status: "ok", Code: "def add(a):\n    return a + 2"}})
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
	for i, want := range []string{"2", "6"} { // a second row of the matrix, for its filter
		res = append(res, schemas.ResultRow{Translator: "good", ProblemID: "ADD", Corpus: "c", SrcLang: "java", TgtLang: "python",
			Oracle: "source", TestIndex: int32(i), Expected: want, Actual: want, Status: "ok", OracleStatus: "ok", ProgramStatus: "ok", Match: true})
	}
	_, err = sink.WriteShard(ctx, b, "results", res)
	write("results", err)
	_, err = sink.WriteShard(ctx, b, "scores", []schemas.ScoreRow{
		{Translator: "good", Corpus: "c", SrcLang: "java", TgtLang: "python", Oracle: "target_gold", Subset: "all", Metric: "pass_rate", Value: 1, N: 1},
		{Translator: "bad", Corpus: "c", SrcLang: "java", TgtLang: "python", Oracle: "target_gold", Subset: "all", Metric: "pass_rate", Value: 0, N: 1},
		{Translator: "bad", Corpus: "c", SrcLang: "java", TgtLang: "python", Oracle: "target_gold", Subset: "all", Metric: "pass@1", Value: 0.25, N: 1},
		{Translator: "good", Corpus: "c", SrcLang: "java", TgtLang: "python", Oracle: "target_gold", Subset: "all", Metric: "ca_overall", Value: 1, N: 2},
		{Translator: "bad", Corpus: "c", SrcLang: "java", TgtLang: "python", Oracle: "target_gold", Subset: "all", Metric: "ca_overall", Value: 0, N: 2}})
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
	if got, want := strings.Join(Sections(r), ","), "overview,correctness,matrix,fidelity,failures"; got != want {
		t.Fatalf("sections %s, want %s", got, want)
	}
	var buf bytes.Buffer
	if err := Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, want := range []string{
		`<section id="overview">`, `<td>ingest</td><td>bad signature</td><td class=n>2</td>`,
		`pass 1 <span class=ci>[0.21, 1.00]</span><br>`, `pass 0 <span class=ci>[0.00, 0.79]</span><br>`,
		`<br>CA 1 <span class=ci>[1.00, 1.00]</span><br>n 1`, `<br>CA 0 <span class=ci>[0.00, 0.00]</span><br>n 1`, `pass@1 0.25`,
		`<svg`, `aria-label="pass against target_gold with Wilson 95% intervals"`, `aria-label="CA per problem, bad (target_gold)"`,
		`<tr data-dir="java-python" data-oracle="target_gold" data-status="wrong_answer pass">`,
		`ADD: test 0 wrong answer</summary>`,
		`<td>java–python</td><td class=n>2</td>`, `50.0%`, `integer_overflow 1`,
		`id="` + Anchor("bad", "ADD", "java", "python") + `"`, `Inputs <code>[1]</code>, expected <code>2</code>, actual <code>3</code>`,
		`<span class=del>-     return a + 1</span>`, `<span class=ins>+     return a + 2</span>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(strings.ReplaceAll(page, `xmlns="http://www.w3.org/2000/svg"`, ""), "http://") || strings.Contains(page, "https://") ||
		strings.Contains(page, "<script src") || strings.Count(page, "<script") != 1 {
		t.Error("the page refers to the network or runs other scripts than the matrix's filter")
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

// TestFailuresOrder: failures are listed by what they teach (a wrong answer before
// a runtime error before a compile error), untranslated problems are counted and not
// listed, and a wrong answer is never labelled "ok" (its test ran without error, and
// the label used to be the test's execution status).
func TestFailuresOrder(t *testing.T) {
	r := &Run{Manifest: Manifest{Run: "order"}}
	add := func(problem string, test int32, status, program schemas.Status, match bool) {
		r.Results = append(r.Results, schemas.ResultRow{Translator: "t", ProblemID: problem, Corpus: "c", SrcLang: "java", TgtLang: "python",
			Oracle: "target_gold", TestIndex: test, Expected: "1", Actual: "2", Status: status, OracleStatus: schemas.StatusOK,
			ProgramStatus: program, Match: match})
	}
	for _, id := range []string{"A1", "A2", "A3"} { // untranslated, sorting before the others by name
		add(id, 0, schemas.StatusNoTranslation, "missing", false)
	}
	add("B_COMPILE", 0, schemas.StatusCompileError, schemas.StatusCompileError, false)
	add("C_RUNTIME", 0, schemas.StatusOK, schemas.StatusRuntimeError, true)
	add("C_RUNTIME", 1, schemas.StatusRuntimeError, schemas.StatusRuntimeError, false)
	add("D_WRONG", 1, schemas.StatusOK, schemas.StatusOK, false)
	add("D_WRONG", 0, schemas.StatusOK, schemas.StatusOK, true)
	add("E_PASS", 0, schemas.StatusOK, schemas.StatusOK, true)
	fs, untranslated := failuresAndUntranslated(r)
	var got []string
	for _, f := range fs {
		got = append(got, f.problem+":"+f.kind)
	}
	if want := "D_WRONG:wrong_answer C_RUNTIME:runtime_error B_COMPILE:compile_error"; strings.Join(got, " ") != want || untranslated != 3 {
		t.Fatalf("failures %v, %d untranslated; want %s, 3", got, untranslated, want)
	}
	var buf bytes.Buffer
	failuresSection(&page{w: &buf}, r)
	page := buf.String()
	first := strings.Index(page, "<details")
	if first < 0 || !strings.HasPrefix(page[first:], `<details id="`+Anchor("t", "D_WRONG", "java", "python")+`"`) {
		t.Errorf("the first failure listed is not the wrong answer:\n%s", page)
	}
	if !strings.Contains(page, "D_WRONG: test 1 wrong answer</summary>") || strings.Contains(page, " ok</summary>") {
		t.Errorf("the wrong answer's label:\n%s", page)
	}
	if strings.Contains(page, "A1") || !strings.Contains(page, "Problems without a translation to run (untranslated): 3,") {
		t.Errorf("untranslated problems listed or not counted:\n%s", page)
	}
}

// TestIntervals: Wilson intervals at known values, and a seeded bootstrap of CA that
// is reproducible and contains the pooled CA.
func TestIntervals(t *testing.T) {
	for _, c := range []struct {
		k, n   int64
		lo, hi float64
	}{{0, 30, 0, 0.1135}, {2, 30, 0.0185, 0.2132}, {15, 30, 0.3315, 0.6685}, {1, 1, 0.2065, 1}} {
		lo, hi := wilson(c.k, c.n)
		if math.Abs(lo-c.lo) > 5e-4 || math.Abs(hi-c.hi) > 5e-4 {
			t.Errorf("wilson(%d, %d) = [%.4f, %.4f], want [%.4f, %.4f]", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
	tests, matched := []int{10, 10, 10, 10, 4}, []int{10, 0, 5, 10, 2}
	lo, hi, ok := bootstrapCA(tests, matched, 7)
	lo2, hi2, _ := bootstrapCA(tests, matched, 7)
	ca := 27.0 / 44
	if !ok || lo != lo2 || hi != hi2 || !(lo < ca && ca < hi) || lo < 0 || hi > 1 {
		t.Errorf("bootstrapCA = [%v, %v] (again [%v, %v]), CA %v", lo, hi, lo2, hi2, ca)
	}
}

// TestCorrectnessCoverage: a translator that translated 3 of 30 problems shows its
// coverage (marked), and the pass rate over the 3 attempted with its own interval,
// beside the pass rate over all 30 with its.
func TestCorrectnessCoverage(t *testing.T) {
	r := &Run{Scores: coverageScores()}
	var buf bytes.Buffer
	correctness(&page{w: &buf}, r)
	page := buf.String()
	for _, want := range []string{
		`pass 0.0667 <span class=ci>[0.02, 0.21]</span><br>pass/attempted 0.667 <span class=ci>[0.21, 0.94]</span> (3)`,
		`<span class=warn>coverage 3/30</span>`, `<span>coverage 30/30</span>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("correctness lacks %q", want)
		}
	}
	if strings.Contains(page, "pass 1 <span class=ci>[0.89, 1.00]</span><br>pass/attempted") {
		t.Error("pass/attempted shown where it equals pass")
	}
}
