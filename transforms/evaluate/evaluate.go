// Package evaluate runs one problem end to end: translate its function in every
// requested direction with every translator, run the gold functions and all the
// translations (one batch per target language, so each engine starts once per
// problem), compare golds across languages (harness fidelity), and compare every
// translation test by test against two oracles: the source function's outputs
// (cross-language, MBTA eq. 2) and the gold target function's outputs (the
// benchmarks' own convention). It is plain Go; the pipeline wraps it in a DoFn.
package evaluate

import (
	"context"
	"fmt"
	"sort"

	"transmute/internal/clip"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/fidelity"
	"transmute/transforms/runner"
	"transmute/transforms/sandbox"
	"transmute/transforms/score"
	"transmute/transforms/translate"
	"transmute/transforms/values"
)

// Item is a problem with the tasks to evaluate on it (from one or more corpora).
type Item struct {
	Problem schemas.Problem
	Tasks   []schemas.Task
}

// Directions are the distinct (source, target) language pairs of the item's tasks,
// sorted by source, then target: the order in which every job walks them, so that
// its rows come out in the same order however the tasks were listed.
func (it Item) Directions() []schemas.Direction {
	seen := map[schemas.Direction]bool{}
	var out []schemas.Direction
	for _, t := range it.Tasks {
		d := schemas.DirectionOf(t)
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Less(out[j]) })
	return out
}

// Output holds every row one problem produces.
type Output struct {
	Problem      schemas.Problem // with language-dependent tests marked
	Translations []schemas.TranslationRow
	Executions   []schemas.ExecutionRow
	Results      []schemas.ResultRow
	Fidelity     []schemas.FidelityRow
	Errors       []schemas.ErrorRow
}

// Evaluator holds what evaluating a problem needs. It is safe for concurrent use
// when its translators and engines are.
type Evaluator struct {
	Run         string
	Translators []translate.Translator
	Engines     map[string]execute.Engine
	Limits      sandbox.Limits
	Tolerance   values.Tolerance
	// CppArgs is how C++ candidates get their arguments: CppArgsAdapt (""), the
	// harness adapts to what each candidate takes; CppArgsGold, as the benchmark's
	// own C++ scripts pass them, the types of the problem's C++ gold (a translation
	// that cannot take them is a compile error, as it is in TransCoder-test and TRACE).
	CppArgs string
}

// The values of Evaluator.CppArgs.
const (
	CppArgsAdapt = "adapt"
	CppArgsGold  = "gold"
)

// GoldID and TranslationID name programs in the executions table.
func GoldID(lang string) string { return "gold/" + lang }

// TranslationID names one translation program.
func TranslationID(translator, src, tgt string, sample int32) string {
	return fmt.Sprintf("tr/%s/%s-%s/%d", translator, src, tgt, sample)
}

type translated struct {
	translator string
	dir        schemas.Direction
	tr         translate.Translation
	id         string
}

// Translated is a problem after the Translate step: its tasks, its translation rows
// (every sample of every supported direction and translator) and the error rows met
// so far. It is what the Execute step needs, so translation and execution can run
// as separate pipeline stages (and on separate workers).
type Translated struct {
	Item Item
	// Translators are the names of the evaluator's translators, in order: the results
	// rows follow it.
	Translators  []string
	Translations []schemas.TranslationRow
	Errors       []schemas.ErrorRow
	// Done: nothing to execute (the problem has no tests); Errors say why.
	Done bool
}

// Evaluate runs one item: Translate, then Execute. It never fails: problems it
// cannot handle become error rows.
func (e *Evaluator) Evaluate(ctx context.Context, it Item) Output {
	return e.Execute(ctx, e.Translate(ctx, it))
}

// Translate translates every direction of it once (whatever corpora list it) with
// every translator that supports it. It needs no engine.
func (e *Evaluator) Translate(ctx context.Context, it Item) Translated {
	p := it.Problem
	out := Translated{Item: it}
	for _, tr := range e.Translators {
		out.Translators = append(out.Translators, tr.Name())
	}
	errRow := func(stage schemas.Stage, lang, reason, detail string) {
		out.Errors = append(out.Errors, schemas.ErrorRow{Run: e.Run, Stage: stage, Corpus: p.Corpus,
			ProblemID: p.ID, Lang: lang, Reason: reason, Detail: detail})
	}
	if len(p.Tests) == 0 {
		errRow(schemas.StageEvaluate, "", "no tests", "")
		out.Done = true
		return out
	}
	for _, d := range it.Directions() {
		src, ok := p.Function(d.Src)
		if !ok {
			errRow(schemas.StageTranslate, d.Src, "no source function", "problem has no "+d.Src+" function")
			continue
		}
		for _, tr := range e.Translators {
			if !translate.Supports(tr, d.Src, d.Tgt) {
				continue
			}
			req := translate.Request{ProblemID: p.ID, Corpus: p.Corpus, VariantID: schemas.VariantOrig, SrcLang: d.Src,
				TgtLang: d.Tgt, Code: src.Code, Imports: src.Imports, Entry: src.Name, Params: p.Params, Returns: p.Returns}
			for _, t := range runner.Translate(ctx, tr, tr.Name(), req) {
				out.Translations = append(out.Translations, runner.TranslationRow(e.Run, p, tr.Name(), schemas.VariantOrig, d, t))
				if er, ok := translate.FailureRow(e.Run, p.Corpus, p.ID, tr.Name(), schemas.VariantOrig, d.Src, d.Tgt, t); ok {
					out.Errors = append(out.Errors, er)
				}
			}
		}
	}
	return out
}

