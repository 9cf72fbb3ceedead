package report

import (
	"cmp"
	"fmt"
	"html"
	"io"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"transmute/internal/clip"
	"transmute/internal/lcs"
	"transmute/report/table15"
	"transmute/schemas"
	"transmute/transforms/stats"
	"transmute/transforms/values"
)

// MaxFailures bounds the failing translations given an anchor each, so that the page
// of a large run stays quick to open; the rest are counted.
const MaxFailures = 300

// Section ids, in page order (the browser test looks for them).
const (
	SecOverview    = "overview"
	SecCorrectness = "correctness"
	SecMatrix      = "matrix"
	SecMBTA        = "mbta"
	SecEfficiency  = "efficiency"
	SecFidelity    = "fidelity"
	SecFailures    = "failures"
	SecSummary     = "summary"
)

// Sections lists the ids of the sections r has, in page order.
func Sections(r *Run) []string {
	s := []string{SecOverview}
	if r.Summary != "" {
		s = append(s, SecSummary)
	}
	if hasCA(r) {
		s = append(s, SecCorrectness)
		if len(r.Results) > 0 {
			s = append(s, SecMatrix)
		}
	}
	if len(r.Mutants) > 0 {
		s = append(s, SecMBTA)
	}
	if len(r.Profiles) > 0 {
		s = append(s, SecEfficiency)
	}
	if len(r.Fidelity) > 0 {
		s = append(s, SecFidelity)
	}
	for _, g := range r.Extra {
		if len(s) == 0 || s[len(s)-1] != g.Section {
			s = append(s, g.Section)
		}
	}
	if len(failures(r)) > 0 {
		s = append(s, SecFailures)
	}
	return s
}

func hasCA(r *Run) bool {
	for _, s := range r.Scores {
		if s.Metric == schemas.MetricPassRate && len(r.Profiles) == 0 {
			return true
		}
	}
	return false
}

type page struct {
	w   io.Writer
	err error
}

func (p *page) f(format string, a ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, a...)
	}
}

var esc = html.EscapeString

const style = `body{font:14px/1.45 system-ui,sans-serif;margin:0 2em 4em;color:#222}
nav{position:sticky;top:0;background:#fff;padding:.5em 0;border-bottom:1px solid #ccc}
nav a{margin-right:1em}section{margin-top:2em}table{border-collapse:collapse;margin:.5em 0}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}
th{background:#f4f4f4}td.n{text-align:right}pre{background:#f7f7f7;padding:.5em;overflow:auto;max-height:24em}
.t{font-weight:bold;font-size:12px}.l{font-size:11px}svg{margin:.5em 1em .5em 0;background:#fff}
.plots{display:flex;flex-wrap:wrap}.warn{color:#b00;font-weight:bold}td.cc{white-space:nowrap;font-size:12px}.ci{color:#555}details{margin:.3em 0}.del{background:#fdd}.ins{background:#dfd}`

// Write renders r as one self-contained HTML page.
func Write(w io.Writer, r *Run) error {
	p := &page{w: w}
	secs := Sections(r)
	p.f("<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>Transmute run %s</title><style>%s</style></head><body>\n",
		esc(r.Manifest.Run), style)
	p.f("<h1>Transmute run %s</h1><nav>", esc(r.Manifest.Run))
	for _, s := range secs {
		p.f(`<a href="#%s">%s</a>`, s, s)
	}
	p.f("</nav>\n")
	for _, s := range secs {
		p.f(`<section id="%s">`, s)
		switch s {
		case SecOverview:
			overview(p, r)
		case SecCorrectness:
			correctness(p, r)
		case SecMatrix:
			matrixSection(p, r)
		case SecMBTA:
			mbtaSection(p, r)
		case SecEfficiency:
			efficiency(p, r)
		case SecFidelity:
			fidelitySection(p, r)
		case SecFailures:
			failuresSection(p, r)
		case SecSummary:
			summarySection(p, r)
		default:
			p.f("<h2>%s</h2>", esc(s))
			for _, g := range r.Extra {
				if g.Section == s {
					generic(p, g)
				}
			}
		}
		p.f("</section>\n")
	}
	p.f("</body></html>\n")
	return p.err
}

