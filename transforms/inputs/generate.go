// Package inputs generates new test inputs for a problem from its typed parameters
// and its existing tests (as EvalPlus does for code generation), keeps those on
// which every gold function returns and the golds agree (Validate), and picks a
// small subset that kills the same mutants of the golds as the whole (Reduce).
//
// The generator mutates existing inputs by type (integers at and beyond the
// boundaries the tests show, zero, one, negatives where the tests have them; arrays
// and strings grown, shrunk, sorted, reversed, with duplicates, built from the
// tests' alphabet) and samples fresh ones within the observed ranges. An integer
// argument that the tests show to be an array's length (or an index into it) is
// kept so, and arrays the tests always give equal lengths keep them equal.
package inputs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"

	"transmute/schemas"
	"transmute/transforms/values"
)

// Options bound the generator.
type Options struct {
	// Seed makes the inputs reproducible: the same problem, tests and seed give
	// the same inputs.
	Seed int64
	// Count is how many distinct new inputs to try to generate.
	Count int
	// RandomShare is the fraction of the inputs sampled afresh within the observed
	// ranges; the rest mutate an existing test. 0 means 0.25.
	RandomShare float64
}

// Origins of a generated input (the prefix before ":" in Candidate.Origin).
const (
	OriginOriginal = "original"
	OriginMutation = "mutation"
	OriginRandom   = "random"
)

// Candidate is one generated input: its canonical JSON arguments and how it was made
// ("mutation:grow(0)", "random").
type Candidate struct {
	Args   string
	Origin string
}

// numRange is the range of the integers (or floats) seen in one place.
type numRange struct {
	seen     bool
	lo, hi   float64
	negative bool
}

func (r *numRange) add(x float64) {
	if !r.seen {
		r.lo, r.hi, r.seen = x, x, true
	}
	r.lo, r.hi = math.Min(r.lo, x), math.Max(r.hi, x)
	if x < 0 {
		r.negative = true
	}
}

// paramStats is what the tests show of one parameter.
type paramStats struct {
	t        values.Type
	scalars  numRange // the parameter itself, or the elements of an array of numbers
	lens     numRange // array or string lengths (outer dimension)
	inner    numRange // lengths of the inner arrays of a 2-D or 3-D array
	alphabet []string // the characters seen (char, string, char[] and string[] elements)
	strLens  numRange // lengths of the strings inside a string[]
	sorted   bool     // every test's 1-D array (or string) is sorted ascending
	square   bool     // every test's 2-D array has as many rows as columns
	ragged   bool     // some test's 2-D array has rows of different lengths
}

// relation ties an integer parameter to an array or string parameter, as every
// existing test shows it.
type relation struct {
	param, array int
	// kind: "len" (param == len(array) + offset), "index" (0 <= param < len(array)),
	// "count" (0 <= param <= len(array)).
	kind   string
	offset int
}

// Model is what a problem's tests show of its inputs.
type Model struct {
	Types     []values.Type
	params    []paramStats
	relations []relation
	sameLen   [][2]int // array parameters the tests always give equal lengths
	tests     [][]any
}

// NewModel reads the problem's parameter types and tests.
func NewModel(p schemas.Problem) (*Model, error) {
	m := &Model{}
	for _, prm := range p.Params {
		t, err := values.ParseType(prm.Type)
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %v", prm.Name, err)
		}
		m.Types = append(m.Types, t)
		m.params = append(m.params, paramStats{t: t, sorted: t.Dims == 1 || t.Base == values.String && t.Dims == 0, square: t.Dims == 2})
	}
	for _, test := range p.Tests {
		args, err := decodeArgs(test.Args)
		if err != nil || len(args) != len(m.Types) {
			return nil, fmt.Errorf("test %d: arguments do not match the parameters", test.Index)
		}
		m.tests = append(m.tests, args)
	}
	if len(m.tests) == 0 {
		return nil, fmt.Errorf("no tests to generate from")
	}
	alpha := make([]map[string]bool, len(m.Types))
	for _, args := range m.tests {
		for i, a := range args {
			m.params[i].observe(a, &alpha[i])
		}
	}
	for i := range m.params {
		for c := range alpha[i] {
			m.params[i].alphabet = append(m.params[i].alphabet, c)
		}
		sort.Strings(m.params[i].alphabet)
	}
	m.findRelations()
	return m, nil
}

