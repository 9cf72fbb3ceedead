package consistency

import (
	"context"
	"fmt"
	"math"
	"slices"

	"transmute/internal/clip"
	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/execute"
	"transmute/transforms/runner"
	"transmute/transforms/translate"
	"transmute/transforms/values"
)

// The consistency job in three steps, so that a pipeline can run each as a stage
// of its own, as MBTA's (docs/ARCHITECTURE.md): Expand generates the variants of
// each source function and runs them (engines), Translate translates the original
// and the variants kept (translators, no engine), Execute runs the translations,
// judges every pair and repairs (engines, no translator). Their results are plain
// exported data, so a runner can encode them between workers.

// ProgramRun is the run of one source program: "orig" or a variant id.
type ProgramRun struct {
	ID     string
	Result execute.Result
}

// Side is the source side of one language: its function, every variant generated
// (All), those kept for translation (Variants: their source ran, and identifier
// variants kept the outputs), and the runs of the original and every variant.
type Side struct {
	Lang     string
	Function schemas.Function
	All      []Variant
	Variants []Variant
	Runs     []ProgramRun
}

// Expanded is a problem after Expand: its directions, the source sides, and the
// rows so far (variants, the source runs' executions, errors).
type Expanded struct {
	Item       evaluate.Item
	Directions []runner.Direction
	Sides      []Side
	Output     Output
	// Done: nothing more to do (no tests, bad return type); Output.Errors say why.
	Done bool
}

// Translation is one translation of the original or a variant ("orig" or its id)
// by one translator in one direction, and the program id it runs as.
type Translation struct {
	Translator, SrcLang, TgtLang, Variant string
	Program                               string
	Translation                           translate.Translation
}

// Translated is a problem after Translate; Expanded.Output now holds the
// translation rows too.
type Translated struct {
	Expanded     Expanded
	Translations []Translation
}

// Evaluate runs the consistency job on one item: Expand, Translate, then Execute.
// It never fails: what it cannot do becomes error rows.
func (r *Runner) Evaluate(ctx context.Context, it evaluate.Item) Output {
	return r.Execute(ctx, r.Translate(ctx, r.Expand(ctx, it)))
}

// clipOutput lets a step append to rows it received without writing into the
// arrays its input shares with the caller.
func clipOutput(o Output) Output {
	o.Variants = slices.Clip(o.Variants)
	o.Translations = slices.Clip(o.Translations)
	o.Executions = slices.Clip(o.Executions)
	o.Results = slices.Clip(o.Results)
	o.Repairs = slices.Clip(o.Repairs)
	o.Errors = slices.Clip(o.Errors)
	return o
}

// Expand generates the context-similar variants of each source function the
// directions need and runs them with the original; a variant whose source does
// not run, or an identifier variant that changes the outputs, is not kept.
func (r *Runner) Expand(ctx context.Context, it evaluate.Item) Expanded {
	p := it.Problem
	ex := Expanded{Item: it}
	errRow := runner.Errors(r.Run, Stage, p, &ex.Output.Errors)
	dirs, ret, ok := r.Start(p, it.Directions(), "the consistency job", errRow)
	if !ok {
		ex.Done = true
		return ex
	}
	ex.Directions = dirs
	// A language whose side could not be made (no function, no variants) is tried
	// again, with its error row, for each direction from it.
	runner.EachSource(ex.Directions, func(lang string) bool {
		s, ok := r.expandSide(ctx, p, ret, lang, &ex.Output, errRow)
		if ok {
			ex.Sides = append(ex.Sides, s)
		}
		return ok
	})
	return ex
}

