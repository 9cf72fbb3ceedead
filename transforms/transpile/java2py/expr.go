package java2py

import (
	"fmt"
	"strconv"
	"strings"

	"transmute/transforms/transpile/javasrc"
)

// Python precedence levels (higher binds tighter).
const (
	pTernary = 2
	pOr      = 3
	pAnd     = 4
	pNot     = 5
	pCmp     = 6
	pBor     = 7
	pBxor    = 8
	pBand    = 9
	pShift   = 10
	pAdd     = 11
	pMul     = 12
	pUnary   = 13
	pAtom    = 16
)

// ex is a translated expression: Python code, Java type and Python precedence.
type ex struct {
	code string
	ty   string
	prec int
	lit  bool // a numeric literal (after char folding)
	ch   int  // code point of a char literal, -1 otherwise
}

func atom(code, ty string) ex { return ex{code: code, ty: ty, prec: pAtom, ch: -1} }

func mk(code, ty string, prec int) ex { return ex{code: code, ty: ty, prec: prec, ch: -1} }

// paren parenthesizes e unless its precedence is at least min.
func paren(e ex, min int) string {
	if e.prec < min {
		return "(" + e.code + ")"
	}
	return e.code
}

// exprTo translates n and coerces it to the Java type ty (char <-> int).
func (t *translator) exprTo(n *node, ty string) string {
	if n.kind == "array_initializer" {
		return t.arrayInit(n, ty)
	}
	if n.kind == "object_creation_expression" && collKind(ty) == kList {
		if b := baseName(t.typeOf(n.f("type"), nil)); b == "LinkedList" || b == "ArrayDeque" {
			if len(n.f("arguments").namedKids()) == 0 {
				return "[]"
			}
			return "list(" + t.expr(n.f("arguments").namedKids()[0]).code + ")"
		}
	}
	return t.coerce(t.expr(n), ty).code
}

// coerce converts between Java char (a 1-char Python str) and numbers.
func (t *translator) coerce(e ex, to string) ex {
	from, to := javasrc.Unbox(e.ty), javasrc.Unbox(to)
	switch {
	case from == "char" && (isIntegral(to) || javasrc.IsFloating(to)):
		return t.ord(e)
	case isIntegral(from) && to == "char":
		return atom("chr("+e.code+")", "char")
	}
	return e
}

// ord turns a char expression into its code point.
func (t *translator) ord(e ex) ex {
	if e.ch >= 0 {
		return ex{code: strconv.Itoa(e.ch), ty: "int", prec: pAtom, lit: true, ch: -1}
	}
	return atom("ord("+e.code+")", "int")
}

// numeric promotes a char operand to int.
func (t *translator) numeric(e ex) ex {
	if isChar(e.ty) {
		return t.ord(e)
	}
	return e
}

// wrap applies Java's 32/64-bit overflow when enabled.
func (t *translator) wrap(e ex) ex {
	if !t.opts.WrapOverflow {
		return e
	}
	switch javasrc.Unbox(e.ty) {
	case "int":
		return atom(t.helper("_i32")+"("+e.code+")", "int")
	case "long":
		return atom(t.helper("_i64")+"("+e.code+")", "long")
	}
	return e
}

