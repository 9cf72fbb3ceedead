package profile

import (
	"os"
	"testing"

	"transmute/transforms/sandbox"
)

// TestMain lets the sandbox re-execute this test binary as its init, so that the
// tests run under the hardened sandbox where the machine allows it.
func TestMain(m *testing.M) {
	sandbox.Init()
	os.Exit(m.Run())
}
