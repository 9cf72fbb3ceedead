package java2cpp

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"transmute/transforms/transpile/javasrc"
)

// eCall is the rule for method_invocation: user methods, static library methods (Math,
// Integer, Character, String, Arrays, System.out) and instance methods of strings,
// builders and collections.
func (t *tr) eCall(n *sitter.Node) ex {
	name := t.text(n.ChildByFieldName("name"))
	objN := n.ChildByFieldName("object")
	argN := n.ChildByFieldName("arguments")
	if objN == nil {
		return t.userCall(n, name, argN)
	}
	if e, ok := t.streamCall(n, name, objN); ok {
		return e
	}
	objText := strings.Join(strings.Fields(t.text(objN)), "")
	if objN.Kind() == "identifier" && t.lookup(objText) == nil || objText == "System.out" {
		return t.staticCall(n, objText, name, argN)
	}
	obj := t.expr(objN)
	args := t.args(argN)
	switch {
	case isString(obj.t) || isBuilder(obj.t):
		return t.stringCall(n, obj, name, args)
	case isArray(obj.t):
		if name == "clone" && len(args) == 0 {
			if v := t.lookupExpr(objN); v != nil && v.ptr {
				t.fail(n, "clone of an array parameter")
			}
			return ex{t.ctype(obj.t, n) + "(" + obj.c + ")", obj.t}
		}
	case isNumeric(obj.t) || javasrc.Unbox(obj.t) == "boolean":
		switch name {
		case "toString":
			return ex{t.str(obj), "String"}
		case "intValue":
			return ex{"((int)" + obj.c + ")", "int"}
		case "longValue":
			return ex{"((long long)" + obj.c + ")", "long"}
		case "doubleValue":
			return ex{"((double)" + obj.c + ")", "double"}
		case "equals":
			return ex{"(" + obj.c + " == " + args[0].c + ")", "boolean"}
		}
	case kindOf(obj.t) != kNone:
		return t.collCall(n, obj, name, args)
	}
	t.fail(n, "method "+obj.t+"."+name)
	return ex{}
}

func (t *tr) userCall(n *sitter.Node, name string, argN *sitter.Node) ex {
	args := t.args(argN)
	var m *method
	for _, c := range t.methods[name] {
		if len(c.params) == len(args) {
			if m != nil {
				t.fail(n, "call of overloaded method "+name)
			}
			m = c
		}
	}
	if m == nil && (name == "max" || name == "min") && len(args) == 2 && isNumeric(args[0].t) && isNumeric(args[1].t) {
		// the usual helper of GeeksforGeeks classes, left out of the snippet
		pt := javasrc.Promote(args[0].t, args[1].t)
		return ex{"std::" + name + "<" + t.ctype(pt, n) + ">(" + stripParens(args[0].c) + ", " + stripParens(args[1].c) + ")", pt}
	}
	if m == nil {
		t.fail(n, "call of unknown method "+name)
	}
	var parts []string
	for i, a := range args {
		p := m.params[i]
		an := argN.NamedChild(uint(i))
		src := t.lookupExpr(an)
		switch {
		case p.ptr && isArray(a.t):
			if elem(a.t) == "boolean" && (src == nil || !src.ptr) {
				t.fail(an, "boolean[] passed to an array parameter (std::vector<bool> has no data())")
			}
			if src != nil && src.ptr {
				parts = append(parts, a.c)
			} else {
				parts = append(parts, a.c+".data()")
			}
		case isArray(p.jt) && src != nil && src.ptr:
			t.fail(an, "array parameter passed where a vector is needed")
		case isArray(p.jt) && a.t == "{}":
			parts = append(parts, t.ctype(p.jt, n)+a.c)
		case (isArray(p.jt) || kindOf(p.jt) != kNone || isBuilder(p.jt)) && src == nil:
			// a temporary cannot bind to a non-const reference: the callee may only
			// mutate it, which Java would lose as well, so pass a named copy
			t.fail(an, "temporary passed as a reference parameter")
		default:
			parts = append(parts, stripParens(t.assignConv(a, p.jt, an)))
		}
	}
	return ex{m.cname + "(" + strings.Join(parts, ", ") + ")", m.ret}
}

func (t *tr) need(h string) { t.used[h] = true }

