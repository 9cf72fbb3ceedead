package mbta

import (
	"context"
	"maps"
	"slices"
	"sort"

	"transmute/internal/clip"
	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/execute"
	"transmute/transforms/mutate"
	"transmute/transforms/runner"
	"transmute/transforms/score"
	"transmute/transforms/translate"
	"transmute/transforms/values"
)

// MBTA in three steps, so that a pipeline can run each as a stage of its own
// (docs/ARCHITECTURE.md): Expand mutates and runs the source side (engines),
// Translate calls the translators (network, no engine), Execute runs the
// translations and judges (engines, no translator). Their results are plain
// exported data, so a runner can encode them between workers.

// VariantProgram says which program ran a variant ("orig" or a mutant id): mutants
// with identical code share one program.
type VariantProgram struct {
	Variant, Program string
}

// ProgramRun is the run of one program of a source side.
type ProgramRun struct {
	Program string
	Result  execute.Result
}

// Side is the source side of one language: the original, its mutants and the runs
// of their distinct programs (the original first).
type Side struct {
	Lang     string
	Function schemas.Function
	Mutants  []mutate.Mutant
	Programs []VariantProgram
	Runs     []ProgramRun
}

// Expanded is a problem after Expand: its directions, the source sides that ran,
// and the rows so far (variants, the source sides' executions, errors).
type Expanded struct {
	Item       evaluate.Item
	Directions []runner.Direction
	Sides      []Side
	Output     Output
	// Done: nothing more to do (no tests, bad return type); Output.Errors say why.
	Done bool
}

// Translation is one distinct translation: one per (translator, direction, source
// text), named by the program id of the first variant translated to it.
type Translation struct {
	Program                      string
	Translator, SrcLang, TgtLang string
	Variant                      string
	Translation                  translate.Translation
}

// Use says which distinct translation a variant got from a translator.
type Use struct {
	Translator, SrcLang, TgtLang, Variant string
	Program                               string
}

// Translated is a problem after Translate. Expanded.Output now holds the translation
// rows and the translators' failure rows too.
type Translated struct {
	Expanded Expanded
	// Translations are sorted by program id.
	Translations []Translation
	Uses         []Use
}

// Evaluate runs MBTA on one item: Expand, Translate, then Execute. It never fails:
// what it cannot do becomes error rows.
func (m *Runner) Evaluate(ctx context.Context, it evaluate.Item) Output {
	return m.Execute(ctx, m.Translate(ctx, m.Expand(ctx, it)))
}

func (m *Runner) errRower(p schemas.Problem, out *Output) runner.ErrRow {
	return runner.Errors(m.Run, Stage, p, &out.Errors)
}

// clipOutput lets a step append to rows it received without writing into the
// arrays its input shares with the caller.
func clipOutput(o Output) Output {
	o.Variants = slices.Clip(o.Variants)
	o.Translations = slices.Clip(o.Translations)
	o.Executions = slices.Clip(o.Executions)
	o.MutantResults = slices.Clip(o.MutantResults)
	o.Groups = slices.Clip(o.Groups)
	o.Errors = slices.Clip(o.Errors)
	return o
}

