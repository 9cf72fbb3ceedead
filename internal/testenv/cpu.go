package testenv

import (
	"syscall"
	"time"
)

// CPU is the user+system CPU time of this process and of its waited-for
// children so far: what benchmarks charge a run, engines' workers and
// compilers included.
func CPU() time.Duration {
	self, children := CPUSplit()
	return self + children
}

// CPUSplit is CPU apart: this process's, and its waited-for children's.
func CPUSplit() (self, children time.Duration) {
	var s, c syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &s)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &c)
	return time.Duration(s.Utime.Nano() + s.Stime.Nano()), time.Duration(c.Utime.Nano() + c.Stime.Nano())
}
