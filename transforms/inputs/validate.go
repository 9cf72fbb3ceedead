package inputs

import (
	"context"
	"sort"
	"strings"
	"time"

	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/fidelity"
)

// Drop reasons (besides "gold_<status>" and "disagree_<cause>").
const (
	// DropUndefined: the C++ gold's bounds-checked second run differs from its first
	// (it reads or writes outside an array: undefined behaviour).
	DropUndefined = "undefined_behaviour"
	// DropNondeterministic: another gold's second run (another seed) differs.
	DropNondeterministic = "nondeterministic"
	// DropNotRun: a gold never reached the input within the rounds (it came after
	// another input that stopped the gold's worker each time).
	DropNotRun = "not_run"
	// DropNoGold: the problem has no gold that runs.
	DropNoGold = "no_gold"
)

// langDependent are the causes of a disagreement between golds that mark an input
// (its expected output depends on the language) instead of dropping it, as the
// evaluate job marks such tests of the benchmark itself.
var langDependent = map[string]bool{
	fidelity.CauseOverflow:     true,
	fidelity.CauseFloat:        true,
	fidelity.CauseSignedModulo: true,
}

// Validator keeps the generated inputs on which every gold that runs returns within
// the limits without error and the golds agree (or differ for a reason of the
// languages), running them through the evaluate job's gold runs and harness
// fidelity (evaluate.Evaluator.Execute with no translations).
type Validator struct {
	Evaluator *evaluate.Evaluator
	// Rounds bounds the reruns of inputs that a gold did not reach because an
	// earlier input stopped its worker (a timeout in Java or Python, a crash in
	// C++); 0 means 4.
	Rounds int
}

// Validated is a problem's suite after validation.
type Validated struct {
	// Tests are the original tests (marked language-dependent as the evaluate job
	// marks them), then the valid new ones; Index is the position.
	Tests   []schemas.Test
	Origins []string
	// Drops counts the dropped inputs per reason.
	Drops map[string]int
	// Golds are the languages whose golds judged the inputs; Slowest is each one's
	// slowest kept test (CPU or wall), which sets its mutants' time limits.
	Golds   []string
	Slowest map[string]time.Duration
	Errors  []schemas.ErrorRow
}

