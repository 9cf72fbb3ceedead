package pipelines

import (
	"context"
	"reflect"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"gocloud.dev/blob"

	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/mbta"
	"transmute/transforms/mutate"
	"transmute/transforms/sandbox"
	"transmute/transforms/values"
)

// MBTATables are the tables written by the MBTA pipeline.
var MBTATables = []string{"variants", "translations", "executions", "mutant_results", "scores", "errors"}

// MBTAOptions select the mutants (transforms/mutate.Options).
type MBTAOptions struct {
	// Operators restricts the muJava operators (empty = all 19).
	Operators []string `json:"operators"`
	// MaxPerOperator and MaxTotal cap the mutants per problem and language (0 = no cap).
	MaxPerOperator int `json:"max_per_operator"`
	MaxTotal       int `json:"max_total"`
	// Seed drives the sampling when a cap applies.
	Seed int64 `json:"seed"`
	// TimeFactor and TimeFloor set the mutants' per-test limits from the original's
	// time (mbta.Runner.MutantTimeFactor); 0 keeps the fixed limits.
	TimeFactor float64       `json:"time_factor"`
	TimeFloor  time.Duration `json:"time_floor"`
}

func init() {
	beam.RegisterType(reflect.TypeOf((*mbtaFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*mbtaScoreFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*mbta.Output)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*mbta.Group)(nil)).Elem())
	registerTable[schemas.VariantRow]()
	registerTable[schemas.MutantResultRow]()
	beam.RegisterFunction(splitMBTAVariants)
	beam.RegisterFunction(splitMBTATranslations)
	beam.RegisterFunction(splitMBTAExecutions)
	beam.RegisterFunction(splitMBTAMutantResults)
	beam.RegisterFunction(splitMBTAGroups)
	beam.RegisterFunction(splitMBTAErrors)
}

// MBTA's default per-test limits. A mutant that loops forever costs its time limit on
// the tests it loops on (Java and Python then mark its other tests timeouts, Java
// after a worker restart; C++ stops after cpp.MaxConsecutiveTimeouts), and muJava mutants of loop conditions often do: the
// limits of the evaluate job (10 s CPU) would make such mutants most of the run.
// The slowest gold test of the shared TransCoder-test sample takes 0.43 s of CPU
// (Python), so 1 s of CPU and 2 s of wall time leave room for the originals and
// their translations. --cpu-limit and --wall-limit override them.
const (
	MBTACPUTime  = time.Second
	MBTAWallTime = 2 * time.Second
)

// MBTADefaults fills the per-test limits that are not set with MBTA's defaults.
func MBTADefaults(c Config) Config {
	if c.CPUTime == 0 {
		c.CPUTime = MBTACPUTime
	}
	if c.WallTime == 0 {
		c.WallTime = MBTAWallTime
	}
	return c
}

// BuildMBTA adds the mutation-based translation analysis pipeline (seed 000) to s:
// read and merge corpora as BuildEvaluate does, run MBTA on each problem
// (transforms/mbta) in a worker pool per shard, score each (translator, corpus,
// direction) — MTS, funnel, CA of the originals, correlations — and write the
// MBTATables.
func BuildMBTA(s beam.Scope, c Config, m MBTAOptions) {
	c = c.WithDefaults()
	specs := beam.CreateList(s.Scope("Corpora"), c.Corpora)
	items, loadErrs := beam.ParDo2(s.Scope("Load"), &loadFn{Run: c.Run, Directions: c.Directions, Limit: c.Limit}, specs)
	merged := beam.ParDo(s.Scope("Merge"), &mergeFn{Shards: c.ComputeShards}, beam.GroupByKey(s, items))
	outs := beam.ParDo(s.Scope("MBTA"), &mbtaFn{Run: c.Run, Translators: c.Translators,
		Parallelism: c.Parallelism, CPUTime: c.CPUTime, WallTime: c.WallTime, MemoryBytes: c.MemoryBytes,
		WorkDir: c.WorkDir, Progress: c.Progress, Options: m, ExecCache: c.ExecCache}, beam.GroupByKey(s, merged))

	variants := beam.ParDo(s, splitMBTAVariants, outs)
	translations := beam.ParDo(s, splitMBTATranslations, outs)
	executions := beam.ParDo(s, splitMBTAExecutions, outs)
	mutants := beam.ParDo(s, splitMBTAMutantResults, outs)
	errs := beam.Flatten(s, loadErrs, beam.ParDo(s, splitMBTAErrors, outs), translatorInputErrors(s, c))
	scores := beam.ParDo(s.Scope("Score"), &mbtaScoreFn{Run: c.Run}, beam.GroupByKey(s, beam.ParDo(s, splitMBTAGroups, outs)))

	writeTable[schemas.VariantRow](s, c.Output, "variants", c.Shards, variants)
	writeTable[schemas.TranslationRow](s, c.Output, "translations", c.Shards, translations)
	writeTable[schemas.ExecutionRow](s, c.Output, "executions", c.Shards, executions)
	writeTable[schemas.MutantResultRow](s, c.Output, "mutant_results", c.Shards, mutants)
	writeTable[schemas.ScoreRow](s, c.Output, "scores", 1, scores)
	writeTable[schemas.ErrorRow](s, c.Output, "errors", 1, errs)
}

