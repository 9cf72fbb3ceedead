// Package proctree starts this process's children (compilers, JVMs, sandbox
// inits) so that none of them outlives it:
//
//   - each child gets its own process group, killed as one (a g++ driver's cc1plus
//     and as, a program's forks);
//   - each child gets SIGKILL as its parent-death signal, for the exits that run no
//     Go code (a second Ctrl-C, kill -9, a crash);
//   - every child is tracked until it has been waited for, so that KillAll (the
//     launcher on SIGINT or SIGTERM) kills every tree at once and refuses new ones;
//   - a command made with exec.CommandContext has its whole group killed when the
//     context ends, not only its first process.
//
// The parent-death signal is sent when the *thread* that forked the child exits,
// not the process (prctl(2) PR_SET_PDEATHSIG; golang/go#27505). The Go runtime
// ends a thread only when a goroutine returns while locked to it (the efficiency
// job's noise probe does so on purpose), and a child forked from any other
// goroutine may have been forked from that very thread. Every child is therefore
// forked from one of a few goroutines that lock their threads for the life of
// the process: those threads exit only with the process.
package proctree

import (
	"bytes"
	"errors"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// ErrStopping is returned by Start once KillAll has been called: the process is
// shutting down and starts nothing more.
var ErrStopping = errors.New("proctree: shutting down, no new child processes")

type request struct {
	cmd  *exec.Cmd
	done chan error
}

var (
	mu       sync.Mutex
	stopping bool
	nextID   int
	live     = map[int]func(){} // id -> kill the child's tree

	spawnOnce sync.Once
	spawnCh   chan request
)

// spawner forks every child from a thread that never exits before the process.
func spawner() {
	runtime.LockOSThread() // never unlocked
	for r := range spawnCh {
		r.done <- r.cmd.Start()
	}
}

// prepare gives cmd its own process group and the parent-death signal, and makes
// a context's cancellation kill the group.
func prepare(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	if !cmd.SysProcAttr.Setsid {
		cmd.SysProcAttr.Setpgid = true
		cmd.SysProcAttr.Pgid = 0
	}
	if cmd.SysProcAttr.Pdeathsig == 0 {
		cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	}
	if cmd.Cancel != nil { // made by exec.CommandContext
		cmd.Cancel = func() error { return killGroup(cmd) }
	}
}

// killGroup kills the process group that cmd's process leads.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		return cmd.Process.Kill()
	}
	return nil
}

// Start starts cmd in its own process group with SIGKILL as its parent-death
// signal, from the spawner thread, and tracks it until release is called: call
// release once cmd.Wait has returned. A command made with exec.CommandContext has
// its group killed when the context ends.
func Start(cmd *exec.Cmd) (release func(), err error) {
	prepare(cmd)
	return StartWith(cmd, func() { killGroup(cmd) })
}

// StartWith starts cmd as it is (its SysProcAttr unchanged) from the spawner
// thread and tracks it until release is called; KillAll calls kill, which must
// end cmd's whole tree. For callers that manage the tree themselves (the sandbox:
// namespaces, cgroups, a uid of its own).
func StartWith(cmd *exec.Cmd, kill func()) (release func(), err error) {
	mu.Lock()
	stop := stopping
	mu.Unlock()
	if stop {
		return func() {}, ErrStopping
	}
	spawnOnce.Do(func() {
		spawnCh = make(chan request)
		// One per core: a start blocks its thread until the child has exec'd
		// (BenchmarkStart).
		for i := 0; i < max(2, runtime.GOMAXPROCS(0)); i++ {
			go spawner()
		}
	})
	r := request{cmd: cmd, done: make(chan error, 1)}
	spawnCh <- r
	if err := <-r.done; err != nil {
		return func() {}, err
	}
	mu.Lock()
	if stopping { // KillAll ran while it was starting
		mu.Unlock()
		kill()
		return func() {}, nil
	}
	id := nextID
	nextID++
	live[id] = kill
	mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			mu.Lock()
			delete(live, id)
			mu.Unlock()
		})
	}, nil
}

// KillAll kills the tree of every child started here and not yet released, and
// makes every later Start fail with ErrStopping. It returns how many trees it
// killed.
func KillAll() int {
	mu.Lock()
	stopping = true
	kills := make([]func(), 0, len(live))
	for _, k := range live {
		kills = append(kills, k)
	}
	mu.Unlock()
	for _, k := range kills {
		k()
	}
	return len(kills)
}

// Stopping tells whether KillAll has been called.
func Stopping() bool {
	mu.Lock()
	defer mu.Unlock()
	return stopping
}

// Run starts cmd as Start does and waits for it.
func Run(cmd *exec.Cmd) error {
	release, err := Start(cmd)
	if err != nil {
		return err
	}
	defer release()
	return cmd.Wait()
}

// Output runs cmd as Run does and returns its standard output; as with
// exec.Cmd.Output, an *exec.ExitError carries the standard error.
func Output(cmd *exec.Cmd) ([]byte, error) {
	if cmd.Stdout != nil {
		return nil, errors.New("proctree: Stdout already set")
	}
	var out, stderr bytes.Buffer
	cmd.Stdout = &out
	captured := cmd.Stderr == nil
	if captured {
		cmd.Stderr = &stderr
	}
	err := Run(cmd)
	var ee *exec.ExitError
	if captured && errors.As(err, &ee) {
		ee.Stderr = stderr.Bytes()
	}
	return out.Bytes(), err
}

// CombinedOutput runs cmd as Run does and returns its standard output and
// standard error together.
func CombinedOutput(cmd *exec.Cmd) ([]byte, error) {
	if cmd.Stdout != nil || cmd.Stderr != nil {
		return nil, errors.New("proctree: Stdout or Stderr already set")
	}
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := Run(cmd)
	return b.Bytes(), err
}
