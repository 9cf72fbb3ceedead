package similarity

import (
	"math"
	"strings"
	"testing"

	"transmute/internal/lcs"
)

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

// sacrebleu's test vectors (test/test_bleu.py, test/test_sentence_bleu.py), with
// whitespace tokens (its tokenize="none"): our counts and scoring must give them.
func TestBLEUSacrebleuVectors(t *testing.T) {
	ws := strings.Fields
	// test_case_statistics: clipped counts and totals per order.
	s := Stats(ws("I am a symbol string sequence a a"), ws("am I am a character sequence"), nil)
	if s.Matches != [4]float64{4, 2, 1, 0} || s.Possible != [4]float64{6, 5, 4, 3} {
		t.Errorf("statistics %v %v, want [4 2 1 0] [6 5 4 3]", s.Matches, s.Possible)
	}
	// test_case_offset: floor smoothing 0.1 -> 0.1555722182, floor 0 -> 0.
	if got := s.Sacre(SmoothFloor, 0.1, true, true); !near(got, 0.1555722182, 1e-8) {
		t.Errorf("floor 0.1: %v", got)
	}
	if got := s.Sacre(SmoothFloor, 0, true, true); got != 0 {
		t.Errorf("floor 0: %v", got)
	}
	// test_case_scoring: compute_bleu([9,7,5,3], [10,8,6,4], 11, 11) = 0.8375922397.
	sc := NgramStats{Matches: [4]float64{9, 7, 5, 3}, Possible: [4]float64{10, 8, 6, 4}, HypLen: 11, RefLen: 11}
	if got := sc.Sacre(SmoothExp, 0, false, true); !near(got, 0.8375922397, 1e-8) {
		t.Errorf("scoring: %v", got)
	}
	// test_raw_bleu_cases and test_case_effective_order: raw_corpus_bleu (floor 0.01,
	// effective order).
	raw := func(hyps, refs []string) float64 {
		var tot NgramStats
		for i := range hyps {
			tot.Add(Stats(ws(refs[i]), ws(hyps[i]), nil))
		}
		return tot.Sacre(SmoothFloor, 0.01, true, false)
	}
	for _, c := range []struct {
		hyps, refs []string
		want       float64
	}{
		{[]string{"this is a test", "another test"}, []string{"ref1", "ref2"}, 0.003799178428257963},
		{[]string{"this is a test"}, []string{"this is a test"}, 1.0},
		{[]string{"this is a fest"}, []string{"this is a test"}, 0.223606797749979},
		{[]string{"test"}, []string{"a test"}, 0.3678794411714425},
		{[]string{"a test"}, []string{"a test"}, 1.0},
		{[]string{"a little test"}, []string{"a test"}, 0.03218297948685433},
	} {
		if got := raw(c.hyps, c.refs); !near(got, c.want, 1e-8) {
			t.Errorf("raw_corpus_bleu(%q, %q) = %v, want %v", c.hyps, c.refs, got, c.want)
		}
	}
	// test_sentence_bleu.py with tokenize="none": exp smoothing, effective order: 7.347.
	ref := "producţia de zahăr brut se exprimă în zahăr alb;"
	sys := "Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;"
	if got := Stats(ws(ref), ws(sys), nil).Sacre(SmoothExp, 0, true, true); !near(got*100, 7.347, 1e-3) {
		t.Errorf("sentence_bleu exp/none: %v", got*100)
	}
	// Its zero case (#141) for every smoothing.
	z := Stats(ws("okay thanks"), ws("this is a cat"), nil)
	for _, m := range []Smoothing{SmoothExp, SmoothNone, SmoothFloor, SmoothAddK} {
		if got := z.Sacre(m, 0.1, true, true); got != 0 {
			t.Errorf("zero case %v: %v", m, got)
		}
	}
}

