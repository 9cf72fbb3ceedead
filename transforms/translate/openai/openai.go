// Package openai is the translator for any server that speaks the OpenAI
// chat-completions API: OpenAI itself, vLLM, Ollama, llama.cpp's server. Spec:
//
//	openai:https://api.openai.com/v1?model=gpt-4o&key_env=OPENAI_API_KEY&prompt=zero-shot
//
// Query options: model (required), key_env (the name of the environment variable
// holding the API key; the key is never logged, stored, or passed to sandboxed code),
// name (the translator's name in tables; default the model), temperature (0), top_p,
// max_tokens (2048), n (samples, 1), seed, timeout (request timeout, 120s), prompt
// (zero-shot, perf-zero-shot, perf-few-shot, perf-self-refine), prompt_dir (template
// overrides), examples (a corpus spec whose gold functions give perf-few-shot its two
// examples), cache (directory or bucket URL; default .cache/llm; "off" disables),
// rpm and tpm (client-side requests and tokens per minute), concurrency (requests in
// flight per process, 4), retries (6), backoff (first retry delay, 1s), max_wait (cap
// on any one wait between attempts, a server's Retry-After included, 60s), budget
// (total time one sample may take, retries and waits included, 10m). Zero, negative
// or out-of-range values are rejected when the spec is parsed.
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"transmute/internal/clip"
	"transmute/io/cache"
	"transmute/io/corpus"
	"transmute/schemas"
	"transmute/transforms/translate"
)

func init() {
	translate.Register("openai", func(ctx context.Context, rest string) (translate.Translator, error) {
		return Open(ctx, rest)
	})
}

// Options configure the translator.
type Options struct {
	BaseURL     string
	Model       string
	Name        string
	KeyEnv      string
	Temperature float64
	TopP        float64
	MaxTokens   int
	N           int
	Seed        *int64
	Timeout     time.Duration
	Strategy    string
	PromptDir   string
	Examples    string
	Cache       string
	RPM, TPM    float64
	Concurrency int
	Retries     int
	Backoff     time.Duration
	// MaxWait caps any one wait before a retry, Retry-After included.
	MaxWait time.Duration
	// Budget is the total time one sample may take, retries and waits included.
	Budget time.Duration
}

// Bounds of the options: beyond them a value is a typo, and some (a huge n or
// concurrency) would make the process allocate without limit.
const (
	maxSamples     = 1000
	maxConcurrency = 1024
	maxRetries     = 100
	maxPerMinute   = 1e9
)

// knownOptions are the query options ParseSpec reads; any other is refused.
var knownOptions = []string{"model", "name", "key_env", "temperature", "top_p", "max_tokens", "n", "seed",
	"timeout", "prompt", "prompt_dir", "examples", "cache", "rpm", "tpm", "concurrency", "retries", "backoff",
	"max_wait", "budget"}

