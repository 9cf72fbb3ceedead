// Package values defines Transmute's language-neutral types and values: the types of
// a problem's parameters and return value, the canonical JSON form of a value that
// every harness prints, and the comparison of two values across languages.
//
// A type is a base kind (int, long, float, double, bool, char, string) with zero to
// three array dimensions ("int[]", "char[][]", "int[][][]"). A value is JSON:
// integers as integer literals, floats as numbers (NaN and infinities as the strings
// "NaN", "Infinity", "-Infinity"), booleans, a char as a one-character string, a
// string, and arrays as JSON arrays.
package values

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"transmute/internal/clip"
)

// Kind is a base type.
type Kind int

const (
	Invalid Kind = iota
	Int          // 32-bit signed in Java and C++
	Long         // 64-bit signed
	Float        // 32-bit IEEE
	Double       // 64-bit IEEE
	Bool
	Char
	String
	Void // return type only: the harness reports the array arguments after the call
)

var kindNames = map[Kind]string{Int: "int", Long: "long", Float: "float", Double: "double",
	Bool: "bool", Char: "char", String: "string", Void: "void"}

var kindByName = map[string]Kind{"int": Int, "long": Long, "float": Float, "double": Double,
	"bool": Bool, "boolean": Bool, "char": Char, "string": String, "str": String, "void": Void}

func (k Kind) String() string { return kindNames[k] }

// Type is a base kind with array dimensions.
type Type struct {
	Base Kind
	Dims int
}

// MaxDims is the most array dimensions a type may have: the benchmarks' memoization
// tables go up to three (TransCoder-test's int dp[][][]), and each harness has a
// holder for every dimension count it accepts.
const MaxDims = 3

// ParseType reads "int", "long[]", "char[][]", "int[][][]" and so on.
func ParseType(s string) (Type, error) {
	s = strings.TrimSpace(s)
	dims := 0
	for strings.HasSuffix(s, "[]") {
		dims++
		s = strings.TrimSpace(strings.TrimSuffix(s, "[]"))
	}
	k, ok := kindByName[strings.ToLower(s)]
	if !ok {
		return Type{}, fmt.Errorf("unknown type %q", s)
	}
	if dims > MaxDims {
		return Type{}, fmt.Errorf("type %q has %d dimensions; at most %d are supported", s, dims, MaxDims)
	}
	if k == Void && dims > 0 {
		return Type{}, fmt.Errorf("void cannot be an array")
	}
	return Type{Base: k, Dims: dims}, nil
}

// MustParseType is ParseType for types known to be valid.
func MustParseType(s string) Type {
	t, err := ParseType(s)
	if err != nil {
		panic(err)
	}
	return t
}

func (t Type) String() string { return t.Base.String() + strings.Repeat("[]", t.Dims) }

// Elem is the element type of an array type.
func (t Type) Elem() Type { return Type{Base: t.Base, Dims: t.Dims - 1} }

// IsArray tells whether t has dimensions.
func (t Type) IsArray() bool { return t.Dims > 0 }

// IsFloat tells whether t's base kind is float or double.
func (t Type) IsFloat() bool { return t.Base == Float || t.Base == Double }

// IsInteger tells whether t's base is int or long.
func (t Type) IsInteger() bool { return t.Base == Int || t.Base == Long }

func decode(raw []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("trailing data after JSON value")
	}
	return v, nil
}

// Canonical normalizes a JSON value printed by a harness to the canonical form of
// type t: an integral float becomes an integer for integer types, 0/1 becomes a
// boolean for bool, a number becomes a one-character string for char, and so on.
// It returns an error when the value cannot be read as t.
func Canonical(t Type, raw string) (string, error) {
	v, err := decode([]byte(raw))
	if err != nil {
		return "", fmt.Errorf("bad JSON %q: %v", clip.String(raw, 80), err)
	}
	var b strings.Builder
	if err := canon(&b, t, v, false); err != nil {
		return "", err
	}
	return b.String(), nil
}

// CanonicalArgs checks that raw is a JSON array of len(types) values of these types
// and returns it in canonical form. Unlike Canonical, which reads what harnesses
// print, it is strict about a test's inputs: an integer must fit its type (int 32
// bits, long 64) and be finite, a boolean is not a number nor a number a boolean, a
// float must fit its type, a char must be one UTF-16 unit (Java's char), and a lone
// surrogate escape ("\ud800", which JSON decoding turns into U+FFFD) is refused.
func CanonicalArgs(types []Type, raw string) (string, error) {
	if at, ok := LoneSurrogate([]byte(raw)); ok {
		return "", fmt.Errorf("lone surrogate %s in a string: not a Unicode character", raw[at:at+6])
	}
	v, err := decode([]byte(raw))
	if err != nil {
		return "", fmt.Errorf("bad JSON arguments: %v", err)
	}
	arr, ok := v.([]any)
	if !ok {
		return "", fmt.Errorf("arguments are not a JSON array")
	}
	if len(arr) != len(types) {
		return "", fmt.Errorf("%d arguments for %d parameters", len(arr), len(types))
	}
	var b strings.Builder
	b.WriteByte('[')
	for i, a := range arr {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := canon(&b, types[i], a, true); err != nil {
			return "", fmt.Errorf("argument %d: %v", i, err)
		}
	}
	b.WriteByte(']')
	return b.String(), nil
}

