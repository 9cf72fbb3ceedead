package pipelines

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/runner"
	"transmute/transforms/sandbox"
	"transmute/transforms/values"
)

// The stages every job composes (docs/ARCHITECTURE.md). Each is a composite
// transform in its own named scope. The expensive ones (Translate, Execute, the
// jobs' per-problem steps) take one element per problem after a Reshuffle: the
// runner sees as many units of work as there are problems and spreads them (Prism
// splits the stage's bundle into concurrent bundles; Dataflow and Flink over
// workers), and a worker's concurrent bundles share one engine set (sharedTools),
// whose coalescers keep batching small executions into one compile.

func init() {
	// By reflection, not register.DoFn*: those instantiate Beam's generic
	// bundle-method wrappers per signature; with the stage DoFns this package's
	// compile peak went from 0.66 GB to 2.7 GB, and with only the splitter and the
	// batcher (universal types) to 1.3 GB (see registerTable). The emitters and
	// iterators keep their generated fast paths.
	for _, fn := range []any{&splitFn{}, &translateFn{}, &executeFn{}, &batchKeyFn{}, &mergeItemsFn{}} {
		beam.RegisterType(reflect.TypeOf(fn).Elem())
	}
	register.Emitter1[beam.Y]()
	register.Emitter1[evaluate.Translated]()
	register.Emitter1[evaluate.Output]()
	register.Emitter1[evaluate.Item]()
	register.Emitter2[string, beam.X]()
	register.Iter1[evaluate.Translated]()
	register.Iter1[evaluate.Item]()
	beam.RegisterType(reflect.TypeOf((*evaluate.Translated)(nil)).Elem())
}

// Load reads the corpora of c and merges the problem each lists under one id (TRACE
// tasks are TransCoder-test problems) so each translation runs once: one item per
// problem, and the corpora's error rows.
func Load(s beam.Scope, c Config) (items, errs beam.PCollection) {
	s = s.Scope("Load")
	specs := beam.CreateList(s.Scope("Corpora"), c.Corpora)
	keyed, errs := beam.ParDo2(s, &loadFn{Run: c.Run, Directions: c.Directions, Limit: c.Limit, Problems: c.Problems, MaxLine: c.MaxLineBytes}, specs)
	items = beam.ParDo(s.Scope("Merge"), &mergeItemsFn{}, beam.GroupByKey(s, keyed))
	return items, errs
}

// Translate translates every problem of items (evaluate.Evaluator.Translate): one
// evaluate.Translated per problem. The Reshuffle before it lets the runner spread the
// problems; translation is network-bound (LLMs), so it is a stage of its own.
func Translate(s beam.Scope, c Config, items beam.PCollection) beam.PCollection {
	s = s.Scope("Translate")
	return beam.ParDo(s, &translateFn{Run: c.Run, Translators: c.Translators, Progress: c.Progress}, beam.Reshuffle(s, items))
}

// Execute runs and judges every translated problem (evaluate.Evaluator.Execute:
// golds, translations, harness fidelity, both oracles): one evaluate.Output per
// problem. It is CPU-bound and a stage apart from Translate, so the runner sizes
// each on its own. Its unit of work is a batch of BatchProblems problems (a
// GroupByKey on a batch key): the runner spreads the batches over bundles and
// workers, and a batch's problems run at once on the worker's shared engines, so
// that the C++ coalescer finds small batches to compile as one unit.
func Execute(s beam.Scope, c Config, translated beam.PCollection) beam.PCollection {
	s = s.Scope("Execute")
	batches := Batches(s, translated)
	return beam.ParDo(s, &executeFn{Exec: execOf(c)}, batches)
}

// BatchProblems is how many problems an Execute batch holds: with Parallelism 2,
// about what the engines' slots of one worker keep busy, so that a worker running
// two or three batches at once has small batches for the coalescer to merge.
const BatchProblems = 4

