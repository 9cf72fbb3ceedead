package consistency

import (
	"strings"

	"transmute/internal/lcs"
)

// Hunk is one difference slice of two token sequences: a[AStart:AEnd] in the
// first was replaced by b[BStart:BEnd] in the second (either may be empty).
type Hunk struct {
	AStart, AEnd, BStart, BEnd int
}

// MaxSlice is the longest slice Algorithm 1 deletes (TransRepair footnote 4: a
// longer slice is unlikely to be the mutated word's translation).
const MaxSlice = 5

// maxSubsequences caps |T_o| and |T_m|, so two very different translations
// (hundreds of slices) cost a bounded number of comparisons; their score is low
// whichever slices are kept.
const maxSubsequences = 40

// Wdiff returns the difference slices of a and b along a longest common
// subsequence, the token-level analogue of GNU wdiff in Algorithm 1 (line 1).
func Wdiff(a, b []string) []Hunk {
	p, s := lcs.Trim(a, b)
	ma, mb := a[p:len(a)-s], b[p:len(b)-s]
	dp := lcs.Table(ma, mb) // dp[i][j] = LCS of ma[i:] and mb[j:]
	var hunks []Hunk
	i, j := 0, 0
	open := false
	var h Hunk
	flush := func() {
		if open {
			h.AEnd, h.BEnd = p+i, p+j
			hunks = append(hunks, h)
			open = false
		}
	}
	for i < len(ma) || j < len(mb) {
		switch {
		case i < len(ma) && j < len(mb) && ma[i] == mb[j]:
			flush()
			i++
			j++
			continue
		case !open:
			h = Hunk{AStart: p + i, BStart: p + j}
			open = true
		}
		if j >= len(mb) || (i < len(ma) && dp[i+1][j] > dp[i][j+1]) {
			i++
		} else {
			j++
		}
	}
	flush()
	return hunks
}

// ConsistencyScore is TransRepair's Algorithm 1 on token sequences: the largest
// similarity between a subsequence of t(s) and one of t(s'), where each
// subsequence is the translation with one difference slice (at most MaxSlice
// tokens) deleted, or none. For code it also deletes, at once, every slice of
// one repeated change: a renamed variable occurs many times, and each of its
// occurrences is a slice of the same pair of texts (arr -> nums); deleting
// them one at a time would leave the others to count as inconsistencies.
func ConsistencyScore(m Metric, to, tm []string, idf *IDF) float64 {
	hunks := Wdiff(to, tm)
	if len(hunks) == 0 {
		return Similarity(m, to, tm, idf)
	}
	T_o := [][]string{to}
	T_m := [][]string{tm}
	groups := map[string][]Hunk{}
	var order []string
	for _, h := range hunks {
		na, nb := h.AEnd-h.AStart, h.BEnd-h.BStart
		if na > 0 && na <= MaxSlice && len(T_o) < maxSubsequences {
			T_o = append(T_o, deleteRanges(to, [][2]int{{h.AStart, h.AEnd}}))
		}
		if nb > 0 && nb <= MaxSlice && len(T_m) < maxSubsequences {
			T_m = append(T_m, deleteRanges(tm, [][2]int{{h.BStart, h.BEnd}}))
		}
		if na <= MaxSlice && nb <= MaxSlice {
			k := strings.Join(to[h.AStart:h.AEnd], "\x00") + "\x01" + strings.Join(tm[h.BStart:h.BEnd], "\x00")
			if groups[k] == nil {
				order = append(order, k)
			}
			groups[k] = append(groups[k], h)
		}
	}
	for _, k := range order {
		g := groups[k]
		if len(g) < 2 {
			continue
		}
		var ra, rb [][2]int
		for _, h := range g {
			ra = append(ra, [2]int{h.AStart, h.AEnd})
			rb = append(rb, [2]int{h.BStart, h.BEnd})
		}
		if g[0].AEnd > g[0].AStart {
			T_o = append(T_o, deleteRanges(to, ra))
		}
		if g[0].BEnd > g[0].BStart {
			T_m = append(T_m, deleteRanges(tm, rb))
		}
	}
	best := -1.0
	for _, a := range T_o {
		for _, b := range T_m {
			if s := Similarity(m, a, b, idf); s > best {
				best = s
			}
		}
	}
	return best
}

// deleteRanges returns ts without the (sorted, disjoint) ranges.
func deleteRanges(ts []string, rs [][2]int) []string {
	out := make([]string, 0, len(ts))
	prev := 0
	for _, r := range rs {
		out = append(out, ts[prev:r[0]]...)
		prev = r[1]
	}
	return append(out, ts[prev:]...)
}
