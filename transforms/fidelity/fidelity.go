// Package fidelity compares the gold functions of a problem across languages, test
// by test, and classifies every disagreement by cause. The source function's outputs
// are the oracle of cross-language scores (MBTA, eq. 2), so a test on which the
// golds themselves disagree for a reason of the languages (Java and C++ integers wrap
// around where Python's grow; floating point differs in the last digits) is marked
// language-dependent, and every score is also computed without such tests.
//
// A disagreement of cause "other" is a harness bug until shown otherwise.
package fidelity

import (
	"encoding/json"
	"math"
	"math/big"
	"regexp"
	"strings"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/values"
)

// Causes.
const (
	CauseOverflow = "integer_overflow"
	CauseFloat    = "float_precision"
	CauseOther    = "other"
)

// Gold is one language's gold run of a problem.
type Gold struct {
	Lang   string
	Code   string
	Result execute.Result
}

// Compare returns one FidelityRow per test per language pair (pairs in the order of
// golds) and the causes of language dependence per test index. Golds whose program
// did not compile are left out by the caller (a corpus defect, reported as an error).
func Compare(run string, p schemas.Problem, golds []Gold, tol values.Tolerance) ([]schemas.FidelityRow, map[int32]string) {
	ret, err := values.ParseType(p.Returns)
	if err != nil {
		return nil, nil
	}
	var argTypes []values.Type
	for _, prm := range p.Params {
		t, _ := values.ParseType(prm.Type)
		argTypes = append(argTypes, t)
	}
	var rows []schemas.FidelityRow
	for i := 0; i < len(golds); i++ {
		for j := i + 1; j < len(golds); j++ {
			a, b := golds[i], golds[j]
			for ti, test := range p.Tests {
				if ti >= len(a.Result.Tests) || ti >= len(b.Result.Tests) {
					continue
				}
				ta, tb := a.Result.Tests[ti], b.Result.Tests[ti]
				row := schemas.FidelityRow{Run: run, ProblemID: p.ID, Corpus: p.Corpus, TestIndex: test.Index,
					LangA: a.Lang, LangB: b.Lang, ValueA: ta.Output, ValueB: tb.Output,
					StatusA: ta.Status, StatusB: tb.Status}
				bothRaised := ta.Status == schemas.StatusRuntimeError && tb.Status == schemas.StatusRuntimeError
				if bothRaised || (ta.Status == schemas.StatusOK && tb.Status == schemas.StatusOK && values.Equal(ret, ta.Output, tb.Output, tol)) {
					// Two golds that both raise behave alike: the test's expected outcome is
					// an exception in either language (messages differ by language).
					row.Agree = true
					if bothRaised {
						row.ValueA, row.ValueB = ta.Error, tb.Error
					}
				} else {
					if ta.Status != schemas.StatusOK {
						row.ValueA = ta.Error
					}
					if tb.Status != schemas.StatusOK {
						row.ValueB = tb.Error
					}
					row.Cause = Classify(ret, argTypes, test.Args, a, b, ta, tb)
				}
				rows = append(rows, row)
			}
		}
	}
	return rows, Propagate(rows)
}

// Propagate settles causes across the pairs of a test: a program that crashed or
// gave an unexplained value on a test where another pair shows integer overflow is
// put down to the overflow (C++ signed overflow is undefined behaviour and may
// crash or be optimized away). It returns the language-dependence cause per test.
func Propagate(rows []schemas.FidelityRow) map[int32]string {
	overflow := map[int32]bool{}
	for _, r := range rows {
		if r.Cause == CauseOverflow {
			overflow[r.TestIndex] = true
		}
	}
	dep := map[int32]string{}
	for i := range rows {
		r := &rows[i]
		if r.Cause == CauseOther && overflow[r.TestIndex] {
			r.Cause = CauseOverflow
		}
		if !r.Agree && r.Cause != CauseOther {
			if _, ok := dep[r.TestIndex]; !ok {
				dep[r.TestIndex] = r.Cause
			}
		}
	}
	return dep
}

// CauseOutOfBounds marks a test on which one language raises for an out-of-range
// index while another reads something anyway: C++ has no bounds checks (undefined
// behaviour) and Python accepts negative indices.
const CauseOutOfBounds = "out_of_bounds"

var boundsErrors = []string{"ArrayIndexOutOfBoundsException", "StringIndexOutOfBoundsException",
	"IndexOutOfBoundsException", "NegativeArraySizeException", "IndexError"}

func boundsError(t execute.TestResult) bool {
	if t.Status != schemas.StatusRuntimeError {
		return false
	}
	for _, e := range boundsErrors {
		if strings.Contains(t.Error, e) {
			return true
		}
	}
	return false
}

