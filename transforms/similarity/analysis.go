package similarity

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"transmute/schemas"
	"transmute/transforms/stats"
)

// Metric names a similarity metric of SimilarityRow.
type Metric string

const (
	MetricBLEU        Metric = "bleu"
	MetricCrystalBLEU Metric = "crystal_bleu"
	MetricCodeBLEU    Metric = "codebleu"
	MetricSTS         Metric = "sts"
	MetricTRS         Metric = "trs"
	MetricGRS         Metric = "grs"
	MetricRUBY        Metric = "ruby"
)

// Metrics in report order: RUBY's three levels, RUBY, BLEU, then the newer two.
var Metrics = []Metric{MetricSTS, MetricTRS, MetricGRS, MetricRUBY, MetricBLEU, MetricCodeBLEU, MetricCrystalBLEU}

// Value of metric m in row r.
func (m Metric) Value(r schemas.SimilarityRow) float64 {
	switch m {
	case MetricBLEU:
		return r.BLEU
	case MetricCrystalBLEU:
		return r.CrystalBLEU
	case MetricCodeBLEU:
		return r.CodeBLEU
	case MetricSTS:
		return r.STS
	case MetricTRS:
		return r.TRS
	case MetricGRS:
		return r.GRS
	case MetricRUBY:
		return r.RUBY
	}
	return math.NaN()
}

// Targets: the execution outcome a metric is correlated with.
type Target string

const (
	TargetCA   Target = "ca"
	TargetPass Target = "pass"
)

// Statistics.
const (
	StatSpearman        = "spearman"
	StatKendall         = "kendall_tau_b"
	StatPearson         = "pearson"
	StatCounterexamples = "counterexamples"
	StatOrderedPairs    = "ordered_pairs"
	StatRubyMinusBLEU   = "ruby_minus_bleu_spearman"
	// StatLeadPrefix + runner-up metric: Spearman(best metric, CA) minus
	// Spearman(runner-up, CA), on a row whose Metric is the best one.
	StatLeadPrefix = "spearman_lead_over_"
)

// Scopes.
const (
	ScopeAll        = "all"
	ScopeDirection  = "direction"
	ScopeTranslator = "translator"
	ScopeModel      = "model"
	ScopeSystem     = "system"
	// ScopeNonEmpty: every direction, translations with at least one token (a
	// check that empty answers, trivially dissimilar and failing, do not make
	// the correlations).
	ScopeNonEmpty = "nonempty"
)

// AnalysisOptions: bootstrap resamples (0: no intervals) and its seed.
type AnalysisOptions struct {
	Resamples int
	Seed      uint64
}

func target(t Target, r schemas.SimilarityRow) float64 {
	if t == TargetPass {
		if r.Pass {
			return 1
		}
		return 0
	}
	return r.CA
}

// usable: rows of a translation that were scored and joined to an execution
// result; rows without a translation (StatusNoTranslation) and errors are left out.
func usable(rows []schemas.SimilarityRow) []schemas.SimilarityRow {
	var out []schemas.SimilarityRow
	for _, r := range rows {
		if Usable(r) {
			out = append(out, r)
		}
	}
	return out
}

// pairs returns the (metric, target) values of rows where the metric is defined.
func pairs(rows []schemas.SimilarityRow, m Metric, t Target) (x, y []float64) {
	for _, r := range rows {
		v := m.Value(r)
		if math.IsNaN(v) {
			continue
		}
		x = append(x, v)
		y = append(y, target(t, r))
	}
	return x, y
}

type corr struct{ spearman, kendall, pearson float64 }

func correlations(x, y []float64) corr {
	return corr{stats.Spearman(x, y).R, stats.KendallTauB(x, y), stats.Pearson(x, y).R}
}

// bootstrap resamples the (x, y) pairs with replacement and returns the 2.5th and
// 97.5th percentiles of each correlation (NaN resamples left out).
func bootstrap(x, y []float64, b int, seed uint64) (lo, hi corr) {
	nan := math.NaN()
	lo, hi = corr{nan, nan, nan}, corr{nan, nan, nan}
	if b <= 0 || len(x) < 3 {
		return lo, hi
	}
	rng := rand.New(rand.NewPCG(seed, uint64(len(x))))
	var s, k, p []float64
	bx, by := make([]float64, len(x)), make([]float64, len(x))
	for range b {
		for i := range bx {
			j := rng.IntN(len(x))
			bx[i], by[i] = x[j], y[j]
		}
		c := correlations(bx, by)
		s, k, p = appendNum(s, c.spearman), appendNum(k, c.kendall), appendNum(p, c.pearson)
	}
	q := func(v []float64, a float64) float64 {
		if len(v) == 0 {
			return nan
		}
		return stats.Quantile(v, a)
	}
	return corr{q(s, 0.025), q(k, 0.025), q(p, 0.025)}, corr{q(s, 0.975), q(k, 0.975), q(p, 0.975)}
}