func overview(p *page, r *Run) {
	m := r.Manifest
	p.f("<h2>Overview</h2><p>Run <b>%s</b>, %s to %s (%.0f s).</p>", esc(m.Run), esc(m.Start), esc(m.End), m.Seconds)
	if m.Command != "" {
		p.f("<pre>%s</pre>", esc(m.Command))
	}
	p.f("<h3>Configuration</h3><table>")
	for _, k := range slices.Sorted(maps.Keys(m.Config)) {
		v := m.Config[k]
		if v == nil || v == "" || v == 0.0 || v == false {
			continue
		}
		p.f("<tr><th>%s</th><td>%s</td></tr>", esc(k), esc(fmt.Sprint(v)))
	}
	p.f("</table><h3>Versions</h3><table>")
	for _, k := range slices.Sorted(maps.Keys(m.Versions)) {
		p.f("<tr><th>%s</th><td>%s</td></tr>", esc(k), esc(m.Versions[k]))
	}
	if plot := coveragePlot(r); plot != "" {
		p.f("</table><h3>Coverage</h3><p>Problems each translator was asked for, per direction: translated, missing (no translation given) and failed to translate. Pass over all problems counts the last two as failures.</p>%s<table>", plot)
	}
	p.f("</table><h3>Sandbox protections</h3><p>%s</p><h3>Rows</h3><table>", esc(strings.Join(m.Protections, ", ")))
	for _, k := range slices.Sorted(maps.Keys(m.Counts)) {
		p.f(`<tr><th>%s</th><td class=n>%d</td></tr>`, esc(k), m.Counts[k])
	}
	cached := 0
	for _, e := range r.Executions {
		if e.Cached {
			cached++
		}
	}
	p.f("</table><p>Execution rows from the execution cache: %d of %d.</p>", cached, len(r.Executions))
	type sr struct{ stage, reason string }
	byReason := map[sr]int{}
	for _, e := range r.Errors {
		byReason[sr{string(e.Stage), e.Reason}]++
	}
	keys := make([]sr, 0, len(byReason))
	for k := range byReason {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if byReason[keys[i]] != byReason[keys[j]] {
			return byReason[keys[i]] > byReason[keys[j]]
		}
		return keys[i].stage+keys[i].reason < keys[j].stage+keys[j].reason
	})
	p.f("<h3>Errors by stage and reason (%d rows)</h3><table><tr><th>stage</th><th>reason</th><th>rows</th></tr>", len(r.Errors))
	for _, k := range keys {
		p.f("<tr><td>%s</td><td>%s</td><td class=n>%d</td></tr>", esc(k.stage), esc(clip.String(k.reason, 200)), byReason[k])
	}
	p.f("</table>")
}

type scoreKey struct {
	tr, corpus, src, tgt, oracle, subset string
	metric                               schemas.Metric
}

func scoreIndex(r *Run) map[scoreKey]schemas.ScoreRow {
	m := map[scoreKey]schemas.ScoreRow{}
	for _, s := range r.Scores {
		m[scoreKey{s.Translator, s.Corpus, s.SrcLang, s.TgtLang, s.Oracle, s.Subset, s.Metric}] = s
	}
	return m
}

type cell struct{ tr, corpus, src, tgt string }

func cells(r *Run, metric schemas.Metric) []cell {
	seen := map[cell]bool{}
	var out []cell
	for _, s := range r.Scores {
		c := cell{s.Translator, s.Corpus, s.SrcLang, s.TgtLang}
		if s.Metric == metric && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.tr+"\x00"+a.corpus+"\x00"+a.src+a.tgt < b.tr+"\x00"+b.corpus+"\x00"+b.src+b.tgt
	})
	return out
}

// outcomeColors are the matrix's and the plots' colours per outcome.
var outcomeColors = map[string]string{OutcomePass: "#9bd69b", OutcomeWrongAnswer: "#e06666", OutcomeRuntime: "#f0a35e",
	OutcomeTimeout: "#f6c26b", OutcomeOther: "#c9a0dc", OutcomeCompile: "#b4a7d6", OutcomeUntranslated: "#dddddd", OutcomeNoOracle: "#f4f4f4"}

