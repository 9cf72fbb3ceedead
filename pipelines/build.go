package pipelines

import (
	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"transmute/schemas"
	"transmute/transforms/evaluate"
)

// Tables written by the evaluation pipeline.
var Tables = []string{"problems", "translations", "executions", "results", "scores", "errors", "fidelity"}

// BuildEvaluate adds the evaluation pipeline (issue: end-to-end CA and pass rate) to s:
// read corpora, merge problems across corpora, evaluate each problem (translate,
// execute, fidelity, compare) in a worker pool per shard, score, and write every table.
func BuildEvaluate(s beam.Scope, c Config) {
	c = c.WithDefaults()
	specs := beam.CreateList(s.Scope("Corpora"), c.Corpora)
	items, loadErrs := beam.ParDo2(s.Scope("Load"), &loadFn{Run: c.Run, Directions: c.Directions, Limit: c.Limit}, specs)
	merged := beam.ParDo(s.Scope("Merge"), &mergeFn{Shards: c.ComputeShards}, beam.GroupByKey(s, items))
	outs := beam.ParDo(s.Scope("Evaluate"), &evaluateFn{Run: c.Run, Translators: c.Translators,
		Parallelism: c.Parallelism, CPUTime: c.CPUTime, WallTime: c.WallTime, MemoryBytes: c.MemoryBytes,
		CppArgs: c.CppArgs, WorkDir: c.WorkDir, Progress: c.Progress, ExecCache: c.ExecCache}, beam.GroupByKey(s, merged))

	problems := beam.ParDo(s, splitProblems, outs)
	translations := beam.ParDo(s, splitTranslations, outs)
	executions := beam.ParDo(s, splitExecutions, outs)
	results := beam.ParDo(s, splitResults, outs)
	fid := beam.ParDo(s, splitFidelity, outs)
	errs := beam.Flatten(s, loadErrs, beam.ParDo(s, splitErrors, outs), translatorInputErrors(s, c))
	scores := beam.ParDo(s.Scope("Score"), &scoreFn{Run: c.Run}, beam.GroupByKey(s, beam.ParDo(s, keyResult, results)))

	writeTable[schemas.Problem](s, c.Output, "problems", c.Shards, problems)
	writeTable[schemas.TranslationRow](s, c.Output, "translations", c.Shards, translations)
	writeTable[schemas.ExecutionRow](s, c.Output, "executions", c.Shards, executions)
	writeTable[schemas.ResultRow](s, c.Output, "results", c.Shards, results)
	writeTable[schemas.ScoreRow](s, c.Output, "scores", 1, scores)
	writeTable[schemas.ErrorRow](s, c.Output, "errors", 1, errs)
	writeTable[schemas.FidelityRow](s, c.Output, "fidelity", c.Shards, fid)
	_ = evaluate.Item{}
}