// expr is the dispatch of expression rules, one per node kind.
func (t *translator) expr(n *node) ex {
	switch n.kind {
	case "parenthesized_expression":
		return t.expr(n.namedKids()[0])
	case "identifier":
		name := t.text(n)
		ty, ok := t.lookup(name)
		if !ok {
			ty = "?"
		}
		return atom(pyIdent(name), ty)
	case "decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal":
		return t.intLit(n)
	case "decimal_floating_point_literal", "hex_floating_point_literal":
		s := strings.ReplaceAll(t.text(n), "_", "")
		ty := "double"
		if strings.HasSuffix(s, "f") || strings.HasSuffix(s, "F") {
			ty = "float"
		}
		s = strings.TrimRight(s, "fFdD")
		if n.kind == "hex_floating_point_literal" {
			unsupported(n, "hex floating literal")
		}
		return ex{code: s, ty: ty, prec: pAtom, lit: true, ch: -1}
	case "true":
		return atom("True", "boolean")
	case "false":
		return atom("False", "boolean")
	case "null_literal":
		return atom("None", "null")
	case "character_literal":
		return t.charLit(n)
	case "string_literal":
		return t.stringLit(n)
	case "binary_expression":
		return t.binary(n)
	case "unary_expression":
		return t.unary(n)
	case "update_expression":
		return t.updateExpr(n)
	case "assignment_expression":
		return t.assignExpr(n)
	case "ternary_expression":
		return t.ternary(n)
	case "cast_expression":
		return t.cast(n)
	case "array_access":
		a := t.expr(n.f("array"))
		i := t.numeric(t.expr(n.f("index")))
		return atom(paren(a, pAtom)+"["+i.code+"]", elemType(a.ty))
	case "field_access":
		return t.fieldAccess(n)
	case "method_invocation":
		return t.call(n, false)
	case "object_creation_expression":
		return t.newObject(n)
	case "array_creation_expression":
		return t.newArray(n)
	case "array_initializer":
		return atom(t.arrayInit(n, "?[]"), "?[]")
	}
	unsupported(n, "expression "+n.kind)
	return ex{}
}

func (t *translator) intLit(n *node) ex {
	s := strings.ReplaceAll(t.text(n), "_", "")
	ty := "int"
	if strings.HasSuffix(s, "L") || strings.HasSuffix(s, "l") {
		ty = "long"
		s = s[:len(s)-1]
	}
	if n.kind == "octal_integer_literal" || (n.kind == "decimal_integer_literal" && len(s) > 1 && s[0] == '0') {
		s = "0o" + strings.TrimLeft(s[1:], "oO")
		if v, err := strconv.ParseInt(s[2:], 8, 64); err == nil {
			s = strconv.FormatInt(v, 10)
		}
	}
	if n.kind == "hex_integer_literal" || n.kind == "binary_integer_literal" {
		// Java hex/binary int literals are two's complement 32-bit (64 with L).
		base := 16
		if n.kind == "binary_integer_literal" {
			base = 2
		}
		if v, err := strconv.ParseUint(s[2:], base, 64); err == nil {
			if ty == "int" && v >= 1<<31 && v < 1<<32 {
				s = strconv.FormatInt(int64(int32(uint32(v))), 10)
			} else if ty == "long" && v >= 1<<63 {
				s = strconv.FormatInt(int64(v), 10)
			}
		}
	}
	return ex{code: s, ty: ty, prec: pAtom, lit: true, ch: -1}
}

// decodeJavaChar decodes the body of a Java char literal.
func decodeJavaChar(body string) (rune, bool) {
	if !strings.HasPrefix(body, `\`) {
		r := []rune(body)
		if len(r) == 1 {
			return r[0], true
		}
		return 0, false
	}
	switch body {
	case `\n`:
		return '\n', true
	case `\t`:
		return '\t', true
	case `\r`:
		return '\r', true
	case `\b`:
		return '\b', true
	case `\f`:
		return '\f', true
	case `\s`:
		return ' ', true
	case `\'`:
		return '\'', true
	case `\"`:
		return '"', true
	case `\\`:
		return '\\', true
	}
	if strings.HasPrefix(body, `\u`) {
		v, err := strconv.ParseUint(strings.TrimLeft(body[1:], "u"), 16, 32)
		return rune(v), err == nil
	}
	v, err := strconv.ParseUint(body[1:], 8, 32)
	return rune(v), err == nil
}

// pyStr renders a Go string as a Python literal.
func pyStr(s string, quote byte) string {
	var b strings.Builder
	b.WriteByte(quote)
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == rune(quote):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r > 0x7e:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(quote)
	return b.String()
}

