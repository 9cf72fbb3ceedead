// Package progress prints the progress of a long stage on stderr: on a terminal one
// line that updates in place (counts, elapsed time, ETA), elsewhere (a log file, CI)
// a plain line at most every Every, so that logs hold no carriage-return runs.
//
// A meter is fed either by cmd/launch from the job's Beam counters, polled from the
// job service while the job runs (evaluate and MBTA in process), or, as a fallback,
// by the DoFns of this process (the other jobs): those counts are process-wide and
// say nothing of workers in other processes.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Meter counts done items against a total that may grow (shards arrive one by one).
type Meter struct {
	// Label starts each line, e.g. "transmute" or "transmute mbta".
	Label string
	// Unit names the items: "problems", "programs".
	Unit string
	// W is where lines go (os.Stderr); TTY makes the line update in place.
	W   io.Writer
	TTY bool
	// Every is the interval of plain lines when not on a terminal (default 30s), and
	// MinRedraw the least interval of redraws on one (default 200ms).
	Every, MinRedraw time.Duration
	// Now is the clock (tests set it).
	Now func() time.Time

	mu          sync.Mutex
	start, last time.Time
	done, total int64
	drawn       bool
}

// Stderr is a meter on os.Stderr, updating in place when stderr is a terminal.
func Stderr(label, unit string) *Meter {
	return &Meter{Label: label, Unit: unit, W: os.Stderr, TTY: isTerminal(os.Stderr)}
}

// isTerminal: a character device (a tty; /dev/null too, where nothing is read).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func (m *Meter) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

// AddTotal announces n more items; the clock starts at the first call.
func (m *Meter) AddTotal(n int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.start.IsZero() {
		m.start = m.now()
		m.last = m.start
	}
	m.total += n
}

// Done records n finished items and prints when due: always on the last item,
// else on a terminal after MinRedraw, elsewhere after Every.
func (m *Meter) Done(n int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.start.IsZero() {
		m.start = m.now()
		m.last = m.start
	}
	m.done += n
	now := m.now()
	every := m.Every
	if every <= 0 {
		every = 30 * time.Second
	}
	if m.TTY {
		every = m.MinRedraw
		if every <= 0 {
			every = 200 * time.Millisecond
		}
	}
	if m.done < m.total && now.Sub(m.last) < every {
		return
	}
	m.last = now
	line := m.line(now)
	if m.TTY {
		fmt.Fprintf(m.W, "\r%s\x1b[K", line)
		m.drawn = true
	} else {
		fmt.Fprintln(m.W, line)
	}
}

// Finish ends the updating line with a newline (nothing when not on a terminal).
func (m *Meter) Finish() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.TTY && m.drawn {
		fmt.Fprintln(m.W)
		m.drawn = false
	}
}

// Line renders the current state.
func (m *Meter) Line() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.line(m.now())
}

func (m *Meter) line(now time.Time) string {
	el := now.Sub(m.start)
	s := fmt.Sprintf("[%s] %d/%d %s", m.Label, m.done, m.total, m.Unit)
	if m.total > 0 {
		s += fmt.Sprintf(" (%.0f%%)", 100*float64(m.done)/float64(m.total))
	}
	s += ", " + el.Round(time.Second).String()
	if eta, ok := ETA(el, m.done, m.total); ok {
		s += ", ETA " + eta.Round(time.Second).String()
	}
	return s
}

// ETA extrapolates the time left from the rate so far; ok is false before the first
// item or after the last.
func ETA(elapsed time.Duration, done, total int64) (time.Duration, bool) {
	if done <= 0 || done >= total {
		return 0, false
	}
	return time.Duration(float64(elapsed) * float64(total-done) / float64(done)), true
}