// CauseGoldException marks a test on which one language's gold raises an exception
// that its own code causes, where the other language's gold returns a value: the
// corpus's port of the function differs (Python 3's / used as an index, int() of a
// non-digit the Java code subtracts '0' from, a misspelt name, unboxing a missing
// map entry in Java). The harness called both golds on the same inputs; the
// exception is the gold's.
const CauseGoldException = "gold_exception"

var portErrors = []string{"NameError", "UnboundLocalError", "TypeError", "ValueError", "AttributeError",
	"KeyError", "NullPointerException", "NumberFormatException"}

func portError(t execute.TestResult) bool {
	if t.Status != schemas.StatusRuntimeError {
		return false
	}
	for _, e := range portErrors {
		if strings.HasPrefix(t.Error, e) || strings.Contains(t.Error, "."+e) {
			return true
		}
	}
	return false
}

// CausePartialRange marks a test that passes a count n smaller than an array's
// length to a problem whose C++ gold works on the range [a, a+n) (sort(a, a + n),
// min_element(a, a + n)...) where the other language's gold works on the whole array
// (Arrays.sort(a), a.sort(), sorted(a), min(a)): the golds compute different things.
const CausePartialRange = "partial_range"

var cppRange = regexp.MustCompile(`\b(sort|stable_sort|min_element|max_element|accumulate|reverse|nth_element)\s*\(\s*(\w+)\s*,\s*(\w+)\s*\+\s*\w+`)

var javaRange = regexp.MustCompile(`Arrays\s*\.\s*(sort|fill)\s*\(\s*\w+\s*,\s*\w+\s*,`)

// partialRange tells whether c (C++) restricts a library call to a prefix of an
// array while o (Java or Python) does not, on a test whose arguments hold an array
// longer than an integer argument that could be its count.
func partialRange(c, o Gold, args string) bool {
	if c.Lang != schemas.Cpp || o.Lang == schemas.Cpp {
		return false
	}
	ranged := false
	for _, m := range cppRange.FindAllStringSubmatch(c.Code, -1) {
		if m[2] == m[3] {
			ranged = true
		}
	}
	if !ranged || cppRange.MatchString(o.Code) || javaRange.MatchString(o.Code) {
		return false
	}
	var vals []any
	d := json.NewDecoder(strings.NewReader(args))
	d.UseNumber()
	if d.Decode(&vals) != nil {
		return false
	}
	longest := -1
	var ints []int64
	for _, v := range vals {
		switch x := v.(type) {
		case []any:
			longest = max(longest, len(x))
		case string:
			longest = max(longest, len(x))
		case json.Number:
			if n, err := x.Int64(); err == nil {
				ints = append(ints, n)
			}
		}
	}
	for _, n := range ints {
		if n >= 0 && n < int64(longest) {
			return true
		}
	}
	return false
}

// Classify names the cause of one disagreement:
//   - integer_overflow: the declared result is integral and one value lies outside the
//     32-bit (int) or 64-bit (long) range, or wrapping one value to the declared width
//     gives the other; or, for a program that crashed or timed out on one side only,
//     the inputs are integers large enough that a product overflows 32 bits;
//   - float_precision: the result is floating point, or the two values are numbers
//     within 1% of each other (or differ by one after a floating-point rounding in a
//     function that uses floating point);
//   - out_of_bounds: one side raised an index error, the other (C++, or Python
//     with a negative index) returned or crashed;
//   - partial_range: see partialRange;
//   - gold_exception: one gold raises an exception of its own program (see
//     portError) where the other returns a value;
//   - other: anything else (a signed-modulo difference is established afterwards
//     by a counterfactual run, see CDivModPython).
func Classify(ret values.Type, argTypes []values.Type, args string, a, b Gold, ta, tb execute.TestResult) string {
	if (portError(ta) && tb.Status == schemas.StatusOK) || (portError(tb) && ta.Status == schemas.StatusOK) {
		return CauseGoldException
	}
	if partialRange(a, b, args) || partialRange(b, a, args) {
		return CausePartialRange
	}
	if (boundsError(ta) && (tb.Status == schemas.StatusOK || b.Lang == schemas.Cpp)) ||
		(boundsError(tb) && (ta.Status == schemas.StatusOK || a.Lang == schemas.Cpp)) {
		return CauseOutOfBounds
	}
	if ta.Status == schemas.StatusOK && tb.Status == schemas.StatusOK {
		va, vb := decode(ta.Output), decode(tb.Output)
		if ret.IsInteger() || (ret.Base == values.Void) {
			if overflowPair(ret, va, vb) {
				return CauseOverflow
			}
			if usesFloat(a) || usesFloat(b) {
				if closeNumbers(va, vb, 0.01, 1) {
					return CauseFloat
				}
			}
			if largeIntArgs(args) {
				return CauseOverflow
			}
			return CauseOther
		}
		if ret.IsFloat() {
			if closeNumbers(va, vb, 0.01, 0) || largeIntArgs(args) {
				return CauseFloat
			}
			return CauseOther
		}
		// booleans, strings, chars computed from integers that overflow
		if largeIntArgs(args) {
			return CauseOverflow
		}
		return CauseOther
	}
	return CauseOther
}

