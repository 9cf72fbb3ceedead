package report

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// MaxMatrixRows bounds the matrix's rows (problem, direction, oracle), so that the
// page of a large run stays quick to open; the rest are counted.
const MaxMatrixRows = 4000

// matrixScript filters the matrix's rows by direction, oracle and outcome: a row
// stays when it matches every chosen filter (an outcome matches when any of its
// translators has it).
const matrixScript = `<script>(function(){var sel=document.querySelectorAll("#matrix-filters select");
function apply(){var f={};sel.forEach(function(s){f[s.name]=s.value});var shown=0;
document.querySelectorAll("#matrix-table tbody tr").forEach(function(tr){var ok=(!f.dir||tr.dataset.dir===f.dir)&&(!f.oracle||tr.dataset.oracle===f.oracle)&&(!f.status||(" "+tr.dataset.status+" ").indexOf(" "+f.status+" ")>=0);
tr.hidden=!ok;if(ok)shown++});document.getElementById("matrix-shown").textContent=shown}
sel.forEach(function(s){s.addEventListener("change",apply)});apply()})()</script>`

// matrixSection is the problem × translator matrix: one row per problem, direction
// and oracle, one column per translator, each cell the translation's outcome,
// with filters on direction, oracle and outcome.
func matrixSection(p *page, r *Run) {
	outs := outcomes(r)
	type rowKey struct{ problem, corpus, src, tgt, oracle string }
	rows := map[rowKey]map[string]string{}
	trs := map[string]bool{}
	dirs, oracles, kinds := map[string]bool{}, map[string]bool{}, map[string]int{}
	for k, o := range outs {
		rk := rowKey{k.problem, k.corpus, k.src, k.tgt, k.oracle}
		if rows[rk] == nil {
			rows[rk] = map[string]string{}
		}
		kind := o.kind()
		rows[rk][k.tr] = kind
		trs[k.tr] = true
		dirs[k.src+"-"+k.tgt] = true
		oracles[k.oracle] = true
		kinds[kind]++
	}
	keys := make([]rowKey, 0, len(rows))
	for k := range rows {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		return a.src+a.tgt+"\x00"+a.problem+"\x00"+a.corpus+"\x00"+a.oracle < b.src+b.tgt+"\x00"+b.problem+"\x00"+b.corpus+"\x00"+b.oracle
	})
	tl := slices.Sorted(maps.Keys(trs))
	failOracle := failureOracle(r)
	p.f("<h2>Problem × translator</h2><p>The outcome of each translation (sample 0) on each problem, direction and oracle: " +
		"pass, wrong_answer (ran and returned another value than the oracle), runtime_error, timeout, other_error, compile_error, " +
		"untranslated (no translation to run), no_oracle (every test left out). Choose a direction, an oracle or an outcome to show only those rows.</p>")
	var kl []string
	var kv []float64
	maxV := 0.0
	for _, k := range []string{OutcomePass, OutcomeWrongAnswer, OutcomeRuntime, OutcomeTimeout, OutcomeOther, OutcomeCompile, OutcomeUntranslated, OutcomeNoOracle} {
		if kinds[k] > 0 {
			kl, kv = append(kl, k), append(kv, float64(kinds[k]))
			maxV = max(maxV, float64(kinds[k]))
		}
	}
	p.f("%s", Bars("outcomes of every translation and oracle", kl, kv, maxV))
	option := func(name, label string, values []string) {
		p.f(`<label>%s <select name="%s"><option value="">all</option>`, label, name)
		for _, v := range values {
			p.f(`<option value="%s">%s</option>`, esc(v), esc(v))
		}
		p.f("</select></label> ")
	}
	p.f(`<p id="matrix-filters">`)
	option("dir", "direction", slices.Sorted(maps.Keys(dirs)))
	option("oracle", "oracle", slices.Sorted(maps.Keys(oracles)))
	option("status", "outcome", kl)
	p.f(`<span id="matrix-shown">%d</span> rows shown.</p>`, min(len(keys), MaxMatrixRows))
	p.f(`<table id="matrix-table"><thead><tr><th>problem</th><th>direction</th><th>oracle</th>`)
	for _, t := range tl {
		p.f("<th>%s</th>", esc(t))
	}
	p.f("</tr></thead><tbody>")
	for i, k := range keys {
		if i >= MaxMatrixRows {
			break
		}
		row := rows[k]
		var st []string
		for _, t := range tl {
			if v, ok := row[t]; ok && !strings.Contains(" "+strings.Join(st, " ")+" ", " "+v+" ") {
				st = append(st, v)
			}
		}
		p.f(`<tr data-dir="%s-%s" data-oracle="%s" data-status="%s"><td>%s</td><td>%s→%s</td><td>%s</td>`,
			k.src, k.tgt, esc(k.oracle), strings.Join(st, " "), esc(k.problem), k.src, k.tgt, esc(k.oracle))
		for _, t := range tl {
			v, ok := row[t]
			if !ok {
				p.f("<td></td>")
				continue
			}
			if v != OutcomePass && v != OutcomeUntranslated && v != OutcomeNoOracle && k.oracle == failOracle {
				p.f(`<td style="background:%s"><a href="#%s">%s</a></td>`, outcomeColors[v], Anchor(t, k.problem, k.src, k.tgt), v)
				continue
			}
			p.f(`<td style="background:%s">%s</td>`, outcomeColors[v], v)
		}
		p.f("</tr>")
	}
	p.f("</tbody></table>")
	if len(keys) > MaxMatrixRows {
		p.f("<p>… %d more rows not shown.</p>", len(keys)-MaxMatrixRows)
	}
	p.f("%s", matrixScript)
}

