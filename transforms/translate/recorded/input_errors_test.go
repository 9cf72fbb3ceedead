package recorded

import (
	"context"
	"strings"
	"testing"

	"transmute/schemas"
	"transmute/transforms/translate"
)

// TestMalformedLinesAreErrorRowsNotMissing: every unreadable line of a recorded
// file is an error row naming file and line; the translation it was is a failure
// (status error), never "missing"; invalid UTF-8 is rejected, not rewritten.
func TestMalformedLinesAreErrorRowsNotMissing(t *testing.T) {
	ctx := context.Background()
	data := strings.Join([]string{
		`{"problem_id":"A","src_lang":"java","tgt_lang":"python","code":"def a():\n    return 1"}`,
		`{"problem_id":"B","src_lang":"java","tgt_lang":"python","code":"def b():` + "\n" + `  broken`, // bad JSON, key recoverable
		`{"problem_id":"C","src_lang":"java","tgt_lang":"python","code":"def c(): return '` + "\xff\xfe" + `'"}`,
		`{"problem_id":"D","src_lang":"java","tgt_lang":"python","sample":-1,"code":"x"}`,
	}, "\n")
	tr, err := FromJSONL(ctx, memBucket(t, map[string]string{"rec.jsonl": data}), "rec.jsonl", "rec")
	if err != nil {
		t.Fatal(err)
	}
	rows := translate.InputErrorRows("r", tr)
	want := []string{"rec.jsonl line 2: bad JSON", "rec.jsonl line 3: bad JSON", "rec.jsonl line 4: not valid UTF-8", "rec.jsonl line 5: negative sample"}
	if len(rows) != len(want) {
		t.Fatalf("error rows %+v, want %d", rows, len(want))
	}
	for i, r := range rows {
		if r.Stage != translate.Stage || r.Reason != translate.ReasonBadRecord || !strings.Contains(r.Detail, want[i]) {
			t.Errorf("row %d: %+v, want detail containing %q", i, r, want[i])
		}
	}
	for id, status := range map[string]schemas.TranslationStatus{"A": schemas.TranslationOK, "B": schemas.TranslationError, "C": schemas.TranslationError,
		"D": schemas.TranslationError, "NEVER": schemas.TranslationMissing} {
		out, _ := tr.Translate(ctx, translate.Request{ProblemID: id, VariantID: OrigVariant, SrcLang: "java", TgtLang: "python"})
		if len(out) != 1 || out[0].Status != status {
			t.Errorf("%s: %+v, want status %s", id, out, status)
		}
		if strings.ContainsRune(out[0].Code, '\uFFFD') {
			t.Errorf("%s: invalid UTF-8 rewritten into %q", id, out[0].Code)
		}
	}
	// a translation not found beside unreadable lines stays missing (each line is
	// one error row, not one per translation it may have held), naming the lines
	out, _ := tr.Translate(ctx, translate.Request{ProblemID: "NEVER", VariantID: OrigVariant, SrcLang: "java", TgtLang: "python"})
	if out[0].Status != schemas.TranslationMissing || !strings.Contains(out[0].Error, "unreadable") {
		t.Errorf("cpp->java beside lines of unknown direction: %+v", out)
	}
}

func TestTraceInvalidUTF8Rejected(t *testing.T) {
	ctx := context.Background()
	tr, err := FromTraceModelDir(ctx, memBucket(t, map[string]string{
		"java_to_python/x.jsonl": `{"sample_id": "OK", "python": ["def f():\n    return 1"]}` + "\n" +
			`{"sample_id": "BAD", "python": ["def f():\n    return '` + "\xc3\x28" + `'"]}` + "\n",
	}), "m")
	if err != nil {
		t.Fatal(err)
	}
	rows := translate.InputErrorRows("r", tr)
	if len(rows) != 1 || !strings.Contains(rows[0].Detail, "java_to_python/x.jsonl line 2: not valid UTF-8") {
		t.Fatalf("rows %+v", rows)
	}
	out, _ := tr.Translate(ctx, translate.Request{ProblemID: "BAD", VariantID: OrigVariant, SrcLang: "java", TgtLang: "python"})
	if out[0].Status != schemas.TranslationError {
		t.Errorf("BAD: %+v", out)
	}
}

// FuzzRecordedJSONL: no content of a recorded-translation file panics the reader;
// every line is either read or reported with its line number.
func FuzzRecordedJSONL(f *testing.F) {
	for _, s := range []string{
		`{"problem_id":"A","src_lang":"java","tgt_lang":"python","code":"def a(): pass"}`,
		`{"problem_id":"A","src_lang":"java","tgt_lang":"python","sample":0,"code":"x"}` + "\n" + `{"problem_id":"A","src_lang":"java","tgt_lang":"python","sample":0,"code":"y"}`,
		`{"problem_id":"A","sample":-3}`, `{oops`, "\xff\n\n{}", `[1,2]`, `{"problem_id":"A","src_lang":"java","tgt_lang":"python","sample":99999999999}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		ctx := context.Background()
		tr, err := FromJSONL(ctx, memBucket(t, map[string]string{"f.jsonl": data}), "f.jsonl", "f")
		if err != nil {
			return
		}
		nonEmpty := 0
		for _, l := range strings.Split(data, "\n") {
			if strings.TrimSpace(l) != "" {
				nonEmpty++
			}
		}
		if n := len(tr.InputErrors()); n > nonEmpty {
			t.Fatalf("%d input errors for %d lines", n, nonEmpty)
		}
		for _, e := range tr.InputErrors() {
			if e.Line < 1 || e.File != "f.jsonl" {
				t.Fatalf("error without its place: %+v", e)
			}
		}
	})
}

// FuzzTraceModelFile: the same for one file of a TRACE model directory.
func FuzzTraceModelFile(f *testing.F) {
	f.Add(`{"sample_id": "X", "python": ["import math\n--IMPORT_SPLIT--\ndef f(): pass"]}`)
	f.Add(`{"sample_id": "X", "python": "def f(): pass"}`)
	f.Add(`{"sample_id": 3, "python": [1]}`)
	f.Add("not json\n\xff")
	f.Fuzz(func(t *testing.T, data string) {
		ctx := context.Background()
		tr, err := FromTraceModelDir(ctx, memBucket(t, map[string]string{"java_to_python/f.jsonl": data}), "m")
		if err != nil {
			return
		}
		for _, e := range tr.InputErrors() {
			if e.Line < 1 || e.File != "java_to_python/f.jsonl" {
				t.Fatalf("error without its place: %+v", e)
			}
		}
	})
}
