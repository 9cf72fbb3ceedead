// Package mbta runs Mutation-Based Translation Analysis (seed paper 000, sections
// 3-5) on one problem: it generates first-order mutants of the source function
// (transforms/mutate), runs the original and all mutants in one batch per source
// language to find the anomalous ones (those that fail on some test), translates
// every non-anomalous mutant with every translator able to translate unseen code,
// runs all the translations in one batch per target language, and judges each
// mutant killed or survived (score.Judge). A translator is good when its MTS (share
// of non-anomalous mutants killed) is low: it preserves the mutant's behaviour.
//
// It is plain Go (no Beam). Runner.Evaluate is Expand, Translate and Execute
// (stages.go), which the pipeline runs as stages of their own, and the pipeline
// aggregates the per-problem Groups with Score.
//
// Executions table policy: to keep it small, each source mutant and each mutant
// translation gets one summary row (TestIndex -1, the program status, the whole
// run's CPU/wall time, the compiler message or first test error) plus one row per
// test that did not end ok; the original function and its translations get one row
// per test, as in the CA pipeline.
package mbta

import (
	"context"
	"fmt"
	"sort"
	"time"

	"transmute/internal/clip"
	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/execute"
	"transmute/transforms/fidelity"
	"transmute/transforms/mutate"
	"transmute/transforms/sandbox"
	"transmute/transforms/score"
	"transmute/transforms/translate"
	"transmute/transforms/values"
)

// Stage is the ErrorRow stage of this package.
const Stage = "mbta"

// ReasonNoVariants is the ErrorRow reason for translators that cannot translate mutants.
const ReasonNoVariants = "translator cannot translate variants"

// Runner holds what MBTA on a problem needs. It is safe for concurrent use when
// its translators and engines are.
type Runner struct {
	Run         string
	Translators []translate.Translator
	Engines     map[string]execute.Engine
	Limits      sandbox.Limits
	Tolerance   values.Tolerance
	// Mutate selects operators, caps and the sampling seed.
	Mutate mutate.Options
	// MutantTimeFactor, when > 0, runs each source original first and gives its
	// mutants a per-test CPU limit of MutantTimeFactor × the original's slowest test
	// plus MutantTimeFloor (wall: twice that plus MutantTimeFloor), within Limits.
	// A mutant that loops then costs a fraction of the fixed limit; a mutant slower
	// than that becomes anomalous (a timeout), as in PIT's timeout factor. 0 keeps
	// the fixed Limits for every mutant, as seed 000 does with its 3 s threshold.
	MutantTimeFactor float64
	MutantTimeFloor  time.Duration
}

// mutantLimits are the per-test limits of the mutants of an original whose run is r.
func (m *Runner) mutantLimits(r execute.Result) (sandbox.Limits, bool) {
	lim := m.Limits
	if m.MutantTimeFactor <= 0 || r.Status != schemas.StatusOK || len(r.Tests) == 0 {
		return lim, false
	}
	var slowest time.Duration
	for _, t := range r.Tests {
		if t.Status != schemas.StatusOK && t.Status != schemas.StatusRuntimeError {
			return lim, false // the original itself timed out or failed: keep the fixed limits
		}
		slowest = max(slowest, t.CPUTime, t.WallTime)
	}
	floor := m.MutantTimeFloor
	if floor <= 0 {
		floor = 100 * time.Millisecond
	}
	full := lim.WithDefaults()
	cpu := time.Duration(m.MutantTimeFactor*float64(slowest)) + floor
	lim.CPUTime = min(cpu, full.CPUTime)
	lim.WallTime = min(2*cpu+floor, full.WallTime)
	return lim, true
}

// FunnelCounts is score.Funnel for one problem and key, with fixed-size fields
// (so it encodes as a Beam schema row).
type FunnelCounts struct {
	NonAnomalous, TranslationOutputs, Compilable, Timeouts, Exceptions, NonAnomalousTranslations int64
}

