package pipelines

import (
	"bytes"
	"context"
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"gocloud.dev/blob"

	"transmute/io/blobs"
	"transmute/io/sink"
	"transmute/schemas"
	"transmute/transforms/similarity"
)

// SimilarityTables are written by the similarity job (seed 003): one row per
// translation, and the correlations of the analysis.
var SimilarityTables = []string{"similarity", "similarity_stats"}

// SimilarityOptions: From is the output of an evaluate job (its problems,
// translations and results tables); Workers scores problems in parallel (0: one per
// CPU); Resamples and Seed drive the bootstrap intervals.
type SimilarityOptions struct {
	From      string
	Workers   int
	Resamples int
	Seed      uint64
}

func init() {
	beam.RegisterType(reflect.TypeOf((*similarityFn)(nil)).Elem())
	registerTable[schemas.SimilarityRow]()
	registerTable[schemas.SimilarityStatRow]()
}

// similarityFn reads an evaluate job's tables and scores every translation
// against its reference (transforms/similarity, with its own worker pool: Prism
// runs the stage as one bundle).
type similarityFn struct {
	From    string
	Run     string
	Workers int
}

func (f *similarityFn) ProcessElement(ctx context.Context, _ []byte, emit func(schemas.SimilarityRow)) error {
	b, err := blobs.Open(ctx, f.From)
	if err != nil {
		return err
	}
	defer b.Close()
	problems, err := sink.Read[schemas.Problem](ctx, b, "problems")
	if err != nil {
		return fmt.Errorf("similarity: reading problems of %s: %w", f.From, err)
	}
	trs, err := sink.Read[schemas.TranslationRow](ctx, b, "translations")
	if err != nil {
		return fmt.Errorf("similarity: reading translations of %s: %w", f.From, err)
	}
	results, err := sink.Read[schemas.ResultRow](ctx, b, "results")
	if err != nil {
		return fmt.Errorf("similarity: reading results of %s: %w", f.From, err)
	}
	for _, r := range similarity.ScoreAll(f.Run, problems, trs, results, similarity.DefaultOptions, f.Workers) {
		emit(r)
	}
	return nil
}

// BuildSimilarity adds the similarity job: score the translations of an evaluate
// output (o.From) and write the similarity table; FinishSimilarity then computes the
// analysis.
func BuildSimilarity(s beam.Scope, c Config, o SimilarityOptions) {
	c = c.WithDefaults()
	s = s.Scope("Similarity")
	rows := beam.ParDo(s, &similarityFn{From: o.From, Run: c.Run, Workers: o.Workers}, beam.Impulse(s))
	writeTable[schemas.SimilarityRow](s, c.Output, "similarity", c.RowsPerFile, rows)
}

// FinishSimilarity reads the similarity rows back, computes the correlations
// (similarity_stats) and the manifest, and returns the summary (launch writes it to
// summary.txt after the publish).
func FinishSimilarity(ctx context.Context, b *blob.Bucket, m *Manifest, o SimilarityOptions) (string, error) {
	rows, err := sink.Read[schemas.SimilarityRow](ctx, b, "similarity")
	if err != nil {
		return "", err
	}
	if len(rows) == 0 {
		if _, err := sink.WriteShard[schemas.SimilarityRow](ctx, b, "similarity", nil); err != nil {
			return "", err
		}
	}
	similarity.SortRows(rows)
	st := similarity.Analyze(m.Run, rows, similarity.AnalysisOptions{Resamples: o.Resamples, Seed: o.Seed, Workers: o.Workers})
	if _, err := sink.WriteShard(ctx, b, "similarity_stats", st); err != nil {
		return "", err
	}
	var buf bytes.Buffer
	similarity.Summary(&buf, rows, st)
	return buf.String(), Finish(ctx, b, m, SimilarityTables)
}