func decodeArgs(raw string) ([]any, error) {
	d := json.NewDecoder(strings.NewReader(raw))
	d.UseNumber()
	var v []any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func (s *paramStats) observe(v any, alpha *map[string]bool) {
	addChars := func(str string) {
		if *alpha == nil {
			*alpha = map[string]bool{}
		}
		for _, r := range str {
			(*alpha)[string(r)] = true
		}
	}
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		switch x := v.(type) {
		case []any:
			if depth == 0 {
				s.lens.add(float64(len(x)))
			} else {
				s.inner.add(float64(len(x)))
			}
			for _, e := range x {
				walk(e, depth+1)
			}
		case json.Number:
			if f, ok := values.Number(x); ok {
				s.scalars.add(f)
			}
		case string:
			addChars(x)
			if s.t.Base == values.String && depth > 0 {
				s.strLens.add(float64(len([]rune(x))))
			} else if s.t.Base == values.String && depth == 0 {
				s.lens.add(float64(len([]rune(x))))
			}
		}
	}
	walk(v, 0)
	if s.sorted {
		s.sorted = isSorted(v)
	}
	if s.t.Dims == 2 {
		rows, _ := v.([]any)
		for _, r := range rows {
			if values.Length(r) != len(rows) {
				s.square = false
			}
			if values.Length(r) != values.Length(rows[0]) {
				s.ragged = true
			}
		}
	}
}

func isSorted(v any) bool {
	switch x := v.(type) {
	case string:
		return slices.IsSorted([]rune(x))
	case []any:
		for i := 1; i < len(x); i++ {
			if compare(x[i-1], x[i]) > 0 {
				return false
			}
		}
		return true
	}
	return false
}

// compare orders two scalars (numbers, strings, booleans).
func compare(a, b any) int {
	fa, oka := values.Number(a)
	fb, okb := values.Number(b)
	if oka && okb {
		switch {
		case fa < fb:
			return -1
		case fa > fb:
			return 1
		}
		return 0
	}
	sa, _ := a.(string)
	sb, _ := b.(string)
	if ba, ok := a.(bool); ok {
		bb, _ := b.(bool)
		switch {
		case ba == bb:
			return 0
		case !ba:
			return -1
		}
		return 1
	}
	return strings.Compare(sa, sb)
}

// findRelations finds the integer parameters that every test shows to be an
// array's length (up to a constant offset), an index into it, or a count of its
// elements, and the arrays that always have equal lengths.
func (m *Model) findRelations() {
	for i, pi := range m.params {
		if pi.t.Dims != 0 || !pi.t.IsInteger() {
			continue
		}
		for j, pj := range m.params {
			if pj.t.Dims == 0 && pj.t.Base != values.String {
				continue
			}
			off, sameOff, index, count := 0, true, true, true
			for k, args := range m.tests {
				n, _ := values.Number(args[i])
				l := values.Length(args[j])
				if l < 0 {
					sameOff, index, count = false, false, false
					break
				}
				d := int(n) - l
				if k == 0 {
					off = d
				} else if d != off {
					sameOff = false
				}
				index = index && n >= 0 && int(n) < l
				count = count && n >= 0 && int(n) <= l
			}
			switch {
			case sameOff && off >= -1 && off <= 1:
				m.relations = append(m.relations, relation{param: i, array: j, kind: "len", offset: off})
			case index:
				m.relations = append(m.relations, relation{param: i, array: j, kind: "index"})
			case count:
				m.relations = append(m.relations, relation{param: i, array: j, kind: "count"})
			default:
				continue
			}
			break // one array per integer: the first that fits
		}
	}
	for i, pi := range m.params {
		for j := i + 1; j < len(m.params); j++ {
			if pi.t.Dims == 0 && pi.t.Base != values.String || m.params[j].t.Dims == 0 && m.params[j].t.Base != values.String {
				continue
			}
			same := true
			for _, args := range m.tests {
				if values.Length(args[i]) != values.Length(args[j]) {
					same = false
				}
			}
			if same {
				m.sameLen = append(m.sameLen, [2]int{i, j})
			}
		}
	}
}

// problemSeed mixes the seed with the problem id, so that problems draw different
// inputs under one seed.
func problemSeed(seed int64, id string) (uint64, uint64) {
	h := fnv.New64a()
	h.Write([]byte(id))
	return uint64(seed), h.Sum64()
}

