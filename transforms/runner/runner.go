// Package runner holds what the variant jobs (MBTA, the properties job and the
// consistency job) share: each expands a problem's source functions into variants
// and runs them, translates the original and the variants, runs the translations
// and judges them. The jobs differ in their variants and their judgement; the tool
// set (Tools), checking a problem and choosing the translators of each direction
// (Start), running a batch through the engines, translating a direction's inputs,
// rendering the rows of translations, executions and errors, and the score key of
// an accumulator (Keyed) are the same, and live here. The evaluate job translates
// and renders its executions with Translate and ExecutionRows too. It is plain Go
// (no Beam).
package runner

import (
	"context"

	"transmute/internal/clip"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/sandbox"
	"transmute/transforms/score"
	"transmute/transforms/translate"
	"transmute/transforms/values"
)

// ReasonNoVariants is the ErrorRow reason for translators that cannot translate
// variants (those that only replay recorded translations).
const ReasonNoVariants = "translator cannot translate variants"

// Tools is what a variant job's steps work with. Expand and Execute need the
// engines, Translate the translators; a stage opens only what its step needs. It
// is safe for concurrent use when its translators and engines are.
type Tools struct {
	Run         string
	Translators []translate.Translator
	Engines     map[string]execute.Engine
	// Limits are the per-test limits of every batch.
	Limits    sandbox.Limits
	Tolerance values.Tolerance
}

// ErrRow records one error row of a problem.
type ErrRow func(lang, reason, detail string)

// Errors returns the ErrRow that appends the rows of job stage about p to dst.
func Errors(run string, stage schemas.Stage, p schemas.Problem, dst *[]schemas.ErrorRow) ErrRow {
	return func(lang, reason, detail string) {
		*dst = append(*dst, schemas.ErrorRow{Run: run, Stage: stage, Corpus: p.Corpus,
			ProblemID: p.ID, Lang: lang, Reason: reason, Detail: detail})
	}
}

// Batch is a batch of p's tests in lang with no candidate yet. A timeout decides a
// variant (an anomalous mutant, an inconsistent translation): its other tests need
// not run.
func (t *Tools) Batch(p schemas.Problem, lang string) execute.Batch {
	return t.BatchOf(p.ID, lang, p.Params, p.Returns, p.Tests)
}

// BatchOf is Batch for a program whose parameters and tests are not its problem's
// (a variant that adds a parameter, a merge of two functions).
func (t *Tools) BatchOf(id, lang string, params []schemas.Param, returns string, tests []schemas.Test) execute.Batch {
	return execute.Batch{ProblemID: id, Lang: lang, Params: params, Returns: returns, Tests: tests,
		Limits: t.Limits, StopAfterTimeouts: 1}
}

// RunBatch executes one batch and returns the results by candidate id; an engine
// failure is an error row and turns every candidate into an infra error.
func (t *Tools) RunBatch(ctx context.Context, b execute.Batch, errRow ErrRow) map[string]execute.Result {
	return t.run(ctx, b, errRow, false)
}

// RunTests is RunBatch for a job that judges test by test (MBTA): when the engine
// fails, every test of every candidate is an infra error too.
func (t *Tools) RunTests(ctx context.Context, b execute.Batch, errRow ErrRow) map[string]execute.Result {
	return t.run(ctx, b, errRow, true)
}

func (t *Tools) run(ctx context.Context, b execute.Batch, errRow ErrRow, infraTests bool) map[string]execute.Result {
	results := map[string]execute.Result{}
	if len(b.Candidates) == 0 {
		return results
	}
	res, err := execute.RunOn(ctx, t.Engines, b, infraTests)
	if err != nil {
		errRow(b.Lang, "engine failure", err.Error())
	}
	for i, c := range b.Candidates {
		results[c.ID] = res[i]
	}
	return results
}

// Direction is one direction of a problem and the names of the translators that
// take part in it (those that support it and translate unseen code), in the
// Tools' order. It is plain data, so a runner can encode it between stages.
type Direction struct {
	SrcLang, TgtLang string
	Translators      []string
}

