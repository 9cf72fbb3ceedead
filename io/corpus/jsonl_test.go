package corpus

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

const goodJSONL = `{"id":"SUM_OF_DIGITS","params":[{"name":"n","type":"long"}],"returns":"int","functions":{"java":"static int sumOfDigits(long n) {\n  int s = 0;\n  while (n > 0) { s += n % 10; n /= 10; }\n  return s;\n}","python":"def helper(d):\n    return d\n\ndef sum_of_digits(n):\n    return sum(helper(int(c)) for c in str(n))","cpp":"int sumOfDigits(long long n) {\n  int s = 0;\n  while (n > 0) { s += n % 10; n /= 10; }\n  return s;\n}"},"imports":{"python":"import math"},"entry":{"java":"sumOfDigits"},"tests":[[12345],[0],[987654321012]]}`

func TestReadJSONL(t *testing.T) {
	lines := []string{
		goodJSONL,
		`{"id":"BAD_JSON",`,
		`{"id":"UNKNOWN_TYPE","params":[{"name":"x","type":"integer"}],"returns":"int","functions":{"python":"def f(x):\n    return x"},"tests":[[1]]}`,
		`{"id":"ARITY","params":[{"name":"x","type":"int"}],"returns":"int","functions":{"python":"def f(x):\n    return x"},"tests":[[1],[1,2]]}`,
		`{"id":"NO_ENTRY","params":[],"returns":"int","functions":{"python":"def f():\n    return 1"},"entry":{"python":"g"},"tests":[[]]}`,
		`{"id":"WRONG_VALUE","params":[{"name":"s","type":"string"}],"returns":"int","functions":{"python":"def f(s):\n    return 1"},"tests":[[5]]}`,
		`{"id":"CHARS","params":[{"name":"s","type":"char[]"},{"name":"c","type":"char"},{"name":"b","type":"bool"},{"name":"d","type":"double[][]"}],"returns":"void","functions":{"cpp":"void f(char s[], char c, bool b, double **d) {}"},"tests":[["abc","x",true,[[1,2.5]]]]}`,
		`{"id":"SUM_OF_DIGITS","params":[],"returns":"int","functions":{"python":"def f():\n    return 1"},"tests":[[]]}`,
		`{"id":"UNKNOWN_LANG","params":[],"returns":"int","functions":{"ruby":"def f; 1; end"},"tests":[[]]}`,
		`{"id":"EXTRA_FIELD","params":[],"returns":"int","functions":{"python":"def f():\n    return 1"},"tests":[[]],"test":[]}`,
		`{"id":"NO_TESTS","params":[],"returns":"int","functions":{"python":"def f():\n    return 1"},"tests":[]}`,
		`{"id":"VOID_PARAM","params":[{"name":"v","type":"void"}],"returns":"int","functions":{"python":"def f(v):\n    return 1"},"tests":[[1]]}`,
		``,
		`[1,2]`,
	}
	ctx := context.Background()
	b := memBucket(t, map[string]string{"probs.jsonl": strings.Join(lines, "\n")})
	c, err := ReadJSONL(ctx, b, "probs")
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "jsonl:probs" {
		t.Errorf("name %q", c.Name)
	}
	if len(c.Problems) != 2 {
		t.Fatalf("problems: %+v", c.Problems)
	}
	p := c.Problems[0]
	if p.ID != "SUM_OF_DIGITS" || p.Corpus != "jsonl:probs" || p.Returns != "int" {
		t.Errorf("problem %+v", p)
	}
	checkTests(t, p, `[12345]`, `[0]`, `[987654321012]`)
	if f, _ := p.Function("python"); f.Name != "sum_of_digits" || f.Imports != "import math" || f.Signature != "def sum_of_digits(n):" {
		t.Errorf("python function %+v", f)
	}
	if f, _ := p.Function("java"); f.Name != "sumOfDigits" {
		t.Errorf("java function %q", f.Name)
	}
	if p.Functions[0].Lang != "java" || p.Functions[1].Lang != "python" || p.Functions[2].Lang != "cpp" {
		t.Errorf("function order %s %s %s", p.Functions[0].Lang, p.Functions[1].Lang, p.Functions[2].Lang)
	}
	checkTests(t, c.Problems[1], `[["a","b","c"],"x",true,[[1.0,2.5]]]`)
	if len(c.Tasks) != 6 {
		t.Errorf("%d tasks, want 6 (one problem in 3 languages, one in 1)", len(c.Tasks))
	}

	want := map[string]string{
		"line 2:":  "bad JSON",
		"line 3:":  "unknown type",
		"line 4:":  "test 1: 2 arguments for 1 parameters",
		"line 5:":  "function g is not defined",
		"line 6:":  "test 0: argument 0",
		"line 8:":  "duplicate id",
		"line 9:":  "unknown language",
		"line 10:": "unknown field",
		"line 11:": "no tests",
		"line 12:": "cannot be void",
		"line 14:": "bad JSON",
	}
	if len(c.Errors) != len(want) {
		t.Errorf("%d error rows, want %d: %+v", len(c.Errors), len(want), c.Errors)
	}
	for _, e := range c.Errors {
		if e.Stage != "ingest" || e.Corpus != "jsonl:probs" {
			t.Errorf("error row %+v", e)
		}
		found := false
		for line, reason := range want {
			if strings.Contains(e.Reason, "probs.jsonl "+line) {
				found = true
				if !strings.Contains(e.Reason, reason) {
					t.Errorf("%s: %q, want it to mention %q", line, e.Reason, reason)
				}
			}
		}
		if !found {
			t.Errorf("unexpected error row %q", e.Reason)
		}
	}
	for _, e := range c.Errors {
		if strings.Contains(e.Reason, "line 3:") && e.ProblemID != "UNKNOWN_TYPE" {
			t.Errorf("error row should name the problem: %+v", e)
		}
	}
}

func TestLoadJSONLFileAndDir(t *testing.T) {
	ctx := context.Background()
	dir := writeTree(t, map[string]string{
		"a.jsonl":     goodJSONL + "\n",
		"b.jsonl":     strings.Replace(goodJSONL, "SUM_OF_DIGITS", "OTHER", 1) + "\n",
		"notes.txt":   "not a corpus",
		"sub/c.jsonl": strings.Replace(goodJSONL, "SUM_OF_DIGITS", "THIRD", 1) + "\n",
	})
	c, err := Load(ctx, "jsonl:"+filepath.Join(dir, "a.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "jsonl:a" || len(c.Problems) != 1 || len(c.Errors) != 0 {
		t.Errorf("file: %s %d problems %v", c.Name, len(c.Problems), c.Errors)
	}
	c, err = Load(ctx, "jsonl:"+dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Problems) != 3 || c.Name != "jsonl:"+filepath.Base(dir) {
		t.Errorf("dir: %s %d problems", c.Name, len(c.Problems))
	}
	c, err = Load(ctx, "jsonl:file://"+filepath.ToSlash(filepath.Join(dir, "b.jsonl")))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Problems) != 1 || c.Problems[0].ID != "OTHER" {
		t.Errorf("URL: %+v", c.Problems)
	}
	if _, err := Load(ctx, "jsonl:"+filepath.Join(dir, "missing.jsonl")); err == nil {
		t.Error("missing file: want an error")
	}
	if _, err := Load(ctx, "jsonl:mem://"); err == nil {
		t.Error("empty bucket: want an error")
	}
}
