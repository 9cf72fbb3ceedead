package mbta

import (
	"sort"

	"transmute/schemas"
	"transmute/transforms/score"
)

// Score computes every score row of one key from its problems' groups: the MTS
// metrics (score.MTS), the funnel (paper Table 1, summed over problems), the CA of
// the original's translation (score.CA, oracle: the source function), and the
// correlations across problems between individual MTS, per-problem CA and the
// number of non-anomalous mutants:
//
//	corr_{spearman,pearson}_{mts_ca,mutants_mts,mutants_ca}[_p]
//
// (value = rho or r, and its two-sided p-value under the _p name; N = problems).
// Only problems with at least one non-anomalous mutant and a CA (some test whose
// source output is ok) take part; a correlation that is undefined (fewer than 3
// problems, or a constant variable, e.g. the identity translator's MTS) is not
// emitted.
func Score(run string, k score.Key, groups []Group) []schemas.ScoreRow {
	sort.Slice(groups, func(i, j int) bool { return groups[i].ProblemID < groups[j].ProblemID })
	var mutants []schemas.MutantResultRow
	var results []schemas.ResultRow
	var fun FunnelCounts
	for _, g := range groups {
		mutants = append(mutants, g.Mutants...)
		results = append(results, g.Results...)
		fun.Add(g.Funnel)
	}
	out := score.MTS(run, k, mutants)
	out = append(out, fun.Funnel().Rows(run, k)...)
	out = append(out, score.CA(run, k, results)...)

	var mts, ca, n []float64
	for _, g := range groups {
		killed, total := 0, 0
		for _, r := range g.Mutants {
			if r.Verdict == score.Anomalous {
				continue
			}
			total++
			if r.Verdict == score.Killed {
				killed++
			}
		}
		tests, matched := 0, 0
		for _, r := range g.Results {
			if r.Sample != 0 || r.OracleStatus != schemas.StatusOK {
				continue
			}
			tests++
			if r.Match {
				matched++
			}
		}
		if total == 0 || tests == 0 {
			continue
		}
		mts = append(mts, float64(killed)/float64(total))
		ca = append(ca, float64(matched)/float64(tests))
		n = append(n, float64(total))
	}
	return append(out, correlationRows(run, k, mts, ca, n)...)
}
