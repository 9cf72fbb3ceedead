package java2go

import (
	"fmt"
	"sort"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// helpers are the Go functions a translation may need, by name.
var helpers = map[string]string{
	"d2i": `func d2i(x float64) int {
	switch {
	case x != x:
		return 0
	case x >= 2147483647:
		return 2147483647
	case x <= -2147483648:
		return -2147483648
	}
	return int(x)
}`,
	"d2l": `func d2l(x float64) int {
	switch {
	case x != x:
		return 0
	case x >= 9223372036854775807:
		return 9223372036854775807
	case x <= -9223372036854775808:
		return -9223372036854775808
	}
	return int(x)
}`,
	"dstr": `func dstr(x float64) string {
	if x == float64(int64(x)) && x < 1e7 && x > -1e7 {
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}`,
	"abs32": `func abs32(x int) int {
	if x < 0 {
		return -x
	}
	return x
}`,
	"abs64": `func abs64(x int) int {
	if x < 0 {
		return -x
	}
	return x
}`,
	"hasKey": `func hasKey[K comparable, V any](m map[K]V, k K) bool {
	_, ok := m[k]
	return ok
}`,
	"getOr": `func getOr[K comparable, V any](m map[K]V, k K, d V) V {
	if v, ok := m[k]; ok {
		return v
	}
	return d
}`,
	"indexOf": `func indexOf[T comparable](s []T, x T) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}`,
}

// helper marks a helper as used and returns its name.
func (t *tr) helper(name string) string {
	if t.used == nil {
		t.used = map[string]bool{}
	}
	t.used[name] = true
	if name == "dstr" {
		t.imports["strconv"] = true
	}
	return name
}

func (t *tr) helperCode() string {
	var names []string
	for n := range t.used {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []string
	for _, n := range names {
		out = append(out, helpers[n])
	}
	return strings.Join(out, "\n\n")
}

func (t *tr) args(n *sitter.Node) ([]ex, []*sitter.Node) {
	a := n.ChildByFieldName("arguments")
	var out []ex
	var nodes []*sitter.Node
	for i := uint(0); i < a.NamedChildCount(); i++ {
		c := a.NamedChild(i)
		out = append(out, t.expr(c))
		nodes = append(nodes, c)
	}
	return out, nodes
}

func (t *tr) call(n *sitter.Node) ex {
	name := t.text(n.ChildByFieldName("name"))
	obj := n.ChildByFieldName("object")
	if obj == nil {
		return t.userCall(n, name)
	}
	if obj.Kind() == "identifier" {
		if _, local := t.lookup(t.text(obj)); !local {
			return t.staticCall(n, t.text(obj), name)
		}
	}
	if obj.Kind() == "field_access" && t.text(obj) == "System.out" {
		t.fail(n, "printing")
	}
	o := t.expr(obj)
	switch {
	case o.jt == "String":
		return t.stringCall(n, o, name)
	case listKind(o.jt) != "":
		return t.collCall(n, o, name)
	}
	t.fail(n, "method "+name+" of "+o.jt)
	return ex{}
}

func (t *tr) userCall(n *sitter.Node, name string) ex {
	m, ok := t.methods[name]
	if !ok {
		t.fail(n, "call of unknown method "+name)
	}
	args, nodes := t.args(n)
	if len(args) != len(m.params) {
		t.fail(n, "call of "+name+" with another arity")
	}
	var cs []string
	for i, a := range args {
		c := t.conv(a, m.params[i], nodes[i])
		if m.entry && m.params[i] == "String" {
			c = "[]byte(" + c + ")"
		}
		cs = append(cs, c)
	}
	return ex{code: goName(name) + "(" + strings.Join(cs, ", ") + ")", jt: m.ret}
}

func (t *tr) one(n *sitter.Node, args []ex, k int) {
	if len(args) != k {
		t.fail(n, fmt.Sprintf("call with %d arguments", len(args)))
	}
}

// mathFloat are Math's functions of doubles that Go's math has under another name.
var mathFloat = map[string]string{"sqrt": "Sqrt", "cbrt": "Cbrt", "floor": "Floor", "ceil": "Ceil", "log": "Log",
	"log10": "Log10", "exp": "Exp", "sin": "Sin", "cos": "Cos", "tan": "Tan", "atan": "Atan", "asin": "Asin",
	"acos": "Acos", "pow": "Pow", "atan2": "Atan2", "hypot": "Hypot", "rint": "RoundToEven", "log1p": "Log1p"}

func (t *tr) staticCall(n *sitter.Node, cls, name string) ex {
	args, nodes := t.args(n)
	switch cls {
	case "Math":
		switch name {
		case "max", "min":
			t.one(n, args, 2)
			pt := promote(args[0].jt, args[1].jt)
			return ex{code: name + "(" + t.conv(args[0], pt, nodes[0]) + ", " + t.conv(args[1], pt, nodes[1]) + ")", jt: pt}
		case "abs":
			t.one(n, args, 1)
			pt := promote(args[0].jt, "int")
			switch pt {
			case "int":
				return ex{code: t.helper("abs32") + "(" + t.conv(args[0], pt, nodes[0]) + ")", jt: pt}
			case "long":
				return ex{code: t.helper("abs64") + "(" + t.conv(args[0], pt, nodes[0]) + ")", jt: pt}
			}
			t.imports["math"] = true
			return ex{code: primGo[pt] + "(math.Abs(float64(" + args[0].code + ")))", jt: pt}
		case "round":
			t.one(n, args, 1)
			t.imports["math"] = true
			return ex{code: t.helper("d2l") + "(math.Floor(float64(" + args[0].code + ") + 0.5))", jt: "long"}
		case "signum":
			t.fail(n, "Math.signum")
		}
		if g, ok := mathFloat[name]; ok {
			t.imports["math"] = true
			var cs []string
			for i, a := range args {
				cs = append(cs, t.conv(a, "double", nodes[i]))
			}
			return ex{code: "math." + g + "(" + strings.Join(cs, ", ") + ")", jt: "double"}
		}
	case "Integer", "Long":
		jt := "int"
		if cls == "Long" {
			jt = "long"
		}
		switch name {
		case "max", "min":
			t.one(n, args, 2)
			return ex{code: name + "(" + t.conv(args[0], jt, nodes[0]) + ", " + t.conv(args[1], jt, nodes[1]) + ")", jt: jt}
		case "parseInt", "parseLong", "valueOf":
			t.one(n, args, 1)
			if args[0].jt == "String" {
				t.fail(n, cls+"."+name+" of a string")
			}
			return ex{code: t.conv(args[0], jt, nodes[0]), jt: jt}
		case "toString":
			t.one(n, args, 1)
			return ex{code: t.str(args[0], n), jt: "String"}
		case "bitCount":
			t.one(n, args, 1)
			t.imports["math/bits"] = true
			if jt == "long" {
				return ex{code: "bits.OnesCount64(uint64(" + t.conv(args[0], jt, nodes[0]) + "))", jt: "int"}
			}
			return ex{code: "bits.OnesCount32(uint32(" + t.conv(args[0], jt, nodes[0]) + "))", jt: "int"}
		}
	case "String":
		if name == "valueOf" {
			t.one(n, args, 1)
			if args[0].jt == "char[]" {
				return ex{code: "string(" + args[0].code + ")", jt: "String"}
			}
			return ex{code: t.str(args[0], n), jt: "String"}
		}
	case "Character":
		t.one(n, args, 1)
		c := "rune(" + t.conv(args[0], "char", nodes[0]) + ")"
		switch name {
		case "isDigit":
			return ex{code: "(" + c + " >= '0' && " + c + " <= '9')", jt: "boolean"}
		case "isLetter", "isAlphabetic":
			t.imports["unicode"] = true
			return ex{code: "unicode.IsLetter(" + c + ")", jt: "boolean"}
		case "isLetterOrDigit":
			t.imports["unicode"] = true
			return ex{code: "(unicode.IsLetter(" + c + ") || unicode.IsDigit(" + c + "))", jt: "boolean"}
		case "isUpperCase":
			t.imports["unicode"] = true
			return ex{code: "unicode.IsUpper(" + c + ")", jt: "boolean"}
		case "isLowerCase":
			t.imports["unicode"] = true
			return ex{code: "unicode.IsLower(" + c + ")", jt: "boolean"}
		case "isWhitespace", "isSpaceChar":
			t.imports["unicode"] = true
			return ex{code: "unicode.IsSpace(" + c + ")", jt: "boolean"}
		case "toUpperCase":
			t.imports["unicode"] = true
			return ex{code: "byte(unicode.ToUpper(" + c + "))", jt: "char"}
		case "toLowerCase":
			t.imports["unicode"] = true
			return ex{code: "byte(unicode.ToLower(" + c + "))", jt: "char"}
		case "getNumericValue":
			return ex{code: "int(" + c + " - '0')", jt: "int"}
		}
	case "Arrays":
		switch name {
		case "sort":
			if len(args) == 1 && isArray(args[0].jt) && !isArray(elemOf(args[0].jt)) {
				t.imports["slices"] = true
				return ex{code: "slices.Sort(" + args[0].code + ")", jt: "void"}
			}
			if len(args) == 3 && isArray(args[0].jt) && !isArray(elemOf(args[0].jt)) {
				t.imports["slices"] = true
				return ex{code: "slices.Sort(" + args[0].code + "[" + stripParens(args[1].code) + ":" + stripParens(args[2].code) + "])", jt: "void"}
			}
		case "fill":
			if len(args) == 2 && isArray(args[0].jt) {
				v := t.conv(args[1], elemOf(args[0].jt), nodes[1])
				return ex{code: "for i := range " + args[0].code + " {\n" + t.ind(1) + args[0].code + "[i] = " + v + "\n" + t.ind(0) + "}", jt: "void"}
			}
		}
	}
	t.fail(n, cls+"."+name)
	return ex{}
}

func (t *tr) stringCall(n *sitter.Node, s ex, name string) ex {
	args, nodes := t.args(n)
	switch name {
	case "length":
		return ex{code: "len(" + s.code + ")", jt: "int"}
	case "charAt":
		t.one(n, args, 1)
		return ex{code: s.code + "[" + stripParens(args[0].code) + "]", jt: "char"}
	case "substring":
		switch len(args) {
		case 1:
			return ex{code: s.code + "[" + stripParens(args[0].code) + ":]", jt: "String"}
		case 2:
			return ex{code: s.code + "[" + stripParens(args[0].code) + ":" + stripParens(args[1].code) + "]", jt: "String"}
		}
	case "equals":
		t.one(n, args, 1)
		if args[0].jt != "String" {
			t.fail(n, "equals of "+args[0].jt)
		}
		return ex{code: "(" + s.code + " == " + args[0].code + ")", jt: "boolean"}
	case "isEmpty":
		return ex{code: "(len(" + s.code + ") == 0)", jt: "boolean"}
	case "toCharArray":
		return ex{code: "[]byte(" + s.code + ")", jt: "char[]"}
	case "contains":
		t.one(n, args, 1)
		t.imports["strings"] = true
		return ex{code: "strings.Contains(" + s.code + ", " + t.str(args[0], nodes[0]) + ")", jt: "boolean"}
	case "indexOf":
		if len(args) == 1 {
			t.imports["strings"] = true
			return ex{code: "strings.Index(" + s.code + ", " + t.str(args[0], nodes[0]) + ")", jt: "int"}
		}
	case "compareTo":
		t.one(n, args, 1)
		t.imports["strings"] = true
		return ex{code: "strings.Compare(" + s.code + ", " + args[0].code + ")", jt: "int"}
	case "toString", "trim":
		if name == "trim" {
			t.imports["strings"] = true
			return ex{code: "strings.TrimSpace(" + s.code + ")", jt: "String"}
		}
		return s
	case "toUpperCase":
		t.imports["strings"] = true
		return ex{code: "strings.ToUpper(" + s.code + ")", jt: "String"}
	case "toLowerCase":
		t.imports["strings"] = true
		return ex{code: "strings.ToLower(" + s.code + ")", jt: "String"}
	}
	t.fail(n, "String."+name)
	return ex{}
}

// collCall translates the methods of lists, maps and sets used as values.
func (t *tr) collCall(n *sitter.Node, o ex, name string) ex {
	args, nodes := t.args(n)
	_, targs, _ := generic(o.jt)
	switch listKind(o.jt) + "." + name {
	case "list.size", "map.size", "set.size":
		return ex{code: "len(" + o.code + ")", jt: "int"}
	case "list.isEmpty", "map.isEmpty", "set.isEmpty":
		return ex{code: "(len(" + o.code + ") == 0)", jt: "boolean"}
	case "list.get":
		t.one(n, args, 1)
		return ex{code: o.code + "[" + stripParens(args[0].code) + "]", jt: targs[0]}
	case "list.contains":
		t.one(n, args, 1)
		return ex{code: "(" + t.helper("indexOf") + "(" + o.code + ", " + t.conv(args[0], targs[0], nodes[0]) + ") >= 0)", jt: "boolean"}
	case "list.indexOf":
		t.one(n, args, 1)
		return ex{code: t.helper("indexOf") + "(" + o.code + ", " + t.conv(args[0], targs[0], nodes[0]) + ")", jt: "int"}
	case "map.get":
		t.one(n, args, 1)
		return ex{code: o.code + "[" + t.conv(args[0], targs[0], nodes[0]) + "]", jt: targs[1]}
	case "map.containsKey":
		t.one(n, args, 1)
		return ex{code: t.helper("hasKey") + "(" + o.code + ", " + t.conv(args[0], targs[0], nodes[0]) + ")", jt: "boolean"}
	case "map.getOrDefault":
		t.one(n, args, 2)
		return ex{code: t.helper("getOr") + "(" + o.code + ", " + t.conv(args[0], targs[0], nodes[0]) + ", " + t.conv(args[1], targs[1], nodes[1]) + ")", jt: targs[1]}
	case "set.contains":
		t.one(n, args, 1)
		return ex{code: o.code + "[" + t.conv(args[0], targs[0], nodes[0]) + "]", jt: "boolean"}
	}
	t.fail(n, o.jt+"."+name)
	return ex{}
}

// collStmt translates the methods that change a collection, used as statements.
func (t *tr) collStmt(n *sitter.Node) (string, bool) {
	obj := n.ChildByFieldName("object")
	if obj == nil || obj.Kind() != "identifier" {
		return "", false
	}
	jt, ok := t.lookup(t.text(obj))
	if !ok || listKind(jt) == "" {
		return "", false
	}
	name := t.text(n.ChildByFieldName("name"))
	o := goName(t.text(obj))
	args, nodes := t.args(n)
	_, targs, _ := generic(jt)
	switch listKind(jt) + "." + name {
	case "list.add", "list.push", "list.addLast", "list.offer":
		if len(args) == 1 {
			return o + " = append(" + o + ", " + t.conv(args[0], targs[0], nodes[0]) + ")", true
		}
	case "list.set":
		if len(args) == 2 {
			return o + "[" + stripParens(args[0].code) + "] = " + t.conv(args[1], targs[0], nodes[1]), true
		}
	case "list.clear", "map.clear", "set.clear":
		return "clear(" + o + ")", listKind(jt) != "list"
	case "map.put":
		if len(args) == 2 {
			return o + "[" + t.conv(args[0], targs[0], nodes[0]) + "] = " + t.conv(args[1], targs[1], nodes[1]), true
		}
	case "map.remove", "set.remove":
		if len(args) == 1 {
			return "delete(" + o + ", " + t.conv(args[0], targs[0], nodes[0]) + ")", true
		}
	case "set.add":
		if len(args) == 1 {
			return o + "[" + t.conv(args[0], targs[0], nodes[0]) + "] = true", true
		}
	}
	t.fail(n, jt+"."+name+" as a statement")
	return "", false
}