func (t *translator) charLit(n *node) ex {
	s := t.text(n)
	body := s[1 : len(s)-1]
	r, ok := decodeJavaChar(body)
	if !ok {
		// Detokenization artifact of the corpus: ' z '.
		r, ok = decodeJavaChar(strings.TrimSpace(body))
	}
	if !ok {
		unsupported(n, "character literal "+s)
	}
	return ex{code: pyStr(string(r), '\''), ty: "char", prec: pAtom, ch: int(r)}
}

func (t *translator) stringLit(n *node) ex {
	s := t.text(n)
	if strings.HasPrefix(s, `"""`) {
		unsupported(n, "text block")
	}
	// Decode Java escapes, then re-encode for Python.
	body := s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' || i+1 >= len(body) {
			b.WriteByte(c)
			continue
		}
		j := i + 2
		switch {
		case body[i+1] == 'u':
			for j < len(body) && body[j] == 'u' {
				j++
			}
			j += 4
		case body[i+1] >= '0' && body[i+1] <= '7':
			j = i + 1
			for j < len(body) && j < i+4 && body[j] >= '0' && body[j] <= '7' {
				j++
			}
		}
		if j > len(body) {
			unsupported(n, "string escape")
		}
		r, ok := decodeJavaChar(body[i:j])
		if !ok {
			unsupported(n, "string escape")
		}
		b.WriteRune(r)
		i = j - 1
	}
	return atom(pyStr(b.String(), '"'), "String")
}

// strConv is Java's string conversion of an operand of string "+".
func (t *translator) strConv(e ex) string {
	switch {
	case isString(e.ty) || isChar(e.ty):
		return paren(e, pAdd+1)
	case isIntegral(e.ty):
		return "str(" + e.code + ")"
	case javasrc.IsFloating(e.ty):
		return t.helper("_jstrd") + "(" + e.code + ")"
	}
	return t.helper("_jstr") + "(" + e.code + ")"
}

func (t *translator) binary(n *node) ex {
	op := t.text(n.f("operator"))
	l, r := t.expr(n.f("left")), t.expr(n.f("right"))
	switch op {
	case "&&":
		return mk(paren(l, pAnd)+" and "+paren(r, pAnd+1), "boolean", pAnd)
	case "||":
		return mk(paren(l, pOr)+" or "+paren(r, pOr+1), "boolean", pOr)
	case "==", "!=":
		if l.ty == "null" || r.ty == "null" {
			o := " is "
			if op == "!=" {
				o = " is not "
			}
			return mk(paren(l, pCmp+1)+o+paren(r, pCmp+1), "boolean", pCmp)
		}
		if isNumeric(l.ty) && isNumeric(r.ty) && !(isChar(l.ty) && isChar(r.ty)) {
			l, r = t.numeric(l), t.numeric(r)
		}
		return mk(paren(l, pCmp+1)+" "+op+" "+paren(r, pCmp+1), "boolean", pCmp)
	case "<", ">", "<=", ">=":
		if !(isChar(l.ty) && isChar(r.ty)) {
			l, r = t.numeric(l), t.numeric(r)
		}
		return mk(paren(l, pCmp+1)+" "+op+" "+paren(r, pCmp+1), "boolean", pCmp)
	case "+":
		if isString(l.ty) || isString(r.ty) {
			return mk(t.strConv(l)+" + "+t.strConv(r), "String", pAdd)
		}
	case "&", "|", "^":
		if isBool(l.ty) && isBool(r.ty) {
			p := map[string]int{"&": pBand, "|": pBor, "^": pBxor}[op]
			return mk(paren(l, p)+" "+op+" "+paren(r, p+1), "boolean", p)
		}
	case "instanceof":
		unsupported(n, "instanceof")
	}
	return t.arith(n, op, l, r)
}

