// Command transmute-sandbox-init is the sandbox's init as a small binary.
//
// The sandbox re-executes a binary to set up namespaces, limits and the
// unprivileged user before it execs the program under test. By default that
// binary is the running one (/proc/self/exe), which for a large pipeline binary
// costs tens of milliseconds and megabytes of package initialisation per run.
// Install this one next to it (same directory, this name) or point
// sandbox.InitExecutable at it, and the sandbox uses it instead:
//
//	go build -o bin/transmute-sandbox-init ./transforms/sandbox/cmd/transmute-sandbox-init
package main

import (
	"fmt"
	"os"

	"transmute/transforms/sandbox"
)

func main() {
	sandbox.Init() // does not return in a sandbox init
	fmt.Fprintln(os.Stderr, "transmute-sandbox-init: run by the sandbox package only")
	os.Exit(2)
}