// ParseSpec reads the part of a spec after "openai:".
func ParseSpec(rest string) (Options, error) {
	u, err := url.Parse(rest)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return Options{}, fmt.Errorf("openai: want an http(s) base URL, got %q", rest)
	}
	q := u.Query()
	u.RawQuery = ""
	if err := translate.CheckOptions("openai", q, knownOptions...); err != nil {
		return Options{}, err
	}
	o := Options{BaseURL: strings.TrimSuffix(u.String(), "/"), Model: q.Get("model"), Name: q.Get("name"),
		KeyEnv: q.Get("key_env"), MaxTokens: 2048, N: 1, Timeout: 120 * time.Second, Strategy: "zero-shot",
		PromptDir: q.Get("prompt_dir"), Examples: q.Get("examples"), Cache: ".cache/llm", Concurrency: 4,
		Retries: 6, Backoff: time.Second, MaxWait: 60 * time.Second, Budget: 10 * time.Minute}
	if o.Model == "" {
		return o, fmt.Errorf("openai: model is required (?model=...)")
	}
	if o.Name == "" {
		o.Name = o.Model
	}
	var perr error
	f := func(k string, dst *float64) {
		if v := q.Get(k); v != "" {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				perr = fmt.Errorf("openai: %s=%q: %v", k, v, err)
			}
			*dst = x
		}
	}
	i := func(k string, dst *int) {
		if v := q.Get(k); v != "" {
			x, err := strconv.Atoi(v)
			if err != nil {
				perr = fmt.Errorf("openai: %s=%q: %v", k, v, err)
			}
			*dst = x
		}
	}
	d := func(k string, dst *time.Duration) {
		if v := q.Get(k); v != "" {
			x, err := time.ParseDuration(v)
			if err != nil {
				perr = fmt.Errorf("openai: %s=%q: %v", k, v, err)
			}
			*dst = x
		}
	}
	f("temperature", &o.Temperature)
	f("top_p", &o.TopP)
	f("rpm", &o.RPM)
	f("tpm", &o.TPM)
	i("max_tokens", &o.MaxTokens)
	i("n", &o.N)
	i("concurrency", &o.Concurrency)
	i("retries", &o.Retries)
	d("timeout", &o.Timeout)
	d("backoff", &o.Backoff)
	d("max_wait", &o.MaxWait)
	d("budget", &o.Budget)
	if v := q.Get("seed"); v != "" {
		s, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			perr = fmt.Errorf("openai: seed=%q: %v", v, err)
		}
		o.Seed = &s
	}
	if v := q.Get("prompt"); v != "" {
		o.Strategy = v
	}
	if v := q.Get("cache"); v != "" {
		o.Cache = v
	}
	if perr != nil {
		return o, perr
	}
	return o, o.check()
}

// check rejects values that would stall, crash or silently misbehave: a zero
// timeout (no timeout at all in net/http), a zero backoff (a panic in the jitter),
// NaN or negative rates, counts that would allocate without bound.
func (o Options) check() error {
	for _, d := range []struct {
		k string
		v time.Duration
	}{{"timeout", o.Timeout}, {"backoff", o.Backoff}, {"max_wait", o.MaxWait}, {"budget", o.Budget}} {
		if d.v <= 0 {
			return fmt.Errorf("openai: %s=%v: must be positive", d.k, d.v)
		}
	}
	if o.Backoff > o.MaxWait {
		return fmt.Errorf("openai: backoff=%v is longer than max_wait=%v", o.Backoff, o.MaxWait)
	}
	for _, f := range []struct {
		k      string
		v, top float64
	}{{"temperature", o.Temperature, 2}, {"top_p", o.TopP, 1}, {"rpm", o.RPM, maxPerMinute}, {"tpm", o.TPM, maxPerMinute}} {
		if !(f.v >= 0 && f.v <= f.top) { // also false for NaN
			return fmt.Errorf("openai: %s=%v: want 0..%v", f.k, f.v, f.top)
		}
	}
	for _, i := range []struct {
		k           string
		v, low, top int
	}{{"n", o.N, 1, maxSamples}, {"max_tokens", o.MaxTokens, 1, 1 << 24}, {"concurrency", o.Concurrency, 1, maxConcurrency},
		{"retries", o.Retries, 0, maxRetries}} {
		if i.v < i.low || i.v > i.top {
			return fmt.Errorf("openai: %s=%d: want %d..%d", i.k, i.v, i.low, i.top)
		}
	}
	return nil
}

// limits are shared by every translator of a process that talks to the same server
// and model, so the workers of a Beam process respect one budget together.
type limits struct {
	sem      chan struct{}
	requests *rate.Limiter
	tokens   *rate.Limiter
}

var (
	limitsMu sync.Mutex
	shared   = map[string]*limits{}
)

func sharedLimits(o Options) *limits {
	limitsMu.Lock()
	defer limitsMu.Unlock()
	k := o.BaseURL + "|" + o.Model
	if l, ok := shared[k]; ok {
		return l
	}
	l := newLimits(o)
	shared[k] = l
	return l
}

