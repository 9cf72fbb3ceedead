package schemas

// GrowthRow is one program's complexity growth on a TRACE task (the growth job,
// docs/GROWTH.md): its cost measured on generated inputs at geometrically growing
// sizes, and the growth exponent fitted as the slope of log cost on log size. A
// gold row (role ground_truth, Translator "") is the task's target-language gold;
// a translation row is a translation that passed the task's default tests.
type GrowthRow struct {
	Run        string `parquet:"run,dict"`
	Translator string `parquet:"translator,dict"` // "" for the gold
	ProblemID  string `parquet:"problem_id,dict"`
	Corpus     string `parquet:"corpus,dict"`
	SrcLang    string `parquet:"src_lang,dict"`
	TgtLang    string `parquet:"tgt_lang,dict"`
	Role       Role   `parquet:"role,dict"` // ground_truth | translation
	// Status: ok (an exponent was fitted), or why not: no_size (the task's inputs
	// have no size parameter), few_sizes (fewer than the minimum of sizes ran
	// correctly), or the program's failure at the smallest size (timeout,
	// runtime_error, compile_error, wrong_output...).
	Status Status `parquet:"status,dict"`
	Detail string `parquet:"detail,plain"`
	// SizeKind is "length" (the lengths of the array and string parameters) or
	// "value" (the value of the integer parameters that drive the cost);
	// SizeParams the 0-based indices of the scaled parameters, comma-separated.
	SizeKind   string `parquet:"size_kind,dict"`
	SizeParams string `parquet:"size_params,dict"`
	// Measure names the cost: "instructions" (callgrind's count of the calls, the
	// default) or "calls_cpu_ns" (thread CPU time of the calls). Sizes and Costs
	// are the sizes of the ladder and this program's net cost at each (its cost
	// minus the empty candidate's on the same inputs; -1 where it failed or its
	// outputs differed from the gold's), comma-separated.
	Measure string `parquet:"measure,dict"`
	Sizes   string `parquet:"sizes,plain"`
	Costs   string `parquet:"costs,plain"`
	// Points: sizes the fit used. Exponent: the OLS slope of log cost on log size;
	// ExponentLo, ExponentHi: its 95% interval (Student's t on Points-2 degrees
	// of freedom). R2 of the fit.
	Points     int32   `parquet:"points"`
	Exponent   float64 `parquet:"exponent,optional"`
	ExponentLo float64 `parquet:"exponent_lo,optional"`
	ExponentHi float64 `parquet:"exponent_hi,optional"`
	R2         float64 `parquet:"r2,optional"`
	// The gold's exponent in the target language (the reference of Regression)
	// and the source-language gold's on the same inputs, with their intervals;
	// GoldPoints / SourcePoints 0 when they have none.
	GoldPoints     int32   `parquet:"gold_points"`
	GoldExponent   float64 `parquet:"gold_exponent,optional"`
	GoldLo         float64 `parquet:"gold_lo,optional"`
	GoldHi         float64 `parquet:"gold_hi,optional"`
	SourcePoints   int32   `parquet:"source_points"`
	SourceExponent float64 `parquet:"source_exponent,optional"`
	SourceLo       float64 `parquet:"source_lo,optional"`
	SourceHi       float64 `parquet:"source_hi,optional"`
	// Regression: the exponent exceeds the target gold's by at least the margin
	// and the two intervals do not overlap. RegressionVsSource: the same against
	// the source-language gold.
	Regression         bool `parquet:"regression"`
	RegressionVsSource bool `parquet:"regression_vs_source"`
	// TimedOut: the program failed (time or memory limit) at a size of the ladder
	// where the gold ran.
	TimedOut bool `parquet:"timed_out"`
}

func (r GrowthRow) ShardKey() string { return r.ProblemID }

// Statuses of a growth row besides the execution statuses.
const (
	// StatusNoSize: the task's inputs have no size parameter (growth.Detect).
	StatusNoSize Status = "no_size"
	// StatusFewSizes: fewer sizes than the fit needs ran correctly.
	StatusFewSizes Status = "few_sizes"
	// StatusWrongOutput: the program's outputs differed from the gold's on the
	// generated inputs at too many sizes to fit.
	StatusWrongOutput Status = "wrong_output"
)
