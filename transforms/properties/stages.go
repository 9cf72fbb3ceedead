package properties

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/execute"
	"transmute/transforms/metamorph"
	"transmute/transforms/runner"
	"transmute/transforms/translate"
	"transmute/transforms/values"
)

// The properties job in three steps, so that a pipeline can run each as a stage
// of its own, as MBTA's (docs/ARCHITECTURE.md): Expand makes each source
// function's metamorphic variants and merge partner and runs them (engines),
// Translate translates every valid input (translators, no engine), Execute runs
// the translations and checks every property instance (engines, no translator).
// Their results are plain exported data, so a runner can encode them between
// workers.

// Program is one valid input of a source side: the original, a variant or the
// merge partner, with its run and its observation.
type Program struct {
	ID         string
	Fn         metamorph.Function
	HasVariant bool // the partner and the original have none
	Variant    metamorph.Variant
	Obs        Obs
	Result     execute.Result
}

// Side is the valid inputs of one source language: the original first, then the
// valid variants and the partner.
type Side struct {
	Lang     string
	Programs []Program
}

// ProgramRun is the run of one distinct program (progKey), source or translation.
type ProgramRun struct {
	Key    string
	Result execute.Result
}

// Expanded is a problem after Expand: its directions, the source sides, every
// source program's run (a translation equal to one takes its result), and the
// rows so far.
type Expanded struct {
	Item       evaluate.Item
	Directions []runner.Direction
	Sides      []Side
	Runs       []ProgramRun
	Output     Output
	// Done: nothing more to do (no tests, bad return type); Output.Errors say why.
	Done bool
}

// Unit is the translations (every sample) of one input by one translator in one
// direction.
type Unit struct {
	Translator, SrcLang, TgtLang string
	Program                      string // Program.ID
	Samples                      []translate.Translation
}

// Translated is a problem after Translate; Expanded.Output now holds the
// translation rows too.
type Translated struct {
	Expanded Expanded
	Units    []Unit
}

// Evaluate runs the properties job on one item: Expand, Translate, then Execute.
// pool holds the problems merge may take its second function from (the problem
// itself is skipped). It never fails: what it cannot do becomes error rows.
func (r *Runner) Evaluate(ctx context.Context, it evaluate.Item, pool []schemas.Problem) Output {
	return r.Execute(ctx, r.Translate(ctx, r.Expand(ctx, it, pool)))
}

// clipOutput lets a step append to rows it received without writing into the
// arrays its input shares with the caller.
func clipOutput(o Output) Output {
	o.Variants = slices.Clip(o.Variants)
	o.Transformations = slices.Clip(o.Transformations)
	o.Translations = slices.Clip(o.Translations)
	o.Results = slices.Clip(o.Results)
	o.Errors = slices.Clip(o.Errors)
	return o
}

// Expand makes and runs the variants of each source language the directions
// need (sourceSide) and keeps the valid inputs.
func (r *Runner) Expand(ctx context.Context, it evaluate.Item, pool []schemas.Problem) Expanded {
	p := it.Problem
	ex := Expanded{Item: it}
	errRow := runner.Errors(r.Run, Stage, p, &ex.Output.Errors)
	dirs, _, ok := r.Start(p, it.Directions(), "the properties job", errRow)
	if !ok {
		ex.Done = true
		return ex
	}
	ex.Directions = dirs
	ran := map[string]execute.Result{} // progKey -> result
	runner.EachSource(ex.Directions, func(lang string) bool {
		progs := r.sourceSide(ctx, p, lang, pool, ran, &ex.Output, errRow)
		if progs == nil {
			return false
		}
		s := Side{Lang: lang}
		for _, pg := range progs {
			x := Program{ID: pg.id, Fn: pg.fn, Obs: pg.obs, Result: pg.res}
			if pg.variant != nil {
				x.HasVariant, x.Variant = true, *pg.variant
			}
			s.Programs = append(s.Programs, x)
		}
		ex.Sides = append(ex.Sides, s)
		return true
	})
	for _, k := range slices.Sorted(maps.Keys(ran)) {
		ex.Runs = append(ex.Runs, ProgramRun{Key: k, Result: ran[k]})
	}
	return ex
}

