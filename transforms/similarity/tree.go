// Package similarity computes the code-similarity metrics of RUBY (BLEU, STS, TRS,
// GRS and RUBY) and the two users ask for today (CodeBLEU, CrystalBLEU) between a
// translation and the reference function in the target language, over tree-sitter
// tokens, syntax trees and program dependence graphs. docs/SIMILARITY.md gives each
// formula. Beam-free: the pipeline (pipelines/similarity.go) only wires it.
package similarity

import (
	"fmt"
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"transmute/transforms/mutate"
)

// Node is one node of a parsed program, copied out of tree-sitter so that the
// metrics run on plain Go data (a cgo call per node visit would dominate) and the
// tree-sitter tree can be closed at once.
type Node struct {
	Kind     string
	Field    string // the field name under its parent ("" if none)
	Named    bool
	Text     string // source text of leaves (and of string literals, kept whole)
	Children []*Node
}

// Program is everything the metrics need from one piece of code.
type Program struct {
	Lang string
	// Root is a synthetic "root" node over the top-level declarations (Java code that
	// only parses inside a class is wrapped in one, and the class body's members
	// become the root's children); nil for empty code.
	Root *Node
	// Parses: tree-sitter found no syntax error (nor missing node).
	Parses bool
	// Tokens are the lexical tokens (tree-sitter leaves without comments; a string
	// literal is one token).
	Tokens []string
	// Bytes is the size of the code.
	Bytes int
}

// Languages whose leaves that tree-sitter splits but that are one token for us.
var wholeTokenKinds = map[string]bool{
	"string_literal": true, "raw_string_literal": true, "char_literal": true, "character_literal": true,
	"string": true, "concatenated_string": false, "text_block": true,
}

func isComment(kind string) bool {
	return kind == "comment" || kind == "line_comment" || kind == "block_comment"
}

type parserPool struct {
	lang *sitter.Language
	pool sync.Pool
}

var (
	poolsMu sync.Mutex
	pools   = map[string]*parserPool{}
)

// NormalizeLang maps the project's language names (and aliases) to java, cpp, python.
func NormalizeLang(lang string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(lang)) {
	case "java":
		return "java", nil
	case "cpp", "c++":
		return "cpp", nil
	case "python", "py":
		return "python", nil
	}
	return "", fmt.Errorf("similarity: unsupported language %q", lang)
}

func poolFor(lang string) (*parserPool, error) {
	poolsMu.Lock()
	defer poolsMu.Unlock()
	if p := pools[lang]; p != nil {
		return p, nil
	}
	l, _, err := mutate.Grammar(lang)
	if err != nil {
		return nil, err
	}
	p := &parserPool{lang: l}
	pools[lang] = p
	return p, nil
}

// parse runs tree-sitter on src with a pooled parser. Parsers are reused (creating
// one costs more than parsing a small function) and never closed while pooled; the
// pool holds at most a few per language.
func parse(lang string, src []byte) (*sitter.Tree, error) {
	pp, err := poolFor(lang)
	if err != nil {
		return nil, err
	}
	p, _ := pp.pool.Get().(*sitter.Parser)
	if p == nil {
		p = sitter.NewParser()
		if err := p.SetLanguage(pp.lang); err != nil {
			p.Close()
			return nil, fmt.Errorf("similarity: %s parser: %w", lang, err)
		}
	}
	t := p.Parse(src, nil)
	pp.pool.Put(p)
	if t == nil {
		return nil, fmt.Errorf("similarity: %s parse returned no tree", lang)
	}
	return t, nil
}

// Parse builds the Program of code in lang. It never fails on bad code: code that
// does not parse gets Parses false and its tokens still come from tree-sitter's
// error-recovering parse. It fails only for an unsupported language.
func Parse(lang, code string) (*Program, error) {
	lang, err := NormalizeLang(lang)
	if err != nil {
		return nil, err
	}
	pr := &Program{Lang: lang, Bytes: len(code)}
	if strings.TrimSpace(code) == "" {
		return pr, nil
	}
	src := []byte(code)
	t, err := parse(lang, src)
	if err != nil {
		return nil, err
	}
	root := t.RootNode()
	ok := !root.HasError()
	top := convert(root, src, "")
	t.Close()
	if !ok && lang == "java" {
		// A method outside any class (the TransCoder-test gold is written so):
		// tree-sitter-java wants a class around it.
		wsrc := []byte("class __T {\n" + code + "\n}")
		wt, werr := parse(lang, wsrc)
		if werr == nil {
			wroot := wt.RootNode()
			if !wroot.HasError() {
				ok = true
				top = classBody(convert(wroot, wsrc, ""))
			}
			wt.Close()
		}
	}
	pr.Parses = ok
	pr.Root = &Node{Kind: "root", Named: true, Children: namedOnly(top)}
	pr.Tokens = tokens(top, nil)
	return pr, nil
}

func namedOnly(n *Node) []*Node {
	var out []*Node
	for _, c := range n.Children {
		if c.Named {
			out = append(out, c)
		}
	}
	return out
}

// classBody returns the class body of the wrapper class added around Java code.
func classBody(program *Node) *Node {
	for _, c := range program.Children {
		if c.Kind == "class_declaration" {
			for _, b := range c.Children {
				if b.Kind == "class_body" {
					return b
				}
			}
		}
	}
	return program
}

// convert copies a tree-sitter subtree, dropping comments and zero-width (missing)
// leaves.
func convert(n *sitter.Node, src []byte, field string) *Node {
	c := n.Walk()
	defer c.Close()
	return convertCursor(c, src, field)
}

func convertCursor(c *sitter.TreeCursor, src []byte, field string) *Node {
	n := c.Node()
	out := &Node{Kind: n.Kind(), Field: field, Named: n.IsNamed()}
	whole := wholeTokenKinds[out.Kind]
	if n.ChildCount() == 0 || whole {
		out.Text = string(src[n.StartByte():n.EndByte()])
		if !whole {
			return out
		}
	}
	if c.GotoFirstChild() {
		for {
			k := c.Node()
			if !isComment(k.Kind()) && !(k.ChildCount() == 0 && k.EndByte() == k.StartByte()) {
				out.Children = append(out.Children, convertCursor(c, src, c.FieldName()))
			}
			if !c.GotoNextSibling() {
				break
			}
		}
		c.GotoParent()
	}
	return out
}

// tokens appends the lexical tokens under n in source order.
func tokens(n *Node, out []string) []string {
	if n == nil {
		return out
	}
	if len(n.Children) == 0 || wholeTokenKinds[n.Kind] {
		if t := strings.TrimSpace(n.Text); t != "" {
			out = append(out, t)
		}
		return out
	}
	for _, c := range n.Children {
		out = tokens(c, out)
	}
	return out
}

// Size is the number of nodes under n, n included.
func (n *Node) Size() int {
	if n == nil {
		return 0
	}
	s := 1
	for _, c := range n.Children {
		s += c.Size()
	}
	return s
}
