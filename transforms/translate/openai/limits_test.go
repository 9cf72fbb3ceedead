package openai

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"transmute/schemas"
)

func TestParseSpecRejectsBadOptions(t *testing.T) {
	base := "http://127.0.0.1:1/v1?model=m&"
	for _, q := range []string{
		"timeout=0s", "timeout=-1s", "backoff=0s", "backoff=-5ms", "max_wait=0s", "budget=0s", "budget=-1m",
		"backoff=2m&max_wait=1m", "n=0", "n=-1", "n=1000000000000", "concurrency=0", "concurrency=1000000000000",
		"retries=-1", "retries=100000", "max_tokens=0", "max_tokens=-5", "rpm=-1", "rpm=NaN", "tpm=Inf", "tpm=1e300",
		"temperature=NaN", "temperature=-0.5", "top_p=2", "timeout=soon", "n=two",
	} {
		if _, err := ParseSpec(base + q); err == nil {
			t.Errorf("%s accepted", q)
		}
	}
	o, err := ParseSpec(base + "timeout=30s&backoff=10ms&max_wait=5s&budget=2m&n=3&retries=0")
	if err != nil {
		t.Fatal(err)
	}
	if o.Timeout != 30*time.Second || o.MaxWait != 5*time.Second || o.Budget != 2*time.Minute || o.N != 3 || o.Retries != 0 {
		t.Errorf("parsed %+v", o)
	}
}

// TestBackoffNeverExceedsMaxWait: a Retry-After of an hour, or the hundredth
// attempt's doubling, still waits at most max_wait and more than zero.
func TestBackoffNeverExceedsMaxWait(t *testing.T) {
	tr := &Translator{opts: Options{Backoff: time.Second, MaxWait: 3 * time.Second}}
	if got := tr.backoff(1, &retryAfterError{status: 429, after: time.Hour}); got != 3*time.Second {
		t.Errorf("Retry-After 1h: wait %v, want max_wait 3s", got)
	}
	if got := tr.backoff(1, &retryAfterError{status: 429, after: 20 * time.Millisecond}); got != 20*time.Millisecond {
		t.Errorf("Retry-After 20ms: wait %v", got)
	}
	for attempt := 1; attempt <= 100; attempt++ {
		if d := tr.backoff(attempt, errors.New("x")); d <= 0 || d > 3*time.Second {
			t.Fatalf("attempt %d: wait %v", attempt, d)
		}
	}
	for _, v := range []string{"NaN", "-3", "1e300", "Inf"} {
		if d := parseRetryAfter(v); d < 0 || d > 1e6*time.Second {
			t.Errorf("Retry-After %s: %v", v, d)
		}
	}
}

// TestRetryAfterIsCapped: a server asking to come back in an hour is retried after
// max_wait (the test would time out if the hour were obeyed).
func TestRetryAfterIsCapped(t *testing.T) {
	srv := newFake(t, func(n int64, req chatRequest, w http.ResponseWriter) {
		if n == 1 {
			w.Header().Set("Retry-After", "3600")
			http.Error(w, "busy", http.StatusTooManyRequests)
			return
		}
		reply(w, pyAnswer)
	})
	tr := open(t, srv, "&max_wait=20ms")
	out, err := tr.Translate(context.Background(), request())
	if err != nil || out[0].Status != schemas.TranslationOK || srv.requests.Load() != 2 {
		t.Fatalf("%+v %v after %d requests", out, err, srv.requests.Load())
	}
}

// TestBudgetEndsATranslation: a server that always answers 503 ends as a failed
// translation naming the budget, long before the retries run out.
func TestBudgetEndsATranslation(t *testing.T) {
	srv := newFake(t, func(n int64, req chatRequest, w http.ResponseWriter) {
		w.Header().Set("Retry-After", "1")
		http.Error(w, "down", http.StatusServiceUnavailable)
	})
	tr := open(t, srv, "&retries=100&max_wait=40ms&budget=200ms")
	out, err := tr.Translate(context.Background(), request())
	if err != nil || out[0].Status != schemas.TranslationError || !strings.Contains(out[0].Error, "time budget of 200ms") {
		t.Fatalf("%+v %v", out, err)
	}
	if n := srv.requests.Load(); n >= 101 {
		t.Errorf("%d requests: the budget did not stop the retries", n)
	}
}

// FuzzParseSpec: no option string panics the parser, the limiter set-up or the
// backoff; an accepted one gives positive, capped waits.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{
		"http://h/v1?model=m", "http://h/v1?model=m&backoff=0s", "http://h/v1?model=m&timeout=0",
		"https://h?model=m&n=99999999999&concurrency=-1", "http://h/v1?model=m&rpm=1e308&tpm=0.0001",
		"http://h/v1?model=m&max_wait=1ns&backoff=1ns&retries=100", "http://h/v1?model=m&seed=-9223372036854775808",
		"http://%zz", "ftp://h?model=m", "http://h/v1?model=m&temperature=NaN&top_p=-0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		o, err := ParseSpec(spec)
		if err != nil {
			return
		}
		l := newLimits(o)
		if cap(l.sem) < 1 {
			t.Fatalf("%q: no request slot", spec)
		}
		tr := &Translator{opts: o, lim: l}
		for attempt := 1; attempt <= o.Retries+1 && attempt <= 70; attempt++ {
			if d := tr.backoff(attempt, errors.New("x")); d <= 0 || d > o.MaxWait {
				t.Fatalf("%q attempt %d: wait %v (max_wait %v)", spec, attempt, d, o.MaxWait)
			}
		}
	})
}
