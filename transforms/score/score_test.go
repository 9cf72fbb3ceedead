package score

import (
	"math"
	"testing"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/values"
)

func res(status schemas.Status, tests ...execute.TestResult) execute.Result {
	for i := range tests {
		tests[i].Index = int32(i)
	}
	return execute.Result{Status: status, Tests: tests}
}

func ok(v string) execute.TestResult { return execute.TestResult{Status: schemas.StatusOK, Output: v} }
func bad(s schemas.Status) execute.TestResult {
	return execute.TestResult{Status: s, Error: "boom"}
}

func TestJudge(t *testing.T) {
	intT := values.MustParseType("int")
	dblT := values.MustParseType("double")
	tol := values.DefaultTolerance
	src := res("ok", ok("1"), ok("2"))
	cases := []struct {
		name         string
		ret          values.Type
		src, tgt     execute.Result
		translated   bool
		verdict, why string
		first        int32
	}{
		{"source raises: anomalous", intT, res("ok", ok("1"), bad(schemas.StatusRuntimeError)), res("ok", ok("1"), ok("2")), true, Anomalous, string(schemas.StatusRuntimeError), 1},
		{"source does not compile: anomalous", intT, execute.Result{Status: schemas.StatusCompileError}, res("ok"), true, Anomalous, string(schemas.StatusCompileError), -1},
		{"source times out: anomalous", intT, res(schemas.StatusTimeout, ok("1"), bad(schemas.StatusTimeout)), res("ok"), true, Anomalous, string(schemas.StatusTimeout), -1},
		{"no translation: killed", intT, src, execute.Result{}, false, Killed, ReasonNoTranslation, -1},
		{"translation does not compile: killed", intT, src, execute.Result{Status: schemas.StatusCompileError}, true, Killed, string(schemas.StatusCompileError), -1},
		{"translation raises: killed", intT, src, res("ok", ok("1"), bad(schemas.StatusRuntimeError)), true, Killed, string(schemas.StatusRuntimeError), 1},
		{"translation times out: killed", intT, src, res(schemas.StatusTimeout, bad(schemas.StatusTimeout), bad(schemas.StatusTimeout)), true, Killed, string(schemas.StatusTimeout), 0},
		{"different output: killed", intT, src, res("ok", ok("1"), ok("3")), true, Killed, ReasonMismatch, 1},
		{"same outputs: survived", intT, src, res("ok", ok("1"), ok("2")), true, Survived, "", -1},
		{"float within tolerance: survived", dblT, res("ok", ok("0.1")), res("ok", ok("0.10000001")), true, Survived, "", -1},
		{"float outside tolerance: killed", dblT, res("ok", ok("0.1")), res("ok", ok("0.2")), true, Killed, ReasonMismatch, 0},
	}
	for _, c := range cases {
		v, why, first, _, _ := Judge(c.ret, c.src, c.translated, c.tgt, tol)
		if v != c.verdict || why != c.why || first != c.first {
			t.Errorf("%s: got %s/%s/%d, want %s/%s/%d", c.name, v, why, first, c.verdict, c.why, c.first)
		}
	}
}

func TestMTSAggregates(t *testing.T) {
	rows := []schemas.MutantResultRow{
		{ProblemID: "A", Operator: "ROR", Verdict: Killed},
		{ProblemID: "A", Operator: "ROR", Verdict: Survived},
		{ProblemID: "A", Operator: "AORB", Verdict: Killed},
		{ProblemID: "A", Operator: "AORB", Verdict: Anomalous},
		{ProblemID: "B", Operator: "ROR", Verdict: Survived},
		{ProblemID: "B", Operator: "SDL", Verdict: Survived},
	}
	got := map[string]schemas.ScoreRow{}
	for _, r := range MTS("r", Key{"t", "c", "java", "python"}, rows) {
		got[string(r.Metric)] = r
	}
	check := func(m string, v float64, n int64) {
		t.Helper()
		r, ok := got[m]
		if !ok || math.Abs(r.Value-v) > 1e-12 || r.N != n {
			t.Errorf("%s = %+v, want %v (n=%d)", m, r, v, n)
		}
	}
	check("mutants", 6, 6)
	check("anomalous_mutants", 1, 6)
	check("mts_overall", 2.0/5, 5)      // 2 killed of 5 non-anomalous
	check("mts_mean", (2.0/3+0)/2, 2)   // A: 2/3, B: 0
	check("mts_median", (2.0/3+0)/2, 2) // two values
	check("mts_std", 1.0/3, 2)          // |2/3 - 1/3|
	check("mts_op_ROR", 1.0/3, 3)
	check("mts_op_AORB", 1, 1)
	check("mts_op_SDL", 0, 1)
}

func TestFunnel(t *testing.T) {
	var f Funnel
	f.AddTranslation(false, execute.Result{})
	f.AddTranslation(true, execute.Result{Status: schemas.StatusCompileError})
	f.AddTranslation(true, res(schemas.StatusTimeout, ok("1"), bad(schemas.StatusTimeout)))
	f.AddTranslation(true, res("ok", ok("1"), bad(schemas.StatusRuntimeError)))
	f.AddTranslation(true, res("ok", ok("1"), ok("5")))
	want := Funnel{NonAnomalous: 5, TranslationOutputs: 4, Compilable: 3, Timeouts: 1, Exceptions: 1, NonAnomalousTranslations: 1}
	if f != want {
		t.Errorf("funnel %+v, want %+v", f, want)
	}
}