func correctness(p *page, r *Run) {
	idx := scoreIndex(r)
	covs := Coverages(r.Scores, r.Translations)
	cas := caByCell(outcomes(r))
	p.f("<h2>Correctness</h2><p>Per translator and direction (subset all) against each oracle: the source function (cross-language) and the target gold. "+
		"<b>pass</b> is the share of all problems whose translation passes every test, with its Wilson 95%% interval; "+
		"<b>pass/attempted</b> the share of the translated problems; <b>CA</b> (ca_overall) the share of tests whose output equals the oracle's, "+
		"with a 95%% bootstrap interval over problems (%d resamples, seeded); <b>coverage</b> the problems translated of those asked for; "+
		"n the problems scored. Cells are coloured from red (pass 0) to green (1).</p>", caResamples)
	cs := cells(r, schemas.MetricPassRate)
	dirs := map[string]bool{}
	trs := map[string]bool{}
	for _, c := range cs {
		dirs[c.src+"→"+c.tgt] = true
		trs[c.tr+" · "+c.corpus] = true
	}
	dl, tl := slices.Sorted(maps.Keys(dirs)), slices.Sorted(maps.Keys(trs))
	for _, oracle := range []string{"target_gold", "source"} {
		var labels []string
		var est, lo, hi []float64
		p.f("<h3>Oracle: %s</h3><table><tr><th>translator · corpus</th>", oracle)
		for _, d := range dl {
			p.f("<th>%s</th>", esc(d))
		}
		p.f("</tr>")
		for _, t := range tl {
			p.f("<tr><th>%s</th>", esc(t))
			for _, d := range dl {
				var c cell
				for _, x := range cs {
					if x.tr+" · "+x.corpus == t && x.src+"→"+x.tgt == d {
						c = x
					}
				}
				pr, ok := idx[scoreKey{c.tr, c.corpus, c.src, c.tgt, oracle, "all", schemas.MetricPassRate}]
				if !ok {
					p.f("<td></td>")
					continue
				}
				l, h := wilson(int64(math.Round(pr.Value*float64(pr.N))), pr.N)
				labels, est, lo, hi = append(labels, t+" "+d), append(est, pr.Value), append(lo, l), append(hi, h)
				text := fmt.Sprintf("pass %s %s", num(pr.Value), interval(l, h))
				cov, haveCov := covs[c]
				// Over the attempted problems, when that is not all of them.
				if v, n, ok := passAttempted(idx, c, oracle, cov, haveCov); ok && (n != pr.N || v != pr.Value) {
					l, h := wilson(int64(math.Round(v*float64(n))), n)
					text += fmt.Sprintf("<br>pass/attempted %s %s (%d)", num(v), interval(l, h), n)
				}
				if ca, ok := idx[scoreKey{c.tr, c.corpus, c.src, c.tgt, oracle, "all", schemas.MetricCAOverall}]; ok {
					text += "<br>CA " + num(ca.Value)
					if s := cas[scoreKeyCell{c, oracle}]; s != nil {
						if l, h, ok := bootstrapCA(s.tests, s.matched, seedOf(scoreKeyCell{c, oracle})); ok {
							text += " " + interval(l, h)
						}
					}
				}
				text += fmt.Sprintf("<br>n %d", pr.N)
				if haveCov {
					warn := ""
					if !cov.Complete() {
						warn = " class=warn"
					}
					text += fmt.Sprintf("<br><span%s>coverage %d/%d</span>", warn, cov.Translated, cov.Problems)
				}
				for _, k := range []int{1, 5, 10} {
					if s, ok := idx[scoreKey{c.tr, c.corpus, c.src, c.tgt, oracle, "all", schemas.MetricPassAt(k)}]; ok {
						text += fmt.Sprintf("<br>pass@%d %s", k, num(s.Value))
					}
				}
				p.f(`<td class=cc style="background:%s" title="%s">%s</td>`, heat(pr.Value), esc(t+" "+d), text)
			}
			p.f("</tr>")
		}
		p.f("</table>")
		if len(labels) == 0 {
			continue
		}
		// The distribution of CA per problem, one histogram per translator (pooled
		// over its directions).
		perTr := map[string][]float64{}
		for k, s := range cas {
			if k.oracle == oracle {
				perTr[k.c.tr] = append(perTr[k.c.tr], s.perProblemCA...)
			}
		}
		p.f("<div class=plots>%s", Intervals("pass against "+oracle+" with Wilson 95% intervals", labels, est, lo, hi))
		for i, t := range slices.Sorted(maps.Keys(perTr)) {
			if i >= 12 {
				p.f("<p>… and %d more translators.</p>", len(perTr)-i)
				break
			}
			p.f("%s", Histogram("CA per problem, "+t+" ("+oracle+")", perTr[t], 10, 0, 1))
		}
		p.f("</div>")
	}
}