// Execute runs the golds and the translations of t, checks the harness's fidelity and
// compares every translation with both oracles. It needs the engines only: the
// translators are t's.
func (e *Evaluator) Execute(ctx context.Context, t Translated) Output {
	it := t.Item
	p := it.Problem
	out := Output{Problem: p, Translations: t.Translations, Errors: t.Errors}
	if t.Done {
		return out
	}
	errRow := func(stage schemas.Stage, lang, reason, detail string) {
		out.Errors = append(out.Errors, schemas.ErrorRow{Run: e.Run, Stage: stage, Corpus: p.Corpus,
			ProblemID: p.ID, Lang: lang, Reason: reason, Detail: detail})
	}
	// The translations, as the scheduler and the comparisons see them.
	var all []translated
	byDir := map[string][]translated{} // translator|src|tgt -> samples
	for _, r := range t.Translations {
		x := translated{translator: r.Translator, dir: schemas.Direction{Src: r.SrcLang, Tgt: r.TgtLang},
			tr: translate.Translation{Sample: r.Sample, Status: r.Status, Error: r.Error, Code: r.Code, Imports: r.Imports,
				Entry: r.Entry, PromptHash: r.PromptHash, LatencyMs: r.LatencyMs, TokensIn: r.TokensIn, TokensOut: r.TokensOut,
				Cached: r.Cached},
			id: TranslationID(r.Translator, r.SrcLang, r.TgtLang, r.Sample)}
		all = append(all, x)
		key := r.Translator + "|" + r.SrcLang + "|" + r.TgtLang
		byDir[key] = append(byDir[key], x)
	}

	// 2. The golds (twice each), then the distinct translations (see schedule.go).
	langs := map[string]bool{}
	for _, f := range p.Functions {
		langs[f.Lang] = true
	}
	for _, x := range all {
		if x.tr.Status == schemas.TranslationOK {
			langs[x.dir.Tgt] = true
		}
	}
	langList := make([]string, 0, len(langs))
	for l := range langs {
		langList = append(langList, l)
	}
	sort.Strings(langList)
	ret, retErr := values.ParseType(p.Returns)
	ran := e.execute(ctx, p, all, langList, ret, retErr == nil)
	results := ran.results
	out.Executions = ran.rows
	for _, x := range ran.errs {
		errRow(schemas.StageExecute, x.lang, x.reason, x.detail)
	}

	// 3. Harness fidelity: compare the golds across languages, mark language-dependent tests.
	var golds []fidelity.Gold
	for _, lang := range schemas.Languages {
		f, ok := p.Function(lang)
		if !ok {
			continue
		}
		r, ok := results[GoldID(lang)]
		if !ok {
			continue
		}
		if r.Status == schemas.StatusCompileError || r.Status == schemas.StatusInfraError {
			// A gold that cannot run is a corpus defect (TransCoder-test has gold functions
			// calling helpers it does not ship), not a harness disagreement.
			errRow(schemas.StageFidelity, lang, "gold function does not run: "+string(r.Status), clip.String(r.Detail, 2000))
			continue
		}
		golds = append(golds, fidelity.Gold{Lang: lang, Code: f.Code, Result: r})
	}
	var runnable []fidelity.Gold
	for _, g := range golds {
		if broken, detail := fidelity.Broken(g, golds); broken {
			errRow(schemas.StageFidelity, g.Lang, "gold function fails on every test", clip.String(detail, 2000))
			continue
		}
		runnable = append(runnable, g)
	}
	golds = runnable
	fid, _ := fidelity.Compare(e.Run, p, golds, e.Tolerance)
	e.probeSignedModulo(ctx, p, golds, fid, errRow)
	dep := fidelity.Propagate(fid)
	var nondet map[string]map[int32]bool // gold language -> its nondeterministic tests
	if retErr == nil {
		var ndRows []schemas.FidelityRow
		nondet, ndRows = nondeterministic(e.Run, p, ret, e.Tolerance, results, ran.reruns)
		fid = append(fid, ndRows...)
	}
	out.Fidelity = fid
	out.Problem.Tests = append([]schemas.Test(nil), p.Tests...)
	for i := range out.Problem.Tests {
		if c, ok := dep[out.Problem.Tests[i].Index]; ok {
			out.Problem.Tests[i].LangDependent = true
			out.Problem.Tests[i].DependCause = c
		}
	}

	// 4. Compare translations with both oracles, once per task (per corpus).
	if retErr != nil {
		errRow(schemas.StageEvaluate, "", "bad return type", retErr.Error())
		return out
	}
	var unsignedWidth uint // the C++ gold's unsigned return type, for MatchCppConversions
	if f, ok := p.Function(schemas.Cpp); ok {
		unsignedWidth = values.CppUnsignedWidth(f.Signature)
	}
	for _, task := range it.Tasks {
		for _, name := range t.Translators {
			// A translator that does not support the direction has no samples in it.
			samples := byDir[name+"|"+task.SrcLang+"|"+task.TgtLang]
			if len(samples) == 0 {
				continue
			}
			oracles := []struct {
				name string
				id   string
				lang string
			}{{score.OracleSource, GoldID(task.SrcLang), task.SrcLang}, {score.OracleTargetGold, GoldID(task.TgtLang), task.TgtLang}}
			for _, o := range oracles {
				gold, ok := results[o.id]
				if !ok {
					continue
				}
				for _, x := range samples {
					r, ran := results[x.id]
					progStatus := schemas.Status(x.tr.Status) // nothing ran: the translation's status
					if ran {
						progStatus = r.Status
					}
					for ti, t := range out.Problem.Tests {
						row := schemas.ResultRow{Run: e.Run, Translator: name, ProblemID: p.ID, Corpus: task.Corpus,
							SrcLang: task.SrcLang, TgtLang: task.TgtLang, Sample: x.tr.Sample, Oracle: o.name,
							TestIndex: t.Index, LangDependent: t.LangDependent, ProgramStatus: progStatus,
							Status: score.NoTranslation, Nondeterministic: nondet[o.lang][t.Index]}
						score.JudgeTest(&row, ti, gold, r, ran, ret, e.Tolerance)
						row.MatchCppConversions = row.Match
						if !row.Match && task.TgtLang == schemas.Cpp && o.name == score.OracleTargetGold &&
							row.OracleStatus == schemas.StatusOK && row.Status == schemas.StatusOK {
							row.MatchCppConversions = values.CppConvertedEqual(unsignedWidth, ret, row.Expected, row.Actual, e.Tolerance)
						}
						out.Results = append(out.Results, row)
					}
				}
			}
		}
	}
	return out
}