func appendNum(xs []float64, v float64) []float64 {
	if math.IsNaN(v) {
		return xs
	}
	return append(xs, v)
}

// Group is one scope of the analysis: the translations it correlates over, and
// whether it gets bootstrap intervals of every correlation (Intervals) and the
// two paired differences (Diffs). Fields are exported for the pipeline's coder.
type Group struct {
	Scope, Translator, Src, Tgt string
	Intervals                   bool // bootstrap every correlation
	Diffs                       bool // bootstrap RUBY - BLEU and the best metric's lead
}

// GroupJob is a group's work: its place in the analysis (Index, which seeds its
// bootstraps) and its usable rows, in SortRows order.
type GroupJob struct {
	Index int
	Group Group
	Rows  []schemas.SimilarityRow
}

// Plan splits the usable rows of all (in the order given) into the analysis'
// groups: every translation, each direction, the non-empty translations, each
// model, each translator and direction; each group's rows keep all's order.
func Plan(all []schemas.SimilarityRow) []GroupJob {
	rows := usable(all)
	var groups []GroupJob
	add := func(g Group, rs []schemas.SimilarityRow) {
		groups = append(groups, GroupJob{Index: len(groups), Group: g, Rows: rs})
	}
	add(Group{Scope: ScopeAll, Src: "*", Tgt: "*", Intervals: true, Diffs: true}, rows)
	byDir := map[[2]string][]schemas.SimilarityRow{}
	byTr := map[[3]string][]schemas.SimilarityRow{}
	byModel := map[string][]schemas.SimilarityRow{}
	var nonEmpty []schemas.SimilarityRow
	for _, r := range rows {
		if r.HypTokens > 0 {
			nonEmpty = append(nonEmpty, r)
		}
		byDir[[2]string{r.SrcLang, r.TgtLang}] = append(byDir[[2]string{r.SrcLang, r.TgtLang}], r)
		byTr[[3]string{r.Translator, r.SrcLang, r.TgtLang}] = append(byTr[[3]string{r.Translator, r.SrcLang, r.TgtLang}], r)
		byModel[r.Translator] = append(byModel[r.Translator], r)
	}
	for _, d := range sortedKeys(byDir) {
		add(Group{Scope: ScopeDirection, Src: d[0], Tgt: d[1], Intervals: true, Diffs: true}, byDir[d])
	}
	// The check without empty translations bootstraps only the differences: its
	// size is all translations', and every correlation's interval would add half
	// again to the analysis' time.
	add(Group{Scope: ScopeNonEmpty, Src: "*", Tgt: "*", Diffs: true}, nonEmpty)
	for _, m := range sortedKeys(byModel) {
		add(Group{Scope: ScopeModel, Translator: m, Src: "*", Tgt: "*"}, byModel[m])
	}
	for _, k := range sortedKeys(byTr) {
		add(Group{Scope: ScopeTranslator, Translator: k[0], Src: k[1], Tgt: k[2]}, byTr[k])
	}
	return groups
}

// Analyze computes the correlation and count rows of the analysis: per scope, each
// metric against CA and pass with Spearman, Kendall tau-b and Pearson (bootstrap
// intervals over all translations and per direction; point values per translator
// and direction, and per model), the system-level rank correlations across
// translators, and the counterexample counts of Tran et al. (RUBY). It is
// AnalyzeGroup of every group of Plan, then Overall.
func Analyze(run string, all []schemas.SimilarityRow, o AnalysisOptions) []schemas.SimilarityStatRow {
	var out []schemas.SimilarityStatRow
	for _, j := range Plan(all) {
		out = append(out, AnalyzeGroup(run, j, o)...)
	}
	return append(out, Overall(run, all)...)
}

