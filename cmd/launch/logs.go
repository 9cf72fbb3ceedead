package main

import (
	"context"
	"io"
	"log/slog"
	"os"
)

// quietLogs filters the runner's slog lines (Prism's job service, staging, the SDK
// harness's relayed logs, which beam.Init sends to stderr at level info): without
// --verbose only warnings and errors pass, and none once ctx is cancelled (an
// interrupted run's bundles fail by design; their "Bundle Failed" errors are noise).
// The progress line and the summary are written apart from slog and stay.
type quietLogs struct {
	inner   slog.Handler
	ctx     context.Context
	verbose bool
	// clear: stderr is a terminal, where the progress line is redrawn in place; a log
	// line first erases it, so that it starts at the left margin (the meter redraws
	// below it at its next update).
	clear io.Writer
}

// hideRunnerLogs puts quietLogs in front of the default slog handler.
func hideRunnerLogs(ctx context.Context, verbose bool) {
	q := quietLogs{inner: slog.Default().Handler(), ctx: ctx, verbose: verbose}
	if fi, err := os.Stderr.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		q.clear = os.Stderr
	}
	slog.SetDefault(slog.New(q))
}

func (q quietLogs) Enabled(ctx context.Context, l slog.Level) bool {
	if q.verbose {
		return q.inner.Enabled(ctx, l)
	}
	return l >= slog.LevelWarn && q.ctx.Err() == nil && q.inner.Enabled(ctx, l)
}

func (q quietLogs) Handle(ctx context.Context, r slog.Record) error {
	if !q.Enabled(ctx, r.Level) { // a caller may skip Enabled
		return nil
	}
	if q.clear != nil {
		io.WriteString(q.clear, "\r\033[K")
	}
	return q.inner.Handle(ctx, r)
}

func (q quietLogs) WithAttrs(as []slog.Attr) slog.Handler {
	q.inner = q.inner.WithAttrs(as)
	return q
}

func (q quietLogs) WithGroup(name string) slog.Handler {
	q.inner = q.inner.WithGroup(name)
	return q
}
