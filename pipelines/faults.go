package pipelines

import (
	"fmt"
	"os"
	"strings"
	"sync"

	"transmute/transforms/execute"
)

// PauseEnv names a point where a run stops and waits to be killed: "evaluate" (after
// the first problem is evaluated), "write" (after the first shard is written) or
// "publish" (launch: after the first shard is published). The lifecycle tests of
// cmd/launch use it to kill -9 a run at a known point instead of guessing with timers.
const PauseEnv = "TRANSMUTE_PAUSE_AT"

var pauseOnce sync.Map

// PauseAt blocks forever, after saying so on stderr, when PauseEnv names point.
func PauseAt(point string) {
	if os.Getenv(PauseEnv) != point {
		return
	}
	if _, loaded := pauseOnce.LoadOrStore(point, true); loaded {
		select {} // the other bundles stop here too
	}
	fmt.Fprintf(os.Stderr, "transmute: paused at %s\n", point)
	select {}
}

// EngineFaultEnv injects an engine failure, for the fault-injection tests of the
// jobs: "<match>" makes every engine the pipelines open fail each batch one of whose
// candidate IDs contains match (a call site: "gold/" golds, "#rerun" their second
// runs, "tr/" translations, "mut/" MBTA mutants...) with an error, "<match>:panic"
// with a panic (execute.Faulty). Every such failure must be an error row while the
// run goes on.
const EngineFaultEnv = "TRANSMUTE_ENGINE_FAULT"

// injectEngineFaults wraps the engines as EngineFaultEnv says (outermost: a cached
// result does not skip the fault).
func injectEngineFaults(engines map[string]execute.Engine) {
	v := os.Getenv(EngineFaultEnv)
	if v == "" {
		return
	}
	fault := execute.FaultError
	if m, ok := strings.CutSuffix(v, ":panic"); ok {
		v, fault = m, execute.FaultPanic
	}
	for lang, e := range engines {
		engines[lang] = execute.Faulty(e, v, fault)
	}
}

// engineFault is EngineFaultEnv's value: part of the key of the engines a process
// shares (stages.go), so that a run with another fault opens its own.
func engineFault() string { return os.Getenv(EngineFaultEnv) }
