package similarity

import (
	"sort"
	"strings"
)

// A program dependence graph over statements, built from the syntax tree of each
// function: one entry node per function, one node per simple statement and per
// control predicate (if, loop, switch head), control-dependence edges from the
// innermost enclosing predicate (or the entry) to each node, and def-use
// data-dependence edges from every statement whose definition of a variable may
// reach a use of it (reaching definitions over the structured statements; a loop
// body is walked twice so loop-carried uses get their edges). Labels are renaming-
// free: the statement category and the operators it uses (x = x ^ m and y = y ^ k
// get the same label), because RUBY's point is that a PDG sees past names.

// Edge kinds, or-ed when two nodes have both.
const (
	EdgeControl uint8 = 1
	EdgeData    uint8 = 2
)

// PDG is a program dependence graph: node labels and a dense adjacency matrix of
// edge labels (0 = no edge), small enough for the graphs of single functions.
type PDG struct {
	Labels []string
	Adj    [][]uint8
}

// Size is RUBY's size(g): vertices plus edges.
func (g *PDG) Size() int {
	if g == nil {
		return 0
	}
	e := 0
	for _, row := range g.Adj {
		for _, x := range row {
			if x != 0 {
				e++
			}
		}
	}
	return len(g.Labels) + e
}

var functionKinds = map[string]bool{"method_declaration": true, "constructor_declaration": true,
	"function_definition": true}

var paramListKinds = map[string]bool{"formal_parameters": true, "parameter_list": true, "parameters": true}

// Header fields of compound statements: evaluated by the predicate node itself.
var headerFields = map[string]map[string]bool{
	"if_statement":           {"condition": true},
	"elif_clause":            {"condition": true},
	"while_statement":        {"condition": true},
	"do_statement":           {"condition": true},
	"for_statement":          {"init": true, "condition": true, "update": true, "initializer": true, "left": true, "right": true},
	"enhanced_for_statement": {"type": true, "name": true, "value": true},
	"for_range_loop":         {"type": true, "declarator": true, "right": true},
	"switch_expression":      {"condition": true},
	"switch_statement":       {"condition": true},
	"match_statement":        {"subject": true},
}

var predicateCategory = map[string]string{
	"if_statement": "if", "elif_clause": "if", "while_statement": "loop", "do_statement": "loop",
	"for_statement": "loop", "enhanced_for_statement": "loop", "for_range_loop": "loop",
	"switch_expression": "switch", "switch_statement": "switch", "match_statement": "switch",
}

var loopKinds = map[string]bool{"while_statement": true, "do_statement": true, "for_statement": true,
	"enhanced_for_statement": true, "for_range_loop": true}

var simpleCategory = map[string]string{
	"return_statement": "return", "break_statement": "break", "continue_statement": "continue",
	"throw_statement": "throw", "raise_statement": "throw", "local_variable_declaration": "decl",
	"declaration": "decl", "assert_statement": "assert", "delete_statement": "delete",
	"global_statement": "", "nonlocal_statement": "", "pass_statement": "", "empty_statement": "",
	"import_statement": "", "import_from_statement": "", "using_declaration": "",
}

var operators = map[string]bool{"+": true, "-": true, "*": true, "/": true, "%": true, "<<": true,
	">>": true, ">>>": true, "&": true, "|": true, "^": true, "~": true, "!": true, "&&": true,
	"||": true, "==": true, "!=": true, "<": true, ">": true, "<=": true, ">=": true, "and": true,
	"or": true, "not": true, "in": true, "is": true, "++": true, "--": true, "**": true, "//": true,
	"+=": true, "-=": true, "*=": true, "/=": true, "%=": true, "<<=": true, ">>=": true, ">>>=": true,
	"&=": true, "|=": true, "^=": true, "**=": true, "//=": true, "?": true}

// BuildPDG builds the PDG of every function of p. ok is false when p does not parse
// or has no function: RUBY then falls back to the tree.
func BuildPDG(p *Program) (*PDG, bool) {
	if p == nil || p.Root == nil || !p.Parses {
		return nil, false
	}
	b := &pdgBuilder{}
	var find func(n *Node)
	find = func(n *Node) {
		if functionKinds[n.Kind] {
			b.function(n)
			return
		}
		for _, c := range n.Children {
			find(c)
		}
	}
	find(p.Root)
	if b.functions == 0 {
		return nil, false
	}
	g := &PDG{Labels: b.labels, Adj: make([][]uint8, len(b.labels))}
	for i := range g.Adj {
		g.Adj[i] = make([]uint8, len(b.labels))
	}
	for e, k := range b.edges {
		g.Adj[e[0]][e[1]] |= k
	}
	return g, true
}

type pdgBuilder struct {
	labels    []string
	edges     map[[2]int]uint8
	functions int
}

// stmt is a statement node in the structured form the data-flow pass walks:
// simple (no bodies), branching (bodies run alternatively) or a loop.
type stmt struct {
	id         int
	defs, uses []string
	loop       bool
	bodies     [][]*stmt
}

