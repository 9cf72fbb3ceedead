// Package java2py is a rule-based Java-to-Python transpiler for TransCoder-style
// functions: one or more static Java methods (no enclosing class needed) are parsed with
// tree-sitter-java and every syntax node kind is rewritten by one rule into Python 3,
// in the spirit of j2py. The translation is type-directed: the declared Java types of
// locals, parameters and methods decide where a char must become ord()/chr(), where
// "/" and "%" need Java's truncating semantics, and which Python value models a Java
// object. Constructs the rules do not cover yield an *UnsupportedError, never silently
// wrong code, and internal panics are recovered into errors.
//
// Value mapping: int/long/short/byte are Python ints (not wrapped unless
// Options.WrapOverflow), float/double are floats, char is a 1-character str (as the
// benchmarks' Python tests pass it), String is str, arrays are lists, StringBuilder and
// StringBuffer are a helper class, List/ArrayList/Stack are lists, Queue/Deque/LinkedList
// are collections.deque, Set is set, Map is dict (insertion order: Java's HashMap order
// is not emulated), PriorityQueue is a heapq list, Pair is a helper class.
//
// Helpers (_idiv, _imod, _urs32, _jstr, ...) and imports go to Result.Imports; the
// functions go to Result.Code; exec(Imports + "\n" + Code) defines Result.Entry.
package java2py

import (
	"fmt"
	"sort"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"transmute/transforms/transpile/javasrc"
)

// Result is one translation: Python code defining the functions, the imports and helper
// definitions it needs (exec Imports + "\n" + Code), and the Python name of the entry
// function (the last Java method).
type Result = javasrc.Result

// UnsupportedError reports a Java construct java2py does not translate.
type UnsupportedError = javasrc.UnsupportedError

// unsupportedErr is the error for a construct at a 1-based line (0 when unknown).
var unsupportedErr = javasrc.Refusal("java2py: unsupported").At

// Options tune the translation.
type Options struct {
	// WrapOverflow wraps int/long results of +, -, *, << (and compound forms) to 32/64
	// bits, as Java does. Off by default: the reference Python programs of the
	// benchmarks do not wrap, so emulating Java overflow lowers agreement with them.
	WrapOverflow bool
}

// DefaultOptions are the options Translate uses.
var DefaultOptions = Options{}

var javaLang = javasrc.Language()

// classPrefix wraps the methods in a class on the first line, so rows stay unchanged.
const classPrefix = "class J2PWrapper__ { "

// Translate translates Java static methods into Python with DefaultOptions.
func Translate(javaSrc string) (Result, error) {
	return TranslateWith(javaSrc, DefaultOptions)
}

// TranslateWith translates Java static methods into Python.
func TranslateWith(javaSrc string, opts Options) (res Result, err error) {
	defer javasrc.Recover(&res, &err, func(r any) error {
		return unsupportedErr(fmt.Sprintf("internal error: %v", r), 0)
	})
	src := []byte(classPrefix + stripHeader(javaSrc) + "\n}")
	root, perr := parse(src)
	if perr != nil {
		return Result{}, perr
	}
	t := &translator{src: src, opts: opts, helpers: map[string]bool{}, imports: map[string]bool{}}
	return t.program(root)
}

// stripHeader blanks package and import lines (keeping line numbers).
func stripHeader(src string) string {
	if !strings.Contains(src, "import ") && !strings.Contains(src, "package ") {
		return src
	}
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		tl := strings.TrimSpace(l)
		if strings.HasPrefix(tl, "import ") || strings.HasPrefix(tl, "package ") {
			if strings.HasSuffix(tl, ";") {
				lines[i] = ""
			}
		}
	}
	return strings.Join(lines, "\n")
}

// node is a Go copy of a tree-sitter node (cheaper to walk than cgo calls).
type node struct {
	kind       string
	field      string
	named      bool
	start, end uint32
	line       int
	kids       []*node
}

// Kind and field names by id, precomputed to avoid cgo string conversions per node.
var (
	kindNames  []string
	kindNamed  []bool
	fieldNames []string
)

