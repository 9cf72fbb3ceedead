package corpus

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func traceLine(id, src, tgt, srcCode, tgtCode string) string {
	b, _ := json.Marshal(map[string]string{"sample_id": id, "src_lang": src, "tgt_lang": tgt,
		"source_code": srcCode, "target_code": tgtCode})
	return string(b)
}

func traceFixture() map[string]string {
	lines := []string{
		traceLine("ADD_ONE", "cpp", "java", "int addOne ( int x ) {\n  return x + 1;\n}", "static int addOne ( int x ) {\n  return x + 1 ;\n}"),
		// TRACE's source differs from the gold function: it must be used
		traceLine("ADD_ONE", "python", "java", "def add_one(x):\n    return 1 + x", "static int addOne ( int x ) {\n  return x + 1 ;\n}"),
		traceLine("SORT_IT", "java", "python", "", ""),
		traceLine("BAD_PYTHON", "java", "cpp", "", ""),
		traceLine("UNKNOWN", "java", "cpp", "", ""),
		`{"sample_id": `,
		traceLine("ADD_ONE", "cpp", "cpp", "", ""),
		traceLine("ADD_ONE", "cpp", "java", "", ""),
	}
	return map[string]string{"tasks.jsonl": strings.Join(lines, "\n") + "\n"}
}

func TestReadTrace(t *testing.T) {
	ctx := context.Background()
	c, err := ReadTrace(ctx, memBucket(t, traceFixture()), memBucket(t, transcoderFixture()))
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "trace" {
		t.Errorf("name %q", c.Name)
	}
	var tasks []string
	for _, k := range c.Tasks {
		if k.Corpus != "trace" {
			t.Errorf("task corpus %q", k.Corpus)
		}
		tasks = append(tasks, k.ProblemID+":"+k.SrcLang+"-"+k.TgtLang)
	}
	if got := strings.Join(tasks, " "); got != "ADD_ONE:cpp-java ADD_ONE:python-java SORT_IT:java-python" {
		t.Errorf("tasks %s", got)
	}
	if len(c.Problems) != 2 || c.Problems[0].ID != "ADD_ONE" || c.Problems[1].ID != "SORT_IT" {
		t.Fatalf("problems %+v", c.Problems)
	}
	add := c.Problems[0]
	if add.Corpus != "trace" || len(add.Tests) != 2 {
		t.Errorf("ADD_ONE: corpus %q, %d tests", add.Corpus, len(add.Tests))
	}
	pf, _ := add.Function("python")
	if pf.Code != "def add_one(x):\n    return 1 + x" || pf.Name != "add_one" {
		t.Errorf("TRACE's source code was not used: %q %q", pf.Name, pf.Code)
	}
	reasons := ingestReasons(t, c.Errors, "trace", "|")
	wantMentions(t, reasons, map[string]string{
		"BAD_PYTHON": "could not be ingested from TransCoder-test",
		"UNKNOWN":    "not in the TransCoder-test corpus",
		"":           "tasks.jsonl line 6",
		"ADD_ONE":    "bad direction",
	})
	if !strings.Contains(reasons["ADD_ONE"], "duplicate task") {
		t.Errorf("duplicate task not reported: %q", reasons["ADD_ONE"])
	}
	if len(c.Errors) != 5 {
		t.Errorf("%d error rows: %+v", len(c.Errors), c.Errors)
	}
}

func TestLoadTraceFindsTranscoder(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{}
	for k, v := range transcoderFixture() {
		files["transcoder-test/"+k] = v
		files["elsewhere/tc/"+k] = v
	}
	for k, v := range traceFixture() {
		files["trace/"+k] = v
	}
	base := writeTree(t, files)
	// sibling transcoder-test
	c, err := Load(ctx, "trace:"+filepath.Join(base, "trace"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Tasks) != 3 {
		t.Errorf("sibling: %d tasks", len(c.Tasks))
	}
	// explicit option, with a file:// URL
	c, err = Load(ctx, "trace:file://"+filepath.ToSlash(filepath.Join(base, "trace"))+"?transcoder="+filepath.Join(base, "elsewhere", "tc"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Tasks) != 3 {
		t.Errorf("option: %d tasks", len(c.Tasks))
	}
	if _, err := Load(ctx, "trace:"+filepath.Join(base, "trace")+"?transcoder="+filepath.Join(base, "nowhere")); err == nil {
		t.Error("missing TransCoder directory: want an error")
	}
}
