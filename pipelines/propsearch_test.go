package pipelines

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"transmute/io/blobs/blobstest"
	"transmute/report"
	"transmute/schemas"
)

// searchCorpus is three Java problems whose behaviour under the test server's
// breakages is computed by hand:
//   - SCALED_SUM: below temperature 0.25 its if is disabled; test [6,3] then returns
//     45 instead of 44: pass rate 3/4, and 1 once the temperature is 0.25 or more.
//   - SQUARES_LONG: no if, no Math.abs: every copy is intact (pass rate 1), so its
//     search stops at step 0. It returns long, so that it is no merge partner of the
//     int problems, whose if it would otherwise take into its merge variant.
//   - ABS_DOUBLE: Math.abs( is always dropped, and below 0.25 the if is disabled too:
//     on [-3],[4],[7],[-8] (want 3,4,14,16) it returns -3,4,7,-8 below 0.25 (pass
//     1/4) and -3,4,14,-8 above (pass 2/4); retValues of the original is violated at
//     every temperature, so its search spends the whole budget.
//   - NO_COMPILE: its Java source does not compile, so no property can be checked:
//     the search stops at step 0 with an error (no evidence is not a success).
const searchCorpus = `{"id":"NO_COMPILE","params":[{"name":"n","type":"int"}],"returns":"int","functions":{"java":"static int bad(int n) {\n  return n + ;\n}"},"tests":[[1]]}
{"id":"SCALED_SUM","params":[{"name":"n","type":"int"},{"name":"k","type":"int"}],"returns":"int","functions":{"java":"static int f(int n, int k) {\n  int s = 0;\n  for (int i = 0; i < n; i++) {\n    s += i * k;\n  }\n  if (s > 10) {\n    s = s - 1;\n  }\n  return s;\n}"},"tests":[[3,2],[5,1],[10,-1],[6,3]]}
{"id":"SQUARES_LONG","params":[{"name":"n","type":"int"}],"returns":"long","functions":{"java":"static long sq(int n) {\n  long s = 0;\n  for (int i = 1; i <= n; i++) {\n    s += (long) i * i;\n  }\n  return s;\n}"},"tests":[[0],[1],[3],[10]]}
{"id":"ABS_DOUBLE","params":[{"name":"n","type":"int"}],"returns":"int","functions":{"java":"static int h(int n) {\n  int a = Math.abs(n);\n  if (a > 5) {\n    a = a * 2;\n  }\n  return a;\n}"},"tests":[[-3],[4],[7],[-8]]}
`

var javaBlock = regexp.MustCompile("(?s)```java\n(.*?)\n```")

// temperatureServer is an OpenAI-compatible chat server whose "model" copies the
// Java function of the prompt, always drops "Math.abs(" to "(" and, below
// temperature 0.25, disables the first if ("if (false && "). It records the
// temperatures it was asked with.
func temperatureServer(t *testing.T) (*httptest.Server, func() []float64) {
	var mu sync.Mutex
	var temps []float64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Temperature float64
			Messages    []struct{ Content string }
		}
		json.NewDecoder(r.Body).Decode(&req)
		mu.Lock()
		temps = append(temps, req.Temperature)
		mu.Unlock()
		code := ""
		for _, m := range req.Messages {
			if g := javaBlock.FindStringSubmatch(m.Content); g != nil {
				code = g[1]
			}
		}
		code = strings.ReplaceAll(code, "Math.abs(", "(")
		if req.Temperature < 0.25 {
			code = strings.Replace(code, "if (", "if (false && ", 1)
		}
		json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]any{"content": "```java\n" + code + "\n```\n<|END|>"}}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5},
		})
	}))
	t.Cleanup(srv.Close)
	return srv, func() []float64 {
		mu.Lock()
		defer mu.Unlock()
		return append([]float64(nil), temps...)
	}
}