// Batches groups col's elements into batches of BatchProblems (key: the batch).
func Batches(s beam.Scope, col beam.PCollection) beam.PCollection {
	s = s.Scope("Batch")
	return beam.GroupByKey(s, beam.ParDo(s, &batchKeyFn{Size: BatchProblems}, col))
}

// runBatch applies fn to every element of a batch at once and emits the results on
// the calling goroutine (Beam emitters are not safe for concurrent use). A batch is
// a few problems: the concurrency that lets one worker's engines batch their
// executions, not the distribution of the work, which is the runner's.
func runBatch[I, O any](batch func(*I) bool, fn func(I) O, emit func(O)) {
	outs := make(chan O)
	var wg sync.WaitGroup
	var it I
	for batch(&it) {
		wg.Add(1)
		go func(it I) {
			defer wg.Done()
			outs <- fn(it)
		}(it)
		it = *new(I)
	}
	go func() {
		wg.Wait()
		close(outs)
	}()
	for out := range outs {
		emit(out)
	}
}

// batchKeyFn keys elements by batch: Size consecutive elements of a bundle share a
// key (a random prefix per bundle, so bundles and workers never share one). Which
// problems share a batch changes no table row: each problem is judged alone.
type batchKeyFn struct {
	Size int

	prefix string
	n      int
}

func (f *batchKeyFn) StartBundle(_ func(string, beam.X)) {
	f.prefix = fmt.Sprintf("%016x", rand.Uint64())
	f.n = 0
}

func (f *batchKeyFn) ProcessElement(x beam.X, emit func(string, beam.X)) {
	emit(fmt.Sprintf("%s/%d", f.prefix, f.n/max(f.Size, 1)), x)
	f.n++
}

// mergeItemsFn joins the items of one problem id read from several corpora: the
// TransCoder-test problem wins, tasks are deduplicated and sorted.
type mergeItemsFn struct{}

func (f *mergeItemsFn) ProcessElement(ctx context.Context, id string, items func(*evaluate.Item) bool, emit func(evaluate.Item)) {
	emit(mergeItems(items))
	problemsLoaded.Inc(ctx, 1)
}

// mergeItems is the merge of mergeItemsFn.
func mergeItems(items func(*evaluate.Item) bool) evaluate.Item {
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
	return merged
}

var (
	problemsLoaded     = beam.NewCounter("transmute", "problems_loaded")
	problemsTranslated = beam.NewCounter("transmute", "problems_translated")
	translateBundles   = beam.NewCounter("transmute", "bundles_translate")
	executeBundles     = beam.NewCounter("transmute", "bundles_execute")
)

// translateFn translates one problem with the worker's shared translators.
type translateFn struct {
	Run         string
	Translators []string
	Progress    bool

	ev    *evaluate.Evaluator
	tools lazyTools
}

func (f *translateFn) Teardown() error {
	f.tools.release()
	return nil
}

func (f *translateFn) StartBundle(ctx context.Context, _ func(evaluate.Translated)) {
	translateBundles.Inc(ctx, 1)
	announceCounters(ctx, problemsTranslated)
}

func (f *translateFn) ProcessElement(ctx context.Context, it evaluate.Item, emit func(evaluate.Translated)) error {
	t, err := f.tools.get(ctx, toolSpec{Translators: f.Translators})
	if err != nil {
		return err
	}
	if f.ev == nil {
		f.ev = &evaluate.Evaluator{Run: f.Run, Translators: t.translators}
	}
	if f.Progress { // the meter's total grows as problems reach the Execute stage
		evalMeter.AddTotal(1)
	}
	emit(f.ev.Translate(ctx, it))
	problemsTranslated.Inc(ctx, 1)
	return nil
}

// executeFn executes and judges one translated problem on the worker's shared engines.
type executeFn struct {
	Exec
	ev    *evaluate.Evaluator
	tools lazyTools
}

func (f *executeFn) Teardown() error {
	f.tools.release()
	return nil
}

