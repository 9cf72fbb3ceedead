package mbta

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"transmute/schemas"
	"transmute/transforms/score"
	"transmute/transforms/score/scoretest"
)

// randomGroups makes the groups of one key as Execute does: one per problem, with
// mutants of random operators and verdicts (some problems all anomalous or without
// mutants), the original's result rows (some samples > 0, failed oracles,
// language-dependent and nondeterministic tests) and funnel counts.
func randomGroups(rng *rand.Rand, tgt string) []Group {
	verdicts := []string{score.Killed, score.Killed, score.Survived, score.Anomalous}
	ops := []string{"AORB", "ROR", "COI", "LOI"}
	statuses := []schemas.Status{schemas.StatusOK, schemas.StatusOK, schemas.StatusCompileError, schemas.StatusRuntimeError}
	var gs []Group
	for p := 0; p < 1+rng.IntN(15); p++ {
		id := fmt.Sprintf("P%02d", p)
		g := Group{Translator: "t", Corpus: "c", SrcLang: "java", TgtLang: tgt, ProblemID: id}
		for i := 0; i < rng.IntN(9); i++ {
			g.Mutants = append(g.Mutants, schemas.MutantResultRow{Translator: "t", ProblemID: id, VariantID: fmt.Sprint(i),
				Operator: ops[rng.IntN(len(ops))], SrcLang: "java", TgtLang: tgt, Verdict: verdicts[rng.IntN(len(verdicts))]})
		}
		samples, tests := 1+rng.IntN(2), rng.IntN(6)
		for s := 0; s < samples; s++ {
			prog := statuses[rng.IntN(len(statuses))]
			for i := 0; i < tests; i++ {
				r := schemas.ResultRow{Translator: "t", Corpus: "c", SrcLang: "java", TgtLang: tgt, ProblemID: id,
					Sample: int32(s), Oracle: score.OracleSource, TestIndex: int32(i), LangDependent: rng.IntN(4) == 0,
					Nondeterministic: rng.IntN(12) == 0, ProgramStatus: prog, Status: prog, OracleStatus: schemas.StatusOK}
				if rng.IntN(8) == 0 {
					r.OracleStatus = schemas.StatusRuntimeError
				}
				r.Match = prog == schemas.StatusOK && r.OracleStatus == schemas.StatusOK && rng.IntN(3) > 0
				r.MatchCppConversions = r.Match
				g.Results = append(g.Results, r)
			}
		}
		g.Funnel = FunnelCounts{NonAnomalous: rng.Int64N(5), TranslationOutputs: rng.Int64N(5), Compilable: rng.Int64N(4),
			Timeouts: rng.Int64N(2), Exceptions: rng.Int64N(2), NonAnomalousTranslations: rng.Int64N(3)}
		gs = append(gs, g)
	}
	return gs
}

// hasMetric reports whether rows have a row of metric m.
func hasMetric(rows []schemas.ScoreRow, m schemas.Metric) bool {
	for _, r := range rows {
		if r.Metric == m {
			return true
		}
	}
	return false
}

// TestScoreAccEqualsScore: one accumulator over a key's groups, added in any
// order, gives exactly Score's rows, correlations included.
func TestScoreAccEqualsScore(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 26))
	corr := 0
	for trial := 0; trial < 300; trial++ {
		gs := randomGroups(rng, []string{schemas.Python, schemas.Cpp}[trial%2])
		k := gs[0].Key()
		want := Score("r", k, append([]Group(nil), gs...))
		var a ScoreAcc
		for _, i := range rng.Perm(len(gs)) {
			a.Add(gs[i])
		}
		if a.Key != k {
			t.Fatalf("trial %d: key %+v, want %+v", trial, a.Key, k)
		}
		got := a.Scores("r", k)
		if err := scoretest.Same(got, want); err != nil {
			t.Fatalf("trial %d (%d groups): %v", trial, len(gs), err)
		}
		if hasMetric(got, schemas.MetricCorrPearsonMTSCA) {
			corr++
		}
	}
	// The comparison must cover the per-problem records, not only the counts.
	if corr < 50 {
		t.Errorf("only %d of 300 trials had an MTS-CA correlation", corr)
	}
	if (&ScoreAcc{}).Scores("r", score.Key{}) != nil {
		t.Error("scores from no groups")
	}
}

// TestScoreAccMergeAnySplit: the groups dealt at random into accumulators that are
// merged in a random tree (as bundles and workers give) give exactly Score's rows.
func TestScoreAccMergeAnySplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	for trial := 0; trial < 300; trial++ {
		gs := randomGroups(rng, schemas.Python)
		k := gs[0].Key()
		want := Score("r", k, append([]Group(nil), gs...))
		parts := make([]*ScoreAcc, 1+rng.IntN(6))
		for i := range parts {
			parts[i] = &ScoreAcc{}
		}
		for _, i := range rng.Perm(len(gs)) {
			parts[rng.IntN(len(parts))].Add(gs[i])
		}
		acc := scoretest.MergeTree(rng, parts)
		if acc.Key != k || acc.Added != len(gs) {
			t.Fatalf("trial %d: key %+v, %d groups; want %+v, %d", trial, acc.Key, acc.Added, k, len(gs))
		}
		if err := scoretest.Same(acc.Scores("r", k), want); err != nil {
			t.Fatalf("trial %d (%d groups): %v", trial, len(gs), err)
		}
	}
}

// TestScoreAccGob: an accumulator survives the gob coder the pipeline registers for
// it, and the decoded one merges and scores as the original.
func TestScoreAccGob(t *testing.T) {
	gs := randomGroups(rand.New(rand.NewPCG(1, 2)), schemas.Cpp)
	for len(gs) < 4 {
		gs = append(gs, randomGroups(rand.New(rand.NewPCG(uint64(len(gs)), 3)), schemas.Cpp)...)
	}
	k := gs[0].Key()
	var a ScoreAcc
	for _, g := range gs[:len(gs)/2] {
		a.Add(g)
	}
	b := scoretest.GobCopy(t, &a)
	if err := scoretest.Same(b.Scores("r", k), a.Scores("r", k)); err != nil {
		t.Fatal("decoded:", err)
	}
	var rest ScoreAcc
	for _, g := range gs[len(gs)/2:] {
		rest.Add(g)
	}
	b.Merge(&rest)
	if err := scoretest.Same(b.Scores("r", k), Score("r", k, gs)); err != nil {
		t.Fatal("decoded and merged:", err)
	}
}
