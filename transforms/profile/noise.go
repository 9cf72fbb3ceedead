package profile

import (
	"fmt"
	"math"
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// Machine noise probes.
//
// The CPU time of a deterministic program varies from run to run with what the
// machine does besides: on a virtual machine, mostly with what other guests do on
// the host's cores, which the guest cannot see (no steal time is reported while its
// virtual CPU runs slowly, for example beside a busy hyperthread sibling). A fixed
// amount of CPU-bound work measured the same way shows how much of a profile's CV
// is the machine's: MeasureNoise runs NoiseChunks chunks of fixed integer work on
// one core and reports the CPU time of each. On our 2-core KVM machine a chunk takes
// about 10 ms when nothing disturbs it and up to twice that when the host is busy,
// in episodes of a few ms to a few seconds.

// NoiseChunkWork is the number of loop iterations in one chunk of a noise probe
// (about 10 ms of CPU on our machine: a dependent chain of shifts and xors that
// the compiler cannot shorten and that barely touches memory).
const NoiseChunkWork = 6_000_000

// NoiseSample is one noise probe: the CPU time of each chunk of fixed work, run
// back to back on one core.
type NoiseSample struct {
	CPU    int
	Start  time.Time
	Chunks []time.Duration
}

// Mean, Min and CV (sample std / mean) of the chunks' CPU times.
func (s NoiseSample) Mean() time.Duration {
	if len(s.Chunks) == 0 {
		return 0
	}
	var sum time.Duration
	for _, c := range s.Chunks {
		sum += c
	}
	return sum / time.Duration(len(s.Chunks))
}

func (s NoiseSample) Min() time.Duration {
	var m time.Duration
	for i, c := range s.Chunks {
		if i == 0 || c < m {
			m = c
		}
	}
	return m
}

func (s NoiseSample) CV() float64 {
	n := len(s.Chunks)
	if n < 2 {
		return 0
	}
	mean := float64(s.Mean())
	if mean == 0 {
		return 0
	}
	var ss float64
	for _, c := range s.Chunks {
		d := float64(c) - mean
		ss += d * d
	}
	return math.Sqrt(ss/float64(n-1)) / mean
}

// noiseSink keeps the work's result alive so the loop is not optimized away.
var noiseSink uint64

// noiseWork runs n iterations of xorshift64.
func noiseWork(n int) {
	x := uint64(88172645463325252)
	for i := 0; i < n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	noiseSink += x
}

func threadCPU() (time.Duration, error) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, err
	}
	return time.Duration(ts.Nano()), nil
}

// MeasureNoise runs chunks chunks of NoiseChunkWork iterations on core cpu, on an
// OS thread of its own pinned there, and returns the thread CPU time of each. The
// thread is discarded afterwards, so the pinning does not leak to other goroutines.
// Run it where a profile would run (holding the core), not beside one.
func MeasureNoise(cpu, chunks int) (NoiseSample, error) {
	if chunks <= 0 {
		return NoiseSample{}, fmt.Errorf("profile: noise probe: %d chunks", chunks)
	}
	type result struct {
		s   NoiseSample
		err error
	}
	done := make(chan result, 1)
	go func() {
		// Never unlocked: the goroutine ends locked, so its thread exits with it.
		runtime.LockOSThread()
		var set unix.CPUSet
		set.Set(cpu)
		if cpu < 0 || cpu >= 1024 || unix.SchedSetaffinity(0, &set) != nil {
			done <- result{err: fmt.Errorf("profile: noise probe: cannot pin a thread to core %d", cpu)}
			return
		}
		var got unix.CPUSet
		if err := unix.SchedGetaffinity(0, &got); err != nil || got.Count() != 1 || !got.IsSet(cpu) {
			done <- result{err: fmt.Errorf("profile: noise probe: thread not pinned to core %d", cpu)}
			return
		}
		s := NoiseSample{CPU: cpu, Start: time.Now(), Chunks: make([]time.Duration, chunks)}
		for i := range s.Chunks {
			t0, err := threadCPU()
			if err != nil {
				done <- result{err: fmt.Errorf("profile: noise probe: %w", err)}
				return
			}
			noiseWork(NoiseChunkWork)
			t1, err := threadCPU()
			if err != nil {
				done <- result{err: fmt.Errorf("profile: noise probe: %w", err)}
				return
			}
			s.Chunks[i] = t1 - t0
		}
		done <- result{s: s}
	}()
	r := <-done
	return r.s, r.err
}
