package enginetest

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"transmute/internal/testenv"
)

// noSysAdminEnv marks the child of TestHostileUserNSRoot.
const noSysAdminEnv = "TRANSMUTE_ENGINETEST_NO_SYS_ADMIN"

// TestHostileUserNSRoot runs the hostile candidates that touch files,
// processes, the network and the secret in a child test process that is root
// without CAP_SYS_ADMIN (setpriv drops it from the bounding set), as a worker
// in a rootful podman container with its defaults: the sandbox can then create
// namespaces only inside a user namespace, whose root is the host's root. The
// programs must still run as a leased uid: before that, write_files created a
// file in the module root in all three languages of the time
// (docs/runs/2026-11-26-container.md).
func TestHostileUserNSRoot(t *testing.T) {
	if testing.Short() {
		t.Skip("runs part of the hostile suite again; not in -short")
	}
	t.Parallel()
	out, prot, err := testenv.WithoutSysAdmin(t, noSysAdminEnv,
		"^TestHostileCandidates$/^("+strings.Join(langs, "|")+")$/^(write_files|fork_bomb|orphan|network|secret)$")
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