func init() {
	n := javaLang.NodeKindCount()
	kindNames = make([]string, n)
	kindNamed = make([]bool, n)
	for i := uint32(0); i < n; i++ {
		kindNames[i] = javaLang.NodeKindForId(uint16(i))
		kindNamed[i] = javaLang.NodeKindIsNamed(uint16(i))
	}
	fc := javaLang.FieldCount()
	fieldNames = make([]string, fc+1)
	for i := uint32(1); i <= fc; i++ {
		fieldNames[i] = javaLang.FieldNameForId(uint16(i))
	}
}

func parse(src []byte) (*node, error) {
	tree := javasrc.Parse(src)
	if tree == nil {
		return nil, unsupportedErr("unparsable source", 0)
	}
	defer tree.Close()
	if root := tree.RootNode(); root.HasError() {
		line := javasrc.FirstErrorLine(root)
		return nil, unsupportedErr("syntax error (not valid Java)", line)
	}
	c := tree.Walk()
	defer c.Close()
	b := &builder{src: src}
	return b.build(c), nil
}

type builder struct {
	src    []byte
	lineAt uint32 // byte offset up to which lines were counted
	lineNo int
}

// line returns the 1-based line of a byte offset (offsets arrive in increasing order).
func (b *builder) line(off uint32) int {
	if off < b.lineAt {
		b.lineAt, b.lineNo = 0, 0
	}
	for ; b.lineAt < off && int(b.lineAt) < len(b.src); b.lineAt++ {
		if b.src[b.lineAt] == '\n' {
			b.lineNo++
		}
	}
	return b.lineNo + 1
}

func (b *builder) build(c *sitter.TreeCursor) *node {
	n := c.Node()
	id := n.KindId()
	nd := &node{kind: kindNames[id], named: kindNamed[id], field: fieldNames[c.FieldId()],
		start: uint32(n.StartByte()), end: uint32(n.EndByte())}
	nd.line = b.line(nd.start)
	if c.GotoFirstChild() {
		for {
			k := b.build(c)
			if k.kind != "line_comment" && k.kind != "block_comment" {
				nd.kids = append(nd.kids, k)
			}
			if !c.GotoNextSibling() {
				break
			}
		}
		c.GotoParent()
	}
	return nd
}

// f returns the first child with the given field name.
func (n *node) f(name string) *node {
	for _, k := range n.kids {
		if k.field == name {
			return k
		}
	}
	return nil
}

// fs returns all children with the given field name.
func (n *node) fs(name string) []*node {
	var out []*node
	for _, k := range n.kids {
		if k.field == name {
			out = append(out, k)
		}
	}
	return out
}

// named returns the named children.
func (n *node) namedKids() []*node {
	var out []*node
	for _, k := range n.kids {
		if k.named {
			out = append(out, k)
		}
	}
	return out
}

// child returns the first child of the given kind.
func (n *node) child(kind string) *node {
	for _, k := range n.kids {
		if k.kind == kind {
			return k
		}
	}
	return nil
}

func unsupported(n *node, what string) {
	line := 0
	if n != nil {
		line = n.line
	}
	panic(unsupportedErr(what, line))
}

// methodInfo describes a user method.
type methodInfo struct {
	name   string
	pyName string
	params []string // Java types
	ret    string
	decl   *node
}

// loopCtx is an enclosing loop or switch.
type loopCtx struct {
	isSwitch bool
	wrapper  bool // the one-pass "while True" around a switch with nested breaks
	node     *node
	label    string
	update   []string        // Python statements to run before "continue" (for-loops as while)
	flag     string          // variable carrying labeled jumps out of nested loops
	exits    map[string]bool // labels of outer loops that nested code jumps to
}

type translator struct {
	src       []byte
	opts      Options
	helpers   map[string]bool
	imports   map[string]bool
	methods   map[string][]*methodInfo
	fields    map[string]string // static field name -> Java type
	scopes    []map[string]string
	ret       string
	out       strings.Builder
	indent    int
	tmp       int
	loops     []*loopCtx
	curMethod string
	curBody   *node
	recursive bool // a method calls itself: raise Python's recursion limit
	// pendingLabel is the label of the loop statement about to be translated.
	pendingLabel string
}