// arith translates a numeric binary operator on translated operands.
func (t *translator) arith(n *node, op string, l, r ex) ex {
	if !isNumeric(l.ty) && l.ty != "?" || !isNumeric(r.ty) && r.ty != "?" {
		if !(l.ty == "?" || r.ty == "?") {
			unsupported(n, fmt.Sprintf("operator %s on %s and %s", op, l.ty, r.ty))
		}
	}
	l, r = t.numeric(l), t.numeric(r)
	ty := javasrc.Promote(l.ty, r.ty)
	if l.ty == "?" || r.ty == "?" {
		if javasrc.IsFloating(l.ty) || javasrc.IsFloating(r.ty) {
			ty = "double"
		}
	}
	integral := isIntegral(ty)
	switch op {
	case "+", "-":
		return t.wrap(mk(paren(l, pAdd)+" "+op+" "+paren(r, pAdd+1), ty, pAdd))
	case "*":
		return t.wrap(mk(paren(l, pMul)+" * "+paren(r, pMul+1), ty, pMul))
	case "/":
		if l.ty == "?" || r.ty == "?" {
			// Decided at run time: truncating on ints, true division otherwise.
			return atom(t.helper("_rdiv")+"("+l.code+", "+r.code+")", "?")
		}
		if integral {
			return atom(t.helper("_idiv")+"("+l.code+", "+r.code+")", ty)
		}
		return mk(paren(l, pMul)+" / "+paren(r, pMul+1), ty, pMul)
	case "%":
		if l.ty == "?" || r.ty == "?" {
			return atom(t.helper("_rmod")+"("+l.code+", "+r.code+")", "?")
		}
		if integral {
			return atom(t.helper("_imod")+"("+l.code+", "+r.code+")", ty)
		}
		t.useImport("math")
		return atom("math.fmod("+l.code+", "+r.code+")", ty)
	case "<<":
		ty = javasrc.Promote(l.ty, "int")
		return t.wrap(mk(paren(l, pShift)+" << "+paren(r, pShift+1), ty, pShift))
	case ">>":
		ty = javasrc.Promote(l.ty, "int")
		return mk(paren(l, pShift)+" >> "+paren(r, pShift+1), ty, pShift)
	case ">>>":
		ty = javasrc.Promote(l.ty, "int")
		h := "_urs32"
		if ty == "long" {
			h = "_urs64"
		}
		return atom(t.helper(h)+"("+l.code+", "+r.code+")", ty)
	case "&":
		return mk(paren(l, pBand)+" & "+paren(r, pBand+1), ty, pBand)
	case "|":
		return mk(paren(l, pBor)+" | "+paren(r, pBor+1), ty, pBor)
	case "^":
		return mk(paren(l, pBxor)+" ^ "+paren(r, pBxor+1), ty, pBxor)
	}
	unsupported(n, "operator "+op)
	return ex{}
}

func (t *translator) unary(n *node) ex {
	op := t.text(n.f("operator"))
	e := t.expr(n.f("operand"))
	switch op {
	case "!":
		return mk("not "+paren(e, pNot), "boolean", pNot)
	case "-":
		e = t.numeric(e)
		if e.lit && !strings.HasPrefix(e.code, "-") {
			return ex{code: "-" + e.code, ty: e.ty, prec: pUnary, lit: true, ch: -1}
		}
		return t.wrap(mk("-"+paren(e, pUnary), javasrc.Promote(e.ty, "int"), pUnary))
	case "+":
		return t.numeric(e)
	case "~":
		e = t.numeric(e)
		return mk("~"+paren(e, pUnary), javasrc.Promote(e.ty, "int"), pUnary)
	}
	unsupported(n, "unary operator "+op)
	return ex{}
}

// lvalue translates an assignment target.
func (t *translator) lvalue(n *node) ex {
	for n.kind == "parenthesized_expression" {
		n = n.namedKids()[0]
	}
	switch n.kind {
	case "identifier", "array_access":
		return t.expr(n)
	case "field_access":
		if o := n.f("object"); o.kind == "this" {
			unsupported(n, "this.field")
		}
	}
	unsupported(n, "assignment target "+n.kind)
	return ex{}
}

