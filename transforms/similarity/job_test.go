package similarity

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"transmute/schemas"
)

// Three translators of one problem into Python: identical to the gold (passes),
// renamed but wrong (fails half), missing; plus one too large. The rows join CA
// from the target-gold results (counted once across corpora), and the analysis
// finds the metric order agreeing with CA.
func TestScoreAllAndAnalyze(t *testing.T) {
	gold := "def f ( x ) :\n    m = 1\n    return x + m"
	p := schemas.Problem{ID: "P", Functions: []schemas.Function{{Lang: "python", Code: gold}, {Lang: "java", Code: "static int f ( int x ) { return x + 1 ; }"}}}
	tr := func(name string, status schemas.TranslationStatus, code string) schemas.TranslationRow {
		return schemas.TranslationRow{Translator: name, ProblemID: "P", VariantID: "orig", SrcLang: "java", TgtLang: "python", Status: status, Code: code}
	}
	trs := []schemas.TranslationRow{
		tr("same", schemas.TranslationOK, gold),
		tr("wrong", schemas.TranslationOK, "def f(y):\n    return y - 1"),
		tr("none", schemas.TranslationMissing, ""),
		{Translator: "empty", ProblemID: "P", VariantID: "orig", SrcLang: "java", TgtLang: "python",
			Status: schemas.TranslationError, Error: "the recorded translation is empty"},
		tr("huge", schemas.TranslationOK, strings.Repeat("#", DefaultOptions.MaxBytes+1)),
	}
	var results []schemas.ResultRow
	for _, name := range []string{"same", "wrong", "none", "empty", "huge"} {
		for _, corpus := range []string{"transcoder", "trace"} {
			for i := int32(0); i < 2; i++ {
				match := name == "same" || (name == "wrong" && i == 0)
				results = append(results, schemas.ResultRow{Translator: name, ProblemID: "P", Corpus: corpus, SrcLang: "java",
					TgtLang: "python", Oracle: "target_gold", TestIndex: i, OracleStatus: schemas.StatusOK, Match: match})
			}
		}
	}
	rows := ScoreAll("r", []schemas.Problem{p}, trs, results, DefaultOptions)
	if len(rows) != 5 {
		t.Fatalf("%d rows", len(rows))
	}
	by := map[string]schemas.SimilarityRow{}
	for _, r := range rows {
		by[r.Translator] = r
	}
	if r := by["same"]; r.Status != StatusOK || r.RUBY != 1 || r.BLEU != 1 || r.CA != 1 || !r.Pass || r.Tests != 2 || r.RubyLevel != string(LevelGraph) {
		t.Errorf("same: %+v", r)
	}
	if r := by["wrong"]; r.Status != StatusOK || r.CA != 0.5 || r.Pass || !(r.RUBY < 1) || r.Tests != 2 {
		t.Errorf("wrong: %+v", r)
	}
	if r := by["none"]; r.Status != StatusNoTranslation || r.RUBY != 0 || r.BLEU != 0 || r.CA != 0 {
		t.Errorf("none: %+v", r)
	}
	// An empty answer is the translator's real output: scored (as empty code), kept.
	if r := by["empty"]; r.Status != StatusOK || r.RUBY != 0 || r.BLEU != 0 || r.STS != 0 || r.CodeBLEU != 0 ||
		r.RubyLevel != string(LevelTokens) || r.HypTokens != 0 || !strings.Contains(r.Error, "scored as its code") {
		t.Errorf("empty: %+v", r)
	}
	if r := by["huge"]; r.Status != StatusError || !strings.Contains(r.Error, "limit") || !math.IsNaN(r.RUBY) {
		t.Errorf("huge: %+v", r)
	}
	st := Analyze("r", rows, AnalysisOptions{Resamples: 50, Seed: 1})
	found := false
	for _, s := range st {
		if s.Scope == ScopeAll && s.Metric == string(MetricRUBY) && s.Target == string(TargetCA) && s.Statistic == StatSpearman {
			found = true
			// Three usable rows (same, wrong, empty; none has no translation, huge is an
			// error): RUBY 1 > x > 0 and CA 1 > 0.5 > 0.
			if s.N != 3 || !near(s.Value, 1, 1e-12) {
				t.Errorf("spearman %+v", s)
			}
		}
		if s.Scope == ScopeAll && s.Metric == string(MetricRUBY) && s.Statistic == StatCounterexamples && s.Value != 0 {
			t.Errorf("counterexamples %+v", s)
		}
	}
	if !found {
		t.Error("no spearman row")
	}
	var buf bytes.Buffer
	Summary(&buf, rows, st)
	if !strings.Contains(buf.String(), "paper: mppSMT") || !strings.Contains(buf.String(), "RUBY - BLEU") {
		t.Errorf("summary:\n%s", buf.String())
	}
}