func TestCA(t *testing.T) {
	mk := func(p string, i int32, match, dep bool, oracle string) schemas.ResultRow {
		return schemas.ResultRow{ProblemID: p, TestIndex: i, Match: match, LangDependent: dep, Oracle: oracle,
			OracleStatus: schemas.StatusOK, ProgramStatus: "ok"}
	}
	rows := []schemas.ResultRow{
		mk("A", 0, true, false, OracleSource), mk("A", 1, true, false, OracleSource),
		mk("B", 0, true, false, OracleSource), mk("B", 1, false, true, OracleSource),
		mk("C", 0, false, false, OracleSource), mk("C", 1, false, false, OracleSource),
	}
	got := map[string]float64{}
	for _, r := range CA("r", Key{"t", "c", "java", "python"}, rows) {
		got[r.Subset+"/"+string(r.Metric)] = r.Value
	}
	near := func(k string, v float64) {
		t.Helper()
		if math.Abs(got[k]-v) > 1e-12 {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	near("all/ca_overall", 3.0/6)
	near("all/pass_rate", 1.0/3)
	near("all/ca_mean", (1+0.5+0)/3)
	near("all/ca_median", 0.5)
	// without B's language-dependent test, B passes
	near("lang_independent/pass_rate", 2.0/3)
	near("lang_independent/ca_overall", 3.0/5)
	near("all/status_ok", 3)
}

func TestBeyond(t *testing.T) {
	ref := []float64{2, 10, 6}
	cases := []struct{ x, want float64 }{
		{2, 100}, {10, 0}, {6, 50}, {4, 75},
		{1, 100}, // clipped to r_min
		{50, 0},  // clipped to r_max
	}
	for _, c := range cases {
		if got := Beyond(c.x, ref); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Beyond(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	if Beyond(3, []float64{3}) != 100 || Beyond(4, []float64{3}) != 0 {
		t.Error("single-value reference set")
	}
	// Two correct translations scoring 100 and 50, one incorrect: B = 50, B^P = 75.
	b, bp, n := BeyondScores([]bool{true, true, false}, []float64{100, 50, 99})
	if b != 50 || bp != 75 || n != 2 {
		t.Errorf("BeyondScores = %v %v %d", b, bp, n)
	}
	if r := Inefficiency(9, ref); r != 4.5 {
		t.Errorf("Inefficiency = %v", r)
	}
}

func TestCASamples(t *testing.T) {
	mk := func(p string, sample int32, i int32, match bool) schemas.ResultRow {
		return schemas.ResultRow{ProblemID: p, Sample: sample, TestIndex: i, Match: match, Oracle: OracleSource,
			OracleStatus: schemas.StatusOK, ProgramStatus: "ok"}
	}
	rows := []schemas.ResultRow{
		// A: sample 0 passes, sample 1 fails; B: both fail; C: both pass
		mk("A", 0, 0, true), mk("A", 1, 0, false),
		mk("B", 0, 0, false), mk("B", 1, 0, false),
		mk("C", 0, 0, true), mk("C", 1, 0, true),
	}
	got := map[string]float64{}
	for _, r := range CA("r", Key{"t", "c", "java", "python"}, rows) {
		if r.Subset == SubsetAll {
			got[string(r.Metric)] = r.Value
		}
	}
	if got["pass_rate"] != 2.0/3 || got["pass_rate_any_of_n"] != 2.0/3 || got["pass_rate_all_of_n"] != 1.0/3 || got["samples"] != 2 {
		t.Errorf("sample metrics: %v", got)
	}
	// With one sample, no any/all metrics.
	one := CA("r", Key{}, rows[:1])
	for _, r := range one {
		if r.Metric == "pass_rate_any_of_n" {
			t.Error("any_of_n emitted for a single sample")
		}
	}
}

// TestPassRateCppConversions: a C++ translation whose int -1 the scripts' unsigned
// comparison accepts fails pass_rate and passes pass_rate_cpp_conversions.
func TestPassRateCppConversions(t *testing.T) {
	k := Key{Translator: "m", Corpus: "c", SrcLang: "java", TgtLang: "cpp"}
	row := func(pid string, ti int32, match, conv bool) schemas.ResultRow {
		return schemas.ResultRow{Translator: "m", Corpus: "c", SrcLang: "java", TgtLang: "cpp", ProblemID: pid,
			Oracle: OracleTargetGold, TestIndex: ti, Status: "ok", OracleStatus: "ok", ProgramStatus: "ok",
			Match: match, MatchCppConversions: conv}
	}
	rows := []schemas.ResultRow{row("A", 0, true, true), row("A", 1, false, true), row("B", 0, true, true)}
	got := map[string]float64{}
	for _, s := range CA("r", k, rows) {
		if s.Subset == SubsetAll {
			got[string(s.Metric)] = s.Value
		}
	}
	if got["pass_rate"] != 0.5 || got["pass_rate_cpp_conversions"] != 1 {
		t.Errorf("pass_rate %v, pass_rate_cpp_conversions %v; want 0.5, 1", got["pass_rate"], got["pass_rate_cpp_conversions"])
	}
}
