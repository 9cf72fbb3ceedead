package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"

	"transmute/internal/proctree"
)

// stopSignals end a run cleanly: Ctrl-C, kill, a closed terminal (SIGHUP) and a
// closed reader of the launcher's output (SIGPIPE, as from `launch ... | head`).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE}

// interruptible returns a context that the first stop signal cancels. The signal
// also kills every child process tree at once (compilers, sandboxed servers and
// programs: proctree.KillAll), so that the pipeline fails fast and run returns
// through its deferred closes (the output lock, the staging directory). A second
// signal kills the trees again and exits at once. stop waits for the killing a
// signal started (main exits next, which would cut it short) and restores the
// default handling.
//
// Once SIGPIPE is caught, a write to any broken pipe raises it, an engine's pipe
// to a worker that died included: only one that leaves the launcher's own stdout or
// stderr without a reader stops the run; the others are the writer's error to handle.
func interruptible(parent context.Context) (ctx context.Context, stop func()) {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, stopSignals...)
	ctx, cancel := context.WithCancel(parent)
	done := make(chan struct{})
	next := func() os.Signal {
		for {
			select {
			case s := <-sigs:
				if s != syscall.SIGPIPE || stdioBroken() {
					return s
				}
			case <-done:
				return nil
			}
		}
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		first := next()
		if first == nil {
			return
		}
		cancel()
		fmt.Fprintf(os.Stderr, "\nlaunch: %v: stopping the run and its processes (again to exit at once)\n", first)
		proctree.KillAll()
		second := next()
		for second == syscall.SIGPIPE { // the launcher's own messages to a closed reader
			second = next()
		}
		if second == nil {
			return
		}
		fmt.Fprintf(os.Stderr, "launch: %v: exiting now\n", second)
		proctree.KillAll()
		code := 130 // 128 + the signal's number, as a shell reports it
		if s, ok := second.(syscall.Signal); ok {
			code = 128 + int(s)
		}
		os.Exit(code)
	}()
	return ctx, func() {
		close(done)
		wg.Wait()
		signal.Stop(sigs)
		cancel()
	}
}

// stdioBroken tells whether the launcher's stdout or stderr is a pipe with no
// reader left (poll reports POLLERR on its write end).
func stdioBroken() bool {
	fds := []unix.PollFd{{Fd: 1, Events: unix.POLLOUT}, {Fd: 2, Events: unix.POLLOUT}}
	if _, err := unix.Poll(fds, 0); err != nil {
		return false
	}
	for _, f := range fds {
		if f.Revents&unix.POLLERR != 0 {
			return true
		}
	}
	return false
}
