package java2py

import (
	"fmt"
	"sort"
	"strings"

	"transmute/transforms/transpile/javasrc"
)

// blockBody translates a block's statements at the current indentation, emitting
// "pass" when nothing was produced.
func (t *translator) blockBody(b *node) {
	mark := t.out.Len()
	t.push()
	if b.kind == "block" {
		for _, s := range b.namedKids() {
			t.statement(s)
		}
	} else {
		t.statement(b)
	}
	t.pop()
	if t.out.Len() == mark {
		t.emit("pass")
	}
}

// suite translates a statement as an indented Python suite.
func (t *translator) suite(s *node) {
	t.indent++
	t.blockBody(s)
	t.indent--
}

// statement is the dispatch of statement rules, one per node kind.
func (t *translator) statement(s *node) {
	switch s.kind {
	case "block":
		t.push()
		for _, k := range s.namedKids() {
			t.statement(k)
		}
		t.pop()
	case ";":
	case "local_variable_declaration":
		t.localVar(s)
	case "expression_statement":
		t.exprStmt(s.namedKids()[0])
	case "if_statement":
		t.ifStmt(s)
	case "while_statement", "do_statement", "for_statement", "enhanced_for_statement":
		lc := &loopCtx{label: t.pendingLabel, exits: map[string]bool{}, node: s}
		t.pendingLabel = ""
		if lc.label != "" {
			lc.flag = t.newTmp("jump")
			t.emit("%s = None", lc.flag)
		}
		switch s.kind {
		case "while_statement":
			t.emit("while %s:", t.cond(s.f("condition")))
			t.loopBody(s.f("body"), lc)
		case "do_statement":
			t.doStmt(s, lc)
		case "for_statement":
			t.forStmt(s, lc)
		case "enhanced_for_statement":
			t.foreachStmt(s, lc)
		}
		t.afterLoop(lc)
	case "break_statement":
		t.breakStmt(s)
	case "continue_statement":
		t.continueStmt(s)
	case "return_statement":
		t.returnStmt(s)
	case "switch_expression", "switch_statement":
		t.switchStmt(s)
	case "labeled_statement":
		t.labeled(s)
	case "throw_statement":
		t.emit("raise Exception(%q)", "java exception: "+strings.Join(strings.Fields(t.text(s)), " "))
	case "assert_statement":
		k := s.namedKids()
		t.emit("assert %s", t.cond(k[0]))
	default:
		unsupported(s, "statement "+s.kind)
	}
}

func (t *translator) localVar(s *node) {
	ty := t.typeOf(s.f("type"), nil)
	for _, d := range s.fs("declarator") {
		dty := ty + dimsSuffix(t, d.f("dimensions"))
		name := t.text(d.f("name"))
		v := d.f("value")
		if dty == "var" {
			if v == nil {
				unsupported(d, "var without initializer")
			}
			dty = t.expr(v).ty
		}
		if v != nil && v.kind == "object_creation_expression" && baseName(t.typeOf(v.f("type"), nil)) == "PriorityQueue" {
			// The heap's order comes from the constructor, not the declared type.
			el := typeArg(dty, 0)
			if strings.Contains(t.text(v), "reverseOrder") {
				dty = "MaxPriorityQueue<" + el + ">"
			} else {
				dty = "PriorityQueue<" + el + ">"
			}
		}
		if v != nil {
			code := t.exprTo(v, dty)
			t.declare(name, dty)
			t.emit("%s = %s", pyIdent(name), code)
		} else {
			t.declare(name, dty)
			t.emit("%s = %s", pyIdent(name), defaultValue(dty))
		}
	}
}

func (t *translator) ifStmt(s *node) {
	t.emit("if %s:", t.cond(s.f("condition")))
	t.suite(s.f("consequence"))
	alt := s.f("alternative")
	for alt != nil && alt.kind == "if_statement" {
		t.emit("elif %s:", t.cond(alt.f("condition")))
		t.suite(alt.f("consequence"))
		alt = alt.f("alternative")
	}
	if alt != nil {
		t.emit("else:")
		t.suite(alt)
	}
}

// cond translates a (parenthesized) boolean condition.
func (t *translator) cond(n *node) string {
	for n.kind == "parenthesized_expression" {
		n = n.namedKids()[0]
	}
	e := t.expr(n)
	return e.code
}

