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
	keys, m := byCell(rows, func(r schemas.ScoreRow) bool { return r.Subset == "all" })
	v := func(ms map[schemas.Metric]schemas.ScoreRow, name schemas.Metric) string {
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
		fmt.Fprintf(w, "  mutants %s, anomalous %s, non-anomalous %s\n", v(ms, schemas.MetricMutants), v(ms, schemas.MetricAnomalousMutants), v(ms, schemas.MetricNonAnomalousMutants))
		fmt.Fprintf(w, "  funnel: non-anomalous %s, translation outputs %s, compilable %s, timeouts %s, exceptions %s, non-anomalous translations %s\n",
			v(ms, schemas.MetricFunnelNonAnomalousMutants), v(ms, schemas.MetricFunnelTranslationOutputs), v(ms, schemas.MetricFunnelCompilable),
			v(ms, schemas.MetricFunnelTimeouts), v(ms, schemas.MetricFunnelExceptions), v(ms, schemas.MetricFunnelNonAnomalousTranslations))
		fmt.Fprintf(w, "  MTS overall %s, mean %s, median %s, std %s (problems %d); CA of originals %s\n",
			v(ms, schemas.MetricMTSOverall), v(ms, schemas.MetricMTSMean), v(ms, schemas.MetricMTSMedian), v(ms, schemas.MetricMTSStd), ms[schemas.MetricMTSMean].N, v(ms, schemas.MetricCAOverall))
		var ops []string
		for name := range ms {
			if op, ok := strings.CutPrefix(string(name), string(schemas.MetricMTSOpPrefix)); ok {
				ops = append(ops, op)
			}
		}
		sort.Strings(ops)
		var parts []string
		for _, op := range ops {
			m := schemas.MetricMTSOp(op)
			parts = append(parts, fmt.Sprintf("%s=%s(n=%d)", op, v(ms, m), ms[m].N))
		}
		fmt.Fprintf(w, "  MTS per operator: %s\n", strings.Join(parts, " "))
		fmt.Fprintf(w, "  corr MTS-CA: spearman %s (p %s), pearson %s (p %s); mutants-MTS spearman %s (p %s); mutants-CA spearman %s (p %s)\n",
			v(ms, schemas.MetricCorrSpearmanMTSCA), v(ms, schemas.MetricCorrSpearmanMTSCA+schemas.SuffixP), v(ms, schemas.MetricCorrPearsonMTSCA), v(ms, schemas.MetricCorrPearsonMTSCA+schemas.SuffixP),
			v(ms, schemas.MetricCorrSpearmanMutantsMTS), v(ms, schemas.MetricCorrSpearmanMutantsMTS+schemas.SuffixP), v(ms, schemas.MetricCorrSpearmanMutantsCA), v(ms, schemas.MetricCorrSpearmanMutantsCA+schemas.SuffixP))
	}
	return nil
}
