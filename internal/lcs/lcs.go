// Package lcs holds the sequence alignments the project shares: the
// longest-common-subsequence table of the line diffs of metamorphic variants
// (metamorph.Diff) and of the report (report.Diff) and of the token diff of
// TransRepair's Algorithm 1 (consistency.Wdiff), and the Levenshtein distance of
// RUBY's string similarity, of TransRepair's ED metric and of the recorded
// translator's field-name suggestions. Their inputs are single functions, so the
// quadratic tables are small.
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

// Levenshtein is the string edit distance between two token sequences: the fewest
// token insertions, deletions and substitutions turning a into b (Wagner-Fischer,
// two rows).
func Levenshtein[T comparable](a, b []T) int {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(b) == 0 {
		return len(a)
	}
	prev := make([]int32, len(b)+1)
	cur := make([]int32, len(b)+1)
	for j := range prev {
		prev[j] = int32(j)
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = int32(i)
		ai := a[i-1]
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if ai != b[j-1] {
				c++
			}
			if d := prev[j] + 1; d < c {
				c = d
			}
			if d := cur[j-1] + 1; d < c {
				c = d
			}
			cur[j] = c
		}
		prev, cur = cur, prev
	}
	return int(prev[len(b)])
}