func one(t *tr, n *sitter.Node, args []ex, k int, what string) {
	if len(args) != k {
		t.fail(n, what+" with this many arguments")
	}
}

func (t *tr) staticCall(n *sitter.Node, cls, name string, argN *sitter.Node) ex {
	if _, ok := t.methods[name]; ok && cls != "Math" && cls != "System.out" && !strings.Contains(cls, ".") &&
		cls != "Integer" && cls != "Long" && cls != "Character" && cls != "String" && cls != "Arrays" && cls != "Collections" && cls != "Double" {
		// Main.f(x): a call of one of the translated methods through its class name
		return t.userCall(n, name, argN)
	}
	args := t.args(argN)
	q := cls + "." + name
	a := func(i int) string { return stripParens(args[i].c) }
	switch cls {
	case "Math", "StrictMath":
		return t.mathCall(n, name, args)
	case "Integer", "Long":
		jt, ct := "int", "int"
		if cls == "Long" {
			jt, ct = "long", "long long"
		}
		switch name {
		case "max", "min":
			one(t, n, args, 2, q)
			return ex{"std::" + name + "<" + ct + ">(" + a(0) + ", " + a(1) + ")", jt}
		case "sum":
			return ex{"(" + args[0].c + " + " + args[1].c + ")", jt}
		case "compare":
			return ex{"(" + args[0].c + " < " + args[1].c + " ? -1 : (" + args[0].c + " > " + args[1].c + " ? 1 : 0))", "int"}
		case "abs":
			return ex{"std::abs(" + a(0) + ")", jt}
		case "parseInt", "parseLong", "valueOf":
			if isString(args[0].t) {
				fn := "std::stoi("
				if cls == "Long" {
					fn = "std::stoll("
				}
				if len(args) == 2 {
					return ex{fn + a(0) + ", nullptr, " + a(1) + ")", jt}
				}
				return ex{fn + a(0) + ")", jt}
			}
			if name == "valueOf" && isIntegral(args[0].t) {
				box := "Integer"
				if cls == "Long" {
					box = "Long"
				}
				return ex{"((" + ct + ")" + args[0].c + ")", box}
			}
		case "toString":
			if len(args) == 1 {
				return ex{t.str(args[0]), "String"}
			}
		case "bitCount":
			if cls == "Long" {
				return ex{"__builtin_popcountll((unsigned long long)" + args[0].c + ")", "int"}
			}
			return ex{"__builtin_popcount((unsigned int)" + args[0].c + ")", "int"}
		case "toBinaryString":
			t.need("jx_toBinary")
			if cls == "Long" {
				return ex{"jx_toBinary((unsigned long long)" + args[0].c + ")", "String"}
			}
			return ex{"jx_toBinary((unsigned int)" + args[0].c + ")", "String"}
		case "numberOfTrailingZeros":
			if cls == "Long" {
				return ex{"(" + args[0].c + " == 0 ? 64 : __builtin_ctzll(" + a(0) + "))", "int"}
			}
			return ex{"(" + args[0].c + " == 0 ? 32 : __builtin_ctz(" + a(0) + "))", "int"}
		case "numberOfLeadingZeros":
			if cls == "Long" {
				return ex{"(" + args[0].c + " == 0 ? 64 : __builtin_clzll(" + a(0) + "))", "int"}
			}
			return ex{"(" + args[0].c + " == 0 ? 32 : __builtin_clz(" + a(0) + "))", "int"}
		}
	case "Double":
		switch name {
		case "parseDouble", "valueOf":
			if isString(args[0].t) {
				return ex{"std::stod(" + a(0) + ")", "double"}
			}
			return ex{"((double)" + args[0].c + ")", "double"}
		case "max", "min":
			return ex{"std::" + name + "<double>(" + a(0) + ", " + a(1) + ")", "double"}
		case "compare":
			return ex{"(" + args[0].c + " < " + args[1].c + " ? -1 : (" + args[0].c + " > " + args[1].c + " ? 1 : 0))", "int"}
		}
	case "Character":
		t.need("jx_char")
		m := map[string]string{"isDigit": "jx_isDigit", "isUpperCase": "jx_isUpper", "isLowerCase": "jx_isLower",
			"isLetter": "jx_isLetter", "isAlphabetic": "jx_isLetter", "isLetterOrDigit": "jx_isLetterOrDigit",
			"isWhitespace": "jx_isWhitespace", "isSpaceChar": "jx_isWhitespace"}
		if fn, ok := m[name]; ok {
			return ex{fn + "(" + a(0) + ")", "boolean"}
		}
		switch name {
		case "toUpperCase", "toLowerCase":
			fn := "jx_toUpper"
			if name == "toLowerCase" {
				fn = "jx_toLower"
			}
			rt := "char"
			if javasrc.Unbox(args[0].t) != "char" {
				rt = "int"
				return ex{"((int)" + fn + "(" + a(0) + "))", rt}
			}
			return ex{fn + "(" + a(0) + ")", rt}
		case "getNumericValue":
			return ex{"jx_numericValue(" + a(0) + ")", "int"}
		case "valueOf":
			return ex{args[0].c, "Character"}
		case "toString":
			return ex{t.str(args[0]), "String"}
		}
	case "String":
		switch name {
		case "valueOf":
			if len(args) == 1 {
				if args[0].t == "char[]" {
					if v := t.lookupExpr(argN.NamedChild(0)); v != nil && v.ptr {
						t.fail(n, "String.valueOf of a char[] parameter")
					}
					return ex{"std::string(" + a(0) + ".begin(), " + a(0) + ".end())", "String"}
				}
				return ex{t.str(args[0]), "String"}
			}
		}
	case "Arrays":
		return t.arraysCall(n, name, args, argN)
	case "Collections":
		if name == "reverseOrder" && len(args) == 0 {
			return ex{"std::greater<>()", "Comparator#reverse"}
		}
		if len(args) >= 1 && kindOf(args[0].t) == kList && t.lookupExpr(argN.NamedChild(0)) != nil {
			l := stripParens(args[0].c)
			switch {
			case name == "sort" && len(args) == 1:
				return ex{"std::sort(" + l + ".begin(), " + l + ".end())", "void"}
			case name == "sort" && len(args) == 2 && args[1].t == "Comparator#reverse":
				return ex{"std::sort(" + l + ".begin(), " + l + ".end(), std::greater<>())", "void"}
			case name == "reverse" && len(args) == 1:
				return ex{"std::reverse(" + l + ".begin(), " + l + ".end())", "void"}
			case (name == "max" || name == "min") && len(args) == 1:
				return ex{"*std::" + name + "_element(" + l + ".begin(), " + l + ".end())", typeArg(args[0].t, 0)}
			}
		}
	case "System.out":
		if name == "println" || name == "print" {
			s := ""
			if len(args) == 1 {
				s = " << " + t.str(args[0])
			}
			if name == "println" {
				s += ` << "\n"`
			}
			return ex{"(std::cout" + s + ")", "void"}
		}
	}
	t.fail(n, "method "+q)
	return ex{}
}