// castTo converts e to Java type to, as a cast does.
func (t *translator) castTo(e ex, to string) ex {
	from, p := javasrc.Unbox(e.ty), javasrc.Unbox(to)
	switch p {
	case "int", "long", "short", "byte":
		var r ex
		switch {
		case from == "char":
			r = t.ord(e)
		case javasrc.IsFloating(from) && t.opts.WrapOverflow && (p == "int" || p == "long"):
			// Java saturates out-of-range doubles and maps NaN to 0.
			h := "_d2i"
			if p == "long" {
				h = "_d2l"
			}
			return atom(t.helper(h)+"("+e.code+")", p)
		case javasrc.IsFloating(from):
			r = atom("int("+e.code+")", p)
		default:
			r = e
		}
		r.ty = p
		switch {
		case p == "short":
			r = atom(t.helper("_i16")+"("+r.code+")", p)
		case p == "byte":
			r = atom(t.helper("_i8")+"("+r.code+")", p)
		case p == "int" && (from == "long" || javasrc.IsFloating(from)) && t.opts.WrapOverflow:
			r = atom(t.helper("_i32")+"("+r.code+")", p)
		}
		return r
	case "double", "float":
		switch {
		case from == "char":
			return atom("float("+t.ord(e).code+")", p)
		case javasrc.IsFloating(from):
			e.ty = p
			return e
		case e.lit:
			return ex{code: e.code + ".0", ty: p, prec: pAtom, lit: true, ch: -1}
		}
		return atom("float("+e.code+")", p)
	case "char":
		if isChar(from) {
			return e
		}
		if javasrc.IsFloating(from) {
			return atom("chr(int("+e.code+"))", "char")
		}
		if e.lit {
			if v, err := strconv.Atoi(e.code); err == nil && v >= 0 && v < 0x110000 {
				return ex{code: pyStr(string(rune(v)), '\''), ty: "char", prec: pAtom, ch: v}
			}
		}
		return atom("chr("+e.code+")", "char")
	case "boolean":
		return e
	}
	e.ty = to
	return e
}

func (t *translator) cast(n *node) ex {
	to := t.typeOf(n.f("type"), nil)
	return t.castTo(t.expr(n.f("value")), to)
}

func (t *translator) ternary(n *node) ex {
	c := t.expr(n.f("condition"))
	a, b := t.expr(n.f("consequence")), t.expr(n.f("alternative"))
	ty := a.ty
	if a.ty != b.ty {
		switch {
		case a.ty == "null":
			ty = b.ty
		case b.ty == "null" || b.ty == "?":
		case a.ty == "?":
			ty = b.ty
		case isNumeric(a.ty) && isNumeric(b.ty):
			if isChar(a.ty) && b.lit || isChar(b.ty) && a.lit {
				ty = "char"
			} else {
				ty = javasrc.Promote(a.ty, b.ty)
			}
			a, b = t.coerce(a, ty), t.coerce(b, ty)
			if ty == "char" {
				a, b = t.castTo(a, "char"), t.castTo(b, "char")
			}
		}
	}
	return mk(paren(a, pTernary+1)+" if "+paren(c, pTernary+1)+" else "+paren(b, pTernary), ty, pTernary)
}

// updateExpr translates ++/-- used as a value.
func (t *translator) updateExpr(n *node) ex {
	target := n.namedKids()[0]
	prefix := n.kids[0].kind == "++" || n.kids[0].kind == "--"
	delta := "1"
	if strings.Contains(t.text(n), "--") {
		delta = "-1"
	}
	for target.kind == "parenthesized_expression" {
		target = target.namedKids()[0]
	}
	switch target.kind {
	case "identifier":
		v := t.expr(target)
		if isChar(v.ty) {
			d := " + 1"
			if delta == "-1" {
				d = " - 1"
			}
			set := "(" + v.code + " := chr(ord(" + v.code + ")" + d + "))"
			if prefix {
				return atom(set, v.ty)
			}
			undo := " - 1"
			if delta == "-1" {
				undo = " + 1"
			}
			return atom("chr(ord"+set+undo+")", v.ty)
		}
		if !isIntegral(v.ty) && !javasrc.IsFloating(v.ty) {
			unsupported(n, "++/-- on "+v.ty+" inside an expression")
		}
		op := " + 1"
		undo := " - 1"
		if delta == "-1" {
			op, undo = " - 1", " + 1"
		}
		w := t.wrap(mk(v.code+op, v.ty, pAdd))
		set := "(" + v.code + " := " + w.code + ")"
		if prefix {
			return atom(set, v.ty)
		}
		return mk(set+undo, v.ty, pAdd)
	case "array_access":
		a := t.expr(target.f("array"))
		i := t.numeric(t.expr(target.f("index")))
		ety := elemType(a.ty)
		if !isIntegral(ety) && !javasrc.IsFloating(ety) {
			unsupported(n, "++/-- on "+ety+" element inside an expression")
		}
		h := "_postinc"
		if prefix {
			h = "_preinc"
		}
		return atom(t.helper(h)+"("+a.code+", "+i.code+", "+delta+")", ety)
	}
	unsupported(n, "++/-- on "+target.kind)
	return ex{}
}