// expandSide generates and runs the variants of lang's source function; ok is
// false when there is no side to record (no function, no variants).
func (r *Runner) expandSide(ctx context.Context, p schemas.Problem, ret values.Type, lang string, out *Output,
	errRow runner.ErrRow) (Side, bool) {
	f, ok := p.Function(lang)
	if !ok {
		errRow(lang, "no source function", "")
		return Side{}, false
	}
	vs, _, err := Generate(lang, f.Code, f.Imports, f.Name, r.Table, r.Options)
	if err != nil {
		errRow(lang, "variant generation failed", err.Error())
		return Side{}, false
	}
	s := Side{Lang: lang, Function: f, All: vs}
	b := r.Batch(p, lang)
	b.Candidates = append(b.Candidates, execute.Candidate{ID: schemas.VariantOrig, Code: f.Code, Imports: f.Imports, Entry: f.Name})
	for _, v := range vs {
		out.Variants = append(out.Variants, schemas.VariantRow{Run: r.Run, ProblemID: p.ID, Corpus: p.Corpus,
			VariantID: v.ID, Kind: schemas.VariantKindContextSimilar, Lang: lang, Operator: string(v.Kind),
			Line: int32(v.Line), Col: int32(v.Col), Original: v.Old, Mutated: v.New, Code: v.Code})
		b.Candidates = append(b.Candidates, execute.Candidate{ID: v.ID, Code: v.Code, Imports: f.Imports, Entry: f.Name})
	}
	results := r.RunBatch(ctx, b, errRow)
	for _, c := range b.Candidates {
		out.Executions = append(out.Executions, summaryRow(r.Run, p, lang, schemas.RoleSource, c.ID, results[c.ID]))
		s.Runs = append(s.Runs, ProgramRun{ID: c.ID, Result: results[c.ID]})
	}
	orig := results[schemas.VariantOrig]
	if orig.Status != schemas.StatusOK {
		errRow(lang, "source original failed", string(orig.Status)+": "+clip.String(orig.Detail, 500))
		return s, true
	}
	so := outcomes(orig, len(p.Tests))
	for _, v := range vs {
		res := results[v.ID]
		switch {
		case res.Status != schemas.StatusOK:
			// A variant that does not run (a literal that makes it loop) tests nothing.
			if v.Kind == KindIdentifier {
				errRow(lang, "identifier variant changed outputs", fmt.Sprintf("%s->%s: program %s", v.Old, v.New, res.Status))
			}
		case v.Kind == KindIdentifier && !sameAll(ret, r.Tolerance, so, outcomes(res, len(p.Tests))):
			errRow(lang, "identifier variant changed outputs", fmt.Sprintf("%s->%s", v.Old, v.New))
		default:
			s.Variants = append(s.Variants, v)
		}
	}
	return s, true
}

// sides is ex's sides by language, in the form Execute reads.
func (ex Expanded) sides() map[string]*side {
	out := map[string]*side{}
	for _, s := range ex.Sides {
		res := map[string]execute.Result{}
		for _, run := range s.Runs {
			res[run.ID] = run.Result
		}
		out[s.Lang] = &side{fn: s.Function, variants: s.Variants, all: s.All, results: res}
	}
	return out
}

// Translate translates the original and every variant kept of each direction
// whose source original ran, with each of the direction's translators.
func (r *Runner) Translate(ctx context.Context, ex Expanded) Translated {
	ex.Output = clipOutput(ex.Output)
	tx := Translated{Expanded: ex}
	if ex.Done {
		return tx
	}
	p := ex.Item.Problem
	sides := ex.sides()
	inputs := func(d runner.Direction) []runner.Input {
		s := sides[d.SrcLang]
		if s == nil || s.results[schemas.VariantOrig].Status != schemas.StatusOK {
			return nil
		}
		ins := []runner.Input{{Variant: schemas.VariantOrig, Code: s.fn.Code}}
		for _, v := range s.variants {
			ins = append(ins, runner.Input{Variant: v.ID, Code: v.Code})
		}
		for i := range ins {
			ins[i].Imports, ins[i].Entry, ins[i].Params, ins[i].Returns = s.fn.Imports, s.fn.Name, p.Params, p.Returns
		}
		return ins
	}
	r.TranslateSides(ctx, p, ex.Directions, inputs, func(d runner.Direction, name string, in runner.Input, res []translate.Translation) {
		t := res[0] // the job judges one translation per input
		tx.Translations = append(tx.Translations, Translation{Translator: name, SrcLang: d.SrcLang, TgtLang: d.TgtLang,
			Variant: in.Variant, Program: fmt.Sprintf("tr/%s/%s-%s/%s", name, d.SrcLang, d.TgtLang, in.Variant), Translation: t})
		tx.Expanded.Output.Translations = append(tx.Expanded.Output.Translations, r.TranslationRow(p, name, in.Variant, d, t))
	})
	return tx
}

