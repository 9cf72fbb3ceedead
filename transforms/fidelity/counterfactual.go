package fidelity

import (
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

// CauseSignedModulo marks a disagreement explained by Python's floor division and
// modulo (-7 // 2 == -4, -7 % 2 == 1) against the truncation of Java and C++
// (-7 / 2 == -3, -7 % 2 == -1). It is established by a counterfactual run, never
// guessed: the Python gold is rewritten to truncating division and modulo
// (CDivModPython) and run again; when it then agrees with the other language on
// the test, the cause is proven.
const CauseSignedModulo = "signed_modulo"

// cPrelude defines C's truncating division and remainder for Python integers
// (floats keep Python's behaviour, which C's fmod shares for %).
const cPrelude = `def _c_div(a, b):
    if isinstance(a, int) and isinstance(b, int):
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b >= 0) else -q
    return a // b
def _c_mod(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return a - b * _c_div(a, b)
    import math
    return math.fmod(a, b)
`

var pyLang = sitter.NewLanguage(tspython.Language())

// CDivModPython rewrites every `a % b` and `a // b` of a Python function (and the
// augmented assignments %= and //=) into calls with C's semantics. changed is
// false when the code has neither operator.
func CDivModPython(code string) (out string, changed bool, err error) {
	if !strings.Contains(code, "%") && !strings.Contains(code, "//") {
		return code, false, nil
	}
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(pyLang); err != nil {
		return "", false, err
	}
	src := []byte(code)
	tree := p.Parse(src, nil)
	defer tree.Close()
	root := tree.RootNode()
	if root.HasError() {
		return "", false, fmt.Errorf("python gold does not parse")
	}
	var rewrite func(n *sitter.Node) string
	rewrite = func(n *sitter.Node) string {
		kind := n.Kind()
		if kind == "binary_operator" {
			op := n.ChildByFieldName("operator")
			if op != nil && (op.Kind() == "%" || op.Kind() == "//") {
				l, r := n.ChildByFieldName("left"), n.ChildByFieldName("right")
				fn := "_c_mod"
				if op.Kind() == "//" {
					fn = "_c_div"
				}
				changed = true
				return fn + "(" + rewrite(l) + ", " + rewrite(r) + ")"
			}
		}
		if kind == "augmented_assignment" {
			op := n.ChildByFieldName("operator")
			if op != nil && (op.Kind() == "%=" || op.Kind() == "//=") {
				l, r := n.ChildByFieldName("left"), n.ChildByFieldName("right")
				fn := "_c_mod"
				if op.Kind() == "//=" {
					fn = "_c_div"
				}
				changed = true
				lt := rewrite(l)
				return lt + " = " + fn + "(" + lt + ", " + rewrite(r) + ")"
			}
		}
		if n.ChildCount() == 0 {
			return string(src[n.StartByte():n.EndByte()])
		}
		// Rebuild the node from its children, keeping the text between them.
		var b strings.Builder
		pos := n.StartByte()
		for i := uint(0); i < n.ChildCount(); i++ {
			c := n.Child(i)
			b.Write(src[pos:c.StartByte()])
			b.WriteString(rewrite(c))
			pos = c.EndByte()
		}
		b.Write(src[pos:n.EndByte()])
		return b.String()
	}
	body := rewrite(root)
	if !changed {
		return code, false, nil
	}
	return cPrelude + body, true, nil
}