// compound computes the new value of "target op= right" (with Java's implicit cast).
func (t *translator) compound(n *node, op string, target ex, right *node) ex {
	r := t.expr(right)
	bop := strings.TrimSuffix(op, "=")
	if isString(target.ty) && bop == "+" {
		return mk(target.code+" + "+t.strConv(r), "String", pAdd)
	}
	if isBool(target.ty) {
		p := map[string]int{"&": pBand, "|": pBor, "^": pBxor}[bop]
		return mk(paren(target, p)+" "+bop+" "+paren(r, p+1), "boolean", p)
	}
	v := t.arith(n, bop, target, r)
	if javasrc.Unbox(v.ty) != javasrc.Unbox(target.ty) {
		v = t.castTo(v, target.ty)
	}
	return v
}

// assignExpr translates an assignment used as a value.
func (t *translator) assignExpr(n *node) ex {
	op := t.text(n.f("operator"))
	target := t.lvalue(n.f("left"))
	var v ex
	if op == "=" {
		v = t.coerce(t.expr(n.f("right")), target.ty)
		if n.f("right").kind == "array_initializer" {
			v = atom(t.arrayInit(n.f("right"), target.ty), target.ty)
		}
	} else {
		if hasSideEffect(n.f("left")) {
			unsupported(n, "compound assignment "+op+" to a target with side effects")
		}
		v = t.compound(n, op, target, n.f("right"))
	}
	l := n.f("left")
	for l.kind == "parenthesized_expression" {
		l = l.namedKids()[0]
	}
	switch l.kind {
	case "identifier":
		return atom("("+target.code+" := "+v.code+")", target.ty)
	case "array_access":
		a := t.expr(l.f("array"))
		i := t.numeric(t.expr(l.f("index")))
		return atom(t.helper("_aset")+"("+a.code+", "+i.code+", "+v.code+")", target.ty)
	}
	unsupported(n, "assignment expression")
	return ex{}
}

// exprStmt translates an expression used as a statement.
func (t *translator) exprStmt(e *node) {
	for e.kind == "parenthesized_expression" {
		e = e.namedKids()[0]
	}
	switch e.kind {
	case "assignment_expression":
		t.assignStmt(e)
	case "update_expression":
		target := t.lvalue(e.namedKids()[0])
		op := "+="
		if strings.Contains(t.text(e), "--") {
			op = "-="
		}
		if (isChar(target.ty) || t.opts.WrapOverflow) && hasSideEffect(e.namedKids()[0]) {
			unsupported(e, "++/-- on a target with side effects")
		}
		if isChar(target.ty) {
			d := "+ 1"
			if op == "-=" {
				d = "- 1"
			}
			t.emit("%s = chr(ord(%s) %s)", target.code, target.code, d)
			return
		}
		if t.opts.WrapOverflow && (javasrc.Unbox(target.ty) == "int" || javasrc.Unbox(target.ty) == "long") {
			w := t.wrap(mk(target.code+" "+op[:1]+" 1", target.ty, pAdd))
			t.emit("%s = %s", target.code, w.code)
			return
		}
		t.emit("%s %s 1", target.code, op)
	case "method_invocation":
		t.emit("%s", t.call(e, true).code)
	default:
		t.emit("%s", t.expr(e).code)
	}
}