func mbtaSection(p *page, r *Run) {
	idx := scoreIndex(r)
	p.f("<h2>Mutation-based translation analysis</h2>")
	cs := cells(r, schemas.MetricFunnelNonAnomalousMutants)
	funnel := []schemas.Metric{schemas.MetricFunnelNonAnomalousMutants, schemas.MetricFunnelTranslationOutputs,
		schemas.MetricFunnelCompilable, schemas.MetricFunnelTimeouts, schemas.MetricFunnelExceptions,
		schemas.MetricFunnelNonAnomalousTranslations}
	p.f("<h3>Table 1: funnel</h3><table><tr><th>translator</th><th>direction</th>")
	for _, f := range funnel {
		p.f("<th>%s</th>", strings.TrimPrefix(string(f), "funnel_"))
	}
	p.f("<th>MTS</th><th>anomalous</th><th>ρ(MTS, CA)</th></tr>")
	for _, c := range cs {
		p.f("<tr><td>%s</td><td>%s→%s</td>", esc(c.tr), c.src, c.tgt)
		for _, f := range funnel {
			p.f("<td class=n>%s</td>", num(idx[scoreKey{c.tr, c.corpus, c.src, c.tgt, "source", "all", f}].Value))
		}
		mts, ok := idx[scoreKey{c.tr, c.corpus, c.src, c.tgt, "source", "all", schemas.MetricMTSOverall}]
		rho, rok := idx[scoreKey{c.tr, c.corpus, c.src, c.tgt, "source", "all", schemas.MetricCorrSpearmanMTSCA}]
		p.f("<td class=n>%s</td><td class=n>%s</td><td class=n>%s</td></tr>", orDash(mts.Value, ok),
			num(idx[scoreKey{c.tr, c.corpus, c.src, c.tgt, "source", "all", schemas.MetricAnomalousMutants}].Value), orDash(rho.Value, rok))
	}
	p.f("</table>")
	// Table 2: MTS per operator, per translator and direction.
	ops := map[string]bool{}
	for _, s := range r.Scores {
		if op, ok := strings.CutPrefix(string(s.Metric), string(schemas.MetricMTSOpPrefix)); ok {
			ops[op] = true
		}
	}
	ol := slices.Sorted(maps.Keys(ops))
	p.f("<h3>Table 2: MTS per operator</h3><table><tr><th>translator</th><th>direction</th>")
	for _, o := range ol {
		p.f("<th>%s</th>", esc(o))
	}
	p.f("</tr>")
	for _, c := range cs {
		p.f("<tr><td>%s</td><td>%s→%s</td>", esc(c.tr), c.src, c.tgt)
		for _, o := range ol {
			s, ok := idx[scoreKey{c.tr, c.corpus, c.src, c.tgt, "source", "all", schemas.MetricMTSOp(o)}]
			if !ok {
				p.f("<td></td>")
				continue
			}
			p.f(`<td class=n style="background:%s" title="n %d">%s</td>`, heat(s.Value), s.N, num(s.Value))
		}
		p.f("</tr>")
	}
	p.f("</table>")
	// Individual MTS per program and CA per program (from the executions: the
	// original's translation against the source function, test by test).
	type pk struct{ tr, src, tgt, problem string }
	type acc struct{ killed, total int }
	mts := map[pk]*acc{}
	for _, m := range r.Mutants {
		if m.Verdict == "anomalous" {
			continue
		}
		k := pk{m.Translator, m.SrcLang, m.TgtLang, m.ProblemID}
		if mts[k] == nil {
			mts[k] = &acc{}
		}
		mts[k].total++
		if m.Verdict == "killed" {
			mts[k].killed++
		}
	}
	ca := mbtaCA(r)
	byDir := map[string][]Point{}
	mtsVals := map[string][]float64{}
	caVals := map[string][]float64{}
	for k, a := range mts {
		d := k.tr + " " + k.src + "→" + k.tgt
		v := float64(a.killed) / float64(a.total)
		mtsVals[d] = append(mtsVals[d], v)
		if c, ok := ca[k.tr+"|"+k.src+"|"+k.tgt+"|"+k.problem]; ok {
			byDir[d] = append(byDir[d], Point{X: c, Y: v, Label: k.problem})
		}
	}
	for k, c := range ca {
		parts := strings.Split(k, "|")
		d := parts[0] + " " + parts[1] + "→" + parts[2]
		caVals[d] = append(caVals[d], c)
	}
	p.f("<h3>Distributions per program</h3><p>CA per program is the share of tests on which the original's translation returns the source function's value (from the executions table).</p>")
	for _, d := range slices.Sorted(maps.Keys(mtsVals)) {
		p.f("<h4>%s</h4><div class=plots>%s%s", esc(d), Histogram("individual MTS", mtsVals[d], 10, 0, 1),
			Histogram("CA per program", caVals[d], 10, 0, 1))
		// Map order would shuffle the dots (and the page's bytes) from one
		// rendering to the next.
		pts := byDir[d]
		slices.SortFunc(pts, func(a, b Point) int {
			return cmp.Or(cmp.Compare(a.Label, b.Label), cmp.Compare(a.X, b.X), cmp.Compare(a.Y, b.Y))
		})
		xs, ys := make([]float64, len(pts)), make([]float64, len(pts))
		for i, pt := range pts {
			xs[i], ys[i] = pt.X, pt.Y
		}
		rho := "undefined"
		if c := stats.Spearman(xs, ys); !math.IsNaN(c.R) {
			rho = num(c.R)
		}
		p.f("%s</div>", Scatter("MTS against CA, Spearman ρ = "+rho, "CA", "MTS", pts))
	}
}

