package pipelines

import (
	"os"
	"path/filepath"
	"time"
)

// SweepBeamTemp removes the placeholder files that Beam's loopback mode (Prism in
// process, ptest) leaves in os.TempDir(): runnerlib.Execute creates an empty
// "beamloopbackworker-*" file as a stand-in worker binary on every run and never
// removes it (the TODO there points at apache/beam#27569), so each run and each
// pipeline test left one behind (382 here in two days). Beam reads the file once,
// when it stages the job right after creating it; only empty files of that name
// older than minAge go, so a run that is just starting keeps its own. It returns
// how many it removed.
func SweepBeamTemp(minAge time.Duration) int {
	names, _ := filepath.Glob(filepath.Join(os.TempDir(), "beamloopbackworker-*"))
	n := 0
	for _, name := range names {
		fi, err := os.Lstat(name)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() != 0 || time.Since(fi.ModTime()) < minAge {
			continue
		}
		if os.Remove(name) == nil {
			n++
		}
	}
	return n
}
