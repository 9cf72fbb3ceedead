package corpus

import (
	"strings"
	"testing"
)

func TestParsePythonLiteral(t *testing.T) {
	cases := []struct{ in, want string }{
		{`96`, `96`},
		{`-13`, `-13`},
		{`- 7`, `-7`},
		{`123456789012345678901234567890`, `123456789012345678901234567890`},
		{`3.25`, `3.25`},
		{`-0.5e-3`, `-0.0005`},
		{`1E5`, `100000.0`},
		{`.5`, `0.5`},
		{`5.`, `5.0`},
		{`1_000`, `1000`},
		{`0x1F`, `31`},
		{`'abc'`, `"abc"`},
		{`"it's"`, `"it's"`},
		{`'a\'b\\c\n\t\x41\u00e9'`, `"a'b\\c\n\tAé"`},
		{`''`, `""`},
		{`r'a\n'`, `"a\\n"`},
		{`True`, `true`},
		{`False`, `false`},
		{`None`, `null`},
		{`[1, 2, 3]`, `[1,2,3]`},
		{`[]`, `[]`},
		{`(96,)`, `[96]`},
		{`(5)`, `5`},
		{`()`, `[]`},
		{`([1, -2], 'x', 3.5, True,)`, `[[1,-2],"x",3.5,true]`},
		{`[[1, 2], [3, 4]]`, `[[1,2],[3,4]]`},
		{`['a', 'b']`, `["a","b"]`},
		{"[1,\n # comment\n 2]", `[1,2]`},
		{`2**10`, `1024`},
		{`1 -3`, `-2`},
		{`float('inf')`, `"Infinity"`},
		{`-float("inf")`, `"-Infinity"`},
		{`sys.maxsize`, `9223372036854775807`},
	}
	for _, c := range cases {
		got, err := literalJSON(c.in, PythonSyntax)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got != c.want {
			t.Errorf("%q: got %s, want %s", c.in, got, c.want)
		}
	}
}

func TestParsePythonLiteralErrors(t *testing.T) {
	for _, in := range []string{
		``, `'abc`, `[1, 2`, `(1 2)`, `{1: 2}`, `foo`, `[1,, 2]`, `12abc`, `"a" "b" x`,
		`[` + strings.Repeat("[", 100) + `]`, `-'a'`, `'a' * 2`,
	} {
		if v, err := ParsePythonLiteral(in); err == nil {
			t.Errorf("%q: want an error, got %v", in, v)
		}
	}
}

func TestParseJavaAndCppLiterals(t *testing.T) {
	cases := []struct {
		in   string
		syn  Syntax
		want string
	}{
		{`new int[]{6,25,-42}`, JavaSyntax, `[6,25,-42]`},
		{`new int [ ] [ ]{new int[]{1,2}, new int[] {1 -3, 2}}`, JavaSyntax, `[[1,2],[-2,2]]`},
		{`new char[]{'A','\n','\u0041'}`, JavaSyntax, `["A","\n","A"]`},
		{`new String[]{"ab", "c\"d"}`, JavaSyntax, `["ab","c\"d"]`},
		{`new Integer[]{1,2}`, JavaSyntax, `[1,2]`},
		{`123L`, JavaSyntax, `123`},
		{`-5912.5f`, JavaSyntax, `-5912.5`},
		{`3d`, JavaSyntax, `3.0`},
		{`010`, JavaSyntax, `8`},
		{`Long.parseLong("10000000000")`, JavaSyntax, `10000000000`},
		{`Integer.MAX_VALUE`, JavaSyntax, `2147483647`},
		{`true`, JavaSyntax, `true`},
		{`{{1,2},{3}}`, CppSyntax, `[[1,2],[3]]`},
		{`{"a b", "c"}`, CppSyntax, `["a b","c"]`},
		{`{'x','y'}`, CppSyntax, `["x","y"]`},
		{`{1.5,-2e3,7}`, CppSyntax, `[1.5,-2000.0,7]`},
		{`{10LL, 5ull}`, CppSyntax, `[10,5]`},
		{`{ "0101011", "0011001" }`, CppSyntax, `["0101011","0011001"]`},
	}
	for _, c := range cases {
		got, err := literalJSON(c.in, c.syn)
		if err != nil {
			t.Errorf("%s %q: %v", c.syn, c.in, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s %q: got %s, want %s", c.syn, c.in, got, c.want)
		}
	}
	for _, in := range []string{`new int[5]`, `'ab'`, `[1]`, `foo(1)`} {
		if _, err := ParseLiteral(in, JavaSyntax); err == nil {
			t.Errorf("java %q: want an error", in)
		}
	}
}

func TestParseLiteralPrefix(t *testing.T) {
	in := "[(1,), (2,)]\n    n_success = 0"
	v, n, err := parseLiteralPrefix(in, PythonSyntax)
	if err != nil {
		t.Fatal(err)
	}
	if n < len("[(1,), (2,)]") || !strings.HasPrefix(strings.TrimSpace(in[n:]), "n_success") {
		t.Errorf("consumed %d bytes", n)
	}
	if s, _ := encodeJSON(v); s != `[[1],[2]]` {
		t.Errorf("got %s", s)
	}
}

// FuzzParseLiteral checks that no input makes the parser panic and that every
// value it accepts encodes to JSON.
func FuzzParseLiteral(f *testing.F) {
	for _, s := range []string{`[(1,), (-2.5e3, 'a\n', True)]`, `new int[][]{{1,2},{3}}`, `{"a", 'b', 1LL}`,
		`Long.parseLong("12")`, `'\u00e9'`, `"""x"""`, `2**3 - 1`, `float('nan')`} {
		f.Add(s, 0)
		f.Add(s, 1)
		f.Add(s, 2)
	}
	f.Fuzz(func(t *testing.T, s string, syn int) {
		if syn < 0 || syn > 2 {
			return
		}
		v, err := ParseLiteral(s, Syntax(syn))
		if err != nil {
			return
		}
		if _, err := encodeJSON(v); err != nil {
			t.Errorf("%q parsed to %#v, which does not encode: %v", s, v, err)
		}
	})
}
