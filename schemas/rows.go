package schemas

// TranslationRow is one translation of one variant by one translator (one sample).
type TranslationRow struct {
	Run        string `parquet:"run"`
	Translator string `parquet:"translator"`
	ProblemID  string `parquet:"problem_id"`
	Corpus     string `parquet:"corpus"`
	// VariantID is "orig" for the original function, else the mutant/variant id.
	VariantID string `parquet:"variant_id"`
	SrcLang   string `parquet:"src_lang"`
	TgtLang   string `parquet:"tgt_lang"`
	Sample    int32  `parquet:"sample"`
	Status    string `parquet:"status"`
	Error     string `parquet:"error"`
	Code      string `parquet:"code"`
	Imports   string `parquet:"imports"`
	// Entry is the name of the function the harness calls in Code.
	Entry      string `parquet:"entry"`
	PromptHash string `parquet:"prompt_hash"`
	LatencyMs  int64  `parquet:"latency_ms"`
	TokensIn   int64  `parquet:"tokens_in"`
	TokensOut  int64  `parquet:"tokens_out"`
	Cached     bool   `parquet:"cached"`
}

// ExecutionRow is one test of one program run: the source function, a gold function,
// or a translation. A program that does not compile gets one row with TestIndex -1.
type ExecutionRow struct {
	Run       string `parquet:"run"`
	ProblemID string `parquet:"problem_id"`
	Corpus    string `parquet:"corpus"`
	// ProgramID identifies the program: "gold/<lang>" or "tr/<translator>/<src>-<tgt>/<sample>".
	ProgramID  string `parquet:"program_id"`
	Role       string `parquet:"role"` // gold | translation
	Translator string `parquet:"translator"`
	VariantID  string `parquet:"variant_id"`
	Lang       string `parquet:"lang"`
	// Status of the whole program: ok, compile_error, or the first failing test's status.
	Status     Status `parquet:"status"`
	TestIndex  int32  `parquet:"test_index"`
	TestStatus Status `parquet:"test_status"`
	Output     string `parquet:"output"` // canonical JSON value
	Error      string `parquet:"error"`
	CPUMicros  int64  `parquet:"cpu_us"`
	WallMicros int64  `parquet:"wall_us"`
	MaxRSSKB   int64  `parquet:"max_rss_kb"`
	// Cached: the result came from the execution cache (a rerun); the timings are
	// those of the run that stored it.
	Cached bool `parquet:"cached"`
}

// ResultRow compares one test of one translation against an oracle.
type ResultRow struct {
	Run        string `parquet:"run"`
	Translator string `parquet:"translator"`
	ProblemID  string `parquet:"problem_id"`
	Corpus     string `parquet:"corpus"`
	SrcLang    string `parquet:"src_lang"`
	TgtLang    string `parquet:"tgt_lang"`
	Sample     int32  `parquet:"sample"`
	// Oracle is "source" (the source function's outputs, cross-language) or
	// "target_gold" (the corpus's gold function in the target language).
	Oracle    string `parquet:"oracle"`
	TestIndex int32  `parquet:"test_index"`
	Expected  string `parquet:"expected"`
	Actual    string `parquet:"actual"`
	// Status is the translation's status on this test (an execution status, or
	// "no_translation" when the translator gave none that could run).
	Status Status `parquet:"status"`
	// OracleStatus is the oracle's status on this test; tests whose oracle did not
	// return a value are left out of CA and pass rate (counted as oracle_failures).
	OracleStatus Status `parquet:"oracle_status"`
	// ProgramStatus is the whole translated program's status (ok, compile_error...),
	// or the translation's status when there was none to run (missing, error...).
	ProgramStatus Status `parquet:"program_status"`
	Match         bool   `parquet:"match"`
	LangDependent bool   `parquet:"lang_dependent"`
	// Nondeterministic marks a test on which two runs of a gold disagreed (fidelity
	// cause nondeterministic): left out of CA and pass in every subset, and counted.
	Nondeterministic bool `parquet:"nondeterministic"`
	// MatchCppConversions is Match under the C++ scripts' convention (f_filled(...)
	// == f_gold(...) after the usual arithmetic conversions: an int -1 equals an
	// unsigned 4294967295); it differs from Match only on target-gold rows into C++
	// whose gold returns an unsigned type.
	MatchCppConversions bool `parquet:"match_cpp_conversions"`
}

