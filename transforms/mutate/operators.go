package mutate

import (
	"sort"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// gen accumulates candidate edits for one function.
type gen struct {
	s     *langSpec
	src   []byte
	en    map[string]bool
	syms  symbols
	bound map[string]bool // Python: names already bound (SDL keeps first bindings)
	cands []candidate
	seq   int
}

// collect runs the language query over tree (the parse of src) and returns
// every candidate edit of the enabled operators (unvalidated, unsorted).
func collect(s *langSpec, tree *sitter.Tree, src []byte, en map[string]bool) []candidate {
	root := tree.RootNode()
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	declIdx, _ := s.query.CaptureIndexForName("decl")
	var nodes, decls []sitter.Node
	ms := qc.Matches(s.query, root, src)
	for m := ms.Next(); m != nil; m = ms.Next() {
		for _, c := range m.Captures {
			if uint(c.Index) == declIdx {
				decls = append(decls, c.Node)
			} else {
				nodes = append(nodes, c.Node)
			}
		}
	}
	sort.SliceStable(nodes, func(i, j int) bool {
		if nodes[i].StartByte() != nodes[j].StartByte() {
			return nodes[i].StartByte() < nodes[j].StartByte()
		}
		return nodes[i].EndByte() > nodes[j].EndByte()
	})
	g := &gen{s: s, src: src, en: en, bound: map[string]bool{}}
	if s.name == "python" {
		var ids []*sitter.Node
		for i := range nodes {
			if nodes[i].Kind() == "identifier" {
				ids = append(ids, &nodes[i])
			}
		}
		g.syms = pyTypes(ids, src)
		for i := range decls { // parameters are bound on entry
			for j := uint(0); j < decls[i].NamedChildCount(); j++ {
				c := decls[i].NamedChild(j)
				if c.Kind() != "identifier" {
					if n := c.ChildByFieldName("name"); n != nil {
						c = n
					} else if c.NamedChildCount() > 0 {
						c = c.NamedChild(0)
					}
				}
				g.bound[c.Utf8Text(src)] = true
			}
		}
	} else {
		g.syms = collectSymbols(s, decls, src)
	}
	for i := range nodes {
		g.visit(&nodes[i])
	}
	return g.cands
}

func (g *gen) text(n *sitter.Node) string { return string(g.src[n.StartByte():n.EndByte()]) }

func isOpChar(c byte) bool { return strings.IndexByte("+-*/%&|^<>=!~", c) >= 0 }

func isWordChar(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// glue joins a and b, separated by a space when juxtaposing them would
// merge two tokens (a-, -b -> "a- -b", not "a--b").
func glue(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	x, y := a[len(a)-1], b[0]
	if isOpChar(x) && isOpChar(y) || isWordChar(x) && isWordChar(y) {
		return a + " " + b
	}
	return a + b
}

// add records an edit replacing src[start:end] with repl, padding repl with
// spaces where it would otherwise fuse with the neighbouring tokens.
func (g *gen) add(op string, start, end uint, repl string) {
	if !g.en[op] {
		return
	}
	if start > 0 && repl != "" {
		if glue(string(g.src[start-1]), repl) != string(g.src[start-1])+repl {
			repl = " " + repl
		}
	}
	if int(end) < len(g.src) && repl != "" {
		if glue(repl, string(g.src[end])) != repl+string(g.src[end]) {
			repl += " "
		}
	}
	g.seq++
	g.cands = append(g.cands, candidate{op: op, start: int(start), end: int(end), repl: repl, seq: g.seq, at: int(start)})
}

func (g *gen) addNode(op string, n *sitter.Node, repl string) {
	g.add(op, n.StartByte(), n.EndByte(), repl)
}

func in(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func (g *gen) visit(n *sitter.Node) {
	s := g.s
	k := n.Kind()
	if k == "comparison_operator" {
		g.pyComparison(n)
	} else if l, opn, r, op, ok := s.binaryParts(n, g.src); ok {
		g.binary(n, l, opn, r, op)
	}
	if op, arg, ok := s.unaryParts(n, g.src); ok {
		g.unary(n, op, arg)
	}
	if op, prefix, arg, ok := s.updateParts(n); ok {
		g.update(n, op, prefix, arg)
	}
	if k == s.compoundKind || (k == s.assignKind && s.compoundKind == "") {
		g.compound(n)
	}
	if k == s.identKind {
		g.ident(n)
	}
	if k == s.callKind {
		g.call(n)
	}
	if s.stmtKinds[k] {
		g.sdl(n)
	}
}

// replaceOp renders n (a binary node) with its operator replaced by newOp,
// adding parentheses where the new precedence would regroup the operands.
func (g *gen) replaceOp(n, l, opn, r *sitter.Node, newOp string) string {
	s := g.s
	pNew := s.prec[newOp]
	lt, rt := g.text(l), g.text(r)
	if p, ok := s.precOf(l, g.src); ok && p < pNew {
		lt = "(" + lt + ")"
	}
	if p, ok := s.precOf(r, g.src); ok && p <= pNew {
		rt = "(" + rt + ")"
	}
	opEnd := opn.EndByte()
	mid1 := string(g.src[l.EndByte():opn.StartByte()])
	mid2 := string(g.src[opEnd:r.StartByte()])
	out := glue(glue(glue(glue(lt, mid1), newOp), mid2), rt)
	if par := n.Parent(); par != nil {
		if pp, ok := s.precOf(par, g.src); ok {
			isRight := n.StartByte() != par.StartByte()
			if pNew < pp || (pNew == pp && isRight) {
				out = "(" + out + ")"
			}
		}
	}
	return out
}

func (g *gen) category(op string) string {
	s := g.s
	switch {
	case in(s.arith, op):
		return "arith"
	case in(s.shift, op):
		return "shift"
	case in(s.bitwise, op):
		return "bitwise"
	case in(s.logical, op):
		return "logical"
	case in(s.relational, op):
		return "relational"
	case op == "**":
		return "power"
	}
	return ""
}

func (g *gen) binary(n, l, opn, r *sitter.Node, op string) {
	s := g.s
	cat := g.category(op)
	stringy := (op == "+" || op == "*" || op == "%") && (g.stringy(l) || g.stringy(r))
	switch cat {
	case "arith":
		if !stringy {
			noMod := s.name == "cpp" && (g.floaty(l) || g.floaty(r))
			for _, o := range s.arith {
				if o != op && !(noMod && o == "%") {
					g.addNode("AORB", n, g.replaceOp(n, l, opn, r, o))
				}
			}
		}
	case "shift":
		if !g.isStream(n) {
			for _, o := range s.shift {
				if o != op {
					g.addNode("SOR", n, g.replaceOp(n, l, opn, r, o))
				}
			}
		}
	case "bitwise":
		if s.name != "python" && g.boolish(l) && g.boolish(r) {
			// &, |, ^ on booleans are conditional operators in muJava (COR).
			for _, o := range []string{"&&", "||", "&", "|", "^"} {
				if o != op {
					g.addNode("COR", n, g.replaceOp(n, l, opn, r, o))
				}
			}
			g.addNode("COI", n, g.negate(n))
			cat = "boolbit"
			break
		}
		for _, o := range s.bitwise {
			if o != op {
				g.addNode("LOR", n, g.replaceOp(n, l, opn, r, o))
			}
		}
	case "logical":
		repl := []string{"&&", "||", "&", "|", "^"}
		if s.name == "python" {
			repl = s.logical
		}
		for _, o := range repl {
			if o != op {
				g.addNode("COR", n, g.replaceOp(n, l, opn, r, o))
			}
		}
		g.addNode("COI", n, g.negate(n))
	case "relational":
		eqOnly := g.nonNumeric(l) || g.nonNumeric(r)
		for _, o := range s.relational {
			if o == op || eqOnly && o != "==" && o != "!=" {
				continue
			}
			g.addNode("ROR", n, g.replaceOp(n, l, opn, r, o))
		}
		g.addNode("ROR", n, s.trueLit)
		g.addNode("ROR", n, s.falseLit)
		g.addNode("COI", n, g.negate(n))
	}
	if cat != "relational" && cat != "logical" && cat != "boolbit" && g.isCondition(n) {
		g.addNode("COI", n, g.negate(n))
	}
	if cat == "boolbit" {
		cat = "bitwise"
	}
	if cat == "" || cat == "relational" || stringy || g.isStream(n) {
		return
	}
	// Deletion operators: the expression keeps one operand.
	g.addNode("ODL", n, g.text(l))
	g.addNode("ODL", n, g.text(r))
	if g.isVar(r) {
		g.addNode("VDL", n, g.text(l))
	}
	if g.isVar(l) {
		g.addNode("VDL", n, g.text(r))
	}
	if s.constKinds[r.Kind()] {
		g.addNode("CDL", n, g.text(l))
	}
	if s.constKinds[l.Kind()] {
		g.addNode("CDL", n, g.text(r))
	}
}

// pyComparison mutates each relational operator of a (possibly chained)
// Python comparison and replaces the whole comparison by True/False.
func (g *gen) pyComparison(n *sitter.Node) {
	s := g.s
	any := false
	var prev *sitter.Node
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		if c.IsNamed() {
			prev = c
			continue
		}
		op := c.Kind()
		if !in(s.relational, op) {
			continue
		}
		any = true
		next := c.NextNamedSibling()
		eqOnly := (prev != nil && g.nonNumeric(prev)) || (next != nil && g.nonNumeric(next))
		for _, o := range s.relational {
			if o == op || eqOnly && o != "==" && o != "!=" {
				continue
			}
			g.add("ROR", c.StartByte(), c.EndByte(), o)
		}
	}
	if any {
		g.addNode("ROR", n, s.trueLit)
		g.addNode("ROR", n, s.falseLit)
	}
	g.addNode("COI", n, g.negate(n))
}

func (g *gen) unary(n *sitter.Node, op string, arg *sitter.Node) {
	switch op {
	case "-", "+":
		g.addNode("AODU", n, g.text(arg))
	case "!", "not":
		g.addNode("COD", n, g.text(arg))
	case "~":
		g.addNode("LOD", n, g.text(arg))
	default:
		return
	}
	g.addNode("ODL", n, g.text(arg))
}

func (g *gen) update(n *sitter.Node, op string, prefix bool, arg *sitter.Node) {
	a := g.text(arg)
	for _, f := range []struct {
		op  string
		pre bool
	}{{"++", true}, {"--", true}, {"++", false}, {"--", false}} {
		if f.op == op && f.pre == prefix {
			continue
		}
		if f.pre {
			g.addNode("AORS", n, f.op+a)
		} else {
			g.addNode("AORS", n, a+f.op)
		}
	}
	// Deleting the operator of a stand-alone x++ leaves "x;", which Java
	// rejects ("not a statement"): only delete where the value is used.
	if par := n.Parent(); par != nil {
		switch par.Kind() {
		case "expression_statement", "for_statement", "comma_expression":
			return
		}
	}
	g.addNode("AODS", n, a)
	g.addNode("ODL", n, a)
}

func (g *gen) compound(n *sitter.Node) {
	opn := n.ChildByFieldName("operator")
	l, r := n.ChildByFieldName("left"), n.ChildByFieldName("right")
	if opn == nil || l == nil || r == nil {
		return
	}
	op := opn.Utf8Text(g.src)
	if op == "=" {
		return
	}
	if g.stringy(l) || g.stringy(r) {
		return
	}
	for _, grp := range g.s.compoundGroups {
		if !in(grp, op) {
			continue
		}
		noMod := g.s.name == "cpp" && (g.floaty(l) || g.floaty(r))
		for _, o := range grp {
			if o != op && !(noMod && o == "%=") {
				g.add("ASRS", opn.StartByte(), opn.EndByte(), o)
			}
		}
	}
	g.add("ODL", opn.StartByte(), opn.EndByte(), "=")
}

func (g *gen) ident(n *sitter.Node) {
	if !g.valueContext(n) {
		return
	}
	name := g.text(n)
	sym := g.syms[name]
	scalar := sym.dims == 0
	numeric := scalar && (sym.cls == tInt || sym.cls == tFloat)
	integral := scalar && sym.cls == tInt
	boolean := scalar && sym.cls == tBool
	par := n.Parent()
	parUnary := ""
	if op, _, ok := g.s.unaryParts(par, g.src); ok {
		parUnary = op
	}
	if numeric && parUnary != "-" && parUnary != "+" {
		repl := "-" + name
		if l, _, _, op, ok := g.s.binaryParts(par, g.src); ok && op == "**" && sameNode(l, n) {
			repl = "(" + repl + ")"
		}
		g.addNode("AOIU", n, repl)
	}
	if numeric && g.s.updateKind != "" {
		g.addNode("AOIS", n, "++"+name)
		g.addNode("AOIS", n, "--"+name)
		g.addNode("AOIS", n, name+"++")
		g.addNode("AOIS", n, name+"--")
	}
	if integral && parUnary != "~" {
		g.addNode("LOI", n, "~"+name)
	}
	if (boolean || g.boolContext(n)) && parUnary != "!" && parUnary != "not" {
		g.addNode("COI", n, g.negate(n))
	}
}

// call handles function calls: COI negates a call used as a condition or
// as an operand of a conditional operator (a boolean-valued call).
func (g *gen) call(n *sitter.Node) {
	if g.boolContext(n) {
		g.addNode("COI", n, g.negate(n))
	}
}

// boolContext reports whether n is used where a truth value is expected:
// a condition, or an operand of &&, || (and, or).
func (g *gen) boolContext(n *sitter.Node) bool {
	if g.isCondition(n) {
		return true
	}
	if _, _, _, op, ok := g.s.binaryParts(n.Parent(), g.src); ok {
		return g.category(op) == "logical"
	}
	return false
}

// negate renders the logical negation of n (COI).
func (g *gen) negate(n *sitter.Node) string {
	t := g.text(n)
	if g.s.name != "python" {
		switch n.Kind() {
		case "identifier", "parenthesized_expression", "method_invocation", "call_expression",
			"field_access", "field_expression", "array_access", "subscript_expression":
			return "!" + t
		}
		return "!(" + t + ")"
	}
	switch n.Kind() {
	case "boolean_operator", "conditional_expression", "lambda", "named_expression":
		t = "(" + t + ")"
	}
	t = "not " + t
	if par := n.Parent(); par != nil {
		switch par.Kind() {
		case "binary_operator", "comparison_operator", "unary_operator", "subscript", "attribute", "call", "await":
			t = "(" + t + ")"
		}
	}
	return t
}

// isCondition reports whether n is directly the condition of an if/while/
// do/for statement or of a conditional expression.
func (g *gen) isCondition(n *sitter.Node) bool {
	par := n.Parent()
	if par == nil {
		return false
	}
	switch par.Kind() {
	case "condition_clause":
		return sameNode(par.ChildByFieldName("value"), n)
	case "if_statement", "while_statement", "elif_clause", "for_statement", "do_statement":
		return sameNode(par.ChildByFieldName("condition"), n)
	case "conditional_expression", "ternary_expression":
		return sameNode(par.ChildByFieldName("condition"), n)
	case "parenthesized_expression":
		gp := par.Parent()
		if gp != nil && g.s.name == "java" {
			switch gp.Kind() {
			case "if_statement", "while_statement", "do_statement":
				return sameNode(gp.ChildByFieldName("condition"), par)
			}
		}
	}
	return false
}

// valueContext reports whether identifier n is read as a value in an
// expression (not declared, assigned, called, or used as a type/field name).
func (g *gen) valueContext(n *sitter.Node) bool {
	par := n.Parent()
	if par == nil {
		return false
	}
	field := func(f string) bool { return sameNode(par.ChildByFieldName(f), n) }
	switch g.s.name {
	case "java":
		switch par.Kind() {
		case "binary_expression", "unary_expression", "parenthesized_expression", "argument_list",
			"return_statement", "ternary_expression", "array_initializer", "dimensions_expr":
			return true
		case "cast_expression":
			return field("value")
		case "array_access":
			return field("index")
		case "assignment_expression":
			return field("right")
		case "variable_declarator":
			return field("value")
		}
	case "cpp":
		switch par.Kind() {
		case "binary_expression", "unary_expression", "parenthesized_expression", "argument_list",
			"return_statement", "conditional_expression", "initializer_list", "subscript_argument_list":
			return true
		case "cast_expression":
			return field("value")
		case "assignment_expression":
			return field("right")
		case "init_declarator":
			return field("value")
		case "condition_clause":
			return field("value")
		}
	case "python":
		switch par.Kind() {
		case "binary_operator", "unary_operator", "comparison_operator", "boolean_operator",
			"not_operator", "parenthesized_expression", "argument_list", "return_statement",
			"conditional_expression", "expression_list", "list", "tuple", "slice":
			return true
		case "keyword_argument":
			return field("value")
		case "subscript":
			return field("subscript")
		case "assignment", "augmented_assignment":
			return field("right")
		case "if_statement", "while_statement", "elif_clause":
			return field("condition")
		}
	}
	return false
}

func (g *gen) isVar(n *sitter.Node) bool {
	return n.Kind() == g.s.identKind || g.s.fieldKinds[n.Kind()]
}

// stringy reports whether n is (syntactically or by declaration) a string
// or, in Python, a list/tuple: "+" is then concatenation, not arithmetic.
func (g *gen) stringy(n *sitter.Node) bool {
	switch n.Kind() {
	case "string_literal", "string", "concatenated_string", "raw_string_literal", "list", "tuple",
		"list_comprehension":
		return true
	case "identifier":
		return g.syms[g.text(n)].cls == tString
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return g.stringy(n.NamedChild(0))
		}
	}
	if l, _, r, op, ok := g.s.binaryParts(n, g.src); ok && (op == "+" || op == "*") {
		return g.stringy(l) || g.stringy(r)
	}
	return false
}

// nonNumeric reports whether n is known not to be a number (ROR then only
// swaps == and !=, as muJava does for boolean and reference operands).
func (g *gen) nonNumeric(n *sitter.Node) bool {
	switch n.Kind() {
	case "string_literal", "string", "concatenated_string", "true", "false", "null_literal",
		"null", "nullptr", "none", "list", "tuple", "dictionary", "binary_expression":
		if n.Kind() == "binary_expression" {
			_, _, _, op, _ := g.s.binaryParts(n, g.src)
			c := g.category(op)
			return c == "relational" || c == "logical"
		}
		return true
	case "comparison_operator", "boolean_operator", "not_operator":
		return true
	case "identifier":
		sym, ok := g.syms[g.text(n)]
		return ok && (sym.dims > 0 || sym.cls == tBool || sym.cls == tString || sym.cls == tOther)
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return g.nonNumeric(n.NamedChild(0))
		}
	}
	return false
}

