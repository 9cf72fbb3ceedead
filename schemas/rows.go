package schemas

// TranslationRow is one translation of one variant by one translator (one sample).
type TranslationRow struct {
	Run        string `parquet:"run,dict"`
	Translator string `parquet:"translator,dict"`
	ProblemID  string `parquet:"problem_id,dict"`
	Corpus     string `parquet:"corpus,dict"`
	// VariantID is "orig" for the original function, else the mutant/variant id.
	VariantID string            `parquet:"variant_id,dict"`
	SrcLang   string            `parquet:"src_lang,dict"`
	TgtLang   string            `parquet:"tgt_lang,dict"`
	Sample    int32             `parquet:"sample"`
	Status    TranslationStatus `parquet:"status,dict"`
	Error     string            `parquet:"error,optional,plain"`
	Code      string            `parquet:"code,optional,plain"`
	Imports   string            `parquet:"imports,optional,plain"`
	// Entry is the name of the function the harness calls in Code.
	Entry      string `parquet:"entry,optional,plain"`
	PromptHash string `parquet:"prompt_hash,optional,plain"`
	LatencyMs  int64  `parquet:"latency_ms"`
	TokensIn   int64  `parquet:"tokens_in"`
	TokensOut  int64  `parquet:"tokens_out"`
	Cached     bool   `parquet:"cached"`
	// Raw is the translator's answer as it came when the code was extracted from it
	// (a Markdown-fenced answer of a recorded file); NULL when Code is the answer.
	Raw string `parquet:"raw,optional,plain"`
}

// ExecutionRow is one test of one program run: the source function, a gold function,
// or a translation. A program that does not compile gets one row with TestIndex -1.
type ExecutionRow struct {
	Run       string `parquet:"run,dict"`
	ProblemID string `parquet:"problem_id,dict"`
	Corpus    string `parquet:"corpus,dict"`
	// ProgramID identifies the program: "gold/<lang>" or "tr/<translator>/<src>-<tgt>/<sample>".
	ProgramID  string `parquet:"program_id,dict"`
	Role       Role   `parquet:"role,dict"` // gold | translation | mutant | source
	Translator string `parquet:"translator,optional,dict"`
	VariantID  string `parquet:"variant_id,dict"`
	Lang       string `parquet:"lang,dict"`
	// Status of the whole program: ok, compile_error, or the first failing test's status.
	Status     Status `parquet:"status,dict"`
	TestIndex  int32  `parquet:"test_index"`
	TestStatus Status `parquet:"test_status,dict"`
	Output     string `parquet:"output,optional,plain"` // canonical JSON value
	Error      string `parquet:"error,optional,plain"`
	CPUMicros  int64  `parquet:"cpu_us"`
	WallMicros int64  `parquet:"wall_us"`
	MaxRSSKB   int64  `parquet:"max_rss_kb"`
	// Cached: the result came from the execution cache (a rerun); the timings are
	// those of the run that stored it.
	Cached bool `parquet:"cached"`
	// The translation's plain keys, so that executions join translations, results
	// and verdicts without parsing ProgramID; NULL on gold rows.
	SrcLang string `parquet:"src_lang,optional,dict"`
	TgtLang string `parquet:"tgt_lang,optional,dict"`
	Sample  *int32 `parquet:"sample,optional"`
}

