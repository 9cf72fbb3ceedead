// Package java2go is a rule-based Java-to-Go transpiler for TransCoder-style functions:
// one or more Java static methods (no class around them) become Go functions. It walks
// the tree-sitter-java syntax tree, types every expression with Java's rules (binary
// numeric promotion, string concatenation, char arithmetic) and writes the Go form
// with the conversions Go requires, and refuses with an *UnsupportedError whatever it
// cannot translate faithfully.
//
// Conventions of the output:
//   - Java's integer types map to Go's int, char to byte, boolean/float/double to
//     bool/float32/float64, as in TransCoder's Go scripts (primGo): an int overflows
//     at 64 bits, not Java's 32, as the benchmark's own Go golds do. Shift counts are
//     masked as in Java; >>> shifts an unsigned copy of Java's width.
//   - String is a Go string indexed by byte (ASCII text keeps its meaning); the entry
//     takes a String parameter as []byte, as the scripts pass it; char[] is []byte.
//   - Arrays are slices, made with Java's zero values; arr.length is len(arr).
//   - ArrayList/List/Vector become slices, HashMap/TreeMap maps (iteration over a map
//     is refused: Go's order is random), HashSet/TreeSet map[T]bool.
//   - The ternary operator becomes a function literal called in place; a non-void
//     function ends with panic("unreachable") for the paths Java knows cannot return;
//     every local is also assigned to _ (Go refuses unused locals).
package java2go

import (
	"fmt"
	"sort"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"transmute/transforms/transpile/javasrc"
)

// Result is a translation: Code holds the Go functions, Imports the import
// declaration the code needs, Entry the name of the last Java method.
type Result = javasrc.Result

// UnsupportedError reports a Java construct java2go does not translate.
type UnsupportedError = javasrc.UnsupportedError

// refusal starts the message of every UnsupportedError of java2go.
const refusal = "java2go: unsupported construct"

// unsupported is the error for a construct at a 1-based line (0 when unknown).
var unsupported = javasrc.Refusal(refusal).At

var front = javasrc.Front{Wrap: "class J2G__ { ", Prefix: refusal}

// Translate translates Java static methods into Go.
func Translate(javaSrc string) (Result, error) {
	return front.Translate(javaSrc, func(src []byte, root *sitter.Node) (Result, error) {
		t := &tr{src: src, imports: map[string]bool{}, methods: map[string]*method{}}
		return t.program(root)
	})
}

// method is a Java method's signature.
type method struct {
	name   string
	ret    string   // Java type
	params []string // Java types
	// entry: the last method, whose String parameters are []byte (primGo)
	entry bool
}

// tr is the state of one translation.
type tr struct {
	src     []byte
	imports map[string]bool
	methods map[string]*method
	scopes  []map[string]string // Java types of the variables in scope
	out     strings.Builder
	indent  int
	cur     *method
	tmp     int
	used    map[string]bool // helpers used
}

func (t *tr) fail(n *sitter.Node, construct string) {
	line := 0
	if n != nil {
		line = int(n.StartPosition().Row) + 1
	}
	panic(unsupported(construct, line))
}

func (t *tr) text(n *sitter.Node) string { return n.Utf8Text(t.src) }

func (t *tr) line(s string) {
	t.out.WriteString(strings.Repeat("\t", t.indent))
	t.out.WriteString(s)
	t.out.WriteByte('\n')
}

func (t *tr) push() { t.scopes = append(t.scopes, map[string]string{}) }
func (t *tr) pop()  { t.scopes = t.scopes[:len(t.scopes)-1] }

func (t *tr) declare(name, jt string) { t.scopes[len(t.scopes)-1][name] = jt }

func (t *tr) lookup(name string) (string, bool) {
	for i := len(t.scopes) - 1; i >= 0; i-- {
		if jt, ok := t.scopes[i][name]; ok {
			return jt, true
		}
	}
	return "", false
}

// reserved are Go keywords, predeclared names and the packages the output imports:
// a Java name among them gets a "_" suffix.
var reserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`break case chan const continue default defer else fallthrough for func go goto if
		import interface map package range return select struct switch type var
		append cap clear close complex copy delete imag len make max min new panic print println real recover
		bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8
		uint16 uint32 uint64 uintptr any comparable iota nil true false
		math sort strings strconv unicode slices bits`) {
		reserved[w] = true
	}
}

func goName(name string) string {
	if reserved[name] {
		return name + "_"
	}
	return name
}

