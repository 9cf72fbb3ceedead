package main

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"gocloud.dev/blob"

	"transmute/io/sink"
	"transmute/pipelines"
	"transmute/schemas"
)

// augmentJob is --job augment: new tests for every problem of the corpora, valid by
// the golds, and the augmented corpus as JSONL. It takes the seed and the mutant cap
// of the MBTA flags (--mutation-seed, --max-mutants) rather than flags of its own.
func augmentJob(seed int64, maxMutants int) jobDef {
	return jobDef{
		tables:        pipelines.AugmentTables,
		variantLimits: true,
		noTranslators: true,
		build: func(s beam.Scope, c pipelines.Config) error {
			pipelines.BuildAugment(s, c, pipelines.AugmentOptions{Seed: seed, MaxMutants: maxMutants})
			return nil
		},
		finish: pipelines.FinishAugment,
		headline: func(c pipelines.Config, m *pipelines.Manifest) string {
			return fmt.Sprintf("run %s (augment): %d problems, %d tests, %d error rows in %.0fs; corpus %s/%s",
				c.Run, m.Counts["augment"], m.Counts["augmented_tests"], m.Counts["errors"], m.Seconds, c.Output, pipelines.AugmentCorpusKey)
		},
		summary: printAugmentSummary,
	}
}

// printAugmentSummary prints the counts the run log needs: problems with at least
// 100 valid new tests, the drop reasons, the reduced suites and the mutants killed.
// It writes the augmented corpus first: the summary runs on the published tables.
func printAugmentSummary(ctx context.Context, w io.Writer, b *blob.Bucket) error {
	if err := pipelines.WriteAugmentCorpus(ctx, b); err != nil {
		return fmt.Errorf("augmented corpus: %w", err)
	}
	rows, err := sink.Read[schemas.AugmentRow](ctx, b, "augment")
	if err != nil {
		return err
	}
	drops, err := sink.Read[schemas.AugmentDropRow](ctx, b, "augment_drops")
	if err != nil {
		return err
	}
	var cand, valid, dep, red, orig, mut, kOrig, kAll, kRed, over100 int
	var gen, val, redS float64
	for _, r := range rows {
		cand += int(r.Candidates)
		valid += int(r.Valid)
		dep += int(r.LangDependent)
		red += int(r.Reduced)
		orig += int(r.Original)
		mut += int(r.Mutants)
		kOrig += int(r.KilledOriginal)
		kAll += int(r.KilledAll)
		kRed += int(r.KilledReduced)
		gen, val, redS = gen+r.GenerateSeconds, val+r.ValidateSeconds, redS+r.ReduceSeconds
		if r.Valid >= 100 {
			over100++
		}
	}
	fmt.Fprintf(w, "%d problems: %d with >= 100 valid new tests (%.1f%%)\n", len(rows), over100, 100*float64(over100)/float64(max(1, len(rows))))
	fmt.Fprintf(w, "tests: %d original, %d generated, %d valid (%d language-dependent), reduced suites %d in all\n", orig, cand, valid, dep, red)
	fmt.Fprintf(w, "mutants of the golds: %d; killed by the original tests %d, by all %d, by the reduced suites %d\n", mut, kOrig, kAll, kRed)
	by := map[string]int{}
	for _, d := range drops {
		by[d.Reason] += int(d.Count)
	}
	fmt.Fprintf(w, "dropped: %v\n", by)
	fmt.Fprintf(w, "seconds (summed over problems, which run concurrently): generate %.0f, validate %.0f, reduce %.0f\n", gen, val, redS)
	return nil
}
