package properties

import (
	"transmute/schemas"
	"transmute/transforms/score"
)

// Score metric names (scores table, subset "all", oracle "").
const (
	MetricTV        schemas.Metric = "tv"        // total violations: violated instances of all properties
	MetricVP        schemas.Metric = "vp"        // properties with at least one violated instance
	MetricVSP       schemas.Metric = "vsp"       // of which on arity, numConditionals or numLoops
	MetricInstances schemas.Metric = "instances" // property instances checked
	// Per property (PropertyMetric), suffixed with ":" and the property's name.
	MetricPropViolations schemas.Metric = "violations"
	MetricPropInstances  schemas.Metric = "instances"
	MetricPropPct        schemas.Metric = "pct" // 100 × violations / instances (the paper's Table 1)
)

// PropertyMetric is a per-property metric: "violations:renameParam|arity".
func PropertyMetric(m schemas.Metric, property string) schemas.Metric {
	return m + ":" + schemas.Metric(property)
}

// Score computes TV, VP, VSP and each property's violations, instances and
// percentage for one (translator, corpus, direction) from its result rows.
func Score(run string, k score.Key, rows []schemas.PropertyResultRow) []schemas.ScoreRow {
	viol := map[string]int{}
	inst := map[string]int{}
	tv := 0
	for _, r := range rows {
		inst[r.Property]++
		if r.Violated {
			viol[r.Property]++
			tv++
		}
	}
	return scoreRows(run, k, viol, inst, tv, len(rows))
}

// scoreRows are Score's rows from its counts: violated and checked instances per
// property, violated ones in all (tv) and instances in all (rows).
func scoreRows(run string, k score.Key, viol, inst map[string]int, tv, rows int) []schemas.ScoreRow {
	mk := func(metric schemas.Metric, v float64, n int) schemas.ScoreRow {
		return schemas.ScoreRow{Run: run, Translator: k.Translator, Corpus: k.Corpus, SrcLang: k.SrcLang, TgtLang: k.TgtLang,
			Subset: score.SubsetAll, Metric: metric, Value: v, N: int64(n)}
	}
	vp, vsp := 0, 0
	var out []schemas.ScoreRow
	for _, p := range All {
		n := inst[p.Name]
		if viol[p.Name] > 0 {
			vp++
			if p.Syntactic() {
				vsp++
			}
		}
		out = append(out, mk(PropertyMetric(MetricPropViolations, p.Name), float64(viol[p.Name]), n),
			mk(PropertyMetric(MetricPropInstances, p.Name), float64(n), n))
		if n > 0 {
			out = append(out, mk(PropertyMetric(MetricPropPct, p.Name), 100*float64(viol[p.Name])/float64(n), n))
		}
	}
	out = append(out, mk(MetricTV, float64(tv), rows), mk(MetricVP, float64(vp), len(All)),
		mk(MetricVSP, float64(vsp), 24), mk(MetricInstances, float64(rows), rows))
	return out
}
