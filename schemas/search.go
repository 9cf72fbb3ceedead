package schemas

// SearchRow is one step of the property-guided search (NOMOS, Algorithm 1) for
// one problem, translator and direction: the temperature the translator was queried
// with, the fitness of that model instance on the 38 properties, and its
// translation of the problem's function.
type SearchRow struct {
	Run        string `parquet:"run,dict"`
	Translator string `parquet:"translator,dict"`
	ProblemID  string `parquet:"problem_id,dict"`
	Corpus     string `parquet:"corpus,dict"`
	SrcLang    string `parquet:"src_lang,dict"`
	TgtLang    string `parquet:"tgt_lang,dict"`
	// Step counts from 0; the search stops at the first step without a violated
	// property or when its budget is spent.
	Step        int32   `parquet:"step"`
	Temperature float64 `parquet:"temperature,optional"`
	// VP and TV are the step's violated properties and total violations (violated
	// instances): the lexicographic fitness, lower is better. Both are -1 on a row
	// that records why the search stopped early (Error) and has no fitness.
	VP int32 `parquet:"vp"`
	TV int32 `parquet:"tv"`
	// Violated lists the names of the violated properties, sorted, comma-separated.
	Violated string `parquet:"violated,plain"`
	// Best marks the step whose translation the search returned: the first with the
	// best fitness.
	Best bool `parquet:"best"`
	// PassRate is the step's translation's share of tests whose outputs equal the
	// source function's.
	PassRate float64 `parquet:"pass_rate,optional"`
	// Status, Code and Entry are the step's translation of the original function
	// (sample 0).
	Status TranslationStatus `parquet:"status,dict"`
	Code   string            `parquet:"code,plain"`
	Entry  string            `parquet:"entry,plain"`
	// Error is the translation's error, or why the search stopped at this step.
	Error string `parquet:"error,plain"`
}
