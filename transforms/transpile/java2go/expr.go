package java2go

import (
	"fmt"
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// ex is a translated expression: its Go code and Java type; konst marks a literal
// that Go takes as an untyped constant of any numeric type.
type ex struct {
	code  string
	jt    string
	konst bool
}

func (t *tr) expr(n *sitter.Node) ex {
	switch n.Kind() {
	case "decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal":
		return t.intLit(n)
	case "decimal_floating_point_literal":
		s := strings.ReplaceAll(t.text(n), "_", "")
		jt := "double"
		switch s[len(s)-1] {
		case 'f', 'F':
			jt, s = "float", s[:len(s)-1]
		case 'd', 'D':
			s = s[:len(s)-1]
		}
		if strings.HasPrefix(s, ".") {
			s = "0" + s
		}
		if strings.HasSuffix(s, ".") {
			s += "0"
		}
		return ex{code: s, jt: jt, konst: true}
	case "character_literal":
		return ex{code: t.text(n), jt: "char", konst: true}
	case "string_literal":
		return ex{code: t.text(n), jt: "String"}
	case "true", "false":
		return ex{code: n.Kind(), jt: "boolean"}
	case "null_literal":
		t.fail(n, "null")
	case "identifier":
		name := t.text(n)
		jt, ok := t.lookup(name)
		if !ok {
			t.fail(n, "unknown name "+name)
		}
		return ex{code: goName(name), jt: jt}
	case "parenthesized_expression":
		e := t.expr(n.NamedChild(0))
		e.code = "(" + stripParens(e.code) + ")"
		return e
	case "binary_expression":
		return t.binary(n, t.text(n.ChildByFieldName("operator")), t.expr(n.ChildByFieldName("left")), t.expr(n.ChildByFieldName("right")))
	case "unary_expression":
		return t.unary(n)
	case "ternary_expression":
		return t.ternary(n)
	case "cast_expression":
		jt := t.jtype(n.ChildByFieldName("type"), nil)
		v := t.expr(n.ChildByFieldName("value"))
		return ex{code: t.cast(v, jt, n), jt: jt}
	case "array_access":
		a := t.expr(n.ChildByFieldName("array"))
		i := t.expr(n.ChildByFieldName("index"))
		if !isArray(a.jt) {
			t.fail(n, "indexing "+a.jt)
		}
		return ex{code: a.code + "[" + stripParens(i.code) + "]", jt: elemOf(a.jt)}
	case "field_access":
		return t.field(n)
	case "method_invocation":
		return t.call(n)
	case "array_creation_expression":
		return t.arrayCreation(n)
	case "object_creation_expression":
		return t.newObject(n)
	case "assignment_expression", "update_expression":
		t.fail(n, n.Kind()+" inside an expression")
	}
	t.fail(n, "expression "+n.Kind())
	return ex{}
}

func (t *tr) intLit(n *sitter.Node) ex {
	s := strings.ReplaceAll(t.text(n), "_", "")
	jt := "int"
	if strings.HasSuffix(s, "L") || strings.HasSuffix(s, "l") {
		jt, s = "long", s[:len(s)-1]
	}
	if n.Kind() == "octal_integer_literal" && len(s) > 1 {
		s = "0o" + s[1:]
	}
	// hex, octal and binary int literals may set the sign bit in Java
	if n.Kind() != "decimal_integer_literal" {
		if v, err := strconv.ParseUint(strings.TrimPrefix(strings.TrimPrefix(strings.ToLower(s), "0x"), "0b"), map[bool]int{true: 16, false: 2}[strings.HasPrefix(strings.ToLower(s), "0x")], 64); err == nil && n.Kind() != "octal_integer_literal" {
			if jt == "int" && v > 0x7fffffff {
				return ex{code: fmt.Sprint(int32(uint32(v))), jt: jt, konst: true}
			}
			if jt == "long" && v > 0x7fffffffffffffff {
				return ex{code: fmt.Sprint(int64(v)), jt: jt, konst: true}
			}
		}
	}
	return ex{code: s, jt: jt, konst: true}
}

// conv converts e to Java type to where Java does so implicitly (assignment,
// argument, return): widening, and constants.
func (t *tr) conv(e ex, to string, n *sitter.Node) string {
	if e.jt == to {
		return e.code
	}
	if e.konst && isNumeric(e.jt) && isNumeric(to) {
		if e.jt == "char" && to != "char" {
			return primGo[to] + "(" + e.code + ")"
		}
		return e.code
	}
	if isNumeric(e.jt) && isNumeric(to) {
		return t.cast(e, to, n)
	}
	if strings.HasSuffix(to, "[]") && e.jt == "[]" {
		return e.code
	}
	if listKind(to) != "" && listKind(e.jt) == listKind(to) {
		if strings.Contains(e.jt, "<>") {
			// new HashMap<>(): the type comes from the declaration
			return t.gotype(to, n) + "{}"
		}
		return e.code
	}
	t.fail(n, fmt.Sprintf("conversion of %s to %s", e.jt, to))
	return ""
}

// cast is Java's cast (T) e.
func (t *tr) cast(e ex, to string, n *sitter.Node) string {
	if e.jt == to {
		return e.code
	}
	gt, ok := primGo[to]
	if !ok || !isNumeric(e.jt) && e.jt != "boolean" {
		if to == "String" && e.jt == "String" {
			return e.code
		}
		t.fail(n, fmt.Sprintf("cast of %s to %s", e.jt, to))
	}
	if e.jt == "boolean" {
		t.fail(n, "cast of a boolean")
	}
	if (e.jt == "double" || e.jt == "float") && isIntegral(to) {
		// Java saturates and maps NaN to 0
		if to == "long" {
			return t.helper("d2l") + "(float64(" + e.code + "))"
		}
		v := t.helper("d2i") + "(float64(" + e.code + "))"
		if to == "int" {
			return v
		}
		return gt + "(" + v + ")"
	}
	if e.konst && e.jt != "char" {
		// a constant converted at compile time must fit: go through a variable type
		if isIntegral(to) && isIntegral(e.jt) {
			return gt + "(int64(" + e.code + "))"
		}
		return gt + "(" + e.code + ")"
	}
	return gt + "(" + e.code + ")"
}

func isShift(op string) bool { return op == "<<" || op == ">>" || op == ">>>" }

func (t *tr) binary(n *sitter.Node, op string, l, r ex) ex {
	switch op {
	case "&&", "||":
		return ex{code: l.code + " " + op + " " + r.code, jt: "boolean"}
	}
	if l.jt == "boolean" && r.jt == "boolean" {
		switch op {
		case "&":
			return ex{code: l.code + " && " + r.code, jt: "boolean"}
		case "|":
			return ex{code: l.code + " || " + r.code, jt: "boolean"}
		case "^", "!=":
			return ex{code: l.code + " != " + r.code, jt: "boolean"}
		case "==":
			return ex{code: l.code + " == " + r.code, jt: "boolean"}
		}
	}
	if op == "+" && (l.jt == "String" || r.jt == "String") {
		return ex{code: t.str(l, n) + " + " + t.str(r, n), jt: "String"}
	}
	if (op == "==" || op == "!=") && l.jt == "String" && r.jt == "String" {
		t.fail(n, "reference comparison of strings")
	}
	if !isNumeric(l.jt) || !isNumeric(r.jt) {
		t.fail(n, fmt.Sprintf("%s %s %s", l.jt, op, r.jt))
	}
	if isShift(op) {
		lt := promote(l.jt, "int")
		mask := "31"
		if lt == "long" {
			mask = "63"
		}
		lc := t.conv(l, lt, n)
		if l.konst {
			lc = primGo[lt] + "(" + l.code + ")"
		}
		cnt := "(" + r.code + " & " + mask + ")"
		switch op {
		case ">>>":
			u := "uint32"
			if lt == "long" {
				u = "uint64"
			}
			return ex{code: primGo[lt] + "(" + u + "(" + lc + ") >> " + cnt + ")", jt: lt}
		default:
			return ex{code: lc + " " + op + " " + cnt, jt: lt}
		}
	}
	pt := promote(l.jt, r.jt)
	lc, rc := l.code, r.code
	if !(l.konst && r.konst) {
		lc, rc = t.conv(l, pt, n), t.conv(r, pt, n)
	} else if l.jt == "char" || r.jt == "char" {
		lc, rc = t.conv(l, pt, n), t.conv(r, pt, n)
	}
	switch op {
	case "==", "!=", "<", ">", "<=", ">=":
		return ex{code: lc + " " + op + " " + rc, jt: "boolean"}
	case "%":
		if pt == "double" || pt == "float" {
			t.imports["math"] = true
			return ex{code: primGo[pt] + "(math.Mod(float64(" + lc + "), float64(" + rc + ")))", jt: pt}
		}
	case "+", "-", "*", "/", "&", "|", "^":
	default:
		t.fail(n, "operator "+op)
	}
	konst := l.konst && r.konst && op != "/" && op != "%"
	if l.konst && r.konst && (op == "/" || op == "%") && isIntegral(pt) {
		// an integer constant division stays integral in Go
		konst = true
	}
	return ex{code: lc + " " + op + " " + rc, jt: pt, konst: konst}
}

func (t *tr) unary(n *sitter.Node) ex {
	op := t.text(n.ChildByFieldName("operator"))
	e := t.expr(n.ChildByFieldName("operand"))
	switch op {
	case "!":
		if e.jt != "boolean" {
			t.fail(n, "! on "+e.jt)
		}
		return ex{code: "!" + e.code, jt: "boolean"}
	case "-", "+":
		if !isNumeric(e.jt) {
			t.fail(n, op+" on "+e.jt)
		}
		pt := promote(e.jt, "int")
		c := e.code
		if !e.konst || e.jt == "char" {
			c = t.conv(e, pt, n)
		}
		if op == "+" {
			return ex{code: c, jt: pt, konst: e.konst}
		}
		return ex{code: "-" + c, jt: pt, konst: e.konst && e.jt != "char"}
	case "~":
		if !isIntegral(e.jt) {
			t.fail(n, "~ on "+e.jt)
		}
		pt := promote(e.jt, "int")
		return ex{code: "^" + t.conv(e, pt, n), jt: pt, konst: e.konst}
	}
	t.fail(n, "unary "+op)
	return ex{}
}

func (t *tr) ternary(n *sitter.Node) ex {
	c := t.cond(n.ChildByFieldName("condition"))
	a := t.expr(n.ChildByFieldName("consequence"))
	b := t.expr(n.ChildByFieldName("alternative"))
	jt := a.jt
	switch {
	case a.jt == b.jt:
	case isNumeric(a.jt) && isNumeric(b.jt):
		jt = promote(a.jt, b.jt)
		if a.konst && !b.konst && isIntegral(b.jt) && isIntegral(a.jt) {
			jt = b.jt
		} else if b.konst && !a.konst && isIntegral(b.jt) && isIntegral(a.jt) {
			jt = a.jt
		}
	default:
		t.fail(n, fmt.Sprintf("ternary of %s and %s", a.jt, b.jt))
	}
	gt := t.gotype(jt, n)
	return ex{code: fmt.Sprintf("func() %s {\n%sif %s {\n%s\treturn %s\n%s}\n%sreturn %s\n%s}()", gt,
		t.ind(1), c, t.ind(1), t.conv(a, jt, n), t.ind(1), t.ind(1), t.conv(b, jt, n), t.ind(0)), jt: jt}
}

func (t *tr) ind(extra int) string { return strings.Repeat("\t", t.indent+extra) }

// str is e as a Go string, as Java's string conversion writes it.
func (t *tr) str(e ex, n *sitter.Node) string {
	switch e.jt {
	case "String":
		return e.code
	case "char":
		return "string(rune(" + e.code + "))"
	case "int", "long", "short", "byte":
		t.imports["strconv"] = true
		return "strconv.FormatInt(int64(" + e.code + "), 10)"
	case "boolean":
		t.imports["strconv"] = true
		return "strconv.FormatBool(" + e.code + ")"
	case "double", "float":
		return t.helper("dstr") + "(float64(" + e.code + "))"
	}
	t.fail(n, "string conversion of "+e.jt)
	return ""
}

func (t *tr) field(n *sitter.Node) ex {
	obj := n.ChildByFieldName("object")
	f := t.text(n.ChildByFieldName("field"))
	if obj.Kind() == "identifier" {
		if _, local := t.lookup(t.text(obj)); !local {
			switch t.text(obj) + "." + f {
			case "Integer.MAX_VALUE":
				return ex{code: "2147483647", jt: "int", konst: true}
			case "Integer.MIN_VALUE":
				return ex{code: "-2147483648", jt: "int", konst: true}
			case "Long.MAX_VALUE":
				return ex{code: "9223372036854775807", jt: "long", konst: true}
			case "Long.MIN_VALUE":
				return ex{code: "-9223372036854775808", jt: "long", konst: true}
			case "Math.PI":
				t.imports["math"] = true
				return ex{code: "math.Pi", jt: "double", konst: true}
			case "Math.E":
				t.imports["math"] = true
				return ex{code: "math.E", jt: "double", konst: true}
			case "Double.MAX_VALUE":
				t.imports["math"] = true
				return ex{code: "math.MaxFloat64", jt: "double", konst: true}
			case "Double.MIN_VALUE":
				t.imports["math"] = true
				return ex{code: "math.SmallestNonzeroFloat64", jt: "double", konst: true}
			case "Double.POSITIVE_INFINITY":
				t.imports["math"] = true
				return ex{code: "math.Inf(1)", jt: "double"}
			case "Double.NEGATIVE_INFINITY":
				t.imports["math"] = true
				return ex{code: "math.Inf(-1)", jt: "double"}
			case "Character.MAX_VALUE":
				return ex{code: "65535", jt: "char", konst: true}
			}
		}
	}
	o := t.expr(obj)
	if f == "length" && isArray(o.jt) {
		return ex{code: "len(" + o.code + ")", jt: "int"}
	}
	t.fail(n, "field "+f+" of "+o.jt)
	return ex{}
}

func (t *tr) arrayCreation(n *sitter.Node) ex {
	base := t.jtype(n.ChildByFieldName("type"), nil)
	if v := n.ChildByFieldName("value"); v != nil {
		jt := base + strings.Repeat("[]", strings.Count(t.text(n.ChildByFieldName("dimensions")), "["))
		if n.ChildByFieldName("dimensions") == nil {
			jt = base + "[]"
		}
		return ex{code: t.arrayInit(v, jt), jt: jt}
	}
	// new T[a][b][] : the sized dimensions, then the unsized ones
	var sizes []string
	cur := n.Walk()
	sized := n.ChildrenByFieldName("dimensions", cur)
	cur.Close()
	extra := 0
	for _, d := range sized {
		if d.Kind() == "dimensions" {
			extra += strings.Count(t.text(&d), "[")
			continue
		}
		size := t.expr(d.NamedChild(0))
		if !isIntegral(size.jt) {
			t.fail(&d, "an array size of type "+size.jt)
		}
		sizes = append(sizes, stripParens(size.code))
	}
	jt := base + strings.Repeat("[]", len(sizes)+extra)
	return ex{code: t.makeArray(jt, sizes, n), jt: jt}
}

// makeArray makes a Java array of type jt with the given sizes (outer first).
func (t *tr) makeArray(jt string, sizes []string, n *sitter.Node) string {
	gt := t.gotype(jt, n)
	if len(sizes) == 1 {
		return "make(" + gt + ", " + sizes[0] + ")"
	}
	t.tmp++
	v := fmt.Sprintf("a%d_", t.tmp)
	inner := t.makeArray(elemOf(jt), sizes[1:], n)
	return fmt.Sprintf("func() %s {\n%s%s := make(%s, %s)\n%sfor i := range %s {\n%s\t%s[i] = %s\n%s}\n%sreturn %s\n%s}()",
		gt, t.ind(1), v, gt, sizes[0], t.ind(1), v, t.ind(1), v, inner, t.ind(1), t.ind(1), v, t.ind(0))
}

func (t *tr) arrayInit(n *sitter.Node, jt string) string {
	if !isArray(jt) {
		t.fail(n, "array initializer for "+jt)
	}
	var elems []string
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c.Kind() == "array_initializer" {
			elems = append(elems, t.arrayInit(c, elemOf(jt)))
			continue
		}
		elems = append(elems, t.conv(t.expr(c), elemOf(jt), c))
	}
	return t.gotype(jt, n) + "{" + strings.Join(elems, ", ") + "}"
}

func (t *tr) newObject(n *sitter.Node) ex {
	jt := t.jtype(n.ChildByFieldName("type"), nil)
	args := n.ChildByFieldName("arguments")
	if jt == "String" {
		if args.NamedChildCount() == 0 {
			return ex{code: `""`, jt: "String"}
		}
		a := t.expr(args.NamedChild(0))
		switch a.jt {
		case "String":
			return ex{code: a.code, jt: "String"}
		case "char[]":
			return ex{code: "string(" + a.code + ")", jt: "String"}
		}
		t.fail(n, "new String of "+a.jt)
	}
	k := listKind(jt)
	if k == "" {
		t.fail(n, "new "+jt)
	}
	if args.NamedChildCount() > 0 {
		// a capacity, or a copy of another collection
		a := t.expr(args.NamedChild(0))
		if !(k == "list" && isIntegral(a.jt)) && !(k != "list" && isIntegral(a.jt)) {
			t.fail(n, "new "+jt+" from "+a.jt)
		}
	}
	if strings.Contains(jt, "<>") {
		return ex{jt: jt} // typed by conv
	}
	return ex{code: t.gotype(jt, n) + "{}", jt: jt}
}
