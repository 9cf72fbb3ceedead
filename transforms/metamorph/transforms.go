package metamorph

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"transmute/schemas"
	"transmute/transforms/inspect"
)

// Apply runs one single-function transformation (every one but Merge) on f with
// the generator seeded by (seed, t, f). It fails with an error wrapping ErrAbsent
// when f lacks the construct, and with another error when f does not parse or the
// variant would not re-parse.
func Apply(t Transformation, f Function, seed uint64) (Variant, error) {
	p, err := parse(f)
	if err != nil {
		return Variant{}, err
	}
	defer p.Close()
	rng := rngFor(seed, t, f)
	switch t {
	case RenameParam:
		return renameParam(p, f, rng)
	case AddParam:
		return addParam(p, f, rng)
	case AddConditional:
		return addStatement(p, f, rng, t)
	case AddLoop:
		return addStatement(p, f, rng, t)
	case RmLoop:
		return rmLoop(p, f, rng)
	case ChBranchCond:
		return chBranchCond(p, f, rng)
	case Merge:
		return Variant{}, fmt.Errorf("metamorph: merge takes two functions (use MergeFunctions)")
	}
	return Variant{}, fmt.Errorf("metamorph: unknown transformation %q", t)
}

// walk visits n's subtree in document order; visit returns false to skip children.
func walk(n *sitter.Node, visit func(n *sitter.Node) bool) {
	if !visit(n) {
		return
	}
	for i := uint(0); i < n.ChildCount(); i++ {
		walk(n.Child(i), visit)
	}
}

func isField(parent, n *sitter.Node, field string) bool {
	c := parent.ChildByFieldName(field)
	return c != nil && c.Id() == n.Id()
}

// references returns the identifier nodes in fn that name the variable name: not
// member names (obj.name), called method names (Java) or keyword names (Python).
func references(p *parsed, fn *sitter.Node, name string) []*sitter.Node {
	var out []*sitter.Node
	walk(fn, func(n *sitter.Node) bool {
		if n.Kind() != "identifier" || p.text(n) != name {
			return true
		}
		if par := n.Parent(); par != nil {
			switch {
			case par.Kind() == "method_invocation" && isField(par, n, "name"),
				par.Kind() == "field_access" && isField(par, n, "field"),
				par.Kind() == "attribute" && isField(par, n, "attribute"),
				par.Kind() == "keyword_argument" && isField(par, n, "name"):
				return true
			}
		}
		nn := *n
		out = append(out, &nn)
		return true
	})
	return out
}

// paramNames returns each parameter's name node (nil when it has none).
func paramNames(p *parsed, fn *sitter.Node) ([]*sitter.Node, []*sitter.Node) {
	ps := inspect.Params(p.lang, fn)
	names := make([]*sitter.Node, len(ps))
	for i, q := range ps {
		names[i] = inspect.ParamName(p.lang, q)
	}
	return ps, names
}

// renameEdits renames the parameter old to nw everywhere in fn.
func renameEdits(p *parsed, fn *sitter.Node, old, nw string) []edit {
	var es []edit
	for _, r := range references(p, fn, old) {
		es = append(es, edit{int(r.StartByte()), int(r.EndByte()), nw})
	}
	return es
}

var nameBases = []string{"arg", "val", "p", "x", "num", "inp"}

