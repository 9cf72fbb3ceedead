package metamorph

import (
	"fmt"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// pyLocals returns the names a Python function binds by assignment, augmented
// assignment, walrus or for-loop target: Python makes such a name local to the whole
// function, not to the block it is assigned in.
func pyLocals(p *parsed, fn *sitter.Node) map[string]bool {
	out := map[string]bool{}
	var bind func(n *sitter.Node)
	bind = func(n *sitter.Node) {
		if n == nil {
			return
		}
		switch n.Kind() {
		case "identifier":
			out[p.text(n)] = true
		case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "parenthesized_expression", "list_splat_pattern":
			for i := uint(0); i < n.NamedChildCount(); i++ {
				bind(n.NamedChild(i))
			}
		}
	}
	walk(fn, func(n *sitter.Node) bool {
		switch n.Kind() {
		case "assignment", "augmented_assignment", "for_statement":
			bind(n.ChildByFieldName("left"))
		case "named_expression":
			bind(n.ChildByFieldName("name"))
		}
		return true
	})
	return out
}

// pyLocalsApart renames the locals of f that the other function reads without
// binding them (a builtin like max, a global): merged into one Python function, f's
// local would shadow them in the other body (UnboundLocalError). It returns f and its
// parse unchanged when nothing clashes, else the renamed function and a new parse
// that the caller closes.
func pyLocalsApart(f Function, p, other *parsed, taken map[string]bool, suffix string) (Function, *parsed, error) {
	mine, theirs := pyLocals(p, p.fn), pyLocals(other, other.fn)
	used := identifiers(other)
	var es []edit
	for name := range mine {
		if !used[name] || theirs[name] {
			continue
		}
		nw := name + "_" + suffix
		for k := 0; taken[nw]; k++ {
			nw = fmt.Sprintf("%s_%s%d", name, suffix, k)
		}
		taken[nw] = true
		es = append(es, renameEdits(p, p.fn, name, nw)...)
	}
	if len(es) == 0 {
		return f, p, nil
	}
	f.Code = apply(f.Code, es)
	q, err := parse(f)
	if err != nil {
		return f, nil, err
	}
	return f, q, nil
}