func decode(s string) any {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil
	}
	return v
}

var (
	two31 = new(big.Int).Lsh(big.NewInt(1), 31)
	two32 = new(big.Int).Lsh(big.NewInt(1), 32)
	two63 = new(big.Int).Lsh(big.NewInt(1), 63)
	two64 = new(big.Int).Lsh(big.NewInt(1), 64)
)

func wrap(n *big.Int, bits uint) *big.Int {
	mod, half := two32, two31
	if bits == 64 {
		mod, half = two64, two63
	}
	r := new(big.Int).Mod(n, mod)
	if r.Cmp(half) >= 0 {
		r.Sub(r, mod)
	}
	return r
}

// overflowPair walks two integer values (or arrays of them) in step and reports
// whether any differing element pair is explained by wrap-around.
func overflowPair(t values.Type, a, b any) bool {
	return values.Zip(a, b, true, func(a, b any) bool {
		x, ok1 := a.(json.Number)
		y, ok2 := b.(json.Number)
		if !ok1 || !ok2 {
			return false
		}
		ia, ib, ok := values.BigInts(x, y)
		if !ok || ia.Cmp(ib) == 0 {
			return false
		}
		for _, n := range []*big.Int{ia, ib} {
			abs := new(big.Int).Abs(n)
			if abs.Cmp(two31) >= 0 {
				return true
			}
		}
		for _, bits := range []uint{32, 64} {
			if wrap(ia, bits).Cmp(wrap(ib, bits)) == 0 {
				return true
			}
		}
		return false
	})
}

// closeNumbers reports whether two numeric values (or arrays) differ only slightly:
// within rel relatively, or by at most absDiff.
func closeNumbers(a, b any, rel, absDiff float64) bool {
	return values.Zip(a, b, false, func(a, b any) bool {
		switch x := a.(type) {
		case json.Number:
			y, ok := b.(json.Number)
			if !ok {
				return false
			}
			fa, _ := x.Float64()
			fb, _ := y.Float64()
			d := math.Abs(fa - fb)
			return d <= absDiff || d <= rel*math.Max(math.Abs(fa), math.Abs(fb))
		case string:
			// NaN or infinity on one side
			return true
		}
		return false
	})
}

var floatMarkers = []string{"double", "float", "sqrt", "pow", "log", "Math.", "math.", "ceil", "floor", "/ 2.0", "cbrt", "exp("}

func usesFloat(g Gold) bool {
	for _, m := range floatMarkers {
		if strings.Contains(g.Code, m) {
			return true
		}
	}
	if g.Lang == schemas.Python && strings.Contains(strings.ReplaceAll(g.Code, "//", ""), "/") {
		return true
	}
	return false
}

// largeIntArgs reports whether some integer argument is at least 2^16 in magnitude,
// so that a product of two such values leaves the 32-bit range.
func largeIntArgs(args string) bool {
	v := decode(args)
	var walk func(any) bool
	walk = func(x any) bool {
		switch y := x.(type) {
		case []any:
			for _, e := range y {
				if walk(e) {
					return true
				}
			}
		case json.Number:
			if n, ok := new(big.Int).SetString(string(y), 10); ok {
				return new(big.Int).Abs(n).Cmp(big.NewInt(1<<16)) >= 0
			}
		}
		return false
	}
	return walk(v)
}

// Broken tells whether a gold fails on every test (raises, or cannot run) while
// another gold returns a value on every test: a defect of the corpus (TransCoder-test
// ships gold functions that call helpers or names it does not define), not a
// difference between languages. detail is the first error.
func Broken(g Gold, others []Gold) (bool, string) {
	if len(g.Result.Tests) == 0 {
		return false, ""
	}
	for _, t := range g.Result.Tests {
		if t.Status == schemas.StatusOK || boundsError(t) {
			return false, ""
		}
	}
	for _, o := range others {
		if o.Lang == g.Lang {
			continue
		}
		allOK := len(o.Result.Tests) > 0
		for _, t := range o.Result.Tests {
			if t.Status != schemas.StatusOK {
				allOK = false
				break
			}
		}
		if allOK {
			return true, g.Result.Tests[0].Error
		}
	}
	return false, ""
}
