package values

import (
	"strings"
	"testing"
)

func TestCanonicalIntegers(t *testing.T) {
	for _, c := range []struct{ typ, raw, want, err string }{
		{"int", "42", "42", ""},
		{"long", "-9223372036854775808", "-9223372036854775808", ""},
		{"int", "3.0", "3", ""},
		{"int", `"a"`, "97", ""}, // a char used as an integer
		{"int", "3.5", "", "not an integer"},
		// Python's float('inf') where Java returns Integer.MAX_VALUE
		{"int", `"Infinity"`, "", "non-finite float (Infinity)"},
		{"int", `"abc"`, "", "a string"},
	} {
		got, err := Canonical(MustParseType(c.typ), c.raw)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s %s: error %v, want one containing %q", c.typ, c.raw, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s %s: %q %v, want %q", c.typ, c.raw, got, err, c.want)
		}
	}
}