// interval is a 95% interval as the correctness cells show it, two decimals, quieter
// than the estimate.
func interval(lo, hi float64) string {
	return fmt.Sprintf("<span class=ci>[%.2f, %.2f]</span>", lo, hi)
}

func orDash(v float64, ok bool) string {
	if !ok {
		return "–"
	}
	return num(v)
}

// mbtaCA computes, per translator|src|tgt|problem, the CA of the original's
// translation against the source function from the executions table.
func mbtaCA(r *Run) map[string]float64 {
	type tk struct {
		problem, prog string
		test          int32
	}
	src := map[tk]schemas.ExecutionRow{}
	for _, e := range r.Executions {
		if e.Role == "gold" && e.TestIndex >= 0 {
			src[tk{e.ProblemID, e.Lang, e.TestIndex}] = e
		}
	}
	type acc struct{ tests, matched int }
	accs := map[string]*acc{}
	for _, e := range r.Executions {
		if e.Role != "translation" || e.VariantID != "orig" || e.TestIndex < 0 {
			continue
		}
		// program id tr/<translator>/<src>-<tgt>/orig
		parts := strings.Split(e.ProgramID, "/")
		if len(parts) < 3 {
			continue
		}
		dir := strings.SplitN(parts[len(parts)-2], "-", 2)
		if len(dir) != 2 {
			continue
		}
		g, ok := src[tk{e.ProblemID, dir[0], e.TestIndex}]
		if !ok || g.TestStatus != schemas.StatusOK {
			continue
		}
		k := e.Translator + "|" + dir[0] + "|" + dir[1] + "|" + e.ProblemID
		if accs[k] == nil {
			accs[k] = &acc{}
		}
		accs[k].tests++
		if e.TestStatus == schemas.StatusOK && sameValue(g.Output, e.Output) {
			accs[k].matched++
		}
	}
	out := map[string]float64{}
	for k, a := range accs {
		out[k] = float64(a.matched) / float64(a.tests)
	}
	return out
}

// sameValue compares canonical JSON values, numbers within the default tolerance.
func sameValue(a, b string) bool {
	if a == b {
		return true
	}
	x, e1 := strconv.ParseFloat(a, 64)
	y, e2 := strconv.ParseFloat(b, 64)
	return e1 == nil && e2 == nil && values.FloatsClose(x, y, values.DefaultTolerance)
}

