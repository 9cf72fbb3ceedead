package efficiency

import (
	"context"
	"hash/fnv"
	"sort"
	"strings"
	"time"

	"transmute/internal/clip"
	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/execute"
	"transmute/transforms/profile"
	"transmute/transforms/values"
)

// The steps of the efficiency job (TRACE) between its stages: select the tasks
// of a corpus (SelectItems), keep what the default-test check found
// (CheckedProblem), cut each problem into suites to profile (Suites), profile a
// suite on one core (ProfileSuite) and settle each task from its suites' profiles
// (Settle). Fields are exported for the pipeline's coders.

// StressSuite is the stress tests of one problem in one target language.
type StressSuite struct {
	Lang  string
	Tests []schemas.Test
}

// Item is a problem, its sampled tasks and its stress suites.
type Item struct {
	Item   evaluate.Item
	Suites []StressSuite
}

// Translation is a translation that passed the default tests.
type Translation struct {
	Translator, Code, Imports, Entry string
}

// Task is one task after the default-test check.
type Task struct {
	Task         schemas.Task
	Translators  []string
	PassDefault  []bool
	Translations []Translation // to profile; none when NoSuite
	// NoSuite: no stress suite in the target language; the task counts for Pass
	// over every task (SubsetEveryTask) only.
	NoSuite bool
}

// Problem is what profiling and settling need of one problem.
type Problem struct {
	ProblemID string
	Params    []schemas.Param
	Returns   string
	Golds     []schemas.Function // ground-truth target functions
	Suites    []StressSuite
	Tasks     []Task
}

// Output is one task's outcome, with the error rows met on the way.
type Output struct {
	Outcome TaskOutcome
	Errors  []schemas.ErrorRow
}

// Selection is the items SelectItems keeps, the error rows of the tasks without
// a stress suite, and counts for the log.
type Selection struct {
	Items                                 []Item
	Errors                                []schemas.ErrorRow
	WithSuite, WithoutSuite, Sampled, Ids int
}

// SelectItems samples per direction (SampleTasks, perDir) the tasks of a corpus
// whose target language has a stress suite and, apart from them, the tasks
// without one (checked on their default tests for Pass over every task, not
// profiled), keeping the directions dirs (nil: all) and the problems selected
// (empty: all); one item per problem, sorted by id.
func SelectItems(problems map[string]schemas.Problem, tasks []schemas.Task, suites map[string]map[string][]schemas.Test,
	dirs []schemas.Direction, selected []string, perDir int) Selection {
	want := map[schemas.Direction]bool{}
	for _, d := range dirs {
		want[d] = true
	}
	only := map[string]bool{}
	for _, id := range selected {
		only[id] = true
	}
	var sel Selection
	var with, without []schemas.Task
	for _, t := range tasks {
		if (dirs != nil && !want[schemas.DirectionOf(t)]) || (len(only) > 0 && !only[t.ProblemID]) {
			continue
		}
		if len(suites[t.ProblemID][t.TgtLang]) == 0 {
			sel.Errors = append(sel.Errors, schemas.ErrorRow{Stage: "efficiency", Corpus: t.Corpus, ProblemID: t.ProblemID,
				Lang: t.TgtLang, Reason: "no stress suite for the target language (the task counts for Pass over every task only)",
				Detail: t.SrcLang + "->" + t.TgtLang})
			without = append(without, t)
			continue
		}
		with = append(with, t)
	}
	sampled := append(SampleTasks(with, perDir), SampleTasks(without, perDir)...)
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
		it := Item{Item: evaluate.Item{Problem: problems[id], Tasks: byProblem[id]}}
		langs := map[string]bool{}
		for _, t := range byProblem[id] {
			if !langs[t.TgtLang] && len(suites[id][t.TgtLang]) > 0 {
				langs[t.TgtLang] = true
				it.Suites = append(it.Suites, StressSuite{Lang: t.TgtLang, Tests: suites[id][t.TgtLang]})
			}
		}
		sort.Slice(it.Suites, func(i, j int) bool { return it.Suites[i].Lang < it.Suites[j].Lang })
		sel.Items = append(sel.Items, it)
	}
	sel.WithSuite, sel.WithoutSuite, sel.Sampled, sel.Ids = len(with), len(without), len(sampled), len(order)
	return sel
}

