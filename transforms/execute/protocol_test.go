package execute

import (
	"testing"

	"transmute/schemas"
)

// TestCollectorOneResultPerTest: a second line for a (candidate, test) makes that
// test a sandbox_violation of the candidate, which no later line undoes; the other
// candidate's results stay as they were sent.
func TestCollectorOneResultPerTest(t *testing.T) {
	b := Batch{Returns: "int", Tests: []schemas.Test{{Index: 0, Args: "[1]"}, {Index: 1, Args: "[2]"}},
		Candidates: []Candidate{{ID: "a"}, {ID: "b"}}}
	c := NewCollector(b)
	for _, l := range []string{
		`{"c":0,"compile":"ok"}`,
		`{"c":0,"t":0,"s":"ok","v":5}`,
		`{"c":0,"t":0,"s":"ok","v":6}`, // second line for (0,0)
		`{"c":0,"t":0,"s":"ok","v":5}`, // and a third: still a violation
		`{"c":0,"t":1,"s":"ok","v":7}`,
		`{"c":0,"done":true}`,
		`{"c":1,"compile":"ok"}`,
		`{"c":1,"t":0,"s":"exception","e":"boom"}`,
		`{"c":1,"t":1,"s":"ok","v":9}`,
		`{"c":1,"done":true}`,
	} {
		c.Feed([]byte(l))
	}
	res := c.Finish(schemas.StatusInfraError, "")
	if got := res[0].Tests[0]; got.Status != schemas.StatusSandboxViolation || got.Output != "" {
		t.Errorf("candidate a test 0: %+v, want sandbox_violation without output", got)
	}
	if got := res[0].Tests[1]; got.Status != schemas.StatusOK || got.Output != "7" {
		t.Errorf("candidate a test 1: %+v, want ok 7", got)
	}
	if res[0].Status != schemas.StatusSandboxViolation {
		t.Errorf("candidate a: %s, want sandbox_violation", res[0].Status)
	}
	if res[1].Status != schemas.StatusOK || res[1].Tests[0].Status != schemas.StatusRuntimeError || res[1].Tests[1].Output != "9" {
		t.Errorf("candidate b: %+v", res[1])
	}
}
