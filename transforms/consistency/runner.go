package consistency

import (
	"context"
	"fmt"
	"math"
	"sort"

	"transmute/internal/clip"
	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/execute"
	"transmute/transforms/runner"
	"transmute/transforms/sandbox"
	"transmute/transforms/translate"
	"transmute/transforms/values"
)

// Stage is the ErrorRow stage of the consistency job.
const Stage = schemas.StageConsistency

// Repair outcomes (RepairRow.Reason).
const (
	ReasonAccepted       = "accepted: consistent with every variant's translation"
	ReasonOriginalBest   = "rejected: the original's translation ranks first"
	ReasonNoneConsistent = "rejected: no mapped-back translation ranked above the original is consistent"
	ReasonNoCandidates   = "rejected: no variant translation could be mapped back"
)

// Runner runs the consistency job on one problem: context-similar variants of
// each source function, their translations, Algorithm 1 and execution
// consistency per pair, and black-box repair of inconsistent translations. It is
// Beam-free and safe for concurrent use when its translators and engines are.
type Runner struct {
	Run         string
	Translators []translate.Translator
	Engines     map[string]execute.Engine
	Limits      sandbox.Limits
	Tolerance   values.Tolerance
	Table       *Table
	Options     Options
}

// Output holds every row one problem produces.
type Output struct {
	Variants     []schemas.VariantRow
	Translations []schemas.TranslationRow
	Executions   []schemas.ExecutionRow
	Results      []schemas.ConsistencyRow
	Repairs      []schemas.RepairRow
	Errors       []schemas.ErrorRow
}

type side struct {
	fn       schemas.Function
	variants []Variant // those whose source ran (identifier ones: kept outputs)
	all      []Variant
	results  map[string]execute.Result // schemas.VariantOrig or variant id
}

type transl struct {
	tr   translate.Translation
	prog string
	res  *execute.Result
}