func (t *translator) assignStmt(e *node) {
	op := t.text(e.f("operator"))
	right := e.f("right")
	for right.kind == "parenthesized_expression" {
		right = right.namedKids()[0]
	}
	target := t.lvalue(e.f("left"))
	if op == "=" {
		if right.kind == "assignment_expression" {
			// a = b = c: assign b first, then a from b.
			t.assignStmt(right)
			inner := t.lvalue(right.f("left"))
			t.emit("%s = %s", target.code, t.coerce(inner, target.ty).code)
			return
		}
		t.emit("%s = %s", target.code, t.exprTo(right, target.ty))
		return
	}
	bop := strings.TrimSuffix(op, "=")
	r := t.expr(right)
	simple := !t.opts.WrapOverflow || bop == "&" || bop == "|" || bop == "^" || bop == ">>"
	if simple && strings.Contains("+ - * & | ^ << >>", bop) && bop != "" {
		switch {
		case isIntegral(target.ty) && (isIntegral(r.ty) || isChar(r.ty)),
			javasrc.IsFloating(target.ty) && isNumeric(r.ty) && bop != "<<" && bop != ">>" && bop != "&" && bop != "|" && bop != "^",
			isBool(target.ty) && isBool(r.ty) && (bop == "&" || bop == "|" || bop == "^"):
			t.emit("%s %s= %s", target.code, bop, t.numeric(r).code)
			return
		case isString(target.ty) && bop == "+":
			t.emit("%s += %s", target.code, t.strConv(r))
			return
		}
	}
	if hasSideEffect(e.f("left")) {
		unsupported(e, "compound assignment "+op+" to a target with side effects")
	}
	v := t.compound(e, op, target, right)
	t.emit("%s = %s", target.code, v.code)
}

func (t *translator) fieldAccess(n *node) ex {
	obj := n.f("object")
	field := t.text(n.f("field"))
	if obj.kind == "identifier" {
		if _, local := t.lookup(t.text(obj)); !local {
			if c, ok := constants[t.text(obj)+"."+field]; ok {
				if strings.HasPrefix(c.code, "math.") {
					t.useImport("math")
				}
				return c
			}
			if t.text(obj) == "System" && (field == "out" || field == "err") {
				return atom("", "PrintStream")
			}
		}
	}
	o := t.expr(obj)
	if collKind(o.ty) == kPair {
		switch field {
		case "first", "key":
			return atom(paren(o, pAtom)+".first", typeArg(o.ty, 0))
		case "second", "value":
			return atom(paren(o, pAtom)+".second", typeArg(o.ty, 1))
		}
	}
	if field == "length" && isArray(o.ty) {
		return atom("len("+o.code+")", "int")
	}
	if field == "length" && o.ty == "?" {
		return atom("len("+o.code+")", "int")
	}
	unsupported(n, "field access ."+field)
	return ex{}
}

