// Package mbta runs Mutation-Based Translation Analysis (seed paper 000, sections
// 3-5) on one problem: it generates first-order mutants of the source function
// (transforms/mutate), runs the original and all mutants in one batch per source
// language to find the anomalous ones (those that fail on some test), translates
// every non-anomalous mutant with every translator able to translate unseen code,
// runs all the translations in one batch per target language, and judges each
// mutant killed or survived (score.Judge). A translator is good when its MTS (share
// of non-anomalous mutants killed) is low: it preserves the mutant's behaviour.
//
// It is plain Go (no Beam); the pipeline wraps Runner.Evaluate in a DoFn and
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

// trans is one distinct translation (cache entry).
type trans struct {
	tr         translate.Translation
	prog       string // program id in the target batch
	tgt        string
	translator string
	variant    string // the first variant translated to it
}

// Evaluate runs MBTA on one item. It never fails: what it cannot do becomes error rows.
func (m *Runner) Evaluate(ctx context.Context, it evaluate.Item) Output {
	p := it.Problem
	var out Output
	errRow := func(lang, reason, detail string) {
		out.Errors = append(out.Errors, schemas.ErrorRow{Run: m.Run, Stage: Stage, Corpus: p.Corpus,
			ProblemID: p.ID, Lang: lang, Reason: reason, Detail: detail})
	}
	if len(p.Tests) == 0 {
		errRow("", "no tests", "")
		return out
	}
	ret, err := values.ParseType(p.Returns)
	if err != nil {
		errRow("", "bad return type", err.Error())
		return out
	}

	// Directions, and which translators take part in each.
	dirSet := map[direction]bool{}
	for _, t := range it.Tasks {
		dirSet[direction{t.SrcLang, t.TgtLang}] = true
	}
	dirs := make([]direction, 0, len(dirSet))
	for d := range dirSet {
		dirs = append(dirs, d)
	}
	sort.Slice(dirs, func(i, j int) bool {
		if dirs[i].src != dirs[j].src {
			return dirs[i].src < dirs[j].src
		}
		return dirs[i].tgt < dirs[j].tgt
	})
	trsOf := map[direction][]translate.Translator{}
	skipped := map[string]bool{}
	for _, d := range dirs {
		for _, tr := range m.Translators {
			if !translate.Supports(tr, d.src, d.tgt) {
				continue
			}
			if !tr.TranslatesVariants() {
				if !skipped[tr.Name()] {
					skipped[tr.Name()] = true
					errRow("", ReasonNoVariants, tr.Name()+" is skipped by MBTA (it only replays recorded translations)")
				}
				continue
			}
			trsOf[d] = append(trsOf[d], tr)
		}
	}

	// 1. Mutate and run each source language once: the original plus every mutant.
	sides := map[string]*srcSide{}
	for _, d := range dirs {
		if len(trsOf[d]) == 0 || sides[d.src] != nil {
			continue
		}
		f, ok := p.Function(d.src)
		if !ok {
			errRow(d.src, "no source function", "problem has no "+d.src+" function")
			continue
		}
		ms, _, err := mutate.Generate(d.src, f.Code, m.Mutate)
		if err != nil {
			errRow(d.src, "mutation failed", err.Error())
			continue
		}
		side := &srcSide{fn: f, mutants: ms, progOf: map[string]string{"orig": SourceID(d.src)}}
		sides[d.src] = side
		b := m.batch(p, d.src)
		b.Candidates = append(b.Candidates, execute.Candidate{ID: SourceID(d.src), Code: f.Code, Imports: f.Imports, Entry: f.Name})
		byCode := map[string]string{f.Code: SourceID(d.src)}
		for _, mu := range ms {
			out.Variants = append(out.Variants, schemas.VariantRow{Run: m.Run, ProblemID: p.ID, Corpus: p.Corpus,
				VariantID: mu.ID, Kind: "mutant", Lang: d.src, Operator: mu.Operator, Line: int32(mu.Line),
				Col: int32(mu.Col), Original: mu.Original, Mutated: mu.Replacement, Diff: mu.Diff, Code: mu.Code})
			if id, ok := byCode[mu.Code]; ok {
				side.progOf[mu.ID] = id
				continue
			}
			id := MutantProgramID(d.src, mu.ID)
			byCode[mu.Code] = id
			side.progOf[mu.ID] = id
			b.Candidates = append(b.Candidates, execute.Candidate{ID: id, Code: mu.Code, Imports: f.Imports, Entry: f.Name})
		}
		if m.MutantTimeFactor > 0 && len(b.Candidates) > 1 {
			// The original alone first; its time sets the mutants' limits.
			orig := b
			orig.Candidates = b.Candidates[:1]
			side.results = m.run(ctx, p, orig, &out, errRow)
			rest := b
			rest.Candidates = b.Candidates[1:]
			rest.Limits, _ = m.mutantLimits(side.results[SourceID(d.src)])
			for id, r := range m.run(ctx, p, rest, &out, errRow) {
				side.results[id] = r
			}
		} else {
			side.results = m.run(ctx, p, b, &out, errRow)
		}
		for _, c := range b.Candidates {
			role, variant, full := "mutant", c.ID[len(MutantProgramID(d.src, "")):], false
			if c.ID == SourceID(d.src) {
				role, variant, full = "gold", "orig", true
			}
			out.Executions = append(out.Executions, executionRows(m.Run, p, d.src, role, "", c.ID, variant, side.results[c.ID], full)...)
		}
	}

	// Programs are run once per distinct text: a translation identical to a program of
	// the source side of its language (the identity translator's, or a translator that
	// returned its input) takes that program's result. Besides saving the run, this
	// keeps a program with undefined behaviour (C++ reading uninitialized or
	// out-of-bounds memory) from disagreeing with itself between two builds.
	srcProg := map[string]map[string]string{} // lang -> program text -> program id
	for lang, side := range sides {
		byText := map[string]string{programKey(side.fn.Imports, side.fn.Code, side.fn.Name): SourceID(lang)}
		for _, mu := range side.mutants {
			k := programKey(side.fn.Imports, mu.Code, side.fn.Name)
			if _, seen := byText[k]; !seen && side.progOf[mu.ID] != "" {
				byText[k] = side.progOf[mu.ID]
			}
		}
		srcProg[lang] = byText
	}

	// 2. Translate the original and every non-anomalous mutant, once per distinct
	// (translator, source text, direction).
	cache := map[string]*trans{}
	transOf := map[string]*trans{} // translator|src|tgt|variant -> translation
	tkey := func(tr string, d direction, variant string) string {
		return tr + "\x1f" + d.src + "\x1f" + d.tgt + "\x1f" + variant
	}
	for _, d := range dirs {
		side := sides[d.src]
		if side == nil {
			continue
		}
		type unit struct {
			variant, code string
		}
		units := []unit{{"orig", side.fn.Code}}
		for _, mu := range side.mutants {
			if r := side.results[side.progOf[mu.ID]]; anomalous(r) {
				continue
			}
			units = append(units, unit{mu.ID, mu.Code})
		}
		for _, tr := range trsOf[d] {
			for _, u := range units {
				ck := tr.Name() + "\x1f" + d.src + "\x1f" + d.tgt + "\x1f" + u.code
				x, ok := cache[ck]
				if !ok {
					req := translate.Request{ProblemID: p.ID, Corpus: p.Corpus, VariantID: u.variant, SrcLang: d.src,
						TgtLang: d.tgt, Code: u.code, Imports: side.fn.Imports, Entry: side.fn.Name, Params: p.Params, Returns: p.Returns}
					res, err := tr.Translate(ctx, req)
					if err != nil {
						res = []translate.Translation{{Status: schemas.TranslationError, Error: err.Error()}}
					}
					if len(res) == 0 {
						res = []translate.Translation{{Status: schemas.TranslationMissing}}
					}
					// MBTA judges one translation per mutant: sample 0 (the first).
					x = &trans{tr: res[0], prog: TranslationID(tr.Name(), d.src, d.tgt, u.variant), tgt: d.tgt,
						translator: tr.Name(), variant: u.variant}
					cache[ck] = x
				}
				transOf[tkey(tr.Name(), d, u.variant)] = x
				t := x.tr
				out.Translations = append(out.Translations, schemas.TranslationRow{Run: m.Run, Translator: tr.Name(),
					ProblemID: p.ID, Corpus: p.Corpus, VariantID: u.variant, SrcLang: d.src, TgtLang: d.tgt,
					Sample: t.Sample, Status: t.Status, Error: t.Error, Code: t.Code, Imports: t.Imports,
					Entry: t.Entry, PromptHash: t.PromptHash, LatencyMs: t.LatencyMs, TokensIn: t.TokensIn,
					TokensOut: t.TokensOut, Cached: t.Cached || ok})
				if e, ok := translate.FailureRow(m.Run, p.Corpus, p.ID, tr.Name(), u.variant, d.src, d.tgt, t); ok {
					out.Errors = append(out.Errors, e)
				}
			}
		}
	}

	// 3. One batch per target language with every distinct runnable translation.
	distinct := make([]*trans, 0, len(cache))
	for _, x := range cache {
		distinct = append(distinct, x)
	}
	sort.Slice(distinct, func(i, j int) bool { return distinct[i].prog < distinct[j].prog })
	tgtResults := map[string]execute.Result{}
	tgtLangs := map[string]bool{}
	for _, x := range distinct {
		if x.tr.Status == schemas.TranslationOK {
			tgtLangs[x.tgt] = true
		}
	}
	for _, lang := range sortedKeys(tgtLangs) {
		b := m.batch(p, lang)
		// The target language's gold, when it is not a source side: the fidelity check
		// below compares it with the source's.
		if f, ok := p.Function(lang); ok && sides[lang] == nil {
			b.Candidates = append(b.Candidates, execute.Candidate{ID: SourceID(lang), Code: f.Code, Imports: f.Imports, Entry: f.Name})
		}
		for _, x := range distinct {
			if x.tgt != lang || x.tr.Status != schemas.TranslationOK {
				continue
			}
			if id, ok := srcProg[lang][programKey(x.tr.Imports, x.tr.Code, x.tr.Entry)]; ok {
				if r, ran := sides[lang].results[id]; ran {
					r.CandidateID = x.prog
					tgtResults[x.prog] = r
					continue
				}
			}
			b.Candidates = append(b.Candidates, execute.Candidate{ID: x.prog, Code: x.tr.Code, Imports: x.tr.Imports, Entry: x.tr.Entry})
		}
		if len(b.Candidates) == 0 {
			continue
		}
		for id, r := range m.run(ctx, p, b, &out, errRow) {
			tgtResults[id] = r
		}
	}
	for _, x := range distinct {
		r, ok := tgtResults[x.prog]
		if !ok {
			continue
		}
		out.Executions = append(out.Executions, executionRows(m.Run, p, x.tgt, "translation", x.translator, x.prog, x.variant, r, x.variant == "orig")...)
	}

	for _, lang := range schemas.Languages {
		if r, ok := tgtResults[SourceID(lang)]; ok && sides[lang] == nil {
			out.Executions = append(out.Executions, executionRows(m.Run, p, lang, "gold", "", SourceID(lang), "orig", r, true)...)
		}
	}
	p.Tests = m.markLangDependent(p, sides, tgtResults)

	// 4. Judge every mutant; CA rows for the original; funnels; one group per task.
	mutantRows := map[string][]schemas.MutantResultRow{} // translator|src|tgt -> rows
	funnels := map[string]score.Funnel{}
	caRows := map[string][]schemas.ResultRow{}
	for _, d := range dirs {
		side := sides[d.src]
		if side == nil {
			continue
		}
		srcOrig := side.results[SourceID(d.src)]
		for _, tr := range trsOf[d] {
			gk := tr.Name() + "|" + d.src + "|" + d.tgt
			// The original: CA rows against the source function (sample 0).
			if x := transOf[tkey(tr.Name(), d, "orig")]; x != nil {
				r, ran := tgtResults[x.prog]
				prog := schemas.Status(x.tr.Status) // nothing ran: the translation's status
				if ran {
					prog = r.Status
				}
				for ti, t := range p.Tests {
					row := schemas.ResultRow{Run: m.Run, Translator: tr.Name(), ProblemID: p.ID, SrcLang: d.src,
						TgtLang: d.tgt, Oracle: score.OracleSource, TestIndex: t.Index, LangDependent: t.LangDependent,
						ProgramStatus: prog, Status: score.NoTranslation}
					if ti < len(srcOrig.Tests) {
						row.OracleStatus = srcOrig.Tests[ti].Status
						row.Expected = srcOrig.Tests[ti].Output
					}
					if ran && ti < len(r.Tests) {
						row.Status = r.Tests[ti].Status
						row.Actual = r.Tests[ti].Output
						if row.Status != schemas.StatusOK {
							row.Actual = r.Tests[ti].Error
						}
					}
					row.Match = row.OracleStatus == schemas.StatusOK && row.Status == schemas.StatusOK &&
						values.Equal(ret, row.Expected, row.Actual, m.Tolerance)
					caRows[gk] = append(caRows[gk], row)
				}
			}
			var fun score.Funnel
			for _, mu := range side.mutants {
				src := side.results[side.progOf[mu.ID]]
				var tgt execute.Result
				translated := false
				if x := transOf[tkey(tr.Name(), d, mu.ID)]; x != nil && x.tr.Status == schemas.TranslationOK {
					tgt, translated = tgtResults[x.prog]
				}
				verdict, reason, first, exp, act := score.Judge(ret, src, translated, tgt, m.Tolerance)
				if verdict != score.Anomalous {
					fun.AddTranslation(translated, tgt)
				}
				row := schemas.MutantResultRow{Run: m.Run, Translator: tr.Name(), ProblemID: p.ID, VariantID: mu.ID,
					Operator: mu.Operator, SrcLang: d.src, TgtLang: d.tgt, Verdict: verdict, Reason: reason,
					FirstDiffTest: first, Expected: clip(exp, 2000), Actual: clip(act, 2000)}
				mutantRows[gk] = append(mutantRows[gk], row)
				out.MutantResults = append(out.MutantResults, row)
			}
			funnels[gk] = fun
		}
	}
	seenGroup := map[string]bool{}
	for _, task := range it.Tasks {
		d := direction{task.SrcLang, task.TgtLang}
		if sides[d.src] == nil {
			continue
		}
		for _, tr := range trsOf[d] {
			gk := tr.Name() + "|" + d.src + "|" + d.tgt
			full := task.Corpus + "|" + gk
			if seenGroup[full] {
				continue
			}
			seenGroup[full] = true
			ca := make([]schemas.ResultRow, len(caRows[gk]))
			for i, r := range caRows[gk] {
				r.Corpus = task.Corpus
				ca[i] = r
			}
			out.Groups = append(out.Groups, Group{Translator: tr.Name(), Corpus: task.Corpus, SrcLang: d.src,
				TgtLang: d.tgt, ProblemID: p.ID, Mutants: mutantRows[gk], Results: ca, Funnel: countsOf(funnels[gk])})
		}
	}
	return out
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
		row.Error = clip(r.Detail, 4000)
		if row.Error == "" {
			for _, t := range r.Tests {
				if t.Status != schemas.StatusOK {
					row.Error = clip(t.Error, 2000)
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
		row.Error = clip(t.Error, 2000)
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

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
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
