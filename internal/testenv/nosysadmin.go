package testenv

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// WithoutSysAdmin runs this test binary's tests matching run (a -test.run
// pattern) in a child that is root without CAP_SYS_ADMIN (setpriv drops it from
// the bounding set), as a worker in a rootful podman container with its
// defaults: the sandbox can then make namespaces only inside a user namespace,
// whose root is the host's root. env is set in the child, whose own caller
// skips on it. It skips unless root with setpriv(1), and when the child got no
// user namespace; it returns the child's output, the sandbox protections it
// reported, and the child's error.
func WithoutSysAdmin(tb testing.TB, env, run string) ([]byte, []string, error) {
	tb.Helper()
	if os.Getenv(env) != "" {
		tb.Skip("already the child")
	}
	if os.Geteuid() != 0 {
		tb.Skip("needs root (the condition is root without CAP_SYS_ADMIN)")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		tb.Skip("needs setpriv(1) (util-linux)")
	}
	self, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(setpriv, "--bounding-set", "-sys_admin", "--", self, "-test.run="+run, "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), env+"=1")
	out, err := cmd.CombinedOutput()
	m := regexp.MustCompile(`protections: \[([^\]]*)\]`).FindSubmatch(out)
	if m == nil {
		tb.Fatalf("the child did not report its protections (%v):\n%s", err, out)
	}
	prot := strings.Fields(string(m[1]))
	if !slices.Contains(prot, "user_ns") {
		tb.Skipf("no user namespace without CAP_SYS_ADMIN here: %v", prot)
	}
	return out, prot, err
}
