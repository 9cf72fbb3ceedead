package similarity

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

// STS is RUBY's string similarity 1 - SED / max(len): 1 for two empty sequences.
func STS(ref, hyp []string) float64 {
	n := max(len(ref), len(hyp))
	if n == 0 {
		return 1
	}
	return 1 - float64(Levenshtein(HashTokens(ref), HashTokens(hyp)))/float64(n)
}
