package properties

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"time"

	"transmute/internal/clip"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/inspect"
	"transmute/transforms/metamorph"
	"transmute/transforms/runner"
	"transmute/transforms/values"
)

// Stage is the ErrorRow stage of the properties job.
const Stage = schemas.StageProperties

// Error reasons.
const (
	ReasonNoVariants     = runner.ReasonNoVariants
	ReasonChangedOutputs = "semantics-preserving variant changed outputs"
	ReasonSourceFails    = "source function does not run"
)

// Transformation outcomes (schemas.TransformationRow.Outcome).
const (
	OutcomeValid          = "valid"
	OutcomeAbsent         = "absent"
	OutcomeFailed         = "failed"
	OutcomeNoCompile      = "no_compile"
	OutcomeChangedOutputs = "changed_outputs"
)

// Runner checks the 38 properties on one problem. It is safe for concurrent use
// when its translators and engines are.
type Runner struct {
	runner.Tools
	// Seed drives every random choice of the transformations and of merge partners.
	Seed uint64
	// VariantsPer is how many variants each single-function transformation makes
	// per problem and language (different seeds; duplicates dropped). 0 means 1.
	VariantsPer int
	// MergeTries is how many seeded partners merge tries before it gives up (0 = 20).
	MergeTries int
}

// Output holds every row one problem produces.
type Output struct {
	Variants        []schemas.VariantRow
	Transformations []schemas.TransformationRow
	Translations    []schemas.TranslationRow
	Results         []schemas.PropertyResultRow
	Errors          []schemas.ErrorRow
	// CheckNanos is the time spent in inspections and property checks (outside
	// translation and execution).
	CheckNanos int64
}

// program is one input function: the original, a variant, or a merge partner.
type program struct {
	id      string // "orig", a variant id, or "partner:<problem>"
	fn      metamorph.Function
	variant *metamorph.Variant
	obs     Obs
	res     execute.Result
}

// sigKey identifies the parameters and tests a program runs with (one batch each).
func sigKey(f metamorph.Function) string {
	b, _ := json.Marshal(struct {
		P []schemas.Param
		T []schemas.Test
		R string
	}{f.Params, f.Tests, f.Returns})
	return string(b)
}

func progKey(lang, imports, code, entry, sig string) string {
	return lang + "\x00" + imports + "\x00" + code + "\x00" + entry + "\x00" + sig
}

// seedFor derives a problem's seed so that problems do not share random choices.
func (r *Runner) seedFor(problem, lang string) uint64 {
	h := sha256.Sum256([]byte(problem + "\x00" + lang))
	return r.Seed ^ binary.BigEndian.Uint64(h[:8])
}

// observe runs the five inspections on one program: the syntax from its code, the
// compile status and the outputs from its run.
func observe(lang, code, entry string, res execute.Result) Obs {
	s, err := inspect.Inspect(lang, code, entry)
	if err != nil {
		s = inspect.Missing
	}
	o := Obs{Syntax: s, Compiles: res.Status != "" && res.Status != schemas.StatusCompileError && res.Status != schemas.StatusInfraError}
	for _, t := range res.Tests {
		o.Ret = append(o.Ret, Out{Status: t.Status, Value: t.Output})
	}
	return o
}

