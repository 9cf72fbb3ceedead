package corpus

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"transmute/internal/clip"
)

// Syntax selects the literal syntax a test input is written in.
type Syntax int

const (
	// PythonSyntax: ints, floats, 'str' / "str" with escapes, True/False/None,
	// [lists] and (tuples), float('inf').
	PythonSyntax Syntax = iota
	// JavaSyntax: numbers with L/f/d suffixes, "strings", 'c' chars, true/false/null,
	// new T[]{...} array initializers, Long.parseLong("..."), Integer.MAX_VALUE...
	JavaSyntax
	// CppSyntax: numbers with suffixes, "strings", 'c' chars, true/false, {...}
	// brace initializers, INT_MAX...
	CppSyntax
)

func (s Syntax) String() string {
	switch s {
	case PythonSyntax:
		return "python"
	case JavaSyntax:
		return "java"
	case CppSyntax:
		return "cpp"
	}
	return "unknown"
}

// ParseLiteral reads one literal value written in syntax syn and returns it as a
// JSON-ready Go value: json.Number for numbers (integers kept exact, floats in a
// valid JSON spelling, infinities and NaN as the strings "Infinity", "-Infinity",
// "NaN"), string for strings and chars, bool, nil, and []any for lists, tuples and
// array initializers. The whole input must be one value (trailing blanks allowed).
func ParseLiteral(s string, syn Syntax) (any, error) {
	p := &litParser{s: s, syn: syn}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.skip()
	if p.pos < len(p.s) {
		return nil, p.errorf("unexpected %q after value", p.rest(20))
	}
	return finish(v), nil
}

// ParsePythonLiteral is ParseLiteral with PythonSyntax.
func ParsePythonLiteral(s string) (any, error) { return ParseLiteral(s, PythonSyntax) }

// parseLiteralPrefix reads one value at the start of s and returns it with the
// number of bytes consumed.
func parseLiteralPrefix(s string, syn Syntax) (any, int, error) {
	p := &litParser{s: s, syn: syn}
	v, err := p.value()
	return finish(v), p.pos, err
}

type litParser struct {
	s     string
	pos   int
	syn   Syntax
	depth int
}

const maxLiteralDepth = 64

// maxIntBits bounds integer arithmetic in literals (test inputs are at most
// 64-bit; the bound only keeps hostile input cheap).
const maxIntBits = 4096

func (p *litParser) errorf(format string, args ...any) error {
	return fmt.Errorf("%s literal at offset %d: %s", p.syn, p.pos, fmt.Sprintf(format, args...))
}

func (p *litParser) rest(n int) string {
	r := p.s[p.pos:]
	if len(r) > n {
		r = r[:n] + "..."
	}
	return r
}

// skip passes blanks and comments.
func (p *litParser) skip() {
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			p.pos++
		case c == '\\' && p.syn == PythonSyntax && p.pos+1 < len(p.s) && (p.s[p.pos+1] == '\n' || p.s[p.pos+1] == '\r'):
			p.pos += 2 // line continuation
		case c == '#' && p.syn == PythonSyntax:
			for p.pos < len(p.s) && p.s[p.pos] != '\n' {
				p.pos++
			}
		case c == '/' && p.syn != PythonSyntax && strings.HasPrefix(p.s[p.pos:], "//"):
			for p.pos < len(p.s) && p.s[p.pos] != '\n' {
				p.pos++
			}
		case c == '/' && p.syn != PythonSyntax && strings.HasPrefix(p.s[p.pos:], "/*"):
			end := strings.Index(p.s[p.pos+2:], "*/")
			if end < 0 {
				p.pos = len(p.s)
			} else {
				p.pos += end + 4
			}
		default:
			return
		}
	}
}