// canon writes v as type t; strict is for test inputs (CanonicalArgs).
func canon(b *strings.Builder, t Type, v any, strict bool) error {
	if t.Dims > 0 {
		if s, ok := v.(string); ok && t.Dims == 1 && t.Base == Char {
			// a char[] may be written as a string
			arr := make([]any, 0, len(s))
			for _, r := range s {
				arr = append(arr, string(r))
			}
			v = arr
		}
		arr, ok := v.([]any)
		if !ok {
			if v == nil {
				b.WriteString("null")
				return nil
			}
			return fmt.Errorf("want %s, got %s", t, describe(v))
		}
		b.WriteByte('[')
		for i, e := range arr {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := canon(b, t.Elem(), e, strict); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	}
	if strict {
		if err := checkInput(t, v); err != nil {
			return err
		}
	}
	switch t.Base {
	case Int, Long:
		if f, ok := nonFinite(v); ok {
			// A function declared integer that returns a non-finite float (Python's
			// inf where the gold's int overflows): kept as the float's canonical
			// string, so that two programs returning the same one agree.
			b.WriteString(FormatFloat(f))
			return nil
		}
		n, err := toInt(v)
		if err != nil {
			return fmt.Errorf("want %s: %v", t, err)
		}
		b.WriteString(n.String())
	case Float, Double:
		f, err := toFloat(v)
		if err != nil {
			return fmt.Errorf("want %s: %v", t, err)
		}
		b.WriteString(FormatFloat(f))
	case Bool:
		switch x := v.(type) {
		case bool:
			b.WriteString(strconv.FormatBool(x))
		case json.Number:
			f, err := x.Float64()
			if err != nil {
				return fmt.Errorf("want bool, got %s", x)
			}
			b.WriteString(strconv.FormatBool(f != 0))
		default:
			return fmt.Errorf("want bool, got %s", describe(v))
		}
	case Char:
		switch x := v.(type) {
		case string:
			if len([]rune(x)) != 1 {
				return fmt.Errorf("want char, got string of length %d", len([]rune(x)))
			}
			b.WriteString(quote(x))
		case json.Number:
			n, err := x.Int64()
			if err != nil || n < 0 || n > 0x10FFFF {
				return fmt.Errorf("want char, got %s", x)
			}
			b.WriteString(quote(string(rune(n))))
		default:
			return fmt.Errorf("want char, got %s", describe(v))
		}
	case String:
		switch x := v.(type) {
		case string:
			b.WriteString(quote(x))
		case nil:
			b.WriteString("null")
		default:
			return fmt.Errorf("want string, got %s", describe(v))
		}
	case Void:
		// the harness prints the array arguments after the call (or null)
		raw, _ := json.Marshal(v)
		b.Write(raw)
	default:
		return fmt.Errorf("invalid type")
	}
	return nil
}

func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		switch v {
		case "Infinity", "-Infinity", "NaN", "inf", "-inf", "nan":
			// how the harnesses encode non-finite floats (Python's float('inf'))
			return "a non-finite float (" + v + ")"
		}
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func toInt(v any) (*big.Int, error) {
	switch x := v.(type) {
	case json.Number:
		n, ok := new(big.Int).SetString(string(x), 10)
		if ok {
			return n, nil
		}
		f, err := x.Float64()
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || f != math.Trunc(f) {
			return nil, fmt.Errorf("not an integer: %s", x)
		}
		n, _ = new(big.Float).SetFloat64(f).Int(nil)
		return n, nil
	case bool:
		if x {
			return big.NewInt(1), nil
		}
		return big.NewInt(0), nil
	case string:
		if len([]rune(x)) == 1 { // a char used as an integer
			return big.NewInt(int64([]rune(x)[0])), nil
		}
	}
	return nil, fmt.Errorf("not an integer: %s", describe(v))
}

// nonFinite reports whether v is a non-finite float (a string "NaN", "Infinity",
// "-Infinity" or their C/Python spellings, or a number literal that overflows a
// float64, such as 1e999) and which.
func nonFinite(v any) (float64, bool) {
	switch x := v.(type) {
	case string:
		f, err := toFloat(x)
		return f, err == nil && (math.IsInf(f, 0) || math.IsNaN(f))
	case json.Number:
		if _, ok := new(big.Int).SetString(string(x), 10); ok {
			return 0, false
		}
		f, err := strconv.ParseFloat(string(x), 64)
		return f, math.IsInf(f, 0) && err != nil
	}
	return 0, false
}

func toFloat(v any) (float64, error) {
	switch x := v.(type) {
	case json.Number:
		return strconv.ParseFloat(string(x), 64)
	case string:
		switch x {
		case "NaN", "nan":
			return math.NaN(), nil
		case "Infinity", "inf", "Inf":
			return math.Inf(1), nil
		case "-Infinity", "-inf", "-Inf":
			return math.Inf(-1), nil
		}
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	}
	return 0, fmt.Errorf("not a number: %s", describe(v))
}

// FormatFloat prints f canonically: the shortest representation that reads back
// exactly, NaN and infinities as JSON strings.
func FormatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return `"NaN"`
	case math.IsInf(f, 1):
		return `"Infinity"`
	case math.IsInf(f, -1):
		return `"-Infinity"`
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}

