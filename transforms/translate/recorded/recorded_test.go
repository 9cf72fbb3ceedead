package recorded

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"transmute/internal/testenv"
	"transmute/schemas"
	"transmute/transforms/translate"
)

var (
	memBucket = testenv.MemBucket
	writeTree = testenv.WriteTree
)

var traceModel = map[string]string{
	"java_to_python/p_java_to_python.jsonl": `{"sample_id": "ADD_ONE", "python": ["import math\n--IMPORT_SPLIT--\n\n\n\ndef add_one(x):\n    return x + 1", "\n--IMPORT_SPLIT--\ndef add_one(x):\n    return 1 + x"]}
{"sample_id": "EMPTY", "python": ["\n--IMPORT_SPLIT--\n"]}
not json
{"sample_id": "NO_FIELD", "cpp": ["int f();"]}
`,
	"cpp_to_java/p_cpp_to_java.jsonl": `{"sample_id": "ADD_ONE", "java": ["import java.util.*;\n--IMPORT_SPLIT--\nstatic int addOne(int x) {\n    return x + 1;\n}"]}
`,
	"README.md": "not a translation",
}

func TestFromTraceModelDir(t *testing.T) {
	ctx := context.Background()
	tr, err := FromTraceModelDir(ctx, memBucket(t, traceModel), "gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Name() != "gpt-4o" || tr.TranslatesVariants() {
		t.Errorf("name %q variants %v", tr.Name(), tr.TranslatesVariants())
	}
	if d := tr.Directions(); !reflect.DeepEqual(d, [][2]string{{"cpp", "java"}, {"java", "python"}}) {
		t.Errorf("directions %v", d)
	}
	if w := tr.Warnings(); len(w) != 2 || !strings.Contains(w[0], "line 3") || !strings.Contains(w[1], `no "python" field`) {
		t.Errorf("warnings %q", w)
	}
	out, err := tr.Translate(ctx, translate.Request{ProblemID: "ADD_ONE", VariantID: "orig", SrcLang: "java", TgtLang: "python"})
	if err != nil {
		t.Fatal(err)
	}
	want := []translate.Translation{
		{Sample: 0, Status: schemas.TranslationOK, Imports: "import math", Code: "def add_one(x):\n    return x + 1"},
		{Sample: 1, Status: schemas.TranslationOK, Imports: "", Code: "def add_one(x):\n    return 1 + x"},
	}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("got %+v\nwant %+v", out, want)
	}
	out, _ = tr.Translate(ctx, translate.Request{ProblemID: "ADD_ONE", SrcLang: "cpp", TgtLang: "java"})
	if len(out) != 1 || out[0].Imports != "import java.util.*;" || !strings.HasPrefix(out[0].Code, "static int addOne") || out[0].Entry != "" {
		t.Errorf("cpp->java %+v", out)
	}
	out, _ = tr.Translate(ctx, translate.Request{ProblemID: "EMPTY", VariantID: "orig", SrcLang: "java", TgtLang: "python"})
	if len(out) != 1 || out[0].Status != schemas.TranslationError {
		t.Errorf("empty recorded translation: %+v", out)
	}
	out, _ = tr.Translate(ctx, translate.Request{ProblemID: "ADD_ONE", VariantID: "orig", SrcLang: "python", TgtLang: "java"})
	if len(out) != 1 || out[0].Status != schemas.TranslationMissing || out[0].Error == "" {
		t.Errorf("missing direction: %+v", out)
	}
	// java->python has an unreadable line ("not json"): a problem not found there
	// stays missing (the line is one error row of its own), its Error naming the line
	out, _ = tr.Translate(ctx, translate.Request{ProblemID: "NOPE", VariantID: "orig", SrcLang: "java", TgtLang: "python"})
	if len(out) != 1 || out[0].Status != schemas.TranslationMissing || !strings.Contains(out[0].Error, "p_java_to_python.jsonl line 3") {
		t.Errorf("problem not found beside an unreadable line: %+v", out)
	}
	out, _ = tr.Translate(ctx, translate.Request{ProblemID: "NOPE", VariantID: "orig", SrcLang: "cpp", TgtLang: "java"})
	if len(out) != 1 || out[0].Status != schemas.TranslationMissing {
		t.Errorf("missing problem: %+v", out)
	}
	// NO_FIELD's line names its problem: a failed translation of it, not a missing one
	out, _ = tr.Translate(ctx, translate.Request{ProblemID: "NO_FIELD", VariantID: "orig", SrcLang: "java", TgtLang: "python"})
	if len(out) != 1 || out[0].Status != schemas.TranslationError || !strings.Contains(out[0].Error, "line 4") {
		t.Errorf("malformed line of a known problem: %+v", out)
	}
	out, _ = tr.Translate(ctx, translate.Request{ProblemID: "ADD_ONE", VariantID: "mut-3", SrcLang: "java", TgtLang: "python"})
	if len(out) != 1 || out[0].Status != schemas.TranslationUnsupported || !strings.Contains(out[0].Error, "mut-3") {
		t.Errorf("variant: %+v", out)
	}
	// the caller cannot alter the recorded samples
	out, _ = tr.Translate(ctx, translate.Request{ProblemID: "ADD_ONE", SrcLang: "java", TgtLang: "python"})
	out[0].Code = "changed"
	again, _ := tr.Translate(ctx, translate.Request{ProblemID: "ADD_ONE", SrcLang: "java", TgtLang: "python"})
	if again[0].Code == "changed" {
		t.Error("Translate returned the translator's own slice")
	}
	if _, err := FromTraceModelDir(ctx, memBucket(t, map[string]string{"x.txt": "y"}), "m"); err == nil {
		t.Error("a directory without translations: want an error")
	}
}

