package consistency

import (
	"fmt"
	"sort"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"transmute/transforms/mutate"
)

// ident is one identifier token of a parsed function with the syntax around it
// that the role classifier and the rename filters look at.
type ident struct {
	name        string
	kind        string // node kind (identifier)
	start, end  int
	parent      string // parent node kind
	field       string // the parent's field holding it ("" when none)
	grandparent string
	decl        bool // it declares a parameter or local variable
	forHeader   bool // declared in a for loop's header (an index)
	subscripted bool // the object of a subscript (an array)
	returned    bool // the whole returned expression
	updated     bool // ++, --, += ...
	compared    bool // an operand of a relational comparison
	member      bool // a member/function/keyword-argument name, not a variable
}

// literal is one integer literal token.
type literal struct {
	text, kind string
	start, end int
}

// parsed is what the variant generator and the table builder know of a function.
type parsed struct {
	lang     string
	idents   []ident
	literals []literal
	hasError bool
	// scoped lists names that a Python global/nonlocal statement names.
	scoped map[string]bool
}

// parse reads code in lang and classifies its identifiers by syntax.
func parse(lang, code string) (*parsed, error) {
	canon, err := mutate.CanonicalLang(lang)
	if err != nil {
		return nil, err
	}
	p, err := mutate.NewParser(canon)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	src := []byte(code)
	t := p.Parse(src, nil)
	if t == nil {
		return nil, fmt.Errorf("consistency: %s: parse failed", canon)
	}
	defer t.Close()
	out := &parsed{lang: canon, scoped: map[string]bool{}, hasError: t.RootNode().HasError()}
	walk(out, t.RootNode(), nil, "", src)
	sort.Slice(out.idents, func(i, j int) bool { return out.idents[i].start < out.idents[j].start })
	return out, nil
}

func walk(out *parsed, n, parent *sitter.Node, field string, src []byte) {
	k := n.Kind()
	if k == "identifier" && parent != nil {
		out.idents = append(out.idents, classify(out.lang, n, parent, field, src))
	}
	if n.ChildCount() == 0 && isIntLiteral(out.lang, k, n.Utf8Text(src)) {
		out.literals = append(out.literals, literal{text: n.Utf8Text(src), kind: k, start: int(n.StartByte()), end: int(n.EndByte())})
	}
	if k == "global_statement" || k == "nonlocal_statement" {
		for i := uint(0); i < n.NamedChildCount(); i++ {
			out.scoped[n.NamedChild(i).Utf8Text(src)] = true
		}
	}
	for i := uint(0); i < n.ChildCount(); i++ {
		walk(out, n.Child(i), n, n.FieldNameForChild(uint32(i)), src)
	}
}

// isIntLiteral: decimal integer literals (a suffix such as L or u allowed in
// Java and C++); hex, octal and floating literals are left alone.
func isIntLiteral(lang, kind, text string) bool {
	switch {
	case lang == "java" && kind == "decimal_integer_literal",
		lang == "python" && kind == "integer",
		lang == "cpp" && kind == "number_literal":
	default:
		return false
	}
	d, _ := splitIntLiteral(text)
	return d != "" && (d == "0" || d[0] != '0')
}

// splitIntLiteral splits "10L" into "10" and "L"; digits is "" when text does not
// start with a decimal digit or has digit separators.
func splitIntLiteral(text string) (digits, suffix string) {
	i := 0
	for i < len(text) && text[i] >= '0' && text[i] <= '9' {
		i++
	}
	suffix = text[i:]
	for _, c := range suffix {
		if c != 'l' && c != 'L' && c != 'u' && c != 'U' {
			return "", ""
		}
	}
	return text[:i], suffix
}

