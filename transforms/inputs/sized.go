package inputs

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"

	"transmute/transforms/values"
)

// This file serves inputs of a chosen size (transforms/growth, complexity
// growth): the same type-aware drawing and the same relations between parameters
// as Generate, with the size parameters set instead of mutated.

// Test returns a copy of the decoded arguments of the model's test i (JSON
// numbers as json.Number), in the order of the problem's tests.
func (m *Model) Test(i int) []any {
	out := make([]any, len(m.tests[i]))
	for k, a := range m.tests[i] {
		out[k] = clone(a)
	}
	return out
}

// Tests is the number of tests the model was built from.
func (m *Model) Tests() int { return len(m.tests) }

// Tied reports whether integer parameter i is, in every test, an array or string
// parameter's length, an index into it or a count of its elements (Generate keeps
// it so), and to which parameter.
func (m *Model) Tied(i int) (array int, ok bool) {
	for _, rel := range m.relations {
		if rel.param == i {
			return rel.array, true
		}
	}
	for _, t := range m.innerTies() {
		if t[0] == i {
			return t[1], true
		}
	}
	return 0, false
}

// Sorted reports whether every test's array (or string) parameter i is sorted.
func (m *Model) Sorted(i int) bool { return m.params[i].sorted }

// Sized returns the arguments of the model's test base with the parameters of size
// set: an array or string parameter to that length (a fresh value whose elements
// are drawn as Generate draws them: within the ranges the tests show, from their
// alphabet, sorted or square where every test is; a 2-D array that is not square
// keeps inner lengths within the observed range), an integer parameter to that
// value (clamped to its type). Then the relations every test shows are restored as
// Generate restores them: sizes equal to their array's length, indices within it,
// equal lengths, and an integer equal to a matrix's row length set to it. The
// result is canonical JSON for the parameter types; r alone decides the drawn
// elements, so a seeded r gives the same input.
func (m *Model) Sized(r *rand.Rand, base int, size map[int]int64) (string, error) {
	if base < 0 || base >= len(m.tests) {
		return "", fmt.Errorf("inputs: no test %d", base)
	}
	args := m.Test(base)
	// In parameter order, so that the draws from r do not depend on map order.
	for i := range m.params {
		n, ok := size[i]
		if !ok {
			continue
		}
		s := &m.params[i]
		switch {
		case s.t.Dims == 0 && s.t.IsInteger():
			args[i] = s.clampInt(float64(n))
		case s.t.Dims == 0 && s.t.Base == values.String:
			seq := make([]any, n)
			for k := range seq {
				seq[k] = s.char(r)
			}
			if s.sorted {
				slices.SortStableFunc(seq, compare)
			}
			args[i] = fromSeq(seq, true)
		case s.t.Dims == 2 && s.square:
			rows := make([]any, n)
			for k := range rows {
				rows[k] = s.randomArray(r, 1, int(n))
			}
			args[i] = rows
		case s.t.Dims >= 1:
			arr := s.randomArray(r, s.t.Dims, int(n))
			if s.sorted {
				slices.SortStableFunc(arr, compare)
			}
			args[i] = arr
		default:
			return "", fmt.Errorf("inputs: parameter %d (%s) has no size", i, s.t)
		}
	}
	m.fix(r, args)
	for _, t := range m.innerTies() {
		if rows, ok := args[t[1]].([]any); ok && len(rows) > 0 {
			args[t[0]] = jsonInt(int64(values.Length(rows[0])))
		}
	}
	raw, err := encode(args)
	if err != nil {
		return "", err
	}
	return values.CanonicalArgs(m.Types, raw)
}

// innerTies are the pairs (integer parameter, 2-D array parameter) where every
// test's integer equals the length of the array's first row (a matrix's column
// count passed beside it), for integers not tied otherwise.
func (m *Model) innerTies() [][2]int {
	var out [][2]int
	for i, pi := range m.params {
		if pi.t.Dims != 0 || !pi.t.IsInteger() || m.hasRelation(i) {
			continue
		}
		for j, pj := range m.params {
			if pj.t.Dims != 2 || pj.square {
				continue
			}
			all := true
			for _, args := range m.tests {
				rows, _ := args[j].([]any)
				n, ok := args[i].(json.Number)
				if !ok || len(rows) == 0 || n.String() != fmt.Sprint(values.Length(rows[0])) {
					all = false
					break
				}
			}
			if all {
				out = append(out, [2]int{i, j})
				break
			}
		}
	}
	return out
}

func (m *Model) hasRelation(i int) bool {
	for _, rel := range m.relations {
		if rel.param == i {
			return true
		}
	}
	return false
}