// Generate returns up to o.Count distinct new inputs for p (none equal to an
// existing test), each canonical for the parameter types. The same problem, tests
// and options give the same inputs in the same order.
func Generate(p schemas.Problem, o Options) ([]Candidate, error) {
	m, err := NewModel(p)
	if err != nil {
		return nil, err
	}
	share := o.RandomShare
	if share <= 0 {
		share = 0.25
	}
	r := rand.New(rand.NewPCG(problemSeed(o.Seed, p.ID)))
	seen := map[string]bool{}
	for _, t := range p.Tests {
		if c, err := values.CanonicalArgs(m.Types, t.Args); err == nil {
			seen[c] = true
		}
	}
	var out []Candidate
	// A problem whose inputs admit few distinct values (one bool) stops early.
	for tries := 0; len(out) < o.Count && tries < 20*o.Count+100; tries++ {
		var args []any
		var origin string
		if len(m.params) == 0 {
			break
		}
		if r.Float64() < share {
			args, origin = m.random(r), OriginRandom
		} else {
			args, origin = m.mutate(r)
		}
		m.fix(r, args)
		raw, err := encode(args)
		if err != nil {
			continue
		}
		c, err := values.CanonicalArgs(m.Types, raw)
		if err != nil || seen[c] {
			continue
		}
		seen[c] = true
		out = append(out, Candidate{Args: c, Origin: origin})
	}
	return out, nil
}

func encode(args []any) (string, error) {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(args); err != nil {
		return "", err
	}
	return strings.TrimSpace(b.String()), nil
}

// clone copies a decoded JSON value deeply.
func clone(v any) any {
	if x, ok := v.([]any); ok {
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = clone(e)
		}
		return out
	}
	return v
}

// mutate copies a random test and changes one or two of its arguments.
func (m *Model) mutate(r *rand.Rand) ([]any, string) {
	base := m.tests[r.IntN(len(m.tests))]
	args := make([]any, len(base))
	for i, a := range base {
		args[i] = clone(a)
	}
	var ops []string
	n := 1 + r.IntN(2)
	for k := 0; k < n; k++ {
		i := r.IntN(len(args))
		var op string
		args[i], op = m.mutateValue(r, i, args[i])
		ops = append(ops, fmt.Sprintf("%s(%d)", op, i))
	}
	return args, OriginMutation + ":" + strings.Join(ops, ",")
}

// maxLen is the longest array or string the generator makes for parameter i: a
// little beyond the longest the tests have, so that a function whose cost grows
// fast with the size still returns within the limits.
func (s *paramStats) maxLen() int {
	hi := int(s.lens.hi)
	return hi + max(2, hi/2)
}

func (m *Model) mutateValue(r *rand.Rand, i int, v any) (any, string) {
	s := &m.params[i]
	switch {
	case s.t.Dims == 0 && s.t.IsInteger():
		return s.mutateInt(r, v)
	case s.t.Dims == 0 && s.t.IsFloat():
		f, _ := values.Number(v)
		switch r.IntN(4) {
		case 0:
			return jsonFloat(f * (0.5 + r.Float64())), "scale"
		case 1:
			return jsonFloat(-f), "negate"
		case 2:
			return jsonFloat(0), "zero"
		}
		return s.randomScalar(r), "sample"
	case s.t.Dims == 0 && s.t.Base == values.Bool:
		b, _ := v.(bool)
		return !b, "flip"
	case s.t.Dims == 0 && s.t.Base == values.Char:
		return s.randomScalar(r), "sample"
	}
	// arrays and strings
	seq, isStr := toSeq(v)
	op := ""
	switch r.IntN(8) {
	case 0: // grow
		op = "grow"
		for k := 1 + r.IntN(3); k > 0 && len(seq) < s.maxLen(); k-- {
			seq = slices.Insert(seq, r.IntN(len(seq)+1), m.element(r, i))
		}
	case 1: // shrink
		op = "shrink"
		for k := 1 + r.IntN(3); k > 0 && len(seq) > max(1, int(s.lens.lo)-1); k-- {
			k := r.IntN(len(seq))
			seq = slices.Delete(seq, k, k+1)
		}
	case 2:
		op = "sort"
		slices.SortStableFunc(seq, compare)
	case 3:
		op = "reverse"
		slices.Reverse(seq)
	case 4: // duplicate an element over another
		op = "duplicate"
		if len(seq) > 1 {
			seq[r.IntN(len(seq))] = clone(seq[r.IntN(len(seq))])
		}
	case 5: // a boundary element
		op = "boundary"
		if len(seq) > 0 && s.t.Dims == 1 && s.t.IsInteger() {
			seq[r.IntN(len(seq))] = s.boundaryInt(r)
		} else if len(seq) > 0 {
			seq[r.IntN(len(seq))] = m.element(r, i)
		}
	case 6: // shuffle
		op = "shuffle"
		r.Shuffle(len(seq), func(a, b int) { seq[a], seq[b] = seq[b], seq[a] })
	default: // change one element
		op = "element"
		if len(seq) > 0 {
			k := r.IntN(len(seq))
			if s.t.Dims == 1 && s.t.IsInteger() {
				seq[k], _ = s.mutateInt(r, seq[k])
			} else {
				seq[k] = m.element(r, i)
			}
		}
	}
	if s.sorted {
		slices.SortStableFunc(seq, compare)
	}
	return fromSeq(seq, isStr), op
}