// CheckedProblem keeps, for each task of item, the translators evaluated on its
// default tests (out), whether each passed, and the passing translations' code.
func CheckedProblem(item Item, out evaluate.Output) Problem {
	p := item.Item.Problem
	ep := Problem{ProblemID: p.ID, Params: p.Params, Returns: p.Returns, Suites: item.Suites}
	hasSuite := map[string]bool{}
	for _, s := range item.Suites {
		if f, ok := p.Function(s.Lang); ok {
			ep.Golds = append(ep.Golds, f)
		}
		hasSuite[s.Lang] = true
	}
	pass := DefaultPass(out.Results)
	for _, t := range item.Item.Tasks {
		et := Task{Task: t, NoSuite: !hasSuite[t.TgtLang]}
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
				et.Translations = append(et.Translations, Translation{Translator: tr.Translator,
					Code: tr.Code, Imports: tr.Imports, Entry: tr.Entry})
			}
		}
		ep.Tasks = append(ep.Tasks, et)
	}
	return ep
}

// Program is one distinct program of a suite: identical translations (same
// language, code, imports and entry) are profiled once and share the figures.
type Program struct {
	Key       string // the program's content within its problem
	Candidate execute.Candidate
}

// Suite is one problem's stress suite in one language and the programs to profile
// on it: the unit of the profiling stage, profiled on one core.
type Suite struct {
	ProblemID string
	Lang      string
	Params    []schemas.Param
	Returns   string
	Tests     []schemas.Test
	Programs  []Program
}

func programKey(lang string, c execute.Candidate) string {
	return lang + "\x00" + c.Imports + "\x00" + c.Entry + "\x00" + c.Code
}

// Suites cuts p into its suites, one per target language with programs: the
// ground truth and the passing translations. Each suite's programs come in an
// order shuffled by their content (deterministic), so that no translator is
// systematically measured first in its rounds (profile.ProfileSuite runs one
// repetition of each program per round). Before, every program ran its
// repetitions in a row and each translator's programs fell in a stretch of the run
// of their own: the machine's drift over the run became a per-model bias (two runs
// of the same programs differed by a factor of 0.82 to 1.04 per model, geometric
// mean, against 0.95 to 1.01 for the ground truths).
func Suites(p Problem) []Suite {
	var out []Suite
	index := map[string]int{}
	seen := map[string]bool{}
	add := func(lang string, c execute.Candidate) {
		key := programKey(lang, c)
		if seen[key] {
			return
		}
		seen[key] = true
		i, ok := index[lang]
		if !ok {
			i = len(out)
			index[lang] = i
			s := Suite{ProblemID: p.ProblemID, Lang: lang, Params: p.Params, Returns: p.Returns}
			for _, ss := range p.Suites {
				if ss.Lang == lang {
					s.Tests = ss.Tests
				}
			}
			out = append(out, s)
		}
		out[i].Programs = append(out[i].Programs, Program{Key: key, Candidate: c})
	}
	for _, g := range p.Golds {
		add(g.Lang, execute.Candidate{ID: "gold/" + g.Lang, Code: g.Code, Imports: g.Imports, Entry: g.Name})
	}
	for _, t := range p.Tasks {
		for _, tr := range t.Translations {
			add(t.Task.TgtLang, execute.Candidate{ID: evaluate.TranslationID(tr.Translator, t.Task.SrcLang, t.Task.TgtLang, 0),
				Code: tr.Code, Imports: tr.Imports, Entry: tr.Entry})
		}
	}
	hash := func(s string) uint32 {
		h := fnv.New32a()
		h.Write([]byte(s))
		return h.Sum32()
	}
	for _, s := range out {
		ps := s.Programs
		sort.SliceStable(ps, func(a, b int) bool { return hash(ps[a].Key) < hash(ps[b].Key) })
	}
	return out
}

