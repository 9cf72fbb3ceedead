package pipelines

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestSweepBeamTemp(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	old := time.Now().Add(-2 * time.Minute)
	file := func(name, content string, mtime time.Time) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gone := file("beamloopbackworker-111", "", old)
	kept := []string{
		file("beamloopbackworker-222", "", time.Now()), // a run that is starting
		file("beamloopbackworker-333", "binary", old),  // not a placeholder
		file("otherprefix-444", "", old),               // not Beam's
	}
	if err := os.Mkdir(filepath.Join(dir, "beamloopbackworker-dir"), 0o700); err != nil {
		t.Fatal(err)
	}
	kept = append(kept, filepath.Join(dir, "beamloopbackworker-dir"))
	if n := SweepBeamTemp(time.Minute); n != 1 {
		t.Errorf("removed %d, want 1", n)
	}
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Errorf("%s still there (%v)", gone, err)
	}
	for _, p := range kept {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}