func (t *tr) mathCall(n *sitter.Node, name string, args []ex) ex {
	a := func(i int) string { return stripParens(args[i].c) }
	d := func(i int) string {
		if javasrc.IsFloating(args[i].t) {
			return a(i)
		}
		return "(double)" + args[i].c
	}
	for _, e := range args {
		if !isNumeric(e.t) {
			t.fail(n, "Math."+name+" of "+e.t)
		}
	}
	switch name {
	case "max", "min":
		one(t, n, args, 2, "Math."+name)
		pt := javasrc.Promote(args[0].t, args[1].t)
		return ex{"std::" + name + "<" + t.ctype(pt, n) + ">(" + a(0) + ", " + a(1) + ")", pt}
	case "abs":
		one(t, n, args, 1, "Math.abs")
		pt := unaryPromote(args[0].t)
		if pt == "int" && javasrc.Unbox(args[0].t) != "int" {
			return ex{"std::abs((int)" + args[0].c + ")", pt}
		}
		return ex{"std::abs(" + a(0) + ")", pt}
	case "sqrt", "cbrt", "log", "log10", "exp", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "floor", "ceil", "log1p", "expm1", "rint":
		one(t, n, args, 1, "Math."+name)
		fn := name
		if name == "rint" {
			fn = "nearbyint"
		}
		return ex{"std::" + fn + "(" + d(0) + ")", "double"}
	case "pow", "atan2", "hypot":
		one(t, n, args, 2, "Math."+name)
		return ex{"std::" + name + "(" + d(0) + ", " + d(1) + ")", "double"}
	case "toRadians":
		return ex{"(" + d(0) + " * M_PI / 180)", "double"}
	case "toDegrees":
		return ex{"(" + d(0) + " * 180 / M_PI)", "double"}
	case "round":
		t.need("jx_round")
		if javasrc.Unbox(args[0].t) == "float" {
			return ex{"jx_round(" + a(0) + ")", "int"}
		}
		return ex{"jx_round(" + d(0) + ")", "long"}
	case "signum":
		return ex{"(double)((" + args[0].c + " > 0) - (" + args[0].c + " < 0))", javasrc.Unbox(args[0].t)}
	case "floorDiv", "floorMod":
		t.need("jx_floorDiv")
		pt := javasrc.Promote(args[0].t, args[1].t)
		fn := "jx_floorDiv"
		if name == "floorMod" {
			fn = "jx_floorMod"
		}
		return ex{fn + "<" + t.ctype(pt, n) + ">(" + a(0) + ", " + a(1) + ")", pt}
	}
	t.fail(n, "method Math."+name)
	return ex{}
}

