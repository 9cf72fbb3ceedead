package java2py

import (
	"strconv"
	"strings"

	"transmute/transforms/transpile/javasrc"
)

// call translates a method invocation; stmt tells that its value is unused, which
// allows statement forms such as "m[k] = v" for Map.put.
func (t *translator) call(n *node, stmt bool) ex {
	name := t.text(n.f("name"))
	var args []*node
	if a := n.f("arguments"); a != nil {
		args = a.namedKids()
	}
	obj := n.f("object")
	if obj == nil {
		return t.userCall(n, name, args)
	}
	objText := strings.Join(strings.Fields(t.text(obj)), "")
	if strings.HasPrefix(objText, "java.") && obj.kind == "field_access" {
		// Fully qualified class: java.util.Arrays.sort(...).
		cls := objText[strings.LastIndexByte(objText, '.')+1:]
		if cls == "arraycopy" {
			cls = "System"
		}
		if e, ok := t.staticCall(n, cls, name, args, stmt); ok {
			return e
		}
	}
	if obj.kind == "identifier" {
		cls := t.text(obj)
		if _, local := t.lookup(cls); !local {
			if e, ok := t.staticCall(n, cls, name, args, stmt); ok {
				return e
			}
			if _, user := t.methods[name]; user && cls == "J2PWrapper__" {
				return t.userCall(n, name, args)
			}
		}
	}
	if obj.kind == "field_access" && t.text(obj) == "System.out" || strings.Join(strings.Fields(t.text(obj)), "") == "System.out" {
		return t.printCall(n, name, args)
	}
	o := t.expr(obj)
	return t.instanceCall(n, o, name, args, stmt)
}

func (t *translator) argExprs(args []*node) []ex {
	out := make([]ex, len(args))
	for i, a := range args {
		out[i] = t.expr(a)
	}
	return out
}

func joinCodes(es []ex) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.code
	}
	return strings.Join(parts, ", ")
}

func (t *translator) userCall(n *node, name string, args []*node) ex {
	ms := t.methods[name]
	var mi *methodInfo
	for _, m := range ms {
		if len(m.params) == len(args) {
			mi = m
		}
	}
	if mi == nil {
		// Common GeeksforGeeks helpers the snippet uses without defining them.
		switch {
		case (name == "min" || name == "max") && len(args) == 2:
			return t.staticCall2(n, "Math", name, args)
		case name == "abs" && len(args) == 1:
			return t.staticCall2(n, "Math", name, args)
		case name == "swap" && len(args) == 3:
			es := t.argExprs(args)
			if isArray(es[0].ty) {
				return atom(t.helper("_swap")+"("+joinCodes(es)+")", "void")
			}
		}
		// Unknown function (defined elsewhere): pass arguments unchanged.
		return atom(pyIdent(name)+"("+joinCodes(t.argExprs(args))+")", "?")
	}
	if mi.name == t.curMethod {
		t.recursive = true
	}
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = t.exprTo(a, mi.params[i])
	}
	return atom(mi.pyName+"("+strings.Join(parts, ", ")+")", mi.ret)
}

func (t *translator) printCall(n *node, name string, args []*node) ex {
	es := t.argExprs(args)
	switch name {
	case "println":
		if len(es) == 0 {
			return atom("print()", "void")
		}
		return atom("print("+t.toStr(es[0])+")", "void")
	case "print":
		return atom("print("+t.toStr(es[0])+", end='')", "void")
	case "printf", "format":
		if len(es) == 0 || !isString(es[0].ty) {
			unsupported(n, "printf without literal format")
		}
		f := strings.ReplaceAll(es[0].code, "%n", `\n`)
		if len(es) == 1 {
			return atom("print("+f+", end='')", "void")
		}
		rest := make([]string, 0, len(es)-1)
		for _, e := range es[1:] {
			rest = append(rest, e.code)
		}
		return atom("print("+f+" % ("+strings.Join(rest, ", ")+",), end='')", "void")
	}
	unsupported(n, "System.out."+name)
	return ex{}
}

