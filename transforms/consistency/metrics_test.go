package consistency

import (
	"math"
	"strings"
	"testing"

	"transmute/schemas"
	"transmute/transforms/values"
)

func toks(s string) []string { return strings.Fields(s) }

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestTokens(t *testing.T) {
	for _, c := range []struct{ lang, code, want string }{
		{"python", "a // b  # c\nx **= 2", "a // b x **= 2"},
		{"java", "x /* c */ = y // z\ns = \"a b\";", "x = y s = \"a b\" ;"},
		{"cpp", "#include <x>\nint a = 1.5e3; a >>= 1;", "int a = 1.5e3 ; a >>= 1 ;"},
	} {
		if got := strings.Join(Tokens(c.lang, c.code), " "); got != c.want {
			t.Errorf("%s: %q, want %q", c.lang, got, c.want)
		}
	}
}

func TestMetricsHandValues(t *testing.T) {
	// The paper's LCS example: ABCDGH / AEDFHR share ADH.
	a, b := toks("A B C D G H"), toks("A E D F H R")
	if LCS(a, b) != 3 || !near(Similarity(MetricLCS, a, b, nil), 0.5) {
		t.Fatalf("LCS %d", LCS(a, b))
	}
	// kitten -> sitting: 3 edits over 7.
	k, s := toks("k i t t e n"), toks("s i t t i n g")
	if EditDistance(k, s) != 3 || !near(Similarity(MetricED, k, s, nil), 1-3.0/7) {
		t.Fatalf("ED %d", EditDistance(k, s))
	}
	// tf-idf: unit weights give cos = 1/2; idf over the two documents weighs x
	// log(3/3)+1 = 1 and y, z log(3/2)+1, so cos = 1/(1+w^2).
	x, y := toks("x y"), toks("x z")
	if !near(TFIDFCosine(x, y, nil), 0.5) {
		t.Fatal(TFIDFCosine(x, y, nil))
	}
	w := math.Log(1.5) + 1
	if got := TFIDFCosine(x, y, NewIDF([][]string{x, y})); !near(got, 1/(1+w*w)) {
		t.Fatalf("tf-idf %v, want %v", got, 1/(1+w*w))
	}
	// BLEU: the paper's p_2 example, then full scores.
	if p := modifiedPrecision(toks("A B B C"), toks("A A B C"), 2); !near(p, 2.0/3) {
		t.Fatalf("p2 %v", p)
	}
	if p := modifiedPrecision(toks("A B B C"), toks("A A B C"), 1); !near(p, 3.0/4) {
		t.Fatalf("p1 %v (clipped)", p)
	}
	c, r := toks("a b c d e"), toks("a b c d f")
	want := math.Pow(4.0/5*3.0/4*2.0/3*1.0/2, 0.25) // 0.6687
	if got := BLEU(c, r); !near(got, want) {
		t.Fatalf("BLEU %v, want %v", got, want)
	}
	short, long := toks("a b c d"), toks("a b c d e")
	if got := BLEU(short, long); !near(got, math.Exp(-0.25)) {
		t.Fatalf("brevity: %v", got)
	}
	// The metric takes the higher direction: exp(-1/4) = 0.7788 over 0.6687.
	if got := Similarity(MetricBLEU, long, short, nil); !near(got, math.Exp(-0.25)) {
		t.Fatalf("bidirectional BLEU %v", got)
	}
	if BLEU(toks("A B B C"), toks("A A B C")) != 0 {
		t.Fatal("a zero 3-gram precision gives BLEU 0")
	}
	for _, m := range Metrics {
		if Similarity(m, long, long, nil) != 1 || Similarity(m, nil, nil, nil) != 1 {
			t.Errorf("%s: identical sequences score below 1", m)
		}
	}
}

func TestWdiffPaperExample(t *testing.T) {
	// TransRepair: "A B C D F" / "B B C G H F" have slices "A", "D" and "B", "G H".
	a, b := toks("A B C D F"), toks("B B C G H F")
	hs := Wdiff(a, b)
	var sa, sb []string
	for _, h := range hs {
		sa = append(sa, strings.Join(a[h.AStart:h.AEnd], " "))
		sb = append(sb, strings.Join(b[h.BStart:h.BEnd], " "))
	}
	if strings.Join(sa, "|") != "A|D" || strings.Join(sb, "|") != "B|G H" {
		t.Fatalf("slices %q / %q", sa, sb)
	}
}

