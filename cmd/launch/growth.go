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
	"transmute/transforms/growth"
	"transmute/transforms/profile"
)

// growthJob is --job growth: complexity growth of the golds and the passing
// translations of TRACE tasks (docs/GROWTH.md). It takes the efficiency job's
// --limit (tasks per direction), --cost and profile limits rather than flags of
// its own.
func growthJob() jobDef {
	options := func(c pipelines.Config) (pipelines.GrowthOptions, error) {
		o := pipelines.GrowthOptions{PerDirection: c.Limit, Cost: *effCost, TimeLimit: *effTimeLimit,
			MemoryBytes: *effMemoryMB << 20, Growth: growth.Options{Seed: 1}}
		return o, pipelines.CheckCost(o.Cost)
	}
	return jobDef{
		tables: pipelines.GrowthTables,
		check:  func(c pipelines.Config) error { _, err := options(c); return err },
		build: func(s beam.Scope, c pipelines.Config) error {
			o, err := options(c)
			if err == nil {
				pipelines.BuildGrowth(s, c, o)
			}
			return err
		},
		finish: pipelines.FinishGrowth,
		headline: func(c pipelines.Config, m *pipelines.Manifest) string {
			return fmt.Sprintf("run %s (growth): %d growth rows, %d error rows in %.0fs; tables under %s",
				c.Run, m.Counts["growth"], m.Counts["errors"], m.Seconds, c.Output)
		},
		summary: func(ctx context.Context, w io.Writer, b *blob.Bucket) error {
			rows, err := sink.Read[schemas.GrowthRow](ctx, b, "growth")
			if err != nil {
				return err
			}
			growth.PrintSummary(w, rows)
			profile.StopJavacServer()
			return nil
		},
	}
}