func newLimits(o Options) *limits {
	l := &limits{sem: make(chan struct{}, min(max(o.Concurrency, 1), maxConcurrency))}
	if o.RPM > 0 {
		l.requests = rate.NewLimiter(rate.Limit(o.RPM/60), max(1, int(min(o.RPM, maxPerMinute)/60)))
	}
	if o.TPM > 0 {
		l.tokens = rate.NewLimiter(rate.Limit(o.TPM/60), max(1, int(min(o.TPM, maxPerMinute))))
	}
	return l
}

// Translator calls a chat-completions endpoint.
type Translator struct {
	opts     Options
	key      string
	client   *http.Client
	tmpl     Template
	cache    *cache.Cache
	lim      *limits
	examples map[[2]string][]exampleSrc
}

type exampleSrc struct {
	problem string
	src     map[string]string
}

// Open creates a translator from the part of a spec after "openai:".
func Open(ctx context.Context, rest string) (*Translator, error) {
	o, err := ParseSpec(rest)
	if err != nil {
		return nil, err
	}
	t := &Translator{opts: o, client: &http.Client{Timeout: o.Timeout}, lim: sharedLimits(o)}
	if o.KeyEnv != "" {
		t.key = os.Getenv(o.KeyEnv)
		if t.key == "" {
			return nil, fmt.Errorf("openai: environment variable %s (key_env) is empty", o.KeyEnv)
		}
	}
	if t.tmpl, err = LoadTemplate(o.Strategy, o.PromptDir); err != nil {
		return nil, err
	}
	if o.Cache != "off" {
		if t.cache, err = cache.Open(ctx, o.Cache, "openai"); err != nil {
			return nil, fmt.Errorf("openai: cache: %w", err)
		}
	}
	if o.Strategy == "perf-few-shot" {
		if o.Examples == "" {
			return nil, fmt.Errorf("openai: perf-few-shot needs examples=<corpus spec> for its two examples")
		}
		c, err := corpus.Load(ctx, o.Examples)
		if err != nil {
			return nil, fmt.Errorf("openai: examples: %w", err)
		}
		t.examples = map[[2]string][]exampleSrc{}
		for _, p := range c.Problems {
			e := exampleSrc{problem: p.ID, src: map[string]string{}}
			for _, f := range p.Functions {
				e.src[f.Lang] = f.Code
			}
			for a := range e.src {
				for b := range e.src {
					if a != b {
						t.examples[[2]string{a, b}] = append(t.examples[[2]string{a, b}], e)
					}
				}
			}
		}
	}
	return t, nil
}

// Name is the configured name (default: the model).
func (t *Translator) Name() string { return t.opts.Name }

// TranslatesVariants is true: the model can translate anything.
func (t *Translator) TranslatesVariants() bool { return true }

// Directions: any.
func (t *Translator) Directions() [][2]string { return nil }

// CacheStats reports cache hits and misses (for the manifest).
func (t *Translator) CacheStats() (hits, misses int64) {
	if t.cache == nil {
		return 0, 0
	}
	return t.cache.Stats()
}

// Close closes the cache.
func (t *Translator) Close() error { return t.cache.Close() }

