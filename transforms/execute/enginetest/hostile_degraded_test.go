package enginetest

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"transmute/transforms/sandbox"
)

// TestHostileDegraded runs the hostile suite again in a child test process
// whose sandbox uses neither namespaces nor cgroups (sandbox.DegradedEnv), as
// a worker in an unprivileged container does, and logs which protections
// remain and how each hostile candidate ended there. The suite's checks stay
// strict except the one that depends on a protection the child reports absent
// (a file in the shared /tmp without private_tmp, which it logs).
func TestHostileDegraded(t *testing.T) {
	if os.Getenv(sandbox.DegradedEnv) != "" {
		t.Skip("already the degraded child")
	}
	if testing.Short() {
		t.Skip("runs the whole hostile suite again (minutes); not in -short")
	}
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHostileCandidates$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), sandbox.DegradedEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("hostile suite in degraded mode: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`sandbox protections: \[([^\]]*)\]`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("the child did not report its protections:\n%s", out)
	}
	degraded := strings.Fields(string(m[1]))
	if slices.Contains(degraded, "pid_ns") || slices.Contains(degraded, "cgroup_pids") {
		t.Fatalf("the child was not degraded: %v", degraded)
	}
	full := sandbox.Protections()
	var tab bytes.Buffer
	tab.WriteString("\nprotection        this host  degraded\n")
	seen := map[string]bool{}
	for _, p := range append(append([]string(nil), full...), degraded...) {
		if seen[p] {
			continue
		}
		seen[p] = true
		yn := func(ps []string) string {
			if slices.Contains(ps, p) {
				return "yes"
			}
			return "-"
		}
		tab.WriteString(padRight(p, 18) + padRight(yn(full), 11) + yn(degraded) + "\n")
	}
	tab.WriteString("\nhow each hostile candidate ended in degraded mode:\n")
	for _, l := range regexp.MustCompile(`(?m)hostile_test.go:\d+: ((\w+/\w+): \w+ in .*|WITHOUT .*)$`).FindAllSubmatch(out, -1) {
		tab.WriteString("  " + short(string(l[1])) + "\n")
	}
	t.Log(tab.String())
}

func padRight(s string, n int) string {
	if len(s) >= n {
		return s + " "
	}
	return s + strings.Repeat(" ", n-len(s))
}
