package sandbox

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"transmute/internal/procfs"
)

// A stopped process (SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU) uses no CPU and answers
// nothing, and its timers fire only when it is continued: the CPU limit never comes,
// and the wall limit is a long-lived worker's (hours). A program of the tree can
// stop its parent (a Python or C++ server), itself or its whole group. Nothing the
// sandbox runs is stopped for good reason (there is no terminal and no job
// control), so a watchdog looks at the tree every stopPoll and kills it when one of
// its processes is stopped at two looks in a row; the Outcome says Stopped (and
// WallTimeout: a stopped program would have run out its wall time).

// stopPoll is how often the tree is looked at.
const stopPoll = 100 * time.Millisecond

// stopWalkMax bounds the processes looked at per look (a fork bomb's tree is bounded
// by Limits.MaxProcs anyway).
const stopWalkMax = 4096

// watchStops starts the watchdog over the tree rooted at the process root; it
// calls stopped (once) when a process of it stays stopped. The returned function
// ends the watchdog.
func watchStops(root int, stopped func()) (end func()) {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(stopPoll)
		defer t.Stop()
		var before map[int]bool
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			now := stoppedIn(root)
			for pid := range now {
				if before[pid] {
					stopped()
					return
				}
			}
			before = now
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done) }) }
}

// stoppedIn returns the processes of the tree rooted at root (by /proc's
// task/<tid>/children: a process forked by any thread) that are stopped or
// stopped by a tracer.
func stoppedIn(root int) map[int]bool {
	var out map[int]bool
	stack := []int{root}
	for n := 0; len(stack) > 0 && n < stopWalkMax; n++ {
		pid := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		f, ok := procfs.Stat(pid)
		if !ok || len(f) == 0 {
			continue
		}
		dir := "/proc/" + strconv.Itoa(pid) + "/task"
		tasks, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		st := f[0]
		if st == "Z" && len(tasks) > 0 {
			// A leader that has exited while its other threads run: their state
			// is the process's.
			st = taskState(dir + "/" + tasks[len(tasks)-1].Name() + "/stat")
		}
		if st == "T" || st == "t" {
			if out == nil {
				out = map[int]bool{}
			}
			out[pid] = true
		}
		for _, t := range tasks {
			b, err := os.ReadFile(dir + "/" + t.Name() + "/children")
			if err != nil {
				continue
			}
			for _, c := range strings.Fields(string(b)) {
				if p, err := strconv.Atoi(c); err == nil {
					stack = append(stack, p)
				}
			}
		}
	}
	return out
}

// taskState is the state field of a /proc/<pid>/task/<tid>/stat file, or "".
func taskState(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		if f := strings.Fields(s[i+1:]); len(f) > 0 {
			return f[0]
		}
	}
	return ""
}
