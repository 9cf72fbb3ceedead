//go:build unix

package mutate

import (
	"fmt"
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

// BenchmarkGenerateJava mutates every Java gold function of the shared
// TransCoder-test sample per iteration, on one goroutine, and reports valid
// (re-parsed) mutants per second of CPU time (the per-core rate, unaffected by other
// load on the machine) and per second of wall time, and the mutants per problem
// beside MBTA's 75,082 mutants for 612 programs (122.7 per program).
func BenchmarkGenerateJava(b *testing.B) {
	recs := loadGold(b)
	valid, functions := 0, 0
	cpu0 := cpuTime(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, r := range recs {
			ms, _, err := Generate("java", r.Java, Options{})
			if err != nil {
				continue // a gold function that does not parse cleanly has no mutants
			}
			valid += len(ms)
			functions++
		}
	}
	b.StopTimer()
	cpu := cpuTime(b) - cpu0
	b.ReportMetric(float64(valid)/cpu.Seconds(), "valid-mutants/cpu-s")
	b.ReportMetric(float64(valid)/b.Elapsed().Seconds(), "valid-mutants/s")
	perProblem := float64(valid) / float64(functions)
	b.ReportMetric(perProblem, "mutants/problem")
	fmt.Printf("BENCH mutate_java functions=%d valid_mutants=%d valid_mutants_per_cpu_s=%.0f target_per_core=2000 ratio_to_target=%.1f mutants_per_problem=%.1f paper_mutants_per_problem=%.1f\n",
		functions/b.N, valid/b.N, float64(valid)/cpu.Seconds(), float64(valid)/cpu.Seconds()/2000, perProblem, 75082.0/612)
}