func (f *executeFn) StartBundle(ctx context.Context, _ func(evaluate.Output)) {
	executeBundles.Inc(ctx, 1)
	announceCounters(ctx, problemsDone, programsRun)
}

// announceCounters creates a bundle's counters at its start, so that the first
// progress report (after 100 ms) tells Prism their short ids. Prism v2.77.0 keeps
// one pending payload per unknown short id: two bundles that finish before it has
// asked the worker for the id's metadata overwrite each other's count, and a run of
// the bundled corpus once recorded 26 of its 30 problems_evaluated (the tables had
// all 30). With the ids known early the race needs a bundle shorter than a tick.
func announceCounters(ctx context.Context, cs ...beam.Counter) {
	for _, c := range cs {
		c.Inc(ctx, 0)
	}
}

func (f *executeFn) ProcessElement(ctx context.Context, _ string, batch func(*evaluate.Translated) bool, emit func(evaluate.Output)) error {
	tl, err := f.tools.get(ctx, f.toolSpec(false))
	if err != nil {
		return err
	}
	if f.ev == nil {
		f.ev = &evaluate.Evaluator{Run: f.Run, Engines: tl.engines, Tolerance: values.DefaultTolerance,
			Limits: f.limits(), CppArgs: f.CppArgs}
	}
	runBatch(batch, func(t evaluate.Translated) evaluate.Output { return f.ev.Execute(ctx, t) }, func(out evaluate.Output) {
		problemsDone.Inc(ctx, 1)
		programsRun.Inc(ctx, int64(len(out.Executions)))
		PauseAt("evaluate")
		if f.Progress {
			evalMeter.Done(1)
		}
		emit(out)
	})
	return nil
}

// toolSpec says what a stage opens: translators, engines, or both.
type toolSpec struct {
	Translators []string
	Engines     bool
	WorkDir     string
	Parallelism int
	ExecCache   string
}

func (s toolSpec) key() string {
	return fmt.Sprintf("%q|%v|%q|%d|%q|%q", s.Translators, s.Engines, s.WorkDir, s.Parallelism, s.ExecCache,
		engineFault())
}

// sharedTools are the tools open in this worker process, one set per spec. The
// runner runs a stage's concurrent bundles on separate DoFn instances, each with its
// own Setup: sharing one engine set among them keeps the engines' slots (sized by
// Parallelism) a per-worker bound and lets the C++ coalescer group the small batches
// of every bundle; a set per instance would multiply both.
var sharedTools struct {
	sync.Mutex
	m map[string]*sharedEntry
}

type sharedEntry struct {
	t    *tools
	refs int
}

// acquireTools returns the worker's tools for spec, opening them on first use, and
// a release that closes them when the last user is gone.
func acquireTools(ctx context.Context, spec toolSpec) (*tools, func(), error) {
	sharedTools.Lock()
	defer sharedTools.Unlock()
	if sharedTools.m == nil {
		sharedTools.m = map[string]*sharedEntry{}
	}
	k := spec.key()
	e, ok := sharedTools.m[k]
	if !ok {
		var t *tools
		var err error
		if spec.Engines {
			t, err = openTools(ctx, spec.Translators, spec.WorkDir, spec.Parallelism, spec.ExecCache)
		} else {
			t, err = openTranslators(ctx, spec.Translators)
		}
		if err != nil {
			return nil, nil, err
		}
		e = &sharedEntry{t: t}
		sharedTools.m[k] = e
	}
	e.refs++
	var once sync.Once
	return e.t, func() {
		once.Do(func() {
			sharedTools.Lock()
			defer sharedTools.Unlock()
			if e.refs--; e.refs == 0 {
				delete(sharedTools.m, k)
				e.t.Close()
			}
		})
	}, nil
}