// TestPropertiesJobSearch runs the properties job with the property-guided search
// (the paper's budget 20, start 0.1, sigma 0.1) on searchCorpus against temperatureServer, and
// checks the search table step by step against the hand-computed behaviour, that
// every returned translation is the first best by (VP, TV), and the summary.
func TestPropertiesJobSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the engine runs")
	}
	dir := t.TempDir()
	corpus := filepath.Join(dir, "search.jsonl")
	if err := os.WriteFile(corpus, []byte(searchCorpus), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, temps := temperatureServer(t)
	spec := "openai:" + srv.URL + "/v1?model=fake&name=fake-llm&cache=off&backoff=5ms"
	out := filepath.Join(dir, "out")
	c := Config{Run: "search", Output: out, Parallelism: 2, RowsPerFile: 1, MergeGroups: 1, CPUTime: testCPU, WallTime: testWall,
		Corpora: []string{"jsonl:" + corpus}, Translators: []string{spec}, Directions: "java-java",
		ExecCache: filepath.Join(dir, "exec")}
	const budget = 20
	o := PropertiesOptions{Seed: 2, Search: SearchOptions{Budget: budget, Start: 0.1, Sigma: 0.1}}
	if err := ValidateSearch(c, o.Search); err != nil {
		t.Fatal(err)
	}
	p, s := beam.NewPipelineWithRoot()
	BuildProperties(s, c, o)
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
	ctx := context.Background()
	b := blobstest.Open(t, out)
	if err := FinishProperties(ctx, b, &Manifest{Run: c.Run, Config: c}); err != nil {
		t.Fatal(err)
	}

	rows := read[schemas.SearchRow](t, out, SearchTable)
	by := map[string][]schemas.SearchRow{}
	for _, r := range rows {
		by[r.ProblemID] = append(by[r.ProblemID], r)
	}
	// NO_COMPILE: one row without a fitness, with the reason, and an error row.
	if nc := by["NO_COMPILE"]; len(nc) != 1 || nc[0].VP != -1 || nc[0].TV != -1 || nc[0].Best || nc[0].Step != 0 ||
		!strings.Contains(nc[0].Error, "source function does not run") {
		t.Errorf("NO_COMPILE: want one stopped row, got %+v", nc)
	}
	delete(by, "NO_COMPILE")
	stopped := 0
	for _, e := range read[schemas.ErrorRow](t, out, "errors") {
		if e.Stage == StageSearch {
			stopped++
			if e.ProblemID != "NO_COMPILE" || !strings.Contains(e.Detail, "fake-llm java->java step 0") {
				t.Errorf("search error row %+v", e)
			}
		}
	}
	if stopped != 1 {
		t.Errorf("%d search error rows, want 1 (NO_COMPILE)", stopped)
	}
	for id, rs := range by {
		sort.Slice(rs, func(i, j int) bool { return rs[i].Step < rs[j].Step })
		by[id] = rs
		for i, r := range rs {
			if r.Step != int32(i) || r.Translator != "fake-llm" || r.Corpus != "jsonl:search" || r.SrcLang != "java" ||
				r.TgtLang != "java" || r.Run != "search" || r.Error != "" || r.VP < 0 || r.Status != schemas.TranslationOK {
				t.Errorf("%s step %d: %+v", id, i, r)
			}
		}
		if rs[0].Temperature != 0.1 {
			t.Errorf("%s starts at temperature %v, want 0.1", id, rs[0].Temperature)
		}
		// The returned translation is the first step of the best fitness (VP, then TV).
		best := 0
		for i, r := range rs {
			if r.VP < rs[best].VP || (r.VP == rs[best].VP && r.TV < rs[best].TV) {
				best = i
			}
		}
		for i, r := range rs {
			if r.Best != (i == best) {
				t.Errorf("%s step %d (VP %d, TV %d): best %v, want the step %d (VP %d, TV %d)", id, i, r.VP, r.TV, r.Best,
					best, rs[best].VP, rs[best].TV)
			}
		}
	}
	if len(by) != 3 {
		t.Fatalf("searches of %d problems, want 3: %v", len(by), rows)
	}

	// SCALED_SUM: broken and violating below 0.25, then one intact, violation-free
	// step. With seed 2 its walk is 0.10, 0.00, 0.18, 0.30: four steps.
	sc := by["SCALED_SUM"]
	last := sc[len(sc)-1]
	if len(sc) != 4 || !last.Best || last.VP != 0 || last.TV != 0 || last.Temperature < 0.25 ||
		last.PassRate != 1 || strings.Contains(last.Code, "false &&") {
		t.Fatalf("SCALED_SUM must end on an intact, violation-free step at 0.25 or more: %+v", last)
	}
	for _, r := range sc[:len(sc)-1] {
		if r.Temperature >= 0.25 || r.VP == 0 || r.PassRate != 0.75 || !strings.Contains(r.Code, "if (false && s > 10)") ||
			!strings.Contains(r.Violated, "retValues") {
			t.Errorf("SCALED_SUM step %d at %v: VP %d pass %v violated %q", r.Step, r.Temperature, r.VP, r.PassRate, r.Violated)
		}
	}
	// SQUARES_LONG: intact at 0.1, nothing violated: one step.
	if sq := by["SQUARES_LONG"]; len(sq) != 1 || sq[0].VP != 0 || !sq[0].Best || sq[0].PassRate != 1 || sq[0].Violated != "" {
		t.Errorf("SQUARES_LONG: want one violation-free step, got %+v", sq)
	}
	// ABS_DOUBLE: every step violates retValues (Math.abs is dropped), so the whole
	// budget is spent. Below 0.25 the disabled first if of its merge variant is the
	// selector's: the merged function always runs one body, and merge|retValues is
	// violated too. So the returned step is the first at 0.25 or more (with seed 2 the
	// walk's seventh, 0.35), VP 1 against 2.
	ab := by["ABS_DOUBLE"]
	if len(ab) != budget {
		t.Errorf("ABS_DOUBLE: %d steps, want the budget %d", len(ab), budget)
	}
	firstAbove := -1
	for i, r := range ab {
		pass, violated := 0.25, "merge|retValues,retValues"
		if r.Temperature >= 0.25 {
			pass, violated = 0.5, "retValues"
			if firstAbove < 0 {
				firstAbove = i
			}
		}
		if r.Violated != violated || r.PassRate != pass || r.VP != int32(strings.Count(violated, ",")+1) {
			t.Errorf("ABS_DOUBLE step %d at %v: VP %d, violated %q, pass %v; want %q, pass %v", r.Step, r.Temperature, r.VP,
				r.Violated, r.PassRate, violated, pass)
		}
	}
	if firstAbove != 6 || !ab[firstAbove].Best {
		t.Errorf("ABS_DOUBLE: first step at 0.25 or more %d, want 6 and returned", firstAbove)
	}

	// Every step asked the server for its temperature (the main job asks at 0).
	asked := map[float64]bool{}
	for _, x := range temps() {
		asked[x] = true
	}
	for _, r := range rows {
		if !asked[r.Temperature] {
			t.Errorf("%s step %d: the server was never asked at temperature %v", r.ProblemID, r.Step, r.Temperature)
		}
	}

	// The summary: passing programs 1 (SQUARES_LONG) -> 2 (and SCALED_SUM); mean pass
	// rate (0.75+1+0.25)/3 -> (1+1+0.5)/3; NO_COMPILE counts as stopped, not in the means.
	var sum bytes.Buffer
	if err := report.PrintSearchSummary(ctx, &sum, b); err != nil {
		t.Fatal(err)
	}
	ss := report.SummarizeSearch(rows)
	iter := float64(len(sc)+1+len(ab)) / 3
	if len(ss) != 1 || ss[0].Searches != 4 || ss[0].PassingFirst != 1 || ss[0].PassingReturned != 2 || ss[0].Stopped != 1 ||
		ss[0].ViolationFree != 2 || math.Abs(ss[0].MeanIterations-iter) > 1e-9 || math.Abs(ss[0].MeanPassFirst-2.0/3) > 1e-9 ||
		math.Abs(ss[0].MeanPassReturned-2.5/3) > 1e-9 {
		t.Errorf("summary %+v, want 4 searches (1 stopped), passing 1 -> 2, pass rate 0.667 -> 0.833, 2 violation-free, mean iterations %v", ss, iter)
	}
	if want := fmt.Sprintf("%.2f", iter); !strings.Contains(sum.String(), "1 -> 2") || !strings.Contains(sum.String(), want) {
		t.Errorf("printed summary lacks passing 1 -> 2 or mean iterations %s:\n%s", want, sum.String())
	}
	t.Log("\n" + sum.String())
}

