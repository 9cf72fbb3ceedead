package schemas

// VariantKindContextSimilar is the VariantRow.Kind of TransRepair's context-similar
// variants; their Operator is "identifier" (a renamed parameter or local) or
// "literal" (an integer literal n replaced by n+1), Original/Mutated the old and
// new name or literal.
const VariantKindContextSimilar = "context_similar"

// ConsistencyRow is one (original, context-similar variant) pair translated by
// one translator (TransRepair Algorithm 1, and execution).
type ConsistencyRow struct {
	Run        string `parquet:"run,dict"`
	Translator string `parquet:"translator,dict"`
	Corpus     string `parquet:"corpus,dict"`
	ProblemID  string `parquet:"problem_id,dict"`
	SrcLang    string `parquet:"src_lang,dict"`
	TgtLang    string `parquet:"tgt_lang,dict"`
	VariantID  string `parquet:"variant_id,dict"`
	Kind       string `parquet:"kind,dict"` // identifier | literal
	Old        string `parquet:"old,plain"`
	New        string `parquet:"new,plain"`
	// Half is "choose" (thresholds are chosen on its problems) or "measure".
	Half string `parquet:"half,dict"`
	// OrigStatus and VariantStatus are the two translations' statuses
	// (schemas.Translation*).
	OrigStatus    TranslationStatus `parquet:"orig_status,dict"`
	VariantStatus TranslationStatus `parquet:"variant_status,dict"`
	// The Algorithm 1 consistency scores, in [0, 1].
	LCS   float64 `parquet:"lcs,optional"`
	ED    float64 `parquet:"ed,optional"`
	TFIDF float64 `parquet:"tfidf,optional"`
	BLEU  float64 `parquet:"bleu,optional"`
	// SourcesDiffer: the original and the variant source behave differently on
	// some test (a literal change can; a kept rename does not).
	SourcesDiffer bool `parquet:"sources_differ"`
	// ExecConsistent: the translations behave alike exactly where the sources do.
	ExecConsistent bool  `parquet:"exec_consistent"`
	FirstDiffTest  int32 `parquet:"first_diff_test"` // -1 when consistent
	// OrigProgram and VariantProgram are the translations' program statuses.
	OrigProgram    string `parquet:"orig_program,plain"`
	VariantProgram string `parquet:"variant_program,plain"`
	Detail         string `parquet:"detail,plain"`
}

// RepairRow is TransRepair's black-box repair (Algorithm 2, cross-reference
// ranking) of one translation of an original, ranked by one metric.
type RepairRow struct {
	Run        string `parquet:"run,dict"`
	Translator string `parquet:"translator,dict"`
	Corpus     string `parquet:"corpus,dict"`
	ProblemID  string `parquet:"problem_id,dict"`
	SrcLang    string `parquet:"src_lang,dict"`
	TgtLang    string `parquet:"tgt_lang,dict"`
	RankMetric string `parquet:"rank_metric,dict"` // lcs | ed | tfidf | bleu
	// ExecInconsistent and MinScore say why it was tried: execution-inconsistent
	// pairs of the original's translation, and its lowest RankMetric score.
	ExecInconsistent int32   `parquet:"exec_inconsistent"`
	MinScore         float64 `parquet:"min_score,optional"`
	Candidates       int32   `parquet:"candidates"` // translations ranked (original included)
	// ChosenVariant is the variant whose translation was mapped back ("" when
	// none); ChosenRank its place in the ranking (0 = the original).
	ChosenVariant string `parquet:"chosen_variant,plain"`
	ChosenRank    int32  `parquet:"chosen_rank"`
	Accepted      bool   `parquet:"accepted"`
	Reason        string `parquet:"reason,dict"`
	// PassBefore and PassAfter are the shares of tests on which the translation
	// (before; after = the repaired one when accepted, else the same) gives the
	// source's output.
	PassBefore float64 `parquet:"pass_before,optional"`
	PassAfter  float64 `parquet:"pass_after,optional"`
	Before     string  `parquet:"before,plain"`
	After      string  `parquet:"after,plain"`
}