// toStr is String.valueOf(e).
func (t *translator) toStr(e ex) string {
	switch {
	case isString(e.ty) || isChar(e.ty):
		return e.code
	case isIntegral(e.ty):
		return "str(" + e.code + ")"
	case javasrc.IsFloating(e.ty):
		return t.helper("_jstrd") + "(" + e.code + ")"
	case strings.HasSuffix(e.ty, "char[]"):
		return "''.join(" + e.code + ")"
	}
	return t.helper("_jstr") + "(" + e.code + ")"
}

func (t *translator) math(fn string, es []ex, ty string) ex {
	t.useImport("math")
	return atom("math."+fn+"("+joinCodes(es)+")", ty)
}

func (t *translator) staticCall2(n *node, cls, name string, args []*node) ex {
	e, _ := t.staticCall(n, cls, name, args, false)
	return e
}

// charMethods are the Character methods that become a method call on the
// character (a one-character str): the call and the Java type of its result.
var charMethods = map[string]struct{ call, ty string }{
	"isDigit":         {".isdigit()", "boolean"},
	"isLetter":        {".isalpha()", "boolean"},
	"isAlphabetic":    {".isalpha()", "boolean"},
	"isLetterOrDigit": {".isalnum()", "boolean"},
	"isUpperCase":     {".isupper()", "boolean"},
	"isLowerCase":     {".islower()", "boolean"},
	"isWhitespace":    {".isspace()", "boolean"},
	"isSpaceChar":     {".isspace()", "boolean"},
	"toUpperCase":     {".upper()", "char"},
	"toLowerCase":     {".lower()", "char"},
}