// isStream reports whether n is a C++ stream insertion/extraction chain.
func (g *gen) isStream(n *sitter.Node) bool {
	if g.s.name != "cpp" {
		return false
	}
	for {
		l, _, _, op, ok := g.s.binaryParts(n, g.src)
		if !ok || (op != "<<" && op != ">>") {
			break
		}
		n = l
	}
	t := g.text(n)
	t = strings.TrimPrefix(t, "std::")
	switch t {
	case "cout", "cerr", "clog", "cin":
		return true
	}
	return false
}

// sdl deletes statement n (SDL). Declarations and return statements are
// never deleted (as in muJava: the result would not compile). A statement
// that is the whole body of an if/loop becomes an empty statement (";" or
// Python "pass") so that the mutant still parses.
func (g *gen) sdl(n *sitter.Node) {
	s := g.s
	par := n.Parent()
	if par == nil {
		return
	}
	if s.name == "python" && n.Kind() == "expression_statement" {
		c := n.NamedChild(0)
		if c == nil || c.Kind() == "string" {
			return // docstring
		}
		if c.Kind() == "assignment" {
			if l := c.ChildByFieldName("left"); l != nil && l.Kind() == "identifier" {
				name := g.text(l)
				if !g.bound[name] {
					g.bound[name] = true // first binding acts as the declaration
					return
				}
			}
		}
	}
	if !s.blockKinds[par.Kind()] {
		if s.name == "python" || s.blockKinds[n.Kind()] {
			return
		}
		for _, f := range []string{"body", "consequence", "alternative"} {
			if sameNode(par.ChildByFieldName(f), n) {
				g.addNode("SDL", n, ";")
				return
			}
		}
		return
	}
	if s.blockKinds[n.Kind()] && par.Kind() == "translation_unit" {
		return
	}
	if s.name == "python" {
		stmts := 0
		for i := uint(0); i < par.NamedChildCount(); i++ {
			if par.NamedChild(i).Kind() != "comment" {
				stmts++
			}
		}
		if stmts == 1 {
			g.addNode("SDL", n, "pass")
			return
		}
	}
	start, end := int(n.StartByte()), int(n.EndByte())
	if s.name == "python" { // a trailing ";" belongs to the deleted statement
		rest := strings.TrimLeft(string(g.src[end:]), " \t")
		if strings.HasPrefix(rest, ";") {
			end = len(g.src) - len(rest) + 1
		}
	}
	ls := strings.LastIndexByte(string(g.src[:start]), '\n')
	le := strings.IndexByte(string(g.src[end:]), '\n')
	if le < 0 {
		le = len(g.src)
	} else {
		le += end
	}
	if ls >= 0 && strings.TrimSpace(string(g.src[ls+1:start])) == "" && strings.TrimSpace(string(g.src[end:le])) == "" {
		g.add("SDL", uint(ls), uint(le), "")
		if len(g.cands) > 0 && g.en["SDL"] {
			g.cands[len(g.cands)-1].at = start
		}
		return
	}
	g.add("SDL", uint(start), uint(end), "")
}

