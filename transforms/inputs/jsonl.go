package inputs

import (
	"bytes"
	"encoding/json"

	"transmute/schemas"
)

// jsonlLine is a problem line of Transmute's JSONL corpus format
// (docs/CORPUS_FORMAT.md, read by io/corpus).
type jsonlLine struct {
	ID        string            `json:"id"`
	Params    []schemas.Param   `json:"params"`
	Returns   string            `json:"returns"`
	Functions map[string]string `json:"functions"`
	Imports   map[string]string `json:"imports,omitempty"`
	Entry     map[string]string `json:"entry"`
	Tests     []json.RawMessage `json:"tests"`
}

// JSONLine renders p as one line of a JSONL corpus with the tests at positions
// keep (all when keep is nil). The language-dependent marks are not part of the
// format: the evaluate job finds them again from the golds.
func JSONLine(p schemas.Problem, keep []int) ([]byte, error) {
	l := jsonlLine{ID: p.ID, Params: p.Params, Returns: p.Returns, Functions: map[string]string{},
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
