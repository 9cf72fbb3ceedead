package report

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"gocloud.dev/blob"

	"transmute/io/sink"
	"transmute/schemas"
)

// PrintSummary prints, per translator, corpus and direction, the coverage (problems
// translated of those asked for) and, per oracle, the pass rate over all problems
// beside the pass rate over the translated ones, and CA; a legend says what each
// figure means, and a warning line follows when a translator missed problems.
func PrintSummary(ctx context.Context, w io.Writer, b *blob.Bucket) error {
	rows, err := sink.Read[schemas.ScoreRow](ctx, b, "scores")
	if err != nil {
		return err
	}
	var trs []schemas.TranslationRow
	if !hasCoverageRows(rows) { // outputs written before the coverage rows
		if trs, err = sink.Read[schemas.TranslationRow](ctx, b, "translations"); err != nil {
			return err
		}
	}
	return writeSummary(w, rows, trs)
}

func hasCoverageRows(rows []schemas.ScoreRow) bool {
	for _, r := range rows {
		if r.Metric == schemas.MetricTranslated {
			return true
		}
	}
	return false
}

// The summary's legend: one line per figure and oracle.
var (
	legend = [][2]string{
		{"coverage", "problems translated / problems asked for"},
		{"pass/all", "share of ALL problems whose translation passes every test (untranslated ones count as failures)"},
		{"pass/attempted", "share of the translated problems that pass every test (how many in brackets)"},
		{"CA", "computational accuracy: share of the tests whose output equals the oracle's"},
		{"n", "problems with at least one test scored (pass/all's denominator)"},
	}
	legendOracle = map[string]string{
		"source":      "the source function's own outputs on the tests (cross-language)",
		"target_gold": "the corpus's gold function in the target language",
	}
)

func writeSummary(w io.Writer, rows []schemas.ScoreRow, trs []schemas.TranslationRow) error {
	idx := map[scoreKey]schemas.ScoreRow{}
	type line struct {
		c      cell
		oracle string
	}
	var lines []line
	seen := map[line]bool{}
	for _, r := range rows {
		idx[scoreKey{r.Translator, r.Corpus, r.SrcLang, r.TgtLang, r.Oracle, r.Subset, r.Metric}] = r
		l := line{cell{r.Translator, r.Corpus, r.SrcLang, r.TgtLang}, r.Oracle}
		if r.Subset == "all" && r.Metric == schemas.MetricPassRate && !seen[l] {
			seen[l] = true
			lines = append(lines, l)
		}
	}
	sort.Slice(lines, func(i, j int) bool {
		a, b := lines[i], lines[j]
		if a.c.tr != b.c.tr {
			return a.c.tr < b.c.tr
		}
		if a.c.corpus != b.c.corpus {
			return a.c.corpus < b.c.corpus
		}
		if a.c.src+a.c.tgt != b.c.src+b.c.tgt {
			return a.c.src+a.c.tgt < b.c.src+b.c.tgt
		}
		return a.oracle > b.oracle
	})
	covs := Coverages(rows, trs)
	table := [][]string{{"translator", "corpus", "direction", "coverage", "oracle", "pass/all", "pass/attempted", "CA", "n"}}
	oracles := map[string]bool{}
	for _, l := range lines {
		oracles[l.oracle] = true
		pr := idx[scoreKey{l.c.tr, l.c.corpus, l.c.src, l.c.tgt, l.oracle, "all", schemas.MetricPassRate}]
		cov, haveCov := covs[l.c]
		covS, attS := "–", "–"
		if haveCov {
			covS = fmt.Sprintf("%d/%d", cov.Translated, cov.Problems)
		}
		if v, n, ok := passAttempted(idx, l.c, l.oracle, cov, haveCov); ok {
			attS = fmt.Sprintf("%.3f (%d)", v, n)
		}
		caS := "–"
		if ca, ok := idx[scoreKey{l.c.tr, l.c.corpus, l.c.src, l.c.tgt, l.oracle, "all", schemas.MetricCAOverall}]; ok {
			caS = fmt.Sprintf("%.3f", ca.Value)
		}
		table = append(table, []string{l.c.tr, l.c.corpus, l.c.src + "->" + l.c.tgt, covS, l.oracle,
			fmt.Sprintf("%.3f", pr.Value), attS, caS, fmt.Sprint(pr.N)})
	}
	if len(lines) > 0 {
		for _, l := range legend {
			fmt.Fprintf(w, "%-19s %s\n", l[0], l[1])
		}
		for _, o := range slices.Sorted(maps.Keys(oracles)) {
			if d, ok := legendOracle[o]; ok {
				fmt.Fprintf(w, "%-19s %s\n", "oracle "+o, d)
			}
		}
	}
	// Text columns left-aligned, figures right-aligned.
	right := []bool{false, false, false, true, false, true, true, true, true}
	widths := make([]int, len(right))
	for _, r := range table {
		for i, v := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(v))
		}
	}
	for _, r := range table {
		var sb strings.Builder
		for i, v := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(v))
			if i > 0 {
				sb.WriteString("  ")
			}
			if right[i] {
				sb.WriteString(pad + v)
			} else if i < len(r)-1 {
				sb.WriteString(v + pad)
			} else {
				sb.WriteString(v)
			}
		}
		if _, err := fmt.Fprintln(w, strings.TrimRight(sb.String(), " ")); err != nil {
			return err
		}
	}
	return coverageWarning(w, covs)
}