// programs is the side of lang in the form Execute reads (nil: none).
func (ex Expanded) programs(lang string) []*program {
	for _, s := range ex.Sides {
		if s.Lang != lang {
			continue
		}
		var out []*program
		for _, x := range s.Programs {
			pg := &program{id: x.ID, fn: x.Fn, obs: x.Obs, res: x.Result}
			if x.HasVariant {
				v := x.Variant
				pg.variant = &v
			}
			out = append(out, pg)
		}
		return out
	}
	return nil
}

// Translate translates every valid input of each direction, every sample.
func (r *Runner) Translate(ctx context.Context, ex Expanded) Translated {
	ex.Output = clipOutput(ex.Output)
	tx := Translated{Expanded: ex}
	if ex.Done {
		return tx
	}
	p := ex.Item.Problem
	inputs := func(d runner.Direction) []runner.Input {
		progs := ex.programs(d.SrcLang)
		if progs == nil {
			return nil
		}
		ins := make([]runner.Input, len(progs))
		for i, pg := range progs {
			ins[i] = runner.Input{Variant: pg.id, Code: pg.fn.Code, Imports: pg.fn.Imports, Entry: pg.fn.Entry,
				Params: pg.fn.Params, Returns: pg.fn.Returns}
		}
		return ins
	}
	r.TranslateSides(ctx, p, ex.Directions, inputs, func(d runner.Direction, name string, in runner.Input, res []translate.Translation) {
		for _, t := range res {
			tx.Expanded.Output.Translations = append(tx.Expanded.Output.Translations, r.TranslationRow(p, name, in.Variant, d, t))
		}
		tx.Units = append(tx.Units, Unit{Translator: name, SrcLang: d.SrcLang, TgtLang: d.TgtLang, Program: in.Variant, Samples: res})
	})
	return tx
}

