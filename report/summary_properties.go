package report

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"time"

	"gocloud.dev/blob"

	"transmute/io/sink"
	"transmute/schemas"
	"transmute/transforms/metamorph"
	"transmute/transforms/properties"
)

// PrintPropertiesSummary prints, per translator, corpus and direction, Table 3 (TV,
// VP, VSP) and the Table 1 layout (percentage of violated instances per
// transformation and inspection, with the instance counts), then per language and
// transformation what the transformations produced, and the time spent in
// inspections and property checks against cpu (the run's CPU, 0 to leave it out).
func PrintPropertiesSummary(ctx context.Context, w io.Writer, b *blob.Bucket, cpu time.Duration) error {
	rows, err := sink.Read[schemas.ScoreRow](ctx, b, "scores")
	if err != nil {
		return err
	}
	checkSec := 0.0
	for _, r := range rows {
		if r.Metric == schemas.MetricCheckSeconds {
			checkSec += r.Value
		}
	}
	keys, m := byCell(rows, func(r schemas.ScoreRow) bool { return r.Metric != schemas.MetricCheckSeconds })
	fmt.Fprintln(w, "Table 3: total violations (TV), violated properties (VP, of 38), violated syntactic properties (VSP, of 24)")
	fmt.Fprintf(w, "  %-28s %-12s %8s %4s %4s %10s\n", "translator", "direction", "TV", "VP", "VSP", "instances")
	for _, k := range keys {
		ms := m[k]
		fmt.Fprintf(w, "  %-28s %-12s %8.0f %4.0f %4.0f %10.0f\n", k.tr, k.src+"->"+k.tgt, ms[properties.MetricTV].Value,
			ms[properties.MetricVP].Value, ms[properties.MetricVSP].Value, ms[properties.MetricInstances].Value)
	}
	for _, k := range keys {
		ms := m[k]
		fmt.Fprintf(w, "Table 1 layout: %s %s %s->%s, %% of instances violated (violations/instances)\n", k.tr, k.corpus, k.src, k.tgt)
		fmt.Fprintf(w, "  %-2s %-5s", "k", "PT")
		for _, in := range properties.Inspections {
			fmt.Fprintf(w, " %16s", in)
		}
		fmt.Fprintln(w)
		for _, t := range append([]metamorph.Transformation{""}, metamorph.Transformations...) {
			ps := properties.ByTransformation(t)
			abbrev := "-"
			if t != "" {
				abbrev = t.Abbrev()
			}
			fmt.Fprintf(w, "  %-2d %-5s", ps[0].K, abbrev)
			byIn := map[properties.Inspection]properties.Property{}
			for _, p := range ps {
				byIn[p.Inspection] = p
			}
			for _, in := range properties.Inspections {
				p, ok := byIn[in]
				if !ok {
					fmt.Fprintf(w, " %16s", "-")
					continue
				}
				v := ms[properties.PropertyMetric(properties.MetricPropViolations, p.Name)].Value
				n := ms[properties.PropertyMetric(properties.MetricPropInstances, p.Name)].Value
				cell := "n/a"
				if n > 0 {
					cell = fmt.Sprintf("%s (%.0f/%.0f)", pct(100*v/n), v, n)
				}
				fmt.Fprintf(w, " %16s", cell)
			}
			fmt.Fprintln(w)
		}
	}
	trs, err := sink.Read[schemas.TransformationRow](ctx, b, "transformations")
	if err != nil {
		return err
	}
	type tk struct{ lang, t string }
	type tally struct {
		problems map[string]bool
		outcomes map[string]int
	}
	ts := map[tk]*tally{}
	for _, r := range trs {
		k := tk{r.Lang, r.Transformation}
		if ts[k] == nil {
			ts[k] = &tally{problems: map[string]bool{}, outcomes: map[string]int{}}
		}
		if r.VariantID != "" {
			ts[k].problems[r.ProblemID] = true
		}
		ts[k].outcomes[r.Outcome]++
	}
	var tks []tk
	for k := range ts {
		tks = append(tks, k)
	}
	sort.Slice(tks, func(i, j int) bool { return tks[i].lang+tks[i].t < tks[j].lang+tks[j].t })
	fmt.Fprintln(w, "Transformations: problems applied to, variants produced, outcomes (valid / changed_outputs / no_compile / absent / failed)")
	for _, k := range tks {
		t := ts[k]
		o := t.outcomes
		produced := o[properties.OutcomeValid] + o[properties.OutcomeChangedOutputs] + o[properties.OutcomeNoCompile]
		kept := ""
		if metamorph.Transformation(k.t).PreservesSemantics() || k.t == string(metamorph.Merge) {
			checked := o[properties.OutcomeValid] + o[properties.OutcomeChangedOutputs]
			if checked > 0 {
				kept = fmt.Sprintf(", outputs kept %d/%d (%.2f%%)", o[properties.OutcomeValid], checked,
					100*float64(o[properties.OutcomeValid])/float64(checked))
			}
		}
		fmt.Fprintf(w, "  %-7s %-15s problems %4d, variants %4d: %d / %d / %d / %d / %d%s\n", k.lang, k.t, len(t.problems), produced,
			o[properties.OutcomeValid], o[properties.OutcomeChangedOutputs], o[properties.OutcomeNoCompile],
			o[properties.OutcomeAbsent], o[properties.OutcomeFailed], kept)
	}
	if cpu > 0 {
		fmt.Fprintf(w, "Inspections and property checks: %.1f s of the run's %.1f s CPU (this process and its children): %.2f%%\n",
			checkSec, cpu.Seconds(), 100*checkSec/cpu.Seconds())
	} else {
		fmt.Fprintf(w, "Inspections and property checks: %.1f s\n", checkSec)
	}
	return nil
}

// pct renders a percentage as the paper does: 0, <1, or a whole number.
func pct(v float64) string {
	switch {
	case v == 0:
		return "0"
	case v < 1:
		return "<1"
	}
	return strconv.Itoa(int(v + 0.5))
}
