package profile

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"gocloud.dev/blob/memblob"

	"transmute/io/cache"
	"transmute/schemas"
	"transmute/transforms/execute"
)

// countOpt: one native repetition, no overhead run, the count mode, on the test
// binary's build cache (the counts are of the calls, not of the builds).
func countOpt(t *testing.T) Options {
	t.Helper()
	if _, err := exec.LookPath("valgrind"); err != nil {
		t.Skip("valgrind not installed (scripts/deps.sh)")
	}
	return Options{Repetitions: 1, TimeLimit: 20 * time.Second, MemoryBytes: 2 << 30, OverheadRepetitions: -1,
		Warmup: -1, Count: true, CountTimeLimit: 120 * time.Second, WorkDir: sharedCache, NoPin: true, NoRealTime: true}
}

// loopCands are candidates of f(int n) -> long that do k*n iterations of a loop
// the compiler cannot remove.
func loopCands(lang string, k int) execute.Candidate {
	switch lang {
	case schemas.Cpp:
		return execute.Candidate{ID: fmt.Sprint("loop", k), Code: fmt.Sprintf(
			"long long f(int n) { volatile long long s = 0; for (int i = 0; i < %d * n; i++) s = s + i; return s; }\n", k)}
	case schemas.Python:
		// s stays below 2**30: one digit of CPython's ints, a fixed cost per step
		return execute.Candidate{ID: fmt.Sprint("loop", k), Code: fmt.Sprintf(
			"def f(n):\n    s = 0\n    for i in range(%d * n):\n        s += 1\n    return s\n", k)}
	default:
		// 50 times the iterations: the JIT's own work (compiling the loop) stays a
		// small part of the count
		return execute.Candidate{ID: fmt.Sprint("loop", k), Code: fmt.Sprintf(
			"static long f(int n) { long s = 0; for (int i = 0; i < %d * 50 * n; i++) { s += i ^ (s >>> 3); } return s; }\n", k)}
	}
}

var (
	loopParams = []schemas.Param{{Name: "n", Type: "int"}}
	loopTests  = []schemas.Test{{Index: 1, Args: "[20000]"}, {Index: 2, Args: "[30000]"}, {Index: 3, Args: "[50000]"}}
)

func count(t *testing.T, lang string, c execute.Candidate, opt Options) Report {
	t.Helper()
	r, err := Profile(context.Background(), lang, c, loopParams, "long", loopTests, opt)
	if err != nil {
		t.Fatalf("%s %s: %v", lang, c.ID, err)
	}
	if r.Status != schemas.StatusOK || !r.Counted {
		t.Fatalf("%s %s: status %s counted %v: %s", lang, c.ID, r.Status, r.Counted, r.Detail)
	}
	return r
}

// The same program counted twice gives the same count (C++, Python) or one within
// 0.01% (Java); a program doing more iterations of the same loop counts
// proportionally more: the counts of k = 1, 2, 3 lie on a line.
func TestCountReproducibleAndProportional(t *testing.T) {
	for _, lang := range []string{schemas.Cpp, schemas.Python, schemas.Java} {
		t.Run(lang, func(t *testing.T) {
			opt := countOpt(t)
			var n [4]float64
			for k := 1; k <= 3; k++ {
				n[k] = float64(count(t, lang, loopCands(lang, k), opt).Instructions)
			}
			again := float64(count(t, lang, loopCands(lang, 1), opt).Instructions)
			t.Logf("%s: counts %.0f %.0f %.0f, again %.0f", lang, n[1], n[2], n[3], again)
			tol := 0.0
			if lang == schemas.Java {
				tol = 0.0001 // C1 alone: a few hundred instructions in 10^8
			}
			if math.Abs(again-n[1]) > tol*n[1] {
				t.Errorf("%s: counted twice: %.0f then %.0f", lang, n[1], again)
			}
			// 100,000 iterations per k: each k adds the same instructions.
			d1, d2 := n[2]-n[1], n[3]-n[2]
			if d1 <= 0 || math.Abs(d2-d1) > 0.01*d1 && lang != schemas.Java || math.Abs(d2-d1) > 0.05*d1 {
				t.Errorf("%s: not proportional to the iterations: +%.0f then +%.0f", lang, d1, d2)
			}
			if lang != schemas.Java && n[1] > 1.2*d1 {
				// the calls are counted, not start-up: k = 1 costs about one step
				t.Errorf("%s: k=1 counts %.0f for a step of %.0f: more than the calls", lang, n[1], d1)
			}
		})
	}
}

