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
		// Python's float('inf') where Java returns Integer.MAX_VALUE: kept, as the
		// float's canonical string, so that two such programs agree
		{"int", `"Infinity"`, `"Infinity"`, ""},
		{"long", `"-inf"`, `"-Infinity"`, ""},
		{"int", `"nan"`, `"NaN"`, ""},
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

// TestThreeDims reads a 3-D type (TransCoder-test's int dp[][][]) and round-trips a
// value of it: canonical form, its arguments, comparison; a fourth dimension is refused.
func TestThreeDims(t *testing.T) {
	typ, err := ParseType(" int [][] []")
	if err != nil || typ != (Type{Base: Int, Dims: 3}) || typ.String() != "int[][][]" {
		t.Fatalf("ParseType: %+v %v", typ, err)
	}
	if e := typ.Elem(); e != (Type{Base: Int, Dims: 2}) || e.String() != "int[][]" {
		t.Errorf("Elem: %+v", e)
	}
	if back := MustParseType(typ.String()); back != typ {
		t.Errorf("String round trip: %+v", back)
	}
	if _, err := ParseType("int[][][][]"); err == nil || !strings.Contains(err.Error(), "at most 3") {
		t.Errorf("4-D: error %v, want one saying at most 3", err)
	}
	// ragged and empty rows, integral floats and a char used as an integer are canonicalized
	raw := `[[[1, 2.0], []], [], [[-3], ["a", 9007199254740993]]]`
	want := `[[[1,2],[]],[],[[-3],[97,9007199254740993]]]`
	got, err := Canonical(typ, raw)
	if err != nil || got != want {
		t.Fatalf("Canonical: %q %v, want %q", got, err, want)
	}
	if again, err := Canonical(typ, got); err != nil || again != got {
		t.Errorf("canonical form is not stable: %q %v", again, err)
	}
	if _, err := Canonical(typ, `[[1,2]]`); err == nil || !strings.Contains(err.Error(), "want int[]") {
		t.Errorf("a 2-D value as int[][][]: error %v", err)
	}
	// a char[][][] may have its innermost rows written as strings
	if got, err := Canonical(MustParseType("char[][][]"), `[["ab",[]],[["c"]]]`); err != nil || got != `[[["a","b"],[]],[["c"]]]` {
		t.Errorf("char[][][]: %q %v", got, err)
	}
	args, err := CanonicalArgs([]Type{typ, {Base: Int}}, `[[[[5]]], 2.0]`)
	if err != nil || args != `[[[[5]]],2]` {
		t.Errorf("CanonicalArgs: %q %v", args, err)
	}
	d3 := MustParseType("double[][][]")
	if !Equal(d3, `[[[1.0,2.5]],[[]]]`, `[[[1.0000001,2.5]],[[]]]`, DefaultTolerance) {
		t.Errorf("Equal: close doubles differ")
	}
	if Equal(d3, `[[[1.0,2.5]],[[]]]`, `[[[1.0,2.5]],[]]`, DefaultTolerance) {
		t.Errorf("Equal: different shapes are equal")
	}
	if Equal(typ, want, `[[[1,2],[]],[],[[-3],[97,9007199254740992]]]`, DefaultTolerance) {
		t.Errorf("Equal: integers are compared loosely")
	}
}

// TestNonFiniteIntegers: under an integer return type, the same non-finite value
// agrees (NaN with NaN), and a non-finite value never equals an integer.
func TestNonFiniteIntegers(t *testing.T) {
	for _, c := range []struct {
		typ, a, b string
		want      bool
	}{
		{"int", `"Infinity"`, `"Infinity"`, true},
		{"int", `"Infinity"`, `"inf"`, true},
		{"long", `"NaN"`, `"nan"`, true},
		{"int", `"Infinity"`, `"-Infinity"`, false},
		{"int", `"NaN"`, `"Infinity"`, false},
		{"int", `"Infinity"`, "2147483647", false},
		{"long", "9223372036854775807", `"Infinity"`, false},
		{"int", "7", "7", true},
		{"int[]", `[1,"Infinity"]`, `[1,"Infinity"]`, true},
		{"int[]", `[1,"Infinity"]`, `[1,2]`, false},
	} {
		if got := Equal(MustParseType(c.typ), c.a, c.b, DefaultTolerance); got != c.want {
			t.Errorf("%s: Equal(%s, %s) = %v, want %v", c.typ, c.a, c.b, got, c.want)
		}
	}
}

// TestInputsHeldToTheirTypes: a test's inputs must fit their declared types, or the
// harnesses would wrap (2147483648 as int), convert (true as 1) or carry Infinity
// into an integer; a lone surrogate would silently become U+FFFD.
func TestInputsHeldToTheirTypes(t *testing.T) {
	for _, c := range []struct{ typ, raw string }{
		{"int", "2147483648"}, {"int", "-2147483649"}, {"int", "1e10"}, {"int", "true"}, {"int", "1e400"},
		{"int", `"Infinity"`}, {"int", `"NaN"`}, {"int", "2.5"}, {"long", "9223372036854775808"},
		{"long", "-9223372036854775809"}, {"long", "1e19"}, {"long", "false"}, {"long", "-1e400"},
		{"int[]", "[1, 2147483648]"}, {"long[][]", "[[1], [true]]"},
		{"double", "true"}, {"double", "1e400"}, {"float", "1e39"}, {"bool", "1"}, {"bool", "0"},
		{"char", "65536"}, {"char", "-1"}, {"char", "55296"}, {"char", `"😀"`},
		{"string", `"a\ud800b"`}, {"string", `"\udc00"`}, {"string", `"\ud800\u0041"`}, {"char[]", `"x\udfff"`},
	} {
		if got, err := CanonicalArgs([]Type{MustParseType(c.typ)}, "["+c.raw+"]"); err == nil {
			t.Errorf("%s %s accepted as %s", c.typ, c.raw, got)
		}
	}
	for _, c := range []struct{ typ, raw, want string }{
		{"int", "2147483647", "[2147483647]"}, {"int", "-2147483648", "[-2147483648]"}, {"int", "1e9", "[1000000000]"},
		{"int", "4.0", "[4]"}, {"long", "9223372036854775807", "[9223372036854775807]"},
		{"long", "-9223372036854775808", "[-9223372036854775808]"}, {"bool", "true", "[true]"},
		{"char", "65", `["A"]`}, {"char", `"é"`, `["é"]`}, {"double", "1e300", "[1e+300]"},
		{"double", `"NaN"`, `["NaN"]`}, {"string", `"\ud83d\ude00 \\ud800"`, `["😀 \\ud800"]`},
	} {
		got, err := CanonicalArgs([]Type{MustParseType(c.typ)}, "["+c.raw+"]")
		if err != nil || got != c.want {
			t.Errorf("%s %s: %q %v, want %q", c.typ, c.raw, got, err, c.want)
		}
	}
	// What a harness prints stays read loosely: a boolean returned for an int.
	if got, err := Canonical(MustParseType("int"), "true"); err != nil || got != "1" {
		t.Errorf("Canonical(int, true) = %q %v", got, err)
	}
}
