package profile

import (
	"fmt"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/values"
)

// EmptyCandidate is the empty candidate of a signature in lang (the program of the
// overhead runs): a function with the same parameters that returns a default
// value. Profiled on the same inputs, it measures what the harness itself spends
// inside the calls' bracket (printing an array result, for one).
func EmptyCandidate(lang string, params []schemas.Param, returns string) (execute.Candidate, error) {
	b, ok := builders[lang]
	if !ok {
		return execute.Candidate{}, fmt.Errorf("profile: no harness for language %q", lang)
	}
	s := &suite{params: params, returns: returns}
	for _, p := range params {
		t, err := values.ParseType(p.Type)
		if err != nil {
			return execute.Candidate{}, fmt.Errorf("profile: parameter %s: %w", p.Name, err)
		}
		s.types = append(s.types, t)
	}
	var err error
	if s.ret, err = values.ParseType(returns); err != nil {
		return execute.Candidate{}, fmt.Errorf("profile: return type: %w", err)
	}
	return b.empty(s), nil
}