// burnCands burn ms of thread CPU per call.
func burnCands(lang string, ms int) execute.Candidate {
	if lang == schemas.Cpp {
		return execute.Candidate{ID: fmt.Sprint("burn", ms), Code: fmt.Sprintf(`#include <time.h>
long long f(int n) {
  timespec a, b; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
  volatile long long s = 0;
  do { for (int i = 0; i < 1000; i++) s = s + i; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b); }
  while ((b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec) < %d000000LL);
  return n;
}
`, ms)}
	}
	return execute.Candidate{ID: fmt.Sprint("burn", ms), Code: fmt.Sprintf(`import time
def f(n):
    end = time.thread_time_ns() + %d000000
    s = 0
    while time.thread_time_ns() < end:
        s += 1
    return n
`, ms)}
}

// The in-process timer measures a candidate that burns 40 ms of CPU per call (3
// calls) within 5%; an empty candidate's calls cost next to nothing while its
// process's start-up does not.
func TestCallsCPUTimer(t *testing.T) {
	for _, lang := range []string{schemas.Cpp, schemas.Python} {
		t.Run(lang, func(t *testing.T) {
			opt := Options{Repetitions: 3, TimeLimit: 20 * time.Second, MemoryBytes: 2 << 30, OverheadRepetitions: -1,
				Warmup: -1, WorkDir: sharedCache, NoPin: true, NoRealTime: true}
			ctx := context.Background()
			r, err := Profile(ctx, lang, burnCands(lang, 40), loopParams, "long", loopTests, opt)
			if err != nil || r.Status != schemas.StatusOK {
				t.Fatalf("%v %s %s", err, r.Status, r.Detail)
			}
			if len(r.CallsCPU) != 3 {
				t.Fatalf("calls CPU of %d repetitions, want 3", len(r.CallsCPU))
			}
			want := 120 * time.Millisecond
			for _, c := range r.CallsCPU {
				if math.Abs(float64(c-want)) > 0.05*float64(want) {
					t.Errorf("calls CPU %v, want %v within 5%%", c, want)
				}
			}
			b := builders[lang]
			_, s, _, _, _ := prepare(lang, loopParams, "long", loopTests, opt)
			e, err := Profile(ctx, lang, b.empty(s), loopParams, "long", loopTests, opt)
			if err != nil || e.Status != schemas.StatusOK {
				t.Fatalf("empty: %v %s %s", err, e.Status, e.Detail)
			}
			t.Logf("%s: burn calls %v (process %v); empty calls %v (process %v)", lang, r.MeanCallsCPU, r.MeanCPU, e.MeanCallsCPU, e.MeanCPU)
			if e.MeanCallsCPU > 200*time.Microsecond {
				t.Errorf("empty candidate's calls cost %v, want near zero", e.MeanCallsCPU)
			}
			if e.MeanCPU < 1*time.Millisecond || e.MeanCPU < 10*e.MeanCallsCPU {
				t.Errorf("empty candidate's process CPU %v: start-up should dominate its calls (%v)", e.MeanCPU, e.MeanCallsCPU)
			}
		})
	}
}

