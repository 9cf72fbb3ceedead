package score

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"transmute/schemas"
	"transmute/transforms/score/scoretest"
)

// randomRows makes the result rows of one key as the Execute stage does: per
// problem and sample one program (one program status), per test one row for each
// oracle; tests are language-dependent or nondeterministic per problem and test,
// oracles fail at random, translations match at random.
func randomRows(rng *rand.Rand, tgt string) []schemas.ResultRow {
	statuses := []schemas.Status{schemas.StatusOK, schemas.StatusOK, schemas.StatusCompileError, schemas.StatusRuntimeError,
		schemas.Status(schemas.TranslationMissing), schemas.Status(schemas.TranslationError), schemas.Status(schemas.TranslationUnsupported)}
	var rows []schemas.ResultRow
	problems := 1 + rng.IntN(12)
	samples := 1 + rng.IntN(3)
	for p := 0; p < problems; p++ {
		id := fmt.Sprintf("P%02d", p)
		tests := 1 + rng.IntN(6)
		dep := make([]bool, tests)
		nondet := make([]bool, tests)
		for i := range dep {
			dep[i] = rng.IntN(4) == 0
			nondet[i] = rng.IntN(10) == 0
		}
		for s := 0; s < samples; s++ {
			prog := statuses[rng.IntN(len(statuses))]
			for i := 0; i < tests; i++ {
				for _, o := range []string{OracleSource, OracleTargetGold} {
					r := schemas.ResultRow{Translator: "m", Corpus: "c", SrcLang: "java", TgtLang: tgt, ProblemID: id,
						Sample: int32(s), Oracle: o, TestIndex: int32(i), LangDependent: dep[i], Nondeterministic: nondet[i],
						ProgramStatus: prog, Status: prog, OracleStatus: schemas.StatusOK}
					if rng.IntN(8) == 0 {
						r.OracleStatus = schemas.StatusRuntimeError
					}
					r.Match = prog == schemas.StatusOK && r.OracleStatus == schemas.StatusOK && rng.IntN(3) > 0
					r.MatchCppConversions = r.Match || (r.OracleStatus == schemas.StatusOK && rng.IntN(4) == 0)
					rows = append(rows, r)
				}
			}
		}
	}
	return rows
}

// TestCAAccMergeAnySplit: the rows of a key dealt at random (any order) into
// accumulators that are merged in a random order give exactly CA's scores on all
// rows, to the last bit, as a runner's combiner lifting does.
func TestCAAccMergeAnySplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 1126))
	for trial := 0; trial < 300; trial++ {
		tgt := []string{schemas.Python, schemas.Cpp}[trial%2]
		rows := randomRows(rng, tgt)
		k := KeyOf(rows[0])
		want := CA("r", k, rows)
		if len(want) == 0 {
			t.Fatal("no scores")
		}
		parts := make([]*CAAcc, 1+rng.IntN(6))
		for i := range parts {
			parts[i] = &CAAcc{}
		}
		for _, i := range rng.Perm(len(rows)) {
			parts[rng.IntN(len(parts))].Add(rows[i])
		}
		acc := scoretest.MergeTree(rng, parts)
		if acc.Key != k {
			t.Fatalf("trial %d: key %+v, want %+v", trial, acc.Key, k)
		}
		if err := scoretest.Same(acc.Scores("r", k), want); err != nil {
			t.Fatalf("trial %d (%d rows): %v", trial, len(rows), err)
		}
	}
}

// TestCAAccMergeEmpty: merging empty accumulators (a bundle without rows of a key)
// changes nothing, and the merged-from accumulator is left as it was.
func TestCAAccMergeEmpty(t *testing.T) {
	rows := randomRows(rand.New(rand.NewPCG(3, 4)), schemas.Python)
	k := KeyOf(rows[0])
	var a, empty CAAcc
	for _, r := range rows {
		a.Add(r)
	}
	empty.Merge(&a)
	empty.Merge(&CAAcc{})
	a.Merge(&CAAcc{})
	if err := scoretest.Same(empty.Scores("r", k), CA("r", k, rows)); err != nil {
		t.Error("merged into empty:", err)
	}
	if err := scoretest.Same(a.Scores("r", k), CA("r", k, rows)); err != nil {
		t.Error("merged from:", err)
	}
	if len((&CAAcc{}).Scores("r", k)) != 0 {
		t.Error("scores from no rows")
	}
}

