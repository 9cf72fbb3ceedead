package score

import "transmute/schemas"

// Reasons a verdict is left out of pass rate and CA (VerdictRow.Excluded).
const (
	ExcludedNondeterministic = "nondeterministic_gold" // every test with an oracle value had a gold that disagreed with itself
	ExcludedOracleFailure    = "oracle_failure"        // the oracle returned no value on any test
	ExcludedNoTests          = "no_tests"              // the problem has no test in the results
)

type verdictKey struct {
	translator, corpus, problem, src, tgt, oracle string
	sample                                        int32
}

// Verdicts sums up result rows into one verdict per translation and oracle, in the
// order of the rows' first appearance. A verdict counts the tests exactly as CAAcc
// does: tests with an oracle value and a deterministic gold; its Pass over sample 0
// and every problem gives CA's pass_rate, and with Translation = translated its
// pass_rate_attempted.
func Verdicts(rows []schemas.ResultRow) []schemas.VerdictRow {
	idx := map[verdictKey]int{}
	var out []schemas.VerdictRow
	var matchedLI []int32
	for _, r := range rows {
		k := verdictKey{r.Translator, r.Corpus, r.ProblemID, r.SrcLang, r.TgtLang, r.Oracle, r.Sample}
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, schemas.VerdictRow{Run: r.Run, Translator: r.Translator, ProblemID: r.ProblemID,
				Corpus: r.Corpus, SrcLang: r.SrcLang, TgtLang: r.TgtLang, Sample: r.Sample, Oracle: r.Oracle,
				Translation: Coverage(r.ProgramStatus), ProgramStatus: r.ProgramStatus})
			matchedLI = append(matchedLI, 0)
		}
		v := &out[i]
		switch {
		case r.Nondeterministic:
			v.NondeterministicTests++
		case r.OracleStatus != schemas.StatusOK:
			v.OracleFailures++
		default:
			v.Tests++
			if r.Match {
				v.Matched++
			}
			if !r.LangDependent {
				v.TestsLangIndependent++
				if r.Match {
					matchedLI[i]++
				}
			}
		}
	}
	for i := range out {
		v := &out[i]
		if v.Tests == 0 {
			switch {
			case v.NondeterministicTests > 0:
				v.Excluded = ExcludedNondeterministic
			case v.OracleFailures > 0:
				v.Excluded = ExcludedOracleFailure
			default:
				v.Excluded = ExcludedNoTests
			}
			continue
		}
		pass := v.Matched == v.Tests
		ca := float64(v.Matched) / float64(v.Tests)
		v.Pass, v.CA = &pass, &ca
		if v.TestsLangIndependent > 0 {
			passLI := matchedLI[i] == v.TestsLangIndependent
			v.PassLangIndependent = &passLI
		}
	}
	return out
}
