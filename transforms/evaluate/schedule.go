package evaluate

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"transmute/internal/clip"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/execute/cpp"
	"transmute/transforms/runner"
	"transmute/transforms/values"
)

// How a problem's programs are scheduled. The golds run first, all
// languages at once; then each gold's second run (nondeterminism) on the tests where
// the first returned a value, and beside it the distinct translations into each
// language in chunks of at most ChunkCandidates, all chunks of all languages at once
// (the engines' coalescers bound how many run together), on the tests that some
// oracle of theirs can decide. So a problem whose golds loop on most tests costs the
// golds' timeouts once, not one timeout per translation and test, and a problem's
// many translations (28 models) spread over every engine slot instead of one.

// ChunkCandidates is the most distinct translations one engine call gets: with 28
// models a problem has about 56 translations into each language, which one engine
// call would run one after another on one core.
const ChunkCandidates = 12

// RerunSeed is the seed of the gold's second run (execute.Batch.Seed); the first run
// keeps the engines' default state.
const RerunSeed = 0x5eed

// StatusSkipped is the status of a translation's test that was not run because no
// oracle of the translation returned a value on it: no outcome could match there
// (CA and pass leave such tests out as oracle failures).
const StatusSkipped schemas.Status = "skipped"

// CauseNondeterministic is the fidelity cause of a test on which two runs of the same
// gold (the second with another seed, see RerunSeed) disagree; such fidelity rows
// have LangA == LangB.
const CauseNondeterministic = "nondeterministic"

// rerunID names the gold's second run (never written to the executions table).
func rerunID(lang string) string { return GoldID(lang) + "#rerun" }

// batch is the batch template of lang for p: tests, limits, C++ call types.
func (e *Evaluator) batch(p schemas.Problem, lang string) execute.Batch {
	b := execute.Batch{ProblemID: p.ID, Lang: lang, Params: p.Params, Returns: p.Returns, Tests: p.Tests, Limits: e.Limits}
	if f, ok := p.Function(lang); ok && lang == schemas.Cpp && e.CppArgs == CppArgsGold {
		b.CallTypes = cpp.GoldCallTypes(f.Signature)
	}
	return b
}

// runBatch runs b on lang's engine. It returns one result per candidate: an engine
// that fails (an error, a panic, a wrong count of results) gives every candidate
// infra_error on every test, and the failure as the second result, for an error row.
func (e *Evaluator) runBatch(ctx context.Context, b execute.Batch) ([]execute.Result, string) {
	res, err := execute.RunOn(ctx, e.Engines, b, true)
	switch {
	case errors.Is(err, execute.ErrNoEngine):
		return res, "no engine"
	case err != nil:
		return res, clip.String(err.Error(), 4000)
	}
	return res, ""
}

// programKey identifies a translation's program by content: equal programs of
// several translators run once.
func programKey(t translated) string {
	return t.tr.Entry + "\x00" + t.tr.Imports + "\x00" + t.tr.Code
}

// executed is what running a problem's programs gave.
type executed struct {
	results map[string]execute.Result // program id -> result (golds, translations)
	reruns  map[string]execute.Result // language -> the gold's second run
	rows    []schemas.ExecutionRow
	errs    []engineErr
	// distinct counts the translations run (after deduplication) per language.
	distinct, skipped int
}

type engineErr struct{ lang, reason, detail string }