func (p *litParser) peek() byte {
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

// value reads an expression: literals combined with + - * (and Python's **),
// as test scripts occasionally write "{1 -3, 2}" or "2**31".
func (p *litParser) value() (any, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxLiteralDepth {
		return nil, p.errorf("nesting deeper than %d", maxLiteralDepth)
	}
	left, err := p.term()
	if err != nil {
		return nil, err
	}
	for {
		p.skip()
		op := p.peek()
		if op != '+' && op != '-' {
			return left, nil
		}
		p.pos++
		right, err := p.term()
		if err != nil {
			return nil, err
		}
		if left, err = arith(op, left, right); err != nil {
			return nil, p.errorf("%v", err)
		}
	}
}

func (p *litParser) term() (any, error) {
	left, err := p.power()
	if err != nil {
		return nil, err
	}
	for {
		p.skip()
		if p.peek() != '*' || strings.HasPrefix(p.s[p.pos:], "**") {
			return left, nil
		}
		p.pos++
		right, err := p.power()
		if err != nil {
			return nil, err
		}
		if left, err = arith('*', left, right); err != nil {
			return nil, p.errorf("%v", err)
		}
	}
}

func (p *litParser) power() (any, error) {
	base, err := p.unary()
	if err != nil {
		return nil, err
	}
	p.skip()
	if p.syn != PythonSyntax || !strings.HasPrefix(p.s[p.pos:], "**") {
		return base, nil
	}
	p.pos += 2
	exp, err := p.unary()
	if err != nil {
		return nil, err
	}
	v, err := arith('^', base, exp)
	if err != nil {
		return nil, p.errorf("%v", err)
	}
	return v, nil
}

// arith combines two numbers (integers exactly) or concatenates two strings.
func arith(op byte, a, b any) (any, error) {
	if sa, ok := a.(string); ok && op == '+' {
		if sb, ok := b.(string); ok {
			return sa + sb, nil
		}
	}
	na, ok1 := a.(json.Number)
	nb, ok2 := b.(json.Number)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("operator %c on non-numbers", op)
	}
	ia, okA := new(big.Int).SetString(string(na), 10)
	ib, okB := new(big.Int).SetString(string(nb), 10)
	if okA && okB {
		if ia.BitLen()+ib.BitLen() > maxIntBits {
			return nil, fmt.Errorf("integer too large")
		}
		switch op {
		case '+':
			return json.Number(ia.Add(ia, ib).String()), nil
		case '-':
			return json.Number(ia.Sub(ia, ib).String()), nil
		case '*':
			return json.Number(ia.Mul(ia, ib).String()), nil
		case '^':
			if ib.Sign() < 0 || ib.BitLen() > 16 || int64(ia.BitLen())*ib.Int64() > maxIntBits {
				return nil, fmt.Errorf("unsupported power %s**%s", clip.String(ia.String(), 20), ib)
			}
			return json.Number(ia.Exp(ia, ib, nil).String()), nil
		}
	}
	fa, err1 := strconv.ParseFloat(string(na), 64)
	fb, err2 := strconv.ParseFloat(string(nb), 64)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("bad operands for %c", op)
	}
	var r float64
	switch op {
	case '+':
		r = fa + fb
	case '-':
		r = fa - fb
	case '*':
		r = fa * fb
	case '^':
		r = math.Pow(fa, fb)
	}
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return nil, fmt.Errorf("arithmetic overflow")
	}
	out := strconv.FormatFloat(r, 'g', -1, 64)
	if !strings.ContainsAny(out, ".eE") {
		out += ".0"
	}
	return json.Number(out), nil
}

func (p *litParser) unary() (any, error) {
	p.skip()
	if p.pos >= len(p.s) {
		return nil, p.errorf("unexpected end of input")
	}
	c := p.s[p.pos]
	if c == '-' || c == '+' {
		p.pos++
		v, err := p.unary()
		if err != nil {
			return nil, err
		}
		if c == '+' {
			if _, ok := v.(json.Number); !ok && !isFloatWord(v) {
				return nil, p.errorf("unary + applied to a non-number")
			}
			return v, nil
		}
		return negate(v, p)
	}
	return p.primary()
}