func TestAlgorithm1HandScores(t *testing.T) {
	a, b := toks("A B C D F"), toks("B B C G H F")
	// T_o = {ABCDF, BCDF, ABCF}, T_m = {BBCGHF, BCGHF, BBCF}. Best LCS: ABCF or
	// BCDF against BBCF, 3/4. Best ED: ABCF/BBCF, one substitution, 1-1/4.
	// tf-idf (unit weights): ABCF or BCDF against BBCF, (2+1+1)/(2*sqrt 6) = 0.8165.
	for _, c := range []struct {
		m    Metric
		want float64
	}{{MetricLCS, 0.75}, {MetricED, 0.75}, {MetricTFIDF, 4 / (2 * math.Sqrt(6))}} {
		if got := ConsistencyScore(c.m, a, b, nil); !near(got, c.want) {
			t.Errorf("%s: %v, want %v", c.m, got, c.want)
		}
	}
	// BLEU (N = 4): no pair shares a 4-gram (A B C D F and B B C G H F have
	// none in common, and every shorter pair has at most 4 tokens), so p_4 = 0: 0.
	if got := ConsistencyScore(MetricBLEU, a, b, nil); got != 0 {
		t.Errorf("bleu: %v, want 0", got)
	}
	// Identical sequences score 1 with no slices.
	if got := ConsistencyScore(MetricLCS, a, a, nil); got != 1 {
		t.Errorf("identical: %v", got)
	}
	// A renamed variable: both occurrences are slices of the same change, deleted
	// at once, so the translations are consistent by every metric...
	o := toks("x = arr [ i ] + arr [ 0 ] ; return x ;")
	m := toks("x = nums [ i ] + nums [ 0 ] ; return x ;")
	for _, mt := range Metrics {
		if got := ConsistencyScore(mt, o, m, nil); got != 1 {
			t.Errorf("%s: rename scores %v, want 1", mt, got)
		}
	}
	// ...while a change beside the rename is still seen: with both renamed
	// occurrences deleted, 12 of 13 tokens are in common.
	m2 := toks("x = nums [ i ] + nums [ 1 ] ; return x ;")
	if got := ConsistencyScore(MetricLCS, o, m2, nil); !near(got, 12.0/13) {
		t.Errorf("rename plus literal: %v, want 12/13", got)
	}
}

func TestExecConsistent(t *testing.T) {
	ret, _ := values.ParseType("int")
	tol := values.DefaultTolerance
	ok := func(vs ...string) []Outcome {
		var out []Outcome
		for _, v := range vs {
			out = append(out, Outcome{Status: schemas.StatusOK, Output: v})
		}
		return out
	}
	ce := []Outcome{{Status: schemas.StatusCompileError}, {Status: schemas.StatusCompileError}}
	cases := []struct {
		name                 string
		srcO, srcV, trO, trV []Outcome
		want                 bool
		first                int
	}{
		{"rename kept", ok("1", "2"), ok("1", "2"), ok("1", "2"), ok("1", "2"), true, -1},
		{"rename broke test 1", ok("1", "2"), ok("1", "2"), ok("1", "2"), ok("1", "3"), false, 1},
		{"wrong but consistent", ok("1", "2"), ok("1", "2"), ok("5", "5"), ok("5", "5"), true, -1},
		{"literal change kept", ok("1", "2"), ok("1", "5"), ok("1", "2"), ok("1", "5"), true, -1},
		{"literal change, both wrong alike", ok("1", "2"), ok("1", "5"), ok("0", "3"), ok("0", "6"), true, -1},
		// Right on the original, wrong on the variant, though both pairs differ.
		{"literal change mistranslated", ok("1", "2"), ok("1", "5"), ok("1", "2"), ok("1", "7"), false, 1},
		// Wrong on the original, right on the variant (a memorised bug).
		{"memorised bug", ok("1", "2"), ok("1", "5"), ok("1", "3"), ok("1", "5"), false, 1},
		{"literal change lost", ok("1", "2"), ok("1", "5"), ok("1", "2"), ok("1", "2"), false, 1},
		{"both fail to compile", ok("1", "2"), ok("1", "2"), ce, ce, true, -1},
		{"only the variant fails", ok("1", "2"), ok("1", "2"), ok("1", "2"), ce, false, 0},
	}
	for _, c := range cases {
		got, first := ExecConsistent(ret, tol, c.srcO, c.srcV, c.trO, c.trV)
		if got != c.want || first != c.first {
			t.Errorf("%s: %v at %d, want %v at %d", c.name, got, first, c.want, c.first)
		}
	}
}