// CrystalBLEU's trivial n-grams counted problem by problem, in two accumulators
// merged in either order, are TrivialNgrams over each language's references.
func TestTrivialAccMergesToTrivialNgrams(t *testing.T) {
	var problems []schemas.Problem
	corpora := map[string][][]string{}
	for i := range 6 {
		py := "def f(x):\n    return x + " + strings.Repeat("1 + ", i) + "0"
		java := "static int f(int x) { return x * " + strings.Repeat("x * ", i%3) + "1; }"
		problems = append(problems, schemas.Problem{ID: string(rune('a' + i)), Functions: []schemas.Function{
			{Lang: "python", Code: py}, {Lang: "java", Code: java}, {Lang: "cobol", Code: "x"}}})
		for lang, code := range map[string]string{"python": py, "java": java} {
			pr, err := Parse(lang, code)
			if err != nil {
				t.Fatal(err)
			}
			corpora[lang] = append(corpora[lang], pr.Tokens)
		}
	}
	const k = 7
	for _, split := range []int{0, 2, 5} {
		var a, b TrivialAcc
		for i, p := range problems {
			if i < split {
				a.Add(p)
			} else {
				b.Add(p)
			}
		}
		if split%2 == 0 {
			a.Merge(&b)
		} else {
			b.Merge(&a)
			a = b
		}
		got := a.Trivial(k).Sets()
		if len(got) != 2 {
			t.Fatalf("split %d: languages %v", split, got)
		}
		for lang, c := range corpora {
			want := TrivialNgrams(c, k)
			if len(want) != k || fmt.Sprint(got[lang]) != fmt.Sprint(want) {
				t.Errorf("split %d, %s: %v, want %v", split, lang, got[lang], want)
			}
		}
	}
}

// The usable rows gathered in any order and split give the analysis of the rows
// in SortRows order, bootstraps included.
func TestRowsAccOrderFree(t *testing.T) {
	var rows []schemas.SimilarityRow
	for i := range 30 {
		r := simRow(fmt.Sprintf("t%d", i%3), float64(i%7)/7, float64(i%5)/5, float64(i%4)/4, int32(i%6))
		r.ProblemID = fmt.Sprintf("P%02d", i/3)
		r.Error = "dropped by SlimRow"
		rows = append(rows, r)
	}
	sorted := append([]schemas.SimilarityRow(nil), rows...)
	SortRows(sorted)
	o := AnalysisOptions{Resamples: 30, Seed: 5}
	want := fmt.Sprint(Analyze("r", sorted, o))
	for _, split := range []int{0, 11, 29} {
		var a, b RowsAcc
		for i := len(rows) - 1; i >= 0; i-- { // reversed
			if i < split {
				a.Add(rows[i])
			} else {
				b.Add(rows[i])
			}
		}
		b.Merge(&a)
		got := b.Sorted()
		if got[0].Error != "" {
			t.Errorf("rows not slimmed: %+v", got[0])
		}
		if fmt.Sprint(Analyze("r", got, o)) != want {
			t.Errorf("split %d: the analysis differs", split)
		}
	}
}

// CodeBLEU's weighted n-gram match is the same number, to the last bit, every
// time: the rank correlations' ties and the bootstrap intervals depend on it.
func TestWeightedNgramDeterministic(t *testing.T) {
	// Many distinct unigrams of both weights, with various counts.
	var ref, hyp strings.Builder
	ref.WriteString("def f(x):\n")
	hyp.WriteString("def f(x):\n")
	for i := range 60 {
		line := fmt.Sprintf("    v%d = x + %d\n", i, i%7)
		for range i % 5 {
			line += fmt.Sprintf("    if v%d > %d and not v%d:\n        v%d = v%d * %d\n", i, i, i, i, i, i%3)
		}
		ref.WriteString(line)
		if i%3 != 0 {
			hyp.WriteString(line)
		}
	}
	ref.WriteString("    return x\n")
	hyp.WriteString("    return x\n")
	r, err := Prepare("python", ref.String(), DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	h, err := Prepare("python", hyp.String(), DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	score := func() float64 {
		return weightedNgram(r.Prog.Lang, r.Prog.Tokens, r.Ngrams, h.Ngrams, len(r.Hashes), len(h.Hashes))
	}
	first := score()
	for range 200 {
		if got := score(); got != first {
			t.Fatalf("weighted n-gram match %v, then %v", first, got)
		}
	}
}
