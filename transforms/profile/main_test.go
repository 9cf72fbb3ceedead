package profile

import (
	"fmt"
	"os"
	"testing"

	"transmute/transforms/sandbox"
)

// TestMain lets the sandbox re-execute this test binary as its init, so that the
// tests run under the hardened sandbox where the machine allows it.
func TestMain(m *testing.M) {
	sandbox.Init()
	os.Exit(runTests(m))
}

// sharedCache is the build cache (Options.WorkDir) of the tests that are not about
// building, the count tests included: one precompiled C++ header, one counting
// helper and one build per candidate for the test binary, as a run's suites share
// them. TestProfileThreeLanguages keeps a fresh one.
var sharedCache string

func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "profiletest-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	sharedCache = dir
	return m.Run()
}