// sourceSide builds the variants of one language's function, runs them with the
// original and the merge partner, keeps the valid ones and returns the inputs:
// the original first, then the valid variants and the partner.
func (r *Runner) sourceSide(ctx context.Context, p schemas.Problem, lang string, pool []schemas.Problem,
	ran map[string]execute.Result, out *Output, errRow runner.ErrRow) []*program {
	f, ok := p.Function(lang)
	if !ok {
		errRow(lang, "no source function", "problem has no "+lang+" function")
		return nil
	}
	mf := metamorph.Function{Lang: lang, Code: f.Code, Imports: f.Imports, Entry: f.Name, Params: p.Params,
		Returns: p.Returns, Tests: p.Tests}
	seed := r.seedFor(p.ID, lang)
	trow := func(t metamorph.Transformation, vid, outcome, reason string) {
		out.Transformations = append(out.Transformations, schemas.TransformationRow{Run: r.Run, ProblemID: p.ID,
			Corpus: p.Corpus, Lang: lang, Transformation: string(t), VariantID: vid, Outcome: outcome, Reason: reason,
			SemanticsPreserving: t.PreservesSemantics()})
	}
	progs := []*program{{id: schemas.VariantOrig, fn: mf}}
	byID := map[string]bool{}
	per := max(r.VariantsPer, 1)
	for _, t := range metamorph.Transformations {
		if t == metamorph.Merge {
			continue
		}
		for i := 0; i < per; i++ {
			v, err := metamorph.Apply(t, mf, seed+uint64(i))
			if err != nil {
				if errors.Is(err, metamorph.ErrAbsent) {
					trow(t, "", OutcomeAbsent, err.Error())
				} else {
					trow(t, "", OutcomeFailed, err.Error())
				}
				break
			}
			if byID[v.ID] {
				continue
			}
			byID[v.ID] = true
			vv := v
			progs = append(progs, &program{id: v.ID, fn: v.Fn, variant: &vv})
		}
	}
	// merge: seeded partners of the same return type until one merges.
	var partner *program
	cands := make([]schemas.Problem, 0, len(pool))
	for _, q := range pool {
		if q.ID != p.ID && q.Returns == p.Returns && len(q.Tests) > 0 {
			if _, ok := q.Function(lang); ok {
				cands = append(cands, q)
			}
		}
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].ID < cands[j].ID })
	rng := rand.New(rand.NewPCG(seed, 7))
	rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	tries := r.MergeTries
	if tries <= 0 {
		tries = 20
	}
	mergeErr := "no partner of the same return type"
	for _, q := range cands[:min(tries, len(cands))] {
		qf, _ := q.Function(lang)
		pf := metamorph.Function{Lang: lang, Code: qf.Code, Imports: qf.Imports, Entry: qf.Name, Params: q.Params,
			Returns: q.Returns, Tests: q.Tests}
		v, err := metamorph.MergeFunctions(mf, pf, seed)
		if err != nil {
			mergeErr = err.Error()
			continue
		}
		partner = &program{id: "partner:" + q.ID, fn: pf}
		progs = append(progs, &program{id: v.ID, fn: v.Fn, variant: &v}, partner)
		mergeErr = ""
		break
	}
	if mergeErr != "" {
		trow(metamorph.Merge, "", OutcomeAbsent, mergeErr)
	}

	// Run them all, one batch per signature.
	sigs := map[string][]*program{}
	var order []string
	for _, pg := range progs {
		k := sigKey(pg.fn)
		if _, ok := sigs[k]; !ok {
			order = append(order, k)
		}
		sigs[k] = append(sigs[k], pg)
	}
	for _, k := range order {
		ps := sigs[k]
		b := r.batch(p.ID, lang, ps[0].fn)
		ids := map[string]bool{}
		for _, pg := range ps {
			pk := progKey(lang, pg.fn.Imports, pg.fn.Code, pg.fn.Entry, k)
			if !ids[pk] {
				ids[pk] = true
				b.Candidates = append(b.Candidates, execute.Candidate{ID: pk, Code: pg.fn.Code, Imports: pg.fn.Imports, Entry: pg.fn.Entry})
			}
		}
		res := r.RunBatch(ctx, b, errRow)
		for _, pg := range ps {
			pk := progKey(lang, pg.fn.Imports, pg.fn.Code, pg.fn.Entry, k)
			pg.res = res[pk]
			ran[pk] = res[pk]
		}
	}
	orig := progs[0]
	if orig.res.Status != schemas.StatusOK {
		errRow(lang, ReasonSourceFails, string(orig.res.Status)+": "+clip.String(orig.res.Detail, 500))
		return nil
	}
	if partner != nil && partner.res.Status != schemas.StatusOK {
		partner = nil
	}
	start := time.Now()
	observeSrc := func(pg *program) { pg.obs = observe(lang, pg.fn.Code, pg.fn.Entry, pg.res) }
	observeSrc(orig)
	if partner != nil {
		observeSrc(partner)
	}
	out.CheckNanos += time.Since(start).Nanoseconds()

	// Validity by execution.
	c := Context{Returns: values.MustParseType(p.Returns), Tolerance: r.Tolerance}
	valid := []*program{orig}
	for _, pg := range progs[1:] {
		v := pg.variant
		if v == nil {
			continue
		}
		inputs := ""
		if v.Transformation == metamorph.AddParam || v.Transformation == metamorph.Merge {
			var args []json.RawMessage
			for _, t := range v.Fn.Tests {
				args = append(args, json.RawMessage(t.Args))
			}
			b, _ := json.Marshal(map[string]any{"params": v.Fn.Params, "tests": args})
			inputs = string(b)
		}
		out.Variants = append(out.Variants, schemas.VariantRow{Run: r.Run, ProblemID: p.ID, Corpus: p.Corpus,
			VariantID: v.ID, Kind: schemas.VariantMetamorphic, Lang: lang, Operator: string(v.Transformation),
			Line: int32(v.Line), Col: int32(v.Col), Original: v.Original, Mutated: v.Replacement, Diff: v.Diff,
			Code: v.Fn.Code, Inputs: inputs})
		if v.Transformation == metamorph.Merge && partner == nil {
			trow(v.Transformation, v.ID, OutcomeAbsent, "the partner does not run")
			continue
		}
		if pg.res.Status == schemas.StatusCompileError || pg.res.Status == schemas.StatusInfraError {
			if v.Transformation.PreservesSemantics() || v.Transformation == metamorph.Merge {
				errRow(lang, ReasonChangedOutputs, fmt.Sprintf("%s variant %s: %s: %s", v.Transformation, v.ID,
					pg.res.Status, clip.String(pg.res.Detail, 500)))
				trow(v.Transformation, v.ID, OutcomeChangedOutputs, string(pg.res.Status))
			} else {
				trow(v.Transformation, v.ID, OutcomeNoCompile, clip.String(pg.res.Detail, 500))
			}
			continue
		}
		if reason := changed(c, v, pg.res, orig.res, partner); reason != "" {
			errRow(lang, ReasonChangedOutputs, fmt.Sprintf("%s variant %s: %s", v.Transformation, v.ID, reason))
			trow(v.Transformation, v.ID, OutcomeChangedOutputs, reason)
			continue
		}
		start := time.Now()
		observeSrc(pg)
		out.CheckNanos += time.Since(start).Nanoseconds()
		trow(v.Transformation, v.ID, OutcomeValid, "")
		valid = append(valid, pg)
	}
	if partner != nil {
		valid = append(valid, partner)
	}
	return valid
}