// floaty reports whether n is known to be floating point; C++ rejects %
// on such operands, so AORB/ASRS do not introduce it there.
func (g *gen) floaty(n *sitter.Node) bool {
	switch n.Kind() {
	case "identifier":
		sym := g.syms[g.text(n)]
		return sym.dims == 0 && sym.cls == tFloat
	case "number_literal":
		t := strings.ToLower(g.text(n))
		return !strings.HasPrefix(t, "0x") && strings.ContainsAny(t, ".e")
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return g.floaty(n.NamedChild(0))
		}
	case "cast_expression":
		if t := n.ChildByFieldName("type"); t != nil {
			return classify(g.text(t)).cls == tFloat
		}
	case "call_expression":
		if f := n.ChildByFieldName("function"); f != nil {
			switch strings.TrimPrefix(g.text(f), "std::") {
			case "sqrt", "pow", "log", "exp", "floor", "ceil", "fabs", "sin", "cos", "tan", "log2", "log10", "cbrt":
				return true
			}
		}
	}
	if l, _, r, op, ok := g.s.binaryParts(n, g.src); ok && in(g.s.arith, op) {
		return g.floaty(l) || g.floaty(r)
	}
	return false
}

// boolish reports whether n is known to be a boolean (Java/C++).
func (g *gen) boolish(n *sitter.Node) bool {
	switch n.Kind() {
	case "true", "false":
		return true
	case "identifier":
		sym := g.syms[g.text(n)]
		return sym.dims == 0 && sym.cls == tBool
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return g.boolish(n.NamedChild(0))
		}
	case "unary_expression":
		return opText(n, g.src) == "!"
	}
	if _, _, _, op, ok := g.s.binaryParts(n, g.src); ok {
		c := g.category(op)
		return c == "relational" || c == "logical"
	}
	return false
}
