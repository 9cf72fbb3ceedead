package main

import (
	"context"
	"fmt"
	"os"

	"gocloud.dev/blob"

	"transmute/io/blobs"
	"transmute/io/sink"
	"transmute/report"
	"transmute/report/table15"
	"transmute/schemas"
)

// table15Report compares the run at args[0] (evaluate or efficiency job) with seed
// 002's Table 15; args[1], when given, is an efficiency run whose Beyond figures,
// profiles and correlations are compared too. An efficiency run given alone serves
// for both.
func table15Report(ctx context.Context, args []string) error {
	var in table15.Input
	b, err := blobs.Open(ctx, args[0])
	if err != nil {
		return err
	}
	defer b.Close()
	if in.Scores, err = sink.Read[schemas.ScoreRow](ctx, b, "scores"); err != nil {
		return err
	}
	if in.Results, err = sink.Read[schemas.ResultRow](ctx, b, "results"); err != nil {
		return err
	}
	eff := b
	if len(args) > 1 {
		if eff, err = blobs.Open(ctx, args[1]); err != nil {
			return err
		}
		defer eff.Close()
		if in.EffScores, err = sink.Read[schemas.ScoreRow](ctx, eff, "scores"); err != nil {
			return err
		}
	} else {
		in.EffScores = in.Scores
	}
	if in.Profiles, err = sink.Read[schemas.ProfileRow](ctx, eff, "profiles"); err != nil {
		return err
	}
	if len(in.Profiles) == 0 && len(args) == 1 {
		in.EffScores = nil // an evaluate run: no Beyond
	}
	return table15.Print(os.Stdout, in)
}

// table14Report prints, for the efficiency run at out, only the comparison of its
// B^P order with Table 15 (rho per direction with bootstrap intervals, with and
// without TRACE's prompt-strategy models) and Table 14 beside the paper's.
func table14Report(ctx context.Context, b *blob.Bucket) error {
	scores, err := sink.Read[schemas.ScoreRow](ctx, b, "scores")
	if err != nil {
		return err
	}
	profiles, err := sink.Read[schemas.ProfileRow](ctx, b, "profiles")
	if err != nil {
		return err
	}
	if len(profiles) == 0 {
		return fmt.Errorf("table14: no profiles: not an efficiency run")
	}
	return table15.PrintComparison(os.Stdout, scores, profiles, 0)
}

// reproReport compares two efficiency runs of the same tasks (report.CompareRuns).
func reproReport(ctx context.Context, outA, outB string) error {
	var runs [2][]schemas.ProfileRow
	for i, out := range []string{outA, outB} {
		b, err := blobs.Open(ctx, out)
		if err != nil {
			return err
		}
		runs[i], err = sink.Read[schemas.ProfileRow](ctx, b, "profiles")
		b.Close()
		if err != nil {
			return err
		}
		if len(runs[i]) == 0 {
			return fmt.Errorf("repro: %s has no profiles: not an efficiency run", out)
		}
	}
	report.CompareRuns(runs[0], runs[1]).Print(os.Stdout)
	return nil
}
