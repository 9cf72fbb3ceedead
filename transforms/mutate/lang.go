package mutate

import (
	"fmt"
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tspy "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

// langSpec holds everything language-specific: the grammar, the node kinds
// the operators look at, and the binary-operator precedence table used to
// keep the tree shape when an operator is replaced by one of another
// precedence level.
type langSpec struct {
	name     string
	language func() *sitter.Language
	// nodeKinds are captured as @n, declKinds as @decl.
	nodeKinds, declKinds []string

	once     sync.Once
	lang     *sitter.Language
	query    *sitter.Query
	queryErr error

	binaryKinds  map[string]bool // binary operator nodes with left/operator/right
	unaryKinds   map[string]bool
	updateKind   string
	compoundKind string // compound assignment ("" = shares assignmentKind)
	assignKind   string
	identKind    string
	callKind     string
	fieldKinds   map[string]bool // x.y
	constKinds   map[string]bool
	stmtKinds    map[string]bool // deletable statements (SDL)
	blockKinds   map[string]bool // statement containers
	prec         map[string]int  // binary operator precedence (higher binds tighter)

	arith, shift, bitwise, logical, relational []string
	compoundGroups                             [][]string
	trueLit, falseLit, notPrefix               string
}

var javaSpec = &langSpec{
	name:     "java",
	language: func() *sitter.Language { return sitter.NewLanguage(tsjava.Language()) },
	nodeKinds: []string{"binary_expression", "unary_expression", "update_expression",
		"assignment_expression", "identifier", "expression_statement", "if_statement",
		"while_statement", "for_statement", "enhanced_for_statement", "do_statement",
		"break_statement", "continue_statement", "switch_expression", "block",
		"try_statement", "throw_statement", "method_invocation"},
	declKinds:   []string{"formal_parameter", "spread_parameter", "local_variable_declaration", "enhanced_for_statement"},
	binaryKinds: set("binary_expression"),
	unaryKinds:  set("unary_expression"),
	updateKind:  "update_expression",
	assignKind:  "assignment_expression",
	identKind:   "identifier",
	callKind:    "method_invocation",
	fieldKinds:  set("field_access"),
	constKinds: set("decimal_integer_literal", "hex_integer_literal", "octal_integer_literal",
		"binary_integer_literal", "decimal_floating_point_literal", "hex_floating_point_literal",
		"character_literal", "string_literal", "true", "false", "null_literal"),
	stmtKinds: set("expression_statement", "if_statement", "while_statement", "for_statement",
		"enhanced_for_statement", "do_statement", "break_statement", "continue_statement",
		"switch_expression", "block", "try_statement", "throw_statement"),
	blockKinds: set("block", "switch_block_statement_group", "program"),
	prec: map[string]int{"*": 12, "/": 12, "%": 12, "+": 11, "-": 11, "<<": 10, ">>": 10, ">>>": 10,
		"<": 9, ">": 9, "<=": 9, ">=": 9, "instanceof": 9, "==": 8, "!=": 8,
		"&": 7, "^": 6, "|": 5, "&&": 4, "||": 3},
	arith:      []string{"+", "-", "*", "/", "%"},
	shift:      []string{"<<", ">>", ">>>"},
	bitwise:    []string{"&", "|", "^"},
	logical:    []string{"&&", "||"},
	relational: []string{">", ">=", "<", "<=", "==", "!="},
	compoundGroups: [][]string{{"+=", "-=", "*=", "/=", "%="}, {"&=", "|=", "^="},
		{"<<=", ">>=", ">>>="}},
	trueLit: "true", falseLit: "false", notPrefix: "!",
}

var cppSpec = &langSpec{
	name:     "cpp",
	language: func() *sitter.Language { return sitter.NewLanguage(tscpp.Language()) },
	nodeKinds: []string{"binary_expression", "unary_expression", "update_expression",
		"assignment_expression", "identifier", "expression_statement", "if_statement",
		"while_statement", "for_statement", "for_range_loop", "do_statement",
		"break_statement", "continue_statement", "switch_statement", "compound_statement",
		"throw_statement", "try_statement", "call_expression"},
	declKinds:   []string{"parameter_declaration", "optional_parameter_declaration", "declaration", "for_range_loop"},
	binaryKinds: set("binary_expression"),
	unaryKinds:  set("unary_expression"),
	updateKind:  "update_expression",
	assignKind:  "assignment_expression",
	identKind:   "identifier",
	callKind:    "call_expression",
	fieldKinds:  set("field_expression"),
	constKinds: set("number_literal", "char_literal", "string_literal", "raw_string_literal",
		"true", "false", "null", "nullptr"),
	stmtKinds: set("expression_statement", "if_statement", "while_statement", "for_statement",
		"for_range_loop", "do_statement", "break_statement", "continue_statement",
		"switch_statement", "compound_statement", "throw_statement", "try_statement"),
	blockKinds: set("compound_statement", "case_statement", "translation_unit"),
	prec: map[string]int{"*": 12, "/": 12, "%": 12, "+": 11, "-": 11, "<<": 10, ">>": 10,
		"<=>": 9, "<": 8, ">": 8, "<=": 8, ">=": 8, "==": 7, "!=": 7,
		"&": 6, "^": 5, "|": 4, "&&": 3, "||": 2, "and": 3, "or": 2, "bitand": 6, "bitor": 4, "xor": 5},
	arith:      []string{"+", "-", "*", "/", "%"},
	shift:      []string{"<<", ">>"},
	bitwise:    []string{"&", "|", "^"},
	logical:    []string{"&&", "||"},
	relational: []string{">", ">=", "<", "<=", "==", "!="},
	compoundGroups: [][]string{{"+=", "-=", "*=", "/=", "%="}, {"&=", "|=", "^="},
		{"<<=", ">>="}},
	trueLit: "true", falseLit: "false", notPrefix: "!",
}

var pySpec = &langSpec{
	name:     "python",
	language: func() *sitter.Language { return sitter.NewLanguage(tspy.Language()) },
	nodeKinds: []string{"binary_operator", "boolean_operator", "comparison_operator",
		"unary_operator", "not_operator", "augmented_assignment", "identifier",
		"expression_statement", "if_statement", "while_statement", "for_statement",
		"break_statement", "continue_statement", "try_statement", "raise_statement",
		"with_statement", "match_statement", "call"},
	declKinds:    []string{"parameters", "lambda_parameters"},
	binaryKinds:  set("binary_operator", "boolean_operator"),
	unaryKinds:   set("unary_operator", "not_operator"),
	compoundKind: "augmented_assignment",
	assignKind:   "assignment",
	identKind:    "identifier",
	callKind:     "call",
	fieldKinds:   set("attribute"),
	constKinds:   set("integer", "float", "string", "concatenated_string", "true", "false", "none"),
	stmtKinds: set("expression_statement", "if_statement", "while_statement", "for_statement",
		"break_statement", "continue_statement", "try_statement", "raise_statement",
		"with_statement", "match_statement"),
	blockKinds: set("block", "module"),
	prec: map[string]int{"**": 16, "*": 14, "/": 14, "//": 14, "%": 14, "@": 14, "+": 13, "-": 13,
		"<<": 12, ">>": 12, "&": 11, "^": 10, "|": 9, "<": 8, ">": 8, "<=": 8, ">=": 8,
		"==": 8, "!=": 8, "in": 8, "not in": 8, "is": 8, "is not": 8, "not": 7, "and": 6, "or": 5},
	arith:          []string{"+", "-", "*", "/", "//", "%"},
	shift:          []string{"<<", ">>"},
	bitwise:        []string{"&", "|", "^"},
	logical:        []string{"and", "or"},
	relational:     []string{">", ">=", "<", "<=", "==", "!="},
	compoundGroups: [][]string{{"+=", "-=", "*=", "/=", "//=", "%="}, {"&=", "|=", "^="}, {"<<=", ">>="}},
	trueLit:        "True", falseLit: "False", notPrefix: "not ",
}

func set(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

func specFor(lang string) (*langSpec, error) {
	var s *langSpec
	switch strings.ToLower(strings.TrimSpace(lang)) {
	case "java":
		s = javaSpec
	case "cpp", "c++":
		s = cppSpec
	case "python", "py":
		s = pySpec
	default:
		return nil, fmt.Errorf("mutate: unsupported language %q", lang)
	}
	s.once.Do(func() {
		s.lang = s.language()
		var b strings.Builder
		for _, k := range s.nodeKinds {
			fmt.Fprintf(&b, "(%s) @n\n", k)
		}
		for _, k := range s.declKinds {
			fmt.Fprintf(&b, "(%s) @decl\n", k)
		}
		q, qerr := sitter.NewQuery(s.lang, b.String())
		if qerr != nil {
			s.queryErr = fmt.Errorf("mutate: %s query: %v", s.name, qerr)
			return
		}
		s.query = q
	})
	if s.queryErr != nil {
		return nil, s.queryErr
	}
	return s, nil
}

func newParser(s *langSpec) (*sitter.Parser, error) {
	p := sitter.NewParser()
	if err := p.SetLanguage(s.lang); err != nil {
		p.Close()
		return nil, fmt.Errorf("mutate: %s parser: %w", s.name, err)
	}
	return p, nil
}

// parsesClean reports whether src parses without error or missing nodes.
func parsesClean(p *sitter.Parser, s *langSpec, src []byte) bool {
	t := p.Parse(src, nil)
	if t == nil {
		return false
	}
	defer t.Close()
	return !t.RootNode().HasError()
}

// opText returns the operator token of a binary/unary/assignment node: the
// "operator" field, or for Python comparisons the first operator.
func opText(n *sitter.Node, src []byte) string {
	if o := n.ChildByFieldName("operator"); o != nil {
		return o.Utf8Text(src)
	}
	return ""
}

// binaryParts returns left, operator node and right of a two-operand
// operator node; Python comparisons qualify only with a single operator.
func (s *langSpec) binaryParts(n *sitter.Node, src []byte) (left, op, right *sitter.Node, opStr string, ok bool) {
	k := n.Kind()
	if s.binaryKinds[k] {
		left, op, right = n.ChildByFieldName("left"), n.ChildByFieldName("operator"), n.ChildByFieldName("right")
		if left == nil || op == nil || right == nil {
			return nil, nil, nil, "", false
		}
		return left, op, right, op.Utf8Text(src), true
	}
	if k == "comparison_operator" && n.NamedChildCount() == 2 {
		left, right = n.NamedChild(0), n.NamedChild(1)
		// The operator tokens lie between the two operands ("not in" is two).
		first, last := (*sitter.Node)(nil), (*sitter.Node)(nil)
		for i := uint(0); i < n.ChildCount(); i++ {
			c := n.Child(i)
			if c.StartByte() >= left.EndByte() && c.EndByte() <= right.StartByte() && !c.IsNamed() {
				if first == nil {
					first = c
				}
				last = c
			}
		}
		if first == nil {
			return nil, nil, nil, "", false
		}
		str := strings.Join(strings.Fields(string(src[first.StartByte():last.EndByte()])), " ")
		return left, first, right, str, true
	}
	return nil, nil, nil, "", false
}

// unaryParts returns the operator text and operand of a unary node.
func (s *langSpec) unaryParts(n *sitter.Node, src []byte) (op string, arg *sitter.Node, ok bool) {
	if !s.unaryKinds[n.Kind()] {
		return "", nil, false
	}
	arg = n.ChildByFieldName("argument")
	if arg == nil {
		arg = n.ChildByFieldName("operand")
	}
	if arg == nil {
		return "", nil, false
	}
	if n.Kind() == "not_operator" {
		return "not", arg, true
	}
	return opText(n, src), arg, true
}

// updateParts returns "++"/"--", whether it is prefix, and the operand.
func (s *langSpec) updateParts(n *sitter.Node) (op string, prefix bool, arg *sitter.Node, ok bool) {
	if s.updateKind == "" || n.Kind() != s.updateKind {
		return "", false, nil, false
	}
	var tok *sitter.Node
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		if c.IsNamed() {
			if arg == nil {
				arg = c
			}
		} else if k := c.Kind(); k == "++" || k == "--" {
			tok = c
		}
	}
	if tok == nil || arg == nil {
		return "", false, nil, false
	}
	return tok.Kind(), tok.StartByte() < arg.StartByte(), arg, true
}

// isBinaryish reports whether n is an unparenthesised operator node whose
// precedence matters when it becomes an operand, returning that precedence.
func (s *langSpec) precOf(n *sitter.Node, src []byte) (int, bool) {
	if _, _, _, op, ok := s.binaryParts(n, src); ok {
		p, known := s.prec[op]
		return p, known
	}
	if n.Kind() == "comparison_operator" {
		return s.prec["<"], true
	}
	if n.Kind() == "not_operator" {
		return s.prec["not"], true
	}
	return 0, false
}

func sameNode(a, b *sitter.Node) bool {
	return a != nil && b != nil && a.Id() == b.Id()
}

// ParsesClean reports whether code parses in lang (java, cpp, python) without error
// or missing nodes: its brackets, comments, strings and preprocessor conditionals are
// closed. The C++ engine uses it to tell a candidate whose compile errors are its own
// from one that may spill into the code after it.
func ParsesClean(lang, code string) (bool, error) {
	s, err := specFor(lang)
	if err != nil {
		return false, err
	}
	p, err := newParser(s)
	if err != nil {
		return false, err
	}
	defer p.Close()
	return parsesClean(p, s, []byte(code)), nil
}
