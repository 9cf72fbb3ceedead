// Package javasrc holds what the Java translators (java2cpp, java2go, java2py)
// share: their Result and UnsupportedError, and about their Java input a pooled
// tree-sitter parser, the line of the first syntax error, and Java's rules for boxed types, binary numeric promotion
// and generic type arguments over types kept as source text without spaces
// ("int", "char[][]", "HashMap<Integer,Integer>").
package javasrc

import (
	"fmt"
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	java "github.com/tree-sitter/tree-sitter-java/bindings/go"
)

var (
	lang    = sitter.NewLanguage(java.Language())
	parsers = sync.Pool{New: func() any {
		p := sitter.NewParser()
		if err := p.SetLanguage(lang); err != nil {
			panic(err)
		}
		return p
	}}
)

// Result is a translation: Code holds the target's functions, Imports what they
// need before them (includes, imports, helper definitions), Entry the target's
// name of the last Java method.
type Result struct {
	Code, Imports, Entry string
}

// UnsupportedError reports a Java construct a translator does not handle.
// Prefix starts the message ("java2cpp: unsupported construct"): each translator
// keeps its own wording.
type UnsupportedError struct {
	Prefix    string
	Construct string
	Line      int // 1-based line in the Java source, 0 when unknown
}

func (e *UnsupportedError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s %s at line %d", e.Prefix, e.Construct, e.Line)
	}
	return e.Prefix + " " + e.Construct
}

// Refusal is a translator's message prefix ("java2cpp: unsupported construct");
// its At method, kept as each translator's unsupported function, makes that
// translator's UnsupportedErrors.
type Refusal string

// At is the error for a construct at a 1-based line (0 when unknown).
func (p Refusal) At(construct string, line int) *UnsupportedError {
	return &UnsupportedError{Prefix: string(p), Construct: construct, Line: line}
}

// Recover, deferred by a translator's entry point, makes a panic with an
// *UnsupportedError (a rule refusing a construct) the entry point's error, with
// an empty Result. Any other panic value r becomes the error other(r) when other
// is set, and panics again when it is nil.
func Recover(res *Result, err *error, other func(r any) error) {
	r := recover()
	if r == nil {
		return
	}
	if ue, ok := r.(*UnsupportedError); ok {
		*res, *err = Result{}, ue
		return
	}
	if other == nil {
		panic(r)
	}
	*res, *err = Result{}, other(r)
}

// Front is the entry point java2cpp and java2go share: it parses the Java
// methods inside a class that Wrap opens on their first line (so that their lines
// keep their numbers) and hands the tree to the translator's rules. Prefix starts
// every UnsupportedError's message; ErrorLine gives a syntax error the line of the
// first error; Internal makes the error of a panic other than a refusal (nil
// panics again, see Recover).
type Front struct {
	Wrap, Prefix string
	ErrorLine    bool
	Internal     func(r any) error
}

// Translate translates javaSrc with program, which gets the source parsed and its
// tree's root. A source tree-sitter gives no tree for is an "unparsable source",
// one with a syntax error a "syntax error".
func (f Front) Translate(javaSrc string, program func(src []byte, root *sitter.Node) (Result, error)) (res Result, err error) {
	defer Recover(&res, &err, f.Internal)
	src := []byte(f.Wrap + javaSrc + "\n}\n")
	tree := Parse(src)
	if tree == nil {
		return Result{}, Refusal(f.Prefix).At("unparsable source", 0)
	}
	defer tree.Close()
	root := tree.RootNode()
	if root.HasError() {
		line := 0
		if f.ErrorLine {
			line = FirstErrorLine(root)
		}
		return Result{}, Refusal(f.Prefix).At("syntax error", line)
	}
	return program(src, root)
}

// Language is tree-sitter's Java grammar, the one Parse uses.
func Language() *sitter.Language { return lang }

// Parse parses src as Java with a pooled parser. The tree is nil when
// tree-sitter gives none; the caller closes it otherwise.
func Parse(src []byte) *sitter.Tree {
	p := parsers.Get().(*sitter.Parser)
	defer parsers.Put(p)
	return p.Parse(src, nil)
}

// FirstErrorLine is the 1-based line of the first ERROR or MISSING node under n
// (walked only for trees with an error).
func FirstErrorLine(n *sitter.Node) int {
	if n.IsError() || n.IsMissing() {
		return int(n.StartPosition().Row) + 1
	}
	for i := uint(0); i < n.ChildCount(); i++ {
		if c := n.Child(i); c != nil && c.HasError() {
			return FirstErrorLine(c)
		}
	}
	return int(n.StartPosition().Row) + 1
}

// Unbox maps a boxed Java type to its primitive, and any other type to itself.
func Unbox(t string) string {
	switch t {
	case "Integer":
		return "int"
	case "Long":
		return "long"
	case "Character":
		return "char"
	case "Boolean":
		return "boolean"
	case "Double":
		return "double"
	case "Float":
		return "float"
	case "Short":
		return "short"
	case "Byte":
		return "byte"
	}
	return t
}

// IsFloating tells whether t is float or double (after unboxing).
func IsFloating(t string) bool {
	switch Unbox(t) {
	case "float", "double":
		return true
	}
	return false
}

// Promote applies Java's binary numeric promotion to the types of two operands.
func Promote(a, b string) string {
	a, b = Unbox(a), Unbox(b)
	switch {
	case a == "double" || b == "double":
		return "double"
	case a == "float" || b == "float":
		return "float"
	case a == "long" || b == "long":
		return "long"
	}
	return "int"
}

// Generic splits "Name<A,B>" into "Name" and its top-level arguments (the last
// one empty for "Name<>" or "Name<A,>"); ok is false, with no arguments, when t
// is not of that form.
func Generic(t string) (name string, args []string, ok bool) {
	i := strings.IndexByte(t, '<')
	if i < 0 || !strings.HasSuffix(t, ">") {
		return t, nil, false
	}
	return t[:i], SplitTop(t[i+1 : len(t)-1]), true
}

// SplitTop splits s at its commas outside angle brackets: a generic's type
// arguments, a parameter list's parameters. It has one part more than such
// commas, the last one empty when s ends with one.
func SplitTop(s string) []string {
	var parts []string
	depth, start := 0, 0
	for k := 0; k < len(s); k++ {
		switch s[k] {
		case '<':
			depth++
		case '>':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:k])
				start = k + 1
			}
		}
	}
	return append(parts, s[start:])
}
