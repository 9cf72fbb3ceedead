// Command report prints readable reports from a run's tables.
//
//	report fidelity OUT   harness fidelity per language pair, and every disagreement
//	                      not explained by integer overflow or floating point
//	report scores OUT     CA and pass rate per translator, corpus and direction
//	report efficiency OUT Pass and Beyond per model and direction (seed 002 Table 15)
//	report html OUT       everything above as one page, OUT/report/index.html
//	report table15 OUT [EFF_OUT]  Pass (and Beyond, Table 14 with EFF_OUT) against
//	                      seed 002's Table 15, cell by cell (report/table15)
package main

import (
	"context"
	"fmt"
	"os"
	"sort"

	"transmute/io/blobs"
	"transmute/io/sink"
	"transmute/pipelines"
	"transmute/schemas"
)

func main() {
	if len(os.Args) != 3 && !(len(os.Args) == 4 && os.Args[1] == "table15") {
		fmt.Fprintln(os.Stderr, "usage: report fidelity|scores|efficiency|html OUTPUT_DIR_OR_URL, or report table15 OUT [EFF_OUT]")
		os.Exit(2)
	}
	ctx := context.Background()
	b, err := blobs.Open(ctx, os.Args[2])
	if err != nil {
		fatal(err)
	}
	defer b.Close()
	switch os.Args[1] {
	case "fidelity":
		err = fidelity(ctx, os.Args[2])
	case "scores":
		err = pipelines.PrintSummary(ctx, os.Stdout, b)
	case "efficiency":
		err = efficiency(ctx, os.Args[2])
	case "html":
		err = htmlReport(ctx, b, os.Args[2])
	case "table15":
		err = table15Report(ctx, os.Args[2:])
	default:
		err = fmt.Errorf("unknown report %q", os.Args[1])
	}
	if err != nil {
		fatal(err)
	}
}

func fidelity(ctx context.Context, out string) error {
	b, err := blobs.Open(ctx, out)
	if err != nil {
		return err
	}
	defer b.Close()
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
	fmt.Printf("%-14s %8s %6s %6s %8s %6s %7s %7s %6s %8s %6s  %-8s %-8s %s\n", "pair", "problems", "tests", "agree",
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
		fmt.Printf("%-14s %8d %6d %6d %8d %6d %7d %7d %6d %8d %6d  %-8.4f %-8.4f %.4f\n", k.a+"-"+k.b, len(a.problems), a.tests, a.agree,
			ov, fl, md, ob, pr, ge, ot, rate(a.tests-ov-fl), rate(a.tests-ov-fl-md-ob), rate(a.tests-ov-fl-md-ob-pr-ge))
	}
	fmt.Println("agree(1): tests agreeing, overflow and floating point set aside; (2): also the other" +
		" language causes (signed modulo, out-of-bounds reads); (3): also the golds' own differences (C++ works on a prefix" +
		" of the array, partial_range; one gold raises an exception of its own code, gold_exception)")
	// Gold programs that did not run cleanly: problems lost to the harness.
	lost := map[string]string{}
	for _, e := range execs {
		if e.Role == "gold" && e.Status != schemas.StatusOK {
			lost[e.ProblemID+" "+e.Lang] = e.Status
		}
	}
	fmt.Printf("\ngold programs not ok: %d\n", len(lost))
	keys := make([]string, 0, len(lost))
	for k := range lost {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("  %s: %s\n", k, lost[k])
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
		fmt.Printf("\ndisagreements of cause %s: %d tests, %d problem-pairs\n", cause, total, len(order))
		for _, k := range order {
			g := groups[k]
			r := g.first
			fmt.Printf("  %s (%d tests) e.g. #%d: %s=%s (%s) vs %s=%s (%s)\n", k, g.n, r.TestIndex,
				r.LangA, clip(r.ValueA), r.StatusA, r.LangB, clip(r.ValueB), r.StatusB)
		}
	}
	fmt.Printf("\nevery disagreement of cause other, test by test:\n")
	for _, r := range others {
		if r.Cause != "other" {
			continue
		}
		fmt.Printf("  %s #%d %s-%s: %s=%s (%s) vs %s=%s (%s)\n", r.ProblemID, r.TestIndex, r.LangA, r.LangB,
			r.LangA, clip(r.ValueA), r.StatusA, r.LangB, clip(r.ValueB), r.StatusB)
	}
	return nil
}

func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "report:", err)
	os.Exit(1)
}

// efficiency prints the efficiency job's Beyond table (seed 002 Table 15 layout),
// its correlations and measurement figures.
func efficiency(ctx context.Context, out string) error {
	b, err := blobs.Open(ctx, out)
	if err != nil {
		return err
	}
	defer b.Close()
	return pipelines.PrintEfficiencySummary(ctx, os.Stdout, b)
}