// Evaluate never fails: what it cannot do becomes error rows.
func (r *Runner) Evaluate(ctx context.Context, it evaluate.Item) Output {
	p := it.Problem
	var out Output
	errRow := runner.Errors(r.Run, Stage, p, &out.Errors)
	if len(p.Tests) == 0 {
		errRow("", "no tests", "")
		return out
	}
	ret, err := values.ParseType(p.Returns)
	if err != nil {
		errRow("", "bad return type", err.Error())
		return out
	}
	type dir = schemas.Direction
	dirs := it.Directions()
	trsOf := map[dir][]translate.Translator{}
	for _, d := range runner.Directions(dirs, r.Translators, "the consistency job", errRow) {
		trsOf[d.Direction] = d.Translators
	}

	// 1. Variants of each source language, run with the original.
	sides := map[string]*side{}
	for _, d := range dirs {
		if len(trsOf[d]) == 0 || sides[d.Src] != nil {
			continue
		}
		f, ok := p.Function(d.Src)
		if !ok {
			errRow(d.Src, "no source function", "")
			continue
		}
		vs, _, err := Generate(d.Src, f.Code, f.Imports, f.Name, r.Table, r.Options)
		if err != nil {
			errRow(d.Src, "variant generation failed", err.Error())
			continue
		}
		s := &side{fn: f, all: vs}
		sides[d.Src] = s
		b := r.exec().Batch(p, d.Src)
		b.Candidates = append(b.Candidates, execute.Candidate{ID: schemas.VariantOrig, Code: f.Code, Imports: f.Imports, Entry: f.Name})
		for _, v := range vs {
			out.Variants = append(out.Variants, schemas.VariantRow{Run: r.Run, ProblemID: p.ID, Corpus: p.Corpus,
				VariantID: v.ID, Kind: schemas.VariantKindContextSimilar, Lang: d.Src, Operator: string(v.Kind),
				Line: int32(v.Line), Col: int32(v.Col), Original: v.Old, Mutated: v.New, Code: v.Code})
			b.Candidates = append(b.Candidates, execute.Candidate{ID: v.ID, Code: v.Code, Imports: f.Imports, Entry: f.Name})
		}
		s.results = r.exec().RunBatch(ctx, b, errRow)
		for _, c := range b.Candidates {
			out.Executions = append(out.Executions, summaryRow(r.Run, p, d.Src, schemas.RoleSource, c.ID, s.results[c.ID]))
		}
		orig := s.results[schemas.VariantOrig]
		if orig.Status != schemas.StatusOK {
			errRow(d.Src, "source original failed", string(orig.Status)+": "+clip.String(orig.Detail, 500))
			continue
		}
		so := outcomes(orig, len(p.Tests))
		for _, v := range vs {
			res := s.results[v.ID]
			switch {
			case res.Status != schemas.StatusOK:
				// A variant that does not run (a literal that makes it loop) tests nothing.
				if v.Kind == KindIdentifier {
					errRow(d.Src, "identifier variant changed outputs", fmt.Sprintf("%s->%s: program %s", v.Old, v.New, res.Status))
				}
			case v.Kind == KindIdentifier && !sameAll(ret, r.Tolerance, so, outcomes(res, len(p.Tests))):
				errRow(d.Src, "identifier variant changed outputs", fmt.Sprintf("%s->%s", v.Old, v.New))
			default:
				s.variants = append(s.variants, v)
			}
		}
	}

	// 2. Translate the original and every usable variant.
	trans := map[string]*transl{} // translator|src|tgt|variant
	key := func(tr string, d dir, variant string) string { return tr + "|" + d.Src + "|" + d.Tgt + "|" + variant }
	for _, d := range dirs {
		s := sides[d.Src]
		if s == nil || s.results[schemas.VariantOrig].Status != schemas.StatusOK {
			continue
		}
		units := []struct{ id, code string }{{schemas.VariantOrig, s.fn.Code}}
		for _, v := range s.variants {
			units = append(units, struct{ id, code string }{v.ID, v.Code})
		}
		for _, tr := range trsOf[d] {
			for _, u := range units {
				req := translate.Request{ProblemID: p.ID, Corpus: p.Corpus, VariantID: u.id, SrcLang: d.Src, TgtLang: d.Tgt,
					Code: u.code, Imports: s.fn.Imports, Entry: s.fn.Name, Params: p.Params, Returns: p.Returns}
				t := runner.Translate(ctx, tr, tr.Name(), req)[0]
				trans[key(tr.Name(), d, u.id)] = &transl{tr: t, prog: fmt.Sprintf("tr/%s/%s-%s/%s", tr.Name(), d.Src, d.Tgt, u.id)}
				out.Translations = append(out.Translations, runner.TranslationRow(r.Run, p, tr.Name(), u.id, d, t))
			}
		}
	}

	// 3. Run the translations, one batch per target language; a translation equal
	// to a source program (the identity's) takes that program's result.
	r.runTranslations(ctx, p, trans, sides, errRow)
	for _, x := range sortedTrans(trans) {
		if x.res != nil {
			out.Executions = append(out.Executions, summaryRow(r.Run, p, "", schemas.RoleTranslation, x.prog, *x.res))
		}
	}

	// 4. Judge every pair; 5. repair the translations with an inconsistency.
	type pending struct {
		tr       string
		d        dir
		metric   Metric
		execBad  int
		minScore float64
		order    []int
		cands    []string // variant ids, index 0 = schemas.VariantOrig
		mapped   map[int]string
		unmapped []string
	}
	var repairs []*pending
	for _, d := range dirs {
		s := sides[d.Src]
		if s == nil || s.results[schemas.VariantOrig].Status != schemas.StatusOK {
			continue
		}
		so := outcomes(s.results[schemas.VariantOrig], len(p.Tests))
		for _, tr := range trsOf[d] {
			to := trans[key(tr.Name(), d, schemas.VariantOrig)]
			var docs [][]string
			tokOf := map[string][]string{}
			ids := []string{schemas.VariantOrig}
			for _, v := range s.variants {
				ids = append(ids, v.ID)
			}
			for _, id := range ids {
				x := trans[key(tr.Name(), d, id)]
				tokOf[id] = Tokens(d.Tgt, x.tr.Code)
				docs = append(docs, tokOf[id])
			}
			idf := NewIDF(docs)
			execBad := 0
			minScore := map[Metric]float64{}
			for _, m := range Metrics {
				minScore[m] = 1
			}
			for _, v := range s.variants {
				tv := trans[key(tr.Name(), d, v.ID)]
				row := schemas.ConsistencyRow{Run: r.Run, Translator: tr.Name(), Corpus: p.Corpus, ProblemID: p.ID,
					SrcLang: d.Src, TgtLang: d.Tgt, VariantID: v.ID, Kind: string(v.Kind), Old: v.Old, New: v.New,
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
				pd := &pending{tr: tr.Name(), d: d, metric: m, execBad: execBad, minScore: minScore[m],
					mapped: map[int]string{}}
				// Map every variant's translation back first; rank the original's
				// translation with those that could be mapped.
				seqs := [][]string{tokOf[schemas.VariantOrig]}
				pd.cands = []string{schemas.VariantOrig}
				for _, v := range s.variants {
					x := trans[key(tr.Name(), d, v.ID)]
					if x.tr.Status != schemas.TranslationOK {
						continue
					}
					code, err := MapBack(d.Tgt, x.tr.Code, v)
					if err != nil {
						pd.unmapped = append(pd.unmapped, v.ID[:6]+": "+err.Error())
						continue
					}
					pd.mapped[len(pd.cands)] = code
					pd.cands = append(pd.cands, v.ID)
					seqs = append(seqs, Tokens(d.Tgt, code))
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
			k := pd.d.Tgt + "|" + code
			if !seenCode[k] {
				seenCode[k] = true
				byLang[pd.d.Tgt] = append(byLang[pd.d.Tgt], execute.Candidate{ID: fmt.Sprintf("rep/%d", len(seenCode)),
					Code: code, Imports: orig.tr.Imports, Entry: orig.tr.Entry})
			}
		}
	}
	for lang, cs := range byLang {
		b := r.exec().Batch(p, lang)
		b.Candidates = cs
		res := r.exec().RunBatch(ctx, b, errRow)
		for _, c := range cs {
			repRes[lang+"|"+c.Code] = res[c.ID]
		}
	}
	for _, pd := range repairs {
		s := sides[pd.d.Src]
		so := outcomes(s.results[schemas.VariantOrig], len(p.Tests))
		orig := trans[key(pd.tr, pd.d, schemas.VariantOrig)]
		before := transOutcomes(orig, len(p.Tests))
		row := schemas.RepairRow{Run: r.Run, Translator: pd.tr, Corpus: p.Corpus, ProblemID: p.ID, SrcLang: pd.d.Src,
			TgtLang: pd.d.Tgt, RankMetric: string(pd.metric), ExecInconsistent: int32(pd.execBad), MinScore: pd.minScore,
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
				res := repRes[pd.d.Tgt+"|"+code]
				after := outcomes(res, len(p.Tests))
				if bad := r.inconsistentWith(ret, s, so, after, pd.tr, pd.d.Src, pd.d.Tgt, trans); bad > 0 {
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

// inconsistentWith counts the variants whose translation is not execution-
// consistent with a repaired translation of the original.
func (r *Runner) inconsistentWith(ret values.Type, s *side, so, repaired []Outcome, tr, src, tgt string, trans map[string]*transl) int {
	bad := 0
	for _, v := range s.variants {
		tv := trans[tr+"|"+src+"|"+tgt+"|"+v.ID]
		sv := outcomes(s.results[v.ID], len(so))
		if ok, _ := ExecConsistent(ret, r.Tolerance, so, sv, repaired, transOutcomes(tv, len(so))); !ok {
			bad++
		}
	}
	return bad
}

func (r *Runner) runTranslations(ctx context.Context, p schemas.Problem, trans map[string]*transl, sides map[string]*side,
	errRow runner.ErrRow) {
	byLang := map[string][]*transl{}
	langOf := map[*transl]string{}
	for k, x := range trans {
		if x.tr.Status != schemas.TranslationOK {
			continue
		}
		tgt := splitKey(k)[2]
		langOf[x] = tgt
		byLang[tgt] = append(byLang[tgt], x)
	}
	for lang, xs := range byLang {
		sort.Slice(xs, func(i, j int) bool { return xs[i].prog < xs[j].prog })
		// Source programs of this language by text (the identity's translations).
		srcByText := map[string]execute.Result{}
		if s := sides[lang]; s != nil {
			srcByText[s.fn.Imports+"\x00"+s.fn.Code] = s.results[schemas.VariantOrig]
			for _, v := range s.all {
				srcByText[s.fn.Imports+"\x00"+v.Code] = s.results[v.ID]
			}
		}
		b := r.exec().Batch(p, lang)
		byCode := map[string][]*transl{}
		for _, x := range xs {
			if res, ok := srcByText[x.tr.Imports+"\x00"+x.tr.Code]; ok && x.tr.Entry == sides[lang].fn.Name {
				res := res
				x.res = &res
				continue
			}
			ck := x.tr.Imports + "\x00" + x.tr.Code + "\x00" + x.tr.Entry
			if byCode[ck] == nil {
				b.Candidates = append(b.Candidates, execute.Candidate{ID: x.prog, Code: x.tr.Code, Imports: x.tr.Imports, Entry: x.tr.Entry})
			}
			byCode[ck] = append(byCode[ck], x)
		}
		if len(b.Candidates) == 0 {
			continue
		}
		res := r.exec().RunBatch(ctx, b, errRow)
		for _, c := range b.Candidates {
			rr := res[c.ID]
			for _, x := range byCode[c.Imports+"\x00"+c.Code+"\x00"+c.Entry] {
				x.res = &rr
			}
		}
	}
}

// exec runs the problem's batches.
func (r *Runner) exec() *runner.Runner {
	return &runner.Runner{Run: r.Run, Engines: r.Engines, Limits: r.Limits}
}

// outcomes lists a program's outcome on each of n tests; a program that stopped
// before a test (compile error, timeout) gives that test its own status.
func outcomes(r execute.Result, n int) []Outcome {
	out := make([]Outcome, n)
	for i := range out {
		out[i] = Outcome{Status: r.Status}
		if r.Status == "" {
			out[i].Status = schemas.StatusNotRun
		}
	}
	for i, t := range r.Tests {
		if i < n {
			out[i] = Outcome{Status: t.Status, Output: t.Output}
		}
	}
	return out
}

// transOutcomes: a translation that failed to come out behaves as "no translation".
func transOutcomes(x *transl, n int) []Outcome {
	if x == nil || x.tr.Status != schemas.TranslationOK || x.res == nil {
		st := schemas.StatusNoTranslation
		if x != nil && x.tr.Status != schemas.TranslationOK {
			st += schemas.Status("_" + x.tr.Status)
		}
		out := make([]Outcome, n)
		for i := range out {
			out[i] = Outcome{Status: st}
		}
		return out
	}
	return outcomes(*x.res, n)
}

func programStatus(x *transl) string {
	if x.tr.Status != schemas.TranslationOK {
		return "translation_" + string(x.tr.Status)
	}
	if x.res == nil {
		return string(schemas.StatusNotRun)
	}
	return string(x.res.Status)
}

func sameAll(ret values.Type, tol values.Tolerance, a, b []Outcome) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !same(ret, tol, a[i], b[i]) {
			return false
		}
	}
	return true
}

// passRate is the share of tests where the outcome is ok and equals the source's.
func passRate(ret values.Type, tol values.Tolerance, src, got []Outcome) float64 {
	return PassRate(func(i int) bool {
		return i < len(got) && src[i].Status == schemas.StatusOK && got[i].Status == schemas.StatusOK &&
			values.Equal(ret, src[i].Output, got[i].Output, tol)
	}, len(src))
}

// summaryRow is the one executions row of a program: the job keeps no test rows.
func summaryRow(run string, p schemas.Problem, lang string, role schemas.Role, id string, r execute.Result) schemas.ExecutionRow {
	return runner.SummaryRow(schemas.ExecutionRow{Run: run, ProblemID: p.ID, Corpus: p.Corpus, ProgramID: id, Role: role,
		Lang: lang, Status: r.Status}, r)
}

func sortedTrans(m map[string]*transl) []*transl {
	out := make([]*transl, 0, len(m))
	seen := map[*transl]bool{}
	for _, x := range m {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].prog < out[j].prog })
	return out
}

func splitKey(k string) []string {
	var parts []string
	start := 0
	for i := 0; i < len(k); i++ {
		if k[i] == '|' {
			parts = append(parts, k[start:i])
			start = i + 1
		}
	}
	return append(parts, k[start:])
}

func show(o Outcome) string {
	if o.Status == schemas.StatusOK {
		return clip.String(o.Output, 60)
	}
	return string(o.Status)
}

func joinSemi(xs []string) string {
	s := ""
	for i, x := range xs {
		if i > 0 {
			s += "; "
		}
		s += x
	}
	return s
}
