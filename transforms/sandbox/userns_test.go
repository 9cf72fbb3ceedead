package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"transmute/internal/testenv"
)

// noSysAdminEnv marks the child of TestUserNSRootWithoutSysAdmin.
const noSysAdminEnv = "TRANSMUTE_SANDBOX_TEST_NO_SYS_ADMIN"

// TestUserNSRootWithoutSysAdmin runs sandbox tests in a child that is root
// but lacks CAP_SYS_ADMIN (setpriv drops it from the bounding set), as a
// worker in a rootful podman container with its defaults: namespaces then
// work only inside a user namespace. The programs must still run as a leased
// uid, not as the namespace's root, which is the host's root
// (docs/runs/2026-11-26-container.md: write_files failed there).
func TestUserNSRootWithoutSysAdmin(t *testing.T) {
	tests := []string{"TestProtectionsReported", "TestUserNSUIDOfProgram", "TestFilesystemIsolation", "TestSecretNotVisible",
		"TestForkBombContained", "TestOrphanKilled", "TestReadOnlyPath"}
	out, prot, err := testenv.WithoutSysAdmin(t, noSysAdminEnv, "^("+strings.Join(tests, "|")+")$")
	if err != nil {
		t.Fatalf("sandbox tests as root without CAP_SYS_ADMIN: %v\n%s", err, out)
	}
	for _, p := range []string{"uid_drop", "pid_ns", "mount_ns", "private_tmp"} {
		if !slices.Contains(prot, p) {
			t.Errorf("user-namespace mode lacks %s: %v", p, prot)
		}
	}
	if slices.Contains(prot, "parent_nondumpable") {
		t.Errorf("programs run as the worker's own uid: %v", prot)
	}
	// The file checks are skipped without uid_drop: they must have run.
	for _, name := range []string{"TestFilesystemIsolation", "TestUserNSUIDOfProgram"} {
		if !strings.Contains(string(out), "--- PASS: "+name+" ") {
			t.Errorf("%s did not pass in the child:\n%s", name, out)
		}
	}
	t.Logf("root without CAP_SYS_ADMIN: %v", prot)
}

// TestUserNSUIDOfProgram checks, in the child of TestUserNSRootWithoutSysAdmin,
// the uid a program has in user-namespace mode as root: a sandbox uid, the
// same inside and on the host, owner of its WorkDir and nothing of root's.
func TestUserNSUIDOfProgram(t *testing.T) {
	need(t, "user_ns")
	if os.Geteuid() != 0 {
		t.Skip("the uid drop needs root")
	}
	root := moduleRoot(t)
	dir, err := os.MkdirTemp(root, ".userns-test-") // root's, 0700 -> 0755 below
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	s := sh("id -u; id -g; echo x > " + dir + "/f && echo WROTE; echo y > own && echo OWN")
	s.WorkDir = t.TempDir()
	o := run(t, s, "")
	lines := strings.Fields(string(o.Stdout))
	t.Logf("stdout %q stderr %q", o.Stdout, o.Stderr)
	if len(lines) < 2 || lines[0] == "0" || lines[1] == "0" {
		t.Fatalf("program not dropped from root: %q %q", o.Stdout, o.Stderr)
	}
	// the uid inside is the file owner outside: the namespace maps it to itself
	if st, err := os.Stat(filepath.Join(s.WorkDir, "own")); err != nil {
		t.Errorf("the program's file: %v", err)
	} else if owner := fmt.Sprint(st.Sys().(*syscall.Stat_t).Uid); owner != lines[0] {
		t.Errorf("the program is uid %s inside, its file's owner on the host is %s", lines[0], owner)
	}
	if slices.Contains(lines, "WROTE") {
		t.Errorf("the program wrote into a root-owned directory")
	}
	if !slices.Contains(lines, "OWN") {
		t.Errorf("the program cannot write its WorkDir: %q", o.Stderr)
	}
}