// Directions parses "java-python,python-cpp" (or "all") into directions.
func Directions(spec string) ([]schemas.Direction, error) { return schemas.ParseDirections(spec) }

// ProbeID names the Python gold's run with C's division (probeSignedModulo).
const ProbeID = "probe/c-divmod"

// probeSignedModulo re-runs the Python gold with C's truncating division and
// modulo when it disagrees with another language for no known reason; the
// disagreements it then resolves get cause signed_modulo.
func (e *Evaluator) probeSignedModulo(ctx context.Context, p schemas.Problem, golds []fidelity.Gold, rows []schemas.FidelityRow,
	errRow func(stage schemas.Stage, lang, reason, detail string)) {
	need := false
	for _, r := range rows {
		if r.Cause == fidelity.CauseOther && (r.LangA == schemas.Python || r.LangB == schemas.Python) {
			need = true
			break
		}
	}
	eng := e.Engines[schemas.Python]
	f, ok := p.Function(schemas.Python)
	if !need || eng == nil || !ok {
		return
	}
	code, changed, err := fidelity.CDivModPython(f.Code)
	if err != nil || !changed {
		return
	}
	res, failure := e.runBatch(ctx, execute.Batch{ProblemID: p.ID, Lang: schemas.Python, Params: p.Params, Returns: p.Returns,
		Tests: p.Tests, Limits: e.Limits, Candidates: []execute.Candidate{{ID: ProbeID, Code: code, Imports: f.Imports, Entry: f.Name}}})
	if failure != "" {
		errRow(schemas.StageFidelity, schemas.Python, "engine failure", failure)
		return
	}
	ret, err := values.ParseType(p.Returns)
	if err != nil {
		return
	}
	byIndex := map[int32]execute.TestResult{}
	for _, t := range res[0].Tests {
		byIndex[t.Index] = t
	}
	for i := range rows {
		r := &rows[i]
		if r.Cause != fidelity.CauseOther {
			continue
		}
		var other string
		switch {
		case r.LangA == schemas.Python && r.StatusB == schemas.StatusOK:
			other = r.ValueB
		case r.LangB == schemas.Python && r.StatusA == schemas.StatusOK:
			other = r.ValueA
		default:
			continue
		}
		if t, ok := byIndex[r.TestIndex]; ok && t.Status == schemas.StatusOK && values.Equal(ret, t.Output, other, e.Tolerance) {
			r.Cause = fidelity.CauseSignedModulo
		}
	}
}
