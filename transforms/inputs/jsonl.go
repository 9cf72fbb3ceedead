package inputs

import (
	"bytes"
	"encoding/json"

	"transmute/io/corpus"
	"transmute/schemas"
)

// JSONLine renders p as one line of a JSONL corpus (a corpus.JSONLProblem) with
// the tests at positions keep (all when keep is nil). The language-dependent
// marks are not part of the format: the evaluate job finds them again from the
// golds.
func JSONLine(p schemas.Problem, keep []int) ([]byte, error) {
	l := corpus.JSONLProblem{ID: p.ID, Params: p.Params, Returns: p.Returns, Functions: map[string]string{},
		Imports: map[string]string{}, Entry: map[string]string{}}
	if l.Params == nil {
		l.Params = []schemas.Param{}
	}
	for _, f := range p.Functions {
		l.Functions[f.Lang] = f.Code
		l.Entry[f.Lang] = f.Name
		if f.Imports != "" {
			l.Imports[f.Lang] = f.Imports
		}
	}
	if keep == nil {
		for i := range p.Tests {
			keep = append(keep, i)
		}
	}
	for _, i := range keep {
		l.Tests = append(l.Tests, json.RawMessage(p.Tests[i].Args))
	}
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(l); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