// SplitPrograms cuts each suite into suites of one program each. The count mode
// profiles them so: a count does not depend on what runs beside it, so the
// programs of one suite need not share a core, and the profiling stage spreads
// them over the workers. The slowest program bounds a run, not the sum over the
// slowest suite (one CPython suite of 17 programs took 2.4 hours counted in a
// row, docs/runs/2026-11-28-count-cost.md).
func SplitPrograms(suites []Suite) []Suite {
	var out []Suite
	for _, s := range suites {
		for _, p := range s.Programs {
			one := s
			one.Programs = []Program{p}
			out = append(out, one)
		}
	}
	return out
}

// Measured is one program's profile, on the core its suite ran on; Err says why
// the suite or the program could not be profiled.
type Measured struct {
	Key    string
	Report profile.Report
	Core   int
	Err    string
}

// SuiteProfile is the profiles of one suite's programs.
type SuiteProfile struct {
	ProblemID string
	Lang      string
	Measured  []Measured
}

// ProfileOptions are the profiler's settings of the job (EfficiencyOptions).
type ProfileOptions struct {
	Repetitions    int
	TimeLimit      time.Duration
	MemoryBytes    int64
	WorkDir        string
	Cost           string
	CountTimeLimit time.Duration
	// CountMaxCalls: programs whose calls take longer natively are timed, not
	// counted (profile.Options.CountMaxCalls; 0: its default).
	CountMaxCalls time.Duration
	// CountCache keeps the count mode's reports by content (nil: none).
	CountCache execute.Store
}

// ProfileSuite profiles the programs of s on core: the harness overhead (the
// empty candidate, which depends only on the signature, the language and the
// inputs) once, then the programs in rounds, one repetition of each per round
// (profile.ProfileSuite), so that the programs one task compares share the core
// and the machine's drift.
func ProfileSuite(ctx context.Context, s Suite, core int, o ProfileOptions) SuiteProfile {
	opt := profile.Options{Repetitions: o.Repetitions, CPU: core, TimeLimit: o.TimeLimit, MemoryBytes: o.MemoryBytes,
		WorkDir: o.WorkDir}
	if o.Cost == CostCount {
		// The counts decide; the time columns beside them come from plain runs on
		// the core, without the real-time policy (a counted run takes seconds to
		// minutes, and nothing of it depends on the load).
		opt.Count, opt.CountTimeLimit, opt.NoRealTime = true, o.CountTimeLimit, true
		opt.CountMaxCalls = o.CountMaxCalls
		// A heavy program's repetitions are the side-by-side rounds of its suite
		// (RetimeProblem), after every program is profiled.
		opt.HeavyRepetitions = 1
		opt.OverheadRepetitions, opt.Warmup = -1, -1
		opt.Cache = o.CountCache
	}
	cands := make([]execute.Candidate, len(s.Programs))
	for i, p := range s.Programs {
		cands[i] = p.Candidate
	}
	reps, errs, err := profile.ProfileSuite(ctx, s.Lang, cands, s.Params, s.Returns, s.Tests, opt)
	if err != nil {
		return FailedSuite(s, core, err)
	}
	out := SuiteProfile{ProblemID: s.ProblemID, Lang: s.Lang}
	for i, p := range s.Programs {
		m := Measured{Key: p.Key, Report: reps[i], Core: core}
		if errs[i] != nil {
			m.Err = errs[i].Error()
		}
		out.Measured = append(out.Measured, m)
	}
	return out
}

// FailedSuite is s's profile when it could not run at all: err on every program.
func FailedSuite(s Suite, core int, err error) SuiteProfile {
	out := SuiteProfile{ProblemID: s.ProblemID, Lang: s.Lang}
	for _, p := range s.Programs {
		out.Measured = append(out.Measured, Measured{Key: p.Key, Core: core, Err: err.Error()})
	}
	return out
}