// TestCACoverage: 3 translations (one wrong) of a 30-problem direction: pass_rate
// counts the 27 untranslated problems as failures, pass_rate_attempted does not, and
// the coverage counts say why, in each oracle and subset.
func TestCACoverage(t *testing.T) {
	var rows []schemas.ResultRow
	for p := 0; p < 30; p++ {
		prog := schemas.Status(schemas.TranslationMissing)
		switch {
		case p < 3:
			prog = schemas.StatusOK
		case p == 3:
			prog = schemas.Status(schemas.TranslationError)
		}
		for _, o := range []string{OracleSource, OracleTargetGold} {
			for ti := 0; ti < 2; ti++ {
				r := schemas.ResultRow{Translator: "m", Corpus: "c", SrcLang: "java", TgtLang: "python",
					ProblemID: fmt.Sprintf("P%02d", p), Oracle: o, TestIndex: int32(ti), ProgramStatus: prog,
					Status: schemas.StatusNoTranslation, OracleStatus: schemas.StatusOK,
					LangDependent: p == 29 && ti == 0}
				if prog == schemas.StatusOK {
					r.Status = schemas.StatusOK
					r.Match = p != 2 // P02 is the wrong translation
				}
				rows = append(rows, r)
			}
		}
	}
	k := KeyOf(rows[0])
	got := map[string]float64{}
	for _, r := range CA("r", k, rows) {
		got[r.Oracle+"/"+r.Subset+"/"+string(r.Metric)] = r.Value
	}
	for _, o := range []string{OracleSource, OracleTargetGold} {
		for _, sub := range []string{SubsetAll, SubsetLangIndependent} {
			want := map[schemas.Metric]float64{schemas.MetricProblems: 30, schemas.MetricTranslated: 3,
				schemas.MetricMissing: 26, schemas.MetricTranslationFailed: 1, schemas.MetricEvaluated: 30,
				schemas.MetricCoverage: 0.1, schemas.MetricPassRate: 2.0 / 30, schemas.MetricPassRateAttempted: 2.0 / 3}
			for m, v := range want {
				name := o + "/" + sub + "/" + string(m)
				if g, ok := got[name]; !ok || g != v {
					t.Errorf("%s = %v (present %v), want %v", name, g, ok, v)
				}
			}
		}
	}
}

// TestVerdictsAgreeWithScores: the verdicts of random rows give CA's pass_rate and
// pass_rate_attempted of both subsets, and ca_overall, by the queries docs/SCHEMAS.md
// gives for them.
func TestVerdictsAgreeWithScores(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 33))
	for trial := 0; trial < 200; trial++ {
		rows := randomRows(rng, []string{schemas.Python, schemas.Cpp}[trial%2])
		k := KeyOf(rows[0])
		want := map[string]float64{}
		for _, r := range CA("r", k, rows) {
			want[r.Oracle+"/"+r.Subset+"/"+string(r.Metric)] = r.Value
		}
		type agg struct{ n, pass, nAtt, passAtt, tests, matched int }
		got := map[string]*agg{}
		for _, v := range Verdicts(rows) {
			if v.Sample != 0 {
				continue
			}
			for _, sub := range []string{SubsetAll, SubsetLangIndependent} {
				p := v.Pass
				if sub == SubsetLangIndependent {
					p = v.PassLangIndependent
				}
				if p == nil {
					continue
				}
				a := got[v.Oracle+"/"+sub]
				if a == nil {
					a = &agg{}
					got[v.Oracle+"/"+sub] = a
				}
				a.n++
				if *p {
					a.pass++
				}
				if v.Translation == CoverageTranslated {
					a.nAtt++
					if *p {
						a.passAtt++
					}
				}
				if sub == SubsetAll {
					a.tests += int(v.Tests)
					a.matched += int(v.Matched)
				}
			}
		}
		for name, a := range got {
			if w := want[name+"/pass_rate"]; w != float64(a.pass)/float64(a.n) {
				t.Fatalf("trial %d %s: verdicts pass %d/%d, scores pass_rate %v", trial, name, a.pass, a.n, w)
			}
			if w, ok := want[name+"/pass_rate_attempted"]; (a.nAtt > 0) != ok || (ok && w != float64(a.passAtt)/float64(a.nAtt)) {
				t.Fatalf("trial %d %s: verdicts attempted %d/%d, scores %v (%v)", trial, name, a.passAtt, a.nAtt, w, ok)
			}
			if w := want[name+"/ca_overall"]; a.tests > 0 && w != float64(a.matched)/float64(a.tests) {
				t.Fatalf("trial %d %s: verdicts CA %d/%d, scores %v", trial, name, a.matched, a.tests, w)
			}
		}
		for name := range want {
			if strings.HasSuffix(name, "/pass_rate") && got[strings.TrimSuffix(name, "/pass_rate")] == nil {
				t.Fatalf("trial %d: %s without verdicts", trial, name)
			}
		}
	}
}
