package growth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"transmute/schemas"
	"transmute/transforms/inputs"
	"transmute/transforms/stats"
	"transmute/transforms/values"
)

// Kinds of size.
const (
	// KindLength: the lengths of the array and string parameters.
	KindLength = "length"
	// KindValue: the values of the integer parameters that drive the cost.
	KindValue = "value"
)

// MaxLength bounds the length of a generated array or string.
const MaxLength = 1 << 20

// Plan is how a problem's inputs grow: which parameters are the size, in what
// proportion, from what base, and the typed model (transforms/inputs) that
// draws the inputs.
type Plan struct {
	Kind string
	// Params are the scaled parameters; Ratio[k] is Params[k]'s size relative to
	// Params[0]'s, from their medians in the stress suite, so that two arrays of
	// different typical lengths (or two driving integers) keep their proportion.
	Params []int
	Ratio  []float64
	// Base is Params[0]'s median size in the stress suite.
	Base  int64
	model *inputs.Model
	// stress is the number of stress tests: the model's first tests, on which
	// generated inputs are built.
	stress int
	types  []values.Type
	id     string
}

// Detect finds the size of a problem's inputs from its parameter types, its
// stress suite and its default tests (p.Tests):
//
//   - the array and string parameters whose length varies across the tests, or
//     is at least 8 in the stress suite, are the size (KindLength), all scaled
//     together; integers that every test shows to be their lengths, indices or
//     counts follow them (transforms/inputs keeps those relations);
//   - otherwise the integer parameters not tied to an array whose median
//     magnitude in the stress suite is at least twice that of the default tests
//     (the stress suite's authors made them large to make the function work), or
//     failing that at least 8, are the size (KindValue), scaled together.
//
// A problem with none of them has no size (an error).
func Detect(p schemas.Problem, stress []schemas.Test) (*Plan, error) {
	if len(stress) == 0 {
		return nil, fmt.Errorf("no stress tests")
	}
	all := p
	all.Tests = append(append([]schemas.Test{}, stress...), p.Tests...)
	m, err := inputs.NewModel(all)
	if err != nil {
		return nil, err
	}
	pl := &Plan{model: m, stress: len(stress), types: m.Types, id: p.ID}
	ns, nd := len(stress), m.Tests()-len(stress)
	measure := func(i int, f func(v any) float64) (st, def []float64) {
		for k := 0; k < ns+nd; k++ {
			x := f(m.Test(k)[i])
			if k < ns {
				st = append(st, x)
			} else {
				def = append(def, x)
			}
		}
		return st, def
	}
	var medians []float64
	for i, t := range m.Types {
		if t.Dims == 0 && t.Base != values.String {
			continue
		}
		st, def := measure(i, func(v any) float64 { return float64(max(values.Length(v), 0)) })
		lo, hi := minMax(append(append([]float64{}, st...), def...))
		if med := stats.Median(st); hi > lo || med >= 8 {
			pl.Params = append(pl.Params, i)
			medians = append(medians, math.Max(med, 1))
		}
	}
	if len(pl.Params) > 0 {
		pl.Kind = KindLength
	} else {
		var loose []int
		var looseMed []float64
		for i, t := range m.Types {
			if t.Dims != 0 || !t.IsInteger() {
				continue
			}
			if _, tied := m.Tied(i); tied {
				continue
			}
			st, def := measure(i, func(v any) float64 { n, _ := values.Number(v); return math.Abs(n) })
			ms, md := stats.Median(st), 0.0
			if len(def) > 0 {
				md = stats.Median(def)
			}
			if ms >= 2*math.Max(md, 1) {
				pl.Params = append(pl.Params, i)
				medians = append(medians, ms)
			} else if ms >= 8 {
				loose = append(loose, i)
				looseMed = append(looseMed, ms)
			}
		}
		if len(pl.Params) == 0 {
			pl.Params, medians = loose, looseMed
		}
		if len(pl.Params) == 0 {
			return nil, fmt.Errorf("no size parameter: no array or string, and no integer large in the stress suite")
		}
		pl.Kind = KindValue
	}
	pl.Base = int64(math.Round(medians[0]))
	for _, med := range medians {
		pl.Ratio = append(pl.Ratio, med/medians[0])
	}
	return pl, nil
}

func minMax(xs []float64) (float64, float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	lo, hi := xs[0], xs[0]
	for _, x := range xs {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return lo, hi
}

// ParamList is the scaled parameters as GrowthRow.SizeParams spells them.
func (pl *Plan) ParamList() string {
	s := make([]string, len(pl.Params))
	for k, i := range pl.Params {
		s[k] = strconv.Itoa(i)
	}
	return strings.Join(s, ",")
}

// values returns each scaled parameter's size (length or value) for size n, and
// whether n is within the types' range (lengths from 1 to MaxLength; integers
// within their type).
func (pl *Plan) values(n int64) (map[int]int64, bool) {
	out := map[int]int64{}
	for k, i := range pl.Params {
		v := int64(math.Round(float64(n) * pl.Ratio[k]))
		if pl.Kind == KindLength {
			if v < 1 || v > MaxLength {
				return nil, false
			}
		} else {
			hi := int64(math.MaxInt64)
			if pl.types[i].Base == values.Int {
				hi = math.MaxInt32
			}
			if v < 0 || float64(n)*pl.Ratio[k] > float64(hi) {
				return nil, false
			}
		}
		out[i] = v
	}
	return out, true
}

// Inputs returns count inputs of size n, deterministic for (seed, problem id,
// n): input k is built on stress test (a seeded draw) with the size parameters
// set to n (in their ratios) and its elements drawn by the typed model.
func (pl *Plan) Inputs(seed int64, n int64, count int) ([]schemas.Test, error) {
	sizes, ok := pl.values(n)
	if !ok {
		return nil, fmt.Errorf("size %d is out of the parameters' range", n)
	}
	var out []schemas.Test
	for k := 0; k < count; k++ {
		r := rand.New(rand.NewPCG(uint64(seed), mix(pl.id, n, k)))
		args, err := pl.model.Sized(r, r.IntN(pl.stress), sizes)
		if err != nil {
			return nil, err
		}
		out = append(out, schemas.Test{Index: int32(k), Args: args})
	}
	return out, nil
}

// mix hashes a problem id, a size and an input number into a seed stream (FNV-1a).
func mix(id string, n int64, k int) uint64 {
	h := uint64(14695981039346656037)
	for _, b := range []byte(fmt.Sprintf("%s\x00%d\x00%d", id, n, k)) {
		h ^= uint64(b)
		h *= 1099511628211
	}
	return h
}
