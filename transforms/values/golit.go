package values

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// GoType is the Go type of t, as TransCoder's Go scripts and the Go engine's
// harness take it: int for int (Go's int is 64-bit: a Java int becomes an int of
// the same value), int64 for long, float32 and float64, bool, byte for char (the
// scripts' strings are ASCII byte slices), string for string, and a slice per
// dimension. The Go engine also takes int32, rune, []byte for string and the other
// integer kinds (transforms/execute/golang, fits).
func GoType(t Type) (string, error) {
	var base string
	switch t.Base {
	case Int:
		base = "int"
	case Long:
		base = "int64"
	case Float:
		base = "float32"
	case Double:
		base = "float64"
	case Bool:
		base = "bool"
	case Char:
		base = "byte"
	case String:
		base = "string"
	default:
		return "", fmt.Errorf("no Go type for %s", t)
	}
	return strings.Repeat("[]", t.Dims) + base, nil
}

// GoLiteral writes the canonical value raw (Canonical's form) of type t as a Go
// expression of type GoType(t): typed conversions for the scalars whose untyped
// constant would take another default type, math.NaN() and math.Inf(±1) for the
// non-finite floats (the caller imports math), a rune literal for a char, a quoted
// string, and a composite literal per array; null is nil. A char beyond one byte is
// an error (GoType(char) is byte).
func GoLiteral(t Type, raw string) (string, error) {
	v, err := decode([]byte(raw))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := goLit(&b, t, v); err != nil {
		return "", err
	}
	return b.String(), nil
}

func goLit(b *strings.Builder, t Type, v any) error {
	if v == nil {
		if t.Dims == 0 && t.Base != String {
			return fmt.Errorf("null for %s", t)
		}
		b.WriteString("nil")
		return nil
	}
	if t.Dims > 0 {
		arr, ok := v.([]any)
		if !ok {
			return fmt.Errorf("want %s, got %s", t, describe(v))
		}
		gt, err := GoType(t)
		if err != nil {
			return err
		}
		b.WriteString(gt + "{")
		for i, e := range arr {
			if i > 0 {
				b.WriteString(", ")
			}
			if err := goLit(b, t.Elem(), e); err != nil {
				return err
			}
		}
		b.WriteByte('}')
		return nil
	}
	switch t.Base {
	case Int, Long:
		n, err := toInt(v)
		if err != nil {
			return err
		}
		if t.Base == Int && (n.Cmp(intMin) < 0 || n.Cmp(intMax) > 0) || n.Cmp(longMin) < 0 || n.Cmp(longMax) > 0 {
			return fmt.Errorf("%s out of range for %s", n, t)
		}
		if t.Base == Long {
			b.WriteString("int64(" + n.String() + ")")
		} else {
			b.WriteString(n.String())
		}
	case Float, Double:
		f, err := toFloat(v)
		if err != nil {
			return err
		}
		gt := "float64"
		if t.Base == Float {
			gt = "float32"
		}
		switch s := FormatFloat(f); s {
		case `"NaN"`:
			b.WriteString(gt + "(math.NaN())")
		case `"Infinity"`:
			b.WriteString(gt + "(math.Inf(1))")
		case `"-Infinity"`:
			b.WriteString(gt + "(math.Inf(-1))")
		default:
			b.WriteString(gt + "(" + s + ")")
		}
	case Bool:
		x, ok := v.(bool)
		if !ok {
			return fmt.Errorf("want bool, got %s", describe(v))
		}
		b.WriteString(strconv.FormatBool(x))
	case Char:
		s, ok := v.(string)
		if !ok || len([]rune(s)) != 1 {
			return fmt.Errorf("want char, got %s", describe(v))
		}
		r := []rune(s)[0]
		if r > 0xFF {
			return fmt.Errorf("char %q does not fit Go's byte", r)
		}
		b.WriteString("byte(" + strconv.QuoteRune(r) + ")")
	case String:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("want string, got %s", describe(v))
		}
		b.WriteString(strconv.Quote(s))
	default:
		return fmt.Errorf("no Go literal for %s", t)
	}
	return nil
}

// goLitJSON is GoLiteral of a Go value, for tests.
func goLitJSON(t Type, v any) (string, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return GoLiteral(t, string(raw))
}
