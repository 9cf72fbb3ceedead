package cpp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"transmute/transforms/sandbox"
)

// A program runs in serve mode (harness.h, th::serve): one sandboxed process per
// program, which forks a child per command "run candidate g from test k". A sandboxed
// start costs about 7 ms of CPU (namespaces, mounts, cgroups, the init's exec and the
// address-space limit's second stage) and the program's own start-up a millisecond
// more; a fork of the started program a fraction of that. The child is limited as
// the program was (rlimits, the sandbox's cgroups; RLIMIT_CPU counts from zero in a
// new process), and when it ends the server kills its process group and, in a PID
// namespace of its own, every other process of the namespace.

// server is one program's serving process.
type server struct {
	proc  sandbox.Process
	lines chan serverLine
	// outCap bounds the protocol output of one command, as Limits.OutputBytes bounds a
	// program's stdout.
	outCap int64
	// cpuLimit is the RLIMIT_CPU each child inherits (the server's limits' CPUTime).
	cpuLimit time.Duration
}

type serverLine struct {
	b        []byte
	tooLong  bool // a line longer than the cap: the reader stopped
	finished bool // the stream ended
}

// exitInfo is the "#exit" line of a command: how the child ended.
type exitInfo struct {
	code   int // exit code, -1 when killed by a signal
	signal syscall.Signal
	cpu    time.Duration
	rssKB  int64
	killed bool // past its wall budget, killed by the server
}

// reapNS tells whether the sandbox gives each program a PID namespace of its own, in
// which the server may kill every process but the init after each command.
var reapNS = sync.OnceValue(func() bool {
	return slices.Contains(sandbox.Protections(), "pid_ns")
})

// startServer starts p in serve mode with lim (the sandbox's limits for the server's
// life). It returns nil and the outcome when the program did not start (exited or
// died before "#ready": a static initializer, a missing library).
func startServer(ctx context.Context, p program, lim sandbox.Limits) (*server, *sandbox.Outcome, error) {
	reap := "0"
	if reapNS() {
		reap = "1"
	}
	spec := sandbox.Spec{
		Path:     p.bin,
		Args:     []string{"serve", reap},
		ReadOnly: []string{filepath.Dir(p.bin)},
		Limits:   lim,
	}
	proc, err := sandbox.Start(ctx, spec)
	if err != nil {
		return nil, nil, err
	}
	s := &server{proc: proc, lines: make(chan serverLine, 64), outCap: lim.WithDefaults().OutputBytes, cpuLimit: lim.CPUTime}
	go s.read()
	l, ok := <-s.lines
	if ok && !l.finished && string(l.b) == "#ready" {
		return s, nil, nil
	}
	proc.Kill()
	o, err := proc.Wait()
	if err != nil {
		return nil, nil, err
	}
	return nil, &o, nil
}

// read sends the server's stdout line by line; a line past outCap ends it.
func (s *server) read() {
	defer close(s.lines)
	sc := bufio.NewScanner(s.proc.Stdout())
	sc.Buffer(make([]byte, 0, 64<<10), int(min(s.outCap, 1<<30))+1)
	for sc.Scan() {
		s.lines <- serverLine{b: bytes.Clone(sc.Bytes())}
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		s.lines <- serverLine{tooLong: true}
		return
	}
	s.lines <- serverLine{finished: true}
}

// errServerGone is returned by command when the server ended or had to be killed.
var errServerGone = errors.New("server gone")