// staticCall handles Math, Integer, Character, String, Arrays, Collections, ...
func (t *translator) staticCall(n *node, cls, name string, args []*node, stmt bool) (ex, bool) {
	es := t.argExprs(args)
	nums := func() []ex {
		out := make([]ex, len(es))
		for i, e := range es {
			out[i] = t.numeric(e)
		}
		return out
	}
	want := func(k int) {
		if len(es) != k {
			unsupported(n, cls+"."+name+" with "+itoa(len(es))+" arguments")
		}
	}
	switch cls {
	case "Math", "StrictMath":
		switch name {
		case "max", "min":
			want(2)
			a := nums()
			return atom(name+"("+a[0].code+", "+a[1].code+")", javasrc.Promote(a[0].ty, a[1].ty)), true
		case "abs":
			want(1)
			a := nums()
			return atom("abs("+a[0].code+")", javasrc.Promote(a[0].ty, "int")), true
		case "pow", "sqrt", "log", "log10", "exp", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "hypot", "sinh", "cosh", "tanh", "log1p", "expm1":
			return t.math(name, nums(), "double"), true
		case "floor", "ceil":
			want(1)
			t.useImport("math")
			return atom("float(math."+name+"("+nums()[0].code+"))", "double"), true
		case "toRadians":
			return t.math("radians", nums(), "double"), true
		case "toDegrees":
			return t.math("degrees", nums(), "double"), true
		case "cbrt":
			return atom(t.helper("_cbrt")+"("+nums()[0].code+")", "double"), true
		case "round":
			a := nums()
			ty := "long"
			if javasrc.Unbox(a[0].ty) == "float" {
				ty = "int"
			}
			return atom(t.helper("_jround")+"("+a[0].code+")", ty), true
		case "signum":
			return atom(t.helper("_signum")+"("+nums()[0].code+")", "double"), true
		case "floorDiv":
			a := nums()
			return mk(paren(a[0], pMul)+" // "+paren(a[1], pMul+1), javasrc.Promote(a[0].ty, a[1].ty), pMul), true
		case "floorMod":
			a := nums()
			return mk(paren(a[0], pMul)+" % "+paren(a[1], pMul+1), javasrc.Promote(a[0].ty, a[1].ty), pMul), true
		}
	case "Integer", "Long", "Short", "Byte":
		ty := map[string]string{"Integer": "int", "Long": "long", "Short": "short", "Byte": "byte"}[cls]
		bits := "32"
		if ty == "long" {
			bits = "64"
		}
		switch name {
		case "max", "min":
			want(2)
			a := nums()
			return atom(name+"("+a[0].code+", "+a[1].code+")", ty), true
		case "sum":
			a := nums()
			return mk(paren(a[0], pAdd)+" + "+paren(a[1], pAdd+1), ty, pAdd), true
		case "parseInt", "parseLong", "valueOf":
			if len(es) == 1 && isString(es[0].ty) {
				return atom("int("+es[0].code+")", ty), true
			}
			if len(es) == 2 && isString(es[0].ty) {
				return atom("int("+es[0].code+", "+nums()[1].code+")", ty), true
			}
			if len(es) == 1 {
				e := t.numeric(es[0])
				e.ty = cls
				return e, true
			}
		case "toString":
			if len(es) == 1 {
				return atom("str("+nums()[0].code+")", "String"), true
			}
		case "bitCount":
			return atom(t.helper("_bitcount"+bits)+"("+nums()[0].code+")", "int"), true
		case "toBinaryString":
			return atom(t.helper("_tobin"+bits)+"("+nums()[0].code+")", "String"), true
		case "compare":
			a := nums()
			return atom(t.helper("_jcompare")+"("+a[0].code+", "+a[1].code+")", "int"), true
		case "signum":
			a := nums()
			return atom(t.helper("_jcompare")+"("+a[0].code+", 0)", "int"), true
		case "abs":
			return atom("abs("+nums()[0].code+")", ty), true
		}
	case "Double", "Float":
		switch name {
		case "parseDouble", "parseFloat", "valueOf":
			return atom("float("+t.numeric(es[0]).code+")", "double"), true
		case "compare":
			a := nums()
			return atom(t.helper("_jcompare")+"("+a[0].code+", "+a[1].code+")", "int"), true
		case "max", "min":
			a := nums()
			return atom(name+"("+a[0].code+", "+a[1].code+")", "double"), true
		case "isNaN":
			t.useImport("math")
			return atom("math.isnan("+es[0].code+")", "boolean"), true
		}
	case "Character":
		if len(es) == 1 {
			c := es[0]
			if isIntegral(c.ty) {
				c = atom("chr("+c.code+")", "char")
			}
			if m, ok := charMethods[name]; ok {
				return atom(paren(c, pAtom)+m.call, m.ty), true
			}
			switch name {
			case "getNumericValue":
				return atom(t.helper("_numval")+"("+c.code+")", "int"), true
			case "toString", "valueOf":
				return atom(c.code, "String"), true
			}
		}
	case "String":
		switch name {
		case "valueOf", "copyValueOf":
			if len(es) == 1 {
				return atom(t.toStr(es[0]), "String"), true
			}
		case "format":
			if len(es) >= 1 && isString(es[0].ty) {
				f := strings.ReplaceAll(es[0].code, "%n", `\n`)
				if len(es) == 1 {
					return atom(f, "String"), true
				}
				return mk(f+" % ("+joinCodes(es[1:])+",)", "String", pMul), true
			}
		case "join":
			if len(es) == 2 {
				return atom(es[0].code+".join("+es[1].code+")", "String"), true
			}
		}
	case "Arrays":
		return t.arraysCall(n, name, es, stmt)
	case "System":
		if name == "arraycopy" && len(es) == 5 && stmt {
			return atom(paren(es[2], pAtom)+"["+es[3].code+":"+paren(es[3], pAdd)+" + "+paren(es[4], pAdd+1)+"] = "+
				paren(es[0], pAtom)+"["+es[1].code+":"+paren(es[1], pAdd)+" + "+paren(es[4], pAdd+1)+"]", "void"), true
		}
	case "Collections":
		switch name {
		case "reverseOrder":
			if len(es) == 0 {
				return atom("None", "Comparator"), true
			}
		case "sort":
			if len(es) == 1 {
				return atom(paren(es[0], pAtom)+".sort()", "void"), true
			}
			if len(es) == 2 && strings.Contains(t.text(args[1]), "reverseOrder") {
				return atom(paren(es[0], pAtom)+".sort(reverse=True)", "void"), true
			}
		case "reverse":
			return atom(paren(es[0], pAtom)+".reverse()", "void"), true
		case "max", "min":
			if len(es) == 1 {
				return atom(name+"("+es[0].code+")", t.elemOf(es[0].ty)), true
			}
		case "swap":
			return atom(t.helper("_swap")+"("+joinCodes(es)+")", "void"), true
		case "frequency":
			return atom(paren(es[0], pAtom)+".count("+es[1].code+")", "int"), true
		}
	default:
		return ex{}, false
	}
	unsupported(n, cls+"."+name)
	return ex{}, false
}