// ResultRow compares one test of one translation against an oracle.
type ResultRow struct {
	Run        string `parquet:"run,dict"`
	Translator string `parquet:"translator,dict"`
	ProblemID  string `parquet:"problem_id,dict"`
	Corpus     string `parquet:"corpus,dict"`
	SrcLang    string `parquet:"src_lang,dict"`
	TgtLang    string `parquet:"tgt_lang,dict"`
	Sample     int32  `parquet:"sample"`
	// Oracle is "source" (the source function's outputs, cross-language) or
	// "target_gold" (the corpus's gold function in the target language).
	Oracle    string `parquet:"oracle,dict"`
	TestIndex int32  `parquet:"test_index"`
	Expected  string `parquet:"expected,optional,plain"`
	Actual    string `parquet:"actual,optional,plain"`
	// Status is the translation's status on this test (an execution status, or
	// "no_translation" when the translator gave none that could run).
	Status Status `parquet:"status,dict"`
	// OracleStatus is the oracle's status on this test; tests whose oracle did not
	// return a value are left out of CA and pass rate (counted as oracle_failures).
	OracleStatus Status `parquet:"oracle_status,dict"`
	// ProgramStatus is the whole translated program's status (ok, compile_error...),
	// or the translation's status when there was none to run (missing, error...).
	ProgramStatus Status `parquet:"program_status,dict"`
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

// VerdictRow is the verdict on one translation (one sample of one translator, problem
// and direction) by one oracle: the results rows of the translation summed up, with
// what a query of results must otherwise know to leave out. Pass rate is the mean of
// Pass over sample 0 with Excluded NULL; over the attempted problems, with also
// Translation = "translated".
type VerdictRow struct {
	Run        string `parquet:"run,dict"`
	Translator string `parquet:"translator,dict"`
	ProblemID  string `parquet:"problem_id,dict"`
	Corpus     string `parquet:"corpus,dict"`
	SrcLang    string `parquet:"src_lang,dict"`
	TgtLang    string `parquet:"tgt_lang,dict"`
	Sample     int32  `parquet:"sample"`
	Oracle     string `parquet:"oracle,dict"`
	// Translation: translated (a program ran, whatever its outcome), missing (the
	// translator had none) or translation_failed (error, unsupported).
	Translation string `parquet:"translation,dict"`
	// ProgramStatus as in results (the translation's status when nothing ran).
	ProgramStatus Status `parquet:"program_status,dict"`
	// Pass: every counted test matched (an untranslated problem fails); NULL when
	// no test was counted (Excluded says why).
	Pass *bool `parquet:"pass,optional"`
	// CA is Matched/Tests; NULL when Tests is 0.
	CA      *float64 `parquet:"ca,optional"`
	Tests   int32    `parquet:"tests"` // tests counted: the oracle returned and its gold is deterministic
	Matched int32    `parquet:"matched"`
	// The same without the language-dependent tests (subset lang_independent).
	PassLangIndependent  *bool `parquet:"pass_lang_independent,optional"`
	TestsLangIndependent int32 `parquet:"tests_lang_independent"`
	// Tests left out, by cause.
	NondeterministicTests int32 `parquet:"nondeterministic_tests"`
	OracleFailures        int32 `parquet:"oracle_failures"`
	// Excluded: why the translation is not in pass rate and CA (no counted test):
	// nondeterministic_gold, oracle_failure or no_tests; NULL when it is counted.
	Excluded string `parquet:"excluded,optional,dict"`
}

// ScoreRow is one aggregate figure, in long format.
type ScoreRow struct {
	Run        string `parquet:"run,dict"`
	Translator string `parquet:"translator,optional,dict"`
	Corpus     string `parquet:"corpus,optional,dict"`
	SrcLang    string `parquet:"src_lang,optional,dict"`
	TgtLang    string `parquet:"tgt_lang,optional,dict"`
	Oracle     string `parquet:"oracle,optional,dict"`
	// Subset is "all" or "lang_independent" (language-dependent tests removed); in the
	// efficiency job "all", "selected" or "every_task" (docs/SCHEMAS.md).
	Subset string  `parquet:"subset,optional,dict"`
	Metric Metric  `parquet:"metric,dict"`
	Value  float64 `parquet:"value,optional"`
	N      int64   `parquet:"n"`
}

// ErrorRow records an input that could not be used, and why. It never stops a run.
type ErrorRow struct {
	Run       string `parquet:"run,dict"`
	Stage     Stage  `parquet:"stage,dict"` // ingest | translate | execute | ...
	Corpus    string `parquet:"corpus,optional,dict"`
	ProblemID string `parquet:"problem_id,optional,dict"`
	Lang      string `parquet:"lang,optional,dict"`
	Reason    string `parquet:"reason,dict"`
	Detail    string `parquet:"detail,optional,plain"`
}

// FidelityRow compares the gold functions of two languages on one test.
type FidelityRow struct {
	Run       string `parquet:"run,dict"`
	ProblemID string `parquet:"problem_id,dict"`
	Corpus    string `parquet:"corpus,dict"`
	TestIndex int32  `parquet:"test_index"`
	LangA     string `parquet:"lang_a,dict"`
	LangB     string `parquet:"lang_b,dict"`
	Agree     bool   `parquet:"agree"`
	// Cause of a disagreement: integer_overflow, float_precision, signed_modulo, out_of_bounds, other ("" when they agree).
	Cause   string `parquet:"cause,optional,dict"`
	ValueA  string `parquet:"value_a,optional,plain"`
	ValueB  string `parquet:"value_b,optional,plain"`
	StatusA Status `parquet:"status_a,dict"`
	StatusB Status `parquet:"status_b,dict"`
}

// VariantRow is one mutant or metamorphic variant of a problem's function.
type VariantRow struct {
	Run       string `parquet:"run,dict"`
	ProblemID string `parquet:"problem_id,dict"`
	Corpus    string `parquet:"corpus,dict"`
	VariantID string `parquet:"variant_id,dict"` // deterministic content hash
	Kind      string `parquet:"kind,dict"`       // mutant | metamorphic | context
	Lang      string `parquet:"lang,dict"`
	Operator  string `parquet:"operator,optional,dict"`
	Line      int32  `parquet:"line"`
	Col       int32  `parquet:"col"`
	Original  string `parquet:"original,optional,plain"`
	Mutated   string `parquet:"mutated,optional,plain"`
	Diff      string `parquet:"diff,optional,plain"`
	Code      string `parquet:"code,plain"`
	// Inputs, for a variant whose parameters and tests differ from the problem's
	// (addParam, merge), is JSON {"params": [...], "tests": [args...]}; else "".
	Inputs string `parquet:"inputs,optional,plain"`
}

// MutantResultRow is the MBTA verdict on one mutant and one translator (MBTA).
type MutantResultRow struct {
	Run        string `parquet:"run,dict"`
	Translator string `parquet:"translator,dict"`
	ProblemID  string `parquet:"problem_id,dict"`
	VariantID  string `parquet:"variant_id,dict"`
	Operator   string `parquet:"operator,optional,dict"`
	SrcLang    string `parquet:"src_lang,dict"`
	TgtLang    string `parquet:"tgt_lang,dict"`
	// Verdict: anomalous (the source mutant itself failed), killed, survived.
	Verdict string `parquet:"verdict,dict"`
	// Reason: for anomalous the source status; for killed no_translation,
	// compile_error, runtime_error, timeout, memory_limit, output_mismatch...
	Reason        string `parquet:"reason,optional,dict"`
	FirstDiffTest int32  `parquet:"first_diff_test"` // -1 when none
	Expected      string `parquet:"expected,optional,plain"`
	Actual        string `parquet:"actual,optional,plain"`
}
