package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"transmute/schemas"
	"transmute/transforms/translate"
)

const secret = "sk-test-SECRET-do-not-leak-123"

// fakeServer speaks the chat-completions API on loopback. script decides each answer.
type fakeServer struct {
	*httptest.Server
	requests atomic.Int64
	mu       sync.Mutex
	bodies   []chatRequest
	auth     []string
}

func newFake(t *testing.T, script func(n int64, req chatRequest, w http.ResponseWriter)) *fakeServer {
	f := &fakeServer{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.Error(w, "not found", 404)
			return
		}
		n := f.requests.Add(1)
		var req chatRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "bad json", 400)
			return
		}
		f.mu.Lock()
		f.bodies = append(f.bodies, req)
		f.auth = append(f.auth, r.Header.Get("Authorization"))
		f.mu.Unlock()
		script(n, req, w)
	}))
	t.Cleanup(f.Close)
	return f
}

func reply(w http.ResponseWriter, content string) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}}},
		"usage":   map[string]any{"prompt_tokens": 120, "completion_tokens": 30},
	})
}

const pyAnswer = "Here is the translation:\n\n```python\nimport math\n\ndef add_one(x):\n    return x + 1\n```\n\nIt keeps the behaviour.<|END|>"

func request() translate.Request {
	return translate.Request{ProblemID: "P1", VariantID: "orig", SrcLang: schemas.Java, TgtLang: schemas.Python,
		Code: "static int addOne(int x) { return x + 1; }", Entry: "addOne"}
}