func efficiency(p *page, r *Run) {
	idx := scoreIndex(r)
	p.f("<h2>Efficiency (TRACE)</h2>")
	cs := cells(r, schemas.MetricBeyondTimePass)
	p.f("<h3>Beyond per translator and direction (subset all; B^P with 95%% bootstrap intervals)</h3><table><tr><th>translator</th><th>direction</th><th>tasks</th><th>Pass (Wilson 95%%)</th><th>B_T</th><th>B_M</th><th>B^P_T</th><th>B^P_M</th></tr>")
	var pts []Point
	for _, c := range cs {
		g := func(m schemas.Metric) (schemas.ScoreRow, bool) {
			s, ok := idx[scoreKey{c.tr, c.corpus, c.src, c.tgt, "target_gold", "all", m}]
			return s, ok
		}
		ci := func(m schemas.Metric) string {
			s, ok := g(m)
			if !ok {
				return "–"
			}
			lo, lok := g(m + schemas.SuffixCILo)
			hi, hok := g(m + schemas.SuffixCIHi)
			if lok && hok {
				return fmt.Sprintf("%s [%s, %s]", num(s.Value), num(lo.Value), num(hi.Value))
			}
			return num(s.Value)
		}
		tasks, _ := g(schemas.MetricTasks)
		pass, pok := g(schemas.MetricPassRate)
		passS := orDash(pass.Value, pok)
		if pok && pass.N > 0 {
			l, h := wilson(int64(math.Round(pass.Value*float64(pass.N))), pass.N)
			passS += fmt.Sprintf(" [%.2f, %.2f]", l, h)
		}
		bt, _ := g(schemas.MetricBeyondTime)
		bm, _ := g(schemas.MetricBeyondMem)
		p.f("<tr><td>%s</td><td>%s→%s</td><td class=n>%s</td><td class=n>%s</td><td class=n>%s</td><td class=n>%s</td><td>%s</td><td>%s</td></tr>",
			esc(c.tr), c.src, c.tgt, num(tasks.Value), passS, num(bt.Value), num(bm.Value), ci(schemas.MetricBeyondTimePass), ci(schemas.MetricBeyondMemPass))
		if bp, ok := g(schemas.MetricBeyondTimePass); ok && pok && c.src == "*" {
			pts = append(pts, Point{X: pass.Value, Y: bp.Value, Label: c.tr})
		}
	}
	p.f("</table>")
	for _, l := range EfficiencyFloorLines(r.Scores, r.Profiles) { // mode, reference set, floor, no-signal tasks
		p.f("<p>%s</p>", esc(l))
	}
	var t15 strings.Builder // the B^P order against Table 15, and Table 14 (report/table15)
	if err := table15.PrintComparison(&t15, r.Scores, r.Profiles, 0); err == nil && t15.Len() > 0 {
		p.f("<h3>Against TRACE's Table 15 and Table 14</h3><pre>%s</pre>", esc(strings.TrimSpace(t15.String())))
	}
	var cvs []float64
	for _, pr := range r.Profiles {
		if pr.Repetitions > 0 && pr.CPUCV > 0 {
			cvs = append(cvs, pr.CPUCV)
		}
	}
	maxCV := 0.0
	for _, v := range cvs {
		maxCV = math.Max(maxCV, v)
	}
	p.f("<div class=plots>%s%s</div>", Scatter("Pass against B^P_T (pooled directions), one dot per translator", "Pass", "B^P_T", pts),
		Histogram("CPU CV of the profiled programs", cvs, 20, 0, math.Max(maxCV, 0.01)))
	p.f("<h3>Noise probes (fixed work on the profiling cores)</h3><table><tr><th>core</th><th>at</th><th>compute ms/chunk</th><th>CV</th><th>cache walk ms/chunk</th><th>CV</th></tr>")
	ns := append([]schemas.NoiseRow(nil), r.Noise...)
	sort.Slice(ns, func(i, j int) bool { return ns[i].At < ns[j].At })
	for i, n := range ns {
		if i >= 200 {
			p.f("<tr><td colspan=6>… %d more</td></tr>", len(ns)-i)
			break
		}
		p.f("<tr><td class=n>%d</td><td>%s</td><td class=n>%s</td><td class=n>%.1f%%</td><td class=n>%s</td><td class=n>%.1f%%</td></tr>",
			n.Core, esc(n.At), num(n.ChunkMeanMs), 100*n.CV, num(n.CacheChunkMeanMs), 100*n.CacheCV)
	}
	p.f("</table>")
}