func classify(lang string, n, parent *sitter.Node, field string, src []byte) ident {
	id := ident{name: n.Utf8Text(src), kind: n.Kind(), start: int(n.StartByte()), end: int(n.EndByte()),
		parent: parent.Kind(), field: field}
	gp := parent.Parent()
	if gp != nil {
		id.grandparent = gp.Kind()
	}
	pk := parent.Kind()
	switch lang {
	case "java":
		switch {
		case (pk == "formal_parameter" || pk == "spread_parameter" || pk == "catch_formal_parameter" ||
			pk == "variable_declarator" || pk == "enhanced_for_statement") && field == "name",
			pk == "inferred_parameters", pk == "lambda_expression" && field == "parameters":
			id.decl = true
			if pk == "enhanced_for_statement" || (pk == "variable_declarator" && gp != nil &&
				gp.Kind() == "local_variable_declaration" && gp.Parent() != nil && gp.Parent().Kind() == "for_statement") {
				id.forHeader = true
			}
		case pk == "array_access" && field == "array":
			id.subscripted = true
		case pk == "field_access" && field == "field", pk == "method_invocation" && field == "name",
			pk == "method_declaration" && field == "name", pk == "method_reference":
			id.member = true
		}
	case "python":
		switch {
		case pk == "parameters", pk == "lambda_parameters",
			(pk == "default_parameter" || pk == "typed_parameter" || pk == "typed_default_parameter") && (field == "name" || field == ""),
			(pk == "assignment" || pk == "augmented_assignment") && field == "left",
			(pk == "pattern_list" || pk == "tuple_pattern") && gp != nil && (gp.Kind() == "assignment" || gp.Kind() == "for_statement"):
			id.decl = true
		case pk == "for_statement" && field == "left":
			id.decl, id.forHeader = true, true
		case pk == "subscript" && field == "value":
			id.subscripted = true
		case pk == "attribute" && field == "attribute", pk == "keyword_argument" && field == "name",
			pk == "function_definition" && field == "name", pk == "call" && field == "function":
			id.member = true
		}
		if pk == "augmented_assignment" && field == "left" {
			id.updated = true
		}
		// range(n): Python's loop bound, where Java and C++ write i < n.
		if pk == "argument_list" && gp != nil && gp.Kind() == "call" {
			if fn := gp.ChildByFieldName("function"); fn != nil && fn.Utf8Text(src) == "range" {
				id.compared = true
			}
		}
	case "cpp":
		switch {
		case (pk == "init_declarator" || pk == "array_declarator" || pk == "pointer_declarator" ||
			pk == "reference_declarator" || pk == "parameter_declaration" || pk == "optional_parameter_declaration" ||
			pk == "declaration" || pk == "for_range_loop") && field == "declarator":
			id.decl = true
			for a := parent; a != nil; a = a.Parent() {
				if a.Kind() == "for_range_loop" || (a.Kind() == "declaration" && a.Parent() != nil && a.Parent().Kind() == "for_statement") {
					id.forHeader = true
					break
				}
				if a.Kind() == "compound_statement" || a.Kind() == "function_definition" {
					break
				}
			}
		case pk == "subscript_expression" && field == "argument":
			id.subscripted = true
		case pk == "function_declarator" && field == "declarator", pk == "call_expression" && field == "function":
			id.member = true
		}
	}
	switch pk {
	case "return_statement":
		id.returned = parent.NamedChildCount() == 1
	case "expression_statement":
		// Python's "return x" is a return_statement too; nothing to do here.
	case "update_expression", "assignment_expression":
		if pk == "update_expression" || (opOf(parent, src) != "=" && field == "left") {
			id.updated = true
		}
	case "binary_expression", "comparison_operator":
		switch opOf(parent, src) {
		case "<", "<=", ">", ">=", "!=":
			id.compared = true
		}
	}
	if pk == "comparison_operator" {
		for i := uint(0); i < parent.ChildCount(); i++ {
			switch c := parent.Child(i); c.Kind() {
			case "<", "<=", ">", ">=", "!=":
				id.compared = true
			}
		}
	}
	return id
}

func opOf(n *sitter.Node, src []byte) string {
	if o := n.ChildByFieldName("operator"); o != nil {
		return o.Utf8Text(src)
	}
	return ""
}