// execute runs the golds of langs (twice) and then every runnable translation of all;
// ret is the return type (retOK false when it does not parse: no early stops).
func (e *Evaluator) execute(ctx context.Context, p schemas.Problem, all []translated, langs []string, ret values.Type, retOK bool) executed {
	x := executed{results: map[string]execute.Result{}, reruns: map[string]execute.Result{}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	fail := func(lang, reason, detail string) {
		x.errs = append(x.errs, engineErr{lang, reason, detail})
	}

	// 1. The golds' first runs, all at once.
	for _, lang := range langs {
		f, ok := p.Function(lang)
		if !ok {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := e.batch(p, lang)
			b.Candidates = []execute.Candidate{{ID: GoldID(lang), Code: f.Code, Imports: f.Imports, Entry: f.Name}}
			res, failure := e.runBatch(ctx, b)
			mu.Lock()
			defer mu.Unlock()
			if failure != "" {
				fail(lang, "engine failure", failure)
			}
			x.results[GoldID(lang)] = res[0]
		}()
	}
	wg.Wait()
	// The golds' results, read while the chunks started below write x.results
	// (under mu): a copy, so the reads need no lock.
	golds := make(map[string]execute.Result, len(x.results))
	for id, r := range x.results {
		golds[id] = r
	}

	// 2. Each gold's second run (another seed, bounds checks), beside the
	// translations, on the tests where its first run returned a value: only there can
	// it be an oracle, so only there can nondeterminism matter, and a gold that loops
	// on a test costs its time limit once, not twice.
	for _, lang := range langs {
		f, ok := p.Function(lang)
		g, ran := golds[GoldID(lang)]
		if !ok || !ran {
			continue
		}
		var keep []int
		for ti := range p.Tests {
			if ti < len(g.Tests) && g.Tests[ti].Status == schemas.StatusOK {
				keep = append(keep, ti)
			}
		}
		if len(keep) == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := e.batch(p, lang)
			b.Tests = nil
			for _, ti := range keep {
				b.Tests = append(b.Tests, p.Tests[ti])
			}
			b.Seed = RerunSeed
			b.BoundsChecks = true
			b.Candidates = []execute.Candidate{{ID: rerunID(lang), Code: f.Code, Imports: f.Imports, Entry: f.Name}}
			res, failure := e.runBatch(ctx, b)
			mu.Lock()
			defer mu.Unlock()
			if failure != "" {
				fail(lang, "engine failure", failure)
			}
			x.reruns[lang] = spread(res[0], p.Tests, keep)
		}()
	}

	// 3. The distinct translations into each language, in chunks, all at once.
	type program struct {
		cand execute.Candidate
		ids  []string
		srcs map[string]bool // the source languages of the translations it stands for
	}
	for _, lang := range langs {
		index := map[string]*program{}
		var progs []*program
		for _, t := range all {
			if t.dir.Tgt != lang || t.tr.Status != schemas.TranslationOK {
				continue
			}
			k := programKey(t)
			pr := index[k]
			if pr == nil {
				pr = &program{cand: execute.Candidate{ID: t.id, Code: t.tr.Code, Imports: t.tr.Imports, Entry: t.tr.Entry}, srcs: map[string]bool{}}
				index[k] = pr
				progs = append(progs, pr)
			}
			pr.ids = append(pr.ids, t.id)
			pr.srcs[t.dir.Src] = true
		}
		x.distinct += len(progs)
		// A program runs on the tests that one of its own oracles decides: the target
		// gold, or the gold of a source language it was translated from, returned a
		// value there. Per program, not per language: a Python gold that returns
		// where the C++ gold loops must not send the Java->C++ translations into
		// the loop (they would time out on tests that cannot count for them).
		type group struct {
			keep  []int // positions in p.Tests
			stop  bool  // the first timeout ends a program's run (stopAtFirstTimeout)
			progs []*program
		}
		var groups []*group
		bySig := map[string]*group{}
		for _, pr := range progs {
			var keep []int
			oracles := append([]string{lang}, sortedKeys(pr.srcs)...)
			for ti := range p.Tests {
				for _, l := range oracles {
					if o, ok := golds[GoldID(l)]; ok && ti < len(o.Tests) && o.Tests[ti].Status == schemas.StatusOK {
						keep = append(keep, ti)
						break
					}
				}
			}
			stop := retOK && stopAtFirstTimeout(golds, ret, e.Tolerance, keep)
			sig := fmt.Sprint(keep, stop)
			g := bySig[sig]
			if g == nil {
				g = &group{keep: keep, stop: stop}
				bySig[sig] = g
				groups = append(groups, g)
			}
			g.progs = append(g.progs, pr)
			x.skipped += len(p.Tests) - len(keep)
		}
		for _, g := range groups {
			b := e.batch(p, lang)
			if g.stop {
				b.StopAfterTimeouts = 1
			}
			b.Tests = nil
			for _, ti := range g.keep {
				b.Tests = append(b.Tests, p.Tests[ti])
			}
			keep := g.keep
			for start := 0; start < len(g.progs); start += ChunkCandidates {
				chunk := g.progs[start:min(start+ChunkCandidates, len(g.progs))]
				wg.Add(1)
				go func() {
					defer wg.Done()
					cb := b
					cb.Candidates = make([]execute.Candidate, len(chunk))
					for i, pr := range chunk {
						cb.Candidates[i] = pr.cand
					}
					var res []execute.Result
					failure := ""
					if len(cb.Tests) > 0 {
						res, failure = e.runBatch(ctx, cb)
					} else {
						res = make([]execute.Result, len(chunk))
						for i, pr := range chunk {
							res[i] = execute.Result{CandidateID: pr.cand.ID, Status: StatusSkipped}
						}
					}
					mu.Lock()
					defer mu.Unlock()
					if failure != "" {
						fail(lang, "engine failure", failure)
					}
					for i, pr := range chunk {
						full := spread(res[i], p.Tests, keep)
						for _, id := range pr.ids {
							r := full
							r.CandidateID = id
							x.results[id] = r
						}
					}
				}()
			}
		}
	}
	wg.Wait()

	// 4. The execution rows, in a stable order: per language its gold, then its
	// translations in the order of all.
	for _, lang := range langs {
		if _, ok := p.Function(lang); ok {
			if r, ok := x.results[GoldID(lang)]; ok {
				x.rows = append(x.rows, runner.ExecutionRows(e.Run, p, runner.Program{Lang: lang, Role: schemas.RoleGold, ID: GoldID(lang), Variant: schemas.VariantOrig}, r, true)...)
			}
		}
		for _, t := range all {
			if t.dir.Tgt != lang || t.tr.Status != schemas.TranslationOK {
				continue
			}
			if r, ok := x.results[t.id]; ok {
				x.rows = append(x.rows, runner.ExecutionRows(e.Run, p, runner.Program{Lang: lang, Role: schemas.RoleTranslation, Translator: t.translator, ID: t.id, Variant: schemas.VariantOrig}, r, true)...)
			}
		}
	}
	return x
}

