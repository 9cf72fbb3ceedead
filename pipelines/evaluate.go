package pipelines

import (
	"context"
	"fmt"
	"hash/fnv"
	"reflect"
	"sort"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"

	"transmute/io/corpus"
	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/sandbox"
	"transmute/transforms/score"
	"transmute/transforms/values"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*loadFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*mergeFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*evaluateFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*scoreFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*evaluate.Item)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*evaluate.Output)(nil)).Elem())
	for _, t := range []any{schemas.Problem{}, schemas.Task{}, schemas.TranslationRow{}, schemas.ExecutionRow{},
		schemas.ResultRow{}, schemas.ScoreRow{}, schemas.ErrorRow{}, schemas.FidelityRow{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	beam.RegisterFunction(splitProblems)
	beam.RegisterFunction(splitTranslations)
	beam.RegisterFunction(splitExecutions)
	beam.RegisterFunction(splitResults)
	beam.RegisterFunction(splitFidelity)
	beam.RegisterFunction(splitErrors)
	beam.RegisterFunction(keyResult)
}

// loadFn reads one corpus spec and emits its problems keyed by id, with the tasks
// of the requested directions; problems it cannot ingest are error rows.
type loadFn struct {
	Run        string
	Directions string
	Limit      int
}

func (f *loadFn) ProcessElement(ctx context.Context, spec string, emit func(string, evaluate.Item), emitErr func(schemas.ErrorRow)) error {
	c, err := corpus.Load(ctx, spec)
	if err != nil {
		// A corpus that cannot be opened at all is a configuration error: fail loudly.
		return fmt.Errorf("load %s: %w", spec, err)
	}
	for _, e := range c.Errors {
		e.Run = f.Run
		emitErr(e)
	}
	dirs, err := evaluate.Directions(f.Directions)
	if err != nil {
		return err
	}
	tasks := map[string][]schemas.Task{}
	for _, t := range c.Tasks {
		tasks[t.ProblemID] = append(tasks[t.ProblemID], t)
	}
	n := 0
	for _, p := range c.Problems {
		if f.Limit > 0 && n >= f.Limit {
			break
		}
		n++
		ts := filterTasks(p, tasks[p.ID], dirs)
		emit(p.ID, evaluate.Item{Problem: p, Tasks: ts})
	}
	log.Infof(ctx, "corpus %s: %d problems, %d tasks, %d error rows", spec, len(c.Problems), len(c.Tasks), len(c.Errors))
	return nil
}

// filterTasks keeps the tasks in dirs (all when dirs is nil) and adds same-language
// directions requested explicitly (for the identity translator).
func filterTasks(p schemas.Problem, ts []schemas.Task, dirs [][2]string) []schemas.Task {
	if dirs == nil {
		return ts
	}
	want := map[[2]string]bool{}
	for _, d := range dirs {
		want[d] = true
	}
	var out []schemas.Task
	have := map[[2]string]bool{}
	for _, t := range ts {
		d := [2]string{t.SrcLang, t.TgtLang}
		if want[d] {
			out = append(out, t)
			have[d] = true
		}
	}
	for _, d := range dirs {
		if d[0] == d[1] && !have[d] {
			if _, ok := p.Function(d[0]); ok {
				out = append(out, schemas.Task{ProblemID: p.ID, Corpus: p.Corpus, SrcLang: d[0], TgtLang: d[1]})
			}
		}
	}
	return out
}

// mergeFn joins the same problem read from several corpora (TRACE tasks are
// TransCoder-test problems) so each translation runs once, and spreads problems
// over shards.
type mergeFn struct {
	Shards int
}

func (f *mergeFn) ProcessElement(id string, items func(*evaluate.Item) bool, emit func(int, evaluate.Item)) {
	var merged evaluate.Item
	first := true
	seen := map[schemas.Task]bool{}
	var it evaluate.Item
	for items(&it) {
		if first || (merged.Problem.Corpus != "transcoder" && it.Problem.Corpus == "transcoder") {
			merged.Problem = it.Problem
			first = false
		}
		for _, t := range it.Tasks {
			if !seen[t] {
				seen[t] = true
				merged.Tasks = append(merged.Tasks, t)
			}
		}
	}
	sort.Slice(merged.Tasks, func(i, j int) bool {
		a, b := merged.Tasks[i], merged.Tasks[j]
		if a.Corpus != b.Corpus {
			return a.Corpus < b.Corpus
		}
		if a.SrcLang != b.SrcLang {
			return a.SrcLang < b.SrcLang
		}
		return a.TgtLang < b.TgtLang
	})
	h := fnv.New32a()
	h.Write([]byte(id))
	emit(int(h.Sum32()%uint32(max(f.Shards, 1))), merged)
}

// evaluateFn evaluates the problems of one shard with its own worker pool
// (Prism runs a stage as one bundle, so parallelism must come from inside).
type evaluateFn struct {
	Run         string
	Translators []string
	Parallelism int
	CPUTime     time.Duration
	WallTime    time.Duration
	MemoryBytes int64
	CppArgs     string
	WorkDir     string
	Progress    bool
	ExecCache   string

	ev    *evaluate.Evaluator
	tools *tools
}

func (f *evaluateFn) Setup(ctx context.Context) error {
	t, err := openTools(ctx, f.Translators, f.WorkDir, f.Parallelism, f.ExecCache)
	if err != nil {
		return err
	}
	f.tools = t
	f.ev = &evaluate.Evaluator{Run: f.Run, Translators: t.translators, Engines: t.engines, Tolerance: values.DefaultTolerance,
		Limits: sandbox.Limits{CPUTime: f.CPUTime, WallTime: f.WallTime, MemoryBytes: f.MemoryBytes}, CppArgs: f.CppArgs}
	return nil
}

func (f *evaluateFn) Teardown() error {
	f.tools.Close()
	return nil
}

var (
	problemsDone = beam.NewCounter("transmute", "problems_evaluated")
	programsRun  = beam.NewCounter("transmute", "programs_run")
)

func (f *evaluateFn) ProcessElement(ctx context.Context, shard int, items func(*evaluate.Item) bool, emit func(evaluate.Output)) {
	batch := collect(items)
	evalMeter.AddTotal(int64(len(batch)))
	runPool(batch, feeders*f.Parallelism, func(it evaluate.Item) evaluate.Output { return f.ev.Evaluate(ctx, it) }, func(out evaluate.Output) {
		problemsDone.Inc(ctx, 1)
		programsRun.Inc(ctx, int64(len(out.Executions)))
		PauseAt("evaluate")
		if f.Progress {
			evalMeter.Done(1)
		}
		emit(out)
	})
}

func splitProblems(o evaluate.Output, emit func(schemas.Problem)) { emit(o.Problem) }
func splitTranslations(o evaluate.Output, emit func(schemas.TranslationRow)) {
	for _, r := range o.Translations {
		emit(r)
	}
}
func splitExecutions(o evaluate.Output, emit func(schemas.ExecutionRow)) {
	for _, r := range o.Executions {
		emit(r)
	}
}
func splitResults(o evaluate.Output, emit func(schemas.ResultRow)) {
	for _, r := range o.Results {
		emit(r)
	}
}
func splitFidelity(o evaluate.Output, emit func(schemas.FidelityRow)) {
	for _, r := range o.Fidelity {
		emit(r)
	}
}
func splitErrors(o evaluate.Output, emit func(schemas.ErrorRow)) {
	for _, r := range o.Errors {
		emit(r)
	}
}

func keyResult(r schemas.ResultRow) (string, schemas.ResultRow) { return score.KeyOf(r).String(), r }

// scoreFn computes the CA and pass-rate scores of one (translator, corpus, direction).
type scoreFn struct {
	Run string
}

func (f *scoreFn) ProcessElement(key string, rows func(*schemas.ResultRow) bool, emit func(schemas.ScoreRow)) {
	var all []schemas.ResultRow
	var r schemas.ResultRow
	for rows(&r) {
		all = append(all, r)
	}
	if len(all) == 0 {
		return
	}
	for _, s := range score.CA(f.Run, score.KeyOf(all[0]), all) {
		emit(s)
	}
}
