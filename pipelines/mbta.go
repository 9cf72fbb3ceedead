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
	"transmute/transforms/runner"
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
	for _, fn := range []any{&mbtaExpandFn{}, &mbtaTranslateFn{}, &mbtaExecuteFn{}} {
		beam.RegisterType(reflect.TypeOf(fn).Elem())
	}
	register.Emitter1[mbta.Expanded]()
	register.Emitter1[mbta.Translated]()
	register.Emitter1[mbta.Output]()
	register.Iter1[mbta.Translated]()
	beam.RegisterType(reflect.TypeOf((*mbta.Expanded)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*mbta.Translated)(nil)).Elem())
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

// BuildMBTA adds the mutation-based translation analysis pipeline (MBTA) to s:
// read and merge corpora as BuildEvaluate does, then Expand (mutate and run the
// source sides), Translate (the original and the non-anomalous mutants) and Execute
// (run the translations, judge) each problem (transforms/mbta), score each
// (translator, corpus, direction) — MTS, funnel, CA of the originals, correlations —
// and write the MBTATables.
func BuildMBTA(s beam.Scope, c Config, m MBTAOptions) {
	c = c.WithDefaults()
	items, loadErrs := Load(s, c)
	outs := MBTAExecute(s, c, MBTATranslate(s, c, MBTAExpand(s, c, m, items)))

	errs := beam.Flatten(s, loadErrs, Split[schemas.ErrorRow](s, outs, "Errors"), translatorInputErrors(s, c))
	scores := MBTAScore(s, c.Run, outs)

	writeTable[schemas.VariantRow](s, c.Output, "variants", c.RowsPerFile, Split[schemas.VariantRow](s, outs, "Variants"))
	writeTable[schemas.TranslationRow](s, c.Output, "translations", c.RowsPerFile, Split[schemas.TranslationRow](s, outs, "Translations"))
	writeTable[schemas.ExecutionRow](s, c.Output, "executions", c.RowsPerFile, Split[schemas.ExecutionRow](s, outs, "Executions"))
	writeTable[schemas.MutantResultRow](s, c.Output, "mutant_results", c.RowsPerFile, Split[schemas.MutantResultRow](s, outs, "MutantResults"))
	writeTable[schemas.ScoreRow](s, c.Output, "scores", c.RowsPerFile, scores)
	writeTable[schemas.ErrorRow](s, c.Output, "errors", c.RowsPerFile, errs)
}

// MBTAExpand mutates each problem's source functions and runs them (mbta.Runner.Expand:
// one mbta.Expanded per problem). The translations to make depend on which mutants
// are anomalous, so this runs before Translate. CPU-bound: batches of problems, as
// Execute, on the worker's shared engines (and translators, asked only what they
// support).
func MBTAExpand(s beam.Scope, c Config, m MBTAOptions, items beam.PCollection) beam.PCollection {
	s = s.Scope("Expand")
	return beam.ParDo(s, &mbtaExpandFn{Exec: execOf(c), Options: m}, Batches(s, items))
}

// MBTATranslate translates the original and the non-anomalous mutants of each
// problem (mbta.Runner.Translate): one problem per element after a Reshuffle, no
// engines, as the evaluate job's Translate.
func MBTATranslate(s beam.Scope, c Config, expanded beam.PCollection) beam.PCollection {
	s = s.Scope("Translate")
	return beam.ParDo(s, &mbtaTranslateFn{Run: c.Run, Translators: c.Translators}, beam.Reshuffle(s, expanded))
}

// MBTAExecute runs each problem's translations and judges its mutants
// (mbta.Runner.Execute): one mbta.Output per problem, in batches of problems on the
// worker's shared engines, as the evaluate job's Execute.
func MBTAExecute(s beam.Scope, c Config, translated beam.PCollection) beam.PCollection {
	s = s.Scope("Execute")
	return beam.ParDo(s, &mbtaExecuteFn{Exec: execOf(c)}, Batches(s, translated))
}

var (
	mutantsJudged = beam.NewCounter("transmute", "mutants_judged")
	expandBundles = beam.NewCounter("transmute", "bundles_expand")
)