func (t *tr) program(root *sitter.Node) (Result, error) {
	cls := root.NamedChild(0)
	if cls == nil || cls.Kind() != "class_declaration" {
		t.fail(root, "no methods")
	}
	body := cls.ChildByFieldName("body")
	var ms []*sitter.Node
	for i := uint(0); i < body.NamedChildCount(); i++ {
		c := body.NamedChild(i)
		switch c.Kind() {
		case "method_declaration":
			ms = append(ms, c)
		case "line_comment", "block_comment":
		default:
			t.fail(c, c.Kind()+" in the class")
		}
	}
	if len(ms) == 0 {
		t.fail(root, "no methods")
	}
	for _, m := range ms {
		t.declareMethod(m)
	}
	t.methods[t.text(ms[len(ms)-1].ChildByFieldName("name"))].entry = true
	entry := ""
	for _, m := range ms {
		entry = t.methodDecl(m)
		t.out.WriteByte('\n')
	}
	var imps []string
	for p := range t.imports {
		imps = append(imps, p)
	}
	sort.Strings(imps)
	var ib strings.Builder
	if len(imps) > 0 {
		ib.WriteString("import (\n")
		for _, p := range imps {
			fmt.Fprintf(&ib, "\t%q\n", p)
		}
		ib.WriteString(")")
	}
	code := strings.TrimSpace(t.out.String())
	if h := t.helperCode(); h != "" {
		code += "\n\n" + h
	}
	return Result{Code: code, Imports: ib.String(), Entry: entry}, nil
}

func (t *tr) declareMethod(n *sitter.Node) {
	name := t.text(n.ChildByFieldName("name"))
	if _, dup := t.methods[name]; dup {
		t.fail(n, "overloaded method "+name)
	}
	m := &method{name: name, ret: t.jtype(n.ChildByFieldName("type"), n.ChildByFieldName("dimensions"))}
	ps := n.ChildByFieldName("parameters")
	for i := uint(0); i < ps.NamedChildCount(); i++ {
		p := ps.NamedChild(i)
		if p.Kind() != "formal_parameter" {
			t.fail(p, p.Kind())
		}
		m.params = append(m.params, t.jtype(p.ChildByFieldName("type"), p.ChildByFieldName("dimensions")))
	}
	t.methods[name] = m
}

func (t *tr) methodDecl(n *sitter.Node) string {
	m := t.methods[t.text(n.ChildByFieldName("name"))]
	t.cur = m
	t.push()
	defer t.pop()
	ps := n.ChildByFieldName("parameters")
	var params, prologue []string
	for i := uint(0); i < ps.NamedChildCount(); i++ {
		p := ps.NamedChild(i)
		name := t.text(p.ChildByFieldName("name"))
		t.declare(name, m.params[i])
		if m.entry && m.params[i] == "String" {
			params = append(params, goName(name)+"_b []byte")
			prologue = append(prologue, fmt.Sprintf("var %s string = string(%s_b)", goName(name), goName(name)))
			continue
		}
		params = append(params, goName(name)+" "+t.gotype(m.params[i], p))
	}
	ret := ""
	if m.ret != "void" {
		ret = " " + t.gotype(m.ret, n)
	}
	t.line(fmt.Sprintf("func %s(%s)%s {", goName(m.name), strings.Join(params, ", "), ret))
	t.indent++
	body := n.ChildByFieldName("body")
	if body == nil {
		t.fail(n, "abstract method")
	}
	for _, l := range prologue {
		t.line(l)
	}
	t.blockItems(body)
	if m.ret != "void" {
		t.line(`panic("unreachable")`)
	}
	t.indent--
	t.line("}")
	return goName(m.name)
}

// ---- types ----

// jtype is the Java type of a type node, with extra dimensions (int a[]).
func (t *tr) jtype(n, dims *sitter.Node) string {
	if n == nil {
		t.fail(n, "missing type")
	}
	s := ""
	switch n.Kind() {
	case "integral_type", "floating_point_type", "boolean_type", "void_type":
		s = t.text(n)
	case "type_identifier", "scoped_type_identifier":
		s = t.text(n)
	case "array_type":
		s = t.jtype(n.ChildByFieldName("element"), nil) + strings.Repeat("[]", strings.Count(t.text(n.ChildByFieldName("dimensions")), "["))
	case "generic_type":
		s = strings.Join(strings.Fields(t.text(n)), "")
	default:
		t.fail(n, "type "+n.Kind())
	}
	if dims != nil {
		s += strings.Repeat("[]", strings.Count(t.text(dims), "["))
	}
	return normType(s)
}

