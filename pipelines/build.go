package pipelines

import (
	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"transmute/schemas"
	"transmute/transforms/score"
)

// Tables written by the evaluation pipeline.
var Tables = []string{"problems", "translations", "executions", "results", "scores", "errors", "fidelity", "verdicts"}

// BuildEvaluate adds the evaluation pipeline (issue: end-to-end CA and pass rate) to s:
// Load the corpora (one item per problem), Translate, Execute (run, harness
// fidelity, both oracles), Score per (translator, corpus, direction), and Write
// every table.
func BuildEvaluate(s beam.Scope, c Config) {
	c = c.WithDefaults()
	items, loadErrs := Load(s, c)
	outs := Execute(s, c, Translate(s, c, items))
	results := Split[schemas.ResultRow](s, outs, "Results")
	errs := beam.Flatten(s, loadErrs, Split[schemas.ErrorRow](s, outs, "Errors"), translatorInputErrors(s, c))
	scores := Score(s, c, results)

	writeTable[schemas.Problem](s, c.Output, "problems", c.RowsPerFile, Split[schemas.Problem](s, outs, "Problem"))
	writeTable[schemas.TranslationRow](s, c.Output, "translations", c.RowsPerFile, Split[schemas.TranslationRow](s, outs, "Translations"))
	writeTable[schemas.ExecutionRow](s, c.Output, "executions", c.RowsPerFile, beam.ParDo(s, programKeys, Split[schemas.ExecutionRow](s, outs, "Executions")))
	writeTable[schemas.ResultRow](s, c.Output, "results", c.RowsPerFile, results)
	writeTable[schemas.ScoreRow](s, c.Output, "scores", c.RowsPerFile, scores)
	writeTable[schemas.ErrorRow](s, c.Output, "errors", c.RowsPerFile, errs)
	writeTable[schemas.FidelityRow](s, c.Output, "fidelity", c.RowsPerFile, Split[schemas.FidelityRow](s, outs, "Fidelity"))
	writeTable[schemas.VerdictRow](s, c.Output, "verdicts", c.RowsPerFile, beam.ParDo(s.Scope("Verdicts"), splitVerdicts, outs))
}

// Score computes the CA and pass-rate scores of each (translator, corpus, direction)
// from its result rows: one combine per score key, never one for the whole run.
func Score(s beam.Scope, c Config, results beam.PCollection) beam.PCollection {
	s = s.Scope("Score")
	keyed := beam.ParDo(s, keyResult, results)
	return beam.ParDo(s, flattenScores, combineScores[score.CAAcc, schemas.ResultRow](s, c.Run, keyed))
}
