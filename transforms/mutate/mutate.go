// Package mutate generates first-order mutants of a single function with the
// 19 method-level mutation operators of muJava (Ma, Offutt and Kwon 2005),
// as used by Mutation-Based Translation Analysis (MBTA, seed paper 000,
// Table 2). Java is the reference language; C++ and Python get the same
// operators wherever the construct exists (see docs/MUTATION.md for the
// applicability table and the reasons an operator does not apply).
//
// Mutants are produced by textual edits located with tree-sitter: every
// candidate is re-parsed and dropped (and counted in Stats.Invalid) when the
// mutated function no longer parses without an error node. Syntactic
// validity is all that is checked; type errors that a compiler would reject
// (e.g. a deleted statement leaving a variable unassigned) are not detected.
//
// The package does not import Beam and is safe for concurrent use.
package mutate

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Operators lists the 19 muJava method-level operators in their canonical
// order; mutants are returned grouped in this order.
var Operators = []string{
	"AORB", "AORS", "AOIU", "AOIS", "AODU", "AODS",
	"ROR", "COR", "COD", "COI",
	"SOR", "LOR", "LOI", "LOD",
	"ASRS", "SDL", "VDL", "CDL", "ODL",
}

// Descriptions gives the long name of each operator (paper, Table 2).
var Descriptions = map[string]string{
	"AORB": "Arithmetic Operator Replacement (binary)",
	"AORS": "Arithmetic Operator Replacement (short-cut)",
	"AOIU": "Arithmetic Operator Insertion (unary)",
	"AOIS": "Arithmetic Operator Insertion (short-cut)",
	"AODU": "Arithmetic Operator Deletion (unary)",
	"AODS": "Arithmetic Operator Deletion (short-cut)",
	"ROR":  "Relational Operator Replacement",
	"COR":  "Conditional Operator Replacement",
	"COD":  "Conditional Operator Deletion",
	"COI":  "Conditional Operator Insertion",
	"SOR":  "Shift Operator Replacement",
	"LOR":  "Logical Operator Replacement",
	"LOI":  "Logical Operator Insertion",
	"LOD":  "Logical Operator Deletion",
	"ASRS": "Assignment Operator Replacement (short-cut)",
	"SDL":  "Statement Deletion",
	"VDL":  "Variable Deletion",
	"CDL":  "Constant Deletion",
	"ODL":  "Operator Deletion",
}

// Options selects and caps the generated mutants.
type Options struct {
	// Operators restricts generation to these operator names
	// (case-insensitive); nil or empty means all 19.
	Operators []string
	// MaxPerOperator caps the mutants kept per operator (0 = no cap).
	MaxPerOperator int
	// MaxTotal caps the mutants kept overall, after the per-operator cap
	// (0 = no cap).
	MaxTotal int
	// Seed drives the sampling used when a cap applies.
	Seed int64
}

// Mutant is one first-order mutant of the input function.
type Mutant struct {
	// ID is the first 16 hex digits of sha256(lang, operator, Code): stable
	// across runs and machines.
	ID       string
	Operator string
	Lang     string
	// Line and Col locate the mutated construct in the original code
	// (1-based; Col counts bytes). For a deleted line this is the deleted
	// statement, while StartByte may point at the preceding newline.
	Line, Col int
	// StartByte and EndByte delimit the replaced range of the original code.
	StartByte, EndByte int
	// Original is the replaced text, Replacement the text put in its place.
	Original, Replacement string
	// Code is the whole mutated function.
	Code string
	// Diff is a small unified diff of the changed lines.
	Diff string
}

// Stats counts what happened during generation.
type Stats struct {
	// Generated is the number of valid, distinct mutants before capping.
	Generated int
	// Invalid counts candidates dropped because they did not re-parse.
	Invalid int
	// Duplicates counts candidates dropped because their code was identical
	// to the original or to an earlier mutant of the same operator.
	Duplicates int
	// Returned is the number of mutants returned (after caps).
	Returned int
	// PerOperator is Generated broken down by operator.
	PerOperator map[string]int
}

// candidate is a proposed edit before validation.
type candidate struct {
	op         string
	start, end int
	repl       string
	seq        int
	at         int // byte reported as Line/Col (the mutated construct)
}

// Generate returns the mutants of code (one function, or a class/file
// holding functions) written in lang ("java", "cpp" or "python"; "c++" and
// "py" are accepted aliases). It fails when the language is unknown, an
// operator name is unknown, or code does not parse cleanly.
func Generate(lang, code string, opts Options) ([]Mutant, Stats, error) {
	st := Stats{PerOperator: map[string]int{}}
	spec, err := specFor(lang)
	if err != nil {
		return nil, st, err
	}
	enabled, err := enabledOps(opts.Operators)
	if err != nil {
		return nil, st, err
	}
	p, err := newParser(spec)
	if err != nil {
		return nil, st, err
	}
	defer p.Close()

	src := []byte(code)
	tree := p.Parse(src, nil)
	if tree == nil {
		return nil, st, fmt.Errorf("mutate: %s parse failed", spec.name)
	}
	defer tree.Close()
	if tree.RootNode().HasError() {
		return nil, st, fmt.Errorf("mutate: %s source does not parse cleanly", spec.name)
	}
	cands := collect(spec, tree, src, enabled)
	ms, st := finish(spec, p, tree, code, cands, opts, st)
	return ms, st, nil
}

