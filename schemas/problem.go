package schemas

// Param is one parameter of a problem's function, with a language-neutral type.
//
// Types: int, long, float, double, bool, char, string, and arrays of them written
// with one to three "[]" suffixes ("int[]", "char[][]", "int[][][]"). See
// transforms/values.
type Param struct {
	Name string `parquet:"name,dict" json:"name"`
	Type string `parquet:"type,dict" json:"type"`
}

// Function is a problem's function in one language.
type Function struct {
	Lang string `parquet:"lang,dict" json:"lang"`
	// Name is the function's own name in Code (the harness calls it by this name).
	Name string `parquet:"name,dict" json:"name"`
	// Code is the function (and any helpers it needs) as it appears in the corpus.
	Code string `parquet:"code,plain" json:"code"`
	// Imports holds lines needed before Code (Python imports, C++ includes, Java imports).
	Imports string `parquet:"imports,plain" json:"imports,omitempty"`
	// Signature is the declaration line in this language, for reading only.
	Signature string `parquet:"signature,plain" json:"signature,omitempty"`
}

// Test is one call of the function: its arguments as a JSON array of typed values,
// one element per Param.
type Test struct {
	Index int32  `parquet:"index" json:"index"`
	Args  string `parquet:"args,plain" json:"args"`
	// LangDependent marks a test whose expected output differs between languages for
	// a reason of the languages themselves (integer wrap-around, floating-point
	// precision), found by the harness-fidelity stage. Scores are also computed
	// without these tests.
	LangDependent bool   `parquet:"lang_dependent" json:"lang_dependent,omitempty"`
	DependCause   string `parquet:"depend_cause,dict" json:"depend_cause,omitempty"`
}

// Problem is the canonical, language-neutral model of one benchmark problem.
type Problem struct {
	ID string `parquet:"id,dict" json:"id"`
	// Corpus names where the problem came from (transcoder, trace, jsonl:<name>).
	Corpus    string     `parquet:"corpus,dict" json:"corpus"`
	Params    []Param    `parquet:"params,list" json:"params"`
	Returns   string     `parquet:"returns,dict" json:"returns"`
	Functions []Function `parquet:"functions,list" json:"functions"`
	Tests     []Test     `parquet:"tests,list" json:"tests"`
}

// Function returns the problem's function in lang, if it has one.
func (p *Problem) Function(lang string) (Function, bool) {
	for _, f := range p.Functions {
		if f.Lang == lang {
			return f, true
		}
	}
	return Function{}, false
}

// Task is a translation task: translate the problem's function from SrcLang to
// TgtLang. TransCoder-test gives every direction between the languages a problem
// has; TRACE lists its tasks explicitly.
type Task struct {
	ProblemID string `parquet:"problem_id,dict" json:"problem_id"`
	Corpus    string `parquet:"corpus,dict" json:"corpus"`
	SrcLang   string `parquet:"src_lang,dict" json:"src_lang"`
	TgtLang   string `parquet:"tgt_lang,dict" json:"tgt_lang"`
}
