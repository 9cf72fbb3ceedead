package growth

import (
	"fmt"
	"io"
	"sort"

	"transmute/schemas"
	"transmute/transforms/stats"
)

// Summary is one (translator, direction)'s growth figures.
type Summary struct {
	Translator       string
	SrcLang, TgtLang string
	// Programs: its translations measured (rows); WithExponent: those with a fit;
	// Regressions and RegressionsVsSource: flagged against the target gold and
	// the source gold; TimedOut: those that hit a limit at a size where the gold
	// ran. Examples: up to three problem ids of its regressions, with the
	// exponents ("ID (1.98 vs gold 1.01)").
	Programs, WithExponent, Regressions, RegressionsVsSource, TimedOut int
	Examples                                                           []string
}

// Summarize aggregates translation rows per (translator, direction), sorted by
// direction then translator.
func Summarize(rows []schemas.GrowthRow) []Summary {
	type key struct{ tr, src, tgt string }
	by := map[key]*Summary{}
	var order []key
	sorted := append([]schemas.GrowthRow{}, rows...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].ProblemID < sorted[j].ProblemID })
	for _, r := range sorted {
		if r.Role != schemas.RoleTranslation {
			continue
		}
		k := key{r.Translator, r.SrcLang, r.TgtLang}
		s := by[k]
		if s == nil {
			s = &Summary{Translator: r.Translator, SrcLang: r.SrcLang, TgtLang: r.TgtLang}
			by[k] = s
			order = append(order, k)
		}
		s.Programs++
		if r.Status == schemas.StatusOK {
			s.WithExponent++
		}
		if r.TimedOut {
			s.TimedOut++
		}
		if r.RegressionVsSource {
			s.RegressionsVsSource++
		}
		if r.Regression {
			s.Regressions++
			if len(s.Examples) < 3 {
				s.Examples = append(s.Examples, fmt.Sprintf("%s (%.2f vs gold %.2f)", r.ProblemID, r.Exponent, r.GoldExponent))
			}
		}
	}
	sort.Slice(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if a.src+a.tgt != b.src+b.tgt {
			return a.src+"-"+a.tgt < b.src+"-"+b.tgt
		}
		return a.tr < b.tr
	})
	out := make([]Summary, len(order))
	for i, k := range order {
		out[i] = *by[k]
	}
	return out
}

// PrintSummary writes the gold exponents (one per problem and target language)
// and the per-(translator, direction) table.
func PrintSummary(w io.Writer, rows []schemas.GrowthRow) {
	type gk struct{ id, lang string }
	golds := map[gk]schemas.GrowthRow{}
	var gkeys []gk
	status := map[schemas.Status]int{}
	for _, r := range rows {
		if r.Role != schemas.RoleGroundTruth {
			continue
		}
		k := gk{r.ProblemID, r.TgtLang}
		if _, ok := golds[k]; !ok {
			golds[k] = r
			gkeys = append(gkeys, k)
			status[r.Status]++
		}
	}
	sort.Slice(gkeys, func(i, j int) bool {
		if gkeys[i].lang != gkeys[j].lang {
			return gkeys[i].lang < gkeys[j].lang
		}
		return gkeys[i].id < gkeys[j].id
	})
	var exps []float64
	fmt.Fprintf(w, "Gold exponents (%d problem-language pairs; status %v):\n", len(gkeys), status)
	for _, k := range gkeys {
		r := golds[k]
		if r.Status != schemas.StatusOK {
			continue
		}
		exps = append(exps, r.Exponent)
		fmt.Fprintf(w, "  %-6s %-70s %s %-10s %5.2f [%5.2f, %5.2f] sizes %s\n", k.lang, k.id, r.SizeKind, "("+r.SizeParams+")",
			r.Exponent, r.ExponentLo, r.ExponentHi, r.Sizes)
	}
	if len(exps) > 0 {
		fmt.Fprintf(w, "  median gold exponent %.2f over %d\n", stats.Median(exps), len(exps))
	}
	fmt.Fprintln(w, "\nTranslations per translator and direction (regression: exponent >= gold's + margin, intervals apart):")
	fmt.Fprintf(w, "  %-12s %-36s %8s %8s %6s %7s %8s  %s\n", "direction", "translator", "programs", "exponent", "regr", "vs src", "timeout", "examples")
	var tot Summary
	for _, s := range Summarize(rows) {
		fmt.Fprintf(w, "  %-12s %-36s %8d %8d %6d %7d %8d  %v\n", s.SrcLang+"-"+s.TgtLang, s.Translator, s.Programs, s.WithExponent,
			s.Regressions, s.RegressionsVsSource, s.TimedOut, s.Examples)
		tot.Programs += s.Programs
		tot.WithExponent += s.WithExponent
		tot.Regressions += s.Regressions
		tot.RegressionsVsSource += s.RegressionsVsSource
		tot.TimedOut += s.TimedOut
	}
	fmt.Fprintf(w, "  %-12s %-36s %8d %8d %6d %7d %8d\n", "all", "", tot.Programs, tot.WithExponent, tot.Regressions, tot.RegressionsVsSource, tot.TimedOut)
}