func renameParam(p *parsed, f Function, rng *rand.Rand) (Variant, error) {
	_, names := paramNames(p, p.fn)
	var idx []int
	for i, n := range names {
		if n != nil {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return Variant{}, fmt.Errorf("metamorph: renameParam: %w: no named parameter", ErrAbsent)
	}
	i := idx[rng.IntN(len(idx))]
	old := p.text(names[i])
	nw := fresh(identifiers(p), nameBases[rng.IntN(len(nameBases))], rng)
	es := renameEdits(p, p.fn, old, nw)
	first := edit{int(names[i].StartByte()), int(names[i].EndByte()), nw}
	params := append([]schemas.Param(nil), f.Params...)
	if i < len(params) {
		params[i].Name = nw
	}
	return finish(RenameParam, f, apply(f.Code, es), first, params, f.Tests)
}

// newParamTypes are the types addParam draws from, language-neutral and spelled.
var newParamTypes = []struct{ neutral, java, cpp string }{
	{"int", "int", "int"}, {"double", "double", "double"}, {"bool", "boolean", "bool"},
}

// randomValue is a JSON value of a neutral type.
func randomValue(neutral string, rng *rand.Rand) string {
	switch neutral {
	case "int":
		return strconv.Itoa(rng.IntN(201) - 100)
	case "double":
		return strconv.FormatFloat(float64(rng.IntN(20001)-10000)/100, 'f', 2, 64)
	default:
		return strconv.FormatBool(rng.IntN(2) == 1)
	}
}

// insertArg inserts raw as the pos-th element of the JSON array args.
func insertArg(args string, pos int, raw string) (string, error) {
	var xs []json.RawMessage
	if err := json.Unmarshal([]byte(args), &xs); err != nil {
		return "", err
	}
	if pos > len(xs) {
		return "", fmt.Errorf("argument position %d of %d", pos, len(xs))
	}
	xs = append(xs[:pos], append([]json.RawMessage{json.RawMessage(raw)}, xs[pos:]...)...)
	b, err := json.Marshal(xs)
	return string(b), err
}

// plainParam tells whether a parameter may be followed by a new one (no default,
// no varargs).
func plainParam(lang string, q *sitter.Node) bool {
	switch lang {
	case "python":
		return q.Kind() == "identifier" || q.Kind() == "typed_parameter"
	case "cpp":
		return q.Kind() == "parameter_declaration"
	default:
		return q.Kind() == "formal_parameter"
	}
}

// selfCalls returns the argument lists of the calls of fn to itself (recursion).
func selfCalls(p *parsed, fn *sitter.Node, entry string) []*sitter.Node {
	var out []*sitter.Node
	walk(fn, func(n *sitter.Node) bool {
		var callee *sitter.Node
		switch n.Kind() {
		case "method_invocation":
			if o := n.ChildByFieldName("object"); o != nil && p.text(o) != "this" {
				return true
			}
			callee = n.ChildByFieldName("name")
		case "call_expression", "call":
			callee = n.ChildByFieldName("function")
		default:
			return true
		}
		if callee != nil && callee.Kind() == "identifier" && p.text(callee) == entry {
			if a := n.ChildByFieldName("arguments"); a != nil {
				aa := *a
				out = append(out, &aa)
			}
		}
		return true
	})
	return out
}

// listInsert inserts item at position pos of a bracketed, comma-separated list node
// whose elements are elems.
func listInsert(list *sitter.Node, elems []*sitter.Node, pos int, item string) edit {
	switch {
	case len(elems) == 0:
		return edit{int(list.StartByte()), int(list.EndByte()), "(" + item + ")"}
	case pos < len(elems):
		at := int(elems[pos].StartByte())
		return edit{at, at, item + ", "}
	default:
		at := int(elems[len(elems)-1].EndByte())
		return edit{at, at, ", " + item}
	}
}

func namedArgs(args *sitter.Node) []*sitter.Node {
	var out []*sitter.Node
	for i := uint(0); i < args.NamedChildCount(); i++ {
		c := args.NamedChild(i)
		if !strings.Contains(c.Kind(), "comment") {
			out = append(out, c)
		}
	}
	return out
}

func addParam(p *parsed, f Function, rng *rand.Rand) (Variant, error) {
	ps := inspect.Params(p.lang, p.fn)
	pl := inspect.ParamList(p.lang, p.fn)
	if pl == nil {
		return Variant{}, fmt.Errorf("metamorph: addParam: %w: no parameter list", ErrAbsent)
	}
	if len(f.Params) != len(ps) {
		return Variant{}, fmt.Errorf("metamorph: addParam: the signature has %d parameters, the code %d", len(f.Params), len(ps))
	}
	limit := len(ps)
	for i, q := range ps {
		if !plainParam(p.lang, q) {
			limit = i
			break
		}
	}
	pos := rng.IntN(limit + 1)
	ty := newParamTypes[rng.IntN(len(newParamTypes))]
	name := fresh(identifiers(p), nameBases[rng.IntN(len(nameBases))], rng)
	decl := name
	switch p.lang {
	case "java":
		decl = ty.java + " " + name
	case "cpp":
		decl = ty.cpp + " " + name
	}
	first := listInsert(pl, ps, pos, decl)
	es := []edit{first}
	for _, args := range selfCalls(p, p.fn, f.Entry) {
		as := namedArgs(args)
		if len(as) < pos {
			return Variant{}, fmt.Errorf("metamorph: addParam: a recursive call passes %d arguments", len(as))
		}
		es = append(es, listInsert(args, as, pos, name))
	}
	params := append(append(append([]schemas.Param(nil), f.Params[:pos]...), schemas.Param{Name: name, Type: ty.neutral}), f.Params[pos:]...)
	tests := make([]schemas.Test, len(f.Tests))
	for i, t := range f.Tests {
		a, err := insertArg(t.Args, pos, randomValue(ty.neutral, rng))
		if err != nil {
			return Variant{}, fmt.Errorf("metamorph: addParam: test %d: %v", t.Index, err)
		}
		t.Args = a
		tests[i] = t
	}
	return finish(AddParam, f, apply(f.Code, es), first, params, tests)
}

// spot is a place before a statement where a statement can be inserted.
type spot struct {
	at      int
	indent  string
	ownLine bool
}

// blockKind is the statement-block node of each language.
var blockKind = map[string]string{"java": "block", "cpp": "compound_statement", "python": "block"}

// spots returns the places before the statements of the blocks of fn (only its
// body when topOnly). Lambda bodies, switch bodies and class bodies are left out,
// and in Python a statement must begin its line.
func spots(p *parsed, fn *sitter.Node, topOnly bool) []spot {
	body := fn.ChildByFieldName("body")
	if body == nil {
		return nil
	}
	var blocks []*sitter.Node
	if topOnly {
		blocks = []*sitter.Node{body}
	} else {
		walk(body, func(n *sitter.Node) bool {
			switch n.Kind() {
			case "lambda_expression", "lambda", "class_definition", "class_declaration", "class_body":
				return false
			}
			if n.Kind() == blockKind[p.lang] {
				if par := n.Parent(); par != nil && par.Kind() == "switch_statement" {
					return true
				}
				nn := *n
				blocks = append(blocks, &nn)
			}
			return true
		})
	}
	var out []spot
	for _, b := range blocks {
		for i := uint(0); i < b.NamedChildCount(); i++ {
			s := b.NamedChild(i)
			if strings.Contains(s.Kind(), "comment") {
				continue
			}
			at := int(s.StartByte())
			ls := strings.LastIndexByte(string(p.src[:at]), '\n') + 1
			prefix := string(p.src[ls:at])
			own := strings.TrimSpace(prefix) == ""
			if !own && p.lang == "python" {
				continue
			}
			if !own {
				prefix = ""
			}
			out = append(out, spot{at: at, indent: prefix, ownLine: own})
		}
	}
	return out
}

// condition returns a random side-effect-free condition over the parameters (a
// comparison of a numeric parameter with a constant, a boolean parameter, or a
// comparison of two constants).
func condition(p *parsed, f Function, names []*sitter.Node, rng *rand.Rand) string {
	type cand struct{ name, ty string }
	var cs []cand
	for i, n := range names {
		if n == nil || i >= len(f.Params) {
			continue
		}
		switch f.Params[i].Type {
		case "int", "long", "double", "float", "bool":
			cs = append(cs, cand{p.text(n), f.Params[i].Type})
		}
	}
	ops := []string{"<", ">", "<=", ">=", "==", "!="}
	op := ops[rng.IntN(len(ops))]
	k := rng.IntN(101) - 50
	if len(cs) == 0 {
		return fmt.Sprintf("%d %s %d", k, op, rng.IntN(101)-50)
	}
	c := cs[rng.IntN(len(cs))]
	if c.ty == "bool" {
		if rng.IntN(2) == 0 {
			return c.name
		}
		if p.lang == "python" {
			return "not " + c.name
		}
		return "!" + c.name
	}
	return fmt.Sprintf("%s %s %d", c.name, op, k)
}

// addStatement inserts a dead conditional (addConditional) or a short for-loop
// whose body only writes a fresh local (addLoop) before a random statement. Loops
// go into the function's top-level block only, so that the added work is a few
// iterations per call, not per iteration of the function's own loops.
func addStatement(p *parsed, f Function, rng *rand.Rand, t Transformation) (Variant, error) {
	sp := spots(p, p.fn, t == AddLoop)
	if len(sp) == 0 {
		return Variant{}, fmt.Errorf("metamorph: %s: %w: no statement to insert before", t, ErrAbsent)
	}
	s := sp[rng.IntN(len(sp))]
	_, names := paramNames(p, p.fn)
	taken := identifiers(p)
	tmp := fresh(taken, "t", rng)
	nl := "\n" + s.indent
	var stmt string
	if t == AddConditional {
		cond := condition(p, f, names, rng)
		val := rng.IntN(100)
		if p.lang == "python" {
			stmt = fmt.Sprintf("if %s:%s    %s = %d", cond, nl, tmp, val)
		} else {
			stmt = fmt.Sprintf("if (%s) {%s  int %s = %d;%s}", cond, nl, tmp, val, nl)
		}
	} else {
		i := fresh(taken, "i", rng)
		n := 1 + rng.IntN(3)
		if p.lang == "python" {
			stmt = fmt.Sprintf("for %s in range(%d):%s    %s = %s", i, n, nl, tmp, i)
		} else {
			stmt = fmt.Sprintf("for (int %s = 0; %s < %d; %s++) {%s  int %s = %s;%s}", i, i, n, i, nl, tmp, i, nl)
		}
	}
	if s.ownLine {
		stmt += nl
	} else {
		stmt += " "
	}
	e := edit{s.at, s.at, stmt}
	return finish(t, f, apply(f.Code, []edit{e}), e, nil, nil)
}

// forKinds are the for-loops rmLoop may remove.
var forKinds = map[string]map[string]bool{
	"java":   {"for_statement": true, "enhanced_for_statement": true},
	"cpp":    {"for_statement": true, "for_range_loop": true},
	"python": {"for_statement": true},
}

// rmLoop removes a random for-loop that holds no conditional: removing one that did
// would also change numConditionals, which rmLoop|numConditionals expects equal.
func rmLoop(p *parsed, f Function, rng *rand.Rand) (Variant, error) {
	var loops []*sitter.Node
	walk(p.fn, func(n *sitter.Node) bool {
		if forKinds[p.lang][n.Kind()] {
			if c, _, err := inspect.Count(p.lang, n, p.src); err == nil && c == 0 {
				nn := *n
				loops = append(loops, &nn)
			}
		}
		return true
	})
	if len(loops) == 0 {
		return Variant{}, fmt.Errorf("metamorph: rmLoop: %w: no for-loop without a conditional", ErrAbsent)
	}
	l := loops[rng.IntN(len(loops))]
	start, end := int(l.StartByte()), int(l.EndByte())
	par := l.Parent()
	siblings := 0
	if par != nil && par.Kind() == blockKind[p.lang] {
		for i := uint(0); i < par.NamedChildCount(); i++ {
			if !strings.Contains(par.NamedChild(i).Kind(), "comment") {
				siblings++
			}
		}
	}
	var e edit
	if siblings > 1 {
		// Delete the loop's lines when it has them to itself.
		ls := strings.LastIndexByte(f.Code[:start], '\n') + 1
		le := strings.IndexByte(f.Code[end:], '\n')
		if le < 0 {
			le = len(f.Code)
		} else {
			le += end
		}
		if strings.TrimSpace(f.Code[ls:start]) == "" && strings.TrimSpace(f.Code[end:le]) == "" && le < len(f.Code) {
			start, end = ls, le+1
		}
		e = edit{start, end, ""}
	} else if p.lang == "python" {
		e = edit{start, end, "pass"}
	} else {
		e = edit{start, end, ";"}
	}
	return finish(RmLoop, f, apply(f.Code, []edit{e}), e, nil, nil)
}

// chBranchCond replaces the condition of a random if (else-if, elif) or switch with
// a random one. Conditions that hold a conditional or a loop themselves (a ternary,
// a comprehension) are not replaced, since that would change numConditionals or
// numLoops, which chBranchCond's properties expect equal.
func chBranchCond(p *parsed, f Function, rng *rand.Rand) (Variant, error) {
	type target struct {
		n       *sitter.Node
		switch_ bool
	}
	var ts []target
	walk(p.fn, func(n *sitter.Node) bool {
		var c *sitter.Node
		sw := false
		switch n.Kind() {
		case "if_statement", "elif_clause":
			c = n.ChildByFieldName("condition")
		case "switch_expression", "switch_statement":
			c, sw = n.ChildByFieldName("condition"), true
		}
		if c != nil {
			if nc, nl, err := inspect.Count(p.lang, c, p.src); err == nil && nc == 0 && nl == 0 {
				cc := *c
				ts = append(ts, target{&cc, sw})
			}
		}
		return true
	})
	if len(ts) == 0 {
		return Variant{}, fmt.Errorf("metamorph: chBranchCond: %w: no if or switch condition", ErrAbsent)
	}
	tg := ts[rng.IntN(len(ts))]
	_, names := paramNames(p, p.fn)
	old := p.text(tg.n)
	var repl string
	for try := 0; try < 8; try++ {
		var c string
		if tg.switch_ {
			c = strconv.Itoa(rng.IntN(10))
		} else {
			c = condition(p, f, names, rng)
		}
		if p.lang == "python" {
			repl = c
		} else {
			repl = "(" + c + ")"
		}
		if repl != old && strings.Trim(repl, "()") != strings.Trim(old, "() ") {
			break
		}
	}
	e := edit{int(tg.n.StartByte()), int(tg.n.EndByte()), repl}
	return finish(ChBranchCond, f, apply(f.Code, []edit{e}), e, nil, nil)
}