// Dir is d as a schemas.Direction.
func (d Direction) Dir() schemas.Direction { return schemas.Direction{Src: d.SrcLang, Tgt: d.TgtLang} }

// Start checks that p can be run, with an error row when it cannot (no tests, a
// return type that does not parse), and picks the translators of each of dirs
// (Directions). job names the job in the error rows.
func (t *Tools) Start(p schemas.Problem, dirs []schemas.Direction, job string, errRow ErrRow) ([]Direction, values.Type, bool) {
	var ret values.Type
	if len(p.Tests) == 0 {
		errRow("", "no tests", "")
		return nil, ret, false
	}
	ret, err := values.ParseType(p.Returns)
	if err != nil {
		errRow("", "bad return type", err.Error())
		return nil, ret, false
	}
	return Directions(dirs, t.Translators, job, errRow), ret, true
}

// Directions picks the translators of each direction: those that support it and
// translate unseen code; a direction without one is left out. A translator that
// supports a direction but only replays recorded translations gets one error row
// (job names the job in it).
func Directions(dirs []schemas.Direction, trs []translate.Translator, job string, errRow ErrRow) []Direction {
	skipped := map[string]bool{}
	var out []Direction
	for _, d := range dirs {
		dir := Direction{SrcLang: d.Src, TgtLang: d.Tgt}
		for _, tr := range trs {
			if !translate.Supports(tr, d.Src, d.Tgt) {
				continue
			}
			if !tr.TranslatesVariants() {
				if !skipped[tr.Name()] {
					skipped[tr.Name()] = true
					errRow("", ReasonNoVariants, tr.Name()+" is skipped by "+job+" (it only replays recorded translations)")
				}
				continue
			}
			dir.Translators = append(dir.Translators, tr.Name())
		}
		if len(dir.Translators) > 0 {
			out = append(out, dir)
		}
	}
	return out
}

// EachSource calls side for each source language of dirs, in their order, until
// it makes that language's side (true): a side that fails is tried again, with
// its error rows, by the next direction from its language.
func EachSource(dirs []Direction, side func(lang string) bool) {
	done := map[string]bool{}
	for _, d := range dirs {
		if !done[d.SrcLang] {
			done[d.SrcLang] = side(d.SrcLang)
		}
	}
}

// Input is one program of a source side that a direction's translators translate:
// the original ("orig") or a variant, with the parameters it takes.
type Input struct {
	Variant              string
	Code, Imports, Entry string
	Params               []schemas.Param
	Returns              string
}

// TranslateInputs translates every input with every translator of d, translator
// by translator, and hands got each translator's name, the input and its
// translations (at least one: Translate). The translators must include every one
// d names (one that is not open becomes a translation error).
func (t *Tools) TranslateInputs(ctx context.Context, p schemas.Problem, d Direction, ins []Input,
	got func(translator string, in Input, res []translate.Translation)) {
	for _, name := range d.Translators {
		var tr translate.Translator
		for _, x := range t.Translators {
			if x.Name() == name {
				tr = x
				break
			}
		}
		for _, in := range ins {
			req := translate.Request{ProblemID: p.ID, Corpus: p.Corpus, VariantID: in.Variant, SrcLang: d.SrcLang,
				TgtLang: d.TgtLang, Code: in.Code, Imports: in.Imports, Entry: in.Entry, Params: in.Params, Returns: in.Returns}
			got(name, in, Translate(ctx, tr, name, req))
		}
	}
}

// TranslateSides is TranslateInputs for every direction of dirs, in order, with
// the inputs of its source side; a direction whose side has none (nil: no side,
// or its original did not run) is skipped.
func (t *Tools) TranslateSides(ctx context.Context, p schemas.Problem, dirs []Direction, inputs func(d Direction) []Input,
	got func(d Direction, translator string, in Input, res []translate.Translation)) {
	for _, d := range dirs {
		ins := inputs(d)
		if ins == nil {
			continue
		}
		t.TranslateInputs(ctx, p, d, ins, func(translator string, in Input, res []translate.Translation) {
			got(d, translator, in, res)
		})
	}
}

