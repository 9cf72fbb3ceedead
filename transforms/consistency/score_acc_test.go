package consistency

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"transmute/schemas"
	"transmute/transforms/score/scoretest"
)

// randomScore is a consistency score as Algorithm 1 gives, with the cases a
// threshold grid is sensitive to: exactly a grid value, one ulp around one, 0, 1,
// and NaN.
func randomScore(rng *rand.Rand) float64 {
	g := float64(1+rng.IntN(100)) / 100
	switch rng.IntN(7) {
	case 0:
		return g
	case 1:
		return math.Nextafter(g, 0)
	case 2:
		return math.Nextafter(g, 2)
	case 3:
		return float64(rng.IntN(2))
	case 4:
		if rng.IntN(10) == 0 {
			return math.NaN()
		}
	}
	return rng.Float64()
}

// randomCons makes the pairs and repairs of one key: problems in both halves, pairs
// of both kinds and labels, and repairs per metric (some of a metric Score does
// not rank by) with pass rates that rise, fall or stay.
func randomCons(rng *rand.Rand) ([]schemas.ConsistencyRow, []schemas.RepairRow) {
	var rows []schemas.ConsistencyRow
	var reps []schemas.RepairRow
	for p := 0; p < 1+rng.IntN(12); p++ {
		id := fmt.Sprintf("P%02d", p)
		half := HalfOf(id)
		for v := 0; v < rng.IntN(8); v++ {
			rows = append(rows, schemas.ConsistencyRow{Translator: "t", Corpus: "c", ProblemID: id, SrcLang: "java",
				TgtLang: "python", VariantID: fmt.Sprint(v), Kind: []string{string(KindIdentifier), string(KindLiteral)}[rng.IntN(2)],
				Half: half, LCS: randomScore(rng), ED: randomScore(rng), TFIDF: randomScore(rng), BLEU: randomScore(rng),
				ExecConsistent: rng.IntN(3) > 0})
		}
		for _, m := range append([]string{"xyz"}, func() (ms []string) {
			for _, m := range Metrics {
				ms = append(ms, string(m))
			}
			return
		}()...) {
			if rng.IntN(2) == 0 {
				continue
			}
			before := float64(rng.IntN(8)) / 7
			after := before
			acc := rng.IntN(2) == 0
			if acc {
				after = float64(rng.IntN(8)) / 7
			}
			reps = append(reps, schemas.RepairRow{Translator: "t", Corpus: "c", ProblemID: id, SrcLang: "java", TgtLang: "python",
				RankMetric: m, ExecInconsistent: int32(rng.IntN(2)), MinScore: randomScore(rng), Accepted: acc,
				PassBefore: before, PassAfter: after})
		}
	}
	return rows, reps
}

var consKey = Key{Translator: "t", Corpus: "c", SrcLang: "java", TgtLang: "python"}

// TestScoreAccEqualsScore: one accumulator over a key's pairs and repairs gives
// exactly Score's rows: thresholds, confusions at them, repairs flagged at them.
func TestScoreAccEqualsScore(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2026))
	for trial := 0; trial < 300; trial++ {
		rows, reps := randomCons(rng)
		want := Score("r", consKey, rows, reps)
		var a ScoreAcc
		a.Add(Group{Key: consKey, Results: rows, Repairs: reps})
		if err := scoretest.Same(a.Scores("r", consKey), want); err != nil {
			t.Fatalf("trial %d (%d pairs, %d repairs): %v", trial, len(rows), len(reps), err)
		}
	}
	if (&ScoreAcc{}).Scores("r", consKey) != nil {
		t.Error("scores from nothing")
	}
	// A key with repairs but no pairs still has its rows, as before.
	var a ScoreAcc
	a.Add(Group{Key: consKey})
	if err := scoretest.Same(a.Scores("r", consKey), Score("r", consKey, nil, nil)); err != nil {
		t.Error("empty key:", err)
	}
}

// TestScoreAccMergeAnySplit: pairs and repairs dealt at random, in any order, into
// accumulators merged in a random tree give exactly Score's rows (the pass-rate
// sums are added in sorted order by both).
func TestScoreAccMergeAnySplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 2026))
	for trial := 0; trial < 300; trial++ {
		rows, reps := randomCons(rng)
		want := Score("r", consKey, rows, reps)
		parts := make([]*ScoreAcc, 1+rng.IntN(6))
		for i := range parts {
			parts[i] = &ScoreAcc{}
		}
		for _, i := range rng.Perm(len(rows)) {
			parts[rng.IntN(len(parts))].Add(Group{Key: consKey, Results: rows[i : i+1]})
		}
		for _, i := range rng.Perm(len(reps)) {
			parts[rng.IntN(len(parts))].Add(Group{Key: consKey, Repairs: reps[i : i+1]})
		}
		acc := scoretest.MergeTree(rng, parts)
		if acc.Added == 0 || acc.Key != consKey {
			t.Fatalf("trial %d: key %+v", trial, acc.Key)
		}
		if err := scoretest.Same(acc.Scores("r", consKey), want); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
	}
}

// TestScoreAccGob: a non-empty accumulator survives the gob coder the pipeline
// registers for it.
func TestScoreAccGob(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	rows, reps := randomCons(rng)
	for len(rows) == 0 || len(reps) == 0 {
		rows, reps = randomCons(rng)
	}
	var a ScoreAcc
	a.Add(Group{Key: consKey, Results: rows, Repairs: reps})
	b := scoretest.GobCopy(t, &a)
	if b.Pairs != len(rows) || len(b.Problems) == 0 {
		t.Fatalf("decoded %d pairs, %d problems", b.Pairs, len(b.Problems))
	}
	if err := scoretest.Same(b.Scores("r", consKey), Score("r", consKey, rows, reps)); err != nil {
		t.Fatal(err)
	}
}
