package schemas

// Variant kinds of the variants table.
const (
	VariantMutant      = "mutant"
	VariantMetamorphic = "metamorphic"
)

// PropertyResultRow is one instance of one k-safety property (seed 001, appendix
// B) for one translator and direction: the programs it relates, and whether all
// N^k combinations of the translations' samples violate it.
type PropertyResultRow struct {
	Run        string `parquet:"run"`
	Translator string `parquet:"translator"`
	ProblemID  string `parquet:"problem_id"`
	Corpus     string `parquet:"corpus"`
	SrcLang    string `parquet:"src_lang"`
	TgtLang    string `parquet:"tgt_lang"`
	// Property is the paper's name: "numLoops", "renameParam|retValues", "merge|arity".
	Property       string `parquet:"property"`
	Transformation string `parquet:"transformation"` // "" for the 1-safety properties
	Inspection     string `parquet:"inspection"`
	K              int32  `parquet:"k"`
	Syntactic      bool   `parquet:"syntactic"`
	// Variants are the inputs i_1..i_k: "orig" for the problem's function, a variant
	// id, and for merge "partner:<problem id>" for the second function.
	Variants string `parquet:"variants"`
	// Samples is N, the most samples a translation of the instance had.
	Samples  int32 `parquet:"samples"`
	Violated bool  `parquet:"violated"`
	// WitnessSamples (e.g. "0,0") and WitnessTest (-1 when no test decided) are the
	// first violating combination of a violated instance.
	WitnessSamples string `parquet:"witness_samples"`
	WitnessTest    int32  `parquet:"witness_test"`
}

// TransformationRow says what one transformation did to one problem's function in
// one language: a valid variant, an absent construct, or an invalid variant and why.
type TransformationRow struct {
	Run            string `parquet:"run"`
	ProblemID      string `parquet:"problem_id"`
	Corpus         string `parquet:"corpus"`
	Lang           string `parquet:"lang"`
	Transformation string `parquet:"transformation"`
	VariantID      string `parquet:"variant_id"` // "" when none was produced
	// Outcome: valid, absent, failed (the transformation could not be applied),
	// no_compile (the variant does not compile), changed_outputs (a
	// semantics-preserving variant or a merge whose outputs differ: a bug).
	Outcome string `parquet:"outcome"`
	Reason  string `parquet:"reason"`
	// SemanticsPreserving marks renameParam, addParam, addConditional, addLoop.
	SemanticsPreserving bool `parquet:"semantics_preserving"`
}

func (r PropertyResultRow) ShardKey() string { return r.ProblemID }
func (r TransformationRow) ShardKey() string { return r.ProblemID }