// pickExamples chooses two examples of the direction from other problems,
// deterministically for a problem.
func (t *Translator) pickExamples(problem, src, tgt string) []Example {
	pool := t.examples[[2]string{src, tgt}]
	type scored struct {
		h uint64
		e exampleSrc
	}
	var s []scored
	for _, e := range pool {
		if e.problem == problem {
			continue
		}
		h := fnv.New64a()
		h.Write([]byte(problem + "|" + e.problem))
		s = append(s, scored{h.Sum64(), e})
	}
	sort.Slice(s, func(i, j int) bool { return s[i].h < s[j].h })
	var out []Example
	for i := 0; i < len(s) && i < 2; i++ {
		out = append(out, Example{Src: s[i].e.src[src], Tgt: s[i].e.src[tgt]})
	}
	return out
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatRequest struct {
	Model       string        `json:"model"`
	Messages    []chatMessage `json:"messages"`
	Temperature float64       `json:"temperature"`
	TopP        float64       `json:"top_p,omitempty"`
	MaxTokens   int           `json:"max_tokens,omitempty"`
	Seed        *int64        `json:"seed,omitempty"`
	N           int           `json:"n,omitempty"`
}

type chatResponse struct {
	Choices []struct {
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int64 `json:"prompt_tokens"`
		CompletionTokens int64 `json:"completion_tokens"`
	} `json:"usage"`
}

// answer is what the cache stores for one sample.
type answer struct {
	Content   string `json:"content"`
	TokensIn  int64  `json:"tokens_in"`
	TokensOut int64  `json:"tokens_out"`
	LatencyMs int64  `json:"latency_ms"`
}

// Translate asks the model for n samples (one request per sample, each with its
// own seed when a seed is set, so every sample is cached on its own).
func (t *Translator) Translate(ctx context.Context, r translate.Request) ([]translate.Translation, error) {
	var examples []Example
	if t.tmpl.Name == "perf-few-shot" {
		examples = t.pickExamples(r.ProblemID, r.SrcLang, r.TgtLang)
	}
	sys, user, err := t.tmpl.Messages(r.SrcLang, r.TgtLang, r.Code, examples, feedbackOf(r))
	if err != nil {
		return []translate.Translation{{Status: schemas.TranslationError, Error: err.Error()}}, nil
	}
	ph := Hash(sys, user)
	out := make([]translate.Translation, 0, t.opts.N)
	for s := 0; s < max(t.opts.N, 1); s++ {
		tr := translate.Translation{Sample: int32(s), PromptHash: ph}
		req := chatRequest{Model: t.opts.Model, Temperature: t.opts.Temperature, TopP: t.opts.TopP,
			MaxTokens: t.opts.MaxTokens, Messages: []chatMessage{{"system", sys}, {"user", user}}}
		if t.opts.Seed != nil {
			seed := *t.opts.Seed + int64(s)
			req.Seed = &seed
		}
		key := cache.Key("openai", t.opts.Name, t.opts.Model, req.Temperature, req.TopP, req.MaxTokens, req.Seed, sys, user, s)
		var a answer
		hit := false
		if t.cache != nil {
			if hit, err = t.cache.Get(ctx, key, &a); err != nil {
				hit = false
			}
		}
		if !hit {
			a, err = t.callWithin(ctx, req)
			if err != nil {
				tr.Status, tr.Error = schemas.TranslationError, err.Error()
				out = append(out, tr)
				continue
			}
			if t.cache != nil {
				_ = t.cache.Put(ctx, key, a)
			}
		}
		tr.Cached = hit
		tr.TokensIn, tr.TokensOut, tr.LatencyMs = a.TokensIn, a.TokensOut, a.LatencyMs
		code, imports, err := translate.Extract(a.Content, r.TgtLang)
		if err != nil {
			tr.Status, tr.Error = schemas.TranslationError, "extract: "+err.Error()
		} else {
			tr.Status, tr.Code, tr.Imports = schemas.TranslationOK, code, imports
		}
		out = append(out, tr)
	}
	return out, nil
}

func feedbackOf(r translate.Request) *Feedback {
	if r.Feedback == nil {
		return nil
	}
	f := r.Feedback
	return &Feedback{PrevCode: f.PrevCode, TestResult: f.TestResult, ExecFeedback: f.ExecFeedback, TimeSec: f.TimeSec, MemMB: f.MemMB}
}

// callWithin is call bounded by the time budget of one sample.
func (t *Translator) callWithin(ctx context.Context, req chatRequest) (answer, error) {
	bctx, cancel := context.WithTimeout(ctx, t.opts.Budget)
	defer cancel()
	a, err := t.call(bctx, req)
	if err != nil && ctx.Err() == nil && bctx.Err() != nil {
		return a, fmt.Errorf("time budget of %v exhausted: %w", t.opts.Budget, err)
	}
	return a, err
}

// call sends one request with retries: exponential backoff with full jitter on 429,
// 5xx, timeouts and connection errors, honouring Retry-After.
func (t *Translator) call(ctx context.Context, req chatRequest) (answer, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return answer{}, err
	}
	var lastErr error
	for attempt := 0; attempt <= t.opts.Retries; attempt++ {
		if attempt > 0 {
			wait := t.backoff(attempt, lastErr)
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return answer{}, ctx.Err()
			}
		}
		if err := t.acquire(ctx, len(body)/4+req.MaxTokens); err != nil {
			return answer{}, err
		}
		a, retry, err := t.once(ctx, body)
		<-t.lim.sem
		if err == nil {
			return a, nil
		}
		lastErr = err
		if !retry {
			return answer{}, err
		}
	}
	return answer{}, fmt.Errorf("giving up after %d retries: %w", t.opts.Retries, lastErr)
}

