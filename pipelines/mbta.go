package pipelines

import (
	"context"
	"reflect"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"gocloud.dev/blob"

	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/mbta"
	"transmute/transforms/mutate"
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
	register.Emitter1[mbta.Output]()
	beam.RegisterType(reflect.TypeOf((*mbtaScoreFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*mbta.Output)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*mbta.Group)(nil)).Elem())
	registerTable[schemas.VariantRow]()
	registerTable[schemas.MutantResultRow]()
	beam.RegisterFunction(splitMBTAGroups)
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
	items, loadErrs := Load(s, c)
	outs := mbtaStage(s, c, m, items)

	errs := beam.Flatten(s, loadErrs, Split[schemas.ErrorRow](s, outs, "Errors"), translatorInputErrors(s, c))
	scores := beam.ParDo(s.Scope("Score"), &mbtaScoreFn{Run: c.Run}, beam.GroupByKey(s, beam.ParDo(s, splitMBTAGroups, outs)))

	writeTable[schemas.VariantRow](s, c.Output, "variants", c.Shards, Split[schemas.VariantRow](s, outs, "Variants"))
	writeTable[schemas.TranslationRow](s, c.Output, "translations", c.Shards, Split[schemas.TranslationRow](s, outs, "Translations"))
	writeTable[schemas.ExecutionRow](s, c.Output, "executions", c.Shards, Split[schemas.ExecutionRow](s, outs, "Executions"))
	writeTable[schemas.MutantResultRow](s, c.Output, "mutant_results", c.Shards, Split[schemas.MutantResultRow](s, outs, "MutantResults"))
	writeTable[schemas.ScoreRow](s, c.Output, "scores", c.Shards, scores)
	writeTable[schemas.ErrorRow](s, c.Output, "errors", c.Shards, errs)
}

// mbtaStage expands each problem into mutants and translates, executes and judges
// them (transforms/mbta.Runner, which does the three in one, per problem: its
// translations depend on the mutants it keeps), in batches of problems.
func mbtaStage(s beam.Scope, c Config, m MBTAOptions, items beam.PCollection) beam.PCollection {
	s = s.Scope("MBTA")
	return beam.ParDo(s, &mbtaFn{Exec: execOf(c), Options: m}, Batches(s, items))
}

// mbtaFn runs MBTA on a batch of problems with the worker's shared tools.
type mbtaFn struct {
	Exec
	Options MBTAOptions

	runner *mbta.Runner
	tools  lazyTools
}

func (f *mbtaFn) Teardown() error {
	f.tools.release()
	return nil
}

var (
	mutantsJudged = beam.NewCounter("transmute", "mutants_judged")
	mbtaBundles   = beam.NewCounter("transmute", "bundles_mbta")
)

func (f *mbtaFn) StartBundle(ctx context.Context, _ func(mbta.Output)) {
	mbtaBundles.Inc(ctx, 1)
	announceCounters(ctx, problemsDone, mutantsJudged)
}

func (f *mbtaFn) ProcessElement(ctx context.Context, _ string, batch func(*evaluate.Item) bool, emit func(mbta.Output)) error {
	t, err := f.tools.get(ctx, f.toolSpec(true))
	if err != nil {
		return err
	}
	if f.runner == nil {
		f.runner = &mbta.Runner{Run: f.Run, Translators: t.translators, Engines: t.engines, Tolerance: values.DefaultTolerance,
			Limits: f.limits(),
			Mutate: mutate.Options{Operators: f.Options.Operators, MaxPerOperator: f.Options.MaxPerOperator,
				MaxTotal: f.Options.MaxTotal, Seed: f.Options.Seed},
			MutantTimeFactor: f.Options.TimeFactor, MutantTimeFloor: f.Options.TimeFloor}
	}
	runBatch(batch, func(it evaluate.Item) mbta.Output {
		if f.Progress {
			mbtaMeter.AddTotal(1)
		}
		return f.runner.Evaluate(ctx, it)
	}, func(out mbta.Output) {
		problemsDone.Inc(ctx, 1)
		mutantsJudged.Inc(ctx, int64(len(out.MutantResults)))
		if f.Progress {
			mbtaMeter.Done(1)
		}
		emit(out)
	})
	return nil
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
