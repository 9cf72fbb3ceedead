package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"gocloud.dev/blob"

	"transmute/pipelines"
	"transmute/report"
)

// jobKind names a --job.
type jobKind string

const (
	jobEvaluate    jobKind = "evaluate"
	jobMBTA        jobKind = "mbta"
	jobEfficiency  jobKind = "efficiency"
	jobConsistency jobKind = "consistency"
	jobProperties  jobKind = "properties"
	jobSimilarity  jobKind = "similarity"
	jobAugment     jobKind = "augment"
	jobGrowth      jobKind = "growth"
)

// jobDef is what one --job builds, writes and prints; one table of them keeps the
// command free of a string comparison per job at every step.
type jobDef struct {
	tables []string
	// short defaults (1 s CPU per test...) for jobs that run many variants per problem
	variantLimits bool
	// fromRun: the job reads another run's tables (--from), not corpora and translators
	fromRun bool
	// noTranslators: the job reads corpora only (augment)
	noTranslators bool
	// check validates the job's own flags before the output is touched (nil: none)
	check  func(c pipelines.Config) error
	build  func(s beam.Scope, c pipelines.Config) error
	finish func(ctx context.Context, b *blob.Bucket, m *pipelines.Manifest) error
	// headline is the one-line summary after the run; summary prints the rest.
	headline func(c pipelines.Config, m *pipelines.Manifest) string
	summary  func(ctx context.Context, w io.Writer, b *blob.Bucket) error
}

// jobs is filled by jobTable, after the flags the builders read are defined.
var jobs map[jobKind]jobDef

func jobNames() string {
	var names []string
	for k := range jobs {
		names = append(names, string(k))
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func lookupJob(name string) (jobDef, error) {
	j, ok := jobs[jobKind(name)]
	if !ok {
		return jobDef{}, fmt.Errorf("unknown --job %q (want one of %s)", name, jobNames())
	}
	return j, nil
}

func evaluateJob() jobDef {
	return jobDef{
		tables: pipelines.Tables,
		build:  func(s beam.Scope, c pipelines.Config) error { pipelines.BuildEvaluate(s, c); return nil },
		finish: func(ctx context.Context, b *blob.Bucket, m *pipelines.Manifest) error {
			return pipelines.Finish(ctx, b, m, pipelines.Tables)
		},
		headline: func(c pipelines.Config, m *pipelines.Manifest) string {
			return fmt.Sprintf("run %s: %d problems, %d translations, %d executions, %d error rows in %.0fs; tables under %s",
				c.Run, m.Counts["problems"], m.Counts["translations"], m.Counts["executions"], m.Counts["errors"], m.Seconds, c.Output)
		},
		summary: report.PrintSummary,
	}
}

func consistencyJob() jobDef {
	return jobDef{
		tables:        pipelines.ConsistencyTables,
		variantLimits: true,
		build:         func(s beam.Scope, c pipelines.Config) error { pipelines.BuildConsistency(s, c); return nil },
		finish:        pipelines.FinishConsistency,
		headline: func(c pipelines.Config, m *pipelines.Manifest) string {
			return fmt.Sprintf("run %s (consistency): %d variants, %d translations, %d pairs, %d repairs, %d error rows in %.0fs; tables under %s",
				c.Run, m.Counts["variants"], m.Counts["translations"], m.Counts["consistency_results"], m.Counts["repairs"],
				m.Counts["errors"], m.Seconds, c.Output)
		},
		summary: report.PrintConsistencySummary,
	}
}

// validate checks the config as far as the job needs it.
func (j jobDef) validate(c pipelines.Config) error {
	if j.fromRun {
		return c.ValidateSettings()
	}
	if j.noTranslators {
		if len(c.Corpora) == 0 {
			return fmt.Errorf("need at least one corpus (--corpus or a --config)")
		}
		return c.ValidateSettings()
	}
	return c.Validate()
}

func similarityJob() jobDef {
	var summary string // FinishSimilarity's analysis, printed after the publish
	return jobDef{
		tables:  pipelines.SimilarityTables,
		fromRun: true,
		check:   func(pipelines.Config) error { _, err := similarityOptions(); return err },
		build: func(s beam.Scope, c pipelines.Config) error {
			o, err := similarityOptions()
			if err == nil {
				pipelines.BuildSimilarity(s, c, o)
			}
			return err
		},
		finish: func(ctx context.Context, b *blob.Bucket, m *pipelines.Manifest) error {
			var err error
			if summary, err = pipelines.FinishSimilarity(ctx, b, m); err != nil {
				return fmt.Errorf("similarity analysis: %w", err)
			}
			return nil
		},
		headline: func(c pipelines.Config, m *pipelines.Manifest) string {
			return fmt.Sprintf("run %s (similarity): %d rows, %d statistics in %.0fs; tables under %s",
				c.Run, m.Counts["similarity"], m.Counts["similarity_stats"], m.Seconds, c.Output)
		},
		summary: func(_ context.Context, w io.Writer, _ *blob.Bucket) error {
			_, err := fmt.Fprint(w, summary)
			return err
		},
	}
}
