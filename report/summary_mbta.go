package report

import (
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"gocloud.dev/blob"

	"transmute/io/sink"
	"transmute/schemas"
)

// PrintMBTASummary prints, per translator, corpus and direction, the funnel, the
// overall MTS with the mean/median/std of the individual MTS, the MTS per operator,
// the CA of the originals and the MTS-CA correlations.
func PrintMBTASummary(ctx context.Context, w io.Writer, b *blob.Bucket) error {
	rows, err := sink.Read[schemas.ScoreRow](ctx, b, "scores")
	if err != nil {
		return err
	}
	type key struct{ tr, corpus, src, tgt string }
	m := map[key]map[string]schemas.ScoreRow{}
	for _, r := range rows {
		if r.Subset != "all" {
			continue
		}
		k := key{r.Translator, r.Corpus, r.SrcLang, r.TgtLang}
		if m[k] == nil {
			m[k] = map[string]schemas.ScoreRow{}
		}
		m[k][r.Metric] = r
	}
	keys := make([]key, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j])
	})
	v := func(ms map[string]schemas.ScoreRow, name string) string {
		r, ok := ms[name]
		if !ok {
			return "-"
		}
		if r.Value == math.Trunc(r.Value) && math.Abs(r.Value) < 1e15 {
			return strconv.FormatInt(int64(r.Value), 10)
		}
		return strconv.FormatFloat(r.Value, 'f', 4, 64)
	}
	for _, k := range keys {
		ms := m[k]
		fmt.Fprintf(w, "%s %s %s->%s\n", k.tr, k.corpus, k.src, k.tgt)
		fmt.Fprintf(w, "  mutants %s, anomalous %s, non-anomalous %s\n", v(ms, "mutants"), v(ms, "anomalous_mutants"), v(ms, "non_anomalous_mutants"))
		fmt.Fprintf(w, "  funnel: non-anomalous %s, translation outputs %s, compilable %s, timeouts %s, exceptions %s, non-anomalous translations %s\n",
			v(ms, "funnel_non_anomalous_mutants"), v(ms, "funnel_translation_outputs"), v(ms, "funnel_compilable"),
			v(ms, "funnel_timeouts"), v(ms, "funnel_exceptions"), v(ms, "funnel_non_anomalous_translations"))
		fmt.Fprintf(w, "  MTS overall %s, mean %s, median %s, std %s (problems %d); CA of originals %s\n",
			v(ms, "mts_overall"), v(ms, "mts_mean"), v(ms, "mts_median"), v(ms, "mts_std"), ms["mts_mean"].N, v(ms, "ca_overall"))
		var ops []string
		for name := range ms {
			if strings.HasPrefix(name, "mts_op_") {
				ops = append(ops, name)
			}
		}
		sort.Strings(ops)
		var parts []string
		for _, op := range ops {
			parts = append(parts, fmt.Sprintf("%s=%s(n=%d)", strings.TrimPrefix(op, "mts_op_"), v(ms, op), ms[op].N))
		}
		fmt.Fprintf(w, "  MTS per operator: %s\n", strings.Join(parts, " "))
		fmt.Fprintf(w, "  corr MTS-CA: spearman %s (p %s), pearson %s (p %s); mutants-MTS spearman %s (p %s); mutants-CA spearman %s (p %s)\n",
			v(ms, "corr_spearman_mts_ca"), v(ms, "corr_spearman_mts_ca_p"), v(ms, "corr_pearson_mts_ca"), v(ms, "corr_pearson_mts_ca_p"),
			v(ms, "corr_spearman_mutants_mts"), v(ms, "corr_spearman_mutants_mts_p"), v(ms, "corr_spearman_mutants_ca"), v(ms, "corr_spearman_mutants_ca_p"))
	}
	return nil
}