func (t *Translator) acquire(ctx context.Context, tokens int) error {
	if t.lim.requests != nil {
		if err := t.lim.requests.Wait(ctx); err != nil {
			return err
		}
	}
	if t.lim.tokens != nil {
		if err := t.lim.tokens.WaitN(ctx, min(tokens, t.lim.tokens.Burst())); err != nil {
			return err
		}
	}
	select {
	case t.lim.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

type retryAfterError struct {
	status int
	after  time.Duration
	body   string
}

func (e *retryAfterError) Error() string {
	return fmt.Sprintf("HTTP %d: %s", e.status, e.body)
}

// backoff is the wait before attempt (1, 2, ...): the server's Retry-After, else an
// exponential backoff with full jitter; never more than MaxWait, never zero.
func (t *Translator) backoff(attempt int, last error) time.Duration {
	limit := t.opts.MaxWait
	if limit <= 0 { // ParseSpec rejects it; a hand-built Options still must not panic
		limit = time.Millisecond
	}
	if ra, ok := last.(*retryAfterError); ok && ra.after > 0 {
		return min(ra.after, limit)
	}
	d := limit
	if shift := attempt - 1; shift >= 0 && shift < 62 && t.opts.Backoff > 0 && t.opts.Backoff <= limit>>shift {
		d = t.opts.Backoff << shift
	}
	return time.Duration(rand.Int64N(int64(d)) + 1)
}

func (t *Translator) once(ctx context.Context, body []byte) (answer, bool, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, t.opts.BaseURL+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return answer{}, false, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	if t.key != "" {
		hreq.Header.Set("Authorization", "Bearer "+t.key)
	}
	start := time.Now()
	resp, err := t.client.Do(hreq)
	if err != nil {
		if ctx.Err() != nil {
			return answer{}, false, ctx.Err()
		}
		// timeouts and connection errors are worth another try; redact the URL's query
		return answer{}, true, fmt.Errorf("request failed: %s", redact(err.Error(), t.key))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return answer{}, true, fmt.Errorf("reading answer: %v", err)
	}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		return answer{}, true, &retryAfterError{status: resp.StatusCode, after: parseRetryAfter(resp.Header.Get("Retry-After")),
			body: redact(clip.String(string(data), 300), t.key)}
	}
	if resp.StatusCode != http.StatusOK {
		return answer{}, false, fmt.Errorf("HTTP %d: %s", resp.StatusCode, redact(clip.String(string(data), 300), t.key))
	}
	var cr chatResponse
	if err := json.Unmarshal(data, &cr); err != nil {
		return answer{}, true, fmt.Errorf("malformed JSON answer: %v", err)
	}
	if len(cr.Choices) == 0 {
		return answer{}, true, fmt.Errorf("answer has no choices")
	}
	return answer{Content: cr.Choices[0].Message.Content, TokensIn: cr.Usage.PromptTokens,
		TokensOut: cr.Usage.CompletionTokens, LatencyMs: time.Since(start).Milliseconds()}, false, nil
}

func parseRetryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if !(s > 0) { // negative, zero or NaN: no usable hint
			return 0
		}
		if s > 1e6 { // beyond any wait we would take (backoff caps it at MaxWait)
			s = 1e6
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return time.Until(t)
	}
	return 0
}

func redact(s, key string) string {
	if key == "" {
		return s
	}
	return strings.ReplaceAll(s, key, "[redacted]")
}
