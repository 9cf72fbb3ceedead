package corpus

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// A test input that does not fit its parameter's type, and a lone surrogate
// anywhere on a line, are error rows at ingest naming the problem (and the test),
// not values wrapped, converted or replaced by U+FFFD.
func TestIngestRefusesOutOfTypeValues(t *testing.T) {
	first := map[string]string{"int": "1", "long": "1", "char": `"a"`, "bool": "true", "string": `"s"`}
	line := func(id, typ, arg string) string {
		return fmt.Sprintf(`{"id":%q,"params":[{"name":"x","type":%q}],"returns":"int","functions":{"python":"def f(x):\n    return 1"},"tests":[[%s],[%s]]}`, id, typ, first[typ], arg)
	}
	lines := []string{
		line("INT_OVER", "int", "2147483648"), line("INT_EXP", "int", "1e10"), line("INT_BOOL", "int", "true"),
		line("INT_INF", "int", "1e400"), line("LONG_OVER", "long", "9223372036854775808"),
		line("CHAR_OVER", "char", "70000"), line("BOOL_NUM", "bool", "1"), line("SURR_ARG", "string", `"\ud800"`),
		`{"id":"SURR\ud800ID","params":[],"returns":"int","functions":{"python":"def f():\n    return 1"},"tests":[[]]}`,
		line("FITS", "int", "2147483647"),
	}
	b := memBucket(t, map[string]string{"v.jsonl": strings.Join(lines, "\n")})
	c, err := ReadJSONL(context.Background(), b, "v")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Problems) != 1 || c.Problems[0].ID != "FITS" {
		t.Errorf("problems %+v, want FITS only", c.Problems)
	}
	byID := map[string]string{}
	for _, e := range c.Errors {
		byID[e.ProblemID] = e.Reason
	}
	for _, id := range []string{"INT_OVER", "INT_EXP", "INT_BOOL", "INT_INF", "LONG_OVER", "CHAR_OVER", "BOOL_NUM"} {
		if r, ok := byID[id]; !ok || !strings.Contains(r, "test 1") {
			t.Errorf("%s: error row %q, want one naming test 1", id, r)
		}
	}
	for _, n := range []string{"line 8", "line 9"} {
		var surr bool
		for _, e := range c.Errors {
			surr = surr || strings.Contains(e.Reason, n+": lone surrogate \\ud800")
		}
		if !surr {
			t.Errorf("no lone-surrogate error row for %s: %+v", n, c.Errors)
		}
	}
}
