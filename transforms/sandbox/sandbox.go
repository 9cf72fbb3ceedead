// Package sandbox runs untrusted programs under limits: CPU time, wall time, memory,
// processes, file size, open files and output size; no network; a private temporary
// directory; an environment with nothing of the parent's.
//
// NOTE: this file fixes the API. The first implementation is minimal (clean
// environment, rlimits through prlimit(1), process-group kill, output caps); the
// hardened one adds namespaces, a private /tmp, cgroups and seccomp behind the same API.
package sandbox

import (
	"io"
	"time"
)

// Limits bound one sandboxed process (and everything it starts).
type Limits struct {
	CPUTime       time.Duration // the program's CPU (the init's timer; RLIMIT_CPU twice that, rounded up, behind it); 0 = default
	WallTime      time.Duration // killed after this; 0 = default
	MemoryBytes   int64         // address space (or cgroup memory when AddressSpace is false); 0 = default
	MaxProcs      int           // processes/threads; 0 = default
	FileSizeBytes int64         // largest file it may write; 0 = default
	OpenFiles     int           // 0 = default
	OutputBytes   int64         // stdout and stderr are each cut after this; 0 = default
}

// DefaultLimits are used for every zero field.
var DefaultLimits = Limits{
	CPUTime:       10 * time.Second,
	WallTime:      20 * time.Second,
	MemoryBytes:   1 << 30,
	MaxProcs:      64,
	FileSizeBytes: 16 << 20,
	OpenFiles:     64,
	OutputBytes:   8 << 20,
}

// WithDefaults fills zero fields from DefaultLimits.
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits
	if l.CPUTime == 0 {
		l.CPUTime = d.CPUTime
	}
	if l.WallTime == 0 {
		l.WallTime = d.WallTime
	}
	if l.MemoryBytes == 0 {
		l.MemoryBytes = d.MemoryBytes
	}
	if l.MaxProcs == 0 {
		l.MaxProcs = d.MaxProcs
	}
	if l.FileSizeBytes == 0 {
		l.FileSizeBytes = d.FileSizeBytes
	}
	if l.OpenFiles == 0 {
		l.OpenFiles = d.OpenFiles
	}
	if l.OutputBytes == 0 {
		l.OutputBytes = d.OutputBytes
	}
	return l
}

// Spec describes a program to run.
type Spec struct {
	Path string   // absolute path of the executable
	Args []string // arguments, without argv[0]
	// Env holds the only variables the program sees (besides PATH, HOME=WorkDir,
	// TMPDIR=WorkDir, LANG=C.UTF-8 which the sandbox sets). Never pass secrets.
	Env []string
	// WorkDir is the program's private, writable directory; created (and removed
	// afterwards) by the sandbox when empty. It is handed to the run's own uid, so
	// runs at the same time must not share one.
	WorkDir string
	// ReadOnly lists host paths the program needs to read (a compiled class dir, a
	// header cache) when the sandbox hides the host's files.
	ReadOnly []string
	Limits   Limits
	// NoAddressSpaceLimit skips RLIMIT_AS, for runtimes that reserve much more virtual
	// memory than they use (the JVM); their memory is bounded by their own flag and a
	// cgroup where available.
	NoAddressSpaceLimit bool
	// RealTimePriority, when > 0, runs the program under the SCHED_FIFO real-time
	// policy at this priority (1-99), where the kernel allows it (root): a busy
	// program then keeps its core against every ordinary process, which makes its
	// CPU time much steadier under load (profiling runs). It stays bounded by the CPU
	// and wall limits and by the kernel's real-time throttling (by default 5% of each
	// second is left to other tasks). When the policy cannot be set the program runs
	// as usual.
	RealTimePriority int
}

// Outcome is how a program ended.
type Outcome struct {
	ExitCode int    // -1 when killed by a signal
	Signal   string // e.g. "killed", "segmentation fault"; "" when it exited
	Stdout   []byte
	Stderr   []byte
	// StdoutTruncated or StderrTruncated: the output passed Limits.OutputBytes.
	StdoutTruncated, StderrTruncated bool
	CPUTime                          time.Duration // user+sys of the process tree
	WallTime                         time.Duration
	MaxRSSKB                         int64
	WallTimeout                      bool // killed at Limits.WallTime
	CPUTimeout                       bool // killed at Limits.CPUTime (or by RLIMIT_CPU)
	MemoryExceeded                   bool // a cgroup OOM kill, where cgroups are active
	// Stopped: a process of the tree stayed stopped (SIGSTOP, SIGTSTP...) and the
	// tree was killed at once (stopped.go); WallTimeout is set with it.
	Stopped bool
}

// OOMCounter is implemented by the Process of Start: the number of the memory
// cgroup's OOM kills so far.
type OOMCounter interface {
	OOMKills() int
}

// Process is a started sandboxed program with pipes, for engines that keep a worker
// alive across many candidates (a JVM, a fork server).
type Process interface {
	Stdin() io.WriteCloser
	Stdout() io.Reader // capped at Limits.OutputBytes per process lifetime is NOT applied: the engine reads a protocol
	// Wait waits for the process tree to end and returns its outcome (Stdout empty:
	// the caller read it).
	Wait() (Outcome, error)
	// Kill ends the whole process tree at once.
	Kill()
	Pid() int
}
