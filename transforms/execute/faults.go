package execute

import (
	"context"
	"fmt"
	"strings"
)

// Fault is how a Faulty engine fails a batch.
type Fault int

// The faults: Run returns an error, or Run panics.
const (
	FaultError Fault = iota
	FaultPanic
)

// Faulty wraps e so that Run fails every batch one of whose candidate IDs contains
// match (a stage's call site: "gold/" golds, "#rerun" their second runs, "tr/"
// translations...), with an error or a panic whose message names the batch. It is for
// fault-injection tests of the engines' callers: an engine failure at any call site
// must become an error row while the run goes on.
func Faulty(e Engine, match string, f Fault) Engine {
	return &faulty{Engine: e, match: match, fault: f}
}

type faulty struct {
	Engine
	match string
	fault Fault
}

func (f *faulty) Run(ctx context.Context, b Batch) ([]Result, error) {
	for _, c := range b.Candidates {
		if strings.Contains(c.ID, f.match) {
			msg := fmt.Sprintf("injected engine failure (%s) in %s %s, candidate %s", f.match, b.Lang, b.ProblemID, c.ID)
			if f.fault == FaultPanic {
				panic(msg)
			}
			return nil, fmt.Errorf("%s", msg)
		}
	}
	return f.Engine.Run(ctx, b)
}
