// Package metamorph holds the seven program transformations of NOMOS over Java, Python and C++ functions: renameParam,
// addParam, addConditional and addLoop keep the function's input/output behaviour;
// rmLoop and chBranchCond may change it; merge joins two functions into one with an
// extra boolean parameter that selects which body runs. Each variant carries its own
// signature and test inputs (addParam adds an argument of the new parameter's type,
// merge the selector and both argument lists), a content-hash id, where it changed
// the code and a readable diff.
//
// Edits are textual, located with tree-sitter; a variant that does not re-parse is
// an error. Random choices come from a generator seeded by the caller. Where the
// construct a transformation needs is absent (rmLoop on a loop-free function), it
// returns an error wrapping ErrAbsent and no variant.
//
// The package does not import Beam and is safe for concurrent use.
package metamorph

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"transmute/internal/lcs"
	"transmute/schemas"
	"transmute/transforms/inspect"
	"transmute/transforms/mutate"
)

// Transformation names a program transformation, as NOMOS spells it.
type Transformation string

// The seven transformations of appendix A.1.
const (
	RenameParam    Transformation = "renameParam"
	AddParam       Transformation = "addParam"
	AddConditional Transformation = "addConditional"
	AddLoop        Transformation = "addLoop"
	RmLoop         Transformation = "rmLoop"
	ChBranchCond   Transformation = "chBranchCond"
	Merge          Transformation = "merge"
)

// Transformations lists them in the order of the paper's tables.
var Transformations = []Transformation{RenameParam, AddParam, AddConditional, ChBranchCond, AddLoop, RmLoop, Merge}

// Abbrev is the abbreviation of the paper's tables (rnmP, addP, ...).
func (t Transformation) Abbrev() string {
	return map[Transformation]string{RenameParam: "rnmP", AddParam: "addP", AddConditional: "addC",
		ChBranchCond: "chBC", AddLoop: "addL", RmLoop: "rmL", Merge: "mrg"}[t]
}

// PreservesSemantics tells whether the transformation keeps the function's
// input/output behaviour (its variants must run to the original's outputs).
func (t Transformation) PreservesSemantics() bool {
	switch t {
	case RenameParam, AddParam, AddConditional, AddLoop:
		return true
	}
	return false
}

// ErrAbsent is wrapped by the errors of a transformation that finds no construct to
// transform (no parameter to rename, no for-loop to remove, no branch condition).
var ErrAbsent = errors.New("construct absent")

// Function is a function with its signature and test inputs: the input and the
// output of a transformation.
type Function struct {
	Lang    string
	Code    string
	Imports string
	Entry   string
	Params  []schemas.Param
	Returns string
	Tests   []schemas.Test
}

// Variant is one transformed function.
type Variant struct {
	// ID is the first 16 hex digits of sha256(lang, transformation, code, tests):
	// stable across runs and machines.
	ID             string
	Transformation Transformation
	Lang           string
	// Line and Col locate the (first) change in the original code (1-based; Col in bytes).
	Line, Col int
	// Original and Replacement are the first changed range's text before and after.
	Original, Replacement string
	// Diff is a unified diff of the changed lines.
	Diff string
	// Fn is the variant itself, with its own parameters and tests.
	Fn Function
	// Merge only: for each test of Fn, the index of the test of the first and of
	// the second function whose arguments it carries, and the selector's value.
	FirstTest, SecondTest []int
	Selector              []bool
}

// edit replaces src[start:end] with repl.
type edit struct {
	start, end int
	repl       string
}

// apply applies non-overlapping edits to code.
func apply(code string, es []edit) string {
	sort.Slice(es, func(i, j int) bool { return es[i].start > es[j].start })
	for _, e := range es {
		code = code[:e.start] + e.repl + code[e.end:]
	}
	return code
}

// rngFor returns the generator of one transformation of one function under seed.
func rngFor(seed uint64, t Transformation, f Function) *rand.Rand {
	h := sha256.New()
	h.Write([]byte(t))
	h.Write([]byte{0})
	h.Write([]byte(f.Lang))
	h.Write([]byte{0})
	h.Write([]byte(f.Code))
	s := h.Sum(nil)
	return rand.New(rand.NewPCG(seed, binary.BigEndian.Uint64(s[:8])))
}

