package testenv

import (
	"os"
	"strconv"
	"syscall"
	"time"

	"transmute/internal/procfs"
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

// TreeCPU is CPU plus what the live descendants of this process have used so far
// (user+system, theirs and their reaped children's, from /proc/<pid>/stat): the CPU
// of a stretch of work during which long-lived workers keep running, such as an
// engine's pooled JVM or compile server, without closing them. A process reaped
// while it is read may be counted twice or missed, at clock-tick resolution.
func TreeCPU() time.Duration {
	return CPU() + descendantsCPU(os.Getpid())
}

// clockTick is USER_HZ, the unit of /proc/<pid>/stat's times (100 on Linux).
const clockTick = 10 * time.Millisecond

func descendantsCPU(root int) time.Duration {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	kids := map[int][]int{}
	times := map[int]time.Duration{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		f, ok := procfs.Stat(pid)
		if !ok || len(f) < 15 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		kids[ppid] = append(kids[ppid], pid)
		var t int64
		for _, i := range []int{11, 12, 13, 14} { // utime, stime, cutime, cstime
			n, _ := strconv.ParseInt(f[i], 10, 64)
			t += n
		}
		times[pid] = time.Duration(t) * clockTick
	}
	var sum time.Duration
	todo := append([]int(nil), kids[root]...)
	for len(todo) > 0 {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		// a child's reaped children are in its cutime: its own children still alive
		// are not, so the walk goes on below it
		sum += times[p]
		todo = append(todo, kids[p]...)
	}
	return sum
}