// AnalyzeGroup computes one group's rows: each metric against CA and pass (with
// bootstrap intervals when the group has them), then, for a group with Diffs,
// RUBY against BLEU and the best metric against the runner-up. The bootstraps are
// seeded by the group's index and the metric, so a group gives the same rows
// wherever it is computed.
func AnalyzeGroup(run string, j GroupJob, o AnalysisOptions) []schemas.SimilarityStatRow {
	g := j.Group
	var out []schemas.SimilarityStatRow
	nan := math.NaN()
	for mi, m := range Metrics {
		for ti, t := range []Target{TargetCA, TargetPass} {
			x, y := pairs(j.Rows, m, t)
			c := correlations(x, y)
			lo, hi := corr{nan, nan, nan}, corr{nan, nan, nan}
			if g.Intervals {
				i := (j.Index*len(Metrics)+mi)*2 + ti
				lo, hi = bootstrap(x, y, o.Resamples, o.Seed+uint64(i))
			}
			mk := func(stat string, v, l, h float64) schemas.SimilarityStatRow {
				return schemas.SimilarityStatRow{Run: run, Scope: g.Scope, Translator: g.Translator, SrcLang: g.Src,
					TgtLang: g.Tgt, Metric: string(m), Target: string(t), Statistic: stat, Value: v, Lo: l, Hi: h, N: int64(len(x))}
			}
			out = append(out, mk(StatSpearman, c.spearman, lo.spearman, hi.spearman),
				mk(StatKendall, c.kendall, lo.kendall, hi.kendall), mk(StatPearson, c.pearson, lo.pearson, hi.pearson))
		}
	}
	// RUBY against BLEU, and the best metric against the runner-up, on the same
	// resamples: the intervals of the differences.
	if g.Diffs {
		out = append(out, rubyMinusBLEU(run, g, j.Rows, o))
		if best, second, ok := leaders(out, g); ok {
			out = append(out, lead(run, g, j.Rows, best, second, o, uint64(j.Index)))
		}
	}
	return out
}

// Overall computes the rows over every usable translation at once: the
// counterexample counts and the system-level correlations.
func Overall(run string, all []schemas.SimilarityRow) []schemas.SimilarityStatRow {
	rows := usable(all)
	return append(counterexamples(run, rows), system(run, rows)...)
}

// SlimRow is r with only what the analysis reads (usable, Plan, AnalyzeGroup,
// Overall): the pipeline's analysis stage carries every usable row.
func SlimRow(r schemas.SimilarityRow) schemas.SimilarityRow {
	return schemas.SimilarityRow{Translator: r.Translator, ProblemID: r.ProblemID, SrcLang: r.SrcLang, TgtLang: r.TgtLang,
		Sample: r.Sample, Status: r.Status, BLEU: r.BLEU, CrystalBLEU: r.CrystalBLEU, CodeBLEU: r.CodeBLEU, STS: r.STS,
		TRS: r.TRS, GRS: r.GRS, RUBY: r.RUBY, HypTokens: r.HypTokens, CA: r.CA, Pass: r.Pass, Tests: r.Tests}
}

// RowsAcc keeps the usable rows of a run, slimmed, for the analysis: its
// correlations, bootstraps and counterexamples need every row, as the efficiency
// job's score accumulator keeps every task. Fields are exported for gob.
type RowsAcc struct {
	Rows []schemas.SimilarityRow
}

// Add keeps r if the analysis uses it.
func (a *RowsAcc) Add(r schemas.SimilarityRow) {
	if Usable(r) {
		a.Rows = append(a.Rows, SlimRow(r))
	}
}

// Merge adds o's rows to a.
func (a *RowsAcc) Merge(o *RowsAcc) { a.Rows = append(a.Rows, o.Rows...) }

// Sorted is the rows in SortRows order, whatever the order they were added in.
func (a *RowsAcc) Sorted() []schemas.SimilarityRow {
	rows := append([]schemas.SimilarityRow(nil), a.Rows...)
	SortRows(rows)
	return rows
}

// Usable tells a row the analysis keeps (usable).
func Usable(r schemas.SimilarityRow) bool { return r.Status == StatusOK && r.Tests > 0 }

