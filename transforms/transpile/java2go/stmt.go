package java2go

import (
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

func (t *tr) blockItems(b *sitter.Node) {
	for i := uint(0); i < b.NamedChildCount(); i++ {
		t.stmt(b.NamedChild(i))
	}
}

// nested translates a statement as the body of a Go block (Go needs braces).
func (t *tr) nested(n *sitter.Node) {
	t.indent++
	t.push()
	if n.Kind() == "block" {
		t.blockItems(n)
	} else {
		t.stmt(n)
	}
	t.pop()
	t.indent--
}

func (t *tr) stmt(n *sitter.Node) {
	switch n.Kind() {
	case "line_comment", "block_comment", ";", "empty_statement":
	case "block":
		t.line("{")
		t.nested(n)
		t.line("}")
	case "local_variable_declaration":
		t.localVar(n)
	case "expression_statement":
		t.exprStmt(n.NamedChild(0))
	case "if_statement":
		t.out.WriteString(strings.Repeat("\t", t.indent))
		t.ifChain(n, t.indent)
	case "while_statement":
		t.line("for " + t.cond(n.ChildByFieldName("condition")) + " {")
		t.nested(n.ChildByFieldName("body"))
		t.line("}")
	case "do_statement":
		body := n.ChildByFieldName("body")
		if strings.Contains(t.text(body), "continue") {
			t.fail(n, "continue in a do-while loop")
		}
		t.line("for {")
		t.nested(body)
		t.indent++
		t.line("if !(" + t.cond(n.ChildByFieldName("condition")) + ") {")
		t.line("\tbreak")
		t.line("}")
		t.indent--
		t.line("}")
	case "for_statement":
		t.forStmt(n, "")
	case "enhanced_for_statement":
		t.forEach(n, "")
	case "return_statement":
		t.returnStmt(n)
	case "break_statement":
		if l := n.NamedChild(0); l != nil {
			t.line("break " + t.text(l))
		} else {
			t.line("break")
		}
	case "continue_statement":
		if l := n.NamedChild(0); l != nil {
			t.line("continue " + t.text(l))
		} else {
			t.line("continue")
		}
	case "labeled_statement":
		label := t.text(n.NamedChild(0))
		body := n.NamedChild(1)
		t.line(label + ":")
		switch body.Kind() {
		case "for_statement":
			t.forStmt(body, label)
		case "enhanced_for_statement", "while_statement", "do_statement":
			t.stmt(body)
		default:
			t.fail(n, "label on "+body.Kind())
		}
	case "throw_statement":
		t.line(fmt.Sprintf("panic(%q)", strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(t.text(n), "throw"), ";"))))
	case "switch_expression", "switch_statement":
		t.switchStmt(n)
	default:
		t.fail(n, "statement "+n.Kind())
	}
}

func (t *tr) cond(n *sitter.Node) string {
	e := t.expr(n)
	if e.jt != "boolean" {
		t.fail(n, "a condition of type "+e.jt)
	}
	return stripParens(e.code)
}

func stripParens(s string) string {
	for strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		depth, ok := 0, true
		for i := 0; i < len(s); i++ {
			switch s[i] {
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 && i != len(s)-1 {
					ok = false
				}
			}
			if !ok {
				break
			}
		}
		if !ok {
			return s
		}
		s = s[1 : len(s)-1]
	}
	return s
}

// ifChain writes "if c {" after the line's indentation or "} else ", and the rest
// of the chain at indent.
func (t *tr) ifChain(n *sitter.Node, indent int) {
	t.out.WriteString("if " + t.cond(n.ChildByFieldName("condition")) + " {\n")
	t.indent = indent
	t.nested(n.ChildByFieldName("consequence"))
	alt := n.ChildByFieldName("alternative")
	if alt == nil {
		t.line("}")
		return
	}
	if alt.Kind() == "if_statement" {
		t.out.WriteString(strings.Repeat("\t", t.indent) + "} else ")
		t.indent = 0
		t.ifChain(alt, indent)
		return
	}
	t.line("} else {")
	t.nested(alt)
	t.line("}")
}

// localVar declares each variable with its Go type, and assigns it to _ (Go refuses
// unused locals, Java does not).
func (t *tr) localVar(n *sitter.Node) {
	for _, d := range t.declarators(n) {
		t.line(d)
	}
}

