package recorded

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"transmute/schemas"
	"transmute/transforms/translate"
)

// TestStrictRecordedLines: each way a recorded line goes wrong gives one error row
// naming file, line and what was expected, and its translation (when the line says
// which) fails instead of looking empty or missing.
func TestStrictRecordedLines(t *testing.T) {
	ctx := context.Background()
	lines := []string{
		`{"problem_id":"A","src_lang":"java","tgt_lang":"python","translation":"def a():\n    return 1"}`,
		`{"problem_id":"B","src_lang":"Java","tgt_lang":"PYTHON","code":"def b():\n    return 2"}`,
		`{"problem_id":"C","src_lang":"java","tgt_lang":"rust","code":"fn c() -> i32 { 3 }"}`,
		`{"problem_id":"D","src_lang":"java","tgt_lang":"python","cdoe":"def d(): pass","sample":0}`,
	}
	tr, err := FromJSONL(ctx, memBucket(t, map[string]string{"rec.jsonl": strings.Join(lines, "\n")}), "rec.jsonl", "rec")
	if err != nil {
		t.Fatal(err)
	}
	rows := translate.InputErrorRows("r", tr)
	want := []string{
		`rec.jsonl line 1: unknown field "translation" (did you mean "code"?); expected fields: problem_id, src_lang, tgt_lang, sample, code, imports, entry`,
		`rec.jsonl line 3: unknown tgt_lang "rust"; known languages: java, python, cpp`,
		`rec.jsonl line 4: unknown field "cdoe" (did you mean "code"?)`,
	}
	if len(rows) != len(want) {
		t.Fatalf("error rows %+v, want %d", rows, len(want))
	}
	for i, r := range rows {
		if !strings.Contains(r.Detail, want[i]) {
			t.Errorf("row %d: %q, want %q", i, r.Detail, want[i])
		}
	}
	for _, c := range []struct {
		id     string
		status schemas.TranslationStatus
		err    string
	}{{"A", schemas.TranslationError, "line 1: unknown field"}, {"B", schemas.TranslationOK, ""}, {"D", schemas.TranslationError, "line 4"}} {
		out, _ := tr.Translate(ctx, translate.Request{ProblemID: c.id, VariantID: OrigVariant, SrcLang: "java", TgtLang: "python"})
		if len(out) != 1 || out[0].Status != c.status || !strings.Contains(out[0].Error, c.err) {
			t.Errorf("%s: %+v, want status %s, error with %q", c.id, out, c.status, c.err)
		}
	}
	// "Java"/"PYTHON" are folded: B is java->python, and rust is no direction
	if d := tr.Directions(); len(d) != 1 || d[0] != [2]string{"java", "python"} {
		t.Errorf("directions %v", d)
	}
}

// TestOneErrorRowPerMalformedLine: a line that cannot be read is one error row for
// the run, however many problems the evaluation asks the file for: the failure of a
// known problem's translation is not repeated as a translation-failed row, and the
// problems not found stay missing.
func TestOneErrorRowPerMalformedLine(t *testing.T) {
	ctx := context.Background()
	for _, bad := range []string{
		`{"problem_id":"P01","src_lang":"java","tgt_lang":"python","code":"def f(:`, // key recoverable
		`{"problem_id" "P01", oops`, // key lost
	} {
		data := `{"problem_id":"P00","src_lang":"java","tgt_lang":"python","code":"def f():\n    return 0"}` + "\n" + bad
		tr, err := FromJSONL(ctx, memBucket(t, map[string]string{"rec.jsonl": data}), "rec.jsonl", "rec")
		if err != nil {
			t.Fatal(err)
		}
		n := len(translate.InputErrorRows("r", tr))
		for p := 0; p < 30; p++ {
			out, _ := tr.Translate(ctx, translate.Request{ProblemID: fmt.Sprintf("P%02d", p), VariantID: OrigVariant, SrcLang: "java", TgtLang: "python"})
			for _, x := range out {
				if _, ok := translate.FailureRow("r", "c", "P", "rec", OrigVariant, "java", "python", x); ok {
					n++
				}
			}
		}
		if n != 1 {
			t.Errorf("%s: %d error rows, want 1", bad, n)
		}
	}
}

// TestRecordedFencedAnswer: a recorded answer in Markdown fences is run as the code
// inside them (as openai: takes a live answer), the answer kept in Raw; an answer
// with fences but no code fails.
func TestRecordedFencedAnswer(t *testing.T) {
	ctx := context.Background()
	answer := "Here is the translation:\n```python\nimport math\n\ndef f(x):\n    return math.floor(x)\n```\nIt floors x."
	data := fmt.Sprintf(`{"problem_id":"A","src_lang":"java","tgt_lang":"python","code":%q}`+"\n"+
		`{"problem_id":"B","src_lang":"java","tgt_lang":"python","code":"Sorry:\n`+"```"+`\n`+"```"+`"}`, answer)
	tr, err := FromJSONL(ctx, memBucket(t, map[string]string{"rec.jsonl": data}), "rec.jsonl", "rec")
	if err != nil {
		t.Fatal(err)
	}
	out, _ := tr.Translate(ctx, translate.Request{ProblemID: "A", VariantID: OrigVariant, SrcLang: "java", TgtLang: "python"})
	if len(out) != 1 || out[0].Status != schemas.TranslationOK || strings.Contains(out[0].Code, "```") ||
		!strings.HasPrefix(out[0].Code, "def f(x):") || out[0].Imports != "import math" || out[0].Raw != answer {
		t.Errorf("fenced answer: %+v", out)
	}
	out, _ = tr.Translate(ctx, translate.Request{ProblemID: "B", VariantID: OrigVariant, SrcLang: "java", TgtLang: "python"})
	if len(out) != 1 || out[0].Status != schemas.TranslationError || out[0].Raw == "" {
		t.Errorf("fences without code: %+v", out)
	}
}

// TestUnknownProblems: recorded lines of problems no corpus has are listed with
// file and line.
func TestUnknownProblems(t *testing.T) {
	ctx := context.Background()
	data := `{"problem_id":"A","src_lang":"java","tgt_lang":"python","code":"def a(): pass"}` + "\n" +
		`{"problem_id":"ZZZ","src_lang":"java","tgt_lang":"python","code":"def z(): pass"}`
	tr, err := FromJSONL(ctx, memBucket(t, map[string]string{"rec.jsonl": data}), "rec.jsonl", "rec")
	if err != nil {
		t.Fatal(err)
	}
	got := tr.UnknownProblems(func(id string) bool { return id == "A" })
	if len(got) != 1 || got[0].Line != 2 || got[0].ProblemID != "ZZZ" || !strings.Contains(got[0].Reason, `unknown problem_id "ZZZ"`) {
		t.Errorf("unknown problems %+v", got)
	}
}
