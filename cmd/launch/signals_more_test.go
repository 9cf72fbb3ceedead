package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stopHelperEnv makes the test binary a process under interruptible that writes a
// tick to stdout every 20ms until its context is cancelled, then says so on stderr
// and exits 0. Before that it writes to a pipe of its own whose reader is gone, as
// an engine writing to a dead worker does: that SIGPIPE must not stop it.
const stopHelperEnv = "TRANSMUTE_TEST_STOP"

func init() {
	if os.Getenv(stopHelperEnv) != "1" {
		return
	}
	ctx, stop := interruptible(context.Background())
	r, w, _ := os.Pipe()
	r.Close()
	_, err := w.Write([]byte("x"))
	fmt.Fprintf(os.Stderr, "own pipe: %v\n", err)
	for ctx.Err() == nil {
		fmt.Println("tick")
		time.Sleep(20 * time.Millisecond)
	}
	fmt.Fprintln(os.Stderr, "cancelled")
	stop()
	os.Exit(0)
}

// SIGHUP (a closed terminal) and SIGPIPE (`launch | head` once head is gone) stop
// the run through its context, as SIGINT and SIGTERM do, instead of killing the
// launcher with its lock, staging and children left behind; a SIGPIPE from a pipe
// other than stdout or stderr does not.
func TestHangupAndBrokenPipeStopCleanly(t *testing.T) {
	for _, tc := range []string{"sighup", "sigpipe"} {
		t.Run(tc, func(t *testing.T) {
			cmd, stdout, stderr := startHelper(t, stopHelperEnv)
			defer cmd.Process.Kill()
			lines := bufio.NewScanner(stdout)
			for i := 0; i < 5; i++ { // running, past its own broken pipe
				if !lines.Scan() {
					t.Fatalf("no ticks:\n%s", stderr.String())
				}
			}
			if tc == "sighup" {
				if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
					t.Fatal(err)
				}
				go func() {
					for lines.Scan() {
					}
				}()
			} else {
				stdout.Close() // its next tick raises SIGPIPE
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			select {
			case err := <-exited:
				if err != nil {
					t.Fatalf("ended with %v, want a clean stop (exit 0 after its context was cancelled)\n%s", err, stderr.String())
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("still running 30s after the signal:\n%s", stderr.String())
			}
			if !strings.Contains(stderr.String(), "own pipe: write") || !strings.Contains(stderr.String(), "broken pipe") {
				t.Errorf("the write to its own broken pipe did not fail with EPIPE:\n%s", stderr.String())
			}
			if !strings.Contains(stderr.String(), "cancelled") || !strings.Contains(stderr.String(), "stopping the run") {
				t.Errorf("context not cancelled by %s:\n%s", tc, stderr.String())
			}
		})
	}
}