func fidelitySection(p *page, r *Run) {
	type pair struct{ a, b string }
	type acc struct {
		tests, agree int
		causes       map[string]int
	}
	m := map[pair]*acc{}
	for _, f := range r.Fidelity {
		k := pair{f.LangA, f.LangB}
		if m[k] == nil {
			m[k] = &acc{causes: map[string]int{}}
		}
		m[k].tests++
		if f.Agree {
			m[k].agree++
		} else {
			m[k].causes[f.Cause]++
		}
	}
	keys := make([]pair, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].a+keys[i].b < keys[j].a+keys[j].b })
	p.f("<h2>Harness fidelity</h2><p>Agreement of the gold functions of two languages, test by test, and the causes of disagreements.</p>")
	var labels []string
	var est, lo, hi []float64
	for _, k := range keys {
		a := m[k]
		l, h := wilson(int64(a.agree), int64(a.tests))
		labels = append(labels, k.a+"–"+k.b)
		est, lo, hi = append(est, float64(a.agree)/float64(a.tests)), append(lo, l), append(hi, h)
	}
	p.f("%s", Intervals("agreement of the golds per language pair, Wilson 95% intervals", labels, est, lo, hi))
	p.f("<table><tr><th>pair</th><th>tests</th><th>agree</th><th>causes</th></tr>")
	for _, k := range keys {
		a := m[k]
		var cs []string
		for _, c := range slices.Sorted(maps.Keys(a.causes)) {
			cs = append(cs, fmt.Sprintf("%s %d", c, a.causes[c]))
		}
		rate := float64(a.agree) / float64(a.tests)
		p.f(`<tr><td>%s–%s</td><td class=n>%d</td><td class=n style="background:%s">%.1f%%</td><td>%s</td></tr>`, k.a, k.b, a.tests, heat(rate), 100*rate, esc(strings.Join(cs, ", ")))
	}
	p.f("</table>")
}

func generic(p *page, g Generic) {
	p.f("<h3>%s</h3><p>%d rows", esc(g.Name), g.Total)
	if g.Total > len(g.Rows) {
		p.f(" (the first %d shown)", len(g.Rows))
	}
	p.f(".</p><table><tr>")
	for _, c := range g.Columns {
		p.f("<th>%s</th>", esc(c))
	}
	p.f("</tr>")
	for _, row := range g.Rows {
		p.f("<tr>")
		for _, c := range row {
			p.f("<td>%s</td>", esc(clip.String(c, 200)))
		}
		p.f("</tr>")
	}
	p.f("</table>")
}

// failure is one translation (sample 0) that fails a test against the failures'
// oracle.
type failure struct {
	tr, corpus, problem, src, tgt string
	kind                          string
	first                         schemas.ResultRow
}

// failureOracle is the oracle the failures are listed against: the target gold when
// the run has one, else the source function.
func failureOracle(r *Run) string {
	for _, x := range r.Results {
		if x.Oracle == "target_gold" {
			return "target_gold"
		}
	}
	return "source"
}

// failures are the sample-0 translations that fail a test, ordered by what they
// teach (wrong answers, then runtime errors, timeouts, other errors, compile
// errors), then by translator, direction and problem; untranslated problems are
// counted apart (untranslated) and not listed.
func failures(r *Run) []failure {
	fs, _ := failuresAndUntranslated(r)
	return fs
}

func failuresAndUntranslated(r *Run) ([]failure, int) {
	oracle := failureOracle(r)
	var out []failure
	untranslated := 0
	for k, o := range outcomes(r) {
		if k.oracle != oracle {
			continue
		}
		switch kind := o.kind(); kind {
		case OutcomePass, OutcomeNoOracle:
		case OutcomeUntranslated:
			untranslated++
		default:
			out = append(out, failure{k.tr, k.corpus, k.problem, k.src, k.tgt, kind, o.first})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if outcomeRank[a.kind] != outcomeRank[b.kind] {
			return outcomeRank[a.kind] < outcomeRank[b.kind]
		}
		return a.tr+"\x00"+a.src+a.tgt+a.problem+a.corpus < b.tr+"\x00"+b.src+b.tgt+b.problem+b.corpus
	})
	return out, untranslated
}

// Anchor is the id of a failing translation's entry.
func Anchor(tr, problem, src, tgt string) string {
	s := "f-" + tr + "-" + src + "-" + tgt + "-" + problem
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, s)
}

