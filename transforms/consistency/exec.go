package consistency

import (
	"transmute/schemas"
	"transmute/transforms/values"
)

// Outcome is how one program ended on one test: a status and, when ok, the
// canonical output value.
type Outcome struct {
	Status schemas.Status
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
// do, test by test: the two translations behave alike exactly where the two
// sources do, and the original's translation gives its source's outcome exactly
// where the variant's translation gives its own source's. For a rename (the
// sources agree) that is "the translations agree"; for a literal change it also
// catches a translation right on one input and wrong on the other, which the
// first relation alone misses when both pairs differ. It returns the first test
// where the relation breaks, or -1. Tests missing from a side count as
// "missing".
func ExecConsistent(ret values.Type, tol values.Tolerance, srcO, srcV, trO, trV []Outcome) (bool, int) {
	n := max(len(srcO), len(srcV), len(trO), len(trV))
	for i := 0; i < n; i++ {
		so, sv, to, tv := at(srcO, i), at(srcV, i), at(trO, i), at(trV, i)
		if same(ret, tol, so, sv) != same(ret, tol, to, tv) || same(ret, tol, so, to) != same(ret, tol, sv, tv) {
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
