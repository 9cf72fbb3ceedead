package profile

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"time"
)

// cpuTimes reads the busy and total jiffies of every core from /proc/stat.
func cpuTimes() (busy, total map[int]uint64, err error) {
	f, err := os.Open("/proc/stat")
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	busy, total = map[int]uint64{}, map[int]uint64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 || !strings.HasPrefix(fields[0], "cpu") || fields[0] == "cpu" {
			continue
		}
		n, err := strconv.Atoi(strings.TrimPrefix(fields[0], "cpu"))
		if err != nil {
			continue
		}
		var sum, idle uint64
		for i, x := range fields[1:] {
			v, _ := strconv.ParseUint(x, 10, 64)
			sum += v
			if i == 3 || i == 4 { // idle, iowait
				idle += v
			}
		}
		busy[n], total[n] = sum-idle, sum
	}
	return busy, total, sc.Err()
}

// LeastLoadedCPU samples /proc/stat over window and returns the core that was
// least busy, as TRACE pins each profiled command to the least-utilized core
// (it does not consult this process's own affinity mask). It returns fallback when the
// figures cannot be read.
func LeastLoadedCPU(window time.Duration, fallback int) int {
	b0, t0, err := cpuTimes()
	if err != nil {
		return fallback
	}
	time.Sleep(window)
	b1, t1, err := cpuTimes()
	if err != nil {
		return fallback
	}
	best, bestLoad := fallback, 2.0
	for n, tot := range t1 {
		dt := float64(tot - t0[n])
		if dt <= 0 {
			continue
		}
		load := float64(b1[n]-b0[n]) / dt
		if load < bestLoad || load == bestLoad && n < best {
			best, bestLoad = n, load
		}
	}
	return best
}