// Expand picks each direction's translators, then mutates and runs each source
// language once (the original plus every mutant), so that the anomalous mutants are
// known before anything is translated. It needs the engines, and the translators
// only to ask what they support.
func (m *Runner) Expand(ctx context.Context, it evaluate.Item) Expanded {
	p := it.Problem
	ex := Expanded{Item: it}
	out := &ex.Output
	errRow := m.errRower(p, out)
	dirs, _, ok := m.Start(p, it.Directions(), "MBTA", errRow)
	if !ok {
		ex.Done = true
		return ex
	}
	ex.Directions = dirs

	// Mutate and run each source language once: the original plus every mutant. A
	// language whose side fails is tried again (and reported again) by its next
	// direction, as before the split.
	runner.EachSource(ex.Directions, func(src string) bool {
		f, ok := p.Function(src)
		if !ok {
			errRow(src, "no source function", "problem has no "+src+" function")
			return false
		}
		ms, _, err := mutate.Generate(src, f.Code, m.Mutate)
		if err != nil {
			errRow(src, "mutation failed", err.Error())
			return false
		}
		side := Side{Lang: src, Function: f, Mutants: ms, Programs: []VariantProgram{{schemas.VariantOrig, SourceID(src)}}}
		b := m.Batch(p, src)
		b.Candidates = append(b.Candidates, execute.Candidate{ID: SourceID(src), Code: f.Code, Imports: f.Imports, Entry: f.Name})
		byCode := map[string]string{f.Code: SourceID(src)}
		for _, mu := range ms {
			out.Variants = append(out.Variants, schemas.VariantRow{Run: m.Run, ProblemID: p.ID, Corpus: p.Corpus,
				VariantID: mu.ID, Kind: schemas.VariantMutant, Lang: src, Operator: mu.Operator, Line: int32(mu.Line),
				Col: int32(mu.Col), Original: mu.Original, Mutated: mu.Replacement, Diff: mu.Diff, Code: mu.Code})
			if id, ok := byCode[mu.Code]; ok {
				side.Programs = append(side.Programs, VariantProgram{mu.ID, id})
				continue
			}
			id := MutantProgramID(src, mu.ID)
			byCode[mu.Code] = id
			side.Programs = append(side.Programs, VariantProgram{mu.ID, id})
			b.Candidates = append(b.Candidates, execute.Candidate{ID: id, Code: mu.Code, Imports: f.Imports, Entry: f.Name})
		}
		var results map[string]execute.Result
		if m.MutantTimeFactor > 0 && len(b.Candidates) > 1 {
			// The original alone first; its time sets the mutants' limits.
			orig := b
			orig.Candidates = b.Candidates[:1]
			results = m.RunTests(ctx, orig, errRow)
			rest := b
			rest.Candidates = b.Candidates[1:]
			rest.Limits, _ = m.mutantLimits(results[SourceID(src)])
			for id, r := range m.RunTests(ctx, rest, errRow) {
				results[id] = r
			}
		} else {
			results = m.RunTests(ctx, b, errRow)
		}
		for _, c := range b.Candidates {
			side.Runs = append(side.Runs, ProgramRun{Program: c.ID, Result: results[c.ID]})
			pg, full := runner.Program{Lang: src, Role: schemas.RoleMutant, ID: c.ID, Variant: c.ID[len(MutantProgramID(src, "")):]}, false
			if c.ID == SourceID(src) {
				pg, full = runner.Program{Lang: src, Role: schemas.RoleGold, ID: c.ID, Variant: schemas.VariantOrig}, true
			}
			out.Executions = append(out.Executions, runner.ExecutionRows(m.Run, p, pg, results[c.ID], full)...)
		}
		ex.Sides = append(ex.Sides, side)
		return true
	})
	return ex
}

// sideMap indexes the source sides by language, as the steps use them.
func (ex *Expanded) sideMap() map[string]*srcSide {
	sides := map[string]*srcSide{}
	for _, s := range ex.Sides {
		side := &srcSide{fn: s.Function, mutants: s.Mutants, progOf: map[string]string{}, results: map[string]execute.Result{}}
		for _, vp := range s.Programs {
			side.progOf[vp.Variant] = vp.Program
		}
		for _, r := range s.Runs {
			side.results[r.Program] = r.Result
		}
		sides[s.Lang] = side
	}
	return sides
}