// mbtaRunner is the mbta.Runner of a stage's DoFn with the tools it opened.
func (x Exec) mbtaRunner(t *tools, m MBTAOptions) *mbta.Runner {
	return &mbta.Runner{Tools: x.variantTools(t),
		Mutate: mutate.Options{Operators: m.Operators, MaxPerOperator: m.MaxPerOperator,
			MaxTotal: m.MaxTotal, Seed: m.Seed},
		MutantTimeFactor: m.TimeFactor, MutantTimeFloor: m.TimeFloor}
}

// mbtaExpandFn expands a batch of problems with the worker's shared tools.
type mbtaExpandFn struct {
	Exec
	Options MBTAOptions

	runner *mbta.Runner
	tools  lazyTools
}

func (f *mbtaExpandFn) Teardown() error {
	f.tools.release()
	return nil
}

func (f *mbtaExpandFn) StartBundle(ctx context.Context, _ func(mbta.Expanded)) {
	expandBundles.Inc(ctx, 1)
}

func (f *mbtaExpandFn) ProcessElement(ctx context.Context, _ string, batch func(*evaluate.Item) bool, emit func(mbta.Expanded)) error {
	// The translators too: Expand asks them which directions they take.
	t, err := f.tools.get(ctx, f.toolSpec(true))
	if err != nil {
		return err
	}
	if f.runner == nil {
		f.runner = f.mbtaRunner(t, f.Options)
	}
	runBatch(batch, func(it evaluate.Item) mbta.Expanded {
		if f.Progress {
			mbtaMeter.AddTotal(1)
		}
		return f.runner.Expand(ctx, it)
	}, emit)
	return nil
}

// mbtaTranslateFn translates one expanded problem with the worker's shared translators.
type mbtaTranslateFn struct {
	Run         string
	Translators []string

	runner *mbta.Runner
	tools  lazyTools
}

func (f *mbtaTranslateFn) Teardown() error {
	f.tools.release()
	return nil
}

func (f *mbtaTranslateFn) StartBundle(ctx context.Context, _ func(mbta.Translated)) {
	translateBundles.Inc(ctx, 1)
	announceCounters(ctx, problemsTranslated)
}

func (f *mbtaTranslateFn) ProcessElement(ctx context.Context, ex mbta.Expanded, emit func(mbta.Translated)) error {
	t, err := f.tools.get(ctx, toolSpec{Translators: f.Translators})
	if err != nil {
		return err
	}
	if f.runner == nil {
		f.runner = &mbta.Runner{Tools: runner.Tools{Run: f.Run, Translators: t.translators}}
	}
	emit(f.runner.Translate(ctx, ex))
	problemsTranslated.Inc(ctx, 1)
	return nil
}

// mbtaExecuteFn runs and judges a batch of translated problems on the worker's
// shared engines.
type mbtaExecuteFn struct {
	Exec

	runner *mbta.Runner
	tools  lazyTools
}

func (f *mbtaExecuteFn) Teardown() error {
	f.tools.release()
	return nil
}

func (f *mbtaExecuteFn) StartBundle(ctx context.Context, _ func(mbta.Output)) {
	executeBundles.Inc(ctx, 1)
	announceCounters(ctx, problemsDone, mutantsJudged)
}

func (f *mbtaExecuteFn) ProcessElement(ctx context.Context, _ string, batch func(*mbta.Translated) bool, emit func(mbta.Output)) error {
	t, err := f.tools.get(ctx, f.toolSpec(false))
	if err != nil {
		return err
	}
	if f.runner == nil {
		// Execute needs neither the mutation options nor the translators.
		f.runner = f.mbtaRunner(t, MBTAOptions{})
	}
	runBatch(batch, func(tr mbta.Translated) mbta.Output {
		return f.runner.Execute(ctx, tr)
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

// FinishMBTA is Finish for the MBTA tables.
func FinishMBTA(ctx context.Context, b *blob.Bucket, m *Manifest) error {
	return Finish(ctx, b, m, MBTATables)
}