// ScoreRow is one aggregate figure, in long format.
type ScoreRow struct {
	Run        string `parquet:"run"`
	Translator string `parquet:"translator"`
	Corpus     string `parquet:"corpus"`
	SrcLang    string `parquet:"src_lang"`
	TgtLang    string `parquet:"tgt_lang"`
	Oracle     string `parquet:"oracle"`
	// Subset is "all" or "lang_independent" (language-dependent tests removed); in the
	// efficiency job "all", "selected" or "every_task" (docs/SCHEMAS.md).
	Subset string  `parquet:"subset"`
	Metric Metric  `parquet:"metric"`
	Value  float64 `parquet:"value"`
	N      int64   `parquet:"n"`
}

// ErrorRow records an input that could not be used, and why. It never stops a run.
type ErrorRow struct {
	Run       string `parquet:"run"`
	Stage     string `parquet:"stage"` // ingest | translate | execute | ...
	Corpus    string `parquet:"corpus"`
	ProblemID string `parquet:"problem_id"`
	Lang      string `parquet:"lang"`
	Reason    string `parquet:"reason"`
	Detail    string `parquet:"detail"`
}

// FidelityRow compares the gold functions of two languages on one test.
type FidelityRow struct {
	Run       string `parquet:"run"`
	ProblemID string `parquet:"problem_id"`
	Corpus    string `parquet:"corpus"`
	TestIndex int32  `parquet:"test_index"`
	LangA     string `parquet:"lang_a"`
	LangB     string `parquet:"lang_b"`
	Agree     bool   `parquet:"agree"`
	// Cause of a disagreement: integer_overflow, float_precision, signed_modulo, out_of_bounds, other ("" when they agree).
	Cause   string `parquet:"cause"`
	ValueA  string `parquet:"value_a"`
	ValueB  string `parquet:"value_b"`
	StatusA Status `parquet:"status_a"`
	StatusB Status `parquet:"status_b"`
}

// VariantRow is one mutant or metamorphic variant of a problem's function.
type VariantRow struct {
	Run       string `parquet:"run"`
	ProblemID string `parquet:"problem_id"`
	Corpus    string `parquet:"corpus"`
	VariantID string `parquet:"variant_id"` // deterministic content hash
	Kind      string `parquet:"kind"`       // mutant | metamorphic | context
	Lang      string `parquet:"lang"`
	Operator  string `parquet:"operator"`
	Line      int32  `parquet:"line"`
	Col       int32  `parquet:"col"`
	Original  string `parquet:"original"`
	Mutated   string `parquet:"mutated"`
	Diff      string `parquet:"diff"`
	Code      string `parquet:"code"`
	// Inputs, for a variant whose parameters and tests differ from the problem's
	// (addParam, merge), is JSON {"params": [...], "tests": [args...]}; else "".
	Inputs string `parquet:"inputs"`
}

// MutantResultRow is the MBTA verdict on one mutant and one translator (seed 000).
type MutantResultRow struct {
	Run        string `parquet:"run"`
	Translator string `parquet:"translator"`
	ProblemID  string `parquet:"problem_id"`
	VariantID  string `parquet:"variant_id"`
	Operator   string `parquet:"operator"`
	SrcLang    string `parquet:"src_lang"`
	TgtLang    string `parquet:"tgt_lang"`
	// Verdict: anomalous (the source mutant itself failed), killed, survived.
	Verdict string `parquet:"verdict"`
	// Reason: for anomalous the source status; for killed no_translation,
	// compile_error, runtime_error, timeout, memory_limit, output_mismatch...
	Reason        string `parquet:"reason"`
	FirstDiffTest int32  `parquet:"first_diff_test"` // -1 when none
	Expected      string `parquet:"expected"`
	Actual        string `parquet:"actual"`
}

func (r VariantRow) ShardKey() string      { return r.ProblemID }
func (r MutantResultRow) ShardKey() string { return r.ProblemID }
