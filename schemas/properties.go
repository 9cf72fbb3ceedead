package schemas

// Variant kinds of the variants table.
const (
	VariantMutant      = "mutant"
	VariantMetamorphic = "metamorphic"
)

// PropertyResultRow is one instance of one k-safety property (NOMOS, appendix
// B) for one translator and direction: the programs it relates, and whether all
// N^k combinations of the translations' samples violate it.
type PropertyResultRow struct {
	Run        string `parquet:"run,dict"`
	Translator string `parquet:"translator,dict"`
	ProblemID  string `parquet:"problem_id,dict"`
	Corpus     string `parquet:"corpus,dict"`
	SrcLang    string `parquet:"src_lang,dict"`
	TgtLang    string `parquet:"tgt_lang,dict"`
	// Property is the paper's name: "numLoops", "renameParam|retValues", "merge|arity".
	Property       string `parquet:"property,dict"`
	Transformation string `parquet:"transformation,dict"` // "" for the 1-safety properties
	Inspection     string `parquet:"inspection,dict"`
	K              int32  `parquet:"k"`
	Syntactic      bool   `parquet:"syntactic"`
	// Variants are the inputs i_1..i_k: "orig" for the problem's function, a variant
	// id, and for merge "partner:<problem id>" for the second function.
	Variants string `parquet:"variants,plain"`
	// Samples is N, the most samples a translation of the instance had.
	Samples  int32 `parquet:"samples"`
	Violated bool  `parquet:"violated"`
	// WitnessSamples (e.g. "0,0") and WitnessTest (-1 when no test decided) are the
	// first violating combination of a violated instance.
	WitnessSamples string `parquet:"witness_samples,plain"`
	WitnessTest    int32  `parquet:"witness_test"`
}

// TransformationRow says what one transformation did to one problem's function in
// one language: a valid variant, an absent construct, or an invalid variant and why.
type TransformationRow struct {
	Run            string `parquet:"run,dict"`
	ProblemID      string `parquet:"problem_id,dict"`
	Corpus         string `parquet:"corpus,dict"`
	Lang           string `parquet:"lang,dict"`
	Transformation string `parquet:"transformation,dict"`
	VariantID      string `parquet:"variant_id,dict"` // "" when none was produced
	// Outcome: valid, absent, failed (the transformation could not be applied),
	// no_compile (the variant does not compile), changed_outputs (a
	// semantics-preserving variant or a merge whose outputs differ: a bug).
	Outcome string `parquet:"outcome,dict"`
	Reason  string `parquet:"reason,dict"`
	// SemanticsPreserving marks renameParam, addParam, addConditional, addLoop.
	SemanticsPreserving bool `parquet:"semantics_preserving"`
}
