// Package lcs holds the longest-common-subsequence pieces that the project's
// diffs share: the line diffs of metamorphic variants (metamorph.Diff) and of the
// report (report.Diff), and the token diff of TransRepair's Algorithm 1
// (consistency.Wdiff). Their inputs are single functions, so the quadratic table
// is small.
package lcs

// Trim is the length of the common prefix of a and b, and then that of the common
// suffix of what follows it: the part a diff shows unchanged without a table.
func Trim[T comparable](a, b []T) (prefix, suffix int) {
	for prefix < len(a) && prefix < len(b) && a[prefix] == b[prefix] {
		prefix++
	}
	for suffix < len(a)-prefix && suffix < len(b)-prefix && a[len(a)-1-suffix] == b[len(b)-1-suffix] {
		suffix++
	}
	return prefix, suffix
}

// Table is the suffix table of a and b: t[i][j] is the length of a longest common
// subsequence of a[i:] and b[j:]. A diff walks it from t[0][0], taking a common
// element where both heads are equal, else the side whose step keeps the longer
// subsequence.
func Table[T comparable](a, b []T) [][]int32 {
	t := make([][]int32, len(a)+1)
	for i := range t {
		t[i] = make([]int32, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	return t
}