// rangeOf returns begin/end iterators of a local array or collection, failing for pointer
// parameters whose length is unknown.
func (t *tr) rangeOf(n *sitter.Node, e ex, an *sitter.Node) (string, string) {
	if v := t.lookupExpr(an); v != nil && v.ptr {
		l := t.lenOf(v, n)
		return v.cname, v.cname + " + " + l
	}
	c := stripParens(e.c)
	return c + ".begin()", c + ".end()"
}

// ptrOf returns a pointer to the first element of an array expression.
func (t *tr) ptrOf(e ex, an *sitter.Node) string {
	if v := t.lookupExpr(an); v != nil && v.ptr {
		return v.cname
	}
	return e.c + ".data()"
}

func (t *tr) arraysCall(n *sitter.Node, name string, args []ex, argN *sitter.Node) ex {
	if len(args) == 0 || !isArray(args[0].t) {
		t.fail(n, "method Arrays."+name)
	}
	an := argN.NamedChild(0)
	a := args[0]
	rev := func(e ex) bool { return e.t == "Comparator#reverse" }
	switch name {
	case "sort":
		switch len(args) {
		case 1:
			b, e := t.rangeOf(n, a, an)
			return ex{"std::sort(" + b + ", " + e + ")", "void"}
		case 3:
			p := t.ptrOf(a, an)
			return ex{"std::sort(" + p + " + " + args[1].c + ", " + p + " + " + args[2].c + ")", "void"}
		}
	case "fill":
		switch len(args) {
		case 2:
			b, e := t.rangeOf(n, a, an)
			return ex{"std::fill(" + b + ", " + e + ", " + t.narrow(args[1], elem(a.t)) + ")", "void"}
		case 4:
			p := t.ptrOf(a, an)
			return ex{"std::fill(" + p + " + " + args[1].c + ", " + p + " + " + args[2].c + ", " + t.narrow(args[3], elem(a.t)) + ")", "void"}
		}
	case "copyOfRange":
		if len(args) == 3 {
			t.need("jx_copyRange")
			return ex{"jx_copyRange(" + stripParens(a.c) + ", " + stripParens(args[1].c) + ", " + stripParens(args[2].c) + ")", a.t}
		}
	case "copyOf":
		if len(args) == 2 {
			t.need("jx_copyRange")
			if v := t.lookupExpr(an); v != nil && v.ptr {
				t.fail(n, "Arrays.copyOf of an array parameter")
			}
			return ex{"jx_copyRange(" + stripParens(a.c) + ", 0, " + stripParens(args[1].c) + ")", a.t}
		}
	case "toString", "equals", "asList", "stream":
	}
	if name == "sort" && len(args) == 2 && rev(args[1]) {
		b, e := t.rangeOf(n, a, an)
		return ex{"std::sort(" + b + ", " + e + ", std::greater<" + t.ctype(elem(a.t), n) + ">())", "void"}
	}
	t.fail(n, "method Arrays."+name)
	return ex{}
}