func itoa(i int) string { return strconv.Itoa(i) }

// elemOf is the element type of an array or collection type.
func (t *translator) elemOf(ty string) string {
	if isArray(ty) {
		return elemType(ty)
	}
	if a := typeArgs(ty); len(a) > 0 {
		return a[0]
	}
	return "?"
}

func (t *translator) arraysCall(n *node, name string, es []ex, stmt bool) (ex, bool) {
	switch name {
	case "sort":
		a := paren(es[0], pAtom)
		switch len(es) {
		case 1:
			return atom(a+".sort()", "void"), true
		case 2:
			if strings.Contains(t.text(n.f("arguments").namedKids()[1]), "reverseOrder") {
				return atom(a+".sort(reverse=True)", "void"), true
			}
		case 3:
			if stmt {
				s := es[1].code + ":" + es[2].code
				return atom(a+"["+s+"] = sorted("+a+"["+s+"])", "void"), true
			}
		}
	case "fill":
		switch len(es) {
		case 2:
			v := t.coerce(es[1], t.elemOf(es[0].ty))
			return atom(t.helper("_fill")+"("+es[0].code+", "+v.code+")", "void"), true
		case 4:
			v := t.coerce(es[3], t.elemOf(es[0].ty))
			return atom(t.helper("_fill")+"("+es[0].code+", "+v.code+", "+es[1].code+", "+es[2].code+")", "void"), true
		}
	case "asList":
		if len(es) == 1 && isArray(es[0].ty) {
			return atom("list("+es[0].code+")", "List<"+elemType(es[0].ty)+">"), true
		}
		ty := "?"
		if len(es) > 0 {
			ty = es[0].ty
		}
		return atom("["+joinCodes(es)+"]", "List<"+ty+">"), true
	case "copyOf":
		return atom(t.helper("_copyof")+"("+es[0].code+", "+es[1].code+", "+defaultValue(elemType(es[0].ty))+")", es[0].ty), true
	case "copyOfRange":
		return atom(paren(es[0], pAtom)+"["+es[1].code+":"+es[2].code+"]", es[0].ty), true
	case "equals":
		return mk(paren(es[0], pCmp+1)+" == "+paren(es[1], pCmp+1), "boolean", pCmp), true
	case "stream":
		if len(es) == 1 {
			return atom(es[0].code, "IntStream<"+elemType(es[0].ty)+">"), true
		}
	case "binarySearch":
		if len(es) == 2 {
			return atom(t.helper("_bsearch")+"("+es[0].code+", "+es[1].code+")", "int"), true
		}
	case "toString":
		return atom(t.helper("_arrstr")+"("+es[0].code+")", "String"), true
	}
	unsupported(n, "Arrays."+name)
	return ex{}, false
}