func open(t *testing.T, srv *fakeServer, extra string) *Translator {
	t.Helper()
	t.Setenv("TRANSMUTE_TEST_KEY", secret)
	spec := srv.URL + "/v1?model=m1&key_env=TRANSMUTE_TEST_KEY&backoff=5ms&cache=" + t.TempDir() + extra
	tr, err := Open(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr
}

func TestZeroShotPromptAndExtraction(t *testing.T) {
	srv := newFake(t, func(n int64, req chatRequest, w http.ResponseWriter) { reply(w, pyAnswer) })
	tr := open(t, srv, "&temperature=0.2&seed=7")
	out, err := tr.Translate(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || out[0].Status != schemas.TranslationOK {
		t.Fatalf("got %+v", out)
	}
	if out[0].Code != "def add_one(x):\n    return x + 1" || out[0].Imports != "import math" {
		t.Fatalf("extraction: code %q imports %q", out[0].Code, out[0].Imports)
	}
	if out[0].TokensIn != 120 || out[0].TokensOut != 30 || out[0].PromptHash == "" {
		t.Errorf("usage/prompt hash not recorded: %+v", out[0])
	}
	req := srv.bodies[0]
	if req.Model != "m1" || req.Temperature != 0.2 || req.Seed == nil || *req.Seed != 7 {
		t.Errorf("request parameters: %+v", req)
	}
	if len(req.Messages) != 2 || !strings.Contains(req.Messages[0].Content, "code translation expert") ||
		strings.Contains(req.Messages[0].Content, "optimization") {
		t.Errorf("zero-shot system message: %q", req.Messages[0].Content)
	}
	u := req.Messages[1].Content
	for _, want := range []string{"Given the Java code:", "```java\nstatic int addOne", "translate the above Java code to Python code", "```python", "<|END|>"} {
		if !strings.Contains(u, want) {
			t.Errorf("user prompt lacks %q:\n%s", want, u)
		}
	}
	if srv.auth[0] != "Bearer "+secret {
		t.Errorf("authorization header not sent")
	}
}

func TestStrategies(t *testing.T) {
	srv := newFake(t, func(n int64, req chatRequest, w http.ResponseWriter) { reply(w, pyAnswer) })
	tr := open(t, srv, "&prompt=perf-zero-shot")
	if _, err := tr.Translate(context.Background(), request()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(srv.bodies[0].Messages[0].Content, "code optimization expert") {
		t.Errorf("perf-zero-shot system message lacks the efficiency instruction")
	}

	// perf-self-refine without feedback is an error row; with feedback it shows it.
	tr2 := open(t, srv, "&prompt=perf-self-refine")
	out, _ := tr2.Translate(context.Background(), request())
	if out[0].Status != schemas.TranslationError || !strings.Contains(out[0].Error, "previous round") {
		t.Errorf("self-refine without feedback: %+v", out[0])
	}
	r := request()
	r.Feedback = &translate.Feedback{PrevCode: "def add_one(x):\n    return x", TestResult: 0.3, ExecFeedback: "test 2: expected 3, got 2", TimeSec: 0.125, MemMB: 9.5}
	if _, err := tr2.Translate(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	u := srv.bodies[len(srv.bodies)-1].Messages[1].Content
	for _, want := range []string{"Reference Translation", "return x\n```", "0.30", "expected 3, got 2", "0.1250", "9.50"} {
		if !strings.Contains(u, want) {
			t.Errorf("self-refine prompt lacks %q", want)
		}
	}

	// perf-few-shot needs examples from a corpus of the same direction, never the same problem.
	dir := t.TempDir()
	corpusFile := dir + "/c.jsonl"
	lines := []string{}
	for i, name := range []string{"P1", "P2", "P3"} {
		lines = append(lines, fmt.Sprintf(`{"id":%q,"params":[{"name":"x","type":"int"}],"returns":"int","functions":{"java":"static int f%d(int x) { return x * %d; }","python":"def f%d(x):\n    return x * %d"},"tests":[[1]]}`, name, i, i+2, i, i+2))
	}
	writeFile(t, corpusFile, strings.Join(lines, "\n")+"\n")
	tr3 := open(t, srv, "&prompt=perf-few-shot&examples=jsonl:"+corpusFile)
	if _, err := tr3.Translate(context.Background(), request()); err != nil {
		t.Fatal(err)
	}
	u = srv.bodies[len(srv.bodies)-1].Messages[1].Content
	if !strings.Contains(u, "Example-1") || !strings.Contains(u, "Example-2") || !strings.Contains(u, "return x * 3") || !strings.Contains(u, "return x * 4") {
		t.Errorf("few-shot prompt lacks the two examples of other problems:\n%s", u)
	}
	if strings.Contains(u, "return x * 2") {
		t.Errorf("few-shot prompt used the problem itself as an example")
	}
}

func TestRetriesAndErrors(t *testing.T) {
	// 429 with Retry-After, then 500, then success.
	srv := newFake(t, func(n int64, req chatRequest, w http.ResponseWriter) {
		switch n {
		case 1:
			w.Header().Set("Retry-After", "0.01")
			http.Error(w, `{"error":"rate limited"}`, http.StatusTooManyRequests)
		case 2:
			http.Error(w, "upstream", http.StatusBadGateway)
		default:
			reply(w, pyAnswer)
		}
	})
	tr := open(t, srv, "")
	out, _ := tr.Translate(context.Background(), request())
	if out[0].Status != schemas.TranslationOK || srv.requests.Load() != 3 {
		t.Fatalf("want success on the third request, got %+v after %d", out[0], srv.requests.Load())
	}

	// Always 500: a failed translation row, not an error, after retries+1 requests.
	bad := newFake(t, func(n int64, req chatRequest, w http.ResponseWriter) { http.Error(w, "boom "+secret, 500) })
	tr = open(t, bad, "&retries=2")
	out, err := tr.Translate(context.Background(), request())
	if err != nil || out[0].Status != schemas.TranslationError || bad.requests.Load() != 3 {
		t.Fatalf("500s: %+v %v after %d requests", out, err, bad.requests.Load())
	}
	if strings.Contains(out[0].Error, secret) {
		t.Errorf("error message leaks the key: %s", out[0].Error)
	}

	// Malformed JSON is retried, then reported.
	mal := newFake(t, func(n int64, req chatRequest, w http.ResponseWriter) { w.Write([]byte("{not json")) })
	tr = open(t, mal, "&retries=1")
	out, _ = tr.Translate(context.Background(), request())
	if out[0].Status != schemas.TranslationError || !strings.Contains(out[0].Error, "malformed JSON") {
		t.Errorf("malformed: %+v", out[0])
	}

	// A slow answer past the request timeout.
	slow := newFake(t, func(n int64, req chatRequest, w http.ResponseWriter) {
		time.Sleep(300 * time.Millisecond)
		reply(w, pyAnswer)
	})
	tr = open(t, slow, "&timeout=50ms&retries=1")
	start := time.Now()
	out, _ = tr.Translate(context.Background(), request())
	if out[0].Status != schemas.TranslationError || time.Since(start) > 2*time.Second {
		t.Errorf("slow answer: %+v after %v", out[0], time.Since(start))
	}

	// A 400 is not retried.
	four := newFake(t, func(n int64, req chatRequest, w http.ResponseWriter) { http.Error(w, "bad request", 400) })
	tr = open(t, four, "")
	out, _ = tr.Translate(context.Background(), request())
	if out[0].Status != schemas.TranslationError || four.requests.Load() != 1 {
		t.Errorf("400 retried: %d requests", four.requests.Load())
	}
}

func TestCacheMakesRerunsFree(t *testing.T) {
	srv := newFake(t, func(n int64, req chatRequest, w http.ResponseWriter) { reply(w, pyAnswer) })
	t.Setenv("TRANSMUTE_TEST_KEY", secret)
	cacheDir := t.TempDir()
	spec := srv.URL + "/v1?model=m1&key_env=TRANSMUTE_TEST_KEY&n=3&seed=1&cache=" + cacheDir
	for run := 0; run < 2; run++ {
		tr, err := Open(context.Background(), spec)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := tr.Translate(context.Background(), request())
		if len(out) != 3 {
			t.Fatalf("want 3 samples, got %d", len(out))
		}
		for i, o := range out {
			if o.Sample != int32(i) || o.Status != schemas.TranslationOK || o.Cached != (run == 1) {
				t.Errorf("run %d sample %d: %+v", run, i, o)
			}
		}
		tr.Close()
	}
	if srv.requests.Load() != 3 {
		t.Fatalf("second run paid again: %d requests in all, want 3", srv.requests.Load())
	}
	// The key is not in the cache.
	assertNoSecret(t, cacheDir)
}

func TestExtract(t *testing.T) {
	cases := []struct {
		name, answer, tgt, code, imports, err string
	}{
		{"prose around", "Sure!\n```python\ndef f(x):\n    return x\n```\nDone.", "python", "def f(x):\n    return x", "", ""},
		{"several blocks: target tag wins", "```java\nint f(){}\n```\n```cpp\n#include <vector>\nint f(int x) { return x; }\n```", "cpp", "int f(int x) { return x; }", "#include <vector>", ""},
		{"untagged block", "```\ndef g(a):\n    return a\n```", "python", "def g(a):\n    return a", "", ""},
		{"no block but code", "def h(a):\n    return a\n<|END|>", "python", "def h(a):\n    return a", "", ""},
		{"missing block", "I cannot translate this.", "python", "", "", "no code block"},
		{"python main dropped", "```python\ndef f(x):\n    return x\n\nif __name__ == '__main__':\n    print(f(1))\n```", "python", "def f(x):\n    return x", "", ""},
		{"cpp main dropped", "```cpp\nint f(int x) { return x; }\nint main() { return f(1); }\n```", "cpp", "int f(int x) { return x; }", "", ""},
		{"java class unwrapped", "```java\nimport java.util.*;\npublic class Solution {\n    public static int f(int x) { return x; }\n    public static void main(String[] a) { System.out.println(f(1)); }\n}\n```", "java", "    public static int f(int x) { return x; }", "import java.util.*;", ""},
		{"unterminated block", "```python\ndef f(x):\n    return x\n", "python", "def f(x):\n    return x", "", ""},
	}
	for _, c := range cases {
		code, imports, err := translate.Extract(c.answer, c.tgt)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: want error %q, got %v", c.name, c.err, err)
			}
			continue
		}
		if err != nil || strings.TrimSpace(code) != strings.TrimSpace(c.code) || imports != c.imports {
			t.Errorf("%s: got code %q imports %q err %v", c.name, code, imports, err)
		}
	}
}

func TestRateLimitAndConcurrencyShared(t *testing.T) {
	var inFlight, peak atomic.Int64
	srv := newFake(t, func(n int64, req chatRequest, w http.ResponseWriter) {
		c := inFlight.Add(1)
		for {
			p := peak.Load()
			if c <= p || peak.CompareAndSwap(p, c) {
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
		inFlight.Add(-1)
		reply(w, pyAnswer)
	})
	t.Setenv("TRANSMUTE_TEST_KEY", secret)
	spec := srv.URL + "/v1?model=m-conc&key_env=TRANSMUTE_TEST_KEY&cache=off&concurrency=2"
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ { // three translators, as three Beam workers of one process
		tr, err := Open(context.Background(), spec)
		if err != nil {
			t.Fatal(err)
		}
		for j := 0; j < 3; j++ {
			wg.Add(1)
			go func(j int) {
				defer wg.Done()
				r := request()
				r.ProblemID = fmt.Sprint("P", i, j)
				r.Code += fmt.Sprint(" // ", i, j)
				tr.Translate(context.Background(), r)
			}(j)
		}
	}
	wg.Wait()
	if peak.Load() > 2 {
		t.Errorf("concurrency cap 2 exceeded: %d requests in flight", peak.Load())
	}
	if srv.requests.Load() != 9 {
		t.Errorf("want 9 requests, got %d", srv.requests.Load())
	}
}

func TestKeyEnvRequired(t *testing.T) {
	t.Setenv("TRANSMUTE_EMPTY_KEY", "")
	if _, err := Open(context.Background(), "http://127.0.0.1:1/v1?model=m&key_env=TRANSMUTE_EMPTY_KEY"); err == nil {
		t.Error("an empty key variable should be an error")
	}
	if _, err := Open(context.Background(), "http://127.0.0.1:1/v1"); err == nil {
		t.Error("a missing model should be an error")
	}
}
