package pipelines

import (
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"transmute/schemas"
	"transmute/transforms/score"
)

// TestPassAtKInScores runs an OpenAI-style translator with n = 5 samples against a
// local server whose answer is right for seeds 0 and 1 and wrong for 2..4: the scores
// must carry pass@1 = 2/5 and pass@5 = 1 beside any-of-n = 1 and all-of-n = 0.
func TestPassAtKInScores(t *testing.T) {
	root := repoRoot(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Seed *int64 }
		json.NewDecoder(r.Body).Decode(&req)
		body := "def count_set_bits(n):\n    return -1"
		if req.Seed != nil && *req.Seed < 2 {
			body = "def count_set_bits(n):\n    return bin(n & 0xFFFFFFFF).count('1')"
		}
		json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]any{"content": "```python\n" + body + "\n```"}}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5},
		})
	}))
	defer srv.Close()
	spec := "openai:" + srv.URL + "/v1?model=fake&name=sampler&n=5&seed=0&temperature=0.8&backoff=5ms&cache=off"
	out := t.TempDir()
	runPipeline(t, Config{Run: "passk", Output: out, Parallelism: 2, Limit: 1,
		Corpora:     []string{"jsonl:" + filepath.Join(root, "data/problems.jsonl")},
		Translators: []string{spec}, Directions: "java-python"})
	got := map[schemas.Metric]float64{}
	for _, s := range read[schemas.ScoreRow](t, out, "scores") {
		if s.Translator == "sampler" && s.Oracle == score.OracleSource && s.Subset == score.SubsetAll {
			got[s.Metric] = s.Value
		}
	}
	want := map[schemas.Metric]float64{schemas.MetricPassAt(1): 0.4, schemas.MetricPassAt(5): 1,
		schemas.MetricPassRateAnyOfN: 1, schemas.MetricPassRateAllOfN: 0, schemas.MetricSamples: 5}
	for m, v := range want {
		if g, ok := got[m]; !ok || math.Abs(g-v) > 1e-12 {
			t.Errorf("%s = %v (present %v), want %v; scores %v", m, g, ok, v, got)
		}
	}
	if _, ok := got[schemas.MetricPassAt(10)]; ok {
		t.Error("pass@10 with 5 samples")
	}
}
