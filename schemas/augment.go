package schemas

// AugmentedTestRow is one test of an augmented problem (the augment job): an
// original test of the benchmark or a generated input that every gold accepted.
type AugmentedTestRow struct {
	Run       string `parquet:"run,dict"`
	ProblemID string `parquet:"problem_id,dict"`
	Corpus    string `parquet:"corpus,dict"`
	// TestIndex is the test's index in the augmented problem (the originals first).
	TestIndex int32  `parquet:"test_index"`
	Args      string `parquet:"args,plain"`
	// Origin: "original", "random", or "mutation:<op>(<param>),..." for a mutated
	// original test.
	Origin        string `parquet:"origin,dict"`
	LangDependent bool   `parquet:"lang_dependent"`
	DependCause   string `parquet:"depend_cause,optional,dict"`
	// Reduced: the test is in the reduced suite (kills the golds' mutants that the
	// whole suite kills); Kills counts the mutants it kills.
	Reduced bool  `parquet:"reduced"`
	Kills   int32 `parquet:"kills"`
}

// AugmentRow summarizes the augmentation of one problem.
type AugmentRow struct {
	Run       string `parquet:"run,dict"`
	ProblemID string `parquet:"problem_id,dict"`
	Corpus    string `parquet:"corpus,dict"`
	// Golds: the languages whose golds judged the inputs, comma-separated.
	Golds      string `parquet:"golds,dict"`
	Original   int32  `parquet:"original"`
	Candidates int32  `parquet:"candidates"`
	Valid      int32  `parquet:"valid"` // generated inputs kept (the originals not counted)
	// LangDependent counts the kept inputs marked language-dependent.
	LangDependent int32 `parquet:"lang_dependent"`
	Reduced       int32 `parquet:"reduced"` // tests in the reduced suite
	// Mutants of the golds run for the reduction, and those killed by the original
	// tests, by the whole augmented suite and by the reduced suite.
	Mutants         int32   `parquet:"mutants"`
	KilledOriginal  int32   `parquet:"killed_original"`
	KilledAll       int32   `parquet:"killed_all"`
	KilledReduced   int32   `parquet:"killed_reduced"`
	GenerateSeconds float64 `parquet:"generate_seconds"`
	ValidateSeconds float64 `parquet:"validate_seconds"`
	ReduceSeconds   float64 `parquet:"reduce_seconds"`
}

// AugmentDropRow counts the generated inputs of one problem dropped for one reason
// ("gold_timeout", "gold_runtime_error", "disagree_other", "undefined_behaviour"...).
type AugmentDropRow struct {
	Run       string `parquet:"run,dict"`
	ProblemID string `parquet:"problem_id,dict"`
	Corpus    string `parquet:"corpus,dict"`
	Reason    string `parquet:"reason,dict"`
	Count     int32  `parquet:"count"`
}

func (r AugmentedTestRow) ShardKey() string { return r.ProblemID }
func (r AugmentRow) ShardKey() string       { return r.ProblemID }
func (r AugmentDropRow) ShardKey() string   { return r.ProblemID }
