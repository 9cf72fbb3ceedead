package values

import (
	"math/big"
	"regexp"
	"strings"
)

// The benchmark's C++ scripts compare f_filled(...) == f_gold(...) in C++, where the
// usual arithmetic conversions apply: an int translation of a gold that returns
// unsigned int is compared after converting the int to unsigned, so -1 equals
// 4294967295 there. Our target-gold oracle compares the values themselves (as the
// source oracle must across languages, and as Python and Java scripts do); these
// helpers give the scripts' convention beside it.

var unsignedWidth = []struct {
	re    *regexp.Regexp
	width uint
}{
	{regexp.MustCompile(`\bunsigned\s+long\s+long\b|\bunsigned\s+long\b|\bsize_t\b|\buint64_t\b|\bunsigned\s+long\s+int\b`), 64},
	{regexp.MustCompile(`\bunsigned\s+short\b|\buint16_t\b`), 16},
	{regexp.MustCompile(`\bunsigned\s+char\b|\buint8_t\b`), 8},
	{regexp.MustCompile(`\bunsigned\b|\buint32_t\b`), 32},
}

// CppUnsignedWidth is the width in bits of the unsigned integer type that a C++
// declaration "unsigned int f ( ... )" returns, or 0 when it returns anything else.
func CppUnsignedWidth(decl string) uint {
	ret := decl
	if i := strings.IndexByte(decl, '('); i >= 0 {
		ret = decl[:i]
	}
	ret = strings.TrimSpace(ret)
	// drop the function's name, the last word
	if i := strings.LastIndexAny(ret, " \t*&"); i >= 0 {
		ret = ret[:i+1]
	}
	for _, u := range unsignedWidth {
		if u.re.MatchString(ret) {
			return u.width
		}
	}
	return 0
}

// CppConvertedEqual reports whether two canonical integer values compare equal after
// the usual arithmetic conversions to an unsigned type of width bits: both are reduced
// modulo 2^width. Values outside [-2^width, 2^width) (a wider translation, where the
// conversion would go the other way) and non-integers compare as Equal does.
func CppConvertedEqual(width uint, t Type, a, b string, tol Tolerance) bool {
	if Equal(t, a, b, tol) {
		return true
	}
	if width == 0 || t.Dims > 0 || (t.Base != Int && t.Base != Long) {
		return false
	}
	ia, ok1 := new(big.Int).SetString(strings.TrimSpace(a), 10)
	ib, ok2 := new(big.Int).SetString(strings.TrimSpace(b), 10)
	if !ok1 || !ok2 {
		return false
	}
	mod := new(big.Int).Lsh(big.NewInt(1), width)
	neg := new(big.Int).Neg(mod)
	for _, x := range []*big.Int{ia, ib} {
		if x.Cmp(neg) < 0 || x.Cmp(mod) >= 0 {
			return false
		}
	}
	ra := new(big.Int).Mod(ia, mod)
	rb := new(big.Int).Mod(ib, mod)
	return ra.Cmp(rb) == 0
}