// Validate runs the candidates and the original tests on p's golds.
func (v *Validator) Validate(ctx context.Context, p schemas.Problem, cands []Candidate) Validated {
	rounds := v.Rounds
	if rounds <= 0 {
		rounds = 4
	}
	n0 := len(p.Tests)
	res := Validated{Drops: map[string]int{}, Slowest: map[string]time.Duration{}}
	// Smaller inputs first: a gold that times out on an input stops its worker, and
	// the inputs after it must run again, so the slow (large) ones come last.
	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(cands[order[a]].Args) < len(cands[order[b]].Args) })
	pending := order
	verdict := make([]string, len(cands)) // "" keep, else the drop reason
	cause := make([]string, len(cands))
	decided := make([]bool, len(cands))
	var originals []schemas.Test
	for round := 0; round < rounds && len(pending) > 0; round++ {
		q := p
		q.Tests = nil
		for _, c := range pending {
			q.Tests = append(q.Tests, schemas.Test{Index: int32(n0 + c), Args: cands[c].Args})
		}
		for i, t := range p.Tests {
			t.Index = int32(i)
			q.Tests = append(q.Tests, t)
		}
		out := v.Evaluator.Execute(ctx, evaluate.Translated{Item: evaluate.Item{Problem: q}})
		golds := runnableGolds(p, out)
		if round == 0 {
			res.Golds = golds
			res.Errors = out.Errors
			originals = append(originals, out.Problem.Tests[len(pending):]...)
		}
		if len(golds) == 0 {
			for _, c := range pending {
				verdict[c], decided[c] = DropNoGold, true
			}
			break
		}
		status := map[string]map[int32]schemas.ExecutionRow{}
		for _, r := range out.Executions {
			if r.Role != "gold" {
				continue
			}
			if status[r.Lang] == nil {
				status[r.Lang] = map[int32]schemas.ExecutionRow{}
			}
			status[r.Lang][r.TestIndex] = r
		}
		// An input after the first one that stopped a gold's worker may not have run.
		suspect := map[int32]bool{}
		for _, lang := range golds {
			stopped := false
			for _, t := range q.Tests {
				r, ok := status[lang][t.Index]
				if stopped && (!ok || r.TestStatus != schemas.StatusOK) {
					suspect[t.Index] = true
				}
				if ok && stops(lang, r) {
					stopped = true
				}
			}
		}
		disagree := map[int32][]schemas.FidelityRow{}
		for _, f := range out.Fidelity {
			if !f.Agree {
				disagree[f.TestIndex] = append(disagree[f.TestIndex], f)
			}
		}
		var next []int
		for _, c := range pending {
			idx := int32(n0 + c)
			if suspect[idx] {
				next = append(next, c)
				continue
			}
			decided[c] = true
			verdict[c], cause[c] = judge(golds, status, idx, disagree[idx])
			if verdict[c] == "" {
				for _, lang := range golds {
					r := status[lang][idx]
					d := time.Duration(max(r.CPUMicros, r.WallMicros)) * time.Microsecond
					res.Slowest[lang] = max(res.Slowest[lang], d)
				}
			}
		}
		pending = next
	}
	for _, c := range pending {
		verdict[c], decided[c] = DropNotRun, true
	}
	for i, t := range originals {
		t.Index = int32(i)
		res.Tests = append(res.Tests, t)
		res.Origins = append(res.Origins, OriginOriginal)
	}
	for c := range cands {
		if verdict[c] != "" {
			res.Drops[verdict[c]]++
			continue
		}
		res.Tests = append(res.Tests, schemas.Test{Index: int32(len(res.Tests)), Args: cands[c].Args,
			LangDependent: cause[c] != "", DependCause: cause[c]})
		res.Origins = append(res.Origins, cands[c].Origin)
	}
	return res
}

// stops tells whether a gold's test result may have ended its worker, so that the
// tests after it were marked without running: a timeout or a resource limit in any
// engine; in C++ any failure (a crash ends the process serving the unit).
func stops(lang string, r schemas.ExecutionRow) bool {
	switch r.TestStatus {
	case schemas.StatusOK:
		return false
	case schemas.StatusRuntimeError:
		return lang == schemas.Cpp || strings.Contains(r.Error, "worker")
	}
	return true
}

// judge decides one input from the golds' runs and disagreements: "" and a cause
// ("" or language-dependent) to keep it, or the drop reason.
func judge(golds []string, status map[string]map[int32]schemas.ExecutionRow, idx int32, rows []schemas.FidelityRow) (string, string) {
	for _, lang := range golds {
		r, ok := status[lang][idx]
		if !ok {
			return DropNotRun, ""
		}
		if r.TestStatus != schemas.StatusOK {
			return "gold_" + string(r.TestStatus), ""
		}
	}
	dep := ""
	for _, f := range rows {
		if f.Cause == evaluate.CauseNondeterministic {
			if f.LangA == schemas.Cpp {
				return DropUndefined, ""
			}
			return DropNondeterministic, ""
		}
	}
	for _, f := range rows {
		if !langDependent[f.Cause] {
			return "disagree_" + f.Cause, ""
		}
		if dep == "" {
			dep = f.Cause
		}
	}
	return "", dep
}

// runnableGolds are the languages of p's golds that ran: the evaluate job leaves
// out, with an error row, a gold that does not compile or fails on every test.
func runnableGolds(p schemas.Problem, out evaluate.Output) []string {
	bad := map[string]bool{}
	for _, e := range out.Errors {
		if e.Stage == "fidelity" || e.Stage == "execute" {
			bad[e.Lang] = true
		}
	}
	ran := map[string]bool{}
	for _, r := range out.Executions {
		if r.Role == "gold" && r.TestIndex >= 0 {
			ran[r.Lang] = true
		}
	}
	var langs []string
	for _, f := range p.Functions {
		if ran[f.Lang] && !bad[f.Lang] {
			langs = append(langs, f.Lang)
		}
	}
	return langs
}
