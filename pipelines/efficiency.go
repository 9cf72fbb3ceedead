package pipelines

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"gocloud.dev/blob"

	"transmute/io/cache"
	"transmute/io/corpus"
	"transmute/io/sink"
	"transmute/io/stress"
	"transmute/schemas"
	"transmute/transforms/efficiency"
	"transmute/transforms/evaluate"
	"transmute/transforms/execute"
	"transmute/transforms/profile"
	"transmute/transforms/values"
)

// EfficiencyTables are the tables written by the efficiency job.
var EfficiencyTables = []string{"profiles", "scores", "errors", "noise"}

// EfficiencyOptions configure the efficiency job (TRACE).
type EfficiencyOptions struct {
	// PerDirection keeps at most this many tasks per direction (0 = all), chosen
	// by a hash of the problem id (SampleTasks).
	PerDirection int `json:"per_direction"`
	// Repetitions of each profile (default 5).
	Repetitions int `json:"repetitions"`
	// TimeLimit is the CPU limit of one whole-suite run (default 60s; TRACE uses
	// 180s), MemoryBytes its memory limit (default 4 GiB, as TRACE).
	TimeLimit   time.Duration `json:"time_limit"`
	MemoryBytes int64         `json:"memory_bytes"`
	// CPUs are the cores profiling runs are pinned to (default: every core of the
	// machine). Each suite leases its core host-wide (efficiency.AcquireCore): no
	// two profiles on the machine run on the same core at once.
	CPUs []int `json:"cpus"`
	// Reference names the translators whose correct translations enter every
	// task's efficiency reference set (default: all), as TRACE's reference set is
	// the correct translations of the evaluated models.
	Reference []string `json:"reference"`
	// RefGold adds each task's ground truth to its reference set (not TRACE's
	// definition).
	RefGold bool `json:"ref_gold"`
	// Resolution is Beyond's resolution floor (default
	// efficiency.DefaultResolution; every field negative: off).
	Resolution efficiency.Resolution `json:"resolution"`
	// Selection thresholds for the "selected" subset (default TRACE's).
	Selection efficiency.TaskSelection `json:"selection"`
	// NoiseEvery is how often each profiling core is probed for machine noise
	// (profile.MeasureNoise, written to the noise table): before a suite, when the
	// core's last probe is at least this old (default 20s; < 0: never).
	NoiseEvery time.Duration `json:"noise_every"`
	// NoiseChunks is the number of fixed-work chunks of a probe (default 5, as the
	// repetitions of a profile).
	NoiseChunks int `json:"noise_chunks"`
	// Cost is the cost mode (efficiency.CostCount, the default, or CostTime). In
	// the count mode every correct program is also counted once under callgrind
	// (profile.Options.Count) and Beyond comes from the counts and the allocation
	// peaks with fixed quantum floors; the time columns come from Repetitions
	// (default 1 in this mode) native runs, unpinned from the real-time policy, and
	// every report is cached by content in CountCache.
	Cost string `json:"cost"`
	// CountCache is the count cache's directory or bucket URL ("" or "off": none);
	// BuildEfficiency defaults it to Config.ExecCache's.
	CountCache string `json:"count_cache"`
	// CountTimeLimit bounds the CPU time of one counted run (default 600s).
	CountTimeLimit time.Duration `json:"count_time_limit"`
	// CountMaxCalls: a program whose calls take longer than this natively is
	// timed, not counted: its suite's correct programs are timed side by side
	// (efficiency.Retime) and its tasks scored on the calls' CPU time (default
	// profile.DefaultCountMaxCalls; < 0: count every program).
	CountMaxCalls time.Duration `json:"count_max_calls"`
}

func (o EfficiencyOptions) withDefaults() EfficiencyOptions {
	if o.Cost == "" {
		o.Cost = efficiency.CostCount
	}
	if o.Repetitions <= 0 {
		o.Repetitions = 5
		if o.Cost == efficiency.CostCount {
			o.Repetitions = 1
		}
	}
	if o.Cost == efficiency.CostCount && o.NoiseEvery == 0 {
		o.NoiseEvery = -1 // counts do not depend on the machine's noise
	}
	if o.TimeLimit <= 0 {
		o.TimeLimit = 60 * time.Second
	}
	if o.MemoryBytes <= 0 {
		o.MemoryBytes = 4 << 30
	}
	if len(o.CPUs) == 0 {
		for i := 0; i < runtime.NumCPU(); i++ {
			o.CPUs = append(o.CPUs, i)
		}
	}
	if o.Selection == (efficiency.TaskSelection{}) {
		o.Selection = efficiency.DefaultTaskSelection
	}
	if o.Resolution == (efficiency.Resolution{}) {
		o.Resolution = efficiency.DefaultResolution
	}
	if o.NoiseEvery == 0 {
		o.NoiseEvery = 20 * time.Second
	}
	if o.NoiseChunks <= 0 {
		o.NoiseChunks = 5
	}
	return o
}

