package report

import (
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"gocloud.dev/blob"

	"transmute/io/sink"
	"transmute/schemas"
	"transmute/transforms/consistency"
)

// PrintConsistencySummary prints, in TransRepair's terms: per translator and
// direction the pairs, the inconsistencies by execution and by each metric
// (threshold chosen on half the problems, precision/recall/F1 against execution
// on the other half), the repairs; then how many identifier replacements kept
// the source's outputs, with the exceptions, and examples of inconsistencies.
func PrintConsistencySummary(ctx context.Context, w io.Writer, b *blob.Bucket) error {
	scores, err := sink.Read[schemas.ScoreRow](ctx, b, "scores")
	if err != nil {
		return err
	}
	keys, m := byCell(scores, func(r schemas.ScoreRow) bool { return r.Oracle == consistency.OracleConsistency })
	f := func(v float64) string {
		if math.IsNaN(v) {
			return "-"
		}
		if v == math.Trunc(v) && math.Abs(v) < 1e9 {
			return fmt.Sprintf("%d", int64(v))
		}
		return fmt.Sprintf("%.3f", v)
	}
	pct := func(v float64) string {
		if math.IsNaN(v) {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*v)
	}
	for _, k := range keys {
		s := m[k]
		fmt.Fprintf(w, "%s %s %s->%s: %s problems, %s variant pairs (%s literal)\n", k.tr, k.corpus, k.src, k.tgt,
			f(s[consistency.ScoreProblems].Value), f(s[consistency.ScorePairs].Value), f(s[consistency.ScorePairsLiteral].Value))
		fmt.Fprintf(w, "  inconsistent by execution: %s (%s)\n", f(s[consistency.ScoreExecInconsistent].Value), pct(s[consistency.ScoreExecRate].Value))
		fmt.Fprintf(w, "  %-6s %9s %8s %16s %9s %6s %6s %6s  %s\n", "metric", "threshold", "below 1", "inconsistent", "F1 choose",
			"P", "R", "F1", "repair: tried, repaired, pass before->after, worse/better")
		for _, mt := range consistency.Metrics {
			p := schemas.Metric(mt)
			fmt.Fprintf(w, "  %-6s %9s %8s %9s %6s %9s %6s %6s %6s  %s, %s (%s), %s->%s, %s/%s\n", p, f(s[p+consistency.SuffixThreshold].Value),
				f(s[p+consistency.SuffixBelowOne].Value), f(s[p+consistency.SuffixInconsistent].Value), pct(s[p+consistency.SuffixRate].Value),
				f(s[p+consistency.SuffixChooseF1].Value), f(s[p+consistency.SuffixPrecision].Value), f(s[p+consistency.SuffixRecall].Value), f(s[p+consistency.SuffixF1].Value),
				f(s[p+consistency.SuffixFlagged].Value), f(s[p+consistency.SuffixRepaired].Value), pct(s[p+consistency.SuffixRepairedRate].Value),
				pct(s[p+consistency.SuffixPassBefore].Value), pct(s[p+consistency.SuffixPassAfter].Value), f(s[p+consistency.SuffixWorse].Value), f(s[p+consistency.SuffixBetter].Value))
		}
	}

	// Identifier replacements that kept the source's outputs.
	variants, err := sink.Read[schemas.VariantRow](ctx, b, "variants")
	if err != nil {
		return err
	}
	errs, err := sink.Read[schemas.ErrorRow](ctx, b, "errors")
	if err != nil {
		return err
	}
	idents := map[string]int{}
	lits := map[string]int{}
	for _, v := range variants {
		if v.Kind != schemas.VariantKindContextSimilar {
			continue
		}
		if v.Operator == string(consistency.KindIdentifier) {
			idents[v.Lang]++
		} else {
			lits[v.Lang]++
		}
	}
	changed := map[string][]schemas.ErrorRow{}
	for _, e := range errs {
		if e.Stage == consistency.Stage && e.Reason == "identifier variant changed outputs" {
			changed[e.Lang] = append(changed[e.Lang], e)
		}
	}
	for _, lang := range schemas.Languages {
		if idents[lang] == 0 {
			continue
		}
		n, bad := idents[lang], len(changed[lang])
		fmt.Fprintf(w, "%s: %d identifier replacements, %d kept the source's outputs (%.2f%%); %d literal replacements\n",
			lang, n, n-bad, 100*float64(n-bad)/float64(n), lits[lang])
		for i, e := range changed[lang] {
			if i == 10 {
				fmt.Fprintf(w, "  ... %d more\n", bad-10)
				break
			}
			fmt.Fprintf(w, "  changed: %s %s\n", e.ProblemID, e.Detail)
		}
	}

	// Examples of execution inconsistencies of translators other than the identity.
	rows, err := sink.Read[schemas.ConsistencyRow](ctx, b, "consistency_results")
	if err != nil {
		return err
	}
	sort.Slice(rows, func(i, j int) bool {
		return rows[i].Translator+rows[i].TgtLang+rows[i].ProblemID+rows[i].VariantID <
			rows[j].Translator+rows[j].TgtLang+rows[j].ProblemID+rows[j].VariantID
	})
	shown := map[string]int{}
	for _, r := range rows {
		k := r.Translator + " " + r.SrcLang + "->" + r.TgtLang
		if r.ExecConsistent || shown[k] >= 6 {
			continue
		}
		shown[k]++
		fmt.Fprintf(w, "inconsistent %s %s %s %s->%s (lcs %.3f): %s\n", k, r.ProblemID, r.Kind, r.Old, r.New, r.LCS,
			strings.ReplaceAll(r.Detail, "\n", " "))
	}
	return nil
}
