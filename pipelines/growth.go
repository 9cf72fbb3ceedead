package pipelines

import (
	"context"
	"reflect"
	"runtime"
	"time"
	cachepkg "transmute/io/cache"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"gocloud.dev/blob"

	"transmute/internal/progress"
	"transmute/io/sink"
	"transmute/schemas"
	"transmute/transforms/efficiency"
	"transmute/transforms/evaluate"
	"transmute/transforms/execute"
	"transmute/transforms/growth"
	"transmute/transforms/profile"
)

// GrowthTables are the tables written by the growth job.
var GrowthTables = []string{"growth", "errors"}

// GrowthOptions configure the growth job (docs/GROWTH.md).
type GrowthOptions struct {
	// PerDirection keeps at most this many tasks with a stress suite per
	// direction (0 = all), as the efficiency job samples them.
	PerDirection int `json:"per_direction"`
	// Cost is efficiency.CostCount (instructions under callgrind, the default) or
	// CostTime (the calls' thread CPU time).
	Cost string `json:"cost"`
	// CountCache is the count cache's location ("" or "off": none); BuildGrowth
	// defaults it to Config.ExecCache's, as the efficiency job does.
	CountCache string `json:"count_cache"`
	// TimeLimit bounds a native run and CountTimeLimit a counted run of a gold
	// (default 60s and 300s); MemoryBytes their memory (default 4 GiB).
	TimeLimit      time.Duration `json:"time_limit"`
	CountTimeLimit time.Duration `json:"count_time_limit"`
	MemoryBytes    int64         `json:"memory_bytes"`
	// Growth are the ladder's options (seed, sizes, inputs per size, margin).
	Growth growth.Options `json:"growth"`
}

var growthMeter = progress.Stderr("transmute growth", "problems measured")

func init() {
	for _, t := range []any{&growthFn{}, GrowthOptions{}} {
		rt := reflect.TypeOf(t)
		if rt.Kind() == reflect.Pointer {
			rt = rt.Elem()
		}
		beam.RegisterType(rt)
	}
	registerTable[schemas.GrowthRow]()
	beam.RegisterFunction(withSuiteOnly)
	beam.RegisterFunction(keyEffItem)
}

// BuildGrowth adds the growth job to s: the TRACE tasks sampled as the efficiency
// job samples them (those with a stress suite in the target language), the
// default-test verdicts as that job gets them, then per problem the growth of
// the target golds and the passing translations (transforms/growth), written to
// the growth table.
func BuildGrowth(s beam.Scope, c Config, o GrowthOptions) {
	c = c.WithDefaults()
	if o.CountCache == "" && c.ExecCache != "" && c.ExecCache != "off" {
		o.CountCache = c.ExecCache
	}
	o.Growth.Run = c.Run
	specs := beam.CreateList(s.Scope("Corpora"), c.Corpora)
	loaded, loadErrs := beam.ParDo2(s.Scope("Load"), &effLoadFn{Run: c.Run, Directions: c.Directions,
		PerDirection: o.PerDirection, Problems: c.Problems}, specs)
	items := beam.ParDo(s.Scope("WithSuite"), withSuiteOnly, loaded)
	check := s.Scope("CheckDefaultTests")
	checked, checkErrs := beam.ParDo2(check, &effCheckFn{Exec: execOf(c)}, Batches(check, items))
	// The CoGroupByKey joins each problem's stress suites to its verdicts, and is a
	// barrier: measuring starts once every default-test check is done.
	joined := beam.CoGroupByKey(s, beam.ParDo(s, keyEffItem, items), checked)
	rows, errs := beam.ParDo2(s.Scope("Growth"), &growthFn{Options: o, WorkDir: c.WorkDir}, joined)
	writeTable[schemas.GrowthRow](s, c.Output, "growth", c.RowsPerFile, rows)
	writeTable[schemas.ErrorRow](s, c.Output, "errors", c.RowsPerFile,
		beam.Flatten(s, loadErrs, checkErrs, errs, translatorInputErrors(s, c)))
}

// withSuiteOnly keeps the tasks whose target language has a stress suite: the
// growth job sizes its inputs from it.
func withSuiteOnly(it efficiency.Item, emit func(efficiency.Item)) {
	has := map[string]bool{}
	for _, s := range it.Suites {
		has[s.Lang] = true
	}
	var keep []schemas.Task
	for _, t := range it.Item.Tasks {
		if has[t.TgtLang] {
			keep = append(keep, t)
		}
	}
	if len(keep) > 0 {
		it.Item.Tasks = keep
		growthMeter.AddTotal(1) // counted here, before any is measured
		emit(it)
	}
}

func keyEffItem(it efficiency.Item) (string, efficiency.Item) { return it.Item.Problem.ID, it }

// growthSlots bounds the measurements of this process: one per core.
var growthSlots = make(chan struct{}, runtime.NumCPU())

// growthFn measures the growth of one problem's golds and passing translations.
type growthFn struct {
	Options GrowthOptions
	WorkDir string
}

func (f *growthFn) ProcessElement(ctx context.Context, _ string, items func(*efficiency.Item) bool,
	checked func(*efficiency.Problem) bool, emit func(schemas.GrowthRow), emitErr func(schemas.ErrorRow)) error {
	var it efficiency.Item
	var ep efficiency.Problem
	if !items(&it) || !checked(&ep) {
		return nil
	}
	defer growthMeter.Done(1)
	o := f.Options
	cache, err := openCountCache(ctx, o.CountCache)
	if err != nil {
		return err
	}
	if c, ok := cache.(*cachepkg.Cache); ok {
		defer c.Close()
	}
	opt := profile.Options{TimeLimit: o.TimeLimit, CountTimeLimit: o.CountTimeLimit, MemoryBytes: o.MemoryBytes,
		WorkDir: f.WorkDir, Cache: cache, NoPin: true, NoRealTime: true}
	if opt.TimeLimit <= 0 {
		opt.TimeLimit = 60 * time.Second
	}
	if opt.CountTimeLimit <= 0 {
		opt.CountTimeLimit = 300 * time.Second
	}
	meter := growth.NewProfileMeter(opt, o.Cost == efficiency.CostTime, growthSlots)
	in := growth.Input{Problem: it.Item.Problem, Stress: map[string][]schemas.Test{}}
	for _, s := range it.Suites {
		in.Stress[s.Lang] = s.Tests
	}
	for _, t := range ep.Tasks {
		if t.NoSuite {
			continue
		}
		in.Tasks = append(in.Tasks, t.Task)
		for _, tr := range t.Translations {
			in.Translations = append(in.Translations, growth.Translation{Task: t.Task, Translator: tr.Translator,
				Cand: execute.Candidate{ID: evaluate.TranslationID(tr.Translator, t.Task.SrcLang, t.Task.TgtLang, 0),
					Code: tr.Code, Imports: tr.Imports, Entry: tr.Entry}})
		}
	}
	rows, errs := growth.Analyze(ctx, meter, in, o.Growth)
	for _, r := range rows {
		emit(r)
	}
	for _, e := range errs {
		emitErr(e)
	}
	return ctx.Err()
}

// FinishGrowth is Finish for the GrowthTables, writing an empty growth table when
// the run measured nothing.
func FinishGrowth(ctx context.Context, b *blob.Bucket, m *Manifest) error {
	if _, shards, err := countRows(ctx, b, "growth"); err != nil {
		return err
	} else if shards == 0 {
		if _, err := sink.WriteShard[schemas.GrowthRow](ctx, b, "growth", nil); err != nil {
			return err
		}
	}
	return Finish(ctx, b, m, GrowthTables)
}