func (t *translator) loopBody(body *node, lc *loopCtx) {
	t.loops = append(t.loops, lc)
	t.suite(body)
	t.loops = t.loops[:len(t.loops)-1]
}

// afterLoop propagates labeled break/continue that left the loop just emitted.
func (t *translator) afterLoop(lc *loopCtx) {
	labels := make([]string, 0, len(lc.exits))
	for l := range lc.exits {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	for _, l := range labels {
		k := t.labelIndex(l)
		cur := t.innermostLoop()
		tgt := t.loops[k]
		if k == cur {
			t.emit("if %s == 'c':", tgt.flag)
			t.indent++
			t.emit("%s = None", tgt.flag)
			for _, u := range tgt.update {
				t.emit("%s", u)
			}
			t.emit("continue")
			t.indent--
			t.emit("if %s == 'b':", tgt.flag)
			t.indent++
			t.emit("break")
			t.indent--
			continue
		}
		t.emit("if %s:", tgt.flag)
		t.indent++
		t.emit("break")
		t.indent--
		t.loops[cur].exits[l] = true
	}
}

// labelIndex finds the loop carrying a label.
func (t *translator) labelIndex(label string) int {
	for i := len(t.loops) - 1; i >= 0; i-- {
		if t.loops[i].label == label && !t.loops[i].isSwitch && !t.loops[i].wrapper {
			return i
		}
	}
	return -1
}

// innermostLoop is the index of the innermost real (non-switch) loop, -1 if none.
func (t *translator) innermostLoop() int {
	for i := len(t.loops) - 1; i >= 0; i-- {
		if !t.loops[i].isSwitch {
			return i
		}
	}
	return -1
}

// labeledJump emits break/continue to a labeled loop.
func (t *translator) labeledJump(s *node, label string, isContinue bool) {
	k := t.labelIndex(label)
	if k < 0 {
		unsupported(s, "jump to a label that is not a loop")
	}
	cur := t.innermostLoop()
	if k == cur {
		if isContinue {
			for _, u := range t.loops[k].update {
				t.emit("%s", u)
			}
			t.emit("continue")
		} else {
			t.emit("break")
		}
		return
	}
	kind := "'b'"
	if isContinue {
		kind = "'c'"
	}
	t.emit("%s = %s", t.loops[k].flag, kind)
	t.emit("break")
	t.loops[cur].exits[label] = true
}

func (t *translator) doStmt(s *node, lc *loopCtx) {
	body := s.f("body")
	if containsKind(body, "continue_statement") {
		flag := t.newTmp("first")
		t.emit("%s = True", flag)
		t.emit("while %s or %s:", flag, t.cond(s.f("condition")))
		t.indent++
		t.emit("%s = False", flag)
		t.indent--
		t.loopBody(body, lc)
		return
	}
	t.emit("while True:")
	t.loopBody(body, lc)
	t.indent++
	t.emit("if not (%s):", t.cond(s.f("condition")))
	t.indent++
	t.emit("break")
	t.indent -= 2
}

func containsKind(n *node, kind string) bool {
	if n.kind == kind {
		return true
	}
	for _, k := range n.kids {
		if containsKind(k, kind) {
			return true
		}
	}
	return false
}

func (t *translator) forStmt(s *node, lc *loopCtx) {
	t.push()
	defer t.pop()
	if t.rangeFor(s, lc) {
		return
	}
	for _, in := range s.fs("init") {
		if in.kind == "local_variable_declaration" {
			t.localVar(in)
		} else {
			t.exprStmt(in)
		}
	}
	cond := "True"
	if c := s.f("condition"); c != nil {
		cond = t.cond(c)
	}
	// Updates are rendered once, as statements, by a capture of the emitter.
	var upd []string
	if ups := s.fs("update"); len(ups) > 0 {
		saved, savedIndent := t.out, t.indent
		t.out, t.indent = strings.Builder{}, 0
		for _, u := range ups {
			t.exprStmt(u)
		}
		upd = strings.Split(strings.TrimSuffix(t.out.String(), "\n"), "\n")
		t.out, t.indent = saved, savedIndent
	}
	t.emit("while %s:", cond)
	lc.update = upd
	t.loopBody(s.f("body"), lc)
	t.indent++
	for _, u := range upd {
		t.emit("%s", u)
	}
	t.indent--
}

// rangeFor emits "for i in range(...)" for counting loops whose variable and bound
// the body does not assign.
func (t *translator) rangeFor(s *node, lc *loopCtx) bool {
	inits := s.fs("init")
	ups := s.fs("update")
	c := s.f("condition")
	if len(inits) != 1 || len(ups) != 1 || c == nil {
		return false
	}
	var v, ty string
	var startNode *node
	switch in := inits[0]; in.kind {
	case "local_variable_declaration":
		ds := in.fs("declarator")
		ty = t.typeOf(in.f("type"), nil)
		if len(ds) != 1 || ds[0].f("value") == nil || ds[0].f("dimensions") != nil {
			return false
		}
		v, startNode = t.text(ds[0].f("name")), ds[0].f("value")
	case "assignment_expression":
		// for (i = a; ...) with i declared before: only when the value i has after
		// the loop is dead (Python's loop variable ends one step short).
		l := in.f("left")
		if l.kind != "identifier" || t.text(in.f("operator")) != "=" {
			return false
		}
		v, startNode = t.text(l), in.f("right")
		ty, _ = t.lookup(v)
		if _, isField := t.fields[v]; isField || !t.deadAfter(s, v) {
			return false
		}
	default:
		return false
	}
	if ty != "int" && ty != "long" {
		return false
	}
	for c.kind == "parenthesized_expression" {
		c = c.namedKids()[0]
	}
	if c.kind != "binary_expression" {
		return false
	}
	op := t.text(c.f("operator"))
	l, r := c.f("left"), c.f("right")
	bound := r
	if l.kind != "identifier" || t.text(l) != v {
		if r.kind != "identifier" || t.text(r) != v {
			return false
		}
		bound = l
		switch op {
		case "<":
			op = ">"
		case ">":
			op = "<"
		case "<=":
			op = ">="
		case ">=":
			op = "<="
		default:
			return false
		}
	}
	// Step.
	u := ups[0]
	step := 0
	switch u.kind {
	case "update_expression":
		k := u.namedKids()
		if len(k) != 1 || k[0].kind != "identifier" || t.text(k[0]) != v {
			return false
		}
		if strings.Contains(t.text(u), "++") {
			step = 1
		} else {
			step = -1
		}
	case "assignment_expression":
		if t.text(u.f("left")) != v || u.f("right").kind != "decimal_integer_literal" {
			return false
		}
		n := 0
		if _, err := fmt.Sscanf(t.text(u.f("right")), "%d", &n); err != nil || n <= 0 {
			return false
		}
		switch t.text(u.f("operator")) {
		case "+=":
			step = n
		case "-=":
			step = -n
		default:
			return false
		}
	default:
		return false
	}
	if (step > 0 && op != "<" && op != "<=") || (step < 0 && op != ">" && op != ">=") {
		return false
	}
	// The body must not assign the variable or anything the bound reads, and the bound
	// must be pure.
	assigned := map[string]bool{}
	collectAssigned(t, s.f("body"), assigned)
	if assigned[v] || !t.pureBound(bound, assigned) {
		return false
	}
	if bt := t.expr(bound).ty; !isIntegral(bt) && !isChar(bt) {
		return false
	}
	start := t.exprTo(startNode, ty)
	t.declare(v, ty)
	b := t.expr(bound)
	b = t.numeric(b)
	end := b.code
	switch op {
	case "<=":
		end = paren(b, pAdd+1) + " + 1"
		switch {
		case b.lit:
			end = addConst(b.code, 1)
		case b.prec == pAdd && strings.HasSuffix(b.code, " - 1"):
			end = strings.TrimSuffix(b.code, " - 1")
		}
	case ">=":
		end = paren(b, pAdd+1) + " - 1"
		switch {
		case b.lit:
			end = addConst(b.code, -1)
		case b.prec == pAdd && strings.HasSuffix(b.code, " + 1"):
			end = strings.TrimSuffix(b.code, " + 1")
		}
	}
	var rng string
	switch {
	case step == 1 && start == "0":
		rng = fmt.Sprintf("range(%s)", end)
	case step == 1:
		rng = fmt.Sprintf("range(%s, %s)", start, end)
	default:
		rng = fmt.Sprintf("range(%s, %s, %d)", start, end, step)
	}
	t.emit("for %s in %s:", pyIdent(v), rng)
	t.loopBody(s.f("body"), lc)
	return true
}

func addConst(code string, d int) string {
	var n int64
	if _, err := fmt.Sscanf(code, "%d", &n); err == nil && fmt.Sprint(n) == code {
		return fmt.Sprint(n + int64(d))
	}
	if d > 0 {
		return fmt.Sprintf("%s + %d", code, d)
	}
	return fmt.Sprintf("%s - %d", code, -d)
}

// deadAfter tells whether variable v is overwritten, before any read, after the loop
// statement s (which is not nested in another loop).
func (t *translator) deadAfter(s *node, v string) bool {
	var first, firstParent *node
	var walk func(n, parent *node)
	walk = func(n, parent *node) {
		if n.kind == "identifier" && n.start >= s.end && t.text(n) == v && (first == nil || n.start < first.start) {
			first, firstParent = n, parent
		}
		for _, k := range n.kids {
			walk(k, n)
		}
	}
	walk(t.curBody, nil)
	// Inside loops, the next iteration may read v before reaching s again: require
	// that v does not occur in the outermost enclosing loop before s.
	for _, lc := range t.loops {
		if lc.node == nil {
			continue
		}
		before := false
		var scan func(n *node)
		scan = func(n *node) {
			if n.start >= s.start || before {
				return
			}
			if n.kind == "identifier" && t.text(n) == v {
				before = true
			}
			for _, k := range n.kids {
				scan(k)
			}
		}
		scan(lc.node)
		if before {
			return false
		}
		break
	}
	if first == nil {
		return true
	}
	if firstParent == nil || firstParent.kind != "assignment_expression" || firstParent.f("left") != first ||
		t.text(firstParent.f("operator")) != "=" {
		return false
	}
	found := false
	var reads func(n *node)
	reads = func(n *node) {
		if n.kind == "identifier" && t.text(n) == v {
			found = true
		}
		for _, k := range n.kids {
			reads(k)
		}
	}
	reads(firstParent.f("right"))
	return !found
}

// pureBound tells whether a loop bound is side-effect free and constant over the loop.
func (t *translator) pureBound(n *node, assigned map[string]bool) bool {
	switch n.kind {
	case "identifier":
		return !assigned[t.text(n)]
	case "decimal_integer_literal", "hex_integer_literal", "character_literal":
		return true
	case "parenthesized_expression":
		return t.pureBound(n.namedKids()[0], assigned)
	case "binary_expression":
		switch t.text(n.f("operator")) {
		case "+", "-", "*", "/", ">>", "<<", "%":
			return t.pureBound(n.f("left"), assigned) && t.pureBound(n.f("right"), assigned)
		}
	case "field_access":
		o := n.f("object")
		if t.text(n.f("field")) == "length" && o.kind == "identifier" {
			ty, _ := t.lookup(t.text(o))
			return isArray(ty) && !assigned[t.text(o)]
		}
	case "method_invocation":
		o := n.f("object")
		if o != nil && o.kind == "identifier" && t.text(n.f("name")) == "length" && len(n.f("arguments").namedKids()) == 0 {
			ty, _ := t.lookup(t.text(o))
			return isString(ty) && !assigned[t.text(o)]
		}
	}
	return false
}

// collectAssigned records the identifiers assigned or incremented under n.
func collectAssigned(t *translator, n *node, out map[string]bool) {
	switch n.kind {
	case "assignment_expression":
		if l := n.f("left"); l.kind == "identifier" {
			out[t.text(l)] = true
		}
	case "update_expression":
		for _, k := range n.namedKids() {
			if k.kind == "identifier" {
				out[t.text(k)] = true
			}
		}
	}
	for _, k := range n.kids {
		collectAssigned(t, k, out)
	}
}

func (t *translator) foreachStmt(s *node, lc *loopCtx) {
	t.push()
	defer t.pop()
	ty := t.typeOf(s.f("type"), s.f("dimensions"))
	name := t.text(s.f("name"))
	coll := t.expr(s.f("value"))
	if ty == "var" {
		ty = "?"
	}
	t.declare(name, ty)
	src := coll.code
	switch collKind(coll.ty) {
	case kTSet, kTMap:
		src = "sorted(" + coll.code + ")"
	case kPQMax:
		src = "[-_x for _x in " + coll.code + "]"
	case kSB:
		unsupported(s, "for-each over StringBuilder")
	}
	if isString(coll.ty) {
		unsupported(s, "for-each over String")
	}
	// for (int x : chars) widens each char to its code.
	if el := t.elemOf(coll.ty); isChar(el) && (isIntegral(ty) || javasrc.IsFloating(ty)) {
		src = "map(ord, " + src + ")"
	}
	t.emit("for %s in %s:", pyIdent(name), src)
	t.loopBody(s.f("body"), lc)
}

func (t *translator) breakStmt(s *node) {
	if k := s.namedKids(); len(k) > 0 {
		t.labeledJump(s, t.text(k[0]), false)
		return
	}
	if len(t.loops) == 0 {
		unsupported(s, "break outside loop")
	}
	if t.loops[len(t.loops)-1].isSwitch {
		unsupported(s, "break nested inside a switch case")
	}
	t.emit("break")
}

func (t *translator) continueStmt(s *node) {
	if s != nil {
		if k := s.namedKids(); len(k) > 0 {
			t.labeledJump(s, t.text(k[0]), true)
			return
		}
	}
	for i := len(t.loops) - 1; i >= 0; i-- {
		lc := t.loops[i]
		if lc.isSwitch {
			continue
		}
		if lc.wrapper {
			// Leave the switch's one-pass loop; the code after it continues.
			t.emit("%s = True", lc.flag)
			t.emit("break")
			return
		}
		for _, u := range lc.update {
			t.emit("%s", u)
		}
		t.emit("continue")
		return
	}
	unsupported(s, "continue outside loop")
}

func (t *translator) returnStmt(s *node) {
	k := s.namedKids()
	if len(k) == 0 {
		t.emit("return")
		return
	}
	t.emit("return %s", t.exprTo(k[0], t.ret))
}

func (t *translator) labeled(s *node) {
	k := s.namedKids()
	label := t.text(k[0])
	inner := k[1]
	switch inner.kind {
	case "for_statement", "while_statement", "do_statement", "enhanced_for_statement":
		t.pendingLabel = label
		t.statement(inner)
	default:
		if containsLabelRef(t, inner, label) {
			unsupported(s, "labeled "+inner.kind)
		}
		t.statement(inner)
	}
}

func containsLabelRef(t *translator, n *node, label string) bool {
	if n.kind == "break_statement" || n.kind == "continue_statement" {
		if k := n.namedKids(); len(k) > 0 && t.text(k[0]) == label {
			return true
		}
	}
	for _, k := range n.kids {
		if containsLabelRef(t, k, label) {
			return true
		}
	}
	return false
}

// arm is one case group of a switch.
type arm struct {
	labels []string
	isDef  bool
	stmts  []*node
	rule   *node
}

// switchStmt turns a switch into an if/elif chain over a temporary.
func (t *translator) switchStmt(s *node) {
	cond := s.f("condition")
	for cond.kind == "parenthesized_expression" {
		cond = cond.namedKids()[0]
	}
	sw := t.expr(cond)
	subject := sw.code
	if cond.kind != "identifier" {
		subject = t.newTmp("sw")
		t.emit("%s = %s", subject, sw.code)
	}
	body := s.f("body")
	var arms []arm
	for _, g := range body.namedKids() {
		var a arm
		switch g.kind {
		case "switch_block_statement_group", "switch_rule":
			for _, k := range g.namedKids() {
				if k.kind == "switch_label" {
					ls := k.namedKids()
					if len(ls) == 0 {
						a.isDef = true
					}
					for _, l := range ls {
						a.labels = append(a.labels, t.exprTo(l, sw.ty))
					}
				} else if g.kind == "switch_rule" {
					a.rule = k
				} else {
					a.stmts = append(a.stmts, k)
				}
			}
		default:
			unsupported(g, "switch element "+g.kind)
		}
		arms = append(arms, a)
	}
	// Empty arms (case 1: case 2: ...) share the next arm's body.
	var merged []arm
	var carry []string
	carryDef := false
	for i, a := range arms {
		if a.rule == nil && len(a.stmts) == 0 && i < len(arms)-1 {
			carry = append(carry, a.labels...)
			carryDef = carryDef || a.isDef
			continue
		}
		a.labels = append(carry, a.labels...)
		a.isDef = a.isDef || carryDef
		if a.isDef {
			a.labels = nil
		}
		carry, carryDef = nil, false
		merged = append(merged, a)
	}
	arms = merged
	// Fallthrough: an arm that does not end in a jump continues with the next arms'
	// statements, which are copied into it.
	for i := range arms {
		a := &arms[i]
		if a.rule != nil {
			continue
		}
		stmts := a.stmts
		for j := i + 1; j < len(arms) && (len(stmts) == 0 || !terminates(stmts[len(stmts)-1])); j++ {
			if arms[j].rule != nil {
				break
			}
			stmts = append(stmts[:len(stmts):len(stmts)], arms[j].stmts...)
		}
		a.stmts = stmts
	}
	// A break nested inside an arm (not its last statement) needs a one-pass loop
	// around the if/elif chain for "break" to leave the switch.
	ctx := &loopCtx{isSwitch: true}
	for _, a := range arms {
		if nestedBreak(a.stmts) || a.rule != nil && nestedBreak([]*node{a.rule}) {
			ctx = &loopCtx{wrapper: true, exits: map[string]bool{}, flag: t.newTmp("swc")}
			t.emit("%s = False", ctx.flag)
			t.emit("while True:")
			t.indent++
			break
		}
	}
	t.emitArms(subject, arms, ctx)
	if ctx.wrapper {
		t.emit("break")
		t.indent--
		t.emit("if %s:", ctx.flag)
		t.indent++
		t.continueStmt(nil)
		t.indent--
		t.afterLoop(ctx)
	}
}

// nestedBreak tells whether a switch arm has a break of the switch other than its
// final statement.
func nestedBreak(stmts []*node) bool {
	var walk func(n *node, top bool) bool
	walk = func(n *node, top bool) bool {
		switch n.kind {
		case "break_statement":
			return !top && len(n.namedKids()) == 0
		case "for_statement", "while_statement", "do_statement", "enhanced_for_statement",
			"switch_expression", "switch_statement", "lambda_expression", "class_body":
			return false
		}
		for _, k := range n.kids {
			if walk(k, false) {
				return true
			}
		}
		return false
	}
	for i, st := range stmts {
		last := i == len(stmts)-1
		if st.kind == "block" && last {
			k := st.namedKids()
			for j, kk := range k {
				if walk(kk, j == len(k)-1) {
					return true
				}
			}
			continue
		}
		if walk(st, last) {
			return true
		}
	}
	return false
}

func (t *translator) emitArms(subject string, arms []arm, ctx *loopCtx) {
	first := true
	var def *arm
	for i := range arms {
		a := &arms[i]
		if a.isDef {
			def = a
			continue
		}
		var conds []string
		for _, l := range a.labels {
			conds = append(conds, fmt.Sprintf("%s == %s", subject, l))
		}
		kw := "elif"
		if first {
			kw = "if"
		}
		first = false
		t.emit("%s %s:", kw, strings.Join(conds, " or "))
		t.switchArm(a.stmts, a.rule, ctx)
	}
	if def != nil {
		if first {
			t.emit("if True:")
		} else {
			t.emit("else:")
		}
		t.switchArm(def.stmts, def.rule, ctx)
	}
}

func terminates(s *node) bool {
	switch s.kind {
	case "break_statement", "return_statement", "continue_statement", "throw_statement":
		return true
	case "block":
		k := s.namedKids()
		return len(k) > 0 && terminates(k[len(k)-1])
	}
	return false
}

func (t *translator) switchArm(stmts []*node, rule *node, ctx *loopCtx) {
	t.indent++
	mark := t.out.Len()
	t.loops = append(t.loops, ctx)
	t.push()
	if rule != nil {
		t.statement(rule)
	} else {
		for i, st := range stmts {
			if i == len(stmts)-1 && st.kind == "break_statement" && len(st.namedKids()) == 0 {
				break
			}
			if i == len(stmts)-1 && st.kind == "block" {
				k := st.namedKids()
				if len(k) > 0 && k[len(k)-1].kind == "break_statement" && len(k[len(k)-1].namedKids()) == 0 {
					t.push()
					for _, kk := range k[:len(k)-1] {
						t.statement(kk)
					}
					t.pop()
					break
				}
			}
			t.statement(st)
		}
	}
	t.pop()
	t.loops = t.loops[:len(t.loops)-1]
	if t.out.Len() == mark {
		t.emit("pass")
	}
	t.indent--
}
