package pipelines

import (
	"fmt"
	"os"
	"sync"
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