// Execute runs the translations (one batch per target language; a translation
// equal to a source program, the identity's, takes that program's result), judges
// every pair of the original and a variant (Algorithm 1's metrics and execution
// consistency), and repairs the translations with an inconsistency.
func (r *Runner) Execute(ctx context.Context, tx Translated) Output {
	ex := tx.Expanded
	out := clipOutput(ex.Output)
	if ex.Done {
		return out
	}
	p := ex.Item.Problem
	errRow := runner.Errors(r.Run, Stage, p, &out.Errors)
	ret, _ := values.ParseType(p.Returns) // Expand parsed it
	sides := ex.sides()
	trans := map[string]*transl{} // translator|src|tgt|variant
	key := func(tr string, d runner.Direction, variant string) string {
		return tr + "|" + d.SrcLang + "|" + d.TgtLang + "|" + variant
	}
	for _, t := range tx.Translations {
		trans[t.Translator+"|"+t.SrcLang+"|"+t.TgtLang+"|"+t.Variant] = &transl{tr: t.Translation, prog: t.Program}
	}

	// 1. Run the translations.
	r.runTranslations(ctx, p, trans, sides, errRow)
	for _, x := range sortedTrans(trans) {
		if x.res != nil {
			out.Executions = append(out.Executions, summaryRow(r.Run, p, "", schemas.RoleTranslation, x.prog, *x.res))
		}
	}

	// 2. Judge every pair; 3. repair the translations with an inconsistency.
	type pending struct {
		tr       string
		d        runner.Direction
		metric   Metric
		execBad  int
		minScore float64
		order    []int
		cands    []string // variant ids, index 0 = schemas.VariantOrig
		mapped   map[int]string
		unmapped []string
	}
	var repairs []*pending
	for _, d := range ex.Directions {
		s := sides[d.SrcLang]
		if s == nil || s.results[schemas.VariantOrig].Status != schemas.StatusOK {
			continue
		}
		so := outcomes(s.results[schemas.VariantOrig], len(p.Tests))
		for _, tr := range d.Translators {
			to := trans[key(tr, d, schemas.VariantOrig)]
			var docs [][]string
			tokOf := map[string][]string{}
			ids := []string{schemas.VariantOrig}
			for _, v := range s.variants {
				ids = append(ids, v.ID)
			}
			for _, id := range ids {
				x := trans[key(tr, d, id)]
				tokOf[id] = Tokens(d.TgtLang, x.tr.Code)
				docs = append(docs, tokOf[id])
			}
			idf := NewIDF(docs)
			execBad := 0
			minScore := map[Metric]float64{}
			for _, m := range Metrics {
				minScore[m] = 1
			}
			for _, v := range s.variants {
				tv := trans[key(tr, d, v.ID)]
				row := schemas.ConsistencyRow{Run: r.Run, Translator: tr, Corpus: p.Corpus, ProblemID: p.ID,
					SrcLang: d.SrcLang, TgtLang: d.TgtLang, VariantID: v.ID, Kind: string(v.Kind), Old: v.Old, New: v.New,
					Half: HalfOf(p.ID), OrigStatus: to.tr.Status, VariantStatus: tv.tr.Status}
				sc := map[Metric]float64{}
				for _, m := range Metrics {
					sc[m] = ConsistencyScore(m, tokOf[schemas.VariantOrig], tokOf[v.ID], idf)
					minScore[m] = math.Min(minScore[m], sc[m])
				}
				row.LCS, row.ED, row.TFIDF, row.BLEU = sc[MetricLCS], sc[MetricED], sc[MetricTFIDF], sc[MetricBLEU]
				sv := outcomes(s.results[v.ID], len(p.Tests))
				row.SourcesDiffer = !sameAll(ret, r.Tolerance, so, sv)
				oo, vo := transOutcomes(to, len(p.Tests)), transOutcomes(tv, len(p.Tests))
				ok, first := ExecConsistent(ret, r.Tolerance, so, sv, oo, vo)
				row.ExecConsistent, row.FirstDiffTest = ok, int32(first)
				row.OrigProgram, row.VariantProgram = programStatus(to), programStatus(tv)
				if !ok {
					execBad++
					row.Detail = fmt.Sprintf("test %d: sources %s / %s, translations %s / %s", first,
						show(at(so, first)), show(at(sv, first)), show(at(oo, first)), show(at(vo, first)))
				}
				out.Results = append(out.Results, row)
			}
			// Repair when execution or some metric sees an inconsistency; the
			// scores keep the metric-triggered ones that fall below the chosen
			// threshold, which is not known per problem.
			for _, m := range Metrics {
				if execBad == 0 && minScore[m] >= 1 {
					continue
				}
				pd := &pending{tr: tr, d: d, metric: m, execBad: execBad, minScore: minScore[m],
					mapped: map[int]string{}}
				// Map every variant's translation back first; rank the original's
				// translation with those that could be mapped.
				seqs := [][]string{tokOf[schemas.VariantOrig]}
				pd.cands = []string{schemas.VariantOrig}
				for _, v := range s.variants {
					x := trans[key(tr, d, v.ID)]
					if x.tr.Status != schemas.TranslationOK {
						continue
					}
					code, err := MapBack(d.TgtLang, x.tr.Code, v)
					if err != nil {
						pd.unmapped = append(pd.unmapped, v.ID[:6]+": "+err.Error())
						continue
					}
					pd.mapped[len(pd.cands)] = code
					pd.cands = append(pd.cands, v.ID)
					seqs = append(seqs, Tokens(d.TgtLang, code))
				}
				pd.order, _ = Rank(m, seqs, idf)
				repairs = append(repairs, pd)
			}
		}
	}
	// Run every mapped-back translation, one batch per target language.
	repRes := map[string]execute.Result{} // lang|code -> result
	byLang := map[string][]execute.Candidate{}
	seenCode := map[string]bool{}
	for _, pd := range repairs {
		orig := trans[key(pd.tr, pd.d, schemas.VariantOrig)]
		for _, code := range pd.mapped {
			k := pd.d.TgtLang + "|" + code
			if !seenCode[k] {
				seenCode[k] = true
				byLang[pd.d.TgtLang] = append(byLang[pd.d.TgtLang], execute.Candidate{ID: fmt.Sprintf("rep/%d", len(seenCode)),
					Code: code, Imports: orig.tr.Imports, Entry: orig.tr.Entry})
			}
		}
	}
	for lang, cs := range byLang {
		b := r.Batch(p, lang)
		b.Candidates = cs
		res := r.RunBatch(ctx, b, errRow)
		for _, c := range cs {
			repRes[lang+"|"+c.Code] = res[c.ID]
		}
	}
	for _, pd := range repairs {
		s := sides[pd.d.SrcLang]
		so := outcomes(s.results[schemas.VariantOrig], len(p.Tests))
		orig := trans[key(pd.tr, pd.d, schemas.VariantOrig)]
		before := transOutcomes(orig, len(p.Tests))
		row := schemas.RepairRow{Run: r.Run, Translator: pd.tr, Corpus: p.Corpus, ProblemID: p.ID, SrcLang: pd.d.SrcLang,
			TgtLang: pd.d.TgtLang, RankMetric: string(pd.metric), ExecInconsistent: int32(pd.execBad), MinScore: pd.minScore,
			Candidates: int32(len(pd.cands)), Before: orig.tr.Code, PassBefore: passRate(ret, r.Tolerance, so, before)}
		row.PassAfter, row.After = row.PassBefore, row.Before
		switch {
		case len(pd.cands) < 2:
			row.Reason = ReasonNoCandidates
			if len(pd.unmapped) > 0 {
				row.Reason += " (" + clip.String(joinSemi(pd.unmapped), 600) + ")"
			}
		case pd.order[0] == 0:
			row.Reason = ReasonOriginalBest
		default:
			row.Reason = ReasonNoneConsistent
			why := pd.unmapped
			for rank, ci := range pd.order {
				if ci == 0 {
					break
				}
				code := pd.mapped[ci]
				res := repRes[pd.d.TgtLang+"|"+code]
				after := outcomes(res, len(p.Tests))
				if bad := r.inconsistentWith(ret, s, so, after, pd.tr, pd.d.SrcLang, pd.d.TgtLang, trans); bad > 0 {
					why = append(why, fmt.Sprintf("%s: inconsistent with %d variant translations", pd.cands[ci][:6], bad))
					continue
				}
				row.Accepted, row.Reason = true, ReasonAccepted
				row.ChosenVariant, row.ChosenRank = pd.cands[ci], int32(rank)
				row.After, row.PassAfter = code, passRate(ret, r.Tolerance, so, after)
				break
			}
			if !row.Accepted && len(why) > 0 {
				row.Reason += " (" + clip.String(joinSemi(why), 600) + ")"
			}
		}
		out.Repairs = append(out.Repairs, row)
	}
	return out
}
