package similarity

import (
	"math"
	"sort"
	"time"

	"transmute/schemas"
)

// Row statuses.
const (
	StatusOK = "ok"
	// StatusNoTranslation: the translator has none (translation status missing or
	// unsupported). Its metrics are 0, and the analysis leaves it out: a pair
	// without a translation says nothing about how a metric tracks correctness.
	StatusNoTranslation = "no_translation"
	StatusError         = "error"
)

// hasTranslation tells a translation the translator gave, even empty or failed
// (status ok or error: a recorded empty answer, a crash), which is scored as the
// code it holds, from one it did not give at all.
func hasTranslation(status schemas.TranslationStatus) bool {
	return status != schemas.TranslationMissing && status != schemas.TranslationUnsupported
}

// Outcome is one translation's execution result: CA and pass against the target
// gold, over the tests whose oracle ran.
type Outcome struct {
	CA    float64
	Pass  bool
	Tests int
}

// TransKey names one translation.
type TransKey struct {
	Translator, ProblemID, SrcLang, TgtLang string
	Sample                                  int32
}

// TestResult is what the similarity job keeps of one result row: the test of one
// translation judged against the target gold, and whether it matched.
type TestResult struct {
	Key       TransKey
	TestIndex int32
	Match     bool
}

// TargetGoldResult is r's TestResult when its oracle is the target gold and the
// oracle ran (the only results that make CA here).
func TargetGoldResult(r schemas.ResultRow) (TestResult, bool) {
	if r.Oracle != "target_gold" || r.OracleStatus != schemas.StatusOK {
		return TestResult{}, false
	}
	return TestResult{Key: TransKey{r.Translator, r.ProblemID, r.SrcLang, r.TgtLang, r.Sample}, TestIndex: r.TestIndex,
		Match: r.Match}, true
}

// Outcomes computes each translation's CA and pass from the evaluate job's result
// rows with the target gold as oracle (OutcomesOf).
func Outcomes(results []schemas.ResultRow) map[TransKey]Outcome {
	var trs []TestResult
	for _, r := range results {
		if t, ok := TargetGoldResult(r); ok {
			trs = append(trs, t)
		}
	}
	return OutcomesOf(trs)
}

// OutcomesOf computes each translation's CA and pass from its target-gold test
// results. A TRACE task is also a TransCoder-test problem, so one translation's
// tests can appear under both corpora: each test counts once.
func OutcomesOf(results []TestResult) map[TransKey]Outcome {
	type acc struct {
		seen           map[int32]bool
		tests, matched int
	}
	accs := map[TransKey]*acc{}
	for _, r := range results {
		a := accs[r.Key]
		if a == nil {
			a = &acc{seen: map[int32]bool{}}
			accs[r.Key] = a
		}
		if a.seen[r.TestIndex] {
			continue
		}
		a.seen[r.TestIndex] = true
		a.tests++
		if r.Match {
			a.matched++
		}
	}
	out := make(map[TransKey]Outcome, len(accs))
	for k, a := range accs {
		out[k] = Outcome{CA: float64(a.matched) / float64(a.tests), Pass: a.matched == a.tests, Tests: a.tests}
	}
	return out
}

// TrivialByLang computes CrystalBLEU's ignored n-grams per language from the
// reference functions of every problem (k most frequent n-grams).
func TrivialByLang(problems []schemas.Problem, k int) map[string]map[uint64]bool {
	var a TrivialAcc
	for _, p := range problems {
		a.Add(p)
	}
	return a.Trivial(k).Sets()
}

// TrivialAcc counts the n-grams of the problems' reference functions per language,
// so that TrivialByLang can be a combiner: counts add up in any order, and the k
// most frequent (ties by hash) are the same however the problems were split.
// Fields are exported for gob.
type TrivialAcc struct {
	Counts map[string]map[uint64]int
}

// Add counts the n-grams of p's functions (those that parse) under their language.
func (a *TrivialAcc) Add(p schemas.Problem) {
	for _, f := range p.Functions {
		lang, err := NormalizeLang(f.Lang)
		if err != nil {
			continue
		}
		pr, err := Parse(lang, f.Code)
		if err != nil {
			continue
		}
		if a.Counts == nil {
			a.Counts = map[string]map[uint64]int{}
		}
		if a.Counts[lang] == nil {
			a.Counts[lang] = map[uint64]int{}
		}
		addNgramCounts(a.Counts[lang], pr.Tokens)
	}
}

// Merge adds o's counts to a.
func (a *TrivialAcc) Merge(o *TrivialAcc) {
	for lang, cs := range o.Counts {
		if a.Counts == nil {
			a.Counts = map[string]map[uint64]int{}
		}
		if a.Counts[lang] == nil {
			a.Counts[lang] = map[uint64]int{}
		}
		for h, c := range cs {
			a.Counts[lang][h] += c
		}
	}
}

// Trivial is each language's k most frequent n-grams.
func (a *TrivialAcc) Trivial(k int) Trivial {
	t := Trivial{Langs: map[string][]uint64{}}
	for lang, cs := range a.Counts {
		t.Langs[lang] = topNgrams(cs, k)
	}
	return t
}

// Trivial is CrystalBLEU's ignored n-grams per language, as sorted lists (a
// small value that a pipeline hands to every scorer).
type Trivial struct {
	Langs map[string][]uint64
}

// Sets is t as the sets Compare takes.
func (t Trivial) Sets() map[string]map[uint64]bool {
	out := map[string]map[uint64]bool{}
	for lang, hs := range t.Langs {
		out[lang] = map[uint64]bool{}
		for _, h := range hs {
			out[lang][h] = true
		}
	}
	return out
}

// CrystalK is CrystalBLEU's default number of ignored n-grams.
const CrystalK = 500