// rubyMinusBLEU: Spearman(RUBY, CA) - Spearman(BLEU, CA), with a paired bootstrap
// interval (both on the same resampled translations).
func rubyMinusBLEU(run string, g Group, rows []schemas.SimilarityRow, o AnalysisOptions) schemas.SimilarityStatRow {
	var ru, bl, ca []float64
	for _, r := range rows {
		ru, bl, ca = append(ru, r.RUBY), append(bl, r.BLEU), append(ca, r.CA)
	}
	d := stats.Spearman(ru, ca).R - stats.Spearman(bl, ca).R
	row := schemas.SimilarityStatRow{Run: run, Scope: g.Scope, SrcLang: g.Src, TgtLang: g.Tgt, Metric: string(MetricRUBY),
		Target: string(TargetCA), Statistic: StatRubyMinusBLEU, Value: d, Lo: math.NaN(), Hi: math.NaN(), N: int64(len(ca))}
	if o.Resamples <= 0 || len(ca) < 3 {
		return row
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x72756279))
	n := len(ca)
	a, b, c := make([]float64, n), make([]float64, n), make([]float64, n)
	var ds []float64
	for range o.Resamples {
		for i := range n {
			j := rng.IntN(n)
			a[i], b[i], c[i] = ru[j], bl[j], ca[j]
		}
		ds = appendNum(ds, stats.Spearman(a, c).R-stats.Spearman(b, c).R)
	}
	if len(ds) > 0 {
		row.Lo, row.Hi = stats.Quantile(ds, 0.025), stats.Quantile(ds, 0.975)
	}
	return row
}

// definedOnAll: the metrics defined on every translation, among which the best is
// chosen (TRS and GRS cover only the translations that parse or build graphs).
func definedOnAll(m Metric) bool { return m != MetricTRS && m != MetricGRS }

// leaders are the metrics defined on all translations with the highest and
// second highest Spearman with CA in group g, from the rows computed so far.
func leaders(st []schemas.SimilarityStatRow, g Group) (best, second Metric, ok bool) {
	v := map[Metric]float64{}
	for _, r := range st {
		if r.Scope == g.Scope && r.Translator == g.Translator && r.SrcLang == g.Src && r.TgtLang == g.Tgt &&
			r.Target == string(TargetCA) && r.Statistic == StatSpearman && !math.IsNaN(r.Value) && definedOnAll(Metric(r.Metric)) {
			v[Metric(r.Metric)] = r.Value
		}
	}
	var ms []Metric
	for _, m := range Metrics {
		if _, ok := v[m]; ok {
			ms = append(ms, m)
		}
	}
	if len(ms) < 2 {
		return "", "", false
	}
	sort.SliceStable(ms, func(i, j int) bool { return v[ms[i]] > v[ms[j]] })
	return ms[0], ms[1], true
}

// lead: Spearman(best, CA) - Spearman(second, CA) with a paired bootstrap interval;
// an interval above 0 says the best metric tracks CA better than the runner-up
// (and the others trail the runner-up in point estimates).
func lead(run string, g Group, rows []schemas.SimilarityRow, best, second Metric, o AnalysisOptions, seed uint64) schemas.SimilarityStatRow {
	var a, b, ca []float64
	for _, r := range rows {
		a, b, ca = append(a, best.Value(r)), append(b, second.Value(r)), append(ca, r.CA)
	}
	row := schemas.SimilarityStatRow{Run: run, Scope: g.Scope, SrcLang: g.Src, TgtLang: g.Tgt, Metric: string(best),
		Target: string(TargetCA), Statistic: StatLeadPrefix + string(second),
		Value: stats.Spearman(a, ca).R - stats.Spearman(b, ca).R, Lo: math.NaN(), Hi: math.NaN(), N: int64(len(ca))}
	if o.Resamples <= 0 || len(ca) < 3 {
		return row
	}
	rng := rand.New(rand.NewPCG(o.Seed+seed, 0x6c656164))
	n := len(ca)
	x, y, z := make([]float64, n), make([]float64, n), make([]float64, n)
	var ds []float64
	for range o.Resamples {
		for i := range n {
			j := rng.IntN(n)
			x[i], y[i], z[i] = a[j], b[j], ca[j]
		}
		ds = appendNum(ds, stats.Spearman(x, z).R-stats.Spearman(y, z).R)
	}
	if len(ds) > 0 {
		row.Lo, row.Hi = stats.Quantile(ds, 0.025), stats.Quantile(ds, 0.975)
	}
	return row
}