// instanceCall dispatches on the receiver's Java type.
func (t *translator) instanceCall(n *node, o ex, name string, args []*node, stmt bool) ex {
	es := t.argExprs(args)
	r := paren(o, pAtom)
	bad := func() ex {
		unsupported(n, "method "+name+" on "+o.ty)
		return ex{}
	}
	if isString(o.ty) {
		return t.stringCall(n, o, name, es)
	}
	if isArray(o.ty) {
		switch name {
		case "clone":
			return atom("list("+o.code+")", o.ty)
		}
		return bad()
	}
	switch o.ty {
	case "Object", "?":
		switch name {
		case "equals":
			return mk(paren(o, pCmp+1)+" == "+paren(es[0], pCmp+1), "boolean", pCmp)
		case "toString":
			return atom(t.helper("_jstr")+"("+o.code+")", "String")
		}
	}
	if p := javasrc.Unbox(o.ty); p != o.ty {
		switch name {
		case "equals":
			return mk(paren(o, pCmp+1)+" == "+paren(es[0], pCmp+1), "boolean", pCmp)
		case "intValue", "longValue":
			return t.castTo(o, "int")
		case "doubleValue":
			return t.castTo(o, "double")
		case "compareTo":
			return atom(t.helper("_jcompare")+"("+t.numeric(o).code+", "+t.numeric(es[0]).code+")", "int")
		case "charValue", "booleanValue":
			return o
		}
		return bad()
	}
	kind := collKind(o.ty)
	el := typeArg(o.ty, 0)
	switch kind {
	case kSB:
		switch name {
		case "append":
			return atom(r+".append("+t.toStr(es[0])+")", o.ty)
		case "toString":
			return atom(r+".toString()", "String")
		case "length":
			return atom("len("+o.code+".b)", "int")
		case "charAt":
			return atom(r+".b["+t.numeric(es[0]).code+"]", "char")
		case "reverse":
			return atom(r+".reverse()", o.ty)
		case "insert":
			return atom(r+".insert("+t.numeric(es[0]).code+", "+t.toStr(es[1])+")", o.ty)
		case "setCharAt":
			return atom(r+".setCharAt("+t.numeric(es[0]).code+", "+t.coerce(es[1], "char").code+")", "void")
		case "deleteCharAt":
			return atom(r+".deleteCharAt("+t.numeric(es[0]).code+")", o.ty)
		case "indexOf":
			return atom(r+".toString().find("+es[0].code+")", "int")
		case "setLength":
			return atom(r+".setLength("+es[0].code+")", "void")
		}
	case kList, kStack, kDeque:
		switch name {
		case "size":
			return atom("len("+o.code+")", "int")
		case "isEmpty", "empty":
			return mk("len("+o.code+") == 0", "boolean", pCmp)
		case "get":
			return atom(r+"["+t.numeric(es[0]).code+"]", el)
		case "contains":
			return mk(paren(t.coerce(es[0], el), pCmp+1)+" in "+paren(o, pCmp+1), "boolean", pCmp)
		case "clear":
			return atom(r+".clear()", "void")
		case "indexOf":
			return atom(t.helper("_indexof")+"("+o.code+", "+t.coerce(es[0], el).code+")", "int")
		case "set":
			if stmt {
				return atom(r+"["+t.numeric(es[0]).code+"] = "+t.coerce(es[1], el).code, "void")
			}
			return atom(t.helper("_lset")+"("+o.code+", "+t.numeric(es[0]).code+", "+t.coerce(es[1], el).code+")", el)
		case "addAll":
			return atom(r+".extend("+es[0].code+")", "boolean")
		case "subList":
			return atom("list("+r+"["+t.numeric(es[0]).code+":"+t.numeric(es[1]).code+"])", o.ty)
		}
	case kPQ, kPQMax:
		t.useImport("heapq")
		neg, unneg := "", ""
		if kind == kPQMax {
			if !isNumeric(el) {
				unsupported(n, "max PriorityQueue of "+el)
			}
			neg, unneg = "-", "-"
		}
		switch name {
		case "add", "offer":
			if stmt {
				return atom("heapq.heappush("+o.code+", "+neg+paren(t.numeric(t.coerce(es[0], el)), pUnary)+")", "boolean")
			}
		case "poll", "remove":
			if len(es) == 0 {
				return mk(unneg+"heapq.heappop("+o.code+")", el, pUnary)
			}
		case "peek", "element":
			return mk(unneg+r+"[0]", el, pUnary)
		case "size":
			return atom("len("+o.code+")", "int")
		case "isEmpty":
			return mk("len("+o.code+") == 0", "boolean", pCmp)
		case "clear":
			return atom(r+".clear()", "void")
		}
		return bad()
	}
	switch kind {
	case kList:
		switch name {
		case "add":
			if len(es) == 2 {
				return atom(r+".insert("+t.numeric(es[0]).code+", "+t.coerce(es[1], el).code+")", "void")
			}
			if !stmt {
				return atom(t.helper("_ladd")+"("+o.code+", "+t.coerce(es[0], el).code+")", "boolean")
			}
			return atom(r+".append("+t.coerce(es[0], el).code+")", "boolean")
		case "remove":
			if isIntegral(es[0].ty) && javasrc.Unbox(es[0].ty) == es[0].ty || isChar(es[0].ty) && es[0].ty == "char" {
				return atom(r+".pop("+t.numeric(es[0]).code+")", el)
			}
			return atom(r+".remove("+es[0].code+")", "boolean")
		case "sort":
			return atom(r+".sort()", "void")
		}
	case kStack:
		switch name {
		case "push", "add", "addElement":
			if stmt {
				return atom(r+".append("+t.coerce(es[0], el).code+")", el)
			}
			return atom(t.helper("_push")+"("+o.code+", "+t.coerce(es[0], el).code+")", el)
		case "pop":
			return atom(r+".pop()", el)
		case "peek", "lastElement":
			return atom(r+"[-1]", el)
		case "firstElement":
			return atom(r+"[0]", el)
		}
	case kDeque:
		t.useImport("collections")
		switch name {
		case "add", "offer", "addLast", "offerLast":
			if stmt {
				return atom(r+".append("+t.coerce(es[0], el).code+")", "boolean")
			}
		case "push", "addFirst", "offerFirst":
			if stmt {
				return atom(r+".appendleft("+t.coerce(es[0], el).code+")", "void")
			}
		case "poll", "pollFirst":
			return mk(r+".popleft() if "+o.code+" else None", el, pTernary)
		case "remove", "removeFirst", "pop":
			if len(es) == 0 {
				return atom(r+".popleft()", el)
			}
		case "pollLast":
			return mk(r+".pop() if "+o.code+" else None", el, pTernary)
		case "removeLast":
			return atom(r+".pop()", el)
		case "peek", "peekFirst":
			return mk(r+"[0] if "+o.code+" else None", el, pTernary)
		case "element", "getFirst":
			return atom(r+"[0]", el)
		case "peekLast":
			return mk(r+"[-1] if "+o.code+" else None", el, pTernary)
		case "getLast":
			return atom(r+"[-1]", el)
		}
	case kSet, kTSet:
		switch name {
		case "add":
			if stmt {
				return atom(r+".add("+t.coerce(es[0], el).code+")", "boolean")
			}
			return atom(t.helper("_sadd")+"("+o.code+", "+t.coerce(es[0], el).code+")", "boolean")
		case "contains":
			return mk(paren(t.coerce(es[0], el), pCmp+1)+" in "+paren(o, pCmp+1), "boolean", pCmp)
		case "remove":
			if stmt {
				return atom(r+".discard("+es[0].code+")", "boolean")
			}
			return atom(t.helper("_sremove")+"("+o.code+", "+es[0].code+")", "boolean")
		case "size":
			return atom("len("+o.code+")", "int")
		case "isEmpty":
			return mk("len("+o.code+") == 0", "boolean", pCmp)
		case "clear":
			return atom(r+".clear()", "void")
		case "addAll":
			return atom(r+".update("+es[0].code+")", "boolean")
		case "first":
			if kind == kTSet {
				return atom("min("+o.code+")", el)
			}
		case "last":
			if kind == kTSet {
				return atom("max("+o.code+")", el)
			}
		}
	case kMap, kTMap:
		kt, vt := typeArg(o.ty, 0), typeArg(o.ty, 1)
		switch name {
		case "put":
			k, v := t.coerce(es[0], kt).code, t.coerce(es[1], vt).code
			if stmt {
				return atom(r+"["+k+"] = "+v, "void")
			}
			return atom(t.helper("_mput")+"("+o.code+", "+k+", "+v+")", vt)
		case "get":
			return atom(r+".get("+t.coerce(es[0], kt).code+")", vt)
		case "getOrDefault":
			return atom(r+".get("+t.coerce(es[0], kt).code+", "+t.coerce(es[1], vt).code+")", vt)
		case "containsKey":
			return mk(paren(t.coerce(es[0], kt), pCmp+1)+" in "+paren(o, pCmp+1), "boolean", pCmp)
		case "containsValue":
			return mk(paren(t.coerce(es[0], vt), pCmp+1)+" in "+r+".values()", "boolean", pCmp)
		case "remove":
			return atom(r+".pop("+t.coerce(es[0], kt).code+", None)", vt)
		case "size":
			return atom("len("+o.code+")", "int")
		case "isEmpty":
			return mk("len("+o.code+") == 0", "boolean", pCmp)
		case "clear":
			return atom(r+".clear()", "void")
		case "keySet":
			if kind == kTMap {
				return atom("sorted("+o.code+")", "List<"+kt+">")
			}
			return atom("list("+o.code+")", "List<"+kt+">")
		case "values":
			if kind == kTMap {
				return atom("[v for _, v in sorted("+r+".items())]", "List<"+vt+">")
			}
			return atom("list("+r+".values())", "List<"+vt+">")
		case "entrySet":
			if kind == kTMap {
				return atom("sorted("+r+".items())", "List<Map.Entry<"+kt+","+vt+">>")
			}
			return atom("list("+r+".items())", "List<Map.Entry<"+kt+","+vt+">>")
		case "putIfAbsent":
			return atom(r+".setdefault("+t.coerce(es[0], kt).code+", "+t.coerce(es[1], vt).code+")", vt)
		case "firstKey":
			if kind == kTMap {
				return atom("min("+o.code+")", kt)
			}
		case "lastKey":
			if kind == kTMap {
				return atom("max("+o.code+")", kt)
			}
		}
	case kPair:
		switch name {
		case "getKey", "getFirst":
			return atom(r+".first", typeArg(o.ty, 0))
		case "getValue", "getSecond":
			return atom(r+".second", typeArg(o.ty, 1))
		}
	case kEntry:
		switch name {
		case "getKey":
			return atom(r+"[0]", typeArg(o.ty, 0))
		case "getValue":
			return atom(r+"[1]", typeArg(o.ty, 1))
		}
	case kStrm:
		et := typeArg(o.ty, 0)
		switch name {
		case "sum":
			return atom("sum("+o.code+")", javasrc.Promote(et, "int"))
		case "max", "min":
			return atom(name+"("+o.code+")", "OptionalInt<"+et+">")
		case "count":
			return atom("len("+o.code+")", "long")
		}
	case kOpt:
		switch name {
		case "getAsInt", "getAsLong", "getAsDouble", "get", "orElseThrow":
			return atom(o.code, typeArg(o.ty, 0))
		case "orElse":
			if (strings.HasPrefix(o.code, "max(") || strings.HasPrefix(o.code, "min(")) && len(es) == 1 {
				return atom(strings.TrimSuffix(o.code, ")")+", default="+es[0].code+")", typeArg(o.ty, 0))
			}
		}
	}
	return bad()
}