func (t *translator) text(n *node) string { return string(t.src[n.start:n.end]) }

func (t *translator) emit(format string, a ...any) {
	for i := 0; i < t.indent; i++ {
		t.out.WriteString("    ")
	}
	if len(a) == 0 {
		t.out.WriteString(format)
	} else {
		fmt.Fprintf(&t.out, format, a...)
	}
	t.out.WriteByte('\n')
}

func (t *translator) newTmp(base string) string {
	t.tmp++
	return fmt.Sprintf("_%s%d", base, t.tmp)
}

func (t *translator) push()                { t.scopes = append(t.scopes, map[string]string{}) }
func (t *translator) pop()                 { t.scopes = t.scopes[:len(t.scopes)-1] }
func (t *translator) declare(n, ty string) { t.scopes[len(t.scopes)-1][n] = ty }

func (t *translator) lookup(name string) (string, bool) {
	for i := len(t.scopes) - 1; i >= 0; i-- {
		if ty, ok := t.scopes[i][name]; ok {
			return ty, true
		}
	}
	if ty, ok := t.fields[name]; ok {
		return ty, true
	}
	return "", false
}

// members lists a class body's members, flattening nested classes that only hold
// static methods and fields (a translator may wrap the function in a class).
func (t *translator) members(body *node) []*node {
	var out []*node
	for _, m := range body.kids {
		if m.kind == "class_declaration" && m.f("body") != nil && t.onlyStatic(m.f("body")) {
			out = append(out, t.members(m.f("body"))...)
			continue
		}
		out = append(out, m)
	}
	return out
}

func (t *translator) onlyStatic(body *node) bool {
	for _, m := range body.kids {
		switch m.kind {
		case "method_declaration", "field_declaration":
			mods := m.child("modifiers")
			if mods == nil || !strings.Contains(t.text(mods), "static") {
				return false
			}
		case "{", "}", ";":
		default:
			return false
		}
	}
	return true
}

// program translates the wrapper class body.
func (t *translator) program(root *node) (Result, error) {
	var class *node
	for _, k := range root.kids {
		if k.kind == "class_declaration" {
			class = k
			break
		}
	}
	if class == nil || class.f("body") == nil {
		return Result{}, unsupportedErr("no method found", 0)
	}
	body := class.f("body")
	t.methods = map[string][]*methodInfo{}
	t.fields = map[string]string{}
	var order []*methodInfo
	var fieldDecls []*node
	for _, m := range t.members(body) {
		switch m.kind {
		case "method_declaration":
			if t.text(m.f("name")) == "main" {
				continue // a driver, not part of the function under translation
			}
			mi := &methodInfo{name: t.text(m.f("name")), ret: t.typeOf(m.f("type"), nil), decl: m}
			for _, p := range m.f("parameters").namedKids() {
				switch p.kind {
				case "formal_parameter":
					mi.params = append(mi.params, t.typeOf(p.f("type"), p.f("dimensions")))
				case "spread_parameter":
					unsupported(p, "varargs parameter")
				}
			}
			t.methods[mi.name] = append(t.methods[mi.name], mi)
			order = append(order, mi)
		case "field_declaration":
			fieldDecls = append(fieldDecls, m)
		case "{", "}", ";":
		default:
			if m.named {
				unsupported(m, "class member "+m.kind)
			}
		}
	}
	if len(order) == 0 {
		return Result{}, unsupportedErr("no method found", 0)
	}
	// Python names; overloads are disambiguated by arity.
	for name, ms := range t.methods {
		if len(ms) == 1 {
			ms[0].pyName = pyIdent(name)
			continue
		}
		seen := map[int]bool{}
		for _, mi := range ms {
			if seen[len(mi.params)] {
				unsupported(mi.decl, "overloaded methods with equal arity")
			}
			seen[len(mi.params)] = true
			mi.pyName = fmt.Sprintf("%s_%d", pyIdent(name), len(mi.params))
		}
	}
	t.push()
	for _, fd := range fieldDecls {
		t.fieldDecl(fd)
	}
	for i, mi := range order {
		if i > 0 || len(fieldDecls) > 0 {
			t.out.WriteString("\n")
		}
		t.method(mi)
	}
	t.pop()
	return Result{Code: t.out.String(), Imports: t.importText(), Entry: order[len(order)-1].pyName}, nil
}

