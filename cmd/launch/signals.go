package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"transmute/internal/proctree"
)

// interruptible returns a context that the first SIGINT or SIGTERM cancels. The
// signal also kills every child process tree at once (compilers, sandboxed
// servers and programs: proctree.KillAll), so that the pipeline fails fast and
// run returns through its deferred closes (the output lock, the staging
// directory). A second signal kills the trees again and exits at once. stop
// waits for the killing a signal started (main exits next, which would cut it
// short) and restores the default handling.
func interruptible(parent context.Context) (ctx context.Context, stop func()) {
	// Registered with NotifyContext's, so that no signal falls between the two.
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	ctx, stopCtx := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var first os.Signal
		select {
		case first = <-sigs:
		case <-done:
			return
		}
		fmt.Fprintf(os.Stderr, "\nlaunch: %v: stopping the run and its processes (again to exit at once)\n", first)
		proctree.KillAll()
		var second os.Signal
		select {
		case second = <-sigs:
		case <-done:
			return
		}
		fmt.Fprintf(os.Stderr, "launch: %v: exiting now\n", second)
		proctree.KillAll()
		code := 130 // 128 + SIGINT, as a shell reports it
		if second == syscall.SIGTERM {
			code = 143
		}
		os.Exit(code)
	}()
	return ctx, func() {
		close(done)
		wg.Wait()
		signal.Stop(sigs)
		stopCtx()
	}
}
