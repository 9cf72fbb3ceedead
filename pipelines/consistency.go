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
	"transmute/transforms/runner"
)

// ConsistencyTables are the tables written by the consistency job (TransRepair).
var ConsistencyTables = []string{"variants", "translations", "executions", "consistency_results", "repairs", "scores", "errors"}

func init() {
	for _, fn := range []any{&consExpandFn{}, &consTranslateFn{}, &consExecuteFn{}} {
		beam.RegisterType(reflect.TypeOf(fn).Elem())
	}
	register.Emitter1[consistency.Expanded]()
	register.Emitter1[consistency.Translated]()
	register.Emitter1[consistency.Output]()
	register.Iter1[consistency.Translated]()
	for _, t := range []any{consistency.Expanded{}, consistency.Translated{}, consistency.Output{}, consistency.Group{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	registerTable[schemas.ConsistencyRow]()
	registerTable[schemas.RepairRow]()
	beam.RegisterFunction(splitConsGroups)
}

// BuildConsistency adds the consistency job (TransRepair: context-similar variants,
// Algorithm 1 and execution consistency, black-box repair) to s, wired as
// BuildMBTA is: Load, Expand (generate and run the variants), Translate, Execute
// (run the translations, judge the pairs, repair), a score per (translator,
// corpus, direction), the ConsistencyTables. The per-test limits are MBTA's.
func BuildConsistency(s beam.Scope, c Config) {
	c = MBTADefaults(c.WithDefaults())
	items, loadErrs := Load(s, c)
	outs := ConsistencyExecute(s, c, ConsistencyTranslate(s, c, ConsistencyExpand(s, c, items)))
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

// ConsistencyExpand generates and runs each problem's variants
// (consistency.Runner.Expand): which variants are translated depends on the
// source's runs, so this runs before Translate. CPU-bound: batches of problems on
// the worker's shared engines (and translators, asked which directions they take).
func ConsistencyExpand(s beam.Scope, c Config, items beam.PCollection) beam.PCollection {
	s = s.Scope("Expand")
	return beam.ParDo(s, &consExpandFn{Exec: execOf(c)}, Batches(s, items))
}

// ConsistencyTranslate translates the original and the variants of each problem
// (consistency.Runner.Translate): one problem per element after a Reshuffle, no
// engines, as the evaluate job's Translate.
func ConsistencyTranslate(s beam.Scope, c Config, expanded beam.PCollection) beam.PCollection {
	s = s.Scope("Translate")
	return beam.ParDo(s, &consTranslateFn{Run: c.Run, Translators: c.Translators}, beam.Reshuffle(s, expanded))
}

// ConsistencyExecute runs each problem's translations, judges its pairs and
// repairs (consistency.Runner.Execute): in batches of problems on the worker's
// shared engines.
func ConsistencyExecute(s beam.Scope, c Config, translated beam.PCollection) beam.PCollection {
	s = s.Scope("Execute")
	return beam.ParDo(s, &consExecuteFn{Exec: execOf(c)}, Batches(s, translated))
}

var pairsJudged = beam.NewCounter("transmute", "consistency_pairs_judged")

// consRunner is the consistency.Runner of a stage's DoFn with the tools it opened.
func (x Exec) consRunner(t *tools) (*consistency.Runner, error) {
	table, err := consistency.DefaultTable()
	if err != nil {
		return nil, err
	}
	return &consistency.Runner{Tools: x.variantTools(t), Table: table, Options: consistency.DefaultOptions}, nil
}

// consExpandFn expands a batch of problems with the worker's shared tools.
type consExpandFn struct {
	Exec
	runner *consistency.Runner
	tools  lazyTools
}

func (f *consExpandFn) Teardown() error {
	f.tools.release()
	return nil
}

func (f *consExpandFn) StartBundle(ctx context.Context, _ func(consistency.Expanded)) {
	expandBundles.Inc(ctx, 1)
}

func (f *consExpandFn) ProcessElement(ctx context.Context, _ string, batch func(*evaluate.Item) bool, emit func(consistency.Expanded)) error {
	t, err := f.tools.get(ctx, f.toolSpec(true))
	if err != nil {
		return err
	}
	if f.runner == nil {
		if f.runner, err = f.consRunner(t); err != nil {
			return err
		}
	}
	runBatch(batch, func(it evaluate.Item) consistency.Expanded {
		if f.Progress {
			consMeter.AddTotal(1)
		}
		return f.runner.Expand(ctx, it)
	}, emit)
	return nil
}

// consTranslateFn translates one expanded problem with the worker's shared
// translators.
type consTranslateFn struct {
	Run         string
	Translators []string

	runner *consistency.Runner
	tools  lazyTools
}

func (f *consTranslateFn) Teardown() error {
	f.tools.release()
	return nil
}

func (f *consTranslateFn) StartBundle(ctx context.Context, _ func(consistency.Translated)) {
	translateBundles.Inc(ctx, 1)
	announceCounters(ctx, problemsTranslated)
}

func (f *consTranslateFn) ProcessElement(ctx context.Context, ex consistency.Expanded, emit func(consistency.Translated)) error {
	t, err := f.tools.get(ctx, toolSpec{Translators: f.Translators})
	if err != nil {
		return err
	}
	if f.runner == nil {
		f.runner = &consistency.Runner{Tools: runner.Tools{Run: f.Run, Translators: t.translators}}
	}
	emit(f.runner.Translate(ctx, ex))
	problemsTranslated.Inc(ctx, 1)
	return nil
}

// consExecuteFn runs, judges and repairs a batch of translated problems on the
// worker's shared engines.
type consExecuteFn struct {
	Exec
	runner *consistency.Runner
	tools  lazyTools
}

func (f *consExecuteFn) Teardown() error {
	f.tools.release()
	return nil
}

func (f *consExecuteFn) StartBundle(ctx context.Context, _ func(consistency.Output)) {
	executeBundles.Inc(ctx, 1)
	announceCounters(ctx, problemsDone, pairsJudged)
}

func (f *consExecuteFn) ProcessElement(ctx context.Context, _ string, batch func(*consistency.Translated) bool, emit func(consistency.Output)) error {
	t, err := f.tools.get(ctx, f.toolSpec(false))
	if err != nil {
		return err
	}
	if f.runner == nil {
		if f.runner, err = f.consRunner(t); err != nil {
			return err
		}
	}
	runBatch(batch, func(tx consistency.Translated) consistency.Output {
		return f.runner.Execute(ctx, tx)
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