// counterexamples counts, per direction and overall, the pairs of translations of
// the same problem (by different translators) that CA orders strictly and the
// metric orders the other way: RUBY's counterexamples to "a higher score means
// a better translation".
func counterexamples(run string, rows []schemas.SimilarityRow) []schemas.SimilarityStatRow {
	type key struct{ problem, src, tgt string }
	byTask := map[key][]schemas.SimilarityRow{}
	for _, r := range rows {
		byTask[key{r.ProblemID, r.SrcLang, r.TgtLang}] = append(byTask[key{r.ProblemID, r.SrcLang, r.TgtLang}], r)
	}
	var out []schemas.SimilarityStatRow
	for _, m := range Metrics {
		counts := map[[2]string][2]int64{} // direction -> (counterexamples, ordered pairs)
		for k, rs := range byTask {
			d := [2]string{k.src, k.tgt}
			c := counts[d]
			for i := range rs {
				for j := i + 1; j < len(rs); j++ {
					if rs[i].CA == rs[j].CA {
						continue
					}
					vi, vj := m.Value(rs[i]), m.Value(rs[j])
					if math.IsNaN(vi) || math.IsNaN(vj) {
						continue
					}
					c[1]++
					if (rs[i].CA > rs[j].CA && vi < vj) || (rs[i].CA < rs[j].CA && vi > vj) {
						c[0]++
					}
				}
			}
			counts[d] = c
		}
		var tot [2]int64
		for _, d := range sortedKeys(counts) {
			c := counts[d]
			tot[0] += c[0]
			tot[1] += c[1]
			out = append(out, countRows(run, ScopeDirection, d[0], d[1], m, c)...)
		}
		out = append(out, countRows(run, ScopeAll, "*", "*", m, tot)...)
	}
	return out
}

func countRows(run, scope, src, tgt string, m Metric, c [2]int64) []schemas.SimilarityStatRow {
	nan := math.NaN()
	return []schemas.SimilarityStatRow{
		{Run: run, Scope: scope, SrcLang: src, TgtLang: tgt, Metric: string(m), Target: string(TargetCA),
			Statistic: StatCounterexamples, Value: float64(c[0]), Lo: nan, Hi: nan, N: c[1]},
		{Run: run, Scope: scope, SrcLang: src, TgtLang: tgt, Metric: string(m), Target: string(TargetCA),
			Statistic: StatOrderedPairs, Value: float64(c[1]), Lo: nan, Hi: nan, N: c[1]}}
}

// system correlates, per direction and over all directions, each translator's mean
// metric with its pass rate (and mean CA), across translators: Spearman and
// Kendall tau-b (RUBY's Cond_2, comparing models).
func system(run string, rows []schemas.SimilarityRow) []schemas.SimilarityStatRow {
	type agg struct {
		sum      map[Metric]float64
		n        map[Metric]int
		pass, ca float64
		cnt      int
	}
	var out []schemas.SimilarityStatRow
	scopes := map[[2]string]map[string]*agg{}
	add := func(d [2]string, r schemas.SimilarityRow) {
		if scopes[d] == nil {
			scopes[d] = map[string]*agg{}
		}
		a := scopes[d][r.Translator]
		if a == nil {
			a = &agg{sum: map[Metric]float64{}, n: map[Metric]int{}}
			scopes[d][r.Translator] = a
		}
		for _, m := range Metrics {
			if v := m.Value(r); !math.IsNaN(v) {
				a.sum[m] += v
				a.n[m]++
			}
		}
		a.pass += target(TargetPass, r)
		a.ca += r.CA
		a.cnt++
	}
	for _, r := range rows {
		add([2]string{r.SrcLang, r.TgtLang}, r)
		add([2]string{"*", "*"}, r)
	}
	nan := math.NaN()
	for _, d := range sortedKeys(scopes) {
		trs := sortedKeys(scopes[d])
		for _, m := range Metrics {
			for _, t := range []Target{TargetPass, TargetCA} {
				var x, y []float64
				for _, tr := range trs {
					a := scopes[d][tr]
					if a.n[m] == 0 {
						continue
					}
					x = append(x, a.sum[m]/float64(a.n[m]))
					if t == TargetPass {
						y = append(y, a.pass/float64(a.cnt))
					} else {
						y = append(y, a.ca/float64(a.cnt))
					}
				}
				for _, s := range []struct {
					name string
					v    float64
				}{{StatSpearman, stats.Spearman(x, y).R}, {StatKendall, stats.KendallTauB(x, y)}} {
					out = append(out, schemas.SimilarityStatRow{Run: run, Scope: ScopeSystem, SrcLang: d[0], TgtLang: d[1],
						Metric: string(m), Target: string(t), Statistic: s.name, Value: s.v, Lo: nan, Hi: nan, N: int64(len(x))})
				}
			}
		}
	}
	return out
}

