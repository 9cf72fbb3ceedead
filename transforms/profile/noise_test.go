package profile

import (
	"math"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestNoiseSampleStats(t *testing.T) {
	ms := time.Millisecond
	s := NoiseSample{Chunks: []time.Duration{10 * ms, 10 * ms, 10 * ms, 14 * ms}}
	// mean 11 ms; sample std sqrt((1+1+1+9)/3) = 2 ms; CV 2/11.
	if s.Mean() != 11*ms || s.Min() != 10*ms {
		t.Errorf("mean %v min %v, want 11ms 10ms", s.Mean(), s.Min())
	}
	if got, want := s.CV(), 2.0/11; math.Abs(got-want) > 1e-12 {
		t.Errorf("CV %v, want %v", got, want)
	}
	one := NoiseSample{Chunks: []time.Duration{5 * ms}}
	if one.CV() != 0 || one.Mean() != 5*ms || one.Min() != 5*ms {
		t.Errorf("one chunk: mean %v min %v CV %v", one.Mean(), one.Min(), one.CV())
	}
	if (NoiseSample{}).Mean() != 0 || (NoiseSample{}).CV() != 0 {
		t.Error("no chunks: want zero mean and CV")
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
	if s.CPU != core || len(s.Chunks) != 4 || s.Start.IsZero() {
		t.Fatalf("sample %+v, want 4 chunks on core %d", s, core)
	}
	for i, c := range s.Chunks {
		// Thread CPU time of ~6M dependent iterations: well above a clock tick's
		// resolution, well below a second on any machine that can run the profiles.
		if c < 100*time.Microsecond || c > 5*time.Second {
			t.Errorf("chunk %d: %v", i, c)
		}
	}
	if s.Min() > s.Mean() || s.CV() < 0 || math.IsNaN(s.CV()) {
		t.Errorf("min %v mean %v CV %v", s.Min(), s.Mean(), s.CV())
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
