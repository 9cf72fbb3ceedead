package report

import (
	"context"
	"fmt"
	"io"
	"sort"

	"gocloud.dev/blob"

	"transmute/internal/clip"
	"transmute/io/sink"
	"transmute/schemas"
)

// PrintFidelitySummary prints the harness fidelity per language pair (the gold
// functions of two languages compared test by test, by cause of disagreement), the
// gold programs that did not run cleanly, and every disagreement not explained by
// integer overflow or floating point.
func PrintFidelitySummary(ctx context.Context, w io.Writer, b *blob.Bucket) error {
	rows, err := sink.Read[schemas.FidelityRow](ctx, b, "fidelity")
	if err != nil {
		return err
	}
	execs, err := sink.Read[schemas.ExecutionRow](ctx, b, "executions")
	if err != nil {
		return err
	}
	type pair struct{ a, b string }
	type acc struct {
		tests, agree int
		causes       map[string]int
		problems     map[string]bool
	}
	m := map[pair]*acc{}
	var others []schemas.FidelityRow
	for _, r := range rows {
		k := pair{r.LangA, r.LangB}
		a := m[k]
		if a == nil {
			a = &acc{causes: map[string]int{}, problems: map[string]bool{}}
			m[k] = a
		}
		a.tests++
		a.problems[r.ProblemID] = true
		if r.Agree {
			a.agree++
		} else {
			a.causes[r.Cause]++
			if r.Cause == "other" || r.Cause == "gold_exception" || r.Cause == "partial_range" {
				others = append(others, r)
			}
		}
	}
	pairs := make([]pair, 0, len(m))
	for k := range m {
		pairs = append(pairs, k)
	}
	sort.Slice(pairs, func(i, j int) bool { return pairs[i].a+pairs[i].b < pairs[j].a+pairs[j].b })
	fmt.Fprintf(w, "%-14s %8s %6s %6s %8s %6s %7s %7s %6s %8s %6s  %-8s %-8s %s\n", "pair", "problems", "tests", "agree",
		"overflow", "float", "modulo", "bounds", "range", "gold_exc", "other", "agree(1)", "agree(2)", "agree(3)")
	for _, k := range pairs {
		a := m[k]
		ov, fl, md, ob, pr, ge, ot := a.causes["integer_overflow"], a.causes["float_precision"], a.causes["signed_modulo"],
			a.causes["out_of_bounds"], a.causes["partial_range"], a.causes["gold_exception"], a.causes["other"]
		rate := func(rest int) float64 {
			if rest <= 0 {
				return 1
			}
			return float64(a.agree) / float64(rest)
		}
		fmt.Fprintf(w, "%-14s %8d %6d %6d %8d %6d %7d %7d %6d %8d %6d  %-8.4f %-8.4f %.4f\n", k.a+"-"+k.b, len(a.problems), a.tests, a.agree,
			ov, fl, md, ob, pr, ge, ot, rate(a.tests-ov-fl), rate(a.tests-ov-fl-md-ob), rate(a.tests-ov-fl-md-ob-pr-ge))
	}
	fmt.Fprintln(w, "agree(1): tests agreeing, overflow and floating point set aside; (2): also the other"+
		" language causes (signed modulo, out-of-bounds reads); (3): also the golds' own differences (C++ works on a prefix"+
		" of the array, partial_range; one gold raises an exception of its own code, gold_exception)")
	// Gold programs that did not run cleanly: problems lost to the harness.
	lost := map[string]schemas.Status{}
	for _, e := range execs {
		if e.Role == "gold" && e.Status != schemas.StatusOK {
			lost[e.ProblemID+" "+e.Lang] = e.Status
		}
	}
	fmt.Fprintf(w, "\ngold programs not ok: %d\n", len(lost))
	keys := make([]string, 0, len(lost))
	for k := range lost {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "  %s: %s\n", k, lost[k])
	}
	sort.Slice(others, func(i, j int) bool {
		if others[i].ProblemID != others[j].ProblemID {
			return others[i].ProblemID < others[j].ProblemID
		}
		return others[i].TestIndex < others[j].TestIndex
	})
	for _, cause := range []string{"partial_range", "gold_exception", "other"} {
		// One line per problem and pair (the count and the first test), then every test.
		type group struct {
			first schemas.FidelityRow
			n     int
		}
		var order []string
		groups := map[string]*group{}
		total := 0
		for _, r := range others {
			if r.Cause != cause {
				continue
			}
			total++
			k := r.ProblemID + " " + r.LangA + "-" + r.LangB
			if groups[k] == nil {
				groups[k] = &group{first: r}
				order = append(order, k)
			}
			groups[k].n++
		}
		fmt.Fprintf(w, "\ndisagreements of cause %s: %d tests, %d problem-pairs\n", cause, total, len(order))
		for _, k := range order {
			g := groups[k]
			r := g.first
			fmt.Fprintf(w, "  %s (%d tests) e.g. #%d: %s=%s (%s) vs %s=%s (%s)\n", k, g.n, r.TestIndex,
				r.LangA, clip.String(r.ValueA, 120), r.StatusA, r.LangB, clip.String(r.ValueB, 120), r.StatusB)
		}
	}
	fmt.Fprintf(w, "\nevery disagreement of cause other, test by test:\n")
	for _, r := range others {
		if r.Cause != "other" {
			continue
		}
		fmt.Fprintf(w, "  %s #%d %s-%s: %s=%s (%s) vs %s=%s (%s)\n", r.ProblemID, r.TestIndex, r.LangA, r.LangB,
			r.LangA, clip.String(r.ValueA, 120), r.StatusA, r.LangB, clip.String(r.ValueB, 120), r.StatusB)
	}
	return nil
}
