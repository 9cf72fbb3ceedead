// Package inspect holds the syntactic program-inspection functions of NOMOS
// (NOMOS for code translation, appendix A.2): arity, numConditionals and numLoops,
// defined once per language by tree-sitter queries (docs/PROPERTIES.md says what
// counts as a conditional or a loop), and the function-locating helpers that the
// metamorphic transformations (transforms/metamorph) share with them.
//
// The package does not import Beam and is safe for concurrent use.
package inspect

import (
	"fmt"
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"transmute/transforms/mutate"
)

// Syntax is what the syntactic inspections return for one program. A field is -1
// when it cannot be computed (no function named entry, no code).
type Syntax struct {
	Arity        int
	Conditionals int
	Loops        int
}

// Missing is the Syntax of a program that does not exist (no translation).
var Missing = Syntax{Arity: -1, Conditionals: -1, Loops: -1}

// queries are the one definition per language of a conditional (@c) and a loop (@l).
// Conditionals: every if (an else-if is an if of its own; Python's elif too), every
// ternary, every non-default case label, and Python's comprehension filters. Loops:
// for, range/enhanced for, while, do-while, and Python's comprehension clauses.
var queries = map[string]string{
	"java": `(if_statement) @c (ternary_expression) @c (switch_label (_)) @c
(for_statement) @l (enhanced_for_statement) @l (while_statement) @l (do_statement) @l`,
	"cpp": `(if_statement) @c (conditional_expression) @c (case_statement value: (_)) @c
(for_statement) @l (for_range_loop) @l (while_statement) @l (do_statement) @l`,
	"python": `(if_statement) @c (elif_clause) @c (conditional_expression) @c (if_clause) @c (case_clause) @c
(for_statement) @l (while_statement) @l (for_in_clause) @l`,
}

type compiled struct {
	once   sync.Once
	lang   *sitter.Language
	name   string
	q      *sitter.Query
	ci, li uint
	err    error
}

var langs = map[string]*compiled{"java": {}, "cpp": {}, "python": {}}

// canonical maps aliases (c++, py) to java, cpp or python.
func canonical(lang string) string {
	switch strings.ToLower(strings.TrimSpace(lang)) {
	case "c++", "cpp":
		return "cpp"
	case "py", "python":
		return "python"
	}
	return strings.ToLower(strings.TrimSpace(lang))
}

func get(lang string) (*compiled, error) {
	c, ok := langs[canonical(lang)]
	if !ok {
		return nil, fmt.Errorf("inspect: unsupported language %q", lang)
	}
	c.once.Do(func() {
		c.lang, c.name, c.err = mutate.Grammar(lang)
		if c.err != nil {
			return
		}
		q, qerr := sitter.NewQuery(c.lang, queries[c.name])
		if qerr != nil {
			c.err = fmt.Errorf("inspect: %s query: %v", c.name, qerr)
			return
		}
		c.q = q
		c.ci, _ = q.CaptureIndexForName("c")
		c.li, _ = q.CaptureIndexForName("l")
	})
	return c, c.err
}

// Count returns the conditionals and loops in the subtree of n (n included).
func Count(lang string, n *sitter.Node, src []byte) (conds, loops int, err error) {
	c, err := get(lang)
	if err != nil {
		return 0, 0, err
	}
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	caps := qc.Captures(c.q, n, src)
	for m, i := caps.Next(); m != nil; m, i = caps.Next() {
		switch uint(m.Captures[i].Index) {
		case c.ci:
			conds++
		case c.li:
			loops++
		}
	}
	return conds, loops, nil
}

// Inspect parses code in lang and returns the arity of the function named entry
// (the last top-level function when entry is empty or absent) and the number of
// conditionals and loops in the whole code (helpers included: a translator may
// inline or split functions, and the transformations count the same way). A code
// without any function has arity -1.
func Inspect(lang, code, entry string) (Syntax, error) {
	p, err := mutate.NewParser(lang)
	if err != nil {
		return Missing, err
	}
	defer p.Close()
	src := []byte(code)
	t := p.Parse(src, nil)
	if t == nil {
		return Missing, fmt.Errorf("inspect: %s parse failed", lang)
	}
	defer t.Close()
	root := t.RootNode()
	s := Syntax{Arity: -1}
	if s.Conditionals, s.Loops, err = Count(lang, root, src); err != nil {
		return Missing, err
	}
	if fn := FindFunction(lang, root, src, entry); fn != nil {
		s.Arity = len(Params(lang, fn))
	}
	return s, nil
}

