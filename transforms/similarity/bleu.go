package similarity

import "math"

// Smoothing says how BLEU treats an n-gram order with no match.
type Smoothing int

const (
	// SmoothNone is Papineni et al.'s BLEU (and RUBY's equation): any order with no
	// match makes the score 0.
	SmoothNone Smoothing = iota
	// SmoothAddOne adds one to the matches and to the possible matches of every order
	// (Lin and Och 2004, "smoothing 2"): CodeXGLUE's evaluator (tensorflow/nmt's
	// compute_bleu with smooth=True), which we use for sentence-level BLEU.
	SmoothAddOne
	// SmoothExp is sacrebleu's default "exp": the k-th order with no match gets
	// precision 1/(2^k p) (k = 1, 2, ...), p its possible matches.
	SmoothExp
	// SmoothFloor is sacrebleu's "floor": an order with no match gets value/p.
	SmoothFloor
	// SmoothAddK is sacrebleu's "add-k": value added to orders 2..4.
	SmoothAddK
)

// MaxOrder is BLEU's n-gram order (BLEU-4).
const MaxOrder = 4

// NgramStats are the sufficient statistics of BLEU for one or more sentence pairs:
// clipped matches and possible matches per order, and both lengths.
type NgramStats struct {
	Matches, Possible [MaxOrder]float64
	HypLen, RefLen    int
}

// Add accumulates s into t (corpus BLEU sums the statistics, then scores once).
func (t *NgramStats) Add(s NgramStats) {
	for i := range MaxOrder {
		t.Matches[i] += s.Matches[i]
		t.Possible[i] += s.Possible[i]
	}
	t.HypLen += s.HypLen
	t.RefLen += s.RefLen
}

// Ngrams are the n-gram counts (n = 1..MaxOrder) of a token sequence, keyed by a
// 64-bit hash of the n-gram's token hashes (collisions are negligible at the sizes
// of functions, and hashing avoids building a string per n-gram).
type Ngrams [MaxOrder]map[uint64]int32

// HashTokens hashes each token (FNV-1a).
func HashTokens(toks []string) []uint64 {
	out := make([]uint64, len(toks))
	for i, t := range toks {
		out[i] = hashString(t)
	}
	return out
}

func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

func mix(h, x uint64) uint64 {
	h ^= x + 0x9e3779b97f4a7c15 + (h << 6) + (h >> 2)
	return h * 1099511628211
}

// CountNgrams counts the n-grams of hashed tokens.
func CountNgrams(toks []uint64) Ngrams {
	var g Ngrams
	for n := 1; n <= MaxOrder; n++ {
		m := make(map[uint64]int32, len(toks))
		for i := 0; i+n <= len(toks); i++ {
			m[ngramHash(toks[i:i+n])]++
		}
		g[n-1] = m
	}
	return g
}

func ngramHash(toks []uint64) uint64 {
	h := uint64(len(toks))
	for _, t := range toks {
		h = mix(h, t)
	}
	return h
}

// Stats computes BLEU's statistics of hyp against one reference, clipping each
// n-gram's count at its count in the reference. Ignore, when not nil, names n-grams
// that count neither as matches nor as possible matches (CrystalBLEU).
func Stats(ref, hyp []string, ignore map[uint64]bool) NgramStats {
	return StatsNgrams(CountNgrams(HashTokens(ref)), len(ref), CountNgrams(HashTokens(hyp)), len(hyp), ignore)
}

// StatsNgrams is Stats on counted n-grams.
func StatsNgrams(ref Ngrams, refLen int, hyp Ngrams, hypLen int, ignore map[uint64]bool) NgramStats {
	s := NgramStats{HypLen: hypLen, RefLen: refLen}
	for n := range MaxOrder {
		for g, c := range hyp[n] {
			if ignore != nil && ignore[g] {
				continue
			}
			s.Possible[n] += float64(c)
			if r := ref[n][g]; r > 0 {
				s.Matches[n] += float64(min(c, r))
			}
		}
	}
	return s
}

