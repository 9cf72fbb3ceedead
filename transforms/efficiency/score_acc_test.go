package efficiency

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"transmute/schemas"
	"transmute/transforms/score/scoretest"
)

// randomOutcomes makes scored task outcomes over two directions: translators that
// pass or not, profiles of the ground truth and the passing translations with
// random CPU, memory, CV and overhead (and the details and timestamps a profile
// row carries), some tasks without a stress suite; ScoreTask scores each.
// The floors are the default (three pooled stds, wide enough here that some tasks
// have no signal) or off, and the gold is in the reference set or not.
func randomOutcomes(rng *rand.Rand) []TaskOutcome {
	var outs []TaskOutcome
	opt := DefaultScoreOptions
	opt.RefGold = rng.IntN(2) == 0
	if rng.IntN(4) == 0 {
		opt.Resolution = Resolution{}
	}
	for _, d := range [][2]string{{"cpp", "java"}, {"java", "python"}} {
		for i := 0; i < 2+rng.IntN(5); i++ {
			o := TaskOutcome{Task: schemas.Task{ProblemID: fmt.Sprintf("T%02d", i), Corpus: "trace", SrcLang: d[0], TgtLang: d[1]}}
			if rng.IntN(6) == 0 {
				o.NoSuite = true
			}
			prof := func(role schemas.Role, tr string) schemas.ProfileRow {
				correct := rng.IntN(4) > 0
				st := schemas.Status("ok")
				if rng.IntN(10) == 0 {
					st = schemas.StatusTimeout
				}
				return schemas.ProfileRow{Run: "r", ProblemID: o.Task.ProblemID, Corpus: "trace", SrcLang: d[0], TgtLang: d[1],
					Role: role, Translator: tr, Status: st, Detail: "detail", PassDefault: true, StressMatch: correct,
					Correct: correct, Tests: 3, Repetitions: int32(rng.IntN(6)), MeasuredFrom: "2026-11-26T00:00:00Z",
					MeasuredTo: "2026-11-26T00:00:01Z", CPUMeanMs: float64(10 + rng.IntN(300)), CPUCV: rng.Float64() / 10,
					RSSMeanKB: float64(1000 + rng.IntN(5000)), OverheadCPUMs: rng.Float64() * 20, WallMean: 1,
					CPUStdMs: rng.Float64() * 40, RSSStdKB: rng.Float64() * 600}
			}
			if !o.NoSuite {
				o.Profiles = append(o.Profiles, prof(schemas.RoleGroundTruth, ""))
				o.Profiles[0].Correct = true
			}
			for _, tr := range []string{"X", "Y", "Z"} {
				if rng.IntN(8) == 0 {
					continue // not evaluated on this task
				}
				pass := rng.IntN(3) > 0
				o.Translators = append(o.Translators, tr)
				o.PassDefault = append(o.PassDefault, pass)
				if pass && !o.NoSuite {
					o.Profiles = append(o.Profiles, prof(schemas.RoleTranslation, tr))
				}
			}
			if !o.NoSuite {
				ScoreTask(&o, opt)
			}
			outs = append(outs, o)
		}
	}
	return outs
}

// TestScoreAccEqualsAggregate: the accumulator's slim task records, added in any
// order, dealt into accumulators merged in a random tree, give exactly
// Aggregate's rows on the same outcomes (Beyond, medians, bootstrap intervals,
// correlations, measurement figures), and survive the gob coder.
func TestScoreAccEqualsAggregate(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 11))
	rows, scored, noSignal := 0, 0, 0
	for trial := 0; trial < 12; trial++ {
		outs := randomOutcomes(rng)
		for _, o := range outs {
			if o.Usable {
				scored++
				if o.NoSignalTime {
					noSignal++
				}
			}
		}
		want := Aggregate("r", append([]TaskOutcome(nil), outs...))
		rows += len(want)
		parts := make([]*ScoreAcc, 1+rng.IntN(5))
		for i := range parts {
			parts[i] = &ScoreAcc{}
		}
		for _, i := range rng.Perm(len(outs)) {
			parts[rng.IntN(len(parts))].Add(outs[i])
		}
		// one part goes through the coder, as between workers
		parts[0] = scoretest.GobCopy(t, parts[0])
		acc := scoretest.MergeTree(rng, parts)
		if err := scoretest.Same(acc.ScoreRows("r"), want); err != nil {
			t.Fatalf("trial %d (%d tasks): %v", trial, len(outs), err)
		}
		for _, o := range acc.Tasks {
			for _, p := range o.Profiles {
				if p.Detail != "" || p.MeasuredFrom != "" || p.RSSMeanKB != 0 {
					t.Fatalf("profile not slimmed: %+v", p)
				}
			}
		}
	}
	if noSignal == 0 || noSignal == scored {
		t.Errorf("%d of %d scored tasks without signal: the floors are not exercised", noSignal, scored)
	}
	if rows < 12*50 {
		t.Errorf("only %d score rows in 12 trials: the outcomes score too little", rows)
	}
	if (&ScoreAcc{}).ScoreRows("r") != nil {
		t.Error("scores from no tasks")
	}
}