// normType maps the boxed types to the primitives and drops java.lang.
func normType(s string) string {
	s = strings.TrimPrefix(s, "java.lang.")
	base, dims, _ := strings.Cut(s, "[")
	if dims != "" {
		dims = "[" + dims
	}
	switch base {
	case "Integer":
		base = "int"
	case "Long":
		base = "long"
	case "Double":
		base = "double"
	case "Float":
		base = "float"
	case "Boolean":
		base = "boolean"
	case "Character":
		base = "char"
	case "Short":
		base = "short"
	case "Byte":
		base = "byte"
	case "StringBuilder", "StringBuffer":
		base = "String"
	}
	return base + dims
}

// primGo follows TransCoder's Go scripts, whose f_gold takes and returns Go's int for
// every Java integer type, byte for char and []byte for a String parameter: the
// scripts call the translation with the gold's arguments and compare its result with
// ==, so another type does not compile there.
var primGo = map[string]string{"int": "int", "long": "int", "short": "int", "byte": "int", "char": "byte",
	"boolean": "bool", "float": "float32", "double": "float64", "String": "string"}

// gotype is the Go type of a Java type.
func (t *tr) gotype(jt string, n *sitter.Node) string {
	if strings.HasSuffix(jt, "[]") {
		return "[]" + t.gotype(strings.TrimSuffix(jt, "[]"), n)
	}
	if g, ok := primGo[jt]; ok {
		return g
	}
	if base, args, ok := generic(jt); ok {
		switch base {
		case "ArrayList", "List", "Vector", "LinkedList", "Stack", "Deque", "ArrayDeque", "Queue":
			if len(args) == 1 {
				return "[]" + t.gotype(args[0], n)
			}
		case "HashMap", "Map", "TreeMap":
			if len(args) == 2 {
				return "map[" + t.gotype(args[0], n) + "]" + t.gotype(args[1], n)
			}
		case "HashSet", "Set", "TreeSet":
			if len(args) == 1 {
				return "map[" + t.gotype(args[0], n) + "]bool"
			}
		}
	}
	t.fail(n, "type "+jt)
	return ""
}

// generic splits "HashMap<Integer,Integer>" into its base and its normalized type
// arguments (a nested argument keeps its own angle brackets).
func generic(jt string) (string, []string, bool) {
	base, rest, ok := strings.Cut(jt, "<")
	if !ok || !strings.HasSuffix(rest, ">") {
		return jt, nil, false
	}
	rest = strings.TrimSuffix(rest, ">")
	var args []string
	for rest != "" {
		// the argument ends at the first comma outside brackets
		cut, open := len(rest), 0
		for i, r := range rest {
			if r == '<' {
				open++
			} else if r == '>' {
				open--
			} else if r == ',' && open == 0 {
				cut = i
				break
			}
		}
		args = append(args, normType(rest[:cut]))
		rest = strings.TrimPrefix(rest[cut:], ",")
	}
	if len(args) == 0 {
		args = []string{""}
	}
	return base, args, true
}

func isArray(jt string) bool { return strings.HasSuffix(jt, "[]") }

func elemOf(jt string) string { return strings.TrimSuffix(jt, "[]") }

// numeric ranks of the Java primitive types for binary numeric promotion.
var rank = map[string]int{"byte": 1, "short": 2, "char": 2, "int": 3, "long": 4, "float": 5, "double": 6}

func isNumeric(jt string) bool { _, ok := rank[jt]; return ok }

func isIntegral(jt string) bool { return isNumeric(jt) && jt != "float" && jt != "double" }

// promote is the type of a binary arithmetic operation on a and b.
func promote(a, b string) string {
	r := max(rank[a], rank[b], rank["int"])
	for k, v := range rank {
		if v == r && k != "char" {
			return k
		}
	}
	return "int"
}

// listKind tells which collection a Java type is: "list", "map", "set" or "".
func listKind(jt string) string {
	base, _, ok := generic(jt)
	if !ok {
		return ""
	}
	switch base {
	case "ArrayList", "List", "Vector", "LinkedList", "Stack", "Deque", "ArrayDeque", "Queue":
		return "list"
	case "HashMap", "Map", "TreeMap":
		return "map"
	case "HashSet", "Set", "TreeSet":
		return "set"
	}
	return ""
}
