package execute

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"transmute/schemas"
	"transmute/transforms/values"
)

// The runner protocol: every language's runner (a Java worker, a Python fork server,
// a generated C++ program) reads a job and prints one JSON object per line on stdout:
//
//	{"c":0,"compile":"ok"}                       candidate 0 compiled (or loaded)
//	{"c":1,"compile":"error","msg":"..."}        candidate 1 did not compile
//	{"c":0,"t":3,"s":"ok","v":<value>,"cpu_ns":1200,"wall_ns":1500}
//	{"c":0,"t":4,"s":"exception","e":"ArithmeticException: / by zero"}
//	{"c":0,"t":5,"s":"memory_limit","e":"OutOfMemoryError"}
//	{"c":0,"done":true}                           all tests of candidate 0 were run
//
// "c" is the candidate's index in the batch, "t" the test's position in Batch.Tests.
// "s" is ok, exception (mapped to runtime_error), timeout, memory_limit, output_limit
// or sandbox_violation. "v" is the return value printed by the runner in the
// declared type's JSON form; the Go side canonicalizes it (values.Canonical).
// Anything else on stdout is ignored; a runner must not let the candidate write to
// the protocol stream (it redirects the candidate's stdout). A test gets exactly one
// line: a second one makes the test a sandbox_violation (see Feed), so a candidate
// that forges its own results fails; the runners see to it that a candidate cannot
// write lines for another (docs/ENGINES.md, "What a candidate can reach").
type Line struct {
	C       int             `json:"c"`
	Compile string          `json:"compile,omitempty"`
	Msg     string          `json:"msg,omitempty"`
	T       *int            `json:"t,omitempty"`
	S       string          `json:"s,omitempty"`
	V       json.RawMessage `json:"v,omitempty"`
	E       string          `json:"e,omitempty"`
	CPUNs   int64           `json:"cpu_ns,omitempty"`
	WallNs  int64           `json:"wall_ns,omitempty"`
	RSSKB   int64           `json:"rss_kb,omitempty"`
	Done    bool            `json:"done,omitempty"`
}

// Collector turns protocol lines into Results.
type Collector struct {
	Batch   Batch
	Results []Result
	ret     values.Type
	retErr  error
	// Last is the index of the last candidate seen (for supervisors that restart a
	// worker after a crash), -1 before any.
	Last int
}

// NewCollector prepares empty results, every test not_run.
func NewCollector(b Batch) *Collector {
	c := &Collector{Batch: b, Last: -1}
	c.ret, c.retErr = values.ParseType(b.Returns)
	c.Results = make([]Result, len(b.Candidates))
	for i, cand := range b.Candidates {
		r := Result{CandidateID: cand.ID, Status: schemas.StatusNotRun}
		r.Tests = make([]TestResult, len(b.Tests))
		for j, t := range b.Tests {
			r.Tests[j] = TestResult{Index: t.Index, Status: schemas.StatusNotRun}
		}
		c.Results[i] = r
	}
	return c
}

// Read consumes lines until EOF, returning the first read error other than EOF.
func (c *Collector) Read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		c.Feed(sc.Bytes())
	}
	return sc.Err()
}

// Feed handles one line; it ignores lines that are not protocol objects.
func (c *Collector) Feed(b []byte) {
	if len(b) == 0 || b[0] != '{' {
		return
	}
	var l Line
	if json.Unmarshal(b, &l) != nil || l.C < 0 || l.C >= len(c.Results) {
		return
	}
	c.Last = l.C
	res := &c.Results[l.C]
	switch {
	case l.Compile == "ok":
		res.Status = schemas.StatusOK
	case l.Compile == "error":
		res.Status = schemas.StatusCompileError
		res.Detail = l.Msg
		for j := range res.Tests {
			res.Tests[j].Status = schemas.StatusCompileError
		}
	case l.T != nil:
		j := *l.T
		if j < 0 || j >= len(res.Tests) {
			return
		}
		tr := &res.Tests[j]
		if tr.Status != schemas.StatusNotRun {
			// A test has one result, from the process that ran it: a second line can
			// only come from the candidate writing to the channel (the runners give a
			// candidate no handle on another candidate's), so it is the sender's
			// sandbox violation, and it sticks.
			if tr.Status != schemas.StatusSandboxViolation {
				tr.Status, tr.Output = schemas.StatusSandboxViolation, ""
				tr.Error = "a second result for this test (status " + short(l.S) + "): a forged protocol line"
			}
			return
		}
		tr.CPUTime = time.Duration(l.CPUNs)
		tr.WallTime = time.Duration(l.WallNs)
		tr.MaxRSSKB = l.RSSKB
		tr.Error = l.E
		switch l.S {
		case "ok":
			if c.retErr != nil {
				tr.Status, tr.Error = schemas.StatusInfraError, c.retErr.Error()
				return
			}
			v, err := values.Canonical(c.ret, string(l.V))
			if err != nil {
				// the candidate returned something that is not of the declared type
				tr.Status, tr.Error = schemas.StatusRuntimeError, "bad return value: "+err.Error()
				return
			}
			tr.Status, tr.Output = schemas.StatusOK, v
		case "exception":
			tr.Status = schemas.StatusRuntimeError
		case string(schemas.StatusTimeout), string(schemas.StatusMemoryLimit), string(schemas.StatusOutputLimit),
			string(schemas.StatusSandboxViolation), string(schemas.StatusRuntimeError), string(schemas.StatusInfraError):
			tr.Status = schemas.Status(l.S)
		default:
			tr.Status, tr.Error = schemas.StatusInfraError, fmt.Sprintf("unknown status %q: %s", l.S, l.E)
		}
	case l.Done:
		if res.Status == schemas.StatusNotRun {
			res.Status = schemas.StatusOK
		}
	}
}

// Finish gives every candidate an overall status: compile_error, ok when all tests
// returned or raised, else the first abnormal test status (timeout, memory_limit...).
// Candidates never reached get status; tests never reached keep not_run.
func (c *Collector) Finish(unreached schemas.Status, detail string) []Result {
	for i := range c.Results {
		r := &c.Results[i]
		if r.Status == schemas.StatusCompileError {
			continue
		}
		st := schemas.StatusOK
		reached := false
		for _, t := range r.Tests {
			if t.Status != schemas.StatusNotRun {
				reached = true
			}
			if t.Status != schemas.StatusOK && t.Status != schemas.StatusRuntimeError {
				st = t.Status
				break
			}
		}
		if !reached && len(r.Tests) > 0 {
			r.Status = unreached
			if r.Detail == "" {
				r.Detail = detail
			}
			continue
		}
		r.Status = st
	}
	return c.Results
}

// MarkRest sets the status of the tests of candidate i that were not run.
func (c *Collector) MarkRest(i int, status schemas.Status, msg string) {
	if i < 0 || i >= len(c.Results) {
		return
	}
	for j := range c.Results[i].Tests {
		if c.Results[i].Tests[j].Status == schemas.StatusNotRun {
			c.Results[i].Tests[j].Status = status
			c.Results[i].Tests[j].Error = msg
		}
	}
}

// short cuts s for a message.
func short(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