func TestSplitImports(t *testing.T) {
	cases := []struct{ in, imports, code string }{
		{"import math\n--IMPORT_SPLIT--\n\n\n\ndef f():\n    pass", "import math", "def f():\n    pass"},
		{"\n--IMPORT_SPLIT--\nint f() {}", "", "int f() {}"},
		{"#include <vector>\nusing namespace std;\n--IMPORT_SPLIT--\nint f() {}\n", "#include <vector>\nusing namespace std;", "int f() {}"},
		{"def g():\n    return 1", "", "def g():\n    return 1"},
	}
	for _, c := range cases {
		im, code := SplitImports(c.in)
		if im != c.imports || code != c.code {
			t.Errorf("%q: got %q / %q", c.in, im, code)
		}
	}
}

func TestFromJSONL(t *testing.T) {
	ctx := context.Background()
	data := strings.Join([]string{
		`{"problem_id":"SUM","src_lang":"java","tgt_lang":"python","sample":1,"code":"def s(n):\n    return 1","imports":"import math","entry":"s"}`,
		`{"problem_id":"SUM","src_lang":"java","tgt_lang":"python","sample":0,"code":"def s(n):\n    return 0"}`,
		`{"problem_id":"SUM","src_lang":"java","tgt_lang":"python","code":"def s(n):\n    return 2"}`,
		`{"problem_id":"SUM","src_lang":"python","tgt_lang":"cpp","code":"int s(int n) { return 0; }"}`,
		`{"problem_id":"SUM","src_lang":"java","tgt_lang":"python","sample":0,"code":"duplicate"}`,
		`{"problem_id":"","src_lang":"java","tgt_lang":"python","code":"x"}`,
		`{oops`,
	}, "\n")
	tr, err := FromJSONL(ctx, memBucket(t, map[string]string{"mine.jsonl": data}), "mine.jsonl", "mine")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Warnings()) != 3 {
		t.Errorf("warnings %q", tr.Warnings())
	}
	out, _ := tr.Translate(ctx, translate.Request{ProblemID: "SUM", VariantID: "orig", SrcLang: "java", TgtLang: "python"})
	if len(out) != 3 {
		t.Fatalf("got %+v", out)
	}
	for i, o := range out {
		if o.Sample != int32(i) || o.Status != schemas.TranslationOK || !strings.HasSuffix(o.Code, "return "+string(rune('0'+i))) {
			t.Errorf("sample %d: %+v", i, o)
		}
	}
	if out[1].Entry != "s" || out[1].Imports != "import math" || out[0].Entry != "" {
		t.Errorf("entry/imports not kept: %+v", out)
	}
	if d := tr.Directions(); !reflect.DeepEqual(d, [][2]string{{"java", "python"}, {"python", "cpp"}}) {
		t.Errorf("directions %v", d)
	}
}