// command runs candidate g from test from, and returns the lines the child wrote (to
// its own pipe: see serve in harness.h) and how it ended. overflow is set when its output passed the cap (the server is then
// killed); an errServerGone error means the server is gone (its outcome tells why).
func (s *server) command(ctx context.Context, g, from int, wall, cpu, budget time.Duration, stack int64) (lines [][]byte, ex exitInfo, overflow bool, err error) {
	cmd := fmt.Sprintf("%d %d %.3f %.3f %.3f %d\n", g, from, wall.Seconds(), cpu.Seconds(), budget.Seconds(), stack)
	if _, err := s.proc.Stdin().Write([]byte(cmd)); err != nil {
		s.proc.Kill()
		return nil, ex, false, errServerGone
	}
	// The server enforces the budget itself; this is for a server that stops
	// answering.
	timer := time.NewTimer(budget + 5*time.Second)
	defer timer.Stop()
	var size int64
	for {
		select {
		case <-ctx.Done():
			s.proc.Kill()
			return lines, ex, false, ctx.Err()
		case <-timer.C:
			s.proc.Kill()
			return lines, ex, false, errServerGone
		case l, ok := <-s.lines:
			switch {
			case !ok || l.finished:
				return lines, ex, false, errServerGone
			case l.tooLong:
				s.proc.Kill()
				return lines, ex, true, errServerGone
			}
			if bytes.HasPrefix(l.b, []byte("#exit ")) {
				ex, err := parseExit(l.b)
				if err != nil {
					s.proc.Kill()
					return lines, ex, false, err
				}
				return lines, ex, false, nil
			}
			if bytes.HasPrefix(l.b, []byte("#fail ")) {
				s.proc.Kill()
				return lines, ex, false, fmt.Errorf("cpp server: %s", l.b[6:])
			}
			if size += int64(len(l.b)) + 1; size > s.outCap {
				s.proc.Kill()
				return lines, ex, true, errServerGone
			}
			// The child's lines, which the server forwards as "#o <line>"; the
			// server writes nothing else.
			if child, ok := bytes.CutPrefix(l.b, []byte("#o ")); ok {
				lines = append(lines, child)
			}
		}
	}
}

func parseExit(b []byte) (exitInfo, error) {
	f := strings.Fields(string(b))
	var ex exitInfo
	if len(f) != 7 {
		return ex, fmt.Errorf("cpp server: bad exit line %q", b)
	}
	var n [6]int64
	for i := range n {
		v, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil {
			return ex, fmt.Errorf("cpp server: bad exit line %q", b)
		}
		n[i] = v
	}
	ex.code, ex.signal, ex.cpu, ex.rssKB, ex.killed = int(n[1]), syscall.Signal(n[2]), time.Duration(n[3]), n[4], n[5] == 1
	return ex, nil
}

// oomKills is the server's cgroup OOM kills so far.
func (s *server) oomKills() int {
	if c, ok := s.proc.(sandbox.OOMCounter); ok {
		return c.OOMKills()
	}
	return 0
}

// close ends the server (EOF on its commands) and waits for it.
func (s *server) close() {
	s.proc.Stdin().Close()
	s.drain(5 * time.Second)
	s.proc.Wait()
}

// kill ends the server at once and returns its outcome.
func (s *server) kill() sandbox.Outcome {
	s.proc.Kill()
	s.drain(5 * time.Second)
	o, _ := s.proc.Wait()
	return o
}

// drain reads the rest of the output (the stream ends when the whole tree has
// ended), killing the server if that takes longer than d.
func (s *server) drain(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case _, ok := <-s.lines:
			if !ok {
				return
			}
		case <-t.C:
			s.proc.Kill()
			for range s.lines {
			}
			return
		}
	}
}

// outcome turns a child's exit into the Outcome a program run would have had.
func (ex exitInfo) outcome(cpuLimit time.Duration, oom bool) sandbox.Outcome {
	o := sandbox.Outcome{ExitCode: ex.code, CPUTime: ex.cpu, MaxRSSKB: ex.rssKB, WallTimeout: ex.killed, MemoryExceeded: oom}
	if ex.code < 0 {
		o.Signal = ex.signal.String()
		lim := (cpuLimit + time.Second - 1) / time.Second * time.Second
		o.CPUTimeout = ex.signal == syscall.SIGXCPU ||
			(ex.signal == syscall.SIGKILL && !o.WallTimeout && !oom && ex.cpu >= lim*8/10)
	}
	return o
}
