package pipelines

import (
	"context"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"gocloud.dev/blob"

	"transmute/schemas"
	"transmute/transforms/consistency"
	"transmute/transforms/evaluate"
	"transmute/transforms/values"
)

// ConsistencyTables are the tables written by the consistency job (seed 004).
var ConsistencyTables = []string{"variants", "translations", "executions", "consistency_results", "repairs", "scores", "errors"}

func init() {
	beam.RegisterType(reflect.TypeOf((*consistencyFn)(nil)).Elem())
	register.Emitter1[consistency.Output]()
	beam.RegisterType(reflect.TypeOf((*consistency.Output)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*consistency.Group)(nil)).Elem())
	registerTable[schemas.ConsistencyRow]()
	registerTable[schemas.RepairRow]()
	beam.RegisterFunction(splitConsGroups)
}

// BuildConsistency adds the consistency job (seed 004: context-similar variants,
// Algorithm 1 and execution consistency, black-box repair) to s, wired as
// BuildMBTA is: Load, then the consistency stage on batches of problems the runner
// spreads, a score per (translator, corpus, direction), the ConsistencyTables. The
// per-test limits are MBTA's.
func BuildConsistency(s beam.Scope, c Config) {
	c = MBTADefaults(c.WithDefaults())
	items, loadErrs := Load(s, c)
	outs := consistencyStage(s, c, items)
	errs := beam.Flatten(s, loadErrs, Split[schemas.ErrorRow](s, outs, "Errors"))
	scores := ConsistencyScore(s, c.Run, outs)
	writeTable[schemas.VariantRow](s, c.Output, "variants", c.RowsPerFile, Split[schemas.VariantRow](s, outs, "Variants"))
	writeTable[schemas.TranslationRow](s, c.Output, "translations", c.RowsPerFile, Split[schemas.TranslationRow](s, outs, "Translations"))
	writeTable[schemas.ExecutionRow](s, c.Output, "executions", c.RowsPerFile, Split[schemas.ExecutionRow](s, outs, "Executions"))
	writeTable[schemas.ConsistencyRow](s, c.Output, "consistency_results", c.RowsPerFile, Split[schemas.ConsistencyRow](s, outs, "Results"))
	writeTable[schemas.RepairRow](s, c.Output, "repairs", c.RowsPerFile, Split[schemas.RepairRow](s, outs, "Repairs"))
	writeTable[schemas.ScoreRow](s, c.Output, "scores", c.RowsPerFile, scores)
	writeTable[schemas.ErrorRow](s, c.Output, "errors", c.RowsPerFile, errs)
}

// consistencyStage runs consistency.Runner on every problem of items (variants,
// their translations and executions, Algorithm 1, repair: one step, since the
// variants kept depend on the source's runs), in Batches of problems: the runner
// spreads the batches, and a batch's problems run at once on the worker's shared
// engines.
func consistencyStage(s beam.Scope, c Config, items beam.PCollection) beam.PCollection {
	s = s.Scope("Consistency")
	return beam.ParDo(s, &consistencyFn{Exec: execOf(c)}, Batches(s, items))
}

// consistencyFn runs the consistency job on a batch of problems with the worker's
// shared tools.
type consistencyFn struct {
	Exec
	runner *consistency.Runner
	tools  lazyTools
}

func (f *consistencyFn) Teardown() error {
	f.tools.release()
	return nil
}

var (
	pairsJudged        = beam.NewCounter("transmute", "consistency_pairs_judged")
	consistencyBundles = beam.NewCounter("transmute", "bundles_consistency")
)

func (f *consistencyFn) StartBundle(ctx context.Context, _ func(consistency.Output)) {
	consistencyBundles.Inc(ctx, 1)
	announceCounters(ctx, problemsDone, pairsJudged)
}

func (f *consistencyFn) ProcessElement(ctx context.Context, _ string, batch func(*evaluate.Item) bool, emit func(consistency.Output)) error {
	t, err := f.tools.get(ctx, f.toolSpec(true))
	if err != nil {
		return err
	}
	if f.runner == nil {
		table, err := consistency.DefaultTable()
		if err != nil {
			return err
		}
		f.runner = &consistency.Runner{Run: f.Run, Translators: t.translators, Engines: t.engines, Tolerance: values.DefaultTolerance,
			Limits: f.limits(),
			Table:  table, Options: consistency.DefaultOptions}
	}
	runBatch(batch, func(it evaluate.Item) consistency.Output {
		if f.Progress {
			consMeter.AddTotal(1)
		}
		return f.runner.Evaluate(ctx, it)
	}, func(out consistency.Output) {
		problemsDone.Inc(ctx, 1)
		pairsJudged.Inc(ctx, int64(len(out.Results)))
		if f.Progress {
			consMeter.Done(1)
		}
		emit(out)
	})
	return nil
}

// splitConsGroups keys one problem's pairs and repairs by score key.
func splitConsGroups(o consistency.Output, emit func(string, consistency.Group)) {
	groups := map[string]*consistency.Group{}
	get := func(tr, corpus, src, tgt string) *consistency.Group {
		k := tr + "|" + corpus + "|" + src + "|" + tgt
		if groups[k] == nil {
			groups[k] = &consistency.Group{Key: consistency.Key{Translator: tr, Corpus: corpus, SrcLang: src, TgtLang: tgt}}
		}
		return groups[k]
	}
	for _, r := range o.Results {
		g := get(r.Translator, r.Corpus, r.SrcLang, r.TgtLang)
		g.Results = append(g.Results, r)
	}
	for _, r := range o.Repairs {
		g := get(r.Translator, r.Corpus, r.SrcLang, r.TgtLang)
		g.Repairs = append(g.Repairs, r)
	}
	for k, g := range groups {
		emit(k, *g)
	}
}

// FinishConsistency is Finish for the consistency tables.
func FinishConsistency(ctx context.Context, b *blob.Bucket, m *Manifest) error {
	return Finish(ctx, b, m, ConsistencyTables)
}