// mbtaFn runs MBTA on the problems of one shard with its own worker pool.
type mbtaFn struct {
	Run         string
	Translators []string
	Parallelism int
	CPUTime     time.Duration
	WallTime    time.Duration
	MemoryBytes int64
	WorkDir     string
	Progress    bool
	Options     MBTAOptions
	ExecCache   string

	runner *mbta.Runner
	tools  *tools
}

func (f *mbtaFn) Setup(ctx context.Context) error {
	t, err := openTools(ctx, f.Translators, f.WorkDir, f.Parallelism, f.ExecCache)
	if err != nil {
		return err
	}
	f.tools = t
	f.runner = &mbta.Runner{Run: f.Run, Translators: t.translators, Engines: t.engines, Tolerance: values.DefaultTolerance,
		Limits: sandbox.Limits{CPUTime: f.CPUTime, WallTime: f.WallTime, MemoryBytes: f.MemoryBytes},
		Mutate: mutate.Options{Operators: f.Options.Operators, MaxPerOperator: f.Options.MaxPerOperator,
			MaxTotal: f.Options.MaxTotal, Seed: f.Options.Seed},
		MutantTimeFactor: f.Options.TimeFactor, MutantTimeFloor: f.Options.TimeFloor}
	return nil
}

func (f *mbtaFn) Teardown() error {
	f.tools.Close()
	return nil
}

var mutantsJudged = beam.NewCounter("transmute", "mutants_judged")

func (f *mbtaFn) ProcessElement(ctx context.Context, shard int, items func(*evaluate.Item) bool, emit func(mbta.Output)) {
	batch := collect(items)
	mbtaMeter.AddTotal(int64(len(batch)))
	runPool(batch, feeders*f.Parallelism, func(it evaluate.Item) mbta.Output { return f.runner.Evaluate(ctx, it) }, func(out mbta.Output) {
		problemsDone.Inc(ctx, 1)
		mutantsJudged.Inc(ctx, int64(len(out.MutantResults)))
		if f.Progress {
			mbtaMeter.Done(1)
		}
		emit(out)
	})
}

func splitMBTAVariants(o mbta.Output, emit func(schemas.VariantRow)) {
	for _, r := range o.Variants {
		emit(r)
	}
}
func splitMBTATranslations(o mbta.Output, emit func(schemas.TranslationRow)) {
	for _, r := range o.Translations {
		emit(r)
	}
}
func splitMBTAExecutions(o mbta.Output, emit func(schemas.ExecutionRow)) {
	for _, r := range o.Executions {
		emit(r)
	}
}
func splitMBTAMutantResults(o mbta.Output, emit func(schemas.MutantResultRow)) {
	for _, r := range o.MutantResults {
		emit(r)
	}
}
func splitMBTAErrors(o mbta.Output, emit func(schemas.ErrorRow)) {
	for _, r := range o.Errors {
		emit(r)
	}
}
func splitMBTAGroups(o mbta.Output, emit func(string, mbta.Group)) {
	for _, g := range o.Groups {
		emit(g.Key().String(), g)
	}
}

// mbtaScoreFn scores one (translator, corpus, direction) from its problems' groups.
type mbtaScoreFn struct {
	Run string
}

func (f *mbtaScoreFn) ProcessElement(key string, groups func(*mbta.Group) bool, emit func(schemas.ScoreRow)) {
	var all []mbta.Group
	var g mbta.Group
	for groups(&g) {
		all = append(all, g)
		g = mbta.Group{}
	}
	if len(all) == 0 {
		return
	}
	for _, s := range mbta.Score(f.Run, all[0].Key(), all) {
		emit(s)
	}
}

// FinishMBTA is Finish for the MBTA tables.
func FinishMBTA(ctx context.Context, b *blob.Bucket, m *Manifest) error {
	return Finish(ctx, b, m, MBTATables)
}
