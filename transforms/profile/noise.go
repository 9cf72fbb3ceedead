package profile

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"transmute/transforms/stats"
)

// Machine noise probes.
//
// The CPU time of a deterministic program varies from run to run with what the
// machine does besides: on a virtual machine, mostly with what other guests do on
// the host, which the guest cannot see (no steal time is reported while its virtual
// CPU runs slowly, for example beside a busy hyperthread sibling, or while another
// guest evicts its data from the shared last-level cache). Fixed work measured the
// same way shows how much of a profile's CV is the machine's. MeasureNoise runs two
// kinds of chunks on one core, alternately: compute chunks (integer work in
// registers, which sees only how fast the core runs) and cache chunks (a dependent
// walk over a 4 MiB table: beyond a core's L2, within a shared L3, so it also sees
// the other tenants of the cache). On our 2-core KVM machine, 2026-11-24, 300
// chunks of each on one core: compute CV 0.8% where the cache walk's was 17% (and
// 5.6% for a 64 MiB walk, which goes to memory); the programs of the efficiency run
// just before had a median CV of 5.2% where its compute probes had 1.1%.

// NoiseChunkWork is the number of loop iterations in one compute chunk (about 10
// ms of CPU on our machine: a dependent chain of shifts and xors that the compiler
// cannot shorten and that does not touch memory).
const NoiseChunkWork = 6_000_000

// NoiseCacheBytes is the size of the table a cache chunk walks, and
// NoiseCacheSteps the number of dependent loads in one chunk (6-10 ms here: about
// 60 ns a load, most of them L3 hits or misses, with 58,000 distinct cache lines,
// 3.7 MB, visited in the same order by every chunk).
const (
	NoiseCacheBytes = 4 << 20
	NoiseCacheSteps = 150_000
)

// Chunks are the CPU times of the chunks of one kind in a probe.
type Chunks []time.Duration

// Mean, Min, Max and CV (sample std / mean) of the chunks; 0 when there are none
// (and a CV of 0 for one chunk).
func (c Chunks) Mean() time.Duration {
	if len(c) == 0 {
		return 0
	}
	var sum time.Duration
	for _, d := range c {
		sum += d
	}
	return sum / time.Duration(len(c))
}

func (c Chunks) Min() time.Duration {
	var m time.Duration
	for i, d := range c {
		if i == 0 || d < m {
			m = d
		}
	}
	return m
}

func (c Chunks) Max() time.Duration {
	var m time.Duration
	for _, d := range c {
		m = max(m, d)
	}
	return m
}

func (c Chunks) CV() float64 {
	xs := make([]float64, len(c))
	for i, d := range c {
		xs[i] = float64(d)
	}
	_, _, cv := stats.MeanStdCV(xs)
	return cv
}

// NoiseSample is one noise probe: the CPU time of each compute chunk and of each
// cache chunk, run alternately on one core.
type NoiseSample struct {
	CPU     int
	Start   time.Time
	Compute Chunks
	Cache   Chunks
}

// noiseSink keeps the work's result alive so the loops are not optimized away
// (atomic: two cores may be probed at once).
var noiseSink atomic.Uint64

// noiseWork runs n iterations of xorshift64.
func noiseWork(n int) {
	x := uint64(88172645463325252)
	for i := 0; i < n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	noiseSink.Add(x)
}

// noiseTable is the cache chunks' table: one random cycle through all its entries
// (Sattolo's algorithm, fixed seed), so every load depends on the one before and
// the hardware cannot prefetch the next. Built once, on first use, and kept (4 MiB).
var noiseTable = sync.OnceValue(func() []uint32 {
	n := NoiseCacheBytes / 4
	next := make([]uint32, n)
	for i := range next {
		next[i] = uint32(i)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := n - 1; i > 0; i-- {
		j := rng.IntN(i)
		next[i], next[j] = next[j], next[i]
	}
	return next
})

// noiseWalk follows the table's cycle for steps loads from entry 0.
func noiseWalk(next []uint32, steps int) {
	j := uint32(0)
	for i := 0; i < steps; i++ {
		j = next[j]
	}
	noiseSink.Add(uint64(j))
}

func threadCPU() (time.Duration, error) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, err
	}
	return time.Duration(ts.Nano()), nil
}

// MeasureNoise runs chunks compute chunks (NoiseChunkWork iterations) and chunks
// cache chunks (NoiseCacheSteps loads), alternately, on core cpu, on an OS thread
// of its own pinned there, and returns the thread CPU time of each; one cache walk
// before them, not timed, brings the table back into the caches. The thread is
// discarded afterwards, so the pinning does not leak to other goroutines. Run it
// where a profile would run (holding the core), not beside one.
func MeasureNoise(cpu, chunks int) (NoiseSample, error) {
	if chunks <= 0 {
		return NoiseSample{}, fmt.Errorf("profile: noise probe: %d chunks", chunks)
	}
	table := noiseTable()
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
		timed := func(work func()) (time.Duration, error) {
			t0, err := threadCPU()
			if err != nil {
				return 0, err
			}
			work()
			t1, err := threadCPU()
			return t1 - t0, err
		}
		s := NoiseSample{CPU: cpu, Start: time.Now(), Compute: make(Chunks, chunks), Cache: make(Chunks, chunks)}
		noiseWalk(table, NoiseCacheSteps)
		for i := 0; i < chunks; i++ {
			var err error
			if s.Compute[i], err = timed(func() { noiseWork(NoiseChunkWork) }); err == nil {
				s.Cache[i], err = timed(func() { noiseWalk(table, NoiseCacheSteps) })
			}
			if err != nil {
				done <- result{err: fmt.Errorf("profile: noise probe: %w", err)}
				return
			}
		}
		done <- result{s: s}
	}()
	r := <-done
	return r.s, r.err
}