func (t *translator) stringCall(n *node, o ex, name string, es []ex) ex {
	r := paren(o, pAtom)
	arg := func(i int) ex {
		if i >= len(es) {
			unsupported(n, "String."+name+" arity")
		}
		return es[i]
	}
	switch name {
	case "length":
		return atom("len("+o.code+")", "int")
	case "charAt":
		return atom(r+"["+t.numeric(arg(0)).code+"]", "char")
	case "substring", "subSequence":
		if len(es) == 1 {
			return atom(r+"["+t.numeric(es[0]).code+":]", "String")
		}
		return atom(r+"["+t.numeric(arg(0)).code+":"+t.numeric(arg(1)).code+"]", "String")
	case "indexOf", "lastIndexOf":
		fn := "find"
		if name == "lastIndexOf" {
			fn = "rfind"
		}
		a := arg(0)
		if isIntegral(a.ty) {
			a = atom("chr("+a.code+")", "char")
		}
		if len(es) == 2 {
			if fn == "rfind" {
				return atom(r+".rfind("+a.code+", 0, "+paren(t.numeric(es[1]), pAdd)+" + 1)", "int")
			}
			return atom(r+".find("+a.code+", "+t.numeric(es[1]).code+")", "int")
		}
		return atom(r+"."+fn+"("+a.code+")", "int")
	case "equals", "contentEquals":
		return mk(paren(o, pCmp+1)+" == "+paren(arg(0), pCmp+1), "boolean", pCmp)
	case "equalsIgnoreCase":
		return mk(r+".lower() == "+paren(arg(0), pAtom)+".lower()", "boolean", pCmp)
	case "compareTo":
		return atom(t.helper("_jcmp")+"("+o.code+", "+arg(0).code+")", "int")
	case "contains":
		return mk(paren(arg(0), pCmp+1)+" in "+paren(o, pCmp+1), "boolean", pCmp)
	case "startsWith":
		return atom(r+".startswith("+arg(0).code+")", "boolean")
	case "endsWith":
		return atom(r+".endswith("+arg(0).code+")", "boolean")
	case "toUpperCase":
		return atom(r+".upper()", "String")
	case "toLowerCase":
		return atom(r+".lower()", "String")
	case "trim", "strip":
		return atom(r+".strip()", "String")
	case "isEmpty":
		return mk("len("+o.code+") == 0", "boolean", pCmp)
	case "toCharArray":
		return atom("list("+o.code+")", "char[]")
	case "split":
		t.useImport("re")
		return atom(t.helper("_jsplit")+"("+o.code+", "+arg(0).code+")", "String[]")
	case "replace":
		return atom(r+".replace("+arg(0).code+", "+arg(1).code+")", "String")
	case "concat":
		return mk(paren(o, pAdd)+" + "+paren(arg(0), pAdd+1), "String", pAdd)
	case "toString", "intern":
		return o
	case "chars":
		return atom("[ord(_c) for _c in "+o.code+"]", "IntStream<int>")
	case "repeat":
		return mk(paren(o, pMul)+" * "+paren(t.numeric(arg(0)), pMul+1), "String", pMul)
	}
	unsupported(n, "String."+name)
	return ex{}
}