// ScoreProblem computes the similarity rows of one problem's translations: each
// against the problem's function in its target language. It never fails: a
// translation that cannot be scored gets a row with Status error.
func ScoreProblem(run string, p schemas.Problem, trs []schemas.TranslationRow, outcomes map[TransKey]Outcome,
	trivial map[string]map[uint64]bool, o Options) []schemas.SimilarityRow {
	refs := map[string]*Prepared{}
	refErr := map[string]string{}
	ref := func(lang string) (*Prepared, string) {
		if r, ok := refs[lang]; ok {
			return r, refErr[lang]
		}
		f, ok := p.Function(lang)
		var pr *Prepared
		msg := ""
		if !ok {
			msg = "problem has no " + lang + " function to compare with"
		} else if x, err := Prepare(lang, f.Code, o); err != nil {
			msg = "reference: " + err.Error()
		} else {
			pr = x
		}
		refs[lang], refErr[lang] = pr, msg
		return pr, msg
	}
	var out []schemas.SimilarityRow
	for _, t := range trs {
		start := time.Now()
		row := schemas.SimilarityRow{Run: run, Translator: t.Translator, ProblemID: t.ProblemID, SrcLang: t.SrcLang,
			TgtLang: t.TgtLang, Sample: t.Sample, Status: StatusOK, TED: -1, GED: -1, GEDLower: -1}
		nan := math.NaN()
		if oc, ok := outcomes[TransKey{t.Translator, t.ProblemID, t.SrcLang, t.TgtLang, t.Sample}]; ok {
			row.CA, row.Pass, row.Tests = oc.CA, oc.Pass, int32(oc.Tests)
		}
		setAll := func(v float64) {
			row.BLEU, row.CrystalBLEU, row.CodeBLEU, row.WeightedNgram, row.SyntaxMatch, row.DataflowMatch = v, v, v, v, v, v
			row.STS, row.RUBY, row.TRS, row.GRS = v, v, nan, nan
		}
		r, msg := ref(t.TgtLang)
		switch {
		case r == nil:
			row.Status, row.Error = StatusError, msg
			setAll(nan)
		case !hasTranslation(t.Status):
			// Defined values for the table (no code is as far from the reference as
			// code can be); the analysis leaves these rows out.
			row.Status, row.Error = StatusNoTranslation, "translation status "+string(t.Status)+": "+t.Error
			setAll(0)
			row.RubyLevel = string(LevelTokens)
			row.RefParses = r.Flat != nil
			row.RefTokens = int32(len(r.Hashes))
		default:
			if t.Status != schemas.TranslationOK {
				// Real translator output that failed (an empty recorded answer, a
				// crash): scored as the code it holds, usually none.
				row.Error = "translation status " + string(t.Status) + ": " + t.Error + " (scored as its code)"
			}
			h, err := Prepare(t.TgtLang, t.Code, o)
			if err != nil {
				row.Status, row.Error = StatusError, err.Error()
				setAll(nan)
				break
			}
			s := Compare(r, h, trivial[r.Prog.Lang], o)
			row.BLEU, row.CrystalBLEU, row.CodeBLEU = s.BLEU, s.CrystalBLEU, s.CodeBLEU
			row.WeightedNgram, row.SyntaxMatch, row.DataflowMatch = s.WeightedNgram, s.SyntaxMatch, s.DataflowMatch
			row.STS, row.TRS, row.GRS, row.RUBY, row.RubyLevel = s.STS, s.TRS, s.GRS, s.RUBY, string(s.Level)
			row.TED, row.GED, row.GEDLower = int32(s.TED), int32(s.GED), int32(s.GEDLower)
			row.GEDExact, row.GEDCapHit = s.GEDExact, s.GEDCapHit
			row.HypParses, row.RefParses = s.HypParses, s.RefParses
			row.HypTokens, row.RefTokens = int32(len(h.Hashes)), int32(len(r.Hashes))
		}
		row.Millis = float64(time.Since(start).Microseconds()) / 1000
		out = append(out, row)
	}
	return out
}

// ScoreAll scores every translation of the given tables, one problem after
// another (the similarity job spreads the problems over the runner instead). Rows
// come back sorted by translator, problem, direction.
func ScoreAll(run string, problems []schemas.Problem, translations []schemas.TranslationRow,
	results []schemas.ResultRow, o Options) []schemas.SimilarityRow {
	outcomes := Outcomes(results)
	trivial := TrivialByLang(problems, CrystalK)
	byProblem := map[string][]schemas.TranslationRow{}
	for _, t := range translations {
		if Original(t) {
			byProblem[t.ProblemID] = append(byProblem[t.ProblemID], t)
		}
	}
	var out []schemas.SimilarityRow
	for _, p := range problems {
		out = append(out, ScoreProblem(run, p, byProblem[p.ID], outcomes, trivial, o)...)
	}
	SortRows(out)
	return out
}

// Original tells the translations of the problems themselves (not of an MBTA or
// properties variant): the ones the similarity job scores.
func Original(t schemas.TranslationRow) bool {
	return t.VariantID == "" || t.VariantID == "orig"
}

// SortRows orders rows by translator, problem, direction and sample (a stable
// sort: the bootstraps resample by position).
func SortRows(rows []schemas.SimilarityRow) {
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.Translator != b.Translator {
			return a.Translator < b.Translator
		}
		if a.ProblemID != b.ProblemID {
			return a.ProblemID < b.ProblemID
		}
		if a.SrcLang+a.TgtLang != b.SrcLang+b.TgtLang {
			return a.SrcLang+a.TgtLang < b.SrcLang+b.TgtLang
		}
		return a.Sample < b.Sample
	})
}