// primary reads one literal, list, tuple or call.
func (p *litParser) primary() (any, error) {
	c := p.s[p.pos]
	switch {
	case c >= '0' && c <= '9', c == '.' && p.pos+1 < len(p.s) && p.s[p.pos+1] >= '0' && p.s[p.pos+1] <= '9':
		return p.number()
	case c == '"':
		return p.str('"')
	case c == '\'':
		if p.syn == PythonSyntax {
			return p.str('\'')
		}
		return p.char()
	case c == '[':
		if p.syn != PythonSyntax {
			return nil, p.errorf("unexpected '['")
		}
		p.pos++
		return p.seq(']')
	case c == '{':
		if p.syn == PythonSyntax {
			return nil, p.errorf("dicts and sets are not supported")
		}
		p.pos++
		return p.seq('}')
	case c == '(':
		p.pos++
		return p.paren()
	case c == '_' || isLetter(c):
		return p.ident()
	}
	return nil, p.errorf("unexpected %q", p.rest(20))
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isIdentByte(c byte) bool { return c == '_' || isLetter(c) || c >= '0' && c <= '9' }

func isFloatWord(v any) bool {
	s, ok := v.(floatWord)
	return ok && s != ""
}

// floatWord marks the non-finite floats while parsing; converted to plain
// strings at the end.
type floatWord string

func negate(v any, p *litParser) (any, error) {
	switch x := v.(type) {
	case json.Number:
		s := string(x)
		if strings.HasPrefix(s, "-") {
			return json.Number(s[1:]), nil
		}
		if s == "0" {
			return x, nil
		}
		return json.Number("-" + s), nil
	case floatWord:
		switch x {
		case "Infinity":
			return floatWord("-Infinity"), nil
		case "-Infinity":
			return floatWord("Infinity"), nil
		}
		return x, nil
	}
	return nil, p.errorf("unary - applied to a non-number")
}

// seq reads comma-separated values up to the closing byte (trailing comma allowed).
func (p *litParser) seq(closing byte) ([]any, error) {
	out := []any{}
	for {
		p.skip()
		if p.peek() == closing {
			p.pos++
			return out, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		out = append(out, finish(v))
		p.skip()
		switch p.peek() {
		case ',':
			p.pos++
		case closing:
			p.pos++
			return out, nil
		default:
			if p.pos >= len(p.s) {
				return nil, p.errorf("missing %q", closing)
			}
			return nil, p.errorf("expected ',' or %q, got %q", closing, p.rest(20))
		}
	}
}

// paren reads a parenthesized value or a tuple: "(x)" is x, "(x,)" and "(x, y)"
// are tuples, "()" is the empty tuple.
func (p *litParser) paren() (any, error) {
	p.skip()
	if p.peek() == ')' {
		p.pos++
		return []any{}, nil
	}
	first, err := p.value()
	if err != nil {
		return nil, err
	}
	p.skip()
	if p.peek() == ')' {
		p.pos++
		return first, nil
	}
	if p.peek() != ',' {
		return nil, p.errorf("expected ',' or ')', got %q", p.rest(20))
	}
	p.pos++
	rest, err := p.seq(')')
	if err != nil {
		return nil, err
	}
	return append([]any{finish(first)}, rest...), nil
}

// finish turns the parser's internal markers into plain JSON-ready values.
func finish(v any) any {
	if w, ok := v.(floatWord); ok {
		return string(w)
	}
	return v
}

func (p *litParser) number() (any, error) {
	start := p.pos
	s := p.s
	i := p.pos
	if strings.HasPrefix(s[i:], "0x") || strings.HasPrefix(s[i:], "0X") ||
		strings.HasPrefix(s[i:], "0b") || strings.HasPrefix(s[i:], "0B") ||
		strings.HasPrefix(s[i:], "0o") || strings.HasPrefix(s[i:], "0O") {
		i += 2
		for i < len(s) && (isHex(s[i]) || s[i] == '_' || s[i] == '\'') {
			i++
		}
	} else {
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '_' || s[i] == '\'' && p.syn == CppSyntax) {
			i++
		}
		if i < len(s) && s[i] == '.' {
			i++
			for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '_') {
				i++
			}
		}
		if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
			j := i + 1
			if j < len(s) && (s[j] == '+' || s[j] == '-') {
				j++
			}
			if j < len(s) && s[j] >= '0' && s[j] <= '9' {
				i = j
				for i < len(s) && s[i] >= '0' && s[i] <= '9' {
					i++
				}
			}
		}
	}
	body := s[start:i]
	// suffixes: L, l, LL, u, U, ull, f, F, d, D; Python has j (complex) which we refuse.
	sufStart := i
	for i < len(s) && strings.IndexByte("lLuUfFdD", s[i]) >= 0 && p.syn != PythonSyntax {
		i++
	}
	suffix := strings.ToLower(s[sufStart:i])
	if i < len(s) && isIdentByte(s[i]) {
		return nil, p.errorf("bad number %q", s[start:i+1])
	}
	p.pos = i
	clean := strings.NewReplacer("_", "", "'", "").Replace(body)
	isFloat := strings.ContainsAny(clean, ".eE") && !strings.HasPrefix(strings.ToLower(clean), "0x")
	if strings.ContainsAny(suffix, "fd") && !strings.HasPrefix(strings.ToLower(clean), "0x") {
		isFloat = true
	}
	if isFloat {
		f, err := strconv.ParseFloat(clean, 64)
		if err != nil && !isRangeErr(err) {
			return nil, p.errorf("bad number %q", body)
		}
		if math.IsInf(f, 1) {
			return floatWord("Infinity"), nil
		}
		s := strconv.FormatFloat(f, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return json.Number(s), nil
	}
	n := new(big.Int)
	var ok bool
	lower := strings.ToLower(clean)
	switch {
	case strings.HasPrefix(lower, "0x"):
		_, ok = n.SetString(lower[2:], 16)
	case strings.HasPrefix(lower, "0b"):
		_, ok = n.SetString(lower[2:], 2)
	case strings.HasPrefix(lower, "0o"):
		_, ok = n.SetString(lower[2:], 8)
	case len(lower) > 1 && lower[0] == '0' && p.syn != PythonSyntax:
		_, ok = n.SetString(lower[1:], 8) // Java and C++ octal
	default:
		_, ok = n.SetString(lower, 10)
	}
	if !ok {
		return nil, p.errorf("bad number %q", body)
	}
	return json.Number(n.String()), nil
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// str reads a quoted string (Python ' or ", Java/C++ ").
func (p *litParser) str(q byte) (any, error) {
	start := p.pos
	p.pos++
	// Python triple quotes: the opening quote followed by two more.
	triple := p.syn == PythonSyntax && strings.HasPrefix(p.s[p.pos:], string([]byte{q, q}))
	if triple {
		p.pos += 2
	}
	var b strings.Builder
	for {
		if p.pos >= len(p.s) {
			p.pos = start
			return nil, p.errorf("unterminated string")
		}
		c := p.s[p.pos]
		if c == q {
			if !triple {
				p.pos++
				return b.String(), nil
			}
			if strings.HasPrefix(p.s[p.pos:], strings.Repeat(string(q), 3)) {
				p.pos += 3
				return b.String(), nil
			}
		}
		if c == '\n' && !triple {
			return nil, p.errorf("newline in string")
		}
		if c == '\\' {
			r, err := p.escape()
			if err != nil {
				return nil, err
			}
			if r >= 0 {
				b.WriteRune(r)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(p.s[p.pos:])
		b.WriteRune(r)
		p.pos += size
	}
}

// rawStr reads a Python raw string (no escapes).
func (p *litParser) rawStr() (any, error) {
	q := p.s[p.pos]
	p.pos++
	end := p.pos
	for end < len(p.s) && p.s[end] != q {
		if p.s[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(p.s) {
		return nil, p.errorf("unterminated raw string")
	}
	v := p.s[p.pos:end]
	p.pos = end + 1
	return v, nil
}

// char reads a Java/C++ character literal as a one-character string.
func (p *litParser) char() (any, error) {
	p.pos++
	var r rune
	if p.peek() == '\\' {
		var err error
		if r, err = p.escape(); err != nil {
			return nil, err
		}
	} else {
		var size int
		r, size = utf8.DecodeRuneInString(p.s[p.pos:])
		if r == '\'' || r == utf8.RuneError && size <= 1 {
			return nil, p.errorf("bad character literal")
		}
		p.pos += size
	}
	if p.peek() != '\'' {
		return nil, p.errorf("unterminated character literal")
	}
	p.pos++
	return string(r), nil
}

// escape reads a backslash escape; -1 means a line continuation (no character).
func (p *litParser) escape() (rune, error) {
	p.pos++ // backslash
	if p.pos >= len(p.s) {
		return 0, p.errorf("dangling backslash")
	}
	c := p.s[p.pos]
	p.pos++
	switch c {
	case 'n':
		return '\n', nil
	case 't':
		return '\t', nil
	case 'r':
		return '\r', nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'v':
		return '\v', nil
	case 'a':
		return '\a', nil
	case '0', '1', '2', '3', '4', '5', '6', '7':
		n := int(c - '0')
		for k := 0; k < 2 && p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '7'; k++ {
			n = n*8 + int(p.s[p.pos]-'0')
			p.pos++
		}
		return rune(n), nil
	case 'x':
		return p.hexEscape(2)
	case 'u':
		return p.hexEscape(4)
	case 'U':
		return p.hexEscape(8)
	case '\n':
		return -1, nil
	case '\\', '\'', '"', '?':
		return rune(c), nil
	}
	if p.syn == PythonSyntax {
		// Python keeps unknown escapes as they are.
		p.pos--
		return '\\', nil
	}
	return 0, p.errorf("unknown escape \\%c", c)
}

func (p *litParser) hexEscape(n int) (rune, error) {
	if p.pos+n > len(p.s) {
		return 0, p.errorf("short hex escape")
	}
	v, err := strconv.ParseUint(p.s[p.pos:p.pos+n], 16, 32)
	if err != nil {
		return 0, p.errorf("bad hex escape %q", p.s[p.pos:p.pos+n])
	}
	p.pos += n
	return rune(v), nil
}

// constants usable as test inputs.
var (
	pyConsts = map[string]any{
		"True": true, "False": false, "None": nil,
		"sys.maxsize": json.Number("9223372036854775807"),
		"math.inf":    floatWord("Infinity"), "math.pi": json.Number(strconv.FormatFloat(math.Pi, 'g', -1, 64)),
		"math.e": json.Number(strconv.FormatFloat(math.E, 'g', -1, 64)),
	}
	javaConsts = map[string]any{
		"true": true, "false": false, "null": nil,
		"Integer.MAX_VALUE": json.Number("2147483647"), "Integer.MIN_VALUE": json.Number("-2147483648"),
		"Long.MAX_VALUE": json.Number("9223372036854775807"), "Long.MIN_VALUE": json.Number("-9223372036854775808"),
		"Double.POSITIVE_INFINITY": floatWord("Infinity"), "Double.NEGATIVE_INFINITY": floatWord("-Infinity"),
		"Double.NaN": floatWord("NaN"), "Math.PI": json.Number(strconv.FormatFloat(math.Pi, 'g', -1, 64)),
	}
	cppConsts = map[string]any{
		"true": true, "false": false, "nullptr": nil, "NULL": nil,
		"INT_MAX": json.Number("2147483647"), "INT_MIN": json.Number("-2147483648"),
		"LLONG_MAX": json.Number("9223372036854775807"), "LLONG_MIN": json.Number("-9223372036854775808"),
		"LONG_MAX": json.Number("9223372036854775807"), "LONG_MIN": json.Number("-9223372036854775808"),
		"M_PI": json.Number(strconv.FormatFloat(math.Pi, 'g', -1, 64)),
	}
)

// ident reads a keyword, a known constant, a Python raw/byte string, a Java
// "new T[]{...}" initializer, or a known conversion call such as
// Long.parseLong("..."), float('inf') or string("...").
func (p *litParser) ident() (any, error) {
	start := p.pos
	for p.pos < len(p.s) && (isIdentByte(p.s[p.pos]) || p.s[p.pos] == '.' || p.s[p.pos] == ':' && p.syn == CppSyntax) {
		p.pos++
	}
	name := p.s[start:p.pos]
	if p.syn == PythonSyntax && p.pos < len(p.s) && (p.s[p.pos] == '\'' || p.s[p.pos] == '"') {
		switch strings.ToLower(name) {
		case "r", "rb", "br":
			return p.rawStr()
		case "u", "b":
			return p.str(p.s[p.pos])
		}
	}
	consts := pyConsts
	switch p.syn {
	case JavaSyntax:
		consts = javaConsts
	case CppSyntax:
		consts = cppConsts
	}
	if v, ok := consts[strings.TrimPrefix(name, "std::")]; ok {
		return v, nil
	}
	if name == "new" && p.syn == JavaSyntax {
		// new int[]{...}, new int[][]{{...}}, new String[]{...}
		for p.pos < len(p.s) && p.s[p.pos] != '{' {
			c := p.s[p.pos]
			if c != ' ' && c != '\t' && c != '[' && c != ']' && c != '<' && c != '>' && c != ',' && !isIdentByte(c) && c != '.' {
				return nil, p.errorf("unsupported Java expression after new: %q", p.rest(20))
			}
			p.pos++
		}
		if p.pos >= len(p.s) {
			return nil, p.errorf("array creation without initializer")
		}
		p.pos++
		return p.seq('}')
	}
	p.skip()
	if p.peek() == '(' {
		p.pos++
		args, err := p.seq(')')
		if err != nil {
			return nil, err
		}
		return p.call(name, args)
	}
	if p.peek() == '{' && p.syn == CppSyntax {
		// vector<int>{...}-like typed initializer written as Name{...}
		p.pos++
		return p.seq('}')
	}
	p.pos = start
	return nil, p.errorf("unsupported name %q", name)
}

// call evaluates the few conversion calls found in test scripts.
func (p *litParser) call(name string, args []any) (any, error) {
	if len(args) != 1 {
		return nil, p.errorf("unsupported call %s with %d arguments", name, len(args))
	}
	a := args[0]
	switch name {
	case "Long.parseLong", "Integer.parseInt", "Long.valueOf", "Integer.valueOf", "int", "stoll", "stoi", "std::stoll", "std::stoi":
		if s, ok := a.(string); ok {
			return p.parseNumberText(s, false)
		}
		if n, ok := a.(json.Number); ok && !strings.ContainsAny(string(n), ".eE") {
			return n, nil
		}
	case "Double.parseDouble", "Float.parseFloat", "float", "Double.valueOf", "stod", "std::stod":
		if s, ok := a.(string); ok {
			return p.parseNumberText(s, true)
		}
		if n, ok := a.(json.Number); ok {
			return n, nil
		}
	case "str", "String.valueOf", "string", "std::string", "String":
		if s, ok := a.(string); ok {
			return s, nil
		}
	case "list", "tuple":
		if l, ok := a.([]any); ok {
			return l, nil
		}
		if s, ok := a.(string); ok && name == "list" {
			out := []any{}
			for _, r := range s {
				out = append(out, string(r))
			}
			return out, nil
		}
	}
	return nil, p.errorf("unsupported call %s(...)", name)
}

func (p *litParser) parseNumberText(s string, float bool) (any, error) {
	t := strings.TrimSpace(s)
	switch strings.ToLower(strings.TrimPrefix(strings.TrimPrefix(t, "+"), "-")) {
	case "inf", "infinity":
		if strings.HasPrefix(t, "-") {
			return floatWord("-Infinity"), nil
		}
		return floatWord("Infinity"), nil
	case "nan":
		return floatWord("NaN"), nil
	}
	q := &litParser{s: t, syn: PythonSyntax}
	v, err := q.value()
	if err != nil || q.pos != len(t) {
		return nil, p.errorf("cannot read %q as a number", s)
	}
	n, ok := v.(json.Number)
	if !ok {
		return nil, p.errorf("cannot read %q as a number", s)
	}
	if !float && strings.ContainsAny(string(n), ".eE") {
		return nil, p.errorf("%q is not an integer", s)
	}
	return n, nil
}

// literalJSON parses a literal and encodes it as JSON.
func literalJSON(s string, syn Syntax) (string, error) {
	v, err := ParseLiteral(s, syn)
	if err != nil {
		return "", err
	}
	return encodeJSON(finish(v))
}

func encodeJSON(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return string(b), nil
}
