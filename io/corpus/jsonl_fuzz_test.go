package corpus

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestInvalidUTF8IsRejected: a line whose bytes are not UTF-8 (here in the id and in
// a test value) is an error row naming file and line; it is not read with U+FFFD in
// place of the bytes, which would make it another problem.
func TestInvalidUTF8IsRejected(t *testing.T) {
	bad := strings.Replace(goodJSONL, `"SUM_OF_DIGITS"`, "\"SUM_\xffDIGITS\"", 1)
	badTest := `{"id":"STR","params":[{"name":"s","type":"string"}],"returns":"int","functions":{"python":"def f(s):\n    return 1"},"tests":[["a` + "\xc3\x28" + `"]]}`
	ctx := context.Background()
	c, err := ReadJSONL(ctx, memBucket(t, map[string]string{"p.jsonl": bad + "\n" + badTest + "\n"}), "p")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Problems) != 0 || len(c.Errors) != 2 {
		t.Fatalf("problems %d, errors %+v", len(c.Problems), c.Errors)
	}
	for i, e := range c.Errors {
		want := []string{"p.jsonl line 1: not valid UTF-8", "p.jsonl line 2: not valid UTF-8"}[i]
		if e.Stage != StageIngest || e.Reason != want || !utf8.ValidString(e.Detail) {
			t.Errorf("error %d: %+v, want reason %q", i, e, want)
		}
	}
}

// FuzzReadJSONL: no file content panics the JSONL corpus reader; every non-empty
// line is a problem or an error row, and every error row names its line.
func FuzzReadJSONL(f *testing.F) {
	f.Add(goodJSONL)
	f.Add(`{"id":"X","params":[{"name":"a","type":"int[][]"}],"returns":"double","functions":{"python":"def f(a):\n    return 1.0"},"tests":[[[[1,2],[3]]]]}`)
	f.Add(`{"id":"X","params":[{"name":"a","type":"char"}],"returns":"char","functions":{"java":"static char f(char a) { return a; }"},"tests":[["\u0000"]]}`)
	f.Add(`{"id":"X","returns":"int","functions":{"cpp":"int f() { return 1; }"},"tests":[[]]}` + "\n" + `{"id":"X"}`)
	f.Add("{oops\n\xff\xfe\n[1]\n{}")
	f.Add(`{"id":"Y","params":[{"name":"n","type":"long"}],"returns":"long","functions":{"python":"def f(n):\n    return n"},"tests":[[1e400],[-9223372036854775809]]}`)
	f.Fuzz(func(t *testing.T, data string) {
		c, err := ReadJSONL(context.Background(), memBucket(t, map[string]string{"f.jsonl": data}), "f")
		if err != nil {
			t.Fatal(err) // the file exists: only its lines can be wrong
		}
		lines := 0
		for _, l := range strings.Split(data, "\n") {
			if strings.TrimSpace(l) != "" {
				lines++
			}
		}
		if got := len(c.Problems) + len(c.Errors); got != lines {
			t.Fatalf("%d lines became %d problems and %d error rows", lines, len(c.Problems), len(c.Errors))
		}
		for _, e := range c.Errors {
			if !strings.Contains(e.Reason, "f.jsonl line ") {
				t.Fatalf("error row without its line: %+v", e)
			}
		}
		for _, p := range c.Problems {
			if !utf8.ValidString(p.ID) {
				t.Fatalf("id %q is not UTF-8", p.ID)
			}
		}
	})
}
