package cpp

import (
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
)

var (
	langOnce sync.Once
	cppLang  *sitter.Language
)

// LastFunction returns the name of the last top-level function defined in code (a
// template function counts; main does not), or "" when there is none.
func LastFunction(code string) string {
	langOnce.Do(func() { cppLang = sitter.NewLanguage(tscpp.Language()) })
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(cppLang); err != nil {
		return ""
	}
	src := []byte(code)
	tree := p.Parse(src, nil)
	if tree == nil {
		return ""
	}
	defer tree.Close()
	root := tree.RootNode()
	last := ""
	for i := uint(0); i < root.NamedChildCount(); i++ {
		n := root.NamedChild(i)
		if n.Kind() == "template_declaration" {
			for k := uint(0); k < n.NamedChildCount(); k++ {
				if c := n.NamedChild(k); c.Kind() == "function_definition" {
					n = c
					break
				}
			}
		}
		if n.Kind() != "function_definition" {
			continue
		}
		if name := declName(n.ChildByFieldName("declarator"), src); name != "" && name != "main" {
			last = name
		}
	}
	return last
}

// declName digs through pointer and reference declarators to the function's name.
func declName(d *sitter.Node, src []byte) string {
	for d != nil {
		switch d.Kind() {
		case "function_declarator":
			inner := d.ChildByFieldName("declarator")
			if inner == nil {
				return ""
			}
			switch inner.Kind() {
			case "identifier", "field_identifier":
				return inner.Utf8Text(src)
			case "qualified_identifier":
				// a definition like Solution::f is not callable as a free function
				return ""
			}
			d = inner
		case "pointer_declarator", "reference_declarator", "parenthesized_declarator":
			next := d.ChildByFieldName("declarator")
			if next == nil && d.NamedChildCount() > 0 {
				next = d.NamedChild(d.NamedChildCount() - 1)
			}
			d = next
		default:
			return ""
		}
	}
	return ""
}
