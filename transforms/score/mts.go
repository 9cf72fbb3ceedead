package score

import (
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/values"
)

// Verdicts of mutation-based translation analysis (MBTA, section 3).
const (
	Anomalous = "anomalous"
	Killed    = "killed"
	Survived  = "survived"
)

// Killing reasons besides execution statuses.
const (
	ReasonNoTranslation = "no_translation"
	ReasonMismatch      = "output_mismatch"
)

// Judge decides one mutant: anomalous when the source mutant does not compile,
// raises, times out or misses an output on some test (it is then excluded); else
// killed when the translation is missing, does not compile, raises, times out, or
// any test's output differs from the source mutant's (eq. 2); else survived.
// translated is false when the translator gave no runnable translation.
func Judge(ret values.Type, src execute.Result, translated bool, tgt execute.Result, tol values.Tolerance) (verdict, reason string, firstDiff int32, expected, actual string) {
	firstDiff = -1
	if src.Status != schemas.StatusOK {
		return Anomalous, string(src.Status), -1, "", ""
	}
	for _, t := range src.Tests {
		if t.Status != schemas.StatusOK {
			return Anomalous, string(t.Status), t.Index, "", t.Error
		}
	}
	if !translated {
		return Killed, ReasonNoTranslation, -1, "", ""
	}
	if tgt.Status == schemas.StatusCompileError {
		return Killed, string(schemas.StatusCompileError), -1, "", tgt.Detail
	}
	for i, t := range src.Tests {
		if i >= len(tgt.Tests) {
			return Killed, string(schemas.StatusNotRun), t.Index, t.Output, ""
		}
		tt := tgt.Tests[i]
		if tt.Status != schemas.StatusOK {
			return Killed, string(tt.Status), t.Index, t.Output, tt.Error
		}
		if !values.Equal(ret, t.Output, tt.Output, tol) {
			return Killed, ReasonMismatch, t.Index, t.Output, tt.Output
		}
	}
	return Survived, "", -1, "", ""
}

// MTS computes, from the verdicts of one translator and direction, the overall MTS
// (killed / non-anomalous), the individual MTS per problem with its mean, median and
// std, and the MTS per operator. Anomalous mutants are excluded everywhere. It is
// MTSAcc over all rows at once.
func MTS(run string, k Key, rows []schemas.MutantResultRow) []schemas.ScoreRow {
	var acc MTSAcc
	for _, r := range rows {
		acc.Add(r)
	}
	return acc.Scores(run, k)
}

// IndividualMTS returns each problem's MTS (non-anomalous mutants only).
func IndividualMTS(rows []schemas.MutantResultRow) map[string]float64 {
	type acc struct{ killed, total int }
	m := map[string]*acc{}
	for _, r := range rows {
		if r.Verdict == Anomalous {
			continue
		}
		a := m[r.ProblemID]
		if a == nil {
			a = &acc{}
			m[r.ProblemID] = a
		}
		a.total++
		if r.Verdict == Killed {
			a.killed++
		}
	}
	out := map[string]float64{}
	for p, a := range m {
		out[p] = float64(a.killed) / float64(a.total)
	}
	return out
}

// Funnel is the paper's Table 1 over the non-anomalous mutants of one translator.
type Funnel struct {
	NonAnomalous, TranslationOutputs, Compilable, Timeouts, Exceptions, NonAnomalousTranslations int
}

// AddTranslation counts one non-anomalous mutant's translation.
func (f *Funnel) AddTranslation(translated bool, tgt execute.Result) {
	f.NonAnomalous++
	if !translated {
		return
	}
	f.TranslationOutputs++
	if tgt.Status == schemas.StatusCompileError {
		return
	}
	f.Compilable++
	timeout, exception, clean := false, false, true
	for _, t := range tgt.Tests {
		switch t.Status {
		case schemas.StatusOK:
		case schemas.StatusTimeout:
			timeout, clean = true, false
		case schemas.StatusRuntimeError:
			exception, clean = true, false
		default:
			clean = false
		}
	}
	if timeout {
		f.Timeouts++
	}
	if exception {
		f.Exceptions++
	}
	if clean && len(tgt.Tests) > 0 {
		f.NonAnomalousTranslations++
	}
}

// Rows renders the funnel as score rows (value = count, n = non-anomalous mutants).
func (f Funnel) Rows(run string, k Key) []schemas.ScoreRow {
	var out []schemas.ScoreRow
	for _, m := range []struct {
		name schemas.Metric
		v    int
	}{{schemas.MetricFunnelNonAnomalousMutants, f.NonAnomalous}, {schemas.MetricFunnelTranslationOutputs, f.TranslationOutputs},
		{schemas.MetricFunnelCompilable, f.Compilable}, {schemas.MetricFunnelTimeouts, f.Timeouts},
		{schemas.MetricFunnelExceptions, f.Exceptions}, {schemas.MetricFunnelNonAnomalousTranslations, f.NonAnomalousTranslations}} {
		out = append(out, schemas.ScoreRow{Run: run, Translator: k.Translator, Corpus: k.Corpus, SrcLang: k.SrcLang,
			TgtLang: k.TgtLang, Oracle: OracleSource, Subset: SubsetAll, Metric: m.name, Value: float64(m.v), N: int64(f.NonAnomalous)})
	}
	return out
}