// changed returns why a semantics-preserving variant's (or a merge's) outputs
// differ from what they must be, or "".
func changed(c Context, v *metamorph.Variant, got, orig execute.Result, partner *program) string {
	if !v.Transformation.PreservesSemantics() && v.Transformation != metamorph.Merge {
		return ""
	}
	for j, t := range got.Tests {
		var want execute.TestResult
		switch {
		case v.Transformation == metamorph.Merge:
			if j >= len(v.Selector) {
				return fmt.Sprintf("test %d: no selector", j)
			}
			src := partner.res.Tests
			i := v.SecondTest[j]
			if v.Selector[j] {
				src, i = orig.Tests, v.FirstTest[j]
			}
			if i >= len(src) {
				return fmt.Sprintf("test %d: no source test %d", j, i)
			}
			want = src[i]
		case j < len(orig.Tests):
			want = orig.Tests[j]
		default:
			return fmt.Sprintf("test %d: the original has %d tests", j, len(orig.Tests))
		}
		if !sameOut(c, Out{want.Status, want.Output}, Out{t.Status, t.Output}) {
			return fmt.Sprintf("test %d: want %s %s, got %s %s", j, want.Status, clip.String(want.Output+want.Error, 200),
				t.Status, clip.String(t.Output+t.Error, 200))
		}
	}
	return ""
}

// batch is a batch of f's tests, whose parameters may not be the problem's.
func (r *Runner) batch(problem, lang string, f metamorph.Function) execute.Batch {
	return r.BatchOf(problem, lang, f.Params, f.Returns, f.Tests)
}