func (t *translator) fieldDecl(fd *node) {
	ty := t.typeOf(fd.f("type"), nil)
	for _, d := range fd.fs("declarator") {
		dty := ty + dimsSuffix(t, d.f("dimensions"))
		name := t.text(d.f("name"))
		t.fields[name] = dty
		if v := d.f("value"); v != nil {
			t.emit("%s = %s", pyIdent(name), t.exprTo(v, dty))
		} else {
			t.emit("%s = %s", pyIdent(name), defaultValue(dty))
		}
	}
}

func (t *translator) method(mi *methodInfo) {
	m := mi.decl
	t.push()
	defer t.pop()
	var names []string
	for _, p := range m.f("parameters").namedKids() {
		if p.kind != "formal_parameter" {
			continue
		}
		name := t.text(p.f("name"))
		t.declare(name, t.typeOf(p.f("type"), p.f("dimensions")))
		names = append(names, pyIdent(name))
	}
	t.curMethod = mi.name
	t.curBody = m.f("body")
	t.emit("def %s(%s):", mi.pyName, strings.Join(names, ", "))
	t.indent++
	t.ret = mi.ret
	body := m.f("body")
	if body == nil {
		unsupported(m, "abstract method")
	}
	// Static fields assigned in the body need a global declaration.
	if len(t.fields) > 0 {
		assigned := map[string]bool{}
		collectAssigned(t, body, assigned)
		var gl []string
		for name := range assigned {
			if _, ok := t.fields[name]; ok {
				gl = append(gl, pyIdent(name))
			}
		}
		sort.Strings(gl)
		if len(gl) > 0 {
			t.emit("global %s", strings.Join(gl, ", "))
		}
	}
	t.blockBody(body)
	t.indent--
}

func (t *translator) importText() string {
	var b strings.Builder
	var mods []string
	if t.recursive {
		mods = append(mods, "sys")
	}
	for m := range t.imports {
		mods = append(mods, m)
	}
	for h := range t.helpers {
		for _, d := range helperDeps[h] {
			if strings.HasPrefix(d, "import ") {
				mods = append(mods, strings.TrimPrefix(d, "import "))
			}
		}
	}
	sort.Strings(mods)
	last := ""
	for _, m := range mods {
		if m != last {
			fmt.Fprintf(&b, "import %s\n", m)
		}
		last = m
	}
	if t.recursive {
		// Java's default stack allows much deeper recursion than Python's 1000 frames.
		b.WriteString("sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))\n")
	}
	// Helpers in a fixed order, with their dependencies.
	need := map[string]bool{}
	var add func(h string)
	add = func(h string) {
		if need[h] {
			return
		}
		need[h] = true
		for _, d := range helperDeps[h] {
			if !strings.HasPrefix(d, "import ") {
				add(d)
			}
		}
	}
	for h := range t.helpers {
		add(h)
	}
	for _, h := range helperOrder {
		if need[h] {
			b.WriteString(helperDefs[h])
		}
	}
	return b.String()
}

func (t *translator) helper(name string) string {
	t.helpers[name] = true
	return name
}

func (t *translator) useImport(mod string) { t.imports[mod] = true }

// pyReserved are names a Java identifier may not keep in Python.
var pyReserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`False None True and as assert async await break class continue def del
		elif else except finally for from global if import in is lambda nonlocal not or pass raise return try
		while with yield print len range int float str list dict set max min abs sum ord chr math collections
		sorted reversed bool type tuple map filter zip any all iter next object id input open round pow divmod
		hash format enumerate re bisect heapq copy functools f_gold f_filled match case`) {
		pyReserved[w] = true
	}
}

// pyIdent maps a Java identifier to a safe Python one.
func pyIdent(s string) string {
	if pyReserved[s] || strings.HasPrefix(s, "_") {
		return s + "_"
	}
	return s
}