func sortedKeys[K comparable, V any](m map[K]V) []K {
	ks := make([]K, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return fmt.Sprint(ks[i]) < fmt.Sprint(ks[j]) })
	return ks
}

// Paper's Table II (Spearman of STS, TRS, GRS with human semantic scores) and its
// RUBY and BLEU correlations (section VI.B and IV.A), per model.
var paperRows = []struct {
	model                     string
	sts, trs, grs, ruby, bleu float64
}{
	{"mppSMT", 0.549, 0.820, 0.910, 0.815, 0.523},
	{"lpSMT", 0.533, 0.786, 0.823, 0.747, 0.570},
	{"GNMT", 0.692, 0.734, 0.927, 0.764, 0.658},
}

// Summary prints the analysis: RUBY's Table II layout with the paper's rows and
// ours (Spearman with CA), the best metric per direction and overall, RUBY against
// BLEU, RUBY's levels and GRS's search, counterexamples and system-level ranks.
func Summary(w io.Writer, rows []schemas.SimilarityRow, st []schemas.SimilarityStatRow) {
	type k struct{ scope, tr, src, tgt, metric, target, stat string }
	idx := map[k]schemas.SimilarityStatRow{}
	for _, r := range st {
		idx[k{r.Scope, r.Translator, r.SrcLang, r.TgtLang, r.Metric, r.Target, r.Statistic}] = r
	}
	get := func(scope, tr, src, tgt string, m Metric, t Target, stat string) (schemas.SimilarityStatRow, bool) {
		r, ok := idx[k{scope, tr, src, tgt, string(m), string(t), stat}]
		return r, ok
	}
	use := usable(rows)
	var none, errs, empty int
	for _, r := range rows {
		switch {
		case r.Status == StatusNoTranslation:
			none++
		case r.Status == StatusError:
			errs++
		case r.HypTokens == 0:
			empty++
		}
	}
	fmt.Fprintf(w, "similarity: %d rows: %d without a translation and %d errors (both left out of the statistics), "+
		"%d translations scored (%d of them empty: kept, they are the translators' output); %d of those joined to execution results and analysed\n",
		len(rows), none, errs, len(rows)-none-errs, empty, len(use))
	fmt.Fprintln(w, "\nTable II layout (RUBY): correlation of each metric with semantic correctness.")
	fmt.Fprintln(w, "Paper: Spearman with human semantic scores (375 Java->C# methods per model).")
	fmt.Fprintln(w, "Ours: Spearman with CA (execution, target gold as oracle), per model over its translations.")
	hdr := fmt.Sprintf("%-30s", "model")
	for _, m := range Metrics {
		hdr += fmt.Sprintf(" %8s", strings.ToUpper(string(m)))
	}
	fmt.Fprintln(w, hdr)
	for _, p := range paperRows {
		fmt.Fprintf(w, "%-30s %8.3f %8.3f %8.3f %8.3f %8.3f %8s %8s\n", "paper: "+p.model, p.sts, p.trs, p.grs, p.ruby, p.bleu, "-", "-")
	}
	models := map[string]bool{}
	for _, r := range use {
		models[r.Translator] = true
	}
	line := func(label, scope, tr, src, tgt string) {
		s := fmt.Sprintf("%-30s", label)
		for _, m := range Metrics {
			if r, ok := get(scope, tr, src, tgt, m, TargetCA, StatSpearman); ok && !math.IsNaN(r.Value) {
				s += fmt.Sprintf(" %8.3f", r.Value)
			} else {
				s += fmt.Sprintf(" %8s", "-")
			}
		}
		fmt.Fprintln(w, s)
	}
	for _, m := range sortedKeys(models) {
		line(shortName(m), ScopeModel, m, "*", "*")
	}
	line("all translations", ScopeAll, "", "*", "*")

	fmt.Fprintln(w, "\nPer direction and overall: Spearman with CA [bootstrap 95% interval], n; best metric marked *.")
	var dirs [][2]string
	seen := map[[2]string]bool{}
	for _, r := range use {
		d := [2]string{r.SrcLang, r.TgtLang}
		if !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	sort.Slice(dirs, func(i, j int) bool { return dirs[i][0]+dirs[i][1] < dirs[j][0]+dirs[j][1] })
	dirs = append(dirs, [2]string{"*", "*"})
	type block struct{ label, scope, src, tgt string }
	var blocks []block
	for _, d := range dirs {
		if d[0] == "*" {
			blocks = append(blocks, block{"all directions", ScopeAll, "*", "*"})
		} else {
			blocks = append(blocks, block{d[0] + "->" + d[1], ScopeDirection, d[0], d[1]})
		}
	}
	blocks = append(blocks, block{"all directions, non-empty translations only (check; intervals of the differences only)", ScopeNonEmpty, "*", "*"})
	type answer struct {
		label, best, second string
		lead                schemas.SimilarityStatRow
		rb                  schemas.SimilarityStatRow
		hasLead, hasRB      bool
	}
	var answers []answer
	for _, b := range blocks {
		a := answer{label: b.label}
		if b.scope == ScopeNonEmpty {
			a.label = "all directions, non-empty only"
		}
		for _, r := range st {
			if r.Scope == b.scope && r.SrcLang == b.src && r.TgtLang == b.tgt && strings.HasPrefix(r.Statistic, StatLeadPrefix) {
				a.best, a.second, a.lead, a.hasLead = r.Metric, strings.TrimPrefix(r.Statistic, StatLeadPrefix), r, true
			}
		}
		a.rb, a.hasRB = get(b.scope, "", b.src, b.tgt, MetricRUBY, TargetCA, StatRubyMinusBLEU)
		fmt.Fprintf(w, "%s:\n", b.label)
		for _, m := range Metrics {
			r, ok := get(b.scope, "", b.src, b.tgt, m, TargetCA, StatSpearman)
			if !ok {
				continue
			}
			kt, _ := get(b.scope, "", b.src, b.tgt, m, TargetCA, StatKendall)
			pe, _ := get(b.scope, "", b.src, b.tgt, m, TargetCA, StatPearson)
			ps, _ := get(b.scope, "", b.src, b.tgt, m, TargetPass, StatSpearman)
			mark := " "
			if string(m) == a.best {
				mark = "*"
			}
			if b.scope == ScopeNonEmpty {
				fmt.Fprintf(w, "  %s%-13s rho %6.3f  tau_b %6.3f  r %6.3f  rho(pass) %6.3f  n %d\n",
					mark, m, r.Value, kt.Value, pe.Value, ps.Value, r.N)
				continue
			}
			fmt.Fprintf(w, "  %s%-13s rho %6.3f [%6.3f,%6.3f]  tau_b %6.3f [%6.3f,%6.3f]  r %6.3f [%6.3f,%6.3f]  rho(pass) %6.3f  n %d\n",
				mark, m, r.Value, r.Lo, r.Hi, kt.Value, kt.Lo, kt.Hi, pe.Value, pe.Lo, pe.Hi, ps.Value, r.N)
		}
		if a.hasRB {
			fmt.Fprintf(w, "  RUBY - BLEU (Spearman with CA): %+.3f [%+.3f,%+.3f]\n", a.rb.Value, a.rb.Lo, a.rb.Hi)
		}
		if a.hasLead {
			fmt.Fprintf(w, "  best %s - runner-up %s: %+.3f [%+.3f,%+.3f]\n", a.best, a.second, a.lead.Value, a.lead.Lo, a.lead.Hi)
		}
		answers = append(answers, a)
	}
	fmt.Fprintln(w, "  (best among metrics defined on every translation; TRS and GRS cover only those that parse / build graphs)")
	// Printed last, after the counts they summarise.
	printAnswers := func() {
		fmt.Fprintln(w, "\nAnswers (RUBY's question on execution; intervals are paired bootstrap 95% of Spearman differences).")
		fmt.Fprintln(w, "Which metric tracks CA best:")
		for _, a := range answers {
			if !a.hasLead {
				continue
			}
			verdict := "ahead of the runner-up " + a.second
			if !(a.lead.Lo > 0) {
				verdict = "not distinguishable from " + a.second
			}
			fmt.Fprintf(w, "  %-32s %-13s (%s, lead %+.3f [%+.3f,%+.3f])\n", a.label, a.best, verdict, a.lead.Value, a.lead.Lo, a.lead.Hi)
		}
		fmt.Fprintln(w, "RUBY against BLEU (RUBY, human scores: RUBY 0.75 to 0.82, BLEU 0.52 to 0.66 per model):")
		for _, a := range answers {
			if !a.hasRB {
				continue
			}
			ru, _ := get(a.rb.Scope, "", a.rb.SrcLang, a.rb.TgtLang, MetricRUBY, TargetCA, StatSpearman)
			bl, _ := get(a.rb.Scope, "", a.rb.SrcLang, a.rb.TgtLang, MetricBLEU, TargetCA, StatSpearman)
			verdict := "no clear difference"
			if a.rb.Lo > 0 {
				verdict = "RUBY better"
			} else if a.rb.Hi < 0 {
				verdict = "BLEU better"
			}
			fmt.Fprintf(w, "  %-32s RUBY %.3f, BLEU %.3f: %+.3f [%+.3f,%+.3f] %s\n", a.label, ru.Value, bl.Value, a.rb.Value, a.rb.Lo, a.rb.Hi, verdict)
		}
	}

	// Levels and GRS search.
	lv := map[string]int{}
	var searched, capHit, exact, graphs int
	var ms []float64
	for _, r := range rows {
		if r.Status != StatusOK {
			lv[r.Status]++
			continue
		}
		lv[r.RubyLevel]++
		ms = append(ms, r.Millis)
		if r.RubyLevel == string(LevelGraph) {
			graphs++
			if r.GEDExact {
				exact++
			}
			if r.GEDCapHit {
				capHit++
			}
		}
		if r.GEDCapHit || r.GEDExact {
			searched++
		}
	}
	fmt.Fprintf(w, "\nRUBY levels: graph %d, tree %d, tokens %d; no translation %d, error %d\n",
		lv[string(LevelGraph)], lv[string(LevelTree)], lv[string(LevelTokens)], lv[StatusNoTranslation], lv[StatusError])
	if graphs > 0 {
		fmt.Fprintf(w, "GRS: %d graph pairs, exact GED %d (%.1f%%), search cap hit %d (%.2f%%), else the bipartite upper bound\n",
			graphs, exact, 100*float64(exact)/float64(graphs), capHit, 100*float64(capHit)/float64(graphs))
	}
	if len(ms) > 0 {
		fmt.Fprintf(w, "time per scored translation: median %.2f ms, p99 %.2f ms, max %.1f ms\n",
			stats.Median(ms), stats.Quantile(ms, 0.99), stats.Quantile(ms, 1))
	}
	fmt.Fprintln(w, "\nCounterexamples (RUBY): pairs of translations of one problem that CA orders strictly and the metric the other way.")
	for _, m := range Metrics {
		s := fmt.Sprintf("  %-13s", m)
		for _, d := range dirs {
			scope := ScopeDirection
			if d[0] == "*" {
				scope = ScopeAll
			}
			if r, ok := get(scope, "", d[0], d[1], m, TargetCA, StatCounterexamples); ok && r.N > 0 {
				s += fmt.Sprintf("  %s %d/%d (%.1f%%)", strings.ReplaceAll(d[0]+">"+d[1], "*>*", "all"), int64(r.Value), r.N, 100*r.Value/float64(r.N))
			}
		}
		fmt.Fprintln(w, s)
	}
	fmt.Fprintln(w, "\nSystem level: Spearman across translators between each metric's mean and the pass rate.")
	s := fmt.Sprintf("  %-13s", "direction")
	for _, m := range Metrics {
		s += fmt.Sprintf(" %8s", m)
	}
	fmt.Fprintln(w, s)
	for _, d := range dirs {
		s := fmt.Sprintf("  %-13s", strings.ReplaceAll(d[0]+"->"+d[1], "*->*", "all"))
		for _, m := range Metrics {
			if r, ok := get(ScopeSystem, "", d[0], d[1], m, TargetPass, StatSpearman); ok {
				s += fmt.Sprintf(" %8.3f", r.Value)
			}
		}
		fmt.Fprintln(w, s)
	}
	printAnswers()
}

func shortName(tr string) string {
	if i := strings.LastIndex(tr, "/m."); i >= 0 {
		tr = tr[i+3:]
	}
	if len(tr) > 30 {
		tr = tr[:30]
	}
	return tr
}
