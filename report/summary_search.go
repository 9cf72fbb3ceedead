package report

import (
	"context"
	"fmt"
	"io"
	"sort"

	"gocloud.dev/blob"

	"transmute/io/sink"
	"transmute/schemas"
)

// SearchSummary is the search's outcome for one translator, corpus and direction:
// the first step's translation against the returned one (NOMOS, section 4.4:
// passing programs and mean iterations).
type SearchSummary struct {
	Translator, Corpus, SrcLang, TgtLang string
	// Searches counts the problems searched; Stopped those whose search ended on an
	// error (their completed steps still count below).
	Searches, Stopped int
	// PassingFirst and PassingReturned count the translations passing every test;
	// MeanPassFirst and MeanPassReturned are the mean pass rates (over the searches
	// with at least one step).
	PassingFirst, PassingReturned   int
	MeanPassFirst, MeanPassReturned float64
	// MeanIterations is the mean number of steps with a fitness; ViolationFree counts
	// the searches that returned a translation violating no property.
	MeanIterations float64
	ViolationFree  int
}

// SummarizeSearch computes the SearchSummary of every translator, corpus and
// direction of the search rows, sorted.
func SummarizeSearch(rows []schemas.SearchRow) []SearchSummary {
	type pk struct{ tr, corpus, src, tgt, problem string }
	by := map[pk][]schemas.SearchRow{}
	for _, r := range rows {
		k := pk{r.Translator, r.Corpus, r.SrcLang, r.TgtLang, r.ProblemID}
		by[k] = append(by[k], r)
	}
	type gk struct{ tr, corpus, src, tgt string }
	sums := map[gk]*SearchSummary{}
	withSteps := map[gk]int{}
	for k, rs := range by {
		g := gk{k.tr, k.corpus, k.src, k.tgt}
		s := sums[g]
		if s == nil {
			s = &SearchSummary{Translator: k.tr, Corpus: k.corpus, SrcLang: k.src, TgtLang: k.tgt}
			sums[g] = s
		}
		s.Searches++
		sort.Slice(rs, func(i, j int) bool { return rs[i].Step < rs[j].Step })
		steps := 0
		var first, returned *schemas.SearchRow
		for i := range rs {
			if rs[i].VP < 0 {
				s.Stopped++
				continue
			}
			steps++
			if first == nil {
				first = &rs[i]
			}
			if rs[i].Best {
				returned = &rs[i]
			}
		}
		if first == nil || returned == nil {
			continue
		}
		withSteps[g]++
		s.MeanIterations += float64(steps)
		s.MeanPassFirst += first.PassRate
		s.MeanPassReturned += returned.PassRate
		if first.PassRate == 1 {
			s.PassingFirst++
		}
		if returned.PassRate == 1 {
			s.PassingReturned++
		}
		if returned.VP == 0 {
			s.ViolationFree++
		}
	}
	var out []SearchSummary
	for g, s := range sums {
		if n := withSteps[g]; n > 0 {
			s.MeanIterations /= float64(n)
			s.MeanPassFirst /= float64(n)
			s.MeanPassReturned /= float64(n)
		}
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.Translator+"\x00"+a.Corpus+"\x00"+a.SrcLang+"\x00"+a.TgtLang < b.Translator+"\x00"+b.Corpus+"\x00"+b.SrcLang+"\x00"+b.TgtLang
	})
	return out
}

// PrintSearchSummary prints the search table's summary; nothing when the search did
// not run (an empty table).
func PrintSearchSummary(ctx context.Context, w io.Writer, b *blob.Bucket) error {
	rows, err := sink.Read[schemas.SearchRow](ctx, b, "search")
	if err != nil || len(rows) == 0 {
		return err
	}
	fmt.Fprintln(w, "Property-guided search (NOMOS, Algorithm 1): the first step's translation -> the returned one")
	fmt.Fprintf(w, "  %-28s %-12s %8s %18s %20s %10s %14s %8s\n", "translator", "direction", "searches", "passing programs",
		"mean pass rate", "mean iter", "violation-free", "stopped")
	for _, s := range SummarizeSearch(rows) {
		fmt.Fprintf(w, "  %-28s %-12s %8d %18s %20s %10.2f %14d %8d\n", s.Translator, s.SrcLang+"->"+s.TgtLang, s.Searches,
			fmt.Sprintf("%d -> %d", s.PassingFirst, s.PassingReturned),
			fmt.Sprintf("%.3f -> %.3f", s.MeanPassFirst, s.MeanPassReturned), s.MeanIterations, s.ViolationFree, s.Stopped)
	}
	fmt.Fprintln(w, "  (paper, TransCoder: passing programs 66 -> 84, mean 4.5 iterations)")
	return nil
}