func (t *tr) stringCall(n *sitter.Node, s ex, name string, args []ex) ex {
	c := s.c
	a := func(i int) string { return stripParens(args[i].c) }
	builder := isBuilder(s.t)
	switch name {
	case "length":
		return ex{"(int)" + c + ".length()", "int"}
	case "charAt":
		return ex{c + "[" + a(0) + "]", "char"}
	case "isEmpty":
		return ex{c + ".empty()", "boolean"}
	case "substring", "subSequence":
		t.need("jx_substr")
		if len(args) == 1 {
			return ex{"jx_substr(" + stripParens(c) + ", " + a(0) + ")", "String"}
		}
		return ex{"jx_substr(" + stripParens(c) + ", " + a(0) + ", " + a(1) + ")", "String"}
	case "indexOf":
		t.need("jx_indexOf")
		if len(args) == 2 {
			return ex{"jx_indexOf(" + stripParens(c) + ", " + a(0) + ", " + a(1) + ")", "int"}
		}
		return ex{"jx_indexOf(" + stripParens(c) + ", " + t.charArg(args[0]) + ")", "int"}
	case "lastIndexOf":
		t.need("jx_lastIndexOf")
		return ex{"jx_lastIndexOf(" + stripParens(c) + ", " + t.charArg(args[0]) + ")", "int"}
	case "contains":
		t.need("jx_indexOf")
		return ex{"(jx_indexOf(" + stripParens(c) + ", " + a(0) + ") >= 0)", "boolean"}
	case "equals":
		return ex{"(" + c + " == " + t.str(args[0]) + ")", "boolean"}
	case "compareTo":
		t.need("jx_compare")
		return ex{"jx_compare(" + stripParens(c) + ", " + a(0) + ")", "int"}
	case "startsWith":
		return ex{"(" + c + ".rfind(" + a(0) + ", 0) == 0)", "boolean"}
	case "endsWith":
		return ex{"(" + c + ".size() >= " + args[0].c + ".size() && " + c + ".compare(" + c + ".size() - " + args[0].c + ".size(), std::string::npos, " + a(0) + ") == 0)", "boolean"}
	case "toCharArray":
		return ex{"std::vector<char>(" + c + ".begin(), " + c + ".end())", "char[]"}
	case "toUpperCase", "toLowerCase":
		t.need("jx_strcase")
		fn := "jx_upper"
		if name == "toLowerCase" {
			fn = "jx_lower"
		}
		return ex{fn + "(" + stripParens(c) + ")", "String"}
	case "trim":
		t.need("jx_trim")
		return ex{"jx_trim(" + stripParens(c) + ")", "String"}
	case "concat":
		return ex{"(" + c + " + " + args[0].c + ")", "String"}
	case "replace":
		t.need("jx_replace")
		return ex{"jx_replace(" + stripParens(c) + ", " + a(0) + ", " + a(1) + ")", "String"}
	case "toString":
		return ex{"std::string(" + stripParens(c) + ")", "String"}
	case "split":
		// only a literal delimiter without regex metacharacters
		if len(args) == 1 && n.ChildByFieldName("arguments").NamedChild(0).Kind() == "string_literal" {
			lit := t.text(n.ChildByFieldName("arguments").NamedChild(0))
			if !strings.ContainsAny(lit[1:len(lit)-1], `.$|()[]{}^?*+\`) && len(lit) > 2 {
				t.need("jx_split")
				return ex{"jx_split(" + stripParens(c) + ", " + a(0) + ")", "String[]"}
			}
		}
		t.fail(n, "String.split with a regular expression")
	case "hashCode", "matches", "replaceAll", "chars", "intern", "format":
		t.fail(n, "method String."+name)
	}
	if builder {
		switch name {
		case "append":
			t.need("jx_append")
			return ex{"jx_append(" + stripParens(c) + ", " + a(0) + ")", s.t}
		case "reverse":
			t.need("jx_reverse")
			return ex{"jx_reverse(" + stripParens(c) + ")", s.t}
		case "setCharAt":
			return ex{"(" + c + "[" + a(0) + "] = " + a(1) + ")", "void"}
		case "deleteCharAt":
			return ex{c + ".erase(" + a(0) + ", 1)", s.t}
		case "insert":
			t.need("jx_str")
			return ex{c + ".insert(" + a(0) + ", " + t.str(args[1]) + ")", s.t}
		case "setLength":
			return ex{c + ".resize(" + a(0) + ")", "void"}
		}
	}
	t.fail(n, "method "+s.t+"."+name)
	return ex{}
}

// charArg passes a char or string argument of indexOf.
func (t *tr) charArg(e ex) string {
	if isIntegral(e.t) && javasrc.Unbox(e.t) != "char" {
		return "(char)" + e.c
	}
	return stripParens(e.c)
}

func (t *tr) collCall(n *sitter.Node, o ex, name string, args []ex) ex {
	c := o.c
	k := kindOf(o.t)
	a := func(i int) string { return stripParens(args[i].c) }
	e0 := typeArg(strings.TrimSuffix(o.t, "#max"), 0)
	e1 := typeArg(o.t, 1)
	switch name {
	case "size":
		return ex{"(int)" + c + ".size()", "int"}
	case "isEmpty", "empty":
		return ex{c + ".empty()", "boolean"}
	case "clear":
		if k == kPQ {
			return ex{c + " = {}", "void"}
		}
		return ex{c + ".clear()", "void"}
	}
	switch k {
	case kMap:
		switch name {
		case "put":
			if len(args) == 2 {
				return ex{c + "[" + a(0) + "] = " + a(1), "void"}
			}
		case "get":
			t.need("jx_get")
			return ex{"jx_get(" + stripParens(c) + ", " + a(0) + ")", e1}
		case "getOrDefault":
			t.need("jx_get")
			return ex{"jx_getOrDefault(" + stripParens(c) + ", " + a(0) + ", " + a(1) + ")", e1}
		case "containsKey":
			return ex{"(" + c + ".count(" + a(0) + ") > 0)", "boolean"}
		case "remove":
			return ex{c + ".erase(" + a(0) + ")", "void"}
		case "firstKey":
			return ex{c + ".begin()->first", e0}
		case "lastKey":
			return ex{c + ".rbegin()->first", e0}
		case "keySet":
			t.need("jx_keys")
			return ex{"jx_keys(" + stripParens(c) + ")", "Set<" + e0 + ">"}
		case "values":
			t.need("jx_keys")
			return ex{"jx_values(" + stripParens(c) + ")", "List<" + e1 + ">"}
		case "putIfAbsent":
			return ex{c + ".emplace(" + a(0) + ", " + a(1) + ")", "void"}
		}
	case kSet:
		switch name {
		case "add":
			return ex{c + ".insert(" + a(0) + ").second", "boolean"}
		case "contains":
			return ex{"(" + c + ".count(" + a(0) + ") > 0)", "boolean"}
		case "remove":
			return ex{"(" + c + ".erase(" + a(0) + ") > 0)", "boolean"}
		case "first":
			return ex{"*" + c + ".begin()", e0}
		case "last":
			return ex{"*" + c + ".rbegin()", e0}
		}
	case kList:
		switch name {
		case "add":
			if len(args) == 1 {
				return ex{c + ".push_back(" + a(0) + ")", "void"}
			}
			return ex{c + ".insert(" + c + ".begin() + " + a(0) + ", " + a(1) + ")", "void"}
		case "get":
			return ex{c + "[" + a(0) + "]", e0}
		case "remove":
			if len(args) == 1 && javasrc.Unbox(args[0].t) == "int" && args[0].t != "Integer" {
				t.need("jx_removeAt")
				return ex{"jx_removeAt(" + stripParens(c) + ", " + a(0) + ")", e0}
			}
			if len(args) == 1 {
				t.need("jx_removeAt")
				return ex{"jx_removeValue(" + stripParens(c) + ", " + a(0) + ")", "boolean"}
			}
		case "set":
			return ex{"(" + c + "[" + a(0) + "] = " + a(1) + ")", e0}
		case "contains":
			t.need("jx_contains")
			return ex{"jx_contains(" + stripParens(c) + ", " + a(0) + ")", "boolean"}
		}
	case kStack:
		switch name {
		case "push", "add":
			return ex{c + ".push_back(" + a(0) + ")", "void"}
		case "pop":
			t.need("jx_popBack")
			return ex{"jx_popBack(" + stripParens(c) + ")", e0}
		case "peek", "lastElement":
			return ex{c + ".back()", e0}
		case "get":
			return ex{c + "[" + a(0) + "]", e0}
		}
	case kDeque:
		switch name {
		case "add", "offer", "addLast", "offerLast":
			return ex{c + ".push_back(" + a(0) + ")", "void"}
		case "push", "addFirst", "offerFirst":
			return ex{c + ".push_front(" + a(0) + ")", "void"}
		case "poll", "pop", "remove", "pollFirst", "removeFirst":
			if len(args) == 0 {
				t.need("jx_popFront")
				return ex{"jx_popFront(" + stripParens(c) + ")", e0}
			}
		case "pollLast", "removeLast":
			t.need("jx_popBack")
			return ex{"jx_popBack(" + stripParens(c) + ")", e0}
		case "peek", "peekFirst", "element", "getFirst":
			return ex{c + ".front()", e0}
		case "peekLast", "getLast":
			return ex{c + ".back()", e0}
		case "get":
			return ex{c + "[" + a(0) + "]", e0}
		}
	case kPQ:
		switch name {
		case "add", "offer":
			return ex{c + ".push(" + a(0) + ")", "void"}
		case "poll", "remove":
			if len(args) == 0 {
				t.need("jx_pqPoll")
				return ex{"jx_pqPoll(" + stripParens(c) + ")", e0}
			}
		case "peek", "element":
			return ex{c + ".top()", e0}
		}
	case kEntry:
		switch name {
		case "getKey":
			return ex{c + ".first", e0}
		case "getValue":
			return ex{c + ".second", e1}
		}
	}
	t.fail(n, "method "+o.t+"."+name)
	return ex{}
}

// lenOf infers the length of a one-dimensional array parameter, which a C++ pointer does
// not carry, from the GeeksforGeeks convention of a size parameter named n (or N, size,
// len, length) passed along with the array.
func (t *tr) lenOf(v *vinfo, n *sitter.Node) string {
	for _, name := range []string{"n", "N", "size", "len", "length"} {
		for _, p := range t.cur.params {
			if p.name == name && javasrc.Unbox(p.jt) == "int" {
				if cur := t.lookup(name); cur == p {
					return p.cname
				}
			}
		}
	}
	t.fail(n, "length of an array parameter (a C++ pointer; no size parameter n to infer it from)")
	return ""
}

// streamCall translates Arrays.stream(a).max().getAsInt() and similar reductions.
func (t *tr) streamCall(n *sitter.Node, name string, objN *sitter.Node) (ex, bool) {
	isStream := func(m *sitter.Node) *sitter.Node {
		if m == nil || m.Kind() != "method_invocation" || t.text(m.ChildByFieldName("name")) != "stream" {
			return nil
		}
		o := m.ChildByFieldName("object")
		if o == nil || t.text(o) != "Arrays" || m.ChildByFieldName("arguments").NamedChildCount() != 1 {
			return nil
		}
		return m.ChildByFieldName("arguments").NamedChild(0)
	}
	var arrN *sitter.Node
	fn := ""
	switch name {
	case "getAsInt", "getAsLong", "getAsDouble":
		if objN.Kind() != "method_invocation" {
			return ex{}, false
		}
		inner := t.text(objN.ChildByFieldName("name"))
		if inner != "max" && inner != "min" {
			return ex{}, false
		}
		arrN = isStream(objN.ChildByFieldName("object"))
		fn = inner
	case "sum":
		arrN = isStream(objN)
		fn = "sum"
	}
	if arrN == nil {
		return ex{}, false
	}
	a := t.expr(arrN)
	if !isArray(a.t) || !isNumeric(elem(a.t)) {
		t.fail(n, "stream of "+a.t)
	}
	b, e := t.rangeOf(n, a, arrN)
	et := unaryPromote(elem(a.t))
	if fn == "sum" {
		return ex{"std::accumulate(" + b + ", " + e + ", (" + t.ctype(et, n) + ")0)", et}, true
	}
	return ex{"(" + t.ctype(et, n) + ")*std::" + fn + "_element(" + b + ", " + e + ")", et}, true
}
