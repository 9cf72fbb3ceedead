package consistency

import (
	"transmute/schemas"
	"transmute/transforms/values"
)

// Outcome is how one program ended on one test: a status and, when ok, the
// canonical output value.
type Outcome struct {
	Status string
	Output string
}

// same tells whether two outcomes are the same behaviour: both ok with equal
// values, or both stopped with the same status (an exception's message may
// differ between two programs that fail the same way).
func same(ret values.Type, tol values.Tolerance, a, b Outcome) bool {
	if a.Status != b.Status {
		return false
	}
	if a.Status != schemas.StatusOK {
		return true
	}
	return values.Equal(ret, a.Output, b.Output, tol)
}

// ExecConsistent tells whether the translations' outcomes relate as the sources'
// do: on every test, the two translations behave the same exactly when the two
// sources do (the variant of a rename behaves as its original, so its
// translation must too; a literal change may change outputs, and then the
// translations must differ where the sources differ). It returns the first test
// where the relation breaks, or -1. Tests missing from a side (a program that
// ended before them) count as "missing".
func ExecConsistent(ret values.Type, tol values.Tolerance, srcO, srcV, trO, trV []Outcome) (bool, int) {
	n := max(len(srcO), len(srcV), len(trO), len(trV))
	for i := 0; i < n; i++ {
		s := same(ret, tol, at(srcO, i), at(srcV, i))
		t := same(ret, tol, at(trO, i), at(trV, i))
		if s != t {
			return false, i
		}
	}
	return true, -1
}

func at(os []Outcome, i int) Outcome {
	if i < len(os) {
		return os[i]
	}
	return Outcome{Status: "missing"}
}
