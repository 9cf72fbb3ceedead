package pipelines

import (
	"context"
	"hash/fnv"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"gocloud.dev/blob"

	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/properties"
	"transmute/transforms/runner"
	"transmute/transforms/score"
)

// PropertiesTables are the tables written by the properties job (NOMOS).
var PropertiesTables = []string{"variants", "transformations", "translations", "property_results", "scores", "errors", SearchTable}

// PropertiesOptions select the metamorphic variants.
type PropertiesOptions struct {
	// Seed drives the transformations' random choices and the merge partners.
	Seed uint64 `json:"seed"`
	// VariantsPer is the number of variants per single-function transformation,
	// problem and language (0 = 1).
	VariantsPer int `json:"variants_per"`
	// Search is the property-guided search (pipelines/propsearch.go; Budget 0: none).
	Search SearchOptions `json:"search"`
}

func init() {
	for _, fn := range []any{&propExpandFn{}, &propTranslateFn{}, &propExecuteFn{}} {
		beam.RegisterType(reflect.TypeOf(fn).Elem())
	}
	register.Emitter1[properties.Expanded]()
	register.Emitter1[properties.Translated]()
	register.Emitter1[properties.Output]()
	register.Iter1[properties.Translated]()
	for _, t := range []any{properties.Expanded{}, properties.Translated{}, properties.Output{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	registerTable[schemas.PropertyResultRow]()
	registerTable[schemas.TransformationRow]()
	beam.RegisterFunction(splitPropKeyed)
	beam.RegisterFunction(splitPropNanos)
	beam.RegisterFunction(sumInt64)
	beam.RegisterFunction(checkSecondsRow)
}

// BuildProperties adds the k-safety properties job (NOMOS) to s, wired as
// BuildMBTA is: Load, Expand (each source function's metamorphic variants and
// merge partner, run), Translate, Execute (run the translations, check the 38
// properties: transforms/properties), a score per (translator, corpus, direction),
// the PropertiesTables. Merge takes its second function from the problems of the
// same merge group (mergeGroup: --compute-shards groups; by default one, every
// problem), which every Expand batch reads as a side input.
func BuildProperties(s beam.Scope, c Config, o PropertiesOptions) {
	c = c.WithDefaults()
	items, loadErrs := Load(s, c)
	outs := PropertiesExecute(s, c, PropertiesTranslate(s, c, PropertiesExpand(s, c, o, items)))

	errs := beam.Flatten(s, loadErrs, Split[schemas.ErrorRow](s, outs, "Errors"))
	if o.Search.Budget > 0 {
		errs = beam.Flatten(s, errs, buildPropertySearch(s, c, o, items))
	}
	scores := PropertiesScore(s, c.Run, outs)
	nanos := beam.Combine(s.Scope("CheckTime"), sumInt64, beam.ParDo(s, splitPropNanos, outs))
	scores = beam.Flatten(s, scores, beam.ParDo(s, checkSecondsRow, nanos))

	writeTable[schemas.VariantRow](s, c.Output, "variants", c.RowsPerFile, Split[schemas.VariantRow](s, outs, "Variants"))
	writeTable[schemas.TransformationRow](s, c.Output, "transformations", c.RowsPerFile, Split[schemas.TransformationRow](s, outs, "Transformations"))
	writeTable[schemas.TranslationRow](s, c.Output, "translations", c.RowsPerFile, Split[schemas.TranslationRow](s, outs, "Translations"))
	writeTable[schemas.PropertyResultRow](s, c.Output, "property_results", c.RowsPerFile, Split[schemas.PropertyResultRow](s, outs, "Results"))
	writeTable[schemas.ScoreRow](s, c.Output, "scores", c.RowsPerFile, scores)
	writeTable[schemas.ErrorRow](s, c.Output, "errors", c.RowsPerFile, errs)
}

// PropertiesExpand makes and runs each problem's variants
// (properties.Runner.Expand): which inputs are translated depends on the source's
// runs, so this runs before Translate. CPU-bound: batches of problems on the
// worker's shared engines; items is also the side input the merge partners come
// from.
func PropertiesExpand(s beam.Scope, c Config, o PropertiesOptions, items beam.PCollection) beam.PCollection {
	s = s.Scope("Expand")
	return beam.ParDo(s, &propExpandFn{propBatchFn{Exec: execOf(c), Options: o, MergeGroups: c.MergeGroups}},
		Batches(s, items), beam.SideInput{Input: items})
}

// PropertiesTranslate translates every valid input of each problem
// (properties.Runner.Translate): one problem per element after a Reshuffle, no
// engines, as the evaluate job's Translate.
func PropertiesTranslate(s beam.Scope, c Config, expanded beam.PCollection) beam.PCollection {
	s = s.Scope("Translate")
	return beam.ParDo(s, &propTranslateFn{Run: c.Run, Translators: c.Translators}, beam.Reshuffle(s, expanded))
}

// PropertiesExecute runs each problem's translations and checks its property
// instances (properties.Runner.Execute), in batches of problems on the worker's
// shared engines.
func PropertiesExecute(s beam.Scope, c Config, translated beam.PCollection) beam.PCollection {
	s = s.Scope("Execute")
	return beam.ParDo(s, &propExecuteFn{Exec: execOf(c)}, Batches(s, translated))
}

// mergeGroup is the group of the problem id among n: merge takes its partners from
// the problems of the same group (those of one --compute-shards shard, as when each
// shard ran in a pool of its own), whatever batch or worker runs the problem.
func mergeGroup(id string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32() % uint32(max(n, 1)))
}

// mergePools reads the problems of the side input into their merge groups.
func mergePools(items func(*evaluate.Item) bool, n int) map[int][]schemas.Problem {
	pools := map[int][]schemas.Problem{}
	var it evaluate.Item
	for items(&it) {
		g := mergeGroup(it.Problem.ID, n)
		pools[g] = append(pools[g], it.Problem)
		it = evaluate.Item{}
	}
	return pools
}

// propRunner is the properties.Runner of a stage's DoFn with the tools it opened.
func (x Exec) propRunner(t *tools, o PropertiesOptions) *properties.Runner {
	return &properties.Runner{Tools: x.variantTools(t), Seed: o.Seed, VariantsPer: o.VariantsPer}
}

var instancesChecked = beam.NewCounter("transmute", "property_instances")

// propBatchFn is what the DoFns over Batches of the properties job (Expand, the
// property search) share: a Runner on the worker's shared tools and the problems of
// each merge group (the side input of every problem), both made at the first
// element.
type propBatchFn struct {
	Exec
	Options     PropertiesOptions
	MergeGroups int

	runner *properties.Runner
	pools  map[int][]schemas.Problem
	tools  lazyTools
}

func (f *propBatchFn) Teardown() error {
	f.tools.release()
	return nil
}

// open makes the Runner, on the engines and, when withTranslators, the
// translators, and the merge groups' problems from all.
func (f *propBatchFn) open(ctx context.Context, withTranslators bool, all func(*evaluate.Item) bool) error {
	t, err := f.tools.get(ctx, f.toolSpec(withTranslators))
	if err != nil {
		return err
	}
	if f.runner == nil {
		f.runner = f.propRunner(t, f.Options)
	}
	if f.pools == nil {
		f.pools = mergePools(all, f.MergeGroups)
	}
	return nil
}

// pool is the problems of it's merge group.
func (f *propBatchFn) pool(it evaluate.Item) []schemas.Problem {
	return f.pools[mergeGroup(it.Problem.ID, f.MergeGroups)]
}

// propExpandFn expands a batch of problems with the worker's shared tools.
type propExpandFn struct{ propBatchFn }

// StartBundle takes the side input too: Beam requires a DoFn's bundle methods to
// declare its side inputs.
func (f *propExpandFn) StartBundle(ctx context.Context, _ func(*evaluate.Item) bool, _ func(properties.Expanded)) {
	expandBundles.Inc(ctx, 1)
}

func (f *propExpandFn) ProcessElement(ctx context.Context, _ string, batch func(*evaluate.Item) bool, all func(*evaluate.Item) bool,
	emit func(properties.Expanded)) error {
	// The translators too: Expand asks them which directions they take.
	if err := f.open(ctx, true, all); err != nil {
		return err
	}
	runBatch(batch, func(it evaluate.Item) properties.Expanded {
		if f.Progress {
			propMeter.AddTotal(1)
		}
		return f.runner.Expand(ctx, it, f.pool(it))
	}, emit)
	return nil
}

// propTranslateFn translates one expanded problem with the worker's shared
// translators.
type propTranslateFn struct {
	Run         string
	Translators []string

	runner *properties.Runner
	tools  lazyTools
}

func (f *propTranslateFn) Teardown() error {
	f.tools.release()
	return nil
}

func (f *propTranslateFn) StartBundle(ctx context.Context, _ func(properties.Translated)) {
	translateBundles.Inc(ctx, 1)
	announceCounters(ctx, problemsTranslated)
}

func (f *propTranslateFn) ProcessElement(ctx context.Context, ex properties.Expanded, emit func(properties.Translated)) error {
	t, err := f.tools.get(ctx, toolSpec{Translators: f.Translators})
	if err != nil {
		return err
	}
	if f.runner == nil {
		f.runner = &properties.Runner{Tools: runner.Tools{Run: f.Run, Translators: t.translators}}
	}
	emit(f.runner.Translate(ctx, ex))
	problemsTranslated.Inc(ctx, 1)
	return nil
}

// propExecuteFn runs and checks a batch of translated problems on the worker's
// shared engines.
type propExecuteFn struct {
	Exec
	runner *properties.Runner
	tools  lazyTools
}

func (f *propExecuteFn) Teardown() error {
	f.tools.release()
	return nil
}

func (f *propExecuteFn) StartBundle(ctx context.Context, _ func(properties.Output)) {
	executeBundles.Inc(ctx, 1)
	announceCounters(ctx, problemsDone, instancesChecked)
}

func (f *propExecuteFn) ProcessElement(ctx context.Context, _ string, batch func(*properties.Translated) bool, emit func(properties.Output)) error {
	t, err := f.tools.get(ctx, f.toolSpec(false))
	if err != nil {
		return err
	}
	if f.runner == nil {
		// Execute needs neither the variant options nor the translators.
		f.runner = f.propRunner(t, PropertiesOptions{})
	}
	runBatch(batch, func(tx properties.Translated) properties.Output {
		return f.runner.Execute(ctx, tx)
	}, func(out properties.Output) {
		problemsDone.Inc(ctx, 1)
		instancesChecked.Inc(ctx, int64(len(out.Results)))
		if f.Progress {
			propMeter.Done(1)
		}
		emit(out)
	})
	return nil
}

func splitPropKeyed(o properties.Output, emit func(string, schemas.PropertyResultRow)) {
	for _, r := range o.Results {
		emit(score.Key{Translator: r.Translator, Corpus: r.Corpus, SrcLang: r.SrcLang, TgtLang: r.TgtLang}.String(), r)
	}
}
func splitPropNanos(o properties.Output) int64 { return o.CheckNanos }
func sumInt64(a, b int64) int64                { return a + b }
func checkSecondsRow(n int64) schemas.ScoreRow {
	return schemas.ScoreRow{Subset: score.SubsetAll, Metric: schemas.MetricCheckSeconds, Value: float64(n) / 1e9}
}

// FinishProperties is Finish for the properties tables.
func FinishProperties(ctx context.Context, b *blob.Bucket, m *Manifest) error {
	return Finish(ctx, b, m, PropertiesTables)
}