// coverageWarning prints one line when some translator missed problems: a pass rate
// over all problems then counts each of them as a failure.
func coverageWarning(w io.Writer, covs map[cell]Coverage) error {
	short, worst := 0, cell{}
	var worstCov Coverage
	keys := make([]cell, 0, len(covs))
	for k := range covs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
	for _, k := range keys {
		c := covs[k]
		if c.Complete() || c.Problems == 0 {
			continue
		}
		short++
		if short == 1 || float64(c.Translated)/float64(c.Problems) < float64(worstCov.Translated)/float64(worstCov.Problems) {
			worst, worstCov = k, c
		}
	}
	if short == 0 {
		return nil
	}
	_, err := fmt.Fprintf(w, "warning: coverage below 100%% in %d of %d translator/direction pairs (lowest: %s %s %s->%s %d/%d, %d missing, %d failed to translate); pass/all counts every untranslated problem as a failure\n",
		short, len(covs), worst.tr, worst.corpus, worst.src, worst.tgt, worstCov.Translated, worstCov.Problems, worstCov.Missing, worstCov.Failed)
	return err
}

// PrintErrorCounts prints the run's error rows per stage (ingest, translate, ...), so
// that failed translations and malformed input lines show in the summary, not only
// in the errors table.
func PrintErrorCounts(ctx context.Context, w io.Writer, b *blob.Bucket) error {
	rows, err := sink.Read[schemas.ErrorRow](ctx, b, "errors")
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return nil
	}
	_, err = fmt.Fprintf(w, "error rows by stage: %s\n", ErrorCounts(rows))
	return err
}

// ErrorCounts formats the number of rows per stage, e.g. "ingest 2, translate 5".
func ErrorCounts(rows []schemas.ErrorRow) string {
	n := map[string]int{}
	for _, r := range rows {
		n[string(r.Stage)]++
	}
	stages := make([]string, 0, len(n))
	for s := range n {
		stages = append(stages, s)
	}
	sort.Strings(stages)
	parts := make([]string, len(stages))
	for i, s := range stages {
		parts[i] = fmt.Sprintf("%s %d", s, n[s])
	}
	return strings.Join(parts, ", ")
}

// byCell groups the score rows that keep accepts by cell, each cell's rows by
// metric, and returns the cells in a fixed order.
func byCell(rows []schemas.ScoreRow, keep func(schemas.ScoreRow) bool) ([]cell, map[cell]map[schemas.Metric]schemas.ScoreRow) {
	m := map[cell]map[schemas.Metric]schemas.ScoreRow{}
	for _, r := range rows {
		if !keep(r) {
			continue
		}
		k := cell{r.Translator, r.Corpus, r.SrcLang, r.TgtLang}
		if m[k] == nil {
			m[k] = map[schemas.Metric]schemas.ScoreRow{}
		}
		m[k][r.Metric] = r
	}
	keys := make([]cell, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
	return keys, m
}
