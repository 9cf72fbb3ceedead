package procfs

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// TestStat: a process whose command name holds a space and a ')' still parses
// (its ppid is this process); a pid that does not exist does not.
func TestStat(t *testing.T) {
	dir := t.TempDir()
	name := dir + "/a) b"
	if err := os.Symlink("/bin/sleep", name); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(name, "5")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	f, ok := Stat(cmd.Process.Pid)
	if !ok || len(f) < 20 || f[1] != strconv.Itoa(os.Getpid()) {
		t.Fatalf("Stat = %q, %v; want ppid %d", f, ok, os.Getpid())
	}
	if st, ok := StartTime(cmd.Process.Pid); !ok || st != f[19] {
		t.Errorf("StartTime = %q, %v; want %q", st, ok, f[19])
	}
	if _, ok := Stat(1 << 30); ok {
		t.Error("Stat of a pid that cannot exist succeeded")
	}
}
