package pipelines

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
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

// EfficiencyOptions configure the efficiency job (seed 002, TRACE).
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
	// CPUs are the cores profiling runs are pinned to, one profiling worker per
	// core (default: every core of the machine). No two profiles of this process
	// ever run on the same core at once.
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

// CheckCost checks a cost mode (EfficiencyOptions.Cost; "" is the default).
func CheckCost(cost string) error {
	switch cost {
	case "", efficiency.CostCount, efficiency.CostTime:
		return nil
	}
	return fmt.Errorf("--cost %q: want %s or %s", cost, efficiency.CostCount, efficiency.CostTime)
}

// StressSuite is the stress tests of one problem in one target language.
type StressSuite struct {
	Lang  string
	Tests []schemas.Test
}

// EfficiencyItem is a problem, its sampled tasks and its stress suites.
type EfficiencyItem struct {
	Item   evaluate.Item
	Suites []StressSuite
}

// EfficiencyTranslation is a translation that passed the default tests.
type EfficiencyTranslation struct {
	Translator, Code, Imports, Entry string
}

// EfficiencyTask is one task after the default-test check.
type EfficiencyTask struct {
	Task         schemas.Task
	Translators  []string
	PassDefault  []bool
	Translations []EfficiencyTranslation // to profile; none when NoSuite
	// NoSuite: no stress suite in the target language; the task counts for Pass
	// over every task (SubsetEveryTask) only.
	NoSuite bool
}

// EfficiencyProblem is what the profiling stage needs of one problem.
type EfficiencyProblem struct {
	ProblemID string
	Params    []schemas.Param
	Returns   string
	Golds     []schemas.Function // ground-truth target functions
	Suites    []StressSuite
	Tasks     []EfficiencyTask
}

// EfficiencyOutput is one task's outcome, with the error rows met on the way.
type EfficiencyOutput struct {
	Outcome efficiency.TaskOutcome
	Errors  []schemas.ErrorRow
}

func init() {
	for _, t := range []any{&effLoadFn{}, &effCheckFn{}, &effProfileFn{},
		EfficiencyItem{}, EfficiencyProblem{}, EfficiencyOutput{}, efficiency.TaskOutcome{}, StressSuite{},
		EfficiencyTask{}, EfficiencyTranslation{}} {
		rt := reflect.TypeOf(t)
		if rt.Kind() == reflect.Pointer {
			rt = rt.Elem()
		}
		beam.RegisterType(rt)
	}
	registerTable[schemas.ProfileRow]()
	registerTable[schemas.NoiseRow]()
	beam.RegisterFunction(keyEffOutcome)
}

// BuildEfficiency adds the efficiency job (seed 002, TRACE) to s: read the TRACE
// corpora and their stress suites, sample tasks per direction, check every
// translation on the default tests (transforms/evaluate, oracle: the ground-truth
// target), profile the ground truth and the passing translations on the task's
// stress suite (transforms/profile: 5 fresh pinned processes, one profiling worker
// per core), keep as correct those whose stress outputs equal the ground truth's,
// score Beyond against each task's reference set, aggregate, and write the
// EfficiencyTables.
func BuildEfficiency(s beam.Scope, c Config, o EfficiencyOptions) {
	c = c.WithDefaults()
	o = o.withDefaults()
	if o.CountCache == "" && c.ExecCache != "" && c.ExecCache != "off" {
		o.CountCache = c.ExecCache
	}
	specs := beam.CreateList(s.Scope("Corpora"), c.Corpora)
	items, loadErrs := beam.ParDo2(s.Scope("Load"), &effLoadFn{Run: c.Run, Directions: c.Directions,
		PerDirection: o.PerDirection, Problems: c.Problems}, specs)
	check := s.Scope("CheckDefaultTests")
	checked, checkErrs := beam.ParDo2(check, &effCheckFn{Exec: execOf(c)}, Batches(check, items))
	// The GroupByKey (per problem) is also a barrier: profiling starts once every
	// default-test check is done, so that no check competes with it for the cores.
	outs, noise := beam.ParDo2(s.Scope("Profile"), &effProfileFn{Run: c.Run, Options: o, WorkDir: c.WorkDir,
		Progress: c.Progress}, beam.GroupByKey(s, checked))
	profiles := Split[schemas.ProfileRow](s, outs, "Outcome.Profiles")
	errs := beam.Flatten(s, loadErrs, checkErrs, Split[schemas.ErrorRow](s, outs, "Errors"), translatorInputErrors(s, c))
	scores := EfficiencyScore(s, c.Run, outs)

	writeTable[schemas.ProfileRow](s, c.Output, "profiles", c.RowsPerFile, profiles)
	writeTable[schemas.ScoreRow](s, c.Output, "scores", c.RowsPerFile, scores)
	writeTable[schemas.ErrorRow](s, c.Output, "errors", c.RowsPerFile, errs)
	writeTable[schemas.NoiseRow](s, c.Output, "noise", c.RowsPerFile, noise)
}

