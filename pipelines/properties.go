package pipelines

import (
	"context"
	"reflect"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"gocloud.dev/blob"

	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/properties"
	"transmute/transforms/sandbox"
	"transmute/transforms/score"
	"transmute/transforms/values"
)

// PropertiesTables are the tables written by the properties job (seed 001).
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
	beam.RegisterType(reflect.TypeOf((*propertiesFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*propertiesScoreFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*properties.Output)(nil)).Elem())
	registerTable[schemas.PropertyResultRow]()
	registerTable[schemas.TransformationRow]()
	beam.RegisterFunction(splitPropKeyed)
	beam.RegisterFunction(splitPropNanos)
	beam.RegisterFunction(sumInt64)
	beam.RegisterFunction(checkSecondsRow)
}

// BuildProperties adds the k-safety properties job (seed 001) to s: read and merge
// corpora as BuildEvaluate does, expand each source function into metamorphic
// variants, translate and run them, check the 38 properties per problem
// (transforms/properties) in a worker pool per shard, score each (translator,
// corpus, direction) and write the PropertiesTables. Merge takes its second
// function from the problems of the same compute shard (all of them in process).
func BuildProperties(s beam.Scope, c Config, o PropertiesOptions) {
	c = c.WithDefaults()
	specs := beam.CreateList(s.Scope("Corpora"), c.Corpora)
	items, loadErrs := beam.ParDo2(s.Scope("Load"), &loadFn{Run: c.Run, Directions: c.Directions, Limit: c.Limit}, specs)
	merged := beam.ParDo(s.Scope("Merge"), &mergeFn{Shards: c.ComputeShards}, beam.GroupByKey(s, items))
	outs := beam.ParDo(s.Scope("Properties"), &propertiesFn{Run: c.Run, Translators: c.Translators,
		Parallelism: c.Parallelism, CPUTime: c.CPUTime, WallTime: c.WallTime, MemoryBytes: c.MemoryBytes,
		WorkDir: c.WorkDir, Progress: c.Progress, Options: o, ExecCache: c.ExecCache}, beam.GroupByKey(s, merged))

	errs := beam.Flatten(s, loadErrs, Split[schemas.ErrorRow](s, outs, "Errors"))
	if o.Search.Budget > 0 {
		errs = beam.Flatten(s, errs, buildPropertySearch(s, c, o, merged))
	}
	scores := beam.ParDo(s.Scope("Score"), &propertiesScoreFn{Run: c.Run}, beam.GroupByKey(s, beam.ParDo(s, splitPropKeyed, outs)))
	nanos := beam.Combine(s.Scope("CheckTime"), sumInt64, beam.ParDo(s, splitPropNanos, outs))
	scores = beam.Flatten(s, scores, beam.ParDo(s, checkSecondsRow, nanos))

	writeTable[schemas.VariantRow](s, c.Output, "variants", c.Shards, Split[schemas.VariantRow](s, outs, "Variants"))
	writeTable[schemas.TransformationRow](s, c.Output, "transformations", c.Shards, Split[schemas.TransformationRow](s, outs, "Transformations"))
	writeTable[schemas.TranslationRow](s, c.Output, "translations", c.Shards, Split[schemas.TranslationRow](s, outs, "Translations"))
	writeTable[schemas.PropertyResultRow](s, c.Output, "property_results", c.Shards, Split[schemas.PropertyResultRow](s, outs, "Results"))
	writeTable[schemas.ScoreRow](s, c.Output, "scores", c.Shards, scores)
	writeTable[schemas.ErrorRow](s, c.Output, "errors", c.Shards, errs)
}

// propertiesFn runs the properties job on the problems of one shard.
type propertiesFn struct {
	Run         string
	Translators []string
	Parallelism int
	CPUTime     time.Duration
	WallTime    time.Duration
	MemoryBytes int64
	WorkDir     string
	Progress    bool
	ExecCache   string
	Options     PropertiesOptions

	runner *properties.Runner
	tools  *tools
}

func (f *propertiesFn) Setup(ctx context.Context) error {
	t, err := openTools(ctx, f.Translators, f.WorkDir, f.Parallelism, f.ExecCache)
	if err != nil {
		return err
	}
	f.tools = t
	f.runner = &properties.Runner{Run: f.Run, Translators: t.translators, Engines: t.engines, Tolerance: values.DefaultTolerance,
		Limits: sandbox.Limits{CPUTime: f.CPUTime, WallTime: f.WallTime, MemoryBytes: f.MemoryBytes},
		Seed:   f.Options.Seed, VariantsPer: f.Options.VariantsPer}
	return nil
}

func (f *propertiesFn) Teardown() error {
	f.tools.Close()
	return nil
}

var instancesChecked = beam.NewCounter("transmute", "property_instances")

func (f *propertiesFn) ProcessElement(ctx context.Context, shard int, items func(*evaluate.Item) bool, emit func(properties.Output)) {
	batch := collect(items)
	pool := make([]schemas.Problem, len(batch))
	for i, it := range batch {
		pool[i] = it.Problem
	}
	propMeter.AddTotal(int64(len(batch)))
	runPool(batch, feeders*f.Parallelism, func(it evaluate.Item) properties.Output { return f.runner.Evaluate(ctx, it, pool) },
		func(out properties.Output) {
			problemsDone.Inc(ctx, 1)
			instancesChecked.Inc(ctx, int64(len(out.Results)))
			if f.Progress {
				propMeter.Done(1)
			}
			emit(out)
		})
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

// propertiesScoreFn scores one (translator, corpus, direction).
type propertiesScoreFn struct {
	Run string
}

func (f *propertiesScoreFn) ProcessElement(key string, rows func(*schemas.PropertyResultRow) bool, emit func(schemas.ScoreRow)) {
	all := collect(rows)
	if len(all) == 0 {
		return
	}
	r := all[0]
	for _, s := range properties.Score(f.Run, score.Key{Translator: r.Translator, Corpus: r.Corpus, SrcLang: r.SrcLang, TgtLang: r.TgtLang}, all) {
		emit(s)
	}
}

// FinishProperties is Finish for the properties tables.
func FinishProperties(ctx context.Context, b *blob.Bucket, m *Manifest) error {
	return Finish(ctx, b, m, PropertiesTables)
}
