package metamorph

import (
	"encoding/json"
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"transmute/schemas"
	"transmute/transforms/inspect"
)

// ErrNotMergeable is wrapped by MergeFunctions' errors when the two functions
// cannot be merged (different return types or languages, a recursive function, a
// second function with helpers): the caller tries another partner.
var ErrNotMergeable = fmt.Errorf("%w: not mergeable", ErrAbsent)

// MergeFunctions merges f1 and f2 (same language and return type) into one function
// named like f1 that takes a boolean selector, then f1's parameters, then f2's (both
// renamed apart), and runs f1's body when the selector is true, f2's otherwise. Its
// tests are max(len(f1.Tests), len(f2.Tests)) calls whose selector alternates
// (starting at random) and whose arguments are f1's test j mod len and f2's test j
// mod len: Variant.FirstTest, SecondTest and Selector say which. f1's helper
// functions are kept; f2 must have none, and neither may call itself (the merged
// function has another signature).
func MergeFunctions(f1, f2 Function, seed uint64) (Variant, error) {
	if f1.Lang != f2.Lang {
		return Variant{}, fmt.Errorf("metamorph: merge: %w: languages %s and %s", ErrNotMergeable, f1.Lang, f2.Lang)
	}
	if f1.Returns != f2.Returns {
		return Variant{}, fmt.Errorf("metamorph: merge: %w: return types %s and %s", ErrNotMergeable, f1.Returns, f2.Returns)
	}
	if strings.HasPrefix(f1.Returns, "void") {
		// a void function's outputs are its mutated arguments: the merge's would hold
		// both argument lists', never one function's
		return Variant{}, fmt.Errorf("metamorph: merge: %w: void functions", ErrNotMergeable)
	}
	if len(f1.Tests) == 0 || len(f2.Tests) == 0 {
		return Variant{}, fmt.Errorf("metamorph: merge: %w: a function without tests", ErrNotMergeable)
	}
	p1, err := parse(f1)
	if err != nil {
		return Variant{}, err
	}
	defer p1.Close()
	p2, err := parse(f2)
	if err != nil {
		return Variant{}, err
	}
	defer p2.Close()
	if len(selfCalls(p1, p1.fn, f1.Entry)) > 0 || len(selfCalls(p2, p2.fn, f2.Entry)) > 0 {
		return Variant{}, fmt.Errorf("metamorph: merge: %w: a recursive function", ErrNotMergeable)
	}
	if t1, t2 := p1.fn.ChildByFieldName("type"), p2.fn.ChildByFieldName("type"); t1 != nil && t2 != nil && p1.text(t1) != p2.text(t2) {
		// one neutral type, two spellings (Java's String and StringBuffer are both string)
		return Variant{}, fmt.Errorf("metamorph: merge: %w: return types %s and %s", ErrNotMergeable, p1.text(t1), p2.text(t2))
	}
	root2 := p2.tree.RootNode()
	for i := uint(0); i < root2.NamedChildCount(); i++ {
		c := root2.NamedChild(i)
		if !strings.Contains(c.Kind(), "comment") && c.Id() != p2.fn.Id() {
			return Variant{}, fmt.Errorf("metamorph: merge: %w: the second function has helpers", ErrNotMergeable)
		}
	}
	if len(inspect.Params(p1.lang, p1.fn)) != len(f1.Params) || len(inspect.Params(p2.lang, p2.fn)) != len(f2.Params) {
		return Variant{}, fmt.Errorf("metamorph: merge: %w: signature and code disagree", ErrNotMergeable)
	}
	rng := rngFor(seed, Merge, f1)
	taken := identifiers(p1)
	for k := range identifiers(p2) {
		taken[k] = true
	}
	base, p0 := f1, p1 // the variant's location and diff are against the source as given
	if p1.lang == "python" {
		// One Python scope holds both bodies: a local of one must not shadow a name the
		// other reads (a local max against the builtin max).
		var q *parsed
		if f1, q, err = pyLocalsApart(f1, p1, p2, taken, "1"); err != nil {
			return Variant{}, err
		}
		if q != p1 {
			defer q.Close()
			p1 = q
		}
		if f2, q, err = pyLocalsApart(f2, p2, p1, taken, "2"); err != nil {
			return Variant{}, err
		}
		if q != p2 {
			defer q.Close()
			p2 = q
		}
	}
	sel := fresh(taken, "sel", rng)
	r1, ps1, err := renameApart(p1, f1, taken, "1")
	if err != nil {
		return Variant{}, err
	}
	r2, ps2, err := renameApart(p2, f2, taken, "2")
	if err != nil {
		return Variant{}, err
	}
	q1, err := parse(Function{Lang: f1.Lang, Code: r1, Entry: f1.Entry})
	if err != nil {
		return Variant{}, err
	}
	defer q1.Close()
	q2, err := parse(Function{Lang: f2.Lang, Code: r2, Entry: f2.Entry})
	if err != nil {
		return Variant{}, err
	}
	defer q2.Close()

	var params []string
	switch q1.lang {
	case "java":
		params = append(params, "boolean "+sel)
	case "cpp":
		params = append(params, "bool "+sel)
	default:
		params = append(params, sel)
	}
	for _, q := range []*parsed{q1, q2} {
		for _, n := range inspect.Params(q.lang, q.fn) {
			params = append(params, q.text(n))
		}
	}
	name := inspect.FunctionName(q1.lang, q1.fn)
	pl := inspect.ParamList(q1.lang, q1.fn)
	b1, b2 := q1.fn.ChildByFieldName("body"), q2.fn.ChildByFieldName("body")
	if name == nil || pl == nil || b1 == nil || b2 == nil {
		return Variant{}, fmt.Errorf("metamorph: merge: %w: no name, parameters or body", ErrNotMergeable)
	}
	head := string(q1.src[q1.fn.StartByte():name.StartByte()]) + f1.Entry + "(" + strings.Join(params, ", ") + ")"
	var merged string
	if q1.lang == "python" {
		merged = head + ":\n    if " + sel + ":\n" + pyBody(q1, b1, "        ") + "\n    else:\n" + pyBody(q2, b2, "        ")
	} else {
		between := string(q1.src[pl.EndByte():b1.StartByte()])
		merged = head + between + "{\n  if (" + sel + ") " + strings.ReplaceAll(q1.text(b1), "\n", "\n  ") +
			" else " + strings.ReplaceAll(q2.text(b2), "\n", "\n  ") + "\n}"
	}
	code := string(q1.src[:q1.fn.StartByte()]) + merged + string(q1.src[q1.fn.EndByte():])

	n := max(len(f1.Tests), len(f2.Tests))
	start := rng.IntN(2) == 0
	v := Variant{Transformation: Merge, Lang: p1.lang, Line: 1 + strings.Count(base.Code[:p0.fn.StartByte()], "\n"), Col: 1,
		Original: p0.text(p0.fn), Replacement: merged, Diff: Diff(base.Code, code)}
	tests := make([]schemas.Test, n)
	for j := 0; j < n; j++ {
		i1, i2 := j%len(f1.Tests), j%len(f2.Tests)
		s := (j%2 == 0) == start
		var a1, a2 []json.RawMessage
		if err := json.Unmarshal([]byte(f1.Tests[i1].Args), &a1); err != nil {
			return Variant{}, fmt.Errorf("metamorph: merge: test %d of the first function: %v", i1, err)
		}
		if err := json.Unmarshal([]byte(f2.Tests[i2].Args), &a2); err != nil {
			return Variant{}, fmt.Errorf("metamorph: merge: test %d of the second function: %v", i2, err)
		}
		all := append(append([]json.RawMessage{json.RawMessage(fmt.Sprint(s))}, a1...), a2...)
		b, _ := json.Marshal(all)
		tests[j] = schemas.Test{Index: int32(j), Args: string(b)}
		v.FirstTest = append(v.FirstTest, i1)
		v.SecondTest = append(v.SecondTest, i2)
		v.Selector = append(v.Selector, s)
	}
	if !parsesClean(f1.Lang, code) {
		return Variant{}, fmt.Errorf("metamorph: merge variant does not re-parse")
	}
	v.Fn = Function{Lang: f1.Lang, Code: code, Imports: mergeImports(f1.Imports, f2.Imports), Entry: f1.Entry,
		Params: append(append([]schemas.Param{{Name: sel, Type: "bool"}}, ps1...), ps2...), Returns: f1.Returns, Tests: tests}
	v.ID = VariantID(f1.Lang, Merge, code, tests)
	return v, nil
}