func toSeq(v any) ([]any, bool) {
	if s, ok := v.(string); ok {
		var out []any
		for _, c := range s {
			out = append(out, string(c))
		}
		return out, true
	}
	x, _ := v.([]any)
	return x, false
}

func fromSeq(seq []any, isStr bool) any {
	if !isStr {
		if seq == nil {
			return []any{}
		}
		return seq
	}
	var b strings.Builder
	for _, c := range seq {
		s, _ := c.(string)
		b.WriteString(s)
	}
	return b.String()
}

func jsonInt(n int64) json.Number     { return json.Number(strconv.FormatInt(n, 10)) }
func jsonFloat(f float64) json.Number { return json.Number(strconv.FormatFloat(f, 'g', -1, 64)) }

// intBounds are the limits of the integer type.
func (s *paramStats) intBounds() (int64, int64) {
	if s.t.Base == values.Int {
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

func (s *paramStats) clampInt(n float64) json.Number {
	lo, hi := s.intBounds()
	if n <= float64(lo) {
		return jsonInt(lo)
	}
	if n >= float64(hi) {
		return jsonInt(hi)
	}
	return jsonInt(int64(n))
}

// boundaryInt is an integer at or just beyond the range the tests show: their
// extremes, one past them, zero, one, and minus one where the tests have negatives.
func (s *paramStats) boundaryInt(r *rand.Rand) json.Number {
	c := []float64{s.scalars.lo, s.scalars.hi, s.scalars.hi + 1, 0, 1}
	if s.scalars.lo > 0 {
		c = append(c, s.scalars.lo-1)
	}
	if s.scalars.negative {
		c = append(c, -1, s.scalars.lo-1)
	}
	return s.clampInt(c[r.IntN(len(c))])
}

func (s *paramStats) mutateInt(r *rand.Rand, v any) (any, string) {
	f, _ := values.Number(v)
	switch r.IntN(5) {
	case 0:
		return s.clampInt(f + 1), "inc"
	case 1:
		if f-1 < 0 && !s.scalars.negative && f >= 0 {
			return s.clampInt(f + 2), "inc"
		}
		return s.clampInt(f - 1), "dec"
	case 2:
		return s.boundaryInt(r), "boundary"
	case 3:
		if !s.scalars.negative {
			return s.clampInt(math.Floor(f / 2)), "half"
		}
		return s.clampInt(-f), "negate"
	}
	return s.randomScalar(r), "sample"
}

// randomScalar draws a scalar of the parameter's base kind within the observed
// range (for an array, of its elements).
func (s *paramStats) randomScalar(r *rand.Rand) any {
	switch s.t.Base {
	case values.Int, values.Long:
		lo, hi := s.scalars.lo, s.scalars.hi
		if !s.scalars.seen {
			lo, hi = 0, 10
		}
		if s.t.Dims == 0 {
			// A lone integer has few values within the tests' range (1..99 in most
			// of TransCoder-test): sample up to twice beyond it, and down to zero.
			lo, hi = math.Min(lo, 0), 2*hi+10
			if s.scalars.negative {
				lo = 2*s.scalars.lo - 10
			}
			if r.IntN(20) == 0 {
				// now and then a large one, where fixed-width integers overflow
				return s.clampInt(math.Max(hi, 1) * math.Pow(10, float64(1+r.IntN(6))))
			}
		}
		if hi-lo > 1000 && lo >= 0 && r.IntN(2) == 0 {
			// a wide range: draw the magnitude too, so small values come up
			e := r.Float64() * math.Log10(hi+1)
			return s.clampInt(math.Floor(math.Pow(10, e)))
		}
		return s.clampInt(lo + math.Floor(r.Float64()*(hi-lo+1)))
	case values.Float, values.Double:
		lo, hi := s.scalars.lo, s.scalars.hi
		if !s.scalars.seen {
			lo, hi = 0, 10
		}
		f := lo + r.Float64()*(hi-lo)
		if s.t.Base == values.Float {
			f = float64(float32(f))
		}
		return jsonFloat(f)
	case values.Bool:
		return r.IntN(2) == 0
	case values.Char:
		return s.char(r)
	case values.String:
		lo, hi := s.lens.lo, s.lens.hi
		if s.t.Dims > 0 {
			lo, hi = s.strLens.lo, s.strLens.hi
		}
		n := int(lo) + r.IntN(int(hi-lo)+1)
		var b strings.Builder
		for k := 0; k < n; k++ {
			b.WriteString(s.char(r))
		}
		return b.String()
	}
	return nil
}

func (s *paramStats) char(r *rand.Rand) string {
	if len(s.alphabet) == 0 {
		return string(rune('a' + r.IntN(26)))
	}
	return s.alphabet[r.IntN(len(s.alphabet))]
}

// element draws one element of array (or string) parameter i: a character of the
// alphabet, a scalar in the elements' range, or, for a 2-D array, a row.
func (m *Model) element(r *rand.Rand, i int) any {
	s := &m.params[i]
	if s.t.Dims == 0 { // a string: one character
		return s.char(r)
	}
	if s.t.Dims == 1 {
		return s.randomScalar(r)
	}
	return s.randomArray(r, s.t.Dims-1, int(s.inner.lo)+r.IntN(int(s.inner.hi-s.inner.lo)+1))
}

// randomArray draws an array of dims dimensions whose outer length is n; inner
// arrays take lengths in the observed inner range.
func (s *paramStats) randomArray(r *rand.Rand, dims, n int) []any {
	out := make([]any, n)
	inner := -1
	for k := range out {
		if dims == 1 {
			out[k] = s.randomScalar(r)
			continue
		}
		if inner < 0 || s.ragged {
			inner = int(s.inner.lo) + r.IntN(int(s.inner.hi-s.inner.lo)+1)
		}
		out[k] = s.randomArray(r, dims-1, inner)
	}
	return out
}

// random samples every argument afresh within the observed ranges.
func (m *Model) random(r *rand.Rand) []any {
	args := make([]any, len(m.params))
	for i := range m.params {
		s := &m.params[i]
		switch {
		case s.t.Dims == 0:
			args[i] = s.randomScalar(r)
		default:
			n := int(s.lens.lo) + r.IntN(int(s.lens.hi-s.lens.lo)+1)
			if s.t.Dims == 2 && s.square {
				rows := make([]any, n)
				for k := range rows {
					rows[k] = s.randomArray(r, 1, n)
				}
				args[i] = rows
			} else {
				arr := s.randomArray(r, s.t.Dims, n)
				if s.sorted {
					slices.SortStableFunc(arr, compare)
				}
				args[i] = arr
			}
		}
	}
	return args
}

// fix restores what every existing test shows: arrays of equal length, square
// matrices, sizes equal to their array's length, indices within their array.
func (m *Model) fix(r *rand.Rand, args []any) {
	for _, pr := range m.sameLen {
		a, b := pr[0], pr[1]
		la, lb := values.Length(args[a]), values.Length(args[b])
		if la == lb || la < 0 || lb < 0 {
			continue
		}
		seq, isStr := toSeq(args[b])
		for len(seq) < la {
			seq = append(seq, m.element(r, b))
		}
		seq = seq[:la]
		if m.params[b].sorted {
			slices.SortStableFunc(seq, compare)
		}
		args[b] = fromSeq(seq, isStr)
	}
	for i, s := range m.params {
		if s.t.Dims == 2 && s.square {
			rows, _ := args[i].([]any)
			for k, row := range rows {
				seq, _ := toSeq(row)
				for len(seq) < len(rows) {
					seq = append(seq, s.randomScalar(r))
				}
				rows[k] = seq[:len(rows)]
			}
		}
	}
	for _, rel := range m.relations {
		l := values.Length(args[rel.array])
		n, _ := values.Number(args[rel.param])
		switch rel.kind {
		case "len":
			args[rel.param] = jsonInt(int64(l + rel.offset))
		case "index":
			if l == 0 {
				args[rel.param] = jsonInt(0)
			} else if int(n) < 0 || int(n) >= l {
				args[rel.param] = jsonInt(int64(r.IntN(l)))
			}
		case "count":
			if int(n) < 0 || int(n) > l {
				args[rel.param] = jsonInt(int64(r.IntN(l + 1)))
			}
		}
	}
}
