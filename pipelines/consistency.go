package pipelines

import (
	"context"
	"reflect"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"gocloud.dev/blob"

	"transmute/schemas"
	"transmute/transforms/consistency"
	"transmute/transforms/evaluate"
	"transmute/transforms/sandbox"
	"transmute/transforms/values"
)

// ConsistencyTables are the tables written by the consistency job (seed 004).
var ConsistencyTables = []string{"variants", "translations", "executions", "consistency_results", "repairs", "scores", "errors"}

// ConsistencyGroup is what one problem contributes to one score key.
type ConsistencyGroup struct {
	Translator, Corpus, SrcLang, TgtLang string
	Results                              []schemas.ConsistencyRow
	Repairs                              []schemas.RepairRow
}

func init() {
	beam.RegisterType(reflect.TypeOf((*consistencyFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*consistencyScoreFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*consistency.Output)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*ConsistencyGroup)(nil)).Elem())
	registerTable[schemas.ConsistencyRow]()
	registerTable[schemas.RepairRow]()
	beam.RegisterFunction(splitConsGroups)
}

// BuildConsistency adds the consistency job (seed 004: context-similar variants,
// Algorithm 1 and execution consistency, black-box repair) to s, wired as
// BuildMBTA is: load and merge the corpora, run consistency.Runner on each
// problem in a worker pool per shard, score each (translator, corpus,
// direction), write the ConsistencyTables. The per-test limits are MBTA's.
func BuildConsistency(s beam.Scope, c Config) {
	c = MBTADefaults(c.WithDefaults())
	specs := beam.CreateList(s.Scope("Corpora"), c.Corpora)
	items, loadErrs := beam.ParDo2(s.Scope("Load"), &loadFn{Run: c.Run, Directions: c.Directions, Limit: c.Limit}, specs)
	merged := beam.ParDo(s.Scope("Merge"), &mergeFn{Shards: c.ComputeShards}, beam.GroupByKey(s, items))
	outs := beam.ParDo(s.Scope("Consistency"), &consistencyFn{Run: c.Run, Translators: c.Translators, ExecCache: c.ExecCache,
		Parallelism: c.Parallelism, CPUTime: c.CPUTime, WallTime: c.WallTime, MemoryBytes: c.MemoryBytes,
		WorkDir: c.WorkDir, Progress: c.Progress}, beam.GroupByKey(s, merged))
	errs := beam.Flatten(s, loadErrs, Split[schemas.ErrorRow](s, outs, "Errors"))
	scores := beam.ParDo(s.Scope("Score"), &consistencyScoreFn{Run: c.Run}, beam.GroupByKey(s, beam.ParDo(s, splitConsGroups, outs)))
	writeTable[schemas.VariantRow](s, c.Output, "variants", c.Shards, Split[schemas.VariantRow](s, outs, "Variants"))
	writeTable[schemas.TranslationRow](s, c.Output, "translations", c.Shards, Split[schemas.TranslationRow](s, outs, "Translations"))
	writeTable[schemas.ExecutionRow](s, c.Output, "executions", c.Shards, Split[schemas.ExecutionRow](s, outs, "Executions"))
	writeTable[schemas.ConsistencyRow](s, c.Output, "consistency_results", c.Shards, Split[schemas.ConsistencyRow](s, outs, "Results"))
	writeTable[schemas.RepairRow](s, c.Output, "repairs", c.Shards, Split[schemas.RepairRow](s, outs, "Repairs"))
	writeTable[schemas.ScoreRow](s, c.Output, "scores", c.Shards, scores)
	writeTable[schemas.ErrorRow](s, c.Output, "errors", c.Shards, errs)
}

// consistencyFn runs the consistency job on the problems of one shard.
type consistencyFn struct {
	Run         string
	Translators []string
	Parallelism int
	CPUTime     time.Duration
	WallTime    time.Duration
	MemoryBytes int64
	WorkDir     string
	Progress    bool
	ExecCache   string

	runner *consistency.Runner
	tools  *tools
}

func (f *consistencyFn) Setup(ctx context.Context) error {
	t, err := openTools(ctx, f.Translators, f.WorkDir, f.Parallelism, f.ExecCache)
	if err != nil {
		return err
	}
	table, err := consistency.DefaultTable()
	if err != nil {
		t.Close()
		return err
	}
	f.tools = t
	f.runner = &consistency.Runner{Run: f.Run, Translators: t.translators, Engines: t.engines, Tolerance: values.DefaultTolerance,
		Limits: sandbox.Limits{CPUTime: f.CPUTime, WallTime: f.WallTime, MemoryBytes: f.MemoryBytes},
		Table:  table, Options: consistency.DefaultOptions}
	return nil
}

func (f *consistencyFn) Teardown() error {
	f.tools.Close()
	return nil
}

var pairsJudged = beam.NewCounter("transmute", "consistency_pairs_judged")

func (f *consistencyFn) ProcessElement(ctx context.Context, shard int, items func(*evaluate.Item) bool, emit func(consistency.Output)) {
	batch := collect(items)
	consMeter.AddTotal(int64(len(batch)))
	runPool(batch, feeders*f.Parallelism, func(it evaluate.Item) consistency.Output { return f.runner.Evaluate(ctx, it) }, func(out consistency.Output) {
		problemsDone.Inc(ctx, 1)
		pairsJudged.Inc(ctx, int64(len(out.Results)))
		if f.Progress {
			consMeter.Done(1)
		}
		emit(out)
	})
}

// splitConsGroups keys one problem's pairs and repairs by score key.
func splitConsGroups(o consistency.Output, emit func(string, ConsistencyGroup)) {
	groups := map[string]*ConsistencyGroup{}
	get := func(tr, corpus, src, tgt string) *ConsistencyGroup {
		k := tr + "|" + corpus + "|" + src + "|" + tgt
		if groups[k] == nil {
			groups[k] = &ConsistencyGroup{Translator: tr, Corpus: corpus, SrcLang: src, TgtLang: tgt}
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

// consistencyScoreFn scores one (translator, corpus, direction).
type consistencyScoreFn struct {
	Run string
}

func (f *consistencyScoreFn) ProcessElement(key string, groups func(*ConsistencyGroup) bool, emit func(schemas.ScoreRow)) {
	var rows []schemas.ConsistencyRow
	var reps []schemas.RepairRow
	var g ConsistencyGroup
	var k consistency.Key
	for groups(&g) {
		k = consistency.Key{Translator: g.Translator, Corpus: g.Corpus, SrcLang: g.SrcLang, TgtLang: g.TgtLang}
		rows = append(rows, g.Results...)
		reps = append(reps, g.Repairs...)
		g = ConsistencyGroup{}
	}
	for _, s := range consistency.Score(f.Run, k, rows, reps) {
		emit(s)
	}
}

// FinishConsistency is Finish for the consistency tables.
func FinishConsistency(ctx context.Context, b *blob.Bucket, m *Manifest) error {
	return Finish(ctx, b, m, ConsistencyTables)
}