// TranslationRow is the row of translation tr of variant by translator in d.
func (t *Tools) TranslationRow(p schemas.Problem, translator, variant string, d Direction, tr translate.Translation) schemas.TranslationRow {
	return TranslationRow(t.Run, p, translator, variant, d.Dir(), tr)
}

// Translate returns at least one translation of req: a translator's error, or a
// missing translator (nil: one a stage did not open), is a translation error, and
// no answer is a missing translation.
func Translate(ctx context.Context, tr translate.Translator, name string, req translate.Request) []translate.Translation {
	if tr == nil {
		return []translate.Translation{{Status: schemas.TranslationError, Error: "translator " + name + " is not open in this stage"}}
	}
	res, err := tr.Translate(ctx, req)
	if err != nil {
		res = []translate.Translation{{Status: schemas.TranslationError, Error: err.Error()}}
	}
	if len(res) == 0 {
		res = []translate.Translation{{Status: schemas.TranslationMissing}}
	}
	return res
}

// TranslationRow is the row of translation t of variant by translator in direction d.
func TranslationRow(run string, p schemas.Problem, translator, variant string, d schemas.Direction, t translate.Translation) schemas.TranslationRow {
	return schemas.TranslationRow{Run: run, Translator: translator, ProblemID: p.ID, Corpus: p.Corpus,
		VariantID: variant, SrcLang: d.Src, TgtLang: d.Tgt, Sample: t.Sample, Status: t.Status, Error: t.Error,
		Code: t.Code, Imports: t.Imports, Entry: t.Entry, PromptHash: t.PromptHash, LatencyMs: t.LatencyMs,
		TokensIn: t.TokensIn, TokensOut: t.TokensOut, Cached: t.Cached, Raw: t.Raw}
}

// Program names one program run for the executions table.
type Program struct {
	Lang       string
	Role       schemas.Role
	Translator string // "" for the corpus's and the source side's programs
	ID         string
	Variant    string
}

// ExecutionRows renders one program run: every test when full, else a summary row
// (TestIndex -1: the program's status, its whole run's time, the compiler message
// or its first failing test's error) plus the tests that did not end ok. A program
// that did not compile, or ran no test, has its summary row only.
func ExecutionRows(run string, p schemas.Problem, pg Program, r execute.Result, full bool) []schemas.ExecutionRow {
	base := schemas.ExecutionRow{Run: run, ProblemID: p.ID, Corpus: p.Corpus, ProgramID: pg.ID, Role: pg.Role,
		Translator: pg.Translator, VariantID: pg.Variant, Lang: pg.Lang, Status: r.Status, Cached: r.Cached}
	var rows []schemas.ExecutionRow
	if !full || r.Status == schemas.StatusCompileError || len(r.Tests) == 0 {
		rows = append(rows, SummaryRow(base, r))
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

// SummaryRow is base as the summary row of run r (ExecutionRows).
func SummaryRow(base schemas.ExecutionRow, r execute.Result) schemas.ExecutionRow {
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
	return row
}

// Keyed is the score key of an accumulator and how many things (groups, rows) were
// added to it: the key of the first one, since a combiner adds only things of one
// key. Nothing added, no scores. Exported for gob.
type Keyed struct {
	Key   score.Key
	Added int
}

// Add counts one thing of key k.
func (a *Keyed) Add(k score.Key) {
	if a.Added == 0 {
		a.Key = k
	}
	a.Added++
}

// Merge counts o's things in a; false when o has none (nothing to merge).
func (a *Keyed) Merge(o Keyed) bool {
	if o.Added == 0 {
		return false
	}
	if a.Added == 0 {
		a.Key = o.Key
	}
	a.Added += o.Added
	return true
}
