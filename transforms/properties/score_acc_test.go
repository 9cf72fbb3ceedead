package properties

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"transmute/schemas"
	"transmute/transforms/score"
	"transmute/transforms/score/scoretest"
)

// randomPropRows makes result rows of one key: instances of random properties
// (a few of a name Score does not know), violated at random.
func randomPropRows(rng *rand.Rand) []schemas.PropertyResultRow {
	var rows []schemas.PropertyResultRow
	for i := 0; i < 1+rng.IntN(200); i++ {
		name := "notAProperty"
		if rng.IntN(30) > 0 {
			name = All[rng.IntN(len(All))].Name
		}
		rows = append(rows, schemas.PropertyResultRow{Translator: "t", Corpus: "c", SrcLang: "java", TgtLang: "python",
			ProblemID: fmt.Sprint("P", rng.IntN(20)), Property: name, Violated: rng.IntN(5) == 0})
	}
	return rows
}

// TestScoreAccEqualsScore: one accumulator over a key's rows (any order) gives
// exactly Score's rows; with the hand-counted TV of the rows.
func TestScoreAccEqualsScore(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for trial := 0; trial < 200; trial++ {
		rows := randomPropRows(rng)
		k := score.Key{Translator: "t", Corpus: "c", SrcLang: "java", TgtLang: "python"}
		want := Score("r", k, rows)
		var a ScoreAcc
		for _, i := range rng.Perm(len(rows)) {
			a.Add(rows[i])
		}
		if a.Key != k {
			t.Fatalf("key %+v, want %+v", a.Key, k)
		}
		got := a.Scores("r", k)
		if err := scoretest.Same(got, want); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		tv := 0
		for _, r := range rows {
			if r.Violated {
				tv++
			}
		}
		for _, r := range got {
			if r.Metric == MetricTV && (r.Value != float64(tv) || r.N != int64(len(rows))) {
				t.Fatalf("trial %d: tv %v over %d, want %d over %d", trial, r.Value, r.N, tv, len(rows))
			}
		}
	}
	if (&ScoreAcc{}).Scores("r", score.Key{}) != nil {
		t.Error("scores from no rows")
	}
}

// TestScoreAccMergeAnySplit: rows dealt at random into accumulators merged in a
// random tree give exactly Score's rows, and gob round trips lose nothing.
func TestScoreAccMergeAnySplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	for trial := 0; trial < 200; trial++ {
		rows := randomPropRows(rng)
		k := score.Key{Translator: "t", Corpus: "c", SrcLang: "java", TgtLang: "python"}
		want := Score("r", k, rows)
		parts := make([]*ScoreAcc, 1+rng.IntN(6))
		for i := range parts {
			parts[i] = &ScoreAcc{}
		}
		for _, i := range rng.Perm(len(rows)) {
			parts[rng.IntN(len(parts))].Add(rows[i])
		}
		if err := scoretest.Same(scoretest.MergeTree(rng, parts).Scores("r", k), want); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
	}
}

// TestScoreAccGob: a non-empty accumulator survives the gob coder the pipeline
// registers for it.
func TestScoreAccGob(t *testing.T) {
	rows := randomPropRows(rand.New(rand.NewPCG(1, 2)))
	var a ScoreAcc
	for _, r := range rows {
		a.Add(r)
	}
	b := scoretest.GobCopy(t, &a)
	if !reflect.DeepEqual(a, *b) || b.Added != len(rows) {
		t.Fatalf("decoded %+v, want %+v", b, a)
	}
	if err := scoretest.Same(b.Scores("r", a.Key), Score("r", a.Key, rows)); err != nil {
		t.Fatal(err)
	}
}