// renameApart renames every parameter of p's entry function to a name not in taken
// (its name plus suffix, then a digit), returning the new code and signature.
func renameApart(p *parsed, f Function, taken map[string]bool, suffix string) (string, []schemas.Param, error) {
	_, names := paramNames(p, p.fn)
	params := append([]schemas.Param(nil), f.Params...)
	var es []edit
	for i, n := range names {
		if n == nil {
			return "", nil, fmt.Errorf("metamorph: merge: %w: an unnamed parameter", ErrNotMergeable)
		}
		old := p.text(n)
		nw := old + suffix
		for k := 0; taken[nw]; k++ {
			nw = fmt.Sprintf("%s%s%d", old, suffix, k)
		}
		taken[nw] = true
		es = append(es, renameEdits(p, p.fn, old, nw)...)
		params[i].Name = nw
	}
	return apply(f.Code, es), params, nil
}

// pyBody re-indents a Python function body (block) to indent.
func pyBody(p *parsed, b *sitter.Node, indent string) string {
	start := int(b.StartByte())
	ls := strings.LastIndexByte(string(p.src[:start]), '\n') + 1
	base := string(p.src[ls:start])
	text := string(p.src[start:b.EndByte()])
	if strings.TrimSpace(base) != "" { // body on the def line
		base = ""
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			lines[i] = ""
			continue
		}
		if i > 0 {
			l = strings.TrimPrefix(l, base)
		}
		lines[i] = indent + l
	}
	return strings.Join(lines, "\n")
}

func mergeImports(a, b string) string {
	seen := map[string]bool{}
	var out []string
	for _, l := range strings.Split(a+"\n"+b, "\n") {
		if strings.TrimSpace(l) == "" || seen[l] {
			continue
		}
		seen[l] = true
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
