package main

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
)

// TestQuietLogs: without --verbose the runner's info lines are dropped and its
// warnings kept; once the run is interrupted nothing passes; --verbose keeps all.
func TestQuietLogs(t *testing.T) {
	for _, verbose := range []bool{false, true} {
		var buf bytes.Buffer
		ctx, cancel := context.WithCancel(context.Background())
		l := slog.New(quietLogs{inner: slog.NewTextHandler(&buf, nil), ctx: ctx, verbose: verbose}).With("job", "job-001")
		l.Info("Serving JobManagement")
		l.Warn("slow bundle")
		cancel()
		l.Error("Bundle Failed.")
		got := buf.String()
		want := map[string]bool{"Serving JobManagement": verbose, "slow bundle": true, "Bundle Failed.": verbose}
		for msg, shown := range want {
			if strings.Contains(got, msg) != shown {
				t.Errorf("verbose %v: %q shown %v, want %v:\n%s", verbose, msg, !shown, shown, got)
			}
		}
		if !strings.Contains(got, "job=job-001") {
			t.Errorf("verbose %v: attributes lost:\n%s", verbose, got)
		}
	}
}

// TestLogLineClearsProgress: on a terminal a log line first erases the progress line
// it would otherwise be appended to ("ETA 6m11stime=...").
func TestLogLineClearsProgress(t *testing.T) {
	var buf bytes.Buffer
	l := slog.New(quietLogs{inner: slog.NewTextHandler(&buf, nil), ctx: context.Background(), clear: &buf})
	buf.WriteString("[transmute evaluate] 4/30 problems (13%), 16s, ETA 1m44s")
	l.Warn("slow bundle")
	if !strings.Contains(buf.String(), "ETA 1m44s\r\033[Ktime=") {
		t.Errorf("the log line does not erase the progress line first: %q", buf.String())
	}
}