// Translate translates the original and every non-anomalous mutant of each
// direction with its translators, once per distinct (translator, source text,
// direction). It needs no engine; its translators must include every one the
// directions name.
func (m *Runner) Translate(ctx context.Context, ex Expanded) Translated {
	t := Translated{Expanded: ex}
	if ex.Done {
		return t
	}
	t.Expanded.Output = clipOutput(ex.Output)
	out := &t.Expanded.Output
	p := ex.Item.Problem
	sides := ex.sideMap()
	cache := map[string]*Translation{} // translator|src|tgt|source text -> its translation
	for _, d := range ex.Directions {
		side := sides[d.SrcLang]
		if side == nil {
			continue
		}
		units := []runner.Input{{Variant: schemas.VariantOrig, Code: side.fn.Code}}
		for _, mu := range side.mutants {
			if r := side.results[side.progOf[mu.ID]]; anomalous(r) {
				continue
			}
			units = append(units, runner.Input{Variant: mu.ID, Code: mu.Code})
		}
		// Each distinct source text is translated once, as its first variant.
		first := map[string]string{} // source text -> variant
		var distinct []runner.Input
		for i := range units {
			u := &units[i]
			u.Imports, u.Entry, u.Params, u.Returns = side.fn.Imports, side.fn.Name, p.Params, p.Returns
			if _, ok := first[u.Code]; !ok {
				first[u.Code] = u.Variant
				distinct = append(distinct, *u)
			}
		}
		ck := func(name, code string) string {
			return name + "\x1f" + d.SrcLang + "\x1f" + d.TgtLang + "\x1f" + code
		}
		m.TranslateInputs(ctx, p, d, distinct, func(name string, in runner.Input, res []translate.Translation) {
			// MBTA judges one translation per mutant: sample 0 (the first).
			cache[ck(name, in.Code)] = &Translation{Program: TranslationID(name, d.SrcLang, d.TgtLang, in.Variant), Translator: name,
				SrcLang: d.SrcLang, TgtLang: d.TgtLang, Variant: in.Variant, Translation: res[0]}
		})
		for _, name := range d.Translators {
			for _, u := range units {
				x := cache[ck(name, u.Code)]
				t.Uses = append(t.Uses, Use{Translator: name, SrcLang: d.SrcLang, TgtLang: d.TgtLang, Variant: u.Variant, Program: x.Program})
				tr := x.Translation
				row := m.TranslationRow(p, name, u.Variant, d, tr)
				row.Cached = tr.Cached || first[u.Code] != u.Variant
				out.Translations = append(out.Translations, row)
				if e, ok := translate.FailureRow(m.Run, p.Corpus, p.ID, name, u.Variant, d.SrcLang, d.TgtLang, tr); ok {
					out.Errors = append(out.Errors, e)
				}
			}
		}
	}
	for _, x := range cache {
		t.Translations = append(t.Translations, *x)
	}
	sort.Slice(t.Translations, func(i, j int) bool { return t.Translations[i].Program < t.Translations[j].Program })
	return t
}