// declarators returns the Go declarations of a local_variable_declaration.
func (t *tr) declarators(n *sitter.Node) []string {
	typeN := n.ChildByFieldName("type")
	var out []string
	cur := n.Walk()
	defer cur.Close()
	for _, d := range n.ChildrenByFieldName("declarator", cur) {
		name := t.text(d.ChildByFieldName("name"))
		jt := t.jtype(typeN, d.ChildByFieldName("dimensions"))
		if typeN.Kind() == "type_identifier" && t.text(typeN) == "var" {
			v := d.ChildByFieldName("value")
			if v == nil {
				t.fail(&d, "var without a value")
			}
			jt = t.expr(v).jt
		}
		gt := t.gotype(jt, &d)
		gn := goName(name)
		if v := d.ChildByFieldName("value"); v != nil {
			var val string
			if v.Kind() == "array_initializer" {
				val = t.arrayInit(v, jt)
			} else {
				val = t.conv(t.expr(v), jt, v)
			}
			t.declare(name, jt)
			out = append(out, fmt.Sprintf("var %s %s = %s", gn, gt, val), "_ = "+gn)
		} else {
			t.declare(name, jt)
			out = append(out, fmt.Sprintf("var %s %s", gn, gt), "_ = "+gn)
		}
	}
	return out
}

func (t *tr) exprStmt(n *sitter.Node) {
	switch n.Kind() {
	case "assignment_expression":
		t.line(t.assign(n))
	case "update_expression":
		t.line(t.update(n))
	case "method_invocation":
		if s, ok := t.collStmt(n); ok {
			t.line(s)
			return
		}
		e := t.expr(n)
		if e.jt == "void" || strings.HasPrefix(e.code, "slices.") || strings.HasPrefix(e.code, "sort.") {
			t.line(e.code)
		} else {
			t.line("_ = " + e.code)
		}
	case "object_creation_expression":
		t.line("_ = " + t.expr(n).code)
	default:
		t.fail(n, "expression statement "+n.Kind())
	}
}

// assign translates an assignment used as a statement.
func (t *tr) assign(n *sitter.Node) string {
	left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
	op := t.text(n.ChildByFieldName("operator"))
	l := t.lvalue(left)
	if op == "=" {
		if right.Kind() == "assignment_expression" {
			// a = b = c: b = c, then a = b
			inner := t.assign(right)
			rl := t.expr(right.ChildByFieldName("left"))
			return inner + "\n" + strings.Repeat("\t", t.indent) + l.code + " = " + t.conv(rl, l.jt, right)
		}
		if right.Kind() == "array_initializer" {
			return l.code + " = " + t.arrayInit(right, l.jt)
		}
		return l.code + " = " + t.conv(t.expr(right), l.jt, right)
	}
	bop := strings.TrimSuffix(op, "=")
	r := t.expr(right)
	if l.jt == "String" && bop == "+" {
		return l.code + " += " + t.str(r, right)
	}
	// x op= y is x = (T)(x op y) in Java
	v := t.binary(n, bop, l, r)
	return l.code + " = " + t.conv(v, l.jt, n)
}

// lvalue is an assignable expression.
func (t *tr) lvalue(n *sitter.Node) ex {
	switch n.Kind() {
	case "identifier", "array_access":
		return t.expr(n)
	case "parenthesized_expression":
		return t.lvalue(n.NamedChild(0))
	}
	t.fail(n, "assignment to "+n.Kind())
	return ex{}
}

func (t *tr) update(n *sitter.Node) string {
	s := t.text(n)
	var target *sitter.Node
	for i := uint(0); i < n.NamedChildCount(); i++ {
		target = n.NamedChild(i)
	}
	l := t.lvalue(target)
	if !isNumeric(l.jt) {
		t.fail(n, "++ on "+l.jt)
	}
	if strings.Contains(s, "++") {
		return l.code + "++"
	}
	return l.code + "--"
}

func (t *tr) returnStmt(n *sitter.Node) {
	v := n.NamedChild(0)
	if v == nil {
		t.line("return")
		return
	}
	if v.Kind() == "assignment_expression" {
		t.line(t.assign(v))
		v = v.ChildByFieldName("left")
	}
	t.line("return " + t.conv(t.expr(v), t.cur.ret, v))
}

