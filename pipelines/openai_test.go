package pipelines

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"transmute/schemas"
)

const fakeKey = "sk-pipeline-test-SECRET-4242"

// TestOpenAIPipelineCachesAndKeepsTheKeySecret runs the pipeline twice against a
// local chat-completions server: the second run must make no request, and the API
// key must appear in no output file and be invisible to the sandboxed programs.
func TestOpenAIPipelineCachesAndKeepsTheKeySecret(t *testing.T) {
	root := repoRoot(t)
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.Header.Get("Authorization") != "Bearer "+fakeKey {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		var req struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		// A "model" that answers every request with a function that reports whether
		// the key is visible in its environment (it must not be): the length of the
		// variable's value, plus the first argument, for int -> int problems.
		answer := "Sure.\n```python\nimport os\n\ndef f(*args):\n    return len(os.environ.get('TRANSMUTE_PIPELINE_KEY', '')) + len(args)\n```\n<|END|>"
		json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]any{"content": answer}}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5},
		})
	}))
	defer srv.Close()
	t.Setenv("TRANSMUTE_PIPELINE_KEY", fakeKey)
	cache := t.TempDir()
	spec := "openai:" + srv.URL + "/v1?model=fake&name=fake-llm&key_env=TRANSMUTE_PIPELINE_KEY&backoff=5ms&cache=" + cache

	var outs []string
	for run := 0; run < 2; run++ {
		out := t.TempDir()
		runPipeline(t, Config{Run: "openai", Output: out, Parallelism: 2, Limit: 3,
			Corpora:     []string{"jsonl:" + filepath.Join(root, "data/problems.jsonl")},
			Translators: []string{spec}, Directions: "java-python"})
		outs = append(outs, out)
		if run == 0 && requests.Load() != 3 {
			t.Fatalf("first run: %d requests, want 3 (one per problem)", requests.Load())
		}
	}
	if requests.Load() != 3 {
		t.Fatalf("second run made %d new requests, want 0", requests.Load()-3)
	}
	trs := read[schemas.TranslationRow](t, outs[1], "translations")
	if len(trs) != 3 {
		t.Fatalf("want 3 translations, got %d", len(trs))
	}
	for _, tr := range trs {
		if !tr.Cached || tr.Status != schemas.TranslationOK || tr.PromptHash == "" || tr.TokensIn != 10 {
			t.Errorf("second run translation: %+v", tr)
		}
	}
	// The translations ran; had the key leaked into their environment, their outputs
	// would be len(key) + arity instead of the arity alone.
	arity := map[string]float64{}
	for _, p := range read[schemas.Problem](t, outs[0], "problems") {
		arity[p.ID] = float64(len(p.Params))
	}
	execs := read[schemas.ExecutionRow](t, outs[0], "executions")
	ran := 0
	for _, e := range execs {
		if e.Role == "translation" && e.TestStatus == schemas.StatusOK {
			ran++
			v, err := strconv.ParseFloat(e.Output, 64)
			if err != nil || v != arity[e.ProblemID] {
				t.Errorf("%s: sandboxed translation returned %q, want the arity %v: it saw the key", e.ProblemID, e.Output, arity[e.ProblemID])
			}
		}
	}
	if ran == 0 {
		t.Fatal("no translation ran")
	}
	for _, dir := range append(outs, cache) {
		filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() {
				if data, _ := os.ReadFile(p); strings.Contains(string(data), fakeKey) {
					t.Errorf("%s contains the API key", p)
				}
			}
			return nil
		})
	}
}