// A count is reused from the cache by content; a changed toolchain is not.
func TestCountCache(t *testing.T) {
	opt := countOpt(t)
	opt.Cache = cache.New(memblob.OpenBucket(nil), "count")
	opt.Toolchain = "g++ 12"
	c := loopCands(schemas.Cpp, 1)
	first := count(t, schemas.Cpp, c, opt)
	if first.Cached {
		t.Fatal("first count came from the cache")
	}
	again := count(t, schemas.Cpp, c, opt)
	if !again.Cached || again.Instructions != first.Instructions {
		t.Errorf("second count: cached %v, %d instructions (first %d)", again.Cached, again.Instructions, first.Instructions)
	}
	other := c
	other.Code += "// another program\n"
	if r := count(t, schemas.Cpp, other, opt); r.Cached {
		t.Error("a changed program was served from the cache")
	}
	opt.Toolchain = "g++ 13"
	if r := count(t, schemas.Cpp, c, opt); r.Cached {
		t.Error("a changed toolchain was served from the cache")
	}
}

// Programs that differ only in spacing and comments build the same bytes and
// share one count; a program with other code is counted.
func TestCountSharedByBuiltBytes(t *testing.T) {
	for _, lang := range []string{schemas.Cpp, schemas.Java} {
		t.Run(lang, func(t *testing.T) {
			opt := countOpt(t)
			opt.Cache = cache.New(memblob.OpenBucket(nil), "count")
			c := loopCands(lang, 1)
			first := count(t, lang, c, opt)
			if first.CountShared || first.CountCPU <= 0 {
				t.Fatalf("first count: shared %v, counted run's CPU %v", first.CountShared, first.CountCPU)
			}
			respaced := c
			respaced.ID = "respaced"
			respaced.Code = "/* the same loop */\n" + strings.ReplaceAll(strings.ReplaceAll(c.Code, "{ ", "{\n    "), "; ", ";\n    ")
			r := count(t, lang, respaced, opt)
			if r.Cached || !r.CountShared || r.Instructions != first.Instructions || r.CountCPU != 0 {
				t.Errorf("respaced: cached %v, shared %v, %d instructions (first %d), counted run's CPU %v",
					r.Cached, r.CountShared, r.Instructions, first.Instructions, r.CountCPU)
			}
			if r := count(t, lang, loopCands(lang, 2), opt); r.CountShared || r.Instructions <= first.Instructions {
				t.Errorf("another loop: shared %v, %d instructions (first %d)", r.CountShared, r.Instructions, first.Instructions)
			}
		})
	}
}

// The allocation peak of the calls is the same in two counted runs and grows
// with what the candidate keeps alive.
func TestAllocPeakStable(t *testing.T) {
	cands := map[string][2]string{
		schemas.Cpp: {"#include <vector>\nlong long f(int n) { std::vector<long long> v(n, 1); long long s = 0; for (auto x : v) s += x; return s; }\n",
			"#include <vector>\nlong long f(int n) { std::vector<long long> v(4 * n, 1); long long s = 0; for (auto x : v) s += x; return s / 4; }\n"},
		schemas.Python: {"def f(n):\n    return sum([1] * n)\n", "def f(n):\n    return sum([1] * (4 * n)) // 4\n"},
		schemas.Java: {"static long f(int n) { long[] v = new long[n]; java.util.Arrays.fill(v, 1); long s = 0; for (long x : v) s += x; return s; }\n",
			"static long f(int n) { long[] v = new long[4 * n]; java.util.Arrays.fill(v, 1); long s = 0; for (long x : v) s += x; return s / 4; }\n"},
	}
	for _, lang := range []string{schemas.Cpp, schemas.Python, schemas.Java} {
		t.Run(lang, func(t *testing.T) {
			opt := countOpt(t)
			small := execute.Candidate{ID: "small", Code: cands[lang][0]}
			big := execute.Candidate{ID: "big", Code: cands[lang][1]}
			a := count(t, lang, small, opt).AllocPeakBytes
			b := count(t, lang, small, opt).AllocPeakBytes
			c := count(t, lang, big, opt).AllocPeakBytes
			t.Logf("%s: alloc peak %d, %d; 4x: %d", lang, a, b, c)
			if a <= 0 || a != b && lang != schemas.Java || math.Abs(float64(a-b)) > 0.01*float64(a) {
				t.Errorf("%s: alloc peak %d then %d", lang, a, b)
			}
			// the largest array is 50,000 longs (400 KB): four times as many
			if lang != schemas.Java && (c < 3*a || c > 5*a) {
				t.Errorf("%s: alloc peak of 4x the data: %d against %d", lang, c, a)
			}
			if lang == schemas.Java && c < 3*a {
				t.Errorf("%s: allocated bytes of 4x the data: %d against %d", lang, c, a)
			}
		})
	}
}

