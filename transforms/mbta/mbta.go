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
	"fmt"
	"time"

	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/execute"
	"transmute/transforms/fidelity"
	"transmute/transforms/mutate"
	"transmute/transforms/runner"
	"transmute/transforms/sandbox"
	"transmute/transforms/score"
)

// Stage is the ErrorRow stage of this package.
const Stage = schemas.StageMBTA

// ReasonNoVariants is the ErrorRow reason for translators that cannot translate mutants.
const ReasonNoVariants = runner.ReasonNoVariants

// Runner holds what MBTA on a problem needs. It is safe for concurrent use when
// its translators and engines are.
type Runner struct {
	runner.Tools
	// Mutate selects operators, caps and the sampling seed.
	Mutate mutate.Options
	// MutantTimeFactor, when > 0, runs each source original first and gives its
	// mutants a per-test CPU limit of MutantTimeFactor × the original's slowest test
	// plus MutantTimeFloor (wall: twice that plus MutantTimeFloor), within Limits.
	// A mutant that loops then costs a fraction of the fixed limit; a mutant slower
	// than that becomes anomalous (a timeout), as in PIT's timeout factor. 0 keeps
	// the fixed Limits for every mutant, as MBTA does with its 3 s threshold.
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

// srcSide is the source side of one language: the original and its mutants.
type srcSide struct {
	fn      schemas.Function
	mutants []mutate.Mutant
	progOf  map[string]string // variant id (schemas.VariantOrig or a mutant id) -> program id (shared by identical code)
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