func (o EfficiencyOptions) profileOptions(workDir string) efficiency.ProfileOptions {
	return efficiency.ProfileOptions{Repetitions: o.Repetitions, TimeLimit: o.TimeLimit, MemoryBytes: o.MemoryBytes,
		WorkDir: workDir, Cost: o.Cost, CountTimeLimit: o.CountTimeLimit, CountMaxCalls: o.CountMaxCalls}
}

// CheckCost checks a cost mode (EfficiencyOptions.Cost; "" is the default).
func CheckCost(cost string) error {
	switch cost {
	case "", efficiency.CostCount, efficiency.CostTime:
		return nil
	}
	return fmt.Errorf("--cost %q: want %s or %s", cost, efficiency.CostCount, efficiency.CostTime)
}

func init() {
	for _, fn := range []any{&effLoadFn{}, &effCheckFn{}, &splitSuitesFn{}, &effProfileFn{}, &effSettleFn{}} {
		beam.RegisterType(reflect.TypeOf(fn).Elem())
	}
	for _, t := range []any{efficiency.Item{}, efficiency.Problem{}, efficiency.Output{}, efficiency.TaskOutcome{},
		efficiency.Suite{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	// Gob: a profile report holds times.
	beam.RegisterCoder(reflect.TypeOf(efficiency.SuiteProfile{}), encodeSuiteProfile, decodeSuiteProfile)
	registerTable[schemas.ProfileRow]()
	registerTable[schemas.NoiseRow]()
	beam.RegisterFunction(keyEffOutcome)
	beam.RegisterFunction(keyEffProblem)
}

// BuildEfficiency adds the efficiency job (TRACE) to s: read the TRACE
// corpora and their stress suites and sample tasks per direction (Load), check
// every translation on the default tests (Check: transforms/evaluate, oracle: the
// ground-truth target), profile the ground truth and the passing translations
// suite by suite (Profile: transforms/profile, each suite on a core of its own),
// keep as correct those whose stress outputs equal the ground truth's and score
// Beyond against each task's reference set (Settle), aggregate (Score), and write
// the EfficiencyTables.
func BuildEfficiency(s beam.Scope, c Config, o EfficiencyOptions) {
	c = c.WithDefaults()
	o = o.withDefaults()
	if o.CountCache == "" && c.ExecCache != "" && c.ExecCache != "off" {
		o.CountCache = c.ExecCache
	}
	specs := beam.CreateList(s.Scope("Corpora"), c.Corpora)
	items, loadErrs := beam.ParDo2(s.Scope("Load"), &effLoadFn{Run: c.Run, Directions: c.Directions,
		PerDirection: o.PerDirection, Problems: c.Problems}, specs)
	checked, checkErrs := EfficiencyCheck(s, c, items)
	outs, noise := EfficiencyProfile(s, c, o, checked)
	errs := beam.Flatten(s, loadErrs, checkErrs, Split[schemas.ErrorRow](s, outs, "Errors"), translatorInputErrors(s, c))
	scores := EfficiencyScore(s, c.Run, outs)

	writeTable[schemas.ProfileRow](s, c.Output, "profiles", c.RowsPerFile, Split[schemas.ProfileRow](s, outs, "Outcome.Profiles"))
	writeTable[schemas.ScoreRow](s, c.Output, "scores", c.RowsPerFile, scores)
	writeTable[schemas.ErrorRow](s, c.Output, "errors", c.RowsPerFile, errs)
	writeTable[schemas.NoiseRow](s, c.Output, "noise", c.RowsPerFile, noise)
}

// EfficiencyCheck runs the default tests of every task (efficiency.CheckedProblem
// over transforms/evaluate): one efficiency.Problem per problem, in batches on the
// worker's shared engines, as the evaluate job's Execute.
func EfficiencyCheck(s beam.Scope, c Config, items beam.PCollection) (checked, errs beam.PCollection) {
	s = s.Scope("CheckDefaultTests")
	return beam.ParDo2(s, &effCheckFn{Exec: execOf(c)}, Batches(s, items))
}

// EfficiencyProfile profiles every suite (problem, target language) as an
// element of its own, after a Reshuffle, which is also a barrier: profiling starts
// once every default-test check is done, so no check competes with it for the
// cores. Each suite takes a core leased host-wide (efficiency.AcquireCore), so
// concurrent bundles and worker processes never share one. A CoGroupByKey brings
// each problem's suite profiles back to it, and Settle makes its tasks' outcomes.
func EfficiencyProfile(s beam.Scope, c Config, o EfficiencyOptions, checked beam.PCollection) (outs, noise beam.PCollection) {
	s = s.Scope("Profile")
	suites := beam.Reshuffle(s, beam.ParDo(s, &splitSuitesFn{PerProgram: o.Cost == efficiency.CostCount}, checked))
	profiled, noise := beam.ParDo2(s, &effProfileFn{Run: c.Run, Options: o, WorkDir: c.WorkDir, Progress: c.Progress}, suites)
	joined := beam.CoGroupByKey(s, beam.ParDo(s, keyEffProblem, checked), profiled)
	return beam.ParDo(s.Scope("Settle"), &effSettleFn{Run: c.Run, Options: o, WorkDir: c.WorkDir}, joined), noise
}

// effLoadFn reads one TRACE corpus spec and its stress suites (<dir>/Trace_Tests)
// and emits the items efficiency.SelectItems keeps, one per problem.
type effLoadFn struct {
	Run          string
	Directions   string
	PerDirection int
	Problems     []string // Config.Problems: only these (empty = all)
}

func (f *effLoadFn) ProcessElement(ctx context.Context, spec string, emit func(efficiency.Item), emitErr func(schemas.ErrorRow)) error {
	kind, rest, _ := strings.Cut(spec, ":")
	if kind != "trace" {
		return fmt.Errorf("efficiency job: corpus %q: want trace:<dir> (stress suites come from <dir>/Trace_Tests)", spec)
	}
	loc, _, err := corpus.SplitOptions(rest, "transcoder")
	if err != nil {
		return fmt.Errorf("efficiency job: corpus %q: %w", spec, err)
	}
	c, err := corpus.Load(ctx, spec)
	if err != nil {
		return fmt.Errorf("load %s: %w", spec, err)
	}
	dirs, err := evaluate.Directions(f.Directions)
	if err != nil {
		return err
	}
	problems := map[string]schemas.Problem{}
	for _, p := range c.Problems {
		problems[p.ID] = p
	}
	suites, suiteErrs := stress.LoadAll(ctx, strings.TrimSuffix(loc, "/")+"/Trace_Tests", problems)
	sel := efficiency.SelectItems(problems, c.Tasks, suites, dirs, f.Problems, f.PerDirection)
	for _, errs := range [][]schemas.ErrorRow{c.Errors, suiteErrs, sel.Errors} {
		for _, e := range errs {
			e.Run = f.Run
			emitErr(e)
		}
	}
	for _, it := range sel.Items {
		emit(it)
	}
	log.Infof(ctx, "efficiency: corpus %s: %d tasks with a stress suite, %d without (default tests only), %d sampled over %d problems",
		spec, sel.WithSuite, sel.WithoutSuite, sel.Sampled, sel.Ids)
	return nil
}

// effCheckFn runs the default tests of every task of a batch of problems
// (transforms/evaluate) and emits, per problem, the translations that pass.
type effCheckFn struct {
	Exec
	ev    *evaluate.Evaluator
	tools lazyTools
}

func (f *effCheckFn) Teardown() error {
	f.tools.release()
	return nil
}

func (f *effCheckFn) ProcessElement(ctx context.Context, _ string, batch func(*efficiency.Item) bool,
	emit func(efficiency.Problem), emitErr func(schemas.ErrorRow)) error {
	t, err := f.tools.get(ctx, f.toolSpec(true))
	if err != nil {
		return err
	}
	if f.ev == nil {
		f.ev = &evaluate.Evaluator{Run: f.Run, Translators: t.translators, Engines: t.engines, Tolerance: values.DefaultTolerance,
			Limits: f.limits(), CppArgs: f.CppArgs}
	}
	type result struct {
		p    efficiency.Problem
		errs []schemas.ErrorRow
	}
	runBatch(batch, func(item efficiency.Item) result {
		if f.Progress {
			effCheckMeter.AddTotal(1)
		}
		out := f.ev.Evaluate(ctx, item.Item)
		return result{efficiency.CheckedProblem(item, out), out.Errors}
	}, func(r result) {
		if f.Progress {
			effCheckMeter.Done(1)
		}
		for _, e := range r.errs {
			emitErr(e)
		}
		emit(r.p)
	})
	return nil
}

// splitSuitesFn emits the suites of a checked problem (efficiency.Suites), in
// the count mode a suite per program (efficiency.SplitPrograms).
type splitSuitesFn struct {
	PerProgram bool
}

func (f *splitSuitesFn) ProcessElement(p efficiency.Problem, emit func(efficiency.Suite)) {
	suites := efficiency.Suites(p)
	if f.PerProgram {
		suites = efficiency.SplitPrograms(suites)
	}
	for _, s := range suites {
		emit(s)
	}
}

func keyEffProblem(p efficiency.Problem) (string, efficiency.Problem) { return p.ProblemID, p }

// effProfileFn profiles one suite on a core it leases for the suite (probing the
// core for machine noise first when due) and emits the profiles keyed by problem.
type effProfileFn struct {
	Run      string
	Options  EfficiencyOptions
	WorkDir  string
	Progress bool

	counts      countCache
	noiseFailed map[int]bool
}

func (f *effProfileFn) Teardown() error {
	f.counts.close()
	return nil
}

// countCache is a DoFn's count cache, opened at its first use and kept for the
// DoFn's lifetime.
type countCache struct {
	store  execute.Store
	err    error
	opened bool
}

func (c *countCache) get(ctx context.Context, loc string) (execute.Store, error) {
	if !c.opened {
		c.store, c.err = openCountCache(ctx, loc)
		c.opened = true
	}
	return c.store, c.err
}

func (c *countCache) close() {
	if cc, ok := c.store.(*cache.Cache); ok {
		cc.Close()
	}
}

func (f *effProfileFn) ProcessElement(ctx context.Context, s efficiency.Suite, emit func(string, efficiency.SuiteProfile),
	emitNoise func(schemas.NoiseRow)) error {
	if f.Progress {
		effProfileMeter.AddTotal(int64(len(s.Programs)))
	}
	lease, err := efficiency.AcquireCore(ctx, f.Options.CPUs)
	if err != nil {
		return err
	}
	defer lease.Release()
	if due, first := lease.NoiseDue(f.Run, f.Options.NoiseEvery); due {
		f.probeNoise(lease.Core, first, emitNoise)
	}
	po := f.Options.profileOptions(f.WorkDir)
	o := f.Options
	if o.Cost == efficiency.CostCount {
		if po.CountCache, err = f.counts.get(ctx, o.CountCache); err != nil {
			emit(s.ProblemID, efficiency.FailedSuite(s, lease.Core, err))
			return nil
		}
	}
	emit(s.ProblemID, efficiency.ProfileSuite(ctx, s, lease.Core, po))
	if f.Progress {
		effProfileMeter.Done(int64(len(s.Programs)))
	}
	return nil
}

// probeNoise measures the machine's noise on core (profile.MeasureNoise) and emits
// its row; the first probe of a core in the run is also printed.
func (f *effProfileFn) probeNoise(core int, first bool, emit func(schemas.NoiseRow)) {
	s, err := profile.MeasureNoise(core, f.Options.NoiseChunks)
	if err != nil {
		if !f.noiseFailed[core] { // the profiles on this core will say why too
			if f.noiseFailed == nil {
				f.noiseFailed = map[int]bool{}
			}
			f.noiseFailed[core] = true
			fmt.Fprintf(os.Stderr, "[transmute efficiency] %v\n", err)
		}
		return
	}
	emit(efficiency.NoiseRowOf(f.Run, s))
	if first && f.Progress {
		fmt.Fprintf(os.Stderr, "\n[transmute efficiency] machine noise on core %d, %d chunks of fixed work: compute %.1f ms a chunk, CV %.1f%%; cache walk %.1f ms, CV %.1f%% (work that does not vary; a program's CV from the machine lies roughly between the two, by how much of its time waits on memory)\n",
			core, len(s.Compute), efficiency.Millis(s.Compute.Mean()), 100*s.Compute.CV(), efficiency.Millis(s.Cache.Mean()), 100*s.Cache.CV())
	}
}

// openCountCache opens the count cache at loc (nil for "" or "off").
func openCountCache(ctx context.Context, loc string) (execute.Store, error) {
	if loc == "" || loc == "off" {
		return nil, nil
	}
	c, err := cache.Open(ctx, loc, "count")
	if err != nil {
		return nil, fmt.Errorf("count cache %s: %w", loc, err)
	}
	return c, nil
}

// effSettleFn settles the tasks of one problem from its suites' profiles
// (efficiency.Settle). In the count mode it first times side by side the
// correct programs of each suite that has one too heavy to count
// (efficiency.RetimeProblem): after the CoGroupByKey every program has its first
// pass, and the elements are keyed by problem, so a distributed runner spreads
// these timings too.
type effSettleFn struct {
	Run     string
	Options EfficiencyOptions
	WorkDir string

	counts countCache
}

func (f *effSettleFn) Teardown() error {
	f.counts.close()
	return nil
}

func (f *effSettleFn) ProcessElement(ctx context.Context, _ string, problems func(*efficiency.Problem) bool,
	profiles func(*efficiency.SuiteProfile) bool, emit func(efficiency.Output)) error {
	var p efficiency.Problem
	if !problems(&p) {
		return nil
	}
	var sps []efficiency.SuiteProfile
	var sp efficiency.SuiteProfile
	for profiles(&sp) {
		sps = append(sps, sp)
		sp = efficiency.SuiteProfile{}
	}
	o := f.Options
	if o.Cost == efficiency.CostCount {
		po := o.profileOptions(f.WorkDir)
		// Without the count cache (it failed to open) the timing runs uncached;
		// the profiling stage made error rows of that failure already.
		po.CountCache, _ = f.counts.get(ctx, o.CountCache)
		if err := efficiency.RetimeProblem(ctx, p, sps, o.CPUs, po); err != nil {
			return err
		}
	}
	opt := efficiency.ScoreOptions{RefGold: o.RefGold, Selection: o.Selection, Resolution: o.Resolution, Cost: o.Cost}
	if len(o.Reference) > 0 {
		ref := map[string]bool{}
		for _, r := range o.Reference {
			ref[r] = true
		}
		opt.InReference = func(t string) bool { return ref[t] }
	}
	for _, out := range efficiency.Settle(f.Run, p, sps, opt) {
		emit(out)
	}
	return nil
}

func encodeSuiteProfile(p efficiency.SuiteProfile) ([]byte, error) { return gobEncode(p) }
func decodeSuiteProfile(b []byte) (efficiency.SuiteProfile, error) {
	var p efficiency.SuiteProfile
	_, err := gobDecode(b, &p)
	return p, err
}

// effPooledKey is the score key of the rows pooled over every direction.
const effPooledKey = efficiency.AllLangs

// keyEffOutcome keys a task's outcome by its direction, whose rows (Pass, Beyond,
// intervals, the reference sets) need that direction's tasks only, and by
// effPooledKey, for the rows over every direction (all-directions figures, the
// correlations across models, the measurement figures per language): medians,
// bootstrap intervals and correlations over every task, which no partial
// aggregate gives.
func keyEffOutcome(o efficiency.Output, emit func(string, efficiency.TaskOutcome)) {
	emit(o.Outcome.Task.SrcLang+"-"+o.Outcome.Task.TgtLang, o.Outcome)
	emit(effPooledKey, o.Outcome)
}

// FinishEfficiency is Finish for the EfficiencyTables: it writes an empty profiles
// shard when the run profiled nothing (Finish's writeEmpty does not know the table).
func FinishEfficiency(ctx context.Context, b *blob.Bucket, m *Manifest) error {
	if _, shards, err := countRows(ctx, b, "profiles"); err != nil {
		return err
	} else if shards == 0 {
		if _, err := sink.WriteShard[schemas.ProfileRow](ctx, b, "profiles", nil); err != nil {
			return err
		}
	}
	return Finish(ctx, b, m, EfficiencyTables)
}