// Score turns statistics into BLEU in [0, 1] as CodeXGLUE's evaluator does
// (tensorflow/nmt compute_bleu): the geometric mean of the precisions of orders
// 1..MaxOrder (with SmoothAddOne: (m+1)/(p+1) at every order; with SmoothNone: 0 if
// any order has no match) times the brevity penalty exp(1 - r/c) when the hypothesis
// (length c) is shorter than the reference (length r), 1 otherwise. An empty
// hypothesis scores 0.
func (s NgramStats) Score(sm Smoothing) float64 {
	if s.HypLen == 0 {
		return 0
	}
	logSum := 0.0
	for i := range MaxOrder {
		m, p := s.Matches[i], s.Possible[i]
		if sm == SmoothAddOne {
			m, p = m+1, p+1
		}
		if p == 0 || m == 0 {
			return 0
		}
		logSum += math.Log(m / p)
	}
	return brevity(s.HypLen, s.RefLen) * math.Exp(logSum/MaxOrder)
}

func brevity(hyp, ref int) float64 {
	if hyp == 0 {
		return 0
	}
	if hyp < ref {
		return math.Exp(1 - float64(ref)/float64(hyp))
	}
	return 1
}

// Sacre scores the statistics as sacrebleu's BLEU.compute_bleu does, for checking
// our counts against its published test vectors: method SmoothNone, SmoothExp,
// SmoothFloor (value: the numerator given to an order with no match) or SmoothAddK
// (value added to matches and possible matches of orders 2..4); effectiveOrder
// averages only over the orders the hypothesis has n-grams of (its sentence_bleu
// default); zeroIfNoMatch is sacrebleu 2's early stop when nothing matches at all
// (its issue #141; sacrebleu 1 smoothed such a score instead).
func (s NgramStats) Sacre(method Smoothing, value float64, effectiveOrder, zeroIfNoMatch bool) float64 {
	if s.HypLen == 0 {
		return 0
	}
	if zeroIfNoMatch && s.Matches == [MaxOrder]float64{} {
		return 0
	}
	var prec [MaxOrder]float64
	smooth := 1.0
	eff := MaxOrder
	for n := 1; n <= MaxOrder; n++ {
		m, p := s.Matches[n-1], s.Possible[n-1]
		if method == SmoothAddK && n > 1 {
			m, p = m+value, p+value
		}
		if p == 0 {
			break
		}
		if effectiveOrder {
			eff = n
		}
		switch {
		case m > 0:
			prec[n-1] = m / p
		case method == SmoothExp:
			smooth *= 2
			prec[n-1] = 1 / (smooth * p)
		case method == SmoothFloor:
			prec[n-1] = value / p
		}
	}
	sum := 0.0
	for _, p := range prec[:eff] {
		if p == 0 {
			return 0 // sacrebleu's log(0) = -9999999999: the score underflows to 0
		}
		sum += math.Log(p)
	}
	return brevity(s.HypLen, s.RefLen) * math.Exp(sum/float64(eff))
}

// CodeXGLUEEpsilon is the count nltk's smoothing method1 gives an order with no
// match, as CodeBLEU's n-gram parts use it.
const CodeXGLUEEpsilon = 0.1

// CodeXGLUE scores the statistics as CodeBLEU's reference implementation scores
// its n-gram match and weighted n-gram match (CodeXGLUE's CodeBLEU bleu.py and
// weighted_ngram_match.py, nltk's corpus_bleu with smoothing method1): 0 when no
// unigram matches; an order with no match gets CodeXGLUEEpsilon matches; possible
// matches at least 1; Papineni's brevity penalty. For checking our counts against
// the reference (tests in crossref_test.go); our CodeBLEU uses SmoothAddOne.
func (s NgramStats) CodeXGLUE() float64 {
	if s.Matches[0] == 0 {
		return 0
	}
	sum := 0.0
	for i := range MaxOrder {
		m, p := s.Matches[i], max(s.Possible[i], 1)
		if m == 0 {
			m = CodeXGLUEEpsilon
		}
		sum += math.Log(m / p)
	}
	return brevity(s.HypLen, s.RefLen) * math.Exp(sum/MaxOrder)
}

// SentenceBLEU is BLEU-4 of one translation against its reference with CodeXGLUE's
// add-one smoothing.
func SentenceBLEU(ref, hyp []string) float64 {
	return Stats(ref, hyp, nil).Score(SmoothAddOne)
}