// Add accumulates another problem's counts.
func (f *FunnelCounts) Add(o FunnelCounts) {
	f.NonAnomalous += o.NonAnomalous
	f.TranslationOutputs += o.TranslationOutputs
	f.Compilable += o.Compilable
	f.Timeouts += o.Timeouts
	f.Exceptions += o.Exceptions
	f.NonAnomalousTranslations += o.NonAnomalousTranslations
}

// Funnel converts to score.Funnel.
func (f FunnelCounts) Funnel() score.Funnel {
	return score.Funnel{NonAnomalous: int(f.NonAnomalous), TranslationOutputs: int(f.TranslationOutputs),
		Compilable: int(f.Compilable), Timeouts: int(f.Timeouts), Exceptions: int(f.Exceptions),
		NonAnomalousTranslations: int(f.NonAnomalousTranslations)}
}

func countsOf(f score.Funnel) FunnelCounts {
	return FunnelCounts{int64(f.NonAnomalous), int64(f.TranslationOutputs), int64(f.Compilable),
		int64(f.Timeouts), int64(f.Exceptions), int64(f.NonAnomalousTranslations)}
}

// Group is what one problem contributes to the scores of one score key
// (translator, corpus, src, tgt): its mutant verdicts, the CA result rows of the
// original's translation (oracle: the source function) and its funnel counts.
type Group struct {
	Translator, Corpus, SrcLang, TgtLang string
	ProblemID                            string
	Mutants                              []schemas.MutantResultRow
	Results                              []schemas.ResultRow
	Funnel                               FunnelCounts
}

// Key is the group's score key.
func (g Group) Key() score.Key {
	return score.Key{Translator: g.Translator, Corpus: g.Corpus, SrcLang: g.SrcLang, TgtLang: g.TgtLang}
}

// Output holds every row one problem produces.
type Output struct {
	Variants      []schemas.VariantRow
	Translations  []schemas.TranslationRow
	Executions    []schemas.ExecutionRow
	MutantResults []schemas.MutantResultRow
	Groups        []Group
	Errors        []schemas.ErrorRow
}

// SourceID, MutantID and TranslationID name programs in the executions table.
func SourceID(lang string) string { return evaluate.GoldID(lang) }

// MutantProgramID names the source program of a mutant.
func MutantProgramID(lang, variant string) string { return "mut/" + lang + "/" + variant }

// TranslationID names the translation of a variant ("orig" or a mutant id).
func TranslationID(translator, src, tgt, variant string) string {
	return fmt.Sprintf("tr/%s/%s-%s/%s", translator, src, tgt, variant)
}

type direction struct{ src, tgt string }

// srcSide is the source side of one language: the original and its mutants.
type srcSide struct {
	fn      schemas.Function
	mutants []mutate.Mutant
	progOf  map[string]string // variant id ("orig" or mutant id) -> program id (shared by identical code)
	results map[string]execute.Result
}

// anomalous tells whether a source mutant failed (it is then excluded from MBTA).
func anomalous(r execute.Result) bool {
	if r.Status != schemas.StatusOK || len(r.Tests) == 0 {
		return true
	}
	for _, t := range r.Tests {
		if t.Status != schemas.StatusOK {
			return true
		}
	}
	return false
}

func (m *Runner) batch(p schemas.Problem, lang string) execute.Batch {
	// A timeout decides a variant (anomalous mutant, killed translation): its other
	// tests need not run.
	return execute.Batch{ProblemID: p.ID, Lang: lang, Params: p.Params, Returns: p.Returns, Tests: p.Tests, Limits: m.Limits,
		StopAfterTimeouts: 1}
}

// run executes one batch; an engine failure turns every candidate into infra errors.
func (m *Runner) run(ctx context.Context, p schemas.Problem, b execute.Batch, out *Output, errRow func(lang, reason, detail string)) map[string]execute.Result {
	results := map[string]execute.Result{}
	if len(b.Candidates) == 0 {
		return results
	}
	res, err := execute.RunOn(ctx, m.Engines, b, true)
	if err != nil {
		errRow(b.Lang, "engine failure", err.Error())
	}
	for i, c := range b.Candidates {
		results[c.ID] = res[i]
	}
	return results
}

