package enginetest

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// noSysAdminEnv marks the child of TestHostileUserNSRoot.
const noSysAdminEnv = "TRANSMUTE_ENGINETEST_NO_SYS_ADMIN"

// TestHostileUserNSRoot runs the hostile candidates that touch files,
// processes, the network and the secret in a child test process that is root
// without CAP_SYS_ADMIN (setpriv drops it from the bounding set), as a worker
// in a rootful podman container with its defaults: the sandbox can then create
// namespaces only inside a user namespace, whose root is the host's root. The
// programs must still run as a leased uid: before that, write_files created a
// file in the module root in all three languages
// (docs/runs/2026-11-26-container.md).
func TestHostileUserNSRoot(t *testing.T) {
	if os.Getenv(noSysAdminEnv) != "" {
		t.Skip("already the child")
	}
	if testing.Short() {
		t.Skip("runs part of the hostile suite again; not in -short")
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root (the condition is root without CAP_SYS_ADMIN)")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("needs setpriv(1) (util-linux)")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Parallel()
	cmd := exec.Command(setpriv, "--bounding-set", "-sys_admin", "--", self,
		"-test.run=^TestHostileCandidates$/^(java|python|cpp)$/^(write_files|fork_bomb|orphan|network|secret)$",
		"-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), noSysAdminEnv+"=1")
	out, err := cmd.CombinedOutput()
	m := regexp.MustCompile(`sandbox protections: \[([^\]]*)\]`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("the child did not report its protections (%v):\n%s", err, out)
	}
	prot := strings.Fields(string(m[1]))
	if !slices.Contains(prot, "user_ns") {
		t.Skipf("no user namespace without CAP_SYS_ADMIN here: %v", prot)
	}
	if err != nil {
		t.Fatalf("hostile candidates as root without CAP_SYS_ADMIN: %v\n%s", err, out)
	}
	if !slices.Contains(prot, "uid_drop") {
		t.Errorf("programs not dropped to a sandbox uid: %v", prot)
	}
	for _, lang := range langs {
		if !strings.Contains(string(out), "--- PASS: TestHostileCandidates/"+lang+"/write_files ") {
			t.Errorf("%s/write_files did not run and pass in the child:\n%s", lang, out)
		}
	}
	for _, l := range regexp.MustCompile(`(?m)hostile_test.go:\d+: ((\w+/\w+): \w+ in .*)$`).FindAllSubmatch(out, -1) {
		t.Log(short(string(l[1])))
	}
	t.Logf("protections: %v", prot)
}