// TestSearchValidation: the search refuses translators without a temperature at
// validation, with the translator named, and bad settings; budget 0 is off.
func TestSearchValidation(t *testing.T) {
	on := SearchOptions{Budget: 20, Start: 0.1, Sigma: 0.1}
	ok := "openai:http://localhost:11434/v1?model=qwen2.5-coder:7b"
	for _, spec := range []string{"builtin:", "identity:", "recorded:data/translations/toy-llm.jsonl", "command:./translate.sh"} {
		err := ValidateSearch(Config{Translators: []string{ok, spec}}, on)
		if err == nil || !strings.Contains(err.Error(), spec) || !strings.Contains(err.Error(), "temperature") {
			t.Errorf("%s: %v, want a refusal naming it", spec, err)
		}
		if err := ValidateSearch(Config{Translators: []string{spec}}, SearchOptions{}); err != nil {
			t.Errorf("%s without the search: %v", spec, err)
		}
	}
	if err := ValidateSearch(Config{Translators: []string{ok}}, on); err != nil {
		t.Error(err)
	}
	for _, bad := range []SearchOptions{{Budget: -1}, {Budget: 5, Start: 2.5, Sigma: 0.1}, {Budget: 5, Start: 0.1, Sigma: -1}} {
		if err := ValidateSearch(Config{Translators: []string{ok}}, bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	if err := ValidateSearch(Config{}, on); err == nil {
		t.Error("a search without a translator accepted")
	}
}

// TestSearchTableEmptyWhenOff: without --search-budget the properties job's Finish
// still publishes the search table, empty, with its schema.
func TestSearchTableEmptyWhenOff(t *testing.T) {
	out := t.TempDir()
	ctx := context.Background()
	b := blobstest.Open(t, out)
	m := &Manifest{Run: "off"}
	if err := FinishProperties(ctx, b, m); err != nil {
		t.Fatal(err)
	}
	if n, ok := m.Counts[SearchTable]; !ok || n != 0 || len(m.Shards[SearchTable]) != 1 {
		t.Fatalf("search table: %d rows, shards %v", n, m.Shards[SearchTable])
	}
	if rows := read[schemas.SearchRow](t, out, SearchTable); len(rows) != 0 {
		t.Fatalf("%d rows", len(rows))
	}
}