func failuresSection(p *page, r *Run) {
	fs, untranslated := failuresAndUntranslated(r)
	probs := map[string]schemas.Problem{}
	for _, pr := range r.Problems {
		if _, ok := probs[pr.ID]; !ok || pr.Corpus == "transcoder" {
			probs[pr.ID] = pr
		}
	}
	trs := map[string]schemas.TranslationRow{}
	for _, t := range r.Translations {
		if t.Sample == 0 && t.VariantID == "orig" || t.Sample == 0 && t.VariantID == "" {
			trs[t.Translator+"|"+t.ProblemID+"|"+t.SrcLang+"|"+t.TgtLang] = t
		}
	}
	oracle := failureOracle(r)
	byKind := map[string]int{}
	for _, f := range fs {
		byKind[f.kind]++
	}
	p.f("<h2>Failing translations</h2><p>%d translations (sample 0) fail a test against the %s oracle, wrong answers first, then runtime errors, timeouts, other errors and compile errors", len(fs), oracle)
	if len(fs) > MaxFailures {
		p.f("; the first %d are shown", MaxFailures)
	}
	p.f(". Problems without a translation to run (untranslated): %d, counted, not listed. Each failure has an anchor: the source, the translation, the first failing test and a diff against the target gold.</p>", untranslated)
	var kl []string
	var kc [][]float64
	for _, k := range []string{OutcomeWrongAnswer, OutcomeRuntime, OutcomeTimeout, OutcomeOther, OutcomeCompile} {
		kl, kc = append(kl, k), append(kc, []float64{float64(byKind[k])})
	}
	kl, kc = append(kl, OutcomeUntranslated), append(kc, []float64{float64(untranslated)})
	vals := make([]float64, len(kc))
	for i, c := range kc {
		vals[i] = c[0]
	}
	p.f("%s", Bars("failing translations by kind ("+oracle+")", kl, vals, slices.Max(vals)))
	for i, f := range fs {
		if i >= MaxFailures {
			break
		}
		pr := probs[f.problem]
		tr := trs[f.tr+"|"+f.problem+"|"+f.src+"|"+f.tgt]
		srcFn, _ := pr.Function(f.src)
		gold, _ := pr.Function(f.tgt)
		args := ""
		for _, t := range pr.Tests {
			if t.Index == f.first.TestIndex {
				args = t.Args
			}
		}
		what := strings.ReplaceAll(f.kind, "_", " ")
		if f.kind == OutcomeOther {
			what = string(f.first.Status)
		}
		p.f(`<details id="%s" data-kind="%s"><summary>%s · %s→%s · %s: test %d %s</summary>`, Anchor(f.tr, f.problem, f.src, f.tgt),
			f.kind, esc(f.tr), f.src, f.tgt, esc(f.problem), f.first.TestIndex, esc(what))
		p.f("<p>Inputs <code>%s</code>, expected <code>%s</code>, actual <code>%s</code> (program %s).</p>",
			esc(clip.String(args, 500)), esc(clip.String(f.first.Expected, 500)), esc(clip.String(f.first.Actual, 500)), esc(string(f.first.ProgramStatus)))
		p.f("<div class=plots><div><b>source (%s)</b><pre>%s</pre></div><div><b>translation</b><pre>%s</pre></div></div>",
			f.src, esc(srcFn.Code), esc(tr.Code))
		p.f("<b>diff: target gold → translation</b><pre>%s</pre></details>\n", Diff(gold.Code, tr.Code))
	}
}

// Diff is a line diff (longest common subsequence) of a and b as escaped HTML, lines
// only in a marked del and only in b marked ins. Functions are short, so the
// quadratic table is small; no diff library is among the project's modules.
func Diff(a, b string) string {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	if len(x)*len(y) > 250000 {
		return esc("(too long to diff)")
	}
	l := lcs.Table(x, y)
	var s strings.Builder
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			s.WriteString("  " + esc(x[i]) + "\n")
			i++
			j++
		case j < len(y) && (i == len(x) || l[i][j+1] >= l[i+1][j]):
			s.WriteString(`<span class=ins>+ ` + esc(y[j]) + "</span>\n")
			j++
		default:
			s.WriteString(`<span class=del>- ` + esc(x[i]) + "</span>\n")
			i++
		}
	}
	return s.String()
}
