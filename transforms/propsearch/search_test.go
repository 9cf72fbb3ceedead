package propsearch

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/execute"
	_ "transmute/transforms/execute/java"
	"transmute/transforms/properties"
	"transmute/transforms/runner"
	"transmute/transforms/sandbox"
	"transmute/transforms/translate"
	_ "transmute/transforms/translate/openai"
	"transmute/transforms/values"
)

func TestMain(m *testing.M) { sandbox.Main(m) }

// TestSearchAlgorithm checks Algorithm 1 on a scripted tester: it keeps the best
// step by (VP, TV), mutates the temperature with the seeded Gaussian, and stops at
// the first step without a violated property.
func TestSearchAlgorithm(t *testing.T) {
	fit := []Fitness{{3, 9}, {2, 20}, {2, 5}, {4, 1}, {0, 0}, {1, 1}}
	var temps []float64
	i := 0
	test := func(_ context.Context, temp float64) (Fitness, translate.Translation, float64, error) {
		temps = append(temps, temp)
		f := fit[i]
		i++
		return f, translate.Translation{Code: string(rune('a' + i - 1))}, 0, nil
	}
	steps, best, err := Search(context.Background(), SearchConfig{Budget: 10, Start: 0.1, Sigma: 0.1, MaxTemperature: 2, Seed: 1}, test)
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 5 || best != 4 || steps[best].Translation.Code != "e" {
		t.Fatalf("want 5 steps ending at the violation-free one, got %d steps, best %d", len(steps), best)
	}
	if temps[0] != 0.1 {
		t.Fatalf("start temperature %v", temps[0])
	}
	for k := 1; k < len(temps); k++ {
		if temps[k] == temps[k-1] || temps[k] < 0 || math.Abs(temps[k]-temps[k-1]) > 0.6 {
			t.Errorf("step %d: temperature %v after %v is not a small Gaussian move", k, temps[k], temps[k-1])
		}
	}
	// Without a violation-free step, the lexicographic best: (2,5) beats (2,20) and (3,9).
	i = 0
	fit = []Fitness{{3, 9}, {2, 20}, {2, 5}, {4, 1}}
	steps, best, _ = Search(context.Background(), SearchConfig{Budget: 4, Start: 0.1, Sigma: 0.1, MaxTemperature: 2, Seed: 1}, test)
	if len(steps) != 4 || best != 2 {
		t.Fatalf("best %d of %d steps, want 2", best, len(steps))
	}
}

func TestWithTemperature(t *testing.T) {
	s, err := WithTemperature("openai:http://h:1/v1?model=m&temperature=0.1&n=3", 0.35)
	if err != nil || !strings.Contains(s, "temperature=0.35") || !strings.Contains(s, "model=m") || !strings.Contains(s, "n=3") {
		t.Fatalf("%q %v", s, err)
	}
	if _, err := WithTemperature("builtin:", 1); err == nil {
		t.Fatal("builtin has no temperature to search")
	}
}

var srcBlock = regexp.MustCompile("(?s)```java\n(.*?)\n```")

// TestSearchOnLocalServer runs the search against a local OpenAI-compatible server
// whose "model" copies the Java function it is given, but below temperature 0.25
// breaks it (the first if's condition becomes false): the first steps violate
// retValues, the search raises the temperature by its Gaussian moves until a copy
// comes back intact, which violates nothing and is returned with pass rate 1.
func TestSearchOnLocalServer(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the engine runs")
	}
	var mu sync.Mutex
	temps := map[float64]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Temperature float64
			Messages    []struct{ Content string }
		}
		json.NewDecoder(r.Body).Decode(&req)
		mu.Lock()
		temps[req.Temperature]++
		mu.Unlock()
		code := ""
		for _, m := range req.Messages {
			if g := srcBlock.FindStringSubmatch(m.Content); g != nil {
				code = g[1]
			}
		}
		if req.Temperature < 0.25 {
			code = strings.Replace(code, "if (", "if (false && ", 1)
		}
		json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]any{"content": "```java\n" + code + "\n```\n<|END|>"}}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5},
		})
	}))
	defer srv.Close()
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	e, err := execute.Open("java", execute.Options{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	r := &properties.Runner{Tools: runner.Tools{Run: "search", Engines: map[string]execute.Engine{"java": e}, Tolerance: values.DefaultTolerance}, Seed: 1}
	p := schemas.Problem{ID: "SUM_SCALED", Corpus: "test", Returns: "int",
		Params: []schemas.Param{{Name: "n", Type: "int"}, {Name: "k", Type: "int"}},
		Functions: []schemas.Function{{Lang: "java", Name: "f",
			Code: "static int f(int n, int k) {\n  int s = 0;\n  for (int i = 0; i < n; i++) {\n    s += i * k;\n  }\n  if (s > 10) {\n    s = s - 1;\n  }\n  return s;\n}"}},
		Tests: []schemas.Test{{Index: 0, Args: "[3,2]"}, {Index: 1, Args: "[5,1]"}, {Index: 2, Args: "[10,-1]"}, {Index: 3, Args: "[6,3]"}}}
	spec := "openai:" + srv.URL + "/v1?model=fake&name=fake&cache=off&backoff=5ms"
	cfg := PaperSearch
	cfg.Budget = 12
	cfg.Seed = 3
	rows, err := SearchProblem(context.Background(), r, cfg, spec,
		evaluate.Item{Problem: p, Tasks: []schemas.Task{{ProblemID: p.ID, Corpus: "test", SrcLang: "java", TgtLang: "java"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 2 || rows[0].Temperature != 0.1 || rows[0].VP == 0 || rows[0].PassRate == 1 {
		t.Fatalf("the first step (temperature 0.1) must violate properties and fail tests: %+v", rows)
	}
	last := rows[len(rows)-1]
	if !last.Best || last.VP != 0 || last.TV != 0 || last.Temperature < 0.25 || last.PassRate != 1 {
		t.Fatalf("the search must end on a violation-free step above 0.25 with pass rate 1: %+v", last)
	}
	for _, row := range rows[:len(rows)-1] {
		if row.Temperature >= 0.25 || row.Best {
			t.Errorf("step %d at %v before the end", row.Step, row.Temperature)
		}
	}
	if len(temps) != len(rows) {
		t.Errorf("the server saw %d temperatures for %d steps", len(temps), len(rows))
	}
}