// summarySection is the job's printed summary, with, for an evaluate run, a plot of
// pass over all problems beside pass over the attempted ones.
func summarySection(p *page, r *Run) {
	p.f("<h2>Summary</h2><p>As the job printed it (summary.txt).</p><pre>%s</pre>", esc(r.Summary))
	idx := scoreIndex(r)
	covs := Coverages(r.Scores, r.Translations)
	var labels []string
	var vals [][]float64
	oracle := failureOracle(r)
	for _, c := range cells(r, "pass_rate") {
		pr, ok := idx[scoreKey{c.tr, c.corpus, c.src, c.tgt, oracle, "all", "pass_rate"}]
		if !ok {
			continue
		}
		cov, haveCov := covs[c]
		att, _, aok := passAttempted(idx, c, oracle, cov, haveCov)
		if !aok {
			continue
		}
		labels = append(labels, fmt.Sprintf("%s %s→%s", c.tr, c.src, c.tgt))
		vals = append(vals, []float64{pr.Value, att})
	}
	if len(labels) == 0 {
		return
	}
	as, bs := make([]float64, len(vals)), make([]float64, len(vals))
	for i, v := range vals {
		as[i], bs[i] = v[0], v[1]
	}
	p.f("<div class=plots>%s</div>", Paired("pass over all problems and over the attempted ones ("+oracle+")", labels, as, bs,
		"pass/all (untranslated count as failures)", "pass/attempted"))
}

// coveragePlot shows, per translator and direction, the problems translated, missing
// and failed to translate.
func coveragePlot(r *Run) string {
	covs := Coverages(r.Scores, r.Translations)
	if len(covs) == 0 {
		return ""
	}
	keys := make([]cell, 0, len(covs))
	for k := range covs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
	var labels []string
	var counts [][]float64
	for _, k := range keys {
		c := covs[k]
		labels = append(labels, fmt.Sprintf("%s %s→%s %d/%d", k.tr, k.src, k.tgt, c.Translated, c.Problems))
		counts = append(counts, []float64{float64(c.Translated), float64(c.Missing), float64(c.Failed)})
	}
	return Stacked("coverage: problems translated, missing, failed to translate", labels,
		[]string{"translated", "missing", "failed"}, []string{"#6aa84f", "#dddddd", "#e06666"}, counts)
}
