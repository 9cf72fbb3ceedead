package consistency

import (
	"math"
	"slices"

	"transmute/internal/lcs"
)

// Metric names one of TransRepair's four similarity metrics (section 3.2). They are
// written here rather than taken from a library: the formulas are the paper's own
// (normalisations, BLEU taken in both directions), each a few lines, and the
// project's other BLEU is transforms/similarity's.
type Metric string

const (
	MetricLCS   Metric = "lcs"
	MetricED    Metric = "ed"
	MetricTFIDF Metric = "tfidf"
	MetricBLEU  Metric = "bleu"
)

// Metrics lists the four metrics in the paper's order.
var Metrics = []Metric{MetricLCS, MetricED, MetricTFIDF, MetricBLEU}

// IDF holds the inverse document frequencies of tokens (formula 4).
type IDF struct {
	weights map[string]float64
	// missing is the weight of a token no document holds: log(|C|+1).
	missing float64
}

// NewIDF computes w = log((|C|+1)/(f_w+1)) + 1 over the documents. The +1 keeps
// tokens that every document holds from weighing nothing: TransRepair counts its
// frequencies over a corpus of millions of sentences, ours over the few
// translations of one problem, where every keyword would otherwise vanish.
func NewIDF(docs [][]string) *IDF {
	df := map[string]int{}
	for _, d := range docs {
		seen := map[string]bool{}
		for _, t := range d {
			if !seen[t] {
				seen[t] = true
				df[t]++
			}
		}
	}
	n := float64(len(docs))
	w := make(map[string]float64, len(df))
	for t, f := range df {
		w[t] = math.Log((n+1)/(float64(f)+1)) + 1
	}
	return &IDF{weights: w, missing: math.Log(n+1) + 1}
}

func (d *IDF) weight(t string) float64 {
	if d == nil {
		return 1
	}
	if w, ok := d.weights[t]; ok {
		return w
	}
	return d.missing
}

// Similarity computes metric m between token sequences a and b; idf is used by
// tf-idf only (nil weighs every token 1). Equal sequences score exactly 1 (the
// cosine's rounding would give 0.9999999999999999), empty ones included.
func Similarity(m Metric, a, b []string, idf *IDF) float64 {
	if slices.Equal(a, b) {
		return 1
	}
	switch m {
	case MetricLCS:
		return float64(LCS(a, b)) / float64(max(len(a), len(b)))
	case MetricED:
		return 1 - float64(EditDistance(a, b))/float64(max(len(a), len(b)))
	case MetricTFIDF:
		return TFIDFCosine(a, b, idf)
	case MetricBLEU:
		return max(BLEU(a, b), BLEU(b, a))
	}
	return math.NaN()
}

// trimCommon drops the common prefix and suffix, which LCS and edit distance
// count exactly (a diff's untouched code), so the quadratic part runs on the
// changed middle only.
func trimCommon(a, b []string) (int, []string, []string) {
	p, s := lcs.Trim(a, b)
	return p + s, a[p : len(a)-s], b[p : len(b)-s]
}

// LCS is the length of a longest common subsequence of a and b.
func LCS(a, b []string) int {
	common, a, b := trimCommon(a, b)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1] + 1
			} else {
				cur[j] = max(prev[j], cur[j-1])
			}
		}
		prev, cur = cur, prev
	}
	return common + prev[len(b)]
}

// EditDistance is the Levenshtein distance between a and b (insert, delete,
// substitute one token, each costing 1).
func EditDistance(a, b []string) int {
	_, a, b = trimCommon(a, b)
	return lcs.Levenshtein(a, b)
}

// TFIDFCosine is the cosine of the bag-of-tokens vectors of a and b, each count
// multiplied by its token's idf weight.
func TFIDFCosine(a, b []string, idf *IDF) float64 {
	ca, cb := counts(a), counts(b)
	var dot, na, nb float64
	for t, x := range ca {
		w := idf.weight(t)
		va := float64(x) * w
		na += va * va
		if y, ok := cb[t]; ok {
			dot += va * float64(y) * w
		}
	}
	for t, y := range cb {
		vb := float64(y) * idf.weight(t)
		nb += vb * vb
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return min(dot/math.Sqrt(na*nb), 1)
}

func counts(a []string) map[string]int {
	m := make(map[string]int, len(a))
	for _, t := range a {
		m[t]++
	}
	return m
}

// BLEU scores candidate c against reference r (formulas 5 and 6): uniform
// weights over the modified n-gram precisions p_1..p_N, N = 4, and the brevity
// penalty. N drops to the shorter sequence's length when it has fewer than 4
// tokens, so two identical short sequences still score 1; a zero precision
// makes the score 0, as log 0 does in formula 6.
func BLEU(c, r []string) float64 {
	if len(c) == 0 || len(r) == 0 {
		return 0
	}
	n := min(4, len(c), len(r))
	var logSum float64
	for k := 1; k <= n; k++ {
		p := modifiedPrecision(c, r, k)
		if p == 0 {
			return 0
		}
		logSum += math.Log(p) / float64(n)
	}
	bp := 1.0
	if len(c) <= len(r) {
		bp = math.Exp(1 - float64(len(r))/float64(len(c)))
	}
	return bp * math.Exp(logSum)
}

// modifiedPrecision is p_k: the candidate's k-grams found in the reference, each
// counted at most as often as the reference has it, over the candidate's k-grams.
func modifiedPrecision(c, r []string, k int) float64 {
	ref := map[string]int{}
	for i := 0; i+k <= len(r); i++ {
		ref[gram(r[i:i+k])]++
	}
	total, hit := 0, 0
	for i := 0; i+k <= len(c); i++ {
		total++
		g := gram(c[i : i+k])
		if ref[g] > 0 {
			ref[g]--
			hit++
		}
	}
	if total == 0 {
		return 0
	}
	return float64(hit) / float64(total)
}

func gram(ts []string) string {
	n := 0
	for _, t := range ts {
		n += len(t) + 1
	}
	b := make([]byte, 0, n)
	for _, t := range ts {
		b = append(b, t...)
		b = append(b, 0)
	}
	return string(b)
}
