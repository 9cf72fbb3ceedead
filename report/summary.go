package report

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"gocloud.dev/blob"

	"transmute/io/sink"
	"transmute/schemas"
)

// PrintSummary prints CA and pass rate per translator, corpus and direction, with
// the source function as oracle (and the gold target where the corpus has one).
func PrintSummary(ctx context.Context, w io.Writer, b *blob.Bucket) error {
	rows, err := sink.Read[schemas.ScoreRow](ctx, b, "scores")
	if err != nil {
		return err
	}
	type key struct{ tr, corpus, src, tgt, oracle string }
	type vals struct {
		pass, ca float64
		n        int64
		hasPass  bool
	}
	m := map[key]*vals{}
	for _, r := range rows {
		if r.Subset != "all" {
			continue
		}
		k := key{r.Translator, r.Corpus, r.SrcLang, r.TgtLang, r.Oracle}
		v := m[k]
		if v == nil {
			v = &vals{}
			m[k] = v
		}
		switch r.Metric {
		case schemas.MetricPassRate:
			v.pass, v.n, v.hasPass = r.Value, r.N, true
		case schemas.MetricCAOverall:
			v.ca = r.Value
		}
	}
	keys := make([]key, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.tr != b.tr {
			return a.tr < b.tr
		}
		if a.corpus != b.corpus {
			return a.corpus < b.corpus
		}
		if a.src+a.tgt != b.src+b.tgt {
			return a.src+a.tgt < b.src+b.tgt
		}
		return a.oracle > b.oracle
	})
	fmt.Fprintf(w, "%-28s %-11s %-14s %-12s %9s %9s %6s\n", "translator", "corpus", "direction", "oracle", "pass", "CA", "n")
	for _, k := range keys {
		v := m[k]
		if !v.hasPass {
			continue
		}
		fmt.Fprintf(w, "%-28s %-11s %-14s %-12s %9.3f %9.3f %6d\n", k.tr, k.corpus, k.src+"->"+k.tgt, k.oracle, v.pass, v.ca, v.n)
	}
	return nil
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
		n[r.Stage]++
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