// Settle turns a problem's suite profiles into its tasks' outcomes: the ground
// truth's and every passing translation's profile rows, correct when the stress
// outputs equal the ground truth's, scored against the task's reference set
// (ScoreTask); profiling failures and a ground truth that fails its own suite
// are error rows.
func Settle(run string, p Problem, profiles []SuiteProfile, opt ScoreOptions) []Output {
	measured := measuredByKey(profiles)
	tests := map[string]int{}
	for _, s := range p.Suites {
		tests[s.Lang] = len(s.Tests)
	}
	ret, _ := values.ParseType(p.Returns)
	var outs []Output
	for _, t := range p.Tasks {
		out := Output{Outcome: TaskOutcome{Task: t.Task, Translators: t.Translators, PassDefault: t.PassDefault}}
		if t.NoSuite {
			out.Outcome.NoSuite = true
			outs = append(outs, out)
			continue
		}
		errRow := func(reason, detail string) {
			out.Errors = append(out.Errors, schemas.ErrorRow{Run: run, Stage: "profile", Corpus: t.Task.Corpus,
				ProblemID: t.Task.ProblemID, Lang: t.Task.TgtLang, Reason: reason, Detail: clip.String(detail, 2000)})
		}
		row := func(role schemas.Role, translator string, c execute.Candidate) (schemas.ProfileRow, []string) {
			m := measured[programKey(t.Task.TgtLang, c)]
			if m.Err != "" {
				errRow("profiling failed", m.Err)
				return schemas.ProfileRow{Run: run, Translator: translator, ProblemID: t.Task.ProblemID, Corpus: t.Task.Corpus,
					SrcLang: t.Task.SrcLang, TgtLang: t.Task.TgtLang, Role: role, Status: schemas.StatusInfraError,
					Detail: clip.String(m.Err, 2000), Tests: int32(tests[t.Task.TgtLang]), Core: int32(m.Core)}, nil
			}
			return ProfileRowOf(run, t.Task, role, translator, tests[t.Task.TgtLang], m.Core, m.Report), m.Report.Outputs
		}
		var goldOut []string
		for _, g := range p.Golds {
			if g.Lang != t.Task.TgtLang {
				continue
			}
			r, outputs := row(schemas.RoleGroundTruth, "", execute.Candidate{Code: g.Code, Imports: g.Imports, Entry: g.Name})
			r.PassDefault = true
			r.StressMatch = r.Status == schemas.StatusOK
			r.Correct = r.StressMatch
			if r.Status == schemas.StatusOK {
				goldOut = outputs
			} else {
				errRow("ground truth fails on its stress suite: "+string(r.Status), r.Detail)
			}
			out.Outcome.Profiles = append(out.Outcome.Profiles, r)
		}
		for _, tr := range t.Translations {
			r, outputs := row(schemas.RoleTranslation, tr.Translator, execute.Candidate{Code: tr.Code, Imports: tr.Imports, Entry: tr.Entry})
			r.PassDefault = true
			r.StressMatch = r.Status == schemas.StatusOK && goldOut != nil && StressMatch(ret, goldOut, outputs, values.DefaultTolerance)
			if r.Status == schemas.StatusOK && goldOut != nil && !r.StressMatch {
				r.Detail = strings.TrimSpace(r.Detail + " stress outputs differ from the ground truth's")
			}
			r.Correct = r.StressMatch
			out.Outcome.Profiles = append(out.Outcome.Profiles, r)
		}
		ScoreTask(&out.Outcome, opt)
		outs = append(outs, out)
	}
	return outs
}

// NoiseRowOf is the noise table's row of a probe.
func NoiseRowOf(run string, s profile.NoiseSample) schemas.NoiseRow {
	return schemas.NoiseRow{Run: run, Core: int32(s.CPU), At: s.Start.UTC().Format(time.RFC3339Nano),
		Chunks:      int32(len(s.Compute)),
		ChunkMeanMs: Millis(s.Compute.Mean()), ChunkMinMs: Millis(s.Compute.Min()), ChunkMaxMs: Millis(s.Compute.Max()), CV: s.Compute.CV(),
		CacheChunkMeanMs: Millis(s.Cache.Mean()), CacheChunkMinMs: Millis(s.Cache.Min()), CacheChunkMaxMs: Millis(s.Cache.Max()),
		CacheCV: s.Cache.CV()}
}