// newObject translates "new C(...)" for library classes.
func (t *translator) newObject(n *node) ex {
	ty := t.typeOf(n.f("type"), nil)
	if n.child("class_body") != nil {
		unsupported(n, "anonymous class")
	}
	var args []*node
	if a := n.f("arguments"); a != nil {
		args = a.namedKids()
	}
	es := t.argExprs(args)
	isColl := len(es) == 1 && (isArray(es[0].ty) || collKind(es[0].ty) != "")
	switch collKind(ty) {
	case kPair:
		if len(es) != 2 {
			unsupported(n, "new Pair with "+itoa(len(es))+" arguments")
		}
		return atom(t.helper("_Pair")+"("+joinCodes(es)+")", ty)
	case kPQ:
		for _, a := range args {
			if !strings.Contains(t.text(a), "reverseOrder") && !(len(args) == 1 && isIntegral(es[0].ty)) {
				unsupported(n, "PriorityQueue with a comparator or collection")
			}
		}
		return atom("[]", ty)
	case kList, kStack:
		if isColl {
			return atom("list("+es[0].code+")", ty)
		}
		return atom("[]", ty)
	case kDeque:
		t.useImport("collections")
		if isColl {
			return atom("collections.deque("+es[0].code+")", ty)
		}
		return atom("collections.deque()", ty)
	case kSet, kTSet:
		if isColl {
			return atom("set("+es[0].code+")", ty)
		}
		return atom("set()", ty)
	case kMap, kTMap:
		if isColl {
			return atom("dict("+es[0].code+")", ty)
		}
		return atom("{}", ty)
	case kSB:
		if len(es) == 1 && (isString(es[0].ty) || isChar(es[0].ty)) {
			if isChar(es[0].ty) {
				// new StringBuilder(char) is a capacity in Java.
				return atom(t.helper("_StringBuilder")+"()", ty)
			}
			return atom(t.helper("_StringBuilder")+"("+es[0].code+")", ty)
		}
		return atom(t.helper("_StringBuilder")+"()", ty)
	}
	switch baseName(ty) {
	case "String":
		switch {
		case len(es) == 0:
			return atom(`""`, "String")
		case len(es) == 1 && isArray(es[0].ty):
			return atom("''.join("+es[0].code+")", "String")
		case len(es) == 1:
			return atom(t.toStr(es[0]), "String")
		case len(es) == 3 && isArray(es[0].ty):
			return atom("''.join("+paren(es[0], pAtom)+"["+es[1].code+":"+paren(es[1], pAdd)+" + "+paren(es[2], pAdd+1)+"])", "String")
		}
	case "Integer", "Long", "Double", "Float", "Short", "Byte", "Character", "Boolean":
		if len(es) == 1 {
			e := es[0]
			if isString(e.ty) {
				if baseName(ty) == "Double" || baseName(ty) == "Float" {
					return atom("float("+e.code+")", ty)
				}
				return atom("int("+e.code+")", ty)
			}
			return t.castTo(e, javasrc.Unbox(ty))
		}
	}
	unsupported(n, "new "+baseName(ty))
	return ex{}
}
