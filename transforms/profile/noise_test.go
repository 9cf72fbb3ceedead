package profile

import (
	"math"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestChunksStats(t *testing.T) {
	ms := time.Millisecond
	c := Chunks{10 * ms, 10 * ms, 14 * ms, 10 * ms}
	// mean 11 ms; sample std sqrt((1+1+9+1)/3) = 2 ms; CV 2/11.
	if c.Mean() != 11*ms || c.Min() != 10*ms || c.Max() != 14*ms {
		t.Errorf("mean %v min %v max %v, want 11ms 10ms 14ms", c.Mean(), c.Min(), c.Max())
	}
	if got, want := c.CV(), 2.0/11; math.Abs(got-want) > 1e-12 {
		t.Errorf("CV %v, want %v", got, want)
	}
	one := Chunks{5 * ms}
	if one.CV() != 0 || one.Mean() != 5*ms || one.Min() != 5*ms || one.Max() != 5*ms {
		t.Errorf("one chunk: mean %v min %v max %v CV %v", one.Mean(), one.Min(), one.Max(), one.CV())
	}
	if Chunks(nil).Mean() != 0 || Chunks(nil).CV() != 0 || Chunks(nil).Max() != 0 {
		t.Error("no chunks: want zero mean, max and CV")
	}
}

func TestNoiseTableIsOneCycle(t *testing.T) {
	next := noiseTable()
	if len(next) != NoiseCacheBytes/4 {
		t.Fatalf("table of %d entries, want %d", len(next), NoiseCacheBytes/4)
	}
	// Following the table from 0 visits every entry once before coming back, so a
	// walk never falls into a short loop that would stay in L1.
	seen := make([]bool, len(next))
	j, n := uint32(0), 0
	for !seen[j] {
		seen[j] = true
		j = next[j]
		n++
	}
	if j != 0 || n != len(next) {
		t.Errorf("cycle through 0 has %d entries (back at %d), want all %d", n, j, len(next))
	}
}

func TestMeasureNoise(t *testing.T) {
	var before unix.CPUSet
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := unix.SchedGetaffinity(0, &before); err != nil {
		t.Fatal(err)
	}
	core := -1
	for c := 0; c < 1024; c++ {
		if before.IsSet(c) {
			core = c // the last core this process may use
		}
	}
	s, err := MeasureNoise(core, 4)
	if err != nil {
		t.Fatal(err)
	}
	if s.CPU != core || len(s.Compute) != 4 || len(s.Cache) != 4 || s.Start.IsZero() {
		t.Fatalf("sample %+v, want 4 chunks of each kind on core %d", s, core)
	}
	for kind, cs := range map[string]Chunks{"compute": s.Compute, "cache": s.Cache} {
		for i, c := range cs {
			// Thread CPU time of 6M dependent iterations or 150,000 dependent loads:
			// well above a clock tick's resolution, well below a second on any
			// machine that can run the profiles.
			if c < 100*time.Microsecond || c > 5*time.Second {
				t.Errorf("%s chunk %d: %v", kind, i, c)
			}
		}
		if cs.Min() > cs.Mean() || cs.Mean() > cs.Max() || cs.CV() < 0 || math.IsNaN(cs.CV()) {
			t.Errorf("%s: min %v mean %v max %v CV %v", kind, cs.Min(), cs.Mean(), cs.Max(), cs.CV())
		}
	}
	// The probe pins a thread of its own, never the caller's.
	var after unix.CPUSet
	if err := unix.SchedGetaffinity(0, &after); err != nil {
		t.Fatal(err)
	}
	if after != before {
		t.Errorf("caller's affinity changed: %v -> %v", before.Count(), after.Count())
	}
	for _, bad := range []struct{ cpu, chunks int }{{-1, 3}, {4096, 3}, {core, 0}} {
		if _, err := MeasureNoise(bad.cpu, bad.chunks); err == nil {
			t.Errorf("MeasureNoise(%d, %d): want an error", bad.cpu, bad.chunks)
		}
	}
}