// stopAtFirstTimeout tells whether a translation's first timeout may end its run,
// the rest of its tests counting as timeouts, as the Java and Python engines always
// do and as the benchmarks' own scripts do (they run every test in one process, so a
// hang ends them all): one rule for every target language, and a looping C++
// translation costs one time limit instead of cpp.MaxConsecutiveTimeouts. Only where
// it cannot change a verdict beyond the tests after the timeout: every gold of the
// problem returned on every test the translation runs on, and they agree there. Then
// every oracle decides all of those tests and none is language-dependent, so the
// test that timed out fails the translation under every oracle and subset. (Before,
// a Java->C++ translation that loops on the tests its oracles cannot decide lost
// the one test they do decide: docs/TRACE28.md.) The golds' nondeterministic tests
// are known only later and are not considered: a translation that first times out
// on one of them loses the tests after it under that gold, as in Java and Python.
func stopAtFirstTimeout(golds map[string]execute.Result, ret values.Type, tol values.Tolerance, keep []int) bool {
	for _, ti := range keep {
		first := ""
		for _, l := range schemas.Languages {
			g, ok := golds[GoldID(l)]
			if !ok {
				continue
			}
			if ti >= len(g.Tests) || g.Tests[ti].Status != schemas.StatusOK {
				return false
			}
			if first == "" {
				first = g.Tests[ti].Output
			} else if !values.Equal(ret, first, g.Tests[ti].Output, tol) {
				return false
			}
		}
	}
	return true
}

// spread puts the results of the tests at positions keep back among all tests; the
// others are skipped.
func spread(r execute.Result, tests []schemas.Test, keep []int) execute.Result {
	out := r
	out.Tests = make([]execute.TestResult, len(tests))
	for i, t := range tests {
		out.Tests[i] = execute.TestResult{Index: t.Index, Status: StatusSkipped, Error: "not run: no oracle returned a value on this test"}
	}
	if r.Status == schemas.StatusCompileError {
		for i := range out.Tests {
			out.Tests[i].Status, out.Tests[i].Error = schemas.StatusCompileError, ""
		}
		return out
	}
	for j, ti := range keep {
		if j < len(r.Tests) {
			out.Tests[ti] = r.Tests[j]
		}
	}
	return out
}

// nondeterministic compares each gold with its second run: the tests where they
// differ (status, or value beyond the tolerance) get a fidelity row of cause
// CauseNondeterministic, and their indices are returned per gold language: a gold
// that disagrees with itself is no oracle there, while the other languages' golds
// still are (a C++ gold that reads past an array does not make the Java gold's
// output on that test any less an oracle for Java translations).
func nondeterministic(run string, p schemas.Problem, ret values.Type, tol values.Tolerance, golds, reruns map[string]execute.Result) (map[string]map[int32]bool, []schemas.FidelityRow) {
	marked := map[string]map[int32]bool{}
	var rows []schemas.FidelityRow
	for _, lang := range schemas.Languages {
		a, ok1 := golds[GoldID(lang)]
		b, ok2 := reruns[lang]
		if !ok1 || !ok2 || a.Status == schemas.StatusInfraError || b.Status == schemas.StatusInfraError {
			continue
		}
		for i := range a.Tests {
			if i >= len(b.Tests) {
				break
			}
			ta, tb := a.Tests[i], b.Tests[i]
			same := ta.Status == tb.Status && (ta.Status != schemas.StatusOK || values.Equal(ret, ta.Output, tb.Output, tol))
			// The second run skips the tests where the first returned no value.
			if same || tb.Status == StatusSkipped || ta.Status == schemas.StatusInfraError || tb.Status == schemas.StatusInfraError {
				continue
			}
			if marked[lang] == nil {
				marked[lang] = map[int32]bool{}
			}
			marked[lang][ta.Index] = true
			rows = append(rows, schemas.FidelityRow{Run: run, ProblemID: p.ID, Corpus: p.Corpus, TestIndex: ta.Index,
				LangA: lang, LangB: lang, Cause: CauseNondeterministic, ValueA: ta.Output, ValueB: tb.Output,
				StatusA: ta.Status, StatusB: tb.Status})
		}
	}
	return marked, rows
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for _, l := range schemas.Languages {
		if m[l] {
			out = append(out, l)
		}
	}
	for k := range m {
		found := false
		for _, l := range out {
			found = found || l == k
		}
		if !found {
			out = append(out, k)
		}
	}
	return out
}
