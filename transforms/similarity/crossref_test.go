package similarity

import (
	"slices"
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Test vectors from the reference implementations, run locally with python3 on
// the examples below (tokens: whitespace-separated, which is how both references
// tokenize, and our tree-sitter tokens of these examples are the same):
//   - CodeXGLUE (github.com/microsoft/CodeXGLUE,
//     Code-Code/code-to-code-trans/evaluator/CodeBLEU): bleu.corpus_bleu([[ref]],
//     [hyp]) and weighted_ngram_match.corpus_bleu([[[ref, weights]]], [hyp]) with
//     weights from keywords/<lang>.txt, as calc_code_bleu.py calls them;
//   - CrystalBLEU (github.com/sola-st/crystalbleu, bleu_ignoring.py):
//     sentence_bleu([ref], hyp, ignoring=trivial), trivial the README's
//     most_common(k) over the n-grams (orders 1-4) of a token corpus.
//
// The references smooth differently from our sentence scores (which use add-one,
// as CodeXGLUE's BLEU evaluator does): CodeBLEU's n-gram parts use nltk's method1
// (an order without match gets 0.1 matches), CrystalBLEU none. NgramStats.CodeXGLUE
// and Score(SmoothNone) reproduce those, so these vectors check our counts, keyword
// weights and ignored n-grams.

var codeBLEURefVectors = []struct {
	lang, ref, hyp  string
	ngram, weighted float64 // weighted: -1 where CodeBLEU has no keyword list (C++)
}{
	{"java", "static int f ( int x ) { int m = 1 ; return x + m ; }", "static int f ( int y ) { return y + 1 ; }",
		0.2662815842931796, 0.28014013035069274},
	{"java", "static int f ( int x ) { int m = 1 ; return x + m ; }", "int f ( int x ) { return x * x ; }",
		0.3567017491991625, 0.3725936513319806},
	{"java", "static boolean g ( int [ ] a ) { for ( int i = 0 ; i < a . length ; i ++ ) if ( a [ i ] < 0 ) return false ; return true ; }",
		"static boolean g ( int [ ] a ) { for ( int v : a ) { if ( v < 0 ) { return false ; } } return true ; }",
		0.4203938526850412, 0.45035650920528386},
	{"python", "def f ( x ) :\n    m = 1\n    return x + m", "def g ( a ) :\n    return a + 1",
		0.04522499539615088, 0.04823080474132874},
	{"python", "def f ( x ) :\n    m = 1\n    return x + m", "def f ( x ) :\n    m = 1\n    return x + m", 1, 1},
	{"cpp", "int f ( int x ) { int m = 1 ; return x + m ; }", "int f ( int y ) { return y + 1 ; }",
		0.20159410239028375, -1},
}

func prepared(t *testing.T, lang, code string) *Prepared {
	t.Helper()
	p, err := Prepare(lang, code, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Prog.Tokens, strings.Fields(code)) {
		t.Fatalf("tokens %q differ from the reference's whitespace tokens of %q", p.Prog.Tokens, code)
	}
	return p
}

func TestCodeBLEUNgramPartsMatchCodeXGLUE(t *testing.T) {
	for _, v := range codeBLEURefVectors {
		r, h := prepared(t, v.lang, v.ref), prepared(t, v.lang, v.hyp)
		got := StatsNgrams(r.Ngrams, len(r.Hashes), h.Ngrams, len(h.Hashes), nil).CodeXGLUE()
		if !near(got, v.ngram, 1e-12) {
			t.Errorf("%s %q: ngram match %.17g, CodeXGLUE %.17g", v.lang, v.hyp, got, v.ngram)
		}
		if v.weighted < 0 {
			continue
		}
		ws := weightedStats(v.lang, r.Prog.Tokens, r.Ngrams, h.Ngrams, len(r.Hashes), len(h.Hashes))
		// CodeXGLUE's weighted_ngram_match takes the reference length from the
		// [tokens, weights] pair it is given, so its brevity penalty sees a
		// reference of length 2 (no penalty for these translations).
		ws.RefLen = 2
		if got := ws.CodeXGLUE(); !near(got, v.weighted, 1e-12) {
			t.Errorf("%s %q: weighted ngram match %.17g, CodeXGLUE %.17g", v.lang, v.hyp, got, v.weighted)
		}
	}
}

func TestCrystalBLEUMatchesReference(t *testing.T) {
	corpus := strings.Fields("static int f ( int x ) { int m = 1 ; return x + m ; } static int g ( int x ) { return x * 2 ; }")
	// most_common(3): ('int',) 5, ('x',) 4, (';',) 3; the fourth has 2, so no tie.
	trivial := TrivialNgrams([][]string{corpus}, 3)
	want := map[uint64]bool{}
	for _, tok := range []string{"int", "x", ";"} {
		want[ngramHash([]uint64{hashString(tok)})] = true
	}
	if len(trivial) != 3 {
		t.Fatalf("%d trivial n-grams", len(trivial))
	}
	for h := range want {
		if !trivial[h] {
			t.Errorf("trivial n-grams lack one of int, x, ;")
		}
	}
	for _, v := range []struct {
		ref, hyp      string
		crystal, bleu float64 // sentence_bleu with and without ignoring (no smoothing)
	}{
		{"static int f ( int x ) { int m = 1 ; return x + m ; }", "static int f ( int y ) { int m = 1 ; return y + m ; }",
			0.6814839425935316, 0.6888365053466561},
		{"static int f ( int x ) { int m = 1 ; return x + m ; }", "static int f ( int x ) { return x + 1 ; }",
			0.48153813831389125, 0.48153813831389125},
	} {
		r, h := prepared(t, "java", v.ref), prepared(t, "java", v.hyp)
		if got := StatsNgrams(r.Ngrams, len(r.Hashes), h.Ngrams, len(h.Hashes), trivial).Score(SmoothNone); !near(got, v.crystal, 1e-12) {
			t.Errorf("%q: CrystalBLEU %.17g, reference %.17g", v.hyp, got, v.crystal)
		}
		if got := StatsNgrams(r.Ngrams, len(r.Hashes), h.Ngrams, len(h.Hashes), nil).Score(SmoothNone); !near(got, v.bleu, 1e-12) {
			t.Errorf("%q: BLEU %.17g, reference %.17g", v.hyp, got, v.bleu)
		}
	}
}

// refSyntaxMatch is CodeXGLUE's syntax_match.py on one pair: the S-expressions of
// the root and of every node with children, and the share of the reference's
// found among the candidate's (comment stripping left out: no comments here).
func refSyntaxMatch(t *testing.T, lang, ref, hyp string) (matched, total int) {
	t.Helper()
	sexps := func(code string) []string {
		tree, err := parse(lang, []byte(code))
		if err != nil {
			t.Fatal(err)
		}
		defer tree.Close()
		var out []string
		var walk func(n *sitter.Node)
		walk = func(n *sitter.Node) {
			out = append(out, n.ToSexp())
			for i := range n.ChildCount() {
				if c := n.Child(i); c.ChildCount() > 0 {
					walk(c)
				}
			}
		}
		walk(tree.RootNode())
		return out
	}
	cand := sexps(hyp)
	for _, s := range sexps(ref) {
		if slices.Contains(cand, s) {
			matched++
		}
		total++
	}
	return matched, total
}

// Syntax match by hand on tree-sitter-python. The reference's subtrees are module,
// function_definition, parameters, block, expression_statement, assignment,
// return_statement and binary_operator (8); the translation shares only
// (parameters (identifier)), since its return adds an integer, not an identifier:
// 1/8 in CodeXGLUE's way. Ours leaves out the whole program's root: 1/7.
func TestSyntaxMatchAgainstCodeXGLUEWay(t *testing.T) {
	ref, hyp := "def f ( x ) :\n    m = 1\n    return x + m", "def g ( a ) :\n    return a + 1"
	if m, n := refSyntaxMatch(t, "python", ref, hyp); m != 1 || n != 8 {
		t.Errorf("CodeXGLUE's way: %d of %d subtrees, want 1 of 8", m, n)
	}
	r, h := prepared(t, "python", ref), prepared(t, "python", hyp)
	if got := syntaxMatch(r.Shapes, h.shapes); !near(got, 1.0/7, 1e-12) {
		t.Errorf("our syntax match %v, want 1/7", got)
	}
	// Identical code: both ways 1.
	if m, n := refSyntaxMatch(t, "python", ref, ref); m != n {
		t.Errorf("identical: %d of %d", m, n)
	}
}