// Execute runs every distinct translation (one batch per target language and
// signature; one equal to a source program takes its run), then inspects every
// translation sample and checks every property instance.
func (r *Runner) Execute(ctx context.Context, tx Translated) Output {
	ex := tx.Expanded
	out := clipOutput(ex.Output)
	if ex.Done {
		return out
	}
	p := ex.Item.Problem
	errRow := runner.Errors(r.Run, Stage, p, &out.Errors)
	ret, _ := values.ParseType(p.Returns) // Expand parsed it
	c := Context{Returns: ret, Tolerance: r.Tolerance}
	ran := map[string]execute.Result{}
	for _, x := range ex.Runs {
		ran[x.Key] = x.Result
	}
	sides := map[string][]*program{}
	for _, s := range ex.Sides {
		sides[s.Lang] = ex.programs(s.Lang)
	}
	type unit struct {
		prog    *program
		samples []translate.Translation
	}
	units := map[string][]unit{} // translator|src|tgt -> one per input, in sides order
	for _, u := range tx.Units {
		var pg *program
		for _, x := range sides[u.SrcLang] {
			if x.id == u.Program {
				pg = x
				break
			}
		}
		k := u.Translator + "|" + u.SrcLang + "|" + u.TgtLang
		units[k] = append(units[k], unit{pg, u.Samples})
	}

	// 1. Run every distinct translation, one batch per target language and signature.
	type pending struct {
		lang string
		fn   metamorph.Function
		cand execute.Candidate
	}
	batches := map[string][]pending{}
	var order []string
	seen := map[string]bool{}
	for _, d := range ex.Directions {
		for _, tr := range d.Translators {
			for _, u := range units[tr+"|"+d.SrcLang+"|"+d.TgtLang] {
				for _, t := range u.samples {
					if t.Status != schemas.TranslationOK {
						continue
					}
					sig := sigKey(u.prog.fn)
					pk := progKey(d.TgtLang, t.Imports, t.Code, t.Entry, sig)
					if _, done := ran[pk]; done || seen[pk] {
						continue
					}
					seen[pk] = true
					bk := d.TgtLang + "\x00" + sig
					if _, ok := batches[bk]; !ok {
						order = append(order, bk)
					}
					batches[bk] = append(batches[bk], pending{d.TgtLang, u.prog.fn,
						execute.Candidate{ID: pk, Code: t.Code, Imports: t.Imports, Entry: t.Entry}})
				}
			}
		}
	}
	for _, bk := range order {
		ps := batches[bk]
		b := r.batch(p.ID, ps[0].lang, ps[0].fn)
		for _, x := range ps {
			b.Candidates = append(b.Candidates, x.cand)
		}
		for id, res := range r.RunBatch(ctx, b, errRow) {
			ran[id] = res
		}
	}

	// 2. Inspect every translation sample and check every property instance.
	start := time.Now()
	defer func() { out.CheckNanos += time.Since(start).Nanoseconds() }()
	for _, d := range ex.Directions {
		progs := sides[d.SrcLang]
		if progs == nil {
			continue
		}
		for _, tr := range d.Translators {
			us := units[tr+"|"+d.SrcLang+"|"+d.TgtLang]
			obs := map[string][]Obs{}
			n := 1
			for _, u := range us {
				var os []Obs
				for _, t := range u.samples {
					if t.Status != schemas.TranslationOK {
						os = append(os, MissingObs)
						continue
					}
					res := ran[progKey(d.TgtLang, t.Imports, t.Code, t.Entry, sigKey(u.prog.fn))]
					os = append(os, observe(d.TgtLang, t.Code, t.Entry, res))
				}
				obs[u.prog.id] = os
				n = max(n, len(os))
			}
			row := func(pr Property, ids []string, v Verdict) {
				wr := schemas.PropertyResultRow{Run: r.Run, Translator: tr, ProblemID: p.ID, Corpus: p.Corpus,
					SrcLang: d.SrcLang, TgtLang: d.TgtLang, Property: pr.Name, Transformation: string(pr.Transformation),
					Inspection: string(pr.Inspection), K: int32(pr.K), Syntactic: pr.Syntactic(), Variants: strings.Join(ids, ","),
					Samples: int32(n), Violated: v.Violated, WitnessTest: v.Test}
				if v.Violated {
					var s []string
					for _, i := range v.Samples {
						s = append(s, fmt.Sprint(i))
					}
					wr.WitnessSamples = strings.Join(s, ",")
				}
				out.Results = append(out.Results, wr)
			}
			orig := progs[0]
			for _, pr := range ByTransformation("") {
				row(pr, []string{schemas.VariantOrig}, pr.Check(c, []Obs{orig.obs}, [][]Obs{obs[schemas.VariantOrig]}))
			}
			var partner *program
			for _, pg := range progs[1:] {
				if pg.variant == nil {
					partner = pg
				}
			}
			for _, pg := range progs[1:] {
				v := pg.variant
				if v == nil {
					continue
				}
				if v.Transformation == metamorph.Merge {
					if partner == nil {
						continue
					}
					mc := c
					mc.FirstTest, mc.SecondTest = v.FirstTest, v.SecondTest
					for _, pr := range ByTransformation(metamorph.Merge) {
						row(pr, []string{schemas.VariantOrig, partner.id, v.ID}, pr.Check(mc, []Obs{orig.obs, partner.obs, pg.obs},
							[][]Obs{obs[schemas.VariantOrig], obs[partner.id], obs[v.ID]}))
					}
					continue
				}
				for _, pr := range ByTransformation(v.Transformation) {
					row(pr, []string{schemas.VariantOrig, v.ID}, pr.Check(c, []Obs{orig.obs, pg.obs}, [][]Obs{obs[schemas.VariantOrig], obs[v.ID]}))
				}
			}
		}
	}
	return out
}