// In the count mode a program whose calls take longer natively than
// CountMaxCalls is timed, not counted: HeavyRepetitions native runs, no count,
// and a detail that says so; a light one beside it is counted once.
func TestCountMaxCallsTimesHeavy(t *testing.T) {
	for _, lang := range []string{schemas.Cpp, schemas.Python} {
		t.Run(lang, func(t *testing.T) {
			opt := countOpt(t)
			opt.CountMaxCalls, opt.HeavyRepetitions = 60*time.Millisecond, 3
			cands := []execute.Candidate{burnCands(lang, 40), loopCands(lang, 1)} // 3 tests: 120 ms of calls
			reps, errs, err := ProfileSuite(context.Background(), lang, cands, loopParams, "long", loopTests, opt)
			if err != nil {
				t.Fatal(err)
			}
			for i, e := range errs {
				if e != nil || reps[i].Status != schemas.StatusOK {
					t.Fatalf("%s: %v %s %s", cands[i].ID, e, reps[i].Status, reps[i].Detail)
				}
			}
			heavy, light := reps[0], reps[1]
			t.Logf("heavy: calls %v over %d runs, counted %v, %q; light: %d instructions over %d runs",
				heavy.MeanCallsCPU, len(heavy.CPUTime), heavy.Counted, heavy.Detail, light.Instructions, len(light.CPUTime))
			if heavy.Counted || heavy.Instructions != 0 || len(heavy.CallsCPU) != 3 || !strings.Contains(heavy.Detail, "timed, not counted") {
				t.Errorf("heavy program: counted %v (%d), %d timed runs, detail %q", heavy.Counted, heavy.Instructions, len(heavy.CallsCPU), heavy.Detail)
			}
			if heavy.MeanCallsCPU < 100*time.Millisecond || heavy.StdCallsCPU <= 0 {
				t.Errorf("heavy program: calls %v, std %v", heavy.MeanCallsCPU, heavy.StdCallsCPU)
			}
			if !light.Counted || light.Instructions <= 0 || len(light.CPUTime) != 1 {
				t.Errorf("light program: counted %v (%d instructions), %d runs", light.Counted, light.Instructions, len(light.CPUTime))
			}
		})
	}
}

// A Java program pinned to one core keeps its JIT under the default scheduling
// (the real-time policy elsewhere): under SCHED_FIFO the JVM's compiler threads
// never ran beside a computing main thread, and a loop stayed interpreted, 45
// times slower. The calls' time with and without NoRealTime stays close.
func TestJavaKeepsItsJITWhenPinned(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the real-time policy needs root")
	}
	c := loopCands(schemas.Java, 40) // 100 M iterations at the largest test
	calls := map[bool]time.Duration{}
	for _, noRT := range []bool{false, true} {
		opt := Options{Repetitions: 1, TimeLimit: 60 * time.Second, MemoryBytes: 2 << 30, OverheadRepetitions: -1,
			Warmup: -1, WorkDir: sharedCache, CPU: 0, NoRealTime: noRT}
		r, err := Profile(context.Background(), schemas.Java, c, loopParams, "long", loopTests, opt)
		if err != nil || r.Status != schemas.StatusOK {
			t.Fatalf("NoRealTime %v: %v %s %s", noRT, err, r.Status, r.Detail)
		}
		calls[noRT] = r.MeanCallsCPU
	}
	t.Logf("calls: default %v, NoRealTime %v", calls[false], calls[true])
	if calls[false] > 3*calls[true] {
		t.Errorf("pinned with the default policy the calls took %v, against %v without the real-time policy: the JIT did not run",
			calls[false], calls[true])
	}
}