// effLoadFn reads one TRACE corpus spec and its stress suites (<dir>/Trace_Tests),
// samples per direction the tasks whose target language has an ingested suite, and
// apart from them the tasks without one (checked on their default tests for Pass
// over every task, not profiled), and emits one item per problem.
type effLoadFn struct {
	Run          string
	Directions   string
	PerDirection int
	Problems     []string // Config.Problems: only these (empty = all)
}

func (f *effLoadFn) ProcessElement(ctx context.Context, spec string, emit func(EfficiencyItem), emitErr func(schemas.ErrorRow)) error {
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
	fail := func(e schemas.ErrorRow) {
		e.Run = f.Run
		emitErr(e)
	}
	for _, e := range c.Errors {
		fail(e)
	}
	problems := map[string]schemas.Problem{}
	for _, p := range c.Problems {
		problems[p.ID] = p
	}
	suites, serrs := stress.LoadAll(ctx, strings.TrimSuffix(loc, "/")+"/Trace_Tests", problems)
	for _, e := range serrs {
		fail(e)
	}
	dirs, err := evaluate.Directions(f.Directions)
	if err != nil {
		return err
	}
	want := map[schemas.Direction]bool{}
	for _, d := range dirs {
		want[d] = true
	}
	var tasks, noSuite []schemas.Task
	selected := map[string]bool{}
	for _, id := range f.Problems {
		selected[id] = true
	}
	for _, t := range c.Tasks {
		if (dirs != nil && !want[schemas.DirectionOf(t)]) || (len(selected) > 0 && !selected[t.ProblemID]) {
			continue
		}
		if len(suites[t.ProblemID][t.TgtLang]) == 0 {
			fail(schemas.ErrorRow{Stage: "efficiency", Corpus: t.Corpus, ProblemID: t.ProblemID, Lang: t.TgtLang,
				Reason: "no stress suite for the target language (the task counts for Pass over every task only)",
				Detail: t.SrcLang + "->" + t.TgtLang})
			noSuite = append(noSuite, t)
			continue
		}
		tasks = append(tasks, t)
	}
	sampled := efficiency.SampleTasks(tasks, f.PerDirection)
	sampledNoSuite := efficiency.SampleTasks(noSuite, f.PerDirection)
	sampled = append(sampled, sampledNoSuite...)
	byProblem := map[string][]schemas.Task{}
	var order []string
	for _, t := range sampled {
		if byProblem[t.ProblemID] == nil {
			order = append(order, t.ProblemID)
		}
		byProblem[t.ProblemID] = append(byProblem[t.ProblemID], t)
	}
	sort.Strings(order)
	for _, id := range order {
		it := EfficiencyItem{Item: evaluate.Item{Problem: problems[id], Tasks: byProblem[id]}}
		langs := map[string]bool{}
		for _, t := range byProblem[id] {
			if !langs[t.TgtLang] && len(suites[id][t.TgtLang]) > 0 {
				langs[t.TgtLang] = true
				it.Suites = append(it.Suites, StressSuite{Lang: t.TgtLang, Tests: suites[id][t.TgtLang]})
			}
		}
		sort.Slice(it.Suites, func(i, j int) bool { return it.Suites[i].Lang < it.Suites[j].Lang })
		emit(it)
	}
	log.Infof(ctx, "efficiency: corpus %s: %d tasks with a stress suite, %d without (default tests only), %d sampled over %d problems",
		spec, len(tasks), len(noSuite), len(sampled), len(order))
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

func (f *effCheckFn) ProcessElement(ctx context.Context, _ string, batch func(*EfficiencyItem) bool,
	emit func(string, EfficiencyProblem), emitErr func(schemas.ErrorRow)) error {
	t, err := f.tools.get(ctx, f.toolSpec(true))
	if err != nil {
		return err
	}
	if f.ev == nil {
		f.ev = &evaluate.Evaluator{Run: f.Run, Translators: t.translators, Engines: t.engines, Tolerance: values.DefaultTolerance,
			Limits: f.limits(), CppArgs: f.CppArgs}
	}
	type result struct {
		p    EfficiencyProblem
		errs []schemas.ErrorRow
	}
	runBatch(batch, func(item EfficiencyItem) result {
		if f.Progress {
			effCheckMeter.AddTotal(1)
		}
		out := f.ev.Evaluate(ctx, item.Item)
		return result{checkedProblem(item, out), out.Errors}
	}, func(r result) {
		if f.Progress {
			effCheckMeter.Done(1)
		}
		for _, e := range r.errs {
			emitErr(e)
		}
		emit(r.p.ProblemID, r.p)
	})
	return nil
}

// checkedProblem keeps, for each task of item, the translators evaluated, whether
// each passed the default tests, and the passing translations' code.
func checkedProblem(item EfficiencyItem, out evaluate.Output) EfficiencyProblem {
	p := item.Item.Problem
	ep := EfficiencyProblem{ProblemID: p.ID, Params: p.Params, Returns: p.Returns, Suites: item.Suites}
	for _, s := range item.Suites {
		if f, ok := p.Function(s.Lang); ok {
			ep.Golds = append(ep.Golds, f)
		}
	}
	pass := efficiency.DefaultPass(out.Results)
	hasSuite := map[string]bool{}
	for _, s := range item.Suites {
		hasSuite[s.Lang] = true
	}
	for _, t := range item.Item.Tasks {
		et := EfficiencyTask{Task: t, NoSuite: !hasSuite[t.TgtLang]}
		seen := map[string]bool{}
		for _, tr := range out.Translations {
			if tr.Sample != 0 || tr.VariantID != "orig" || tr.SrcLang != t.SrcLang || tr.TgtLang != t.TgtLang || seen[tr.Translator] {
				continue
			}
			seen[tr.Translator] = true
			ok := tr.Status == schemas.TranslationOK && pass[tr.Translator+"|"+t.SrcLang+"|"+t.TgtLang]
			et.Translators = append(et.Translators, tr.Translator)
			et.PassDefault = append(et.PassDefault, ok)
			if ok && !et.NoSuite {
				et.Translations = append(et.Translations, EfficiencyTranslation{Translator: tr.Translator,
					Code: tr.Code, Imports: tr.Imports, Entry: tr.Entry})
			}
		}
		ep.Tasks = append(ep.Tasks, et)
	}
	return ep
}

// corePools hand out the profiling cores of this process, one profile per core at
// a time, whatever bundles the runner schedules in parallel (profiling needs its
// cores to itself: see docs/EFFICIENCY.md). One pool per set of cores.
var corePools struct {
	sync.Mutex
	m map[string]chan int
}

func corePool(cpus []int) chan int {
	corePools.Lock()
	defer corePools.Unlock()
	if corePools.m == nil {
		corePools.m = map[string]chan int{}
	}
	k := fmt.Sprint(cpus)
	p, ok := corePools.m[k]
	if !ok {
		p = make(chan int, len(cpus))
		for _, c := range cpus {
			p <- c
		}
		corePools.m[k] = p
	}
	return p
}

// lastNoise is when each core was last probed for machine noise, process-wide.
var lastNoise struct {
	sync.Mutex
	at map[int]time.Time
}

// noiseDue reports whether core is due for a noise probe, and if so marks it
// probed now (the caller then probes it, holding the core); first: the core's
// first probe in this process.
func noiseDue(core int, every time.Duration) (due, first bool) {
	if every < 0 {
		return false, false
	}
	lastNoise.Lock()
	defer lastNoise.Unlock()
	if lastNoise.at == nil {
		lastNoise.at = map[int]time.Time{}
	}
	t, ok := lastNoise.at[core]
	if ok && time.Since(t) < every {
		return false, false
	}
	lastNoise.at[core] = time.Now()
	return true, !ok
}

// NoiseRowOf is the noise table's row of a probe.
func NoiseRowOf(run string, s profile.NoiseSample) schemas.NoiseRow {
	return schemas.NoiseRow{Run: run, Core: int32(s.CPU), At: s.Start.UTC().Format(time.RFC3339Nano),
		Chunks:      int32(len(s.Compute)),
		ChunkMeanMs: efficiency.Millis(s.Compute.Mean()), ChunkMinMs: efficiency.Millis(s.Compute.Min()), ChunkMaxMs: efficiency.Millis(s.Compute.Max()), CV: s.Compute.CV(),
		CacheChunkMeanMs: efficiency.Millis(s.Cache.Mean()), CacheChunkMinMs: efficiency.Millis(s.Cache.Min()), CacheChunkMaxMs: efficiency.Millis(s.Cache.Max()),
		CacheCV: s.Cache.CV()}
}

// effProfileFn profiles the ground truths and passing translations of a problem,
// each suite on a core of Options.CPUs taken from the process's core pool, and
// settles every task.
type effProfileFn struct {
	Run      string
	Options  EfficiencyOptions
	WorkDir  string
	Progress bool
}

type effJob struct {
	problem int
	key     string // content key within the problem
	lang    string
	cand    execute.Candidate
}

type effMeasured struct {
	rep  profile.Report
	core int
	err  error
}

func (f *effProfileFn) ProcessElement(ctx context.Context, _ string, problems func(*EfficiencyProblem) bool, emit func(EfficiencyOutput), emitNoise func(schemas.NoiseRow)) {
	var ps []EfficiencyProblem
	var p EfficiencyProblem
	for problems(&p) {
		ps = append(ps, p)
		p = EfficiencyProblem{}
	}
	// One job per distinct program of a problem: identical translations (same
	// language, code, imports and entry) are profiled once and share the figures.
	var jobs []effJob
	seen := map[string]bool{}
	add := func(pi int, lang string, c execute.Candidate) string {
		key := lang + "\x00" + c.Imports + "\x00" + c.Entry + "\x00" + c.Code
		if !seen[fmt.Sprint(pi)+"\x00"+key] {
			seen[fmt.Sprint(pi)+"\x00"+key] = true
			jobs = append(jobs, effJob{problem: pi, key: key, lang: lang, cand: c})
		}
		return key
	}
	for pi, pr := range ps {
		for _, g := range pr.Golds {
			add(pi, g.Lang, execute.Candidate{ID: "gold/" + g.Lang, Code: g.Code, Imports: g.Imports, Entry: g.Name})
		}
		for _, t := range pr.Tasks {
			for _, tr := range t.Translations {
				add(pi, t.Task.TgtLang, execute.Candidate{ID: evaluate.TranslationID(tr.Translator, t.Task.SrcLang, t.Task.TgtLang, 0),
					Code: tr.Code, Imports: tr.Imports, Entry: tr.Entry})
			}
		}
	}
	suites := effSuites(jobs)
	effProfileMeter.AddTotal(int64(len(jobs)))
	suite := func(pr EfficiencyProblem, lang string) []schemas.Test {
		for _, s := range pr.Suites {
			if s.Lang == lang {
				return s.Tests
			}
		}
		return nil
	}
	measured := make([]map[string]effMeasured, len(ps))
	for i := range measured {
		measured[i] = map[string]effMeasured{}
	}
	var mu sync.Mutex
	var noise []schemas.NoiseRow
	noiseFailed := map[int]bool{}
	// One job per suite (problem, target language), all on one core: the harness
	// overhead (the empty candidate, which depends only on the signature, the
	// language and the inputs) is measured once, then the suite's programs are
	// measured in rounds, one repetition of each per round (profile.ProfileSuite), so
	// that the programs one task compares share the core and the machine's drift.
	cores := corePool(f.Options.CPUs)
	var wg sync.WaitGroup
	for _, js := range suites {
		wg.Add(1)
		go func(js []effJob) {
			defer wg.Done()
			var err error
			core := <-cores
			defer func() { cores <- core }()
			pr := ps[js[0].problem]
			lang := js[0].lang
			opt := profile.Options{Repetitions: f.Options.Repetitions, CPU: core, TimeLimit: f.Options.TimeLimit,
				MemoryBytes: f.Options.MemoryBytes, WorkDir: f.WorkDir}
			if f.Options.Cost == efficiency.CostCount {
				// The counts decide; the time columns beside them come from plain runs
				// on the worker's core, without the real-time policy (a counted run
				// takes seconds to minutes, and nothing of it depends on the load).
				opt.Count, opt.CountTimeLimit, opt.NoRealTime = true, f.Options.CountTimeLimit, true
				opt.OverheadRepetitions, opt.Warmup = -1, -1
				if opt.Cache, err = countCache(ctx, f.Options.CountCache); err != nil {
					mu.Lock()
					for _, j := range js {
						measured[j.problem][j.key] = effMeasured{core: core, err: err}
					}
					mu.Unlock()
					return
				}
			}
			cands := make([]execute.Candidate, len(js))
			for k, j := range js {
				cands[k] = j.cand
			}
			if due, first := noiseDue(core, f.Options.NoiseEvery); due {
				s, err := profile.MeasureNoise(core, f.Options.NoiseChunks)
				mu.Lock()
				if err == nil {
					noise = append(noise, NoiseRowOf(f.Run, s))
					if first && f.Progress {
						fmt.Fprintf(os.Stderr, "\n[transmute efficiency] machine noise on core %d, %d chunks of fixed work: compute %.1f ms a chunk, CV %.1f%%; cache walk %.1f ms, CV %.1f%% (work that does not vary; a program's CV from the machine lies roughly between the two, by how much of its time waits on memory)\n",
							core, len(s.Compute), efficiency.Millis(s.Compute.Mean()), 100*s.Compute.CV(), efficiency.Millis(s.Cache.Mean()), 100*s.Cache.CV())
					}
				} else if !noiseFailed[core] { // the profiles on this core will say why too
					noiseFailed[core] = true
					fmt.Fprintf(os.Stderr, "[transmute efficiency] %v\n", err)
				}
				mu.Unlock()
			}
			reps, errs, err := profile.ProfileSuite(ctx, lang, cands, pr.Params, pr.Returns, suite(pr, lang), opt)

			mu.Lock()
			for k, j := range js {
				m := effMeasured{core: core, err: err}
				if err == nil {
					m.rep, m.err = reps[k], errs[k]
				}
				measured[j.problem][j.key] = m
			}
			mu.Unlock()
			if f.Progress {
				effProfileMeter.Done(int64(len(js)))
			}
		}(js)
	}
	wg.Wait()
	for _, r := range noise {
		emitNoise(r)
	}

	scoreOpt := efficiency.ScoreOptions{RefGold: f.Options.RefGold, Selection: f.Options.Selection, Resolution: f.Options.Resolution,
		Cost: f.Options.Cost}
	if len(f.Options.Reference) > 0 {
		ref := map[string]bool{}
		for _, r := range f.Options.Reference {
			ref[r] = true
		}
		scoreOpt.InReference = func(t string) bool { return ref[t] }
	}
	for pi, pr := range ps {
		ret, _ := values.ParseType(pr.Returns)
		for _, t := range pr.Tasks {
			out := EfficiencyOutput{Outcome: efficiency.TaskOutcome{Task: t.Task, Translators: t.Translators, PassDefault: t.PassDefault}}
			if t.NoSuite {
				out.Outcome.NoSuite = true
				emit(out)
				continue
			}
			errRow := func(lang, reason, detail string) {
				out.Errors = append(out.Errors, schemas.ErrorRow{Run: f.Run, Stage: "profile", Corpus: t.Task.Corpus,
					ProblemID: t.Task.ProblemID, Lang: lang, Reason: reason, Detail: efficiency.Clip(detail, 2000)})
			}
			tests := len(suite(pr, t.Task.TgtLang))
			row := func(role schemas.Role, translator string, c execute.Candidate) (schemas.ProfileRow, []string) {
				m := measured[pi][t.Task.TgtLang+"\x00"+c.Imports+"\x00"+c.Entry+"\x00"+c.Code]
				if m.err != nil {
					errRow(t.Task.TgtLang, "profiling failed", m.err.Error())
					return schemas.ProfileRow{Run: f.Run, Translator: translator, ProblemID: t.Task.ProblemID, Corpus: t.Task.Corpus,
						SrcLang: t.Task.SrcLang, TgtLang: t.Task.TgtLang, Role: role, Status: schemas.StatusInfraError,
						Detail: efficiency.Clip(m.err.Error(), 2000), Tests: int32(tests), Core: int32(m.core)}, nil
				}
				return efficiency.ProfileRowOf(f.Run, t.Task, role, translator, tests, m.core, m.rep), m.rep.Outputs
			}
			var goldOut []string
			for _, g := range pr.Golds {
				if g.Lang != t.Task.TgtLang {
					continue
				}
				r, outs := row(schemas.RoleGroundTruth, "", execute.Candidate{Code: g.Code, Imports: g.Imports, Entry: g.Name})
				r.PassDefault = true
				r.StressMatch = r.Status == schemas.StatusOK
				r.Correct = r.StressMatch
				if r.Status == schemas.StatusOK {
					goldOut = outs
				} else {
					errRow(t.Task.TgtLang, "ground truth fails on its stress suite: "+string(r.Status), r.Detail)
				}
				out.Outcome.Profiles = append(out.Outcome.Profiles, r)
			}
			for _, tr := range t.Translations {
				r, outs := row(schemas.RoleTranslation, tr.Translator, execute.Candidate{Code: tr.Code, Imports: tr.Imports, Entry: tr.Entry})
				r.PassDefault = true
				r.StressMatch = r.Status == schemas.StatusOK && goldOut != nil && efficiency.StressMatch(ret, goldOut, outs, values.DefaultTolerance)
				if r.Status == schemas.StatusOK && goldOut != nil && !r.StressMatch {
					r.Detail = strings.TrimSpace(r.Detail + " stress outputs differ from the ground truth's")
				}
				r.Correct = r.StressMatch
				out.Outcome.Profiles = append(out.Outcome.Profiles, r)
			}
			efficiency.ScoreTask(&out.Outcome, scoreOpt)
			emit(out)
		}
	}
}

// countCaches are the count caches of this process, one per location.
var countCaches struct {
	sync.Mutex
	m map[string]*cache.Cache
}

// countCache opens the count cache at loc once per process (nil for "" or "off").
func countCache(ctx context.Context, loc string) (execute.Store, error) {
	if loc == "" || loc == "off" {
		return nil, nil
	}
	countCaches.Lock()
	defer countCaches.Unlock()
	if c, ok := countCaches.m[loc]; ok {
		return c, nil
	}
	c, err := cache.Open(ctx, loc, "count")
	if err != nil {
		return nil, fmt.Errorf("count cache %s: %w", loc, err)
	}
	if countCaches.m == nil {
		countCaches.m = map[string]*cache.Cache{}
	}
	countCaches.m[loc] = c
	return c, nil
}

// effSuites groups the jobs by suite (problem, language), the suites in the order
// of their first job and each suite's programs in an order shuffled by their
// content (deterministic), so that no translator is systematically measured first
// in its rounds. Each suite is profiled on one core, its programs' repetitions
// interleaved (profile.ProfileSuite). Before, every program ran its repetitions in
// a row, and the programs were spread over the run: round-robin over the suites
// (the first program of every suite, then the second...) put each translator's
// programs in its own stretch of the run, and the machine's drift over the run
// became a per-model bias: two runs of the same programs differed by a factor of
// 0.82 to 1.04 per model (geometric mean) against 0.95 to 1.01 for the ground
// truths, enough to reorder the models' Beyond scores.
func effSuites(jobs []effJob) [][]effJob {
	type suiteKey struct {
		problem int
		lang    string
	}
	var order []suiteKey
	by := map[suiteKey][]effJob{}
	for _, j := range jobs {
		k := suiteKey{j.problem, j.lang}
		if by[k] == nil {
			order = append(order, k)
		}
		by[k] = append(by[k], j)
	}
	hash := func(s string) uint32 {
		h := fnv.New32a()
		h.Write([]byte(s))
		return h.Sum32()
	}
	out := make([][]effJob, 0, len(order))
	for _, k := range order {
		js := by[k]
		sort.SliceStable(js, func(a, b int) bool { return hash(js[a].key) < hash(js[b].key) })
		out = append(out, js)
	}
	return out
}

// effPooledKey is the score key of the rows pooled over every direction.
const effPooledKey = efficiency.AllLangs

// keyEffOutcome keys a task's outcome by its direction, whose rows (Pass, Beyond,
// intervals, the reference sets) need that direction's tasks only, and by
// effPooledKey, for the rows over every direction (all-directions figures, the
// correlations across models, the measurement figures per language): medians,
// bootstrap intervals and correlations over every task, which no partial
// aggregate gives.
func keyEffOutcome(o EfficiencyOutput, emit func(string, efficiency.TaskOutcome)) {
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
