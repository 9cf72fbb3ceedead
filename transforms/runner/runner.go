// Package runner holds the steps that the variant jobs (MBTA, the properties job
// and the consistency job) share: each expands a problem's source functions into
// variants and runs them, translates the original and the variants, runs the
// translations and judges them. The jobs differ in their variants and their
// judgement; choosing the translators of each direction, running a batch,
// translating one input and rendering the rows of translations, executions and
// errors are the same, and live here. The evaluate job renders its executions
// with ExecutionRows too. It is plain Go (no Beam).
package runner

import (
	"context"

	"transmute/internal/clip"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/sandbox"
	"transmute/transforms/translate"
)

// ReasonNoVariants is the ErrorRow reason for translators that cannot translate
// variants (those that only replay recorded translations).
const ReasonNoVariants = "translator cannot translate variants"

// Runner runs one problem's batches for a variant job. It is safe for concurrent
// use when its engines are.
type Runner struct {
	Run     string
	Engines map[string]execute.Engine
	Limits  sandbox.Limits
	// InfraTests gives every test of a candidate an infra_error result when its
	// engine fails, not only the candidate (MBTA judges test by test).
	InfraTests bool
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
func (r *Runner) Batch(p schemas.Problem, lang string) execute.Batch {
	return execute.Batch{ProblemID: p.ID, Lang: lang, Params: p.Params, Returns: p.Returns, Tests: p.Tests,
		Limits: r.Limits, StopAfterTimeouts: 1}
}

// RunBatch executes one batch and returns the results by candidate id; an engine
// failure is an error row and turns every candidate into an infra error.
func (r *Runner) RunBatch(ctx context.Context, b execute.Batch, errRow ErrRow) map[string]execute.Result {
	results := map[string]execute.Result{}
	if len(b.Candidates) == 0 {
		return results
	}
	res, err := execute.RunOn(ctx, r.Engines, b, r.InfraTests)
	if err != nil {
		errRow(b.Lang, "engine failure", err.Error())
	}
	for i, c := range b.Candidates {
		results[c.ID] = res[i]
	}
	return results
}

// Direction is one direction of a problem and the translators that take part in
// it, in the order given.
type Direction struct {
	schemas.Direction
	Translators []translate.Translator
}

// Directions picks the translators of each direction: those that support it and
// translate unseen code. A translator that supports a direction but only replays
// recorded translations gets one error row (job names the job in it).
func Directions(dirs []schemas.Direction, trs []translate.Translator, job string, errRow ErrRow) []Direction {
	skipped := map[string]bool{}
	out := make([]Direction, 0, len(dirs))
	for _, d := range dirs {
		dir := Direction{Direction: d}
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
			dir.Translators = append(dir.Translators, tr)
		}
		out = append(out, dir)
	}
	return out
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