// defs maps a variable to the nodes whose definitions of it may reach here.
type defs map[string][]int

func (d defs) clone() defs {
	c := make(defs, len(d))
	for k, v := range d {
		c[k] = append([]int(nil), v...)
	}
	return c
}

func union(a, b defs) defs {
	out := a.clone()
	for k, v := range b {
		for _, x := range v {
			if !containsInt(out[k], x) {
				out[k] = append(out[k], x)
			}
		}
	}
	return out
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func (b *pdgBuilder) node(label string) int {
	b.labels = append(b.labels, label)
	return len(b.labels) - 1
}

func (b *pdgBuilder) edge(from, to int, k uint8) {
	if b.edges == nil {
		b.edges = map[[2]int]uint8{}
	}
	b.edges[[2]int{from, to}] |= k
}

func (b *pdgBuilder) function(fn *Node) {
	b.functions++
	entry := b.node("entry")
	in := defs{}
	var body *Node
	for _, c := range fn.Children {
		if c.Field == "body" {
			body = c
		}
	}
	// Parameters: the identifiers of the parameter list outside type annotations.
	var params func(n *Node, inList bool)
	params = func(n *Node, inList bool) {
		if n.Field == "type" || n.Field == "default_value" || n.Field == "value" || n == body {
			return
		}
		if inList && n.Kind == "identifier" {
			in[n.Text] = []int{entry}
			return
		}
		for _, c := range n.Children {
			params(c, inList || paramListKinds[n.Kind])
		}
	}
	params(fn, false)
	if body != nil {
		b.flow(b.walk(body, entry, nil), in)
	}
}

// flow propagates reaching definitions through a statement sequence, adding a
// data edge from each reaching definition to each use.
func (b *pdgBuilder) flow(seq []*stmt, in defs) defs {
	for _, s := range seq {
		in = b.flowOne(s, in)
	}
	return in
}

func (b *pdgBuilder) flowOne(s *stmt, in defs) defs {
	use := func(in defs) {
		for _, v := range s.uses {
			for _, from := range in[v] {
				b.edge(from, s.id, EdgeData)
			}
		}
	}
	define := func(in defs) defs {
		if len(s.defs) == 0 {
			return in
		}
		out := in.clone()
		for _, v := range s.defs {
			out[v] = []int{s.id}
		}
		return out
	}
	if s.loop {
		// Twice round the loop: the second pass adds the loop-carried edges.
		cur := in
		for range 2 {
			use(cur)
			h := define(cur)
			o := h
			for _, body := range s.bodies {
				o = b.flow(body, o)
			}
			cur = union(in, union(h, o))
		}
		return cur
	}
	use(in)
	h := define(in)
	out := h
	for _, body := range s.bodies {
		out = union(out, b.flow(body, h))
	}
	return out
}

// walk adds the statements under n, control dependent on ctrl, to the graph and
// appends them to seq.
func (b *pdgBuilder) walk(n *Node, ctrl int, seq []*stmt) []*stmt {
	if functionKinds[n.Kind] || n.Kind == "class_declaration" || n.Kind == "class_definition" ||
		n.Kind == "lambda_expression" || n.Kind == "lambda" {
		return seq // a nested function or class has its own graph (or none)
	}
	if cat, ok := predicateCategory[n.Kind]; ok {
		return append(seq, b.compound(n, cat, ctrl))
	}
	if cat, ok := simpleCategory[n.Kind]; ok {
		if cat == "" {
			return seq
		}
		return append(seq, b.simple(n, cat, ctrl))
	}
	if n.Kind == "expression_statement" {
		return append(seq, b.simple(n, exprCategory(n), ctrl))
	}
	if strings.HasSuffix(n.Kind, "_statement") && !containsStatements(n) {
		return append(seq, b.simple(n, "stmt:"+n.Kind, ctrl))
	}
	// Blocks, else/case/try/catch clauses: their statements in order.
	for _, c := range n.Children {
		if c.Named {
			seq = b.walk(c, ctrl, seq)
		}
	}
	return seq
}

func containsStatements(n *Node) bool {
	for _, c := range n.Children {
		if c.Kind == "block" || c.Kind == "compound_statement" || strings.HasSuffix(c.Kind, "_statement") || strings.HasSuffix(c.Kind, "_clause") {
			return true
		}
	}
	return false
}

// exprCategory classifies an expression statement: assignment, call or other.
func exprCategory(n *Node) string {
	for _, c := range n.Children {
		switch c.Kind {
		case "assignment_expression", "assignment", "augmented_assignment", "update_expression":
			return "assign"
		case "method_invocation", "call_expression", "call":
			return "call"
		}
	}
	return "expr"
}

func (b *pdgBuilder) simple(n *Node, cat string, ctrl int) *stmt {
	d, u := defsUses(n)
	id := b.node(cat + "|" + opsLabel(n, nil))
	b.edge(ctrl, id, EdgeControl)
	return &stmt{id: id, defs: d, uses: u}
}

func (b *pdgBuilder) compound(n *Node, cat string, ctrl int) *stmt {
	hf := headerFields[n.Kind]
	var header, bodies []*Node
	for _, c := range n.Children {
		if !c.Named {
			continue
		}
		if hf[c.Field] {
			header = append(header, c)
		} else {
			bodies = append(bodies, c)
		}
	}
	hn := &Node{Kind: n.Kind, Children: header}
	d, u := defsUses(hn)
	id := b.node(cat + "|" + opsLabel(hn, nil))
	b.edge(ctrl, id, EdgeControl)
	s := &stmt{id: id, defs: d, uses: u, loop: loopKinds[n.Kind]}
	for _, body := range bodies {
		s.bodies = append(s.bodies, b.walk(body, id, nil))
	}
	if s.loop {
		// A loop's bodies run in sequence (for: body; Python while/for: else after).
		var all []*stmt
		for _, x := range s.bodies {
			all = append(all, x...)
		}
		s.bodies = [][]*stmt{all}
	}
	return s
}

// defsUses returns the variables n defines and those it reads (outside nested
// bodies, which have their own nodes).
func defsUses(n *Node) (d, u []string) {
	seenD, seenU := map[string]bool{}, map[string]bool{}
	addD := func(v string) {
		if !seenD[v] {
			seenD[v] = true
			d = append(d, v)
		}
	}
	addU := func(v string) {
		if !seenU[v] {
			seenU[v] = true
			u = append(u, v)
		}
	}
	var visit func(n *Node, role int)
	const (
		use = iota
		def
		defUse
	)
	visit = func(n *Node, role int) {
		switch n.Kind {
		case "identifier":
			if n.Field == "type" {
				return
			}
			switch role {
			case def:
				addD(n.Text)
			case defUse:
				addD(n.Text)
				addU(n.Text)
			default:
				addU(n.Text)
			}
			return
		case "block", "compound_statement", "lambda_expression", "lambda":
			return
		}
		if n.Field == "type" || n.Field == "function" && n.Kind == "identifier" {
			return
		}
		for _, c := range n.Children {
			r := use
			switch {
			case (n.Kind == "assignment_expression" || n.Kind == "assignment") && c.Field == "left":
				if opIsCompound(n) {
					r = defUse
				} else if c.Kind == "identifier" || c.Kind == "pattern_list" || c.Kind == "tuple_pattern" {
					r = def
				} else {
					r = defUse // a[i] = x writes a and reads a and i
				}
			case n.Kind == "augmented_assignment" && c.Field == "left":
				r = defUse
			case n.Kind == "update_expression":
				r = defUse
			case (n.Kind == "variable_declarator" && c.Field == "name") ||
				(n.Kind == "init_declarator" && c.Field == "declarator") ||
				(n.Kind == "declaration" && c.Field == "declarator" && c.Kind != "init_declarator") ||
				(n.Kind == "enhanced_for_statement" && c.Field == "name") ||
				(n.Kind == "for_range_loop" && c.Field == "declarator") ||
				(n.Kind == "for_statement" && c.Field == "left"):
				r = def
			default:
				if role == def || role == defUse {
					// The name inside a declarator (int a[n], *p): the declared name is the
					// first identifier; sizes are uses.
					if c.Kind == "identifier" && c.Field == "declarator" {
						r = role
					} else if c.Field != "size" && c.Field != "index" && c.Field != "subscript" {
						r = role
					}
				}
			}
			visit(c, r)
		}
	}
	visit(n, use)
	return d, u
}

func opIsCompound(n *Node) bool {
	for _, c := range n.Children {
		if !c.Named && c.Field == "operator" && c.Text != "=" {
			return true
		}
		if !c.Named && strings.HasSuffix(c.Kind, "=") && c.Kind != "=" && c.Kind != "==" && c.Kind != "!=" &&
			c.Kind != "<=" && c.Kind != ">=" {
			return true
		}
	}
	return false
}

// opsLabel is the sorted set of operators under n (outside nested blocks), a
// compound assignment counting as its operator (x += 1 is x = x + 1).
func opsLabel(n *Node, acc map[string]bool) string {
	top := acc == nil
	if top {
		acc = map[string]bool{}
	}
	for _, c := range n.Children {
		if c.Kind == "block" || c.Kind == "compound_statement" {
			continue
		}
		if !c.Named && operators[c.Kind] {
			op := c.Kind
			if len(op) >= 2 && strings.HasSuffix(op, "=") && op != "==" && op != "!=" && op != "<=" && op != ">=" {
				op = strings.TrimSuffix(op, "=")
			}
			if op == "++" {
				op = "+"
			} else if op == "--" {
				op = "-"
			}
			acc[op] = true
		}
		opsLabel(c, acc)
	}
	if !top {
		return ""
	}
	ops := make([]string, 0, len(acc))
	for o := range acc {
		ops = append(ops, o)
	}
	sort.Strings(ops)
	return strings.Join(ops, " ")
}