// Execute runs every distinct runnable translation in one batch per target
// language, then judges every mutant killed or survived, makes the CA rows of the
// original's translation and one Group per (task corpus, translator, direction). It
// needs the engines, not the translators.
func (m *Runner) Execute(ctx context.Context, t Translated) Output {
	ex := t.Expanded
	out := clipOutput(ex.Output)
	if ex.Done {
		return out
	}
	it := ex.Item
	p := it.Problem
	errRow := m.errRower(p, &out)
	ret, err := values.ParseType(p.Returns)
	if err != nil { // Expand marks such a problem Done; a hand-made Translated may not
		errRow("", "bad return type", err.Error())
		return out
	}
	sides := ex.sideMap()
	trsOf := map[schemas.Direction][]string{}
	for _, d := range ex.Directions {
		trsOf[schemas.Direction{Src: d.SrcLang, Tgt: d.TgtLang}] = d.Translators
	}
	distinct := make([]*Translation, len(t.Translations))
	byProg := map[string]*Translation{}
	for i := range t.Translations {
		distinct[i] = &t.Translations[i]
		byProg[distinct[i].Program] = distinct[i]
	}
	tkey := func(tr string, d schemas.Direction, variant string) string {
		return tr + "\x1f" + d.Src + "\x1f" + d.Tgt + "\x1f" + variant
	}
	transOf := map[string]*Translation{} // translator|src|tgt|variant -> translation
	for _, u := range t.Uses {
		transOf[tkey(u.Translator, schemas.Direction{Src: u.SrcLang, Tgt: u.TgtLang}, u.Variant)] = byProg[u.Program]
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

	// One batch per target language with every distinct runnable translation.
	tgtResults := map[string]execute.Result{}
	tgtLangs := map[string]bool{}
	for _, x := range distinct {
		if x.Translation.Status == schemas.TranslationOK {
			tgtLangs[x.TgtLang] = true
		}
	}
	for _, lang := range slices.Sorted(maps.Keys(tgtLangs)) {
		b := m.Batch(p, lang)
		// The target language's gold, when it is not a source side: the fidelity check
		// below compares it with the source's.
		if f, ok := p.Function(lang); ok && sides[lang] == nil {
			b.Candidates = append(b.Candidates, execute.Candidate{ID: SourceID(lang), Code: f.Code, Imports: f.Imports, Entry: f.Name})
		}
		for _, x := range distinct {
			tr := x.Translation
			if x.TgtLang != lang || tr.Status != schemas.TranslationOK {
				continue
			}
			if id, ok := srcProg[lang][programKey(tr.Imports, tr.Code, tr.Entry)]; ok {
				if r, ran := sides[lang].results[id]; ran {
					r.CandidateID = x.Program
					tgtResults[x.Program] = r
					continue
				}
			}
			b.Candidates = append(b.Candidates, execute.Candidate{ID: x.Program, Code: tr.Code, Imports: tr.Imports, Entry: tr.Entry})
		}
		if len(b.Candidates) == 0 {
			continue
		}
		for id, r := range m.RunTests(ctx, b, errRow) {
			tgtResults[id] = r
		}
	}
	for _, x := range distinct {
		r, ok := tgtResults[x.Program]
		if !ok {
			continue
		}
		out.Executions = append(out.Executions, runner.ExecutionRows(m.Run, p, runner.Program{Lang: x.TgtLang, Role: schemas.RoleTranslation,
			Translator: x.Translator, ID: x.Program, Variant: x.Variant}, r, x.Variant == schemas.VariantOrig)...)
	}

	for _, lang := range schemas.Languages {
		if r, ok := tgtResults[SourceID(lang)]; ok && sides[lang] == nil {
			out.Executions = append(out.Executions, runner.ExecutionRows(m.Run, p, runner.Program{Lang: lang, Role: schemas.RoleGold,
				ID: SourceID(lang), Variant: schemas.VariantOrig}, r, true)...)
		}
	}
	p.Tests = m.markLangDependent(p, sides, tgtResults)

	// Judge every mutant; CA rows for the original; funnels; one group per task.
	mutantRows := map[string][]schemas.MutantResultRow{} // translator|src|tgt -> rows
	funnels := map[string]FunnelCounts{}
	caRows := map[string][]schemas.ResultRow{}
	for _, dir := range ex.Directions {
		d := schemas.Direction{Src: dir.SrcLang, Tgt: dir.TgtLang}
		side := sides[d.Src]
		if side == nil {
			continue
		}
		srcOrig := side.results[SourceID(d.Src)]
		for _, name := range dir.Translators {
			gk := name + "|" + d.Src + "|" + d.Tgt
			// The original: CA rows against the source function (sample 0).
			if x := transOf[tkey(name, d, schemas.VariantOrig)]; x != nil {
				r, ran := tgtResults[x.Program]
				prog := schemas.Status(x.Translation.Status) // nothing ran: the translation's status
				if ran {
					prog = r.Status
				}
				for ti, test := range p.Tests {
					row := schemas.ResultRow{Run: m.Run, Translator: name, ProblemID: p.ID, SrcLang: d.Src,
						TgtLang: d.Tgt, Oracle: score.OracleSource, TestIndex: test.Index, LangDependent: test.LangDependent,
						ProgramStatus: prog, Status: score.NoTranslation}
					score.JudgeTest(&row, ti, srcOrig, r, ran, ret, m.Tolerance)
					caRows[gk] = append(caRows[gk], row)
				}
			}
			var fun score.Funnel
			for _, mu := range side.mutants {
				src := side.results[side.progOf[mu.ID]]
				var tgt execute.Result
				translated := false
				if x := transOf[tkey(name, d, mu.ID)]; x != nil && x.Translation.Status == schemas.TranslationOK {
					tgt, translated = tgtResults[x.Program]
				}
				verdict, reason, first, exp, act := score.Judge(ret, src, translated, tgt, m.Tolerance)
				if verdict != score.Anomalous {
					fun.AddTranslation(translated, tgt)
				}
				row := schemas.MutantResultRow{Run: m.Run, Translator: name, ProblemID: p.ID, VariantID: mu.ID,
					Operator: mu.Operator, SrcLang: d.Src, TgtLang: d.Tgt, Verdict: verdict, Reason: reason,
					FirstDiffTest: first, Expected: clip.String(exp, 2000), Actual: clip.String(act, 2000)}
				mutantRows[gk] = append(mutantRows[gk], row)
				out.MutantResults = append(out.MutantResults, row)
			}
			funnels[gk] = countsOf(fun)
		}
	}
	seenGroup := map[string]bool{}
	for _, task := range it.Tasks {
		d := schemas.DirectionOf(task)
		if sides[d.Src] == nil {
			continue
		}
		for _, name := range trsOf[d] {
			gk := name + "|" + d.Src + "|" + d.Tgt
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
			out.Groups = append(out.Groups, Group{Translator: name, Corpus: task.Corpus, SrcLang: d.Src,
				TgtLang: d.Tgt, ProblemID: p.ID, Mutants: mutantRows[gk], Results: ca, Funnel: funnels[gk]})
		}
	}
	return out
}