// Ranges of the integral kinds, as Java and C++ (LP64) declare them.
var (
	intMin, intMax   = big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32)
	longMin, longMax = big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
)

// checkInput holds a test's scalar input to its declared type: what a harness
// would otherwise wrap (2147483648 as int), convert (true as 1) or carry as
// "Infinity" into an integer parameter.
func checkInput(t Type, v any) error {
	_, isBool := v.(bool)
	switch t.Base {
	case Int, Long:
		if isBool {
			return fmt.Errorf("want %s, got a boolean", t)
		}
		if f, ok := nonFinite(v); ok {
			return fmt.Errorf("want %s, got a non-finite value (%s)", t, FormatFloat(f))
		}
		n, err := toInt(v)
		if err != nil {
			return fmt.Errorf("want %s: %v", t, err)
		}
		lo, hi := intMin, intMax
		if t.Base == Long {
			lo, hi = longMin, longMax
		}
		if n.Cmp(lo) < 0 || n.Cmp(hi) > 0 {
			return fmt.Errorf("%s out of range for %s (%s to %s)", n, t, lo, hi)
		}
	case Float, Double:
		if isBool {
			return fmt.Errorf("want %s, got a boolean", t)
		}
		if x, ok := v.(json.Number); ok {
			f, err := strconv.ParseFloat(string(x), 64)
			if err != nil {
				return fmt.Errorf("%s out of range for %s", x, t)
			}
			if t.Base == Float && !math.IsInf(f, 0) && math.Abs(f) > math.MaxFloat32 {
				return fmt.Errorf("%s out of range for float (32 bits)", x)
			}
		}
	case Bool:
		if !isBool {
			return fmt.Errorf("want bool, got %s", describe(v))
		}
	case Char:
		switch x := v.(type) {
		case string:
			if r := []rune(x); len(r) == 1 && r[0] > 0xFFFF {
				return fmt.Errorf("want char, got U+%04X, beyond one UTF-16 unit (Java's char)", r[0])
			}
		case json.Number:
			n, err := x.Int64()
			if err != nil || n < 0 || n > 0xFFFF || (n >= 0xD800 && n <= 0xDFFF) {
				return fmt.Errorf("want char, got %s (a char code is 0 to 65535, surrogates excluded)", x)
			}
		}
	}
	return nil
}

// LoneSurrogate finds a \uD800-\uDFFF escape in JSON text that is not half of a
// surrogate pair (a high one followed by a low one): JSON decoding silently turns it
// into U+FFFD. It returns the escape's offset.
func LoneSurrogate(raw []byte) (int, bool) {
	in := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if !in {
			in = c == '"'
			continue
		}
		switch c {
		case '"':
			in = false
		case '\\':
			if i+1 < len(raw) && raw[i+1] != 'u' {
				i++ // \n, \", \\ ...
				continue
			}
			u, ok := hex4(raw, i+2)
			if !ok {
				continue // bad JSON: the decoder says so
			}
			switch {
			case u >= 0xD800 && u <= 0xDBFF:
				if i+7 < len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
					if l, ok := hex4(raw, i+8); ok && l >= 0xDC00 && l <= 0xDFFF {
						i += 11
						continue
					}
				}
				return i, true
			case u >= 0xDC00 && u <= 0xDFFF:
				return i, true
			}
			i += 5
		}
	}
	return 0, false
}

func hex4(raw []byte, at int) (uint64, bool) {
	if at+4 > len(raw) {
		return 0, false
	}
	u, err := strconv.ParseUint(string(raw[at:at+4]), 16, 32)
	return u, err == nil
}
