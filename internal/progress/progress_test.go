package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestPlainLinesArePeriodicWithoutCarriageReturns(t *testing.T) {
	var buf bytes.Buffer
	c := &clock{time.Unix(1000, 0)}
	m := &Meter{Label: "transmute", Unit: "problems", W: &buf, Every: 30 * time.Second, Now: c.now}
	m.AddTotal(10)
	for i := 0; i < 9; i++ {
		c.t = c.t.Add(10 * time.Second) // one problem every 10 s
		m.Done(1)
	}
	c.t = c.t.Add(10 * time.Second)
	m.Done(1)
	m.Finish()
	out := buf.String()
	if strings.Contains(out, "\r") || strings.Contains(out, "\x1b") {
		t.Fatalf("control characters in a log: %q", out)
	}
	// Lines at 30 s (3 done), 60 s (6), 90 s (9), and the last item at 100 s.
	want := "[transmute] 3/10 problems (30%), 30s, ETA 1m10s\n" +
		"[transmute] 6/10 problems (60%), 1m0s, ETA 40s\n" +
		"[transmute] 9/10 problems (90%), 1m30s, ETA 10s\n" +
		"[transmute] 10/10 problems (100%), 1m40s\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestTerminalLineUpdatesInPlace(t *testing.T) {
	var buf bytes.Buffer
	c := &clock{time.Unix(1000, 0)}
	m := &Meter{Label: "transmute mbta", Unit: "problems", W: &buf, TTY: true, Now: c.now}
	m.AddTotal(4)
	c.t = c.t.Add(100 * time.Millisecond)
	m.Done(1) // too soon after the start: no redraw
	c.t = c.t.Add(time.Second)
	m.Done(1)
	c.t = c.t.Add(time.Second)
	m.Done(2)
	m.Finish()
	want := "\r[transmute mbta] 2/4 problems (50%), 1s, ETA 1s\x1b[K" +
		"\r[transmute mbta] 4/4 problems (100%), 2s\x1b[K\n"
	if got := buf.String(); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestETA(t *testing.T) {
	if d, ok := ETA(time.Minute, 1, 4); !ok || d != 3*time.Minute {
		t.Errorf("ETA = %v %v", d, ok)
	}
	if _, ok := ETA(time.Minute, 0, 4); ok {
		t.Error("ETA before the first item")
	}
}
