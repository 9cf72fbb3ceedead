package similarity

import "transmute/internal/lcs"

// Interner gives each distinct string a small integer (graph labels).
type Interner map[string]int32

// IDs interns every string of xs.
func (in Interner) IDs(xs []string) []int32 {
	out := make([]int32, len(xs))
	for i, x := range xs {
		id, ok := in[x]
		if !ok {
			id = int32(len(in))
			in[x] = id
		}
		out[i] = id
	}
	return out
}

// STS is RUBY's string similarity 1 - SED / max(len): 1 for two empty sequences.
func STS(ref, hyp []string) float64 {
	n := max(len(ref), len(hyp))
	if n == 0 {
		return 1
	}
	return 1 - float64(lcs.Levenshtein(HashTokens(ref), HashTokens(hyp)))/float64(n)
}
