package values

import (
	"go/parser"
	"testing"
)

func TestGoLiteral(t *testing.T) {
	for _, c := range []struct{ typ, raw, want string }{
		{"int", "-2147483648", "-2147483648"},
		{"long", "9223372036854775807", "int64(9223372036854775807)"},
		{"double", "0.5", "float64(0.5)"},
		{"double", `"NaN"`, "float64(math.NaN())"},
		{"double", `"-Infinity"`, "float64(math.Inf(-1))"},
		{"float", "3.0", "float32(3.0)"},
		{"boolean", "true", "true"},
		{"char", `"a"`, "byte('a')"},
		{"char", `"'"`, `byte('\'')`},
		{"String", `"a\"b\n"`, `"a\"b\n"`},
		{"String", "null", "nil"},
		{"int[]", "[1,-2]", "[]int{1, -2}"},
		{"int[][]", "[[1],[]]", "[][]int{[]int{1}, []int{}}"},
		{"char[]", `["x","y"]`, "[]byte{byte('x'), byte('y')}"},
		{"String[]", `["p"]`, `[]string{"p"}`},
	} {
		got, err := GoLiteral(MustParseType(c.typ), c.raw)
		if err != nil || got != c.want {
			t.Errorf("GoLiteral(%s, %s) = %q, %v; want %q", c.typ, c.raw, got, err, c.want)
			continue
		}
		if _, err := parser.ParseExpr(got); err != nil && got != "nil" {
			t.Errorf("GoLiteral(%s, %s) = %q does not parse: %v", c.typ, c.raw, got, err)
		}
	}
	for _, c := range []struct{ typ, raw string }{
		{"int", "2147483648"}, {"char", `"é漢"`}, {"char", `"漢"`}, {"bool", "1"}, {"int", "null"},
	} {
		if got, err := GoLiteral(MustParseType(c.typ), c.raw); err == nil {
			t.Errorf("GoLiteral(%s, %s) = %q, want an error", c.typ, c.raw, got)
		}
	}
	if s, err := goLitJSON(MustParseType("long[]"), []int64{1}); err != nil || s != "[]int64{int64(1)}" {
		t.Errorf("goLitJSON: %q %v", s, err)
	}
}