// VariantID is the content hash of a variant.
func VariantID(lang string, t Transformation, code string, tests []schemas.Test) string {
	h := sha256.New()
	for _, s := range []string{lang, string(t), code} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	for _, tc := range tests {
		h.Write([]byte(tc.Args))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// parsed is a parse of a function's code.
type parsed struct {
	lang string
	src  []byte
	tree *sitter.Tree
	fn   *sitter.Node
}

func (p *parsed) Close() {
	if p.tree != nil {
		p.tree.Close()
	}
}

func (p *parsed) text(n *sitter.Node) string { return n.Utf8Text(p.src) }

// parse parses f.Code and finds its entry function.
func parse(f Function) (*parsed, error) {
	_, name, err := mutate.Grammar(f.Lang)
	if err != nil {
		return nil, err
	}
	pr, err := mutate.NewParser(name)
	if err != nil {
		return nil, err
	}
	defer pr.Close()
	src := []byte(f.Code)
	t := pr.Parse(src, nil)
	if t == nil {
		return nil, fmt.Errorf("metamorph: %s parse failed", name)
	}
	p := &parsed{lang: name, src: src, tree: t}
	if t.RootNode().HasError() {
		p.Close()
		return nil, fmt.Errorf("metamorph: %s source does not parse cleanly", name)
	}
	p.fn = inspect.FindFunction(name, t.RootNode(), src, f.Entry)
	if p.fn == nil {
		p.Close()
		return nil, fmt.Errorf("metamorph: no function %q in the %s source", f.Entry, name)
	}
	return p, nil
}

// parsesClean reports whether code parses in lang without error nodes.
func parsesClean(lang, code string) bool {
	ok, err := mutate.ParsesClean(lang, code)
	return err == nil && ok
}

// finish builds the variant of f whose code is code, checking that it re-parses.
func finish(t Transformation, f Function, code string, first edit, params []schemas.Param, tests []schemas.Test) (Variant, error) {
	if code == f.Code {
		return Variant{}, fmt.Errorf("metamorph: %s left the code unchanged", t)
	}
	if !parsesClean(f.Lang, code) {
		return Variant{}, fmt.Errorf("metamorph: %s variant does not re-parse", t)
	}
	if params == nil {
		params = f.Params
	}
	if tests == nil {
		tests = f.Tests
	}
	nf := f
	nf.Code, nf.Params, nf.Tests = code, params, tests
	line := 1 + strings.Count(f.Code[:first.start], "\n")
	col := first.start - (strings.LastIndexByte(f.Code[:first.start], '\n') + 1) + 1
	return Variant{ID: VariantID(f.Lang, t, code, tests), Transformation: t, Lang: f.Lang, Line: line, Col: col,
		Original: f.Code[first.start:first.end], Replacement: first.repl, Diff: Diff(f.Code, code), Fn: nf}, nil
}

// Diff renders the lines that differ between a and b as one unified-diff hunk:
// the common leading and trailing lines are left out, and the lines in between are
// aligned by a longest common subsequence (functions are short, so the quadratic
// table is small) and shown as context.
func Diff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	p, s := lcs.Trim(al, bl)
	x, y := al[p:len(al)-s], bl[p:len(bl)-s]
	t := lcs.Table(x, y) // t[i][j] is the LCS length of x[i:] and y[j:]
	var w strings.Builder
	fmt.Fprintf(&w, "@@ -%d,%d +%d,%d @@\n", p+1, len(x), p+1, len(y))
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			w.WriteString(" " + x[i] + "\n")
			i++
			j++
		case i < len(x) && (j == len(y) || t[i+1][j] >= t[i][j+1]):
			w.WriteString("-" + x[i] + "\n")
			i++
		default:
			w.WriteString("+" + y[j] + "\n")
			j++
		}
	}
	return w.String()
}

// identifiers returns every identifier text in code (for fresh names).
func identifiers(p *parsed) map[string]bool {
	out := map[string]bool{}
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if strings.HasSuffix(n.Kind(), "identifier") {
			out[p.text(n)] = true
		}
		for i := uint(0); i < n.ChildCount(); i++ {
			walk(n.Child(i))
		}
	}
	walk(p.tree.RootNode())
	return out
}

// fresh returns a name built from base that is not in taken, and takes it.
func fresh(taken map[string]bool, base string, rng *rand.Rand) string {
	for {
		n := fmt.Sprintf("%s%d", base, rng.IntN(90)+10)
		if !taken[n] && !reserved[n] {
			taken[n] = true
			return n
		}
	}
}

// reserved are keywords that a generated name must not hit (none of the bases plus
// two digits can, but the check is cheap).
var reserved = map[string]bool{"in": true, "is": true, "or": true, "if": true, "do": true}