// funcKinds are the function-definition node kinds.
var funcKinds = map[string][]string{
	"java":   {"method_declaration", "constructor_declaration"},
	"cpp":    {"function_definition"},
	"python": {"function_definition"},
}

// IsFunction tells whether n is a function definition in lang.
func IsFunction(lang string, n *sitter.Node) bool {
	for _, k := range funcKinds[canonical(lang)] {
		if n.Kind() == k {
			return true
		}
	}
	return false
}

// FunctionName returns the name node of a function definition.
func FunctionName(lang string, fn *sitter.Node) *sitter.Node {
	if canonical(lang) != "cpp" {
		return fn.ChildByFieldName("name")
	}
	d := fn.ChildByFieldName("declarator")
	for d != nil {
		switch d.Kind() {
		case "identifier", "field_identifier", "qualified_identifier", "operator_name", "destructor_name":
			return d
		}
		d = d.ChildByFieldName("declarator")
	}
	return nil
}

// FindFunction returns the function named entry: the outermost one in document
// order, else the last top-level function when entry is empty or not found.
func FindFunction(lang string, root *sitter.Node, src []byte, entry string) *sitter.Node {
	var found, last *sitter.Node
	var walk func(n *sitter.Node, depth int)
	walk = func(n *sitter.Node, depth int) {
		if found != nil {
			return
		}
		if IsFunction(lang, n) {
			if nm := FunctionName(lang, n); nm != nil && entry != "" && nm.Utf8Text(src) == entry {
				found = n
				return
			}
			if depth <= 2 {
				last = n
			}
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			walk(n.NamedChild(i), depth+1)
		}
	}
	walk(root, 0)
	if found != nil {
		return found
	}
	return last
}

// ParamList returns the parameter-list node of a function definition.
func ParamList(lang string, fn *sitter.Node) *sitter.Node {
	if canonical(lang) != "cpp" {
		return fn.ChildByFieldName("parameters")
	}
	d := fn.ChildByFieldName("declarator")
	for d != nil {
		if d.Kind() == "function_declarator" {
			return d.ChildByFieldName("parameters")
		}
		d = d.ChildByFieldName("declarator")
	}
	return nil
}

// Params returns the parameter nodes of a function definition (C++'s lone "void"
// is no parameter; comments are skipped).
func Params(lang string, fn *sitter.Node) []*sitter.Node {
	pl := ParamList(lang, fn)
	if pl == nil {
		return nil
	}
	var out []*sitter.Node
	for i := uint(0); i < pl.NamedChildCount(); i++ {
		c := pl.NamedChild(i)
		k := c.Kind()
		if strings.Contains(k, "comment") {
			continue
		}
		if k == "parameter_declaration" && c.ChildByFieldName("declarator") == nil {
			if t := c.ChildByFieldName("type"); t != nil && t.Kind() == "primitive_type" && pl.NamedChildCount() == 1 {
				continue // f(void)
			}
		}
		out = append(out, c)
	}
	return out
}

// ParamName returns the identifier node naming a parameter, or nil.
func ParamName(lang string, p *sitter.Node) *sitter.Node {
	switch canonical(lang) {
	case "python":
		if p.Kind() == "identifier" {
			return p
		}
		if n := p.ChildByFieldName("name"); n != nil && n.Kind() == "identifier" {
			return n
		}
		if p.Kind() == "typed_parameter" && p.NamedChildCount() > 0 && p.NamedChild(0).Kind() == "identifier" {
			return p.NamedChild(0)
		}
		return nil
	case "java":
		return p.ChildByFieldName("name")
	default:
		d := p.ChildByFieldName("declarator")
		for d != nil {
			if d.Kind() == "identifier" {
				return d
			}
			nd := d.ChildByFieldName("declarator")
			if nd == nil && d.NamedChildCount() > 0 {
				// reference_declarator has its declarator as an unnamed-field child
				nd = d.NamedChild(0)
			}
			d = nd
		}
		return nil
	}
}