func TestOpenThroughRegistry(t *testing.T) {
	ctx := context.Background()
	dir := writeTree(t, map[string]string{}) // placeholder root
	model := filepath.Join(dir, "Ref_Translation", "m.Some-Model-7B")
	for k, v := range traceModel {
		p := filepath.Join(model, filepath.FromSlash(k))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "my-tool.jsonl")
	if err := os.WriteFile(file, []byte(`{"problem_id":"P","src_lang":"cpp","tgt_lang":"java","code":"static int f() { return 1; }"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for spec, name := range map[string]string{
		"recorded:" + model:                                     "Some-Model-7B",
		"recorded:" + model + "?name=custom":                    "custom",
		"recorded:file://" + filepath.ToSlash(model) + "/":      "Some-Model-7B",
		"recorded:" + file:                                      "my-tool",
		"recorded:file://" + filepath.ToSlash(file) + "?name=x": "x",
	} {
		tr, err := translate.Open(ctx, spec)
		if err != nil {
			t.Errorf("%s: %v", spec, err)
			continue
		}
		if tr.Name() != name {
			t.Errorf("%s: name %q, want %q", spec, tr.Name(), name)
		}
		tr.Close()
	}
	for _, spec := range []string{"recorded:", "recorded:" + filepath.Join(dir, "nope"), "recorded:" + dir} {
		if _, err := translate.Open(ctx, spec); err == nil {
			t.Errorf("%s: want an error", spec)
		}
	}
}

// realRefTranslations returns ../shared/corpora/trace/Ref_Translation beside the
// module root, or skips.
func realRefTranslations(t *testing.T) string {
	t.Helper()
	return filepath.Join(testenv.SharedCorpora(t, "trace/Ref_Translation"), "trace", "Ref_Translation")
}

func TestRealTraceModels(t *testing.T) {
	ref := realRefTranslations(t)
	models, err := filepath.Glob(filepath.Join(ref, "m.*"))
	if err != nil || len(models) == 0 {
		t.Fatalf("no model directories in %s", ref)
	}
	ctx := context.Background()
	for _, m := range models {
		tr, err := translate.Open(ctx, "recorded:"+m)
		if err != nil {
			t.Errorf("%s: %v", m, err)
			continue
		}
		rt := tr.(*Translator)
		if len(tr.Directions()) != 6 {
			t.Errorf("%s: %d directions %v", tr.Name(), len(tr.Directions()), tr.Directions())
		}
		empty := 0
		for k, list := range rt.byKey {
			for _, s := range list {
				if s.Status != schemas.TranslationOK {
					empty++
				} else if strings.Contains(s.Code, ImportSplit) {
					t.Errorf("%s %v: split marker left in code", tr.Name(), k)
				}
			}
		}
		out, _ := tr.Translate(ctx, translate.Request{ProblemID: "ADD_1_TO_A_GIVEN_NUMBER", VariantID: "orig", SrcLang: "java", TgtLang: "python"})
		// A spot check of one known translation, for the models that recorded one (some
		// of the 28, e.g. deepseek-reasoner, recorded an empty answer here).
		if !recordedEmpty(t, m, "java_to_python", "ADD_1_TO_A_GIVEN_NUMBER") &&
			(len(out) == 0 || out[0].Status != schemas.TranslationOK || !strings.Contains(out[0].Code, "def ")) {
			t.Errorf("%s: ADD_1_TO_A_GIVEN_NUMBER java->python: %+v", tr.Name(), out)
		}
		t.Logf("%s: %d directions, %d (problem, direction) pairs, %d empty samples, %d warnings",
			tr.Name(), len(tr.Directions()), rt.Len(), empty, len(rt.Warnings()))
		if len(rt.Warnings()) != 0 {
			t.Errorf("%s: warnings %q", tr.Name(), rt.Warnings())
		}
		tr.Close()
	}
	if len(models) < 4 {
		t.Errorf("%d models, want at least the 4 of make eval-shared", len(models))
	}
}

// recordedEmpty reports whether a model's file for dir records problem with only
// empty answers (then no translation of it can be checked).
func recordedEmpty(t *testing.T, modelDir, dir, problem string) bool {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(modelDir, dir, "*.jsonl"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			var row map[string]any
			if json.Unmarshal([]byte(line), &row) != nil || row["sample_id"] != problem {
				continue
			}
			for k, v := range row {
				if k == "sample_id" {
					continue
				}
				if list, ok := v.([]any); ok {
					for _, x := range list {
						if str, ok := x.(string); ok && strings.TrimSpace(strings.ReplaceAll(str, ImportSplit, "")) != "" {
							return false
						}
						if m, ok := x.(map[string]any); ok && strings.TrimSpace(fmt.Sprint(m["generation"])) != "" {
							return false
						}
					}
				}
			}
			return true
		}
	}
	return false
}