// CodeXGLUE's evaluator (tensorflow/nmt compute_bleu, smooth=True), by hand: the
// sentence above has matches 4,1,0,0 of 13,12,11,10 n-grams and is longer than its
// reference: BLEU = (5/14 * 2/13 * 1/12 * 1/11)^(1/4).
func TestBLEUCodeXGLUE(t *testing.T) {
	ws := strings.Fields
	ref := "producţia de zahăr brut se exprimă în zahăr alb;"
	sys := "Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;"
	want := math.Pow(5.0/14*2.0/13*1.0/12*1.0/11, 0.25)
	if got := SentenceBLEU(ws(ref), ws(sys)); !near(got, want, 1e-12) {
		t.Errorf("CodeXGLUE sentence BLEU %v, want %v", got, want)
	}
	// Shorter hypothesis: "a b c" against "a b c d e": precisions 4/4, 3/3, 2/2, 1/1 with
	// add-one; BP = exp(1 - 5/3).
	want = math.Exp(1 - 5.0/3)
	if got := SentenceBLEU(ws("a b c d e"), ws("a b c")); !near(got, want, 1e-12) {
		t.Errorf("short: %v, want %v", got, want)
	}
	// Corpus level sums the statistics first: (2 of 2 + 0 of 1 unigrams ...).
	var tot NgramStats
	tot.Add(Stats(ws("x y"), ws("x y"), nil))
	tot.Add(Stats(ws("z"), ws("w"), nil))
	// unigrams 2/3, bigrams 1/1, no 3- or 4-grams: add-one (3/4)(2/2)(1/1)(1/1); BP 1.
	if got, want := tot.Score(SmoothAddOne), math.Pow(0.75, 0.25); !near(got, want, 1e-12) {
		t.Errorf("corpus: %v, want %v", got, want)
	}
	if got := tot.Score(SmoothNone); got != 0 {
		t.Errorf("unsmoothed corpus with empty orders: %v", got)
	}
	if got := SentenceBLEU(ws("a b"), nil); got != 0 {
		t.Errorf("empty hypothesis: %v", got)
	}
}

func TestLevenshteinSTS(t *testing.T) {
	ws := strings.Fields
	// kitten -> sitting is 3 (Levenshtein's classic), here per character token.
	split := func(s string) []string { return strings.Split(s, "") }
	in := Interner{}
	if d := lcs.Levenshtein(in.IDs(split("kitten")), in.IDs(split("sitting"))); d != 3 {
		t.Errorf("kitten/sitting %d", d)
	}
	if got := STS(ws("int x = 1 ;"), ws("int y = 1 ;")); !near(got, 0.8, 1e-12) {
		t.Errorf("STS %v", got)
	}
	if got := STS(ws("a b c"), nil); got != 0 {
		t.Errorf("STS empty %v", got)
	}
	if got := STS(nil, nil); got != 1 {
		t.Errorf("STS both empty %v", got)
	}
}

// parseBracket reads APTED's bracket notation: {a{b}{c}}.
func parseBracket(s string) *LabelTree {
	var pos int
	var node func() *LabelTree
	node = func() *LabelTree {
		pos++ // '{'
		start := pos
		for s[pos] != '{' && s[pos] != '}' {
			pos++
		}
		n := &LabelTree{Label: s[start:pos]}
		for s[pos] == '{' {
			n.Children = append(n.Children, node())
		}
		pos++ // '}'
		return n
	}
	return node()
}

func TestTEDPublishedExamples(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		// Zhang and Shasha 1989, figure 2: delete c, insert it above d.
		{"{f{d{a}{c{b}}}{e}}", "{f{c{d{a}{b}}}{e}}", 2},
		// The zss package's README example: h->d, l->b.
		{"{f{a{h}{c{l}}}{e}}", "{f{a{d}{c{b}}}{e}}", 2},
		// Small cases checked by hand (unit costs).
		{"{a}", "{a}", 0},
		{"{a}", "{b}", 1},
		{"{a{b}{c}}", "{a{b{d}}}", 2},
		{"{a{b{c}{d}}{e}}", "{a{b{c}}{d}{e}}", 2},
		{"{a{b}{c}{d}}", "{a{c}}", 2},
	} {
		a, b := Flatten(parseBracket(c.a)), Flatten(parseBracket(c.b))
		if got := TED(a, b); got != c.want {
			t.Errorf("TED(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := TED(b, a); got != c.want {
			t.Errorf("TED(%s, %s) = %d, want %d (symmetry)", c.b, c.a, got, c.want)
		}
	}
	a := Flatten(parseBracket("{a{b}{c}}"))
	if got := TED(a, &FlatTree{}); got != 3 {
		t.Errorf("to empty tree: %d", got)
	}
	if got := TRS(a, Flatten(parseBracket("{a{b{d}}}"))); !near(got, 1-2.0/6, 1e-12) {
		t.Errorf("TRS %v", got)
	}
}