var constants = map[string]ex{
	"Integer.MAX_VALUE":        {code: "2147483647", ty: "int", prec: pAtom, lit: true, ch: -1},
	"Integer.MIN_VALUE":        {code: "-2147483648", ty: "int", prec: pUnary, lit: true, ch: -1},
	"Long.MAX_VALUE":           {code: "9223372036854775807", ty: "long", prec: pAtom, lit: true, ch: -1},
	"Long.MIN_VALUE":           {code: "-9223372036854775808", ty: "long", prec: pUnary, lit: true, ch: -1},
	"Short.MAX_VALUE":          {code: "32767", ty: "short", prec: pAtom, lit: true, ch: -1},
	"Short.MIN_VALUE":          {code: "-32768", ty: "short", prec: pUnary, lit: true, ch: -1},
	"Byte.MAX_VALUE":           {code: "127", ty: "byte", prec: pAtom, lit: true, ch: -1},
	"Byte.MIN_VALUE":           {code: "-128", ty: "byte", prec: pUnary, lit: true, ch: -1},
	"Character.MAX_VALUE":      {code: `'\uffff'`, ty: "char", prec: pAtom, ch: 0xffff},
	"Character.MIN_VALUE":      {code: `'\x00'`, ty: "char", prec: pAtom, ch: 0},
	"Double.MAX_VALUE":         {code: "1.7976931348623157e308", ty: "double", prec: pAtom, lit: true, ch: -1},
	"Double.MIN_VALUE":         {code: "5e-324", ty: "double", prec: pAtom, lit: true, ch: -1},
	"Float.MAX_VALUE":          {code: "3.4028234663852886e38", ty: "float", prec: pAtom, lit: true, ch: -1},
	"Float.MIN_VALUE":          {code: "1.401298464324817e-45", ty: "float", prec: pAtom, lit: true, ch: -1},
	"Double.POSITIVE_INFINITY": {code: "math.inf", ty: "double", prec: pAtom, ch: -1},
	"Double.NEGATIVE_INFINITY": {code: "-math.inf", ty: "double", prec: pUnary, ch: -1},
	"Float.POSITIVE_INFINITY":  {code: "math.inf", ty: "float", prec: pAtom, ch: -1},
	"Float.NEGATIVE_INFINITY":  {code: "-math.inf", ty: "float", prec: pUnary, ch: -1},
	"Double.NaN":               {code: "math.nan", ty: "double", prec: pAtom, ch: -1},
	"Math.PI":                  {code: "math.pi", ty: "double", prec: pAtom, ch: -1},
	"Math.E":                   {code: "math.e", ty: "double", prec: pAtom, ch: -1},
}

// newArray translates array creation: new T[n][m], new T[]{...}.
func (t *translator) newArray(n *node) ex {
	elem := t.typeOf(n.f("type"), nil)
	var dims []*node
	extra := 0
	for _, k := range n.kids {
		switch k.kind {
		case "dimensions_expr":
			dims = append(dims, k.namedKids()[0])
		case "dimensions":
			extra += strings.Count(t.text(k), "[")
		}
	}
	ty := elem + strings.Repeat("[]", len(dims)+extra)
	if v := n.f("value"); v != nil {
		return atom(t.arrayInit(v, ty), ty)
	}
	dflt := defaultValue(elem)
	if extra > 0 {
		dflt = "None"
	}
	if len(dims) > 1 {
		for _, d := range dims {
			if hasSideEffect(d) {
				// Java evaluates every dimension once, left to right, before allocating.
				parts := []string{dflt}
				for _, d := range dims {
					parts = append(parts, t.numeric(t.expr(d)).code)
				}
				return atom(t.helper("_newarr")+"("+strings.Join(parts, ", ")+")", ty)
			}
		}
	}
	return atom(t.dimsCode(dims, dflt, 0), ty)
}

// hasSideEffect tells whether evaluating n may assign or call.
func hasSideEffect(n *node) bool {
	switch n.kind {
	case "update_expression", "assignment_expression", "method_invocation", "object_creation_expression":
		return true
	}
	for _, k := range n.kids {
		if hasSideEffect(k) {
			return true
		}
	}
	return false
}

func (t *translator) dimsCode(dims []*node, dflt string, depth int) string {
	d := t.numeric(t.expr(dims[0]))
	if len(dims) == 1 {
		return "[" + dflt + "] * " + paren(d, pMul+1)
	}
	v := "_"
	if depth > 0 {
		v = fmt.Sprintf("_%d", depth)
	}
	return "[" + t.dimsCode(dims[1:], dflt, depth+1) + " for " + v + " in range(" + d.code + ")]"
}

// arrayInit translates {a, b, c} for an array of type ty.
func (t *translator) arrayInit(n *node, ty string) string {
	et := elemType(ty)
	var parts []string
	for _, k := range n.namedKids() {
		if k.kind == "array_initializer" {
			parts = append(parts, t.arrayInit(k, et))
		} else {
			parts = append(parts, t.coerce(t.expr(k), et).code)
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
