package schemas

// SimilarityRow is one translation's similarity to the reference function in its
// target language (RUBY; transforms/similarity, docs/SIMILARITY.md), joined to
// its execution results (the evaluate job's CA and pass, target gold as oracle).
// Metrics are in [0, 1]; NaN where one could not be computed (TRS without two
// trees, GRS without two graphs). A translation that could not be scored (none
// given, too large) has Status other than "ok" and Error saying why.
type SimilarityRow struct {
	Run        string `parquet:"run,dict"`
	Translator string `parquet:"translator,dict"`
	ProblemID  string `parquet:"problem_id,dict"`
	SrcLang    string `parquet:"src_lang,dict"`
	TgtLang    string `parquet:"tgt_lang,dict"`
	Sample     int32  `parquet:"sample"`
	// Status: ok, no_translation (the translator gave none: metrics 0), error.
	Status string `parquet:"status,dict"`
	Error  string `parquet:"error,plain"`

	BLEU          float64 `parquet:"bleu,optional"`
	CrystalBLEU   float64 `parquet:"crystal_bleu,optional"`
	CodeBLEU      float64 `parquet:"codebleu,optional"`
	WeightedNgram float64 `parquet:"weighted_ngram,optional"`
	SyntaxMatch   float64 `parquet:"syntax_match,optional"`
	DataflowMatch float64 `parquet:"dataflow_match,optional"`
	STS           float64 `parquet:"sts,optional"`
	TRS           float64 `parquet:"trs,optional"`
	GRS           float64 `parquet:"grs,optional"`
	RUBY          float64 `parquet:"ruby,optional"`
	// RubyLevel: graph (RUBY = GRS), tree (TRS) or tokens (STS).
	RubyLevel string `parquet:"ruby_level,plain"`
	TED       int32  `parquet:"ted"`       // -1 when not computed
	GED       int32  `parquet:"ged"`       // exact, or an upper bound when not GEDExact; -1 when not computed
	GEDLower  int32  `parquet:"ged_lower"` // a lower bound of GED
	GEDExact  bool   `parquet:"ged_exact"`
	GEDCapHit bool   `parquet:"ged_cap_hit"` // the exact search stopped at its budget or time cap
	HypParses bool   `parquet:"hyp_parses"`
	RefParses bool   `parquet:"ref_parses"`
	HypTokens int32  `parquet:"hyp_tokens"`
	RefTokens int32  `parquet:"ref_tokens"`
	// Millis spent computing this row's metrics (parsing the translation included).
	Millis float64 `parquet:"ms,optional"`

	// From the evaluate job: CA (matching tests / tests whose oracle ran) and pass
	// (every such test matches); Tests is that number of tests (0: no execution
	// result joined, CA and pass then say nothing).
	CA    float64 `parquet:"ca,optional"`
	Pass  bool    `parquet:"pass"`
	Tests int32   `parquet:"tests"`
}

// SimilarityStatRow is one correlation or count of the similarity analysis, long
// format. Scope: all (every translation), direction, translator (one translator and
// direction), model (one translator, every direction), system (across translators'
// means, one direction or all). Statistic: spearman, kendall_tau_b, pearson,
// counterexamples (pairs of translations of one problem ordered oppositely by the
// metric and by CA), ordered_pairs (pairs CA orders strictly), ruby_minus_bleu.
type SimilarityStatRow struct {
	Run        string  `parquet:"run,dict"`
	Scope      string  `parquet:"scope,plain"`
	Translator string  `parquet:"translator,dict"`
	SrcLang    string  `parquet:"src_lang,dict"`
	TgtLang    string  `parquet:"tgt_lang,dict"`
	Metric     string  `parquet:"metric,dict"`
	Target     string  `parquet:"target,plain"` // ca | pass
	Statistic  string  `parquet:"statistic,plain"`
	Value      float64 `parquet:"value,optional"`
	Lo         float64 `parquet:"lo,optional"` // bootstrap 95% interval (NaN when not computed)
	Hi         float64 `parquet:"hi,optional"`
	N          int64   `parquet:"n"`
}