// executionRows renders one program run: every test when full, else a summary row
// (TestIndex -1) plus the tests that did not end ok.
func executionRows(run string, p schemas.Problem, lang, role, translator, id, variant string, r execute.Result, full bool) []schemas.ExecutionRow {
	base := schemas.ExecutionRow{Run: run, ProblemID: p.ID, Corpus: p.Corpus, ProgramID: id, Role: role,
		Translator: translator, VariantID: variant, Lang: lang, Status: r.Status, Cached: r.Cached}
	var rows []schemas.ExecutionRow
	if !full || r.Status == schemas.StatusCompileError || len(r.Tests) == 0 {
		row := base
		row.TestIndex = -1
		row.TestStatus = r.Status
		row.Error = clip.String(r.Detail, 4000)
		if row.Error == "" {
			for _, t := range r.Tests {
				if t.Status != schemas.StatusOK {
					row.Error = clip.String(t.Error, 2000)
					break
				}
			}
		}
		row.CPUMicros = r.CPUTime.Microseconds()
		row.WallMicros = r.WallTime.Microseconds()
		row.MaxRSSKB = r.MaxRSSKB
		rows = append(rows, row)
		if r.Status == schemas.StatusCompileError {
			return rows
		}
	}
	for _, t := range r.Tests {
		if !full && t.Status == schemas.StatusOK {
			continue
		}
		row := base
		row.TestIndex = t.Index
		row.TestStatus = t.Status
		row.Output = t.Output
		row.Error = clip.String(t.Error, 2000)
		row.CPUMicros = t.CPUTime.Microseconds()
		row.WallMicros = t.WallTime.Microseconds()
		row.MaxRSSKB = t.MaxRSSKB
		rows = append(rows, row)
	}
	return rows
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// programKey identifies a program by its text: what the engines compile and call.
func programKey(imports, code, entry string) string {
	return imports + "\x00" + code + "\x00" + entry
}

// markLangDependent compares the golds of the languages involved (source sides and
// target golds) test by test, as the evaluate job's fidelity stage does, and returns
// the tests with those on which the golds disagree for a reason of the languages
// (integer overflow, floating point, out-of-bounds reads, partial ranges...) marked
// language-dependent, so that CA and pass rate are also reported without them. The
// signed-modulo counterfactual of the evaluate job is not run here: such tests stay
// unmarked.
func (m *Runner) markLangDependent(p schemas.Problem, sides map[string]*srcSide, tgtResults map[string]execute.Result) []schemas.Test {
	var golds []fidelity.Gold
	for _, lang := range schemas.Languages {
		f, ok := p.Function(lang)
		if !ok {
			continue
		}
		var r execute.Result
		if side := sides[lang]; side != nil {
			r, ok = side.results[SourceID(lang)]
		} else {
			r, ok = tgtResults[SourceID(lang)]
		}
		if !ok || r.Status == schemas.StatusCompileError || r.Status == schemas.StatusInfraError {
			continue
		}
		golds = append(golds, fidelity.Gold{Lang: lang, Code: f.Code, Result: r})
	}
	var runnable []fidelity.Gold
	for _, g := range golds {
		if broken, _ := fidelity.Broken(g, golds); !broken {
			runnable = append(runnable, g)
		}
	}
	if len(runnable) < 2 {
		return p.Tests
	}
	fid, _ := fidelity.Compare(m.Run, p, runnable, m.Tolerance)
	dep := fidelity.Propagate(fid)
	if len(dep) == 0 {
		return p.Tests
	}
	tests := append([]schemas.Test(nil), p.Tests...)
	for i := range tests {
		if c, ok := dep[tests[i].Index]; ok {
			tests[i].LangDependent = true
			tests[i].DependCause = c
		}
	}
	return tests
}