// finish validates, deduplicates, orders and samples the candidates. tree
// is the parse of code; mutants are re-parsed incrementally from it.
func finish(spec *langSpec, p *sitter.Parser, tree *sitter.Tree, code string, cands []candidate, opts Options, st Stats) ([]Mutant, Stats) {
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if oa, ob := opIndex[a.op], opIndex[b.op]; oa != ob {
			return oa < ob
		}
		if a.start != b.start {
			return a.start < b.start
		}
		if a.end != b.end {
			return a.end < b.end
		}
		return a.seq < b.seq
	})

	byOp := map[string][]Mutant{}
	seen := map[string]bool{}
	for _, c := range cands {
		mutated := code[:c.start] + c.repl + code[c.end:]
		key := c.op + "\x00" + mutated
		if mutated == code || seen[key] {
			st.Duplicates++
			continue
		}
		seen[key] = true
		if !reparsesClean(p, tree, code, mutated, c) {
			st.Invalid++
			continue
		}
		byOp[c.op] = append(byOp[c.op], newMutant(spec.name, code, mutated, c))
	}

	var out []Mutant
	for _, op := range Operators {
		ms := byOp[op]
		if len(ms) == 0 {
			continue
		}
		st.Generated += len(ms)
		st.PerOperator[op] = len(ms)
		out = append(out, sample(ms, opts.MaxPerOperator, opts.Seed, op)...)
	}
	out = sample(out, opts.MaxTotal, opts.Seed, "*total*")
	st.Returned = len(out)
	return out, st
}

var opIndex = func() map[string]int {
	m := map[string]int{}
	for i, op := range Operators {
		m[op] = i
	}
	return m
}()

func enabledOps(names []string) (map[string]bool, error) {
	m := map[string]bool{}
	if len(names) == 0 {
		for _, op := range Operators {
			m[op] = true
		}
		return m, nil
	}
	for _, n := range names {
		u := strings.ToUpper(strings.TrimSpace(n))
		if _, ok := opIndex[u]; !ok {
			return nil, fmt.Errorf("mutate: unknown operator %q", n)
		}
		m[u] = true
	}
	return m, nil
}

// sample keeps at most max elements of ms, chosen with a generator seeded
// by (seed, salt), preserving their order. max <= 0 keeps everything.
func sample(ms []Mutant, max int, seed int64, salt string) []Mutant {
	if max <= 0 || len(ms) <= max {
		return ms
	}
	h := sha256.Sum256([]byte(salt))
	var s2 uint64
	for _, b := range h[:8] {
		s2 = s2<<8 | uint64(b)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), s2))
	idx := rng.Perm(len(ms))[:max]
	sort.Ints(idx)
	out := make([]Mutant, 0, max)
	for _, i := range idx {
		out = append(out, ms[i])
	}
	return out
}

// MutantID is the deterministic identifier of a mutant: the first 16 hex
// digits of sha256(lang NUL operator NUL code).
func MutantID(lang, op, code string) string {
	h := sha256.New()
	h.Write([]byte(lang))
	h.Write([]byte{0})
	h.Write([]byte(op))
	h.Write([]byte{0})
	h.Write([]byte(code))
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func newMutant(lang, code, mutated string, c candidate) Mutant {
	at := c.at
	if at < c.start || at > c.end {
		at = c.start
	}
	line := 1 + strings.Count(code[:at], "\n")
	col := at - (strings.LastIndexByte(code[:at], '\n') + 1) + 1
	return Mutant{
		ID:          MutantID(lang, c.op, mutated),
		Operator:    c.op,
		Lang:        lang,
		Line:        line,
		Col:         col,
		StartByte:   c.start,
		EndByte:     c.end,
		Original:    code[c.start:c.end],
		Replacement: c.repl,
		Code:        mutated,
		Diff:        lineDiff(code, c),
	}
}

// lineDiff renders the changed lines as a one-hunk unified diff.
func lineDiff(code string, c candidate) string {
	ls := strings.LastIndexByte(code[:c.start], '\n') + 1
	le := len(code)
	if i := strings.IndexByte(code[c.end:], '\n'); i >= 0 {
		le = c.end + i
	}
	before := code[ls:le]
	after := code[ls:c.start] + c.repl + code[c.end:le]
	line := 1 + strings.Count(code[:ls], "\n")
	nb := strings.Count(before, "\n") + 1
	na := strings.Count(after, "\n") + 1
	if after == "" {
		na = 0
	}
	var b strings.Builder
	fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", line, nb, line, na)
	for _, l := range strings.Split(before, "\n") {
		b.WriteString("-" + l + "\n")
	}
	if na > 0 {
		for _, l := range strings.Split(after, "\n") {
			b.WriteString("+" + l + "\n")
		}
	}
	return b.String()
}

// reparsesClean re-parses mutated incrementally (from a copy of the
// original tree, edited at the candidate's range) and reports whether the
// result has no error or missing node.
func reparsesClean(p *sitter.Parser, tree *sitter.Tree, code, mutated string, c candidate) bool {
	old := tree.Clone()
	defer old.Close()
	newEnd := c.start + len(c.repl)
	old.Edit(&sitter.InputEdit{
		StartByte:      uint(c.start),
		OldEndByte:     uint(c.end),
		NewEndByte:     uint(newEnd),
		StartPosition:  pointAt(code, c.start),
		OldEndPosition: pointAt(code, c.end),
		NewEndPosition: pointAt(mutated, newEnd),
	})
	t := p.Parse([]byte(mutated), old)
	if t == nil {
		return false
	}
	defer t.Close()
	return !t.RootNode().HasError()
}

// pointAt converts a byte offset into a tree-sitter (row, byte column).
func pointAt(s string, off int) sitter.Point {
	row := strings.Count(s[:off], "\n")
	col := off - (strings.LastIndexByte(s[:off], '\n') + 1)
	return sitter.Point{Row: uint(row), Column: uint(col)}
}
