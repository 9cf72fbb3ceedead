//go:build unix

package mutate

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the user+system CPU time consumed by this process.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkGenerateJava mutates the Java gold functions of the shared
// TransCoder-test sample, one function per iteration on one goroutine, and
// reports valid (re-parsed) mutants per second of wall time and per second
// of CPU time (the per-core rate, unaffected by other load on the machine).
func BenchmarkGenerateJava(b *testing.B) {
	recs := loadGold(b)
	valid := 0
	cpu0 := cpuTime(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ms, _, err := Generate("java", recs[i%len(recs)].Java, Options{})
		if err != nil {
			b.Fatal(err)
		}
		valid += len(ms)
	}
	b.StopTimer()
	cpu := cpuTime(b) - cpu0
	b.ReportMetric(float64(valid)/b.Elapsed().Seconds(), "valid-mutants/s/core")
	b.ReportMetric(float64(valid)/cpu.Seconds(), "valid-mutants/cpu-s")
	b.ReportMetric(float64(valid)/float64(b.N), "mutants/op")
}
