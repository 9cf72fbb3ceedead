package values

import (
	"encoding/json"
	"math"
	"math/big"
)

// Tolerance for comparing floating-point values. The default follows the
// TransCoder-test scripts, which accept a relative difference below 1e-3
// (|1 - (1e-7+|a|)/(1e-7+|b|)| < 1e-3); unlike them we also require equal signs.
type Tolerance struct {
	Rel float64
	Abs float64
}

// DefaultTolerance is the benchmarks' convention.
var DefaultTolerance = Tolerance{Rel: 1e-3, Abs: 1e-7}

// Equal compares two canonical values of type t: exactly for integers, booleans,
// chars and strings, within tol for floats, element-wise for arrays.
func Equal(t Type, a, b string, tol Tolerance) bool {
	if a == b {
		return true
	}
	va, err1 := decode([]byte(a))
	vb, err2 := decode([]byte(b))
	if err1 != nil || err2 != nil {
		return false
	}
	return equal(t, va, vb, tol)
}

func equal(t Type, a, b any, tol Tolerance) bool {
	if t.Dims > 0 || t.Base == Void {
		aa, ok1 := a.([]any)
		bb, ok2 := b.([]any)
		if !ok1 || !ok2 {
			return a == nil && b == nil
		}
		if len(aa) != len(bb) {
			return false
		}
		et := t.Elem()
		if t.Base == Void {
			et = Type{Base: Double, Dims: 0} // compared loosely below
		}
		for i := range aa {
			if t.Base == Void {
				if !looseEqual(aa[i], bb[i], tol) {
					return false
				}
				continue
			}
			if !equal(et, aa[i], bb[i], tol) {
				return false
			}
		}
		return true
	}
	switch t.Base {
	case Float, Double:
		fa, err1 := toFloat(a)
		fb, err2 := toFloat(b)
		if err1 != nil || err2 != nil {
			return false
		}
		return FloatsClose(fa, fb, tol)
	case Int, Long:
		fa, nfa := nonFinite(a)
		fb, nfb := nonFinite(b)
		if nfa || nfb {
			// the same non-finite value agrees (NaN with NaN), as a script comparing
			// the two floats' printed forms would see
			return nfa && nfb && FloatsClose(fa, fb, tol)
		}
		ia, err1 := toInt(a)
		ib, err2 := toInt(b)
		return err1 == nil && err2 == nil && ia.Cmp(ib) == 0
	default:
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		return string(ja) == string(jb)
	}
}

// looseEqual compares values of unknown type (the arguments reported for void
// functions): numbers numerically with the tolerance, arrays element-wise.
func looseEqual(a, b any, tol Tolerance) bool {
	return Zip(a, b, false, func(a, b any) bool {
		x, ok := a.(json.Number)
		if !ok {
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			return string(ja) == string(jb)
		}
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		if ia, ib, ok := BigInts(x, y); ok {
			return ia.Cmp(ib) == 0
		}
		fa, _ := x.Float64()
		fb, _ := y.Float64()
		return FloatsClose(fa, fb, tol)
	})
}

// Zip walks two decoded JSON values in step, arrays element by element, and calls
// leaf on every pair whose first value is not an array; a pair of arrays of other
// lengths, or an array against a non-array, counts as a leaf that returned false.
// It returns stop as soon as a leaf returns stop, and !stop when none did: stop
// false asks whether every pair holds, stop true whether any does.
func Zip(a, b any, stop bool, leaf func(a, b any) bool) bool {
	x, ok := a.([]any)
	if !ok {
		return leaf(a, b)
	}
	y, ok := b.([]any)
	if !ok || len(x) != len(y) {
		return false
	}
	for i := range x {
		if Zip(x[i], y[i], stop, leaf) == stop {
			return stop
		}
	}
	return !stop
}

// BigInts parses two JSON numbers as integers; ok is false unless both are.
func BigInts(x, y json.Number) (ia, ib *big.Int, ok bool) {
	ia, ok1 := new(big.Int).SetString(string(x), 10)
	ib, ok2 := new(big.Int).SetString(string(y), 10)
	return ia, ib, ok1 && ok2
}

// FloatsClose compares two floats within tol; NaN equals NaN and infinities equal
// themselves, as a harness that prints both would show.
func FloatsClose(a, b float64, tol Tolerance) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	if a == b {
		return true
	}
	if (a < 0) != (b < 0) && math.Abs(a-b) > tol.Abs {
		return false
	}
	return math.Abs(a-b) <= tol.Abs+tol.Rel*math.Max(math.Abs(a), math.Abs(b))
}
