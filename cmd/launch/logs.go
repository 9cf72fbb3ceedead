package main

import (
	"context"
	"log/slog"
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
}

// hideRunnerLogs puts quietLogs in front of the default slog handler.
func hideRunnerLogs(ctx context.Context, verbose bool) {
	slog.SetDefault(slog.New(quietLogs{inner: slog.Default().Handler(), ctx: ctx, verbose: verbose}))
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
	return q.inner.Handle(ctx, r)
}

func (q quietLogs) WithAttrs(as []slog.Attr) slog.Handler {
	return quietLogs{inner: q.inner.WithAttrs(as), ctx: q.ctx, verbose: q.verbose}
}

func (q quietLogs) WithGroup(name string) slog.Handler {
	return quietLogs{inner: q.inner.WithGroup(name), ctx: q.ctx, verbose: q.verbose}
}
