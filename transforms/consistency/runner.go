package consistency

import (
	"context"
	"sort"

	"transmute/internal/clip"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/runner"
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
	runner.Tools
	Table   *Table
	Options Options
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
		b := r.Batch(p, lang)
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
		res := r.RunBatch(ctx, b, errRow)
		for _, c := range b.Candidates {
			rr := res[c.ID]
			for _, x := range byCode[c.Imports+"\x00"+c.Code+"\x00"+c.Entry] {
				x.res = &rr
			}
		}
	}
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