// lazyTools holds a DoFn instance's share of the worker's tools. It opens them at
// the first element, not in Setup: Prism asks a bundle for a split after 100-200 ms,
// and a bundle still in Setup (starting a JVM, compiling the C++ harness) answers
// none, after which Prism never asks that bundle again, so the whole stage ran as
// one bundle. At the first element, the split succeeds.
type lazyTools struct {
	once sync.Once
	t    *tools
	rel  func()
	err  error
}

func (l *lazyTools) get(ctx context.Context, spec toolSpec) (*tools, error) {
	l.once.Do(func() { l.t, l.rel, l.err = acquireTools(ctx, spec) })
	return l.t, l.err
}

func (l *lazyTools) release() {
	if l.rel != nil {
		l.rel()
		l.rel = nil
	}
}

// splitFn emits the elements of one slice field of its input (Field, a dotted path
// such as "Outcome.Profiles"): the one DoFn that turns a stage's per-problem output
// into the rows of each table.
type splitFn struct {
	Field string
}

func (f *splitFn) ProcessElement(o beam.X, emit func(beam.Y)) {
	v := fieldByPath(reflect.ValueOf(o), f.Field)
	if v.Kind() != reflect.Slice {
		emit(v.Interface())
		return
	}
	for i := 0; i < v.Len(); i++ {
		emit(v.Index(i).Interface())
	}
}

func fieldByPath(v reflect.Value, path string) reflect.Value {
	for _, name := range strings.Split(path, ".") {
		v = v.FieldByName(name)
	}
	return v
}

// Split returns the elements of col's field (a dotted path to a []R or an R field),
// checking the path and the element type when the pipeline is built.
func Split[R any](s beam.Scope, col beam.PCollection, field string) beam.PCollection {
	want := reflect.TypeOf((*R)(nil)).Elem()
	t := col.Type().Type()
	for _, name := range strings.Split(field, ".") {
		sf, ok := t.FieldByName(name)
		if !ok {
			panic(fmt.Sprintf("split: %v has no field %q", col.Type().Type(), field))
		}
		t = sf.Type
	}
	if t != want && (t.Kind() != reflect.Slice || t.Elem() != want) {
		panic(fmt.Sprintf("split: %v.%s is %v, not %v or []%v", col.Type().Type(), field, t, want, want))
	}
	return beam.ParDo(s.Scope("Split_"+field), &splitFn{Field: field}, col, beam.TypeDefinition{Var: beam.YType, T: want})
}

// Exec is the configuration that every DoFn running programs shares (embedded, so
// its fields stay the DoFns' own exported, serialized fields). A DoFn ignores
// what it does not use (executeFn has no translators).
type Exec struct {
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
}

// limits are the per-test limits of every program the DoFn runs.
func (x Exec) limits() sandbox.Limits {
	return sandbox.Limits{CPUTime: x.CPUTime, WallTime: x.WallTime, MemoryBytes: x.MemoryBytes}
}

// variantTools are the runner.Tools of a variant job's DoFn with the tools it opened.
func (x Exec) variantTools(t *tools) runner.Tools {
	return runner.Tools{Run: x.Run, Translators: t.translators, Engines: t.engines, Limits: x.limits(),
		Tolerance: values.DefaultTolerance}
}

// toolSpec is the DoFn's engines (and its translators when withTranslators): the
// key under which a worker process shares them.
func (x Exec) toolSpec(withTranslators bool) toolSpec {
	s := toolSpec{Engines: true, WorkDir: x.WorkDir, Parallelism: x.Parallelism, ExecCache: x.ExecCache}
	if withTranslators {
		s.Translators = x.Translators
	}
	return s
}

func execOf(c Config) Exec {
	return Exec{Run: c.Run, Translators: c.Translators, Parallelism: c.Parallelism, CPUTime: c.CPUTime,
		WallTime: c.WallTime, MemoryBytes: c.MemoryBytes, CppArgs: c.CppArgs, WorkDir: c.WorkDir,
		Progress: c.Progress, ExecCache: c.ExecCache}
}