// forStmt: Go's for takes one init and one post statement; several become a block
// with the inits before the loop and a parallel assignment as the post statement.
func (t *tr) forStmt(n *sitter.Node, label string) {
	t.push()
	defer t.pop()
	cur := n.Walk()
	inits := n.ChildrenByFieldName("init", cur)
	cur.Close()
	cur = n.Walk()
	updates := n.ChildrenByFieldName("update", cur)
	cur.Close()
	var pre []string
	for _, in := range inits {
		switch in.Kind() {
		case "local_variable_declaration":
			pre = append(pre, t.declarators(&in)...)
		case "assignment_expression":
			pre = append(pre, t.assign(&in))
		case "update_expression":
			pre = append(pre, t.update(&in))
		default:
			t.fail(&in, "for init "+in.Kind())
		}
	}
	cond := ""
	if c := n.ChildByFieldName("condition"); c != nil {
		cond = t.cond(c)
	}
	var posts []string
	for _, u := range updates {
		switch u.Kind() {
		case "assignment_expression":
			posts = append(posts, t.assign(&u))
		case "update_expression":
			posts = append(posts, t.update(&u))
		default:
			t.fail(&u, "for update "+u.Kind())
		}
	}
	post := ""
	switch len(posts) {
	case 0:
	case 1:
		post = posts[0]
	default:
		// i++, j-- -> i, j = i+1, j-1
		var ls, rs []string
		for _, p := range posts {
			switch {
			case strings.HasSuffix(p, "++"):
				v := strings.TrimSuffix(p, "++")
				ls, rs = append(ls, v), append(rs, v+" + 1")
			case strings.HasSuffix(p, "--"):
				v := strings.TrimSuffix(p, "--")
				ls, rs = append(ls, v), append(rs, v+" - 1")
			default:
				l, r, ok := strings.Cut(p, " = ")
				if !ok || strings.Contains(p, "\n") {
					t.fail(n, "for update "+p)
				}
				ls, rs = append(ls, l), append(rs, r)
			}
		}
		post = strings.Join(ls, ", ") + " = " + strings.Join(rs, ", ")
	}
	open := len(pre) > 0
	if open {
		// the label must stay on the loop: a block around it takes the inits
		if label != "" {
			t.fail(n, "labeled for loop with an init")
		}
		t.line("{")
		t.indent++
		for _, p := range pre {
			t.line(p)
		}
	}
	switch {
	case cond == "" && post == "":
		t.line("for {")
	case post == "":
		t.line("for " + cond + " {")
	default:
		t.line("for ; " + cond + "; " + post + " {")
	}
	t.nested(n.ChildByFieldName("body"))
	t.line("}")
	if open {
		t.indent--
		t.line("}")
	}
}

func (t *tr) forEach(n *sitter.Node, label string) {
	t.push()
	defer t.pop()
	name := t.text(n.ChildByFieldName("name"))
	val := n.ChildByFieldName("value")
	coll := t.expr(val)
	var elem string
	switch {
	case isArray(coll.jt):
		elem = elemOf(coll.jt)
	case listKind(coll.jt) == "list":
		_, args, _ := generic(coll.jt)
		elem = args[0]
	case coll.jt == "String":
		t.fail(n, "for-each over a String")
	default:
		t.fail(n, "for-each over "+coll.jt)
	}
	t.declare(name, elem)
	t.line(fmt.Sprintf("for _, %s := range %s {", goName(name), coll.code))
	t.indent++
	t.line("_ = " + goName(name))
	t.indent--
	t.nested(n.ChildByFieldName("body"))
	t.line("}")
}

// switchStmt: Java's cases fall through unless they end in a jump; Go's do not, so a
// case that does not end in break, return, continue or throw gets fallthrough.
func (t *tr) switchStmt(n *sitter.Node) {
	subject := t.expr(n.ChildByFieldName("condition"))
	body := n.ChildByFieldName("body")
	t.line("switch " + stripParens(subject.code) + " {")
	groups := []*sitter.Node{}
	for i := uint(0); i < body.NamedChildCount(); i++ {
		g := body.NamedChild(i)
		if g.Kind() != "switch_block_statement_group" {
			t.fail(g, "switch "+g.Kind())
		}
		groups = append(groups, g)
	}
	for gi, g := range groups {
		var labels []string
		isDefault := false
		var stmts []*sitter.Node
		for i := uint(0); i < g.NamedChildCount(); i++ {
			c := g.NamedChild(i)
			if c.Kind() == "switch_label" {
				if c.NamedChildCount() == 0 {
					isDefault = true
					continue
				}
				for k := uint(0); k < c.NamedChildCount(); k++ {
					labels = append(labels, t.conv(t.expr(c.NamedChild(k)), subject.jt, c))
				}
				continue
			}
			stmts = append(stmts, c)
		}
		switch {
		case isDefault && len(labels) > 0:
			t.fail(g, "default with case labels")
		case isDefault:
			t.line("default:")
		default:
			t.line("case " + strings.Join(labels, ", ") + ":")
		}
		t.indent++
		t.push()
		ends := false
		for k, s := range stmts {
			last := k == len(stmts)-1
			if last && s.Kind() == "break_statement" && s.NamedChildCount() == 0 {
				ends = true
				break
			}
			t.stmt(s)
			if last {
				switch s.Kind() {
				case "return_statement", "continue_statement", "throw_statement", "break_statement":
					ends = true
				}
			}
		}
		if !ends && gi < len(groups)-1 {
			if isDefault {
				t.fail(g, "default falling through")
			}
			t.line("fallthrough")
		}
		t.pop()
		t.indent--
	}
	t.line("}")
}
