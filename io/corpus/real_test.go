package corpus

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"transmute/internal/testenv"
)

func TestRealTranscoder(t *testing.T) {
	root := testenv.SharedCorpora(t, "transcoder-test/gold.jsonl")
	dir := filepath.Join(root, "transcoder-test")
	c, err := Load(context.Background(), "transcoder:"+dir)
	if err != nil {
		t.Fatal(err)
	}
	gold, err := os.ReadFile(filepath.Join(dir, "gold.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	nGold := len(strings.Split(strings.TrimSpace(string(gold)), "\n"))
	t.Logf("TransCoder-test: %d gold problems -> %d problems, %d tasks, %d error rows", nGold, len(c.Problems), len(c.Tasks), len(c.Errors))
	for _, e := range c.Errors {
		t.Logf("error row: %s [%s] %s", e.ProblemID, e.Lang, e.Reason)
	}
	ingested := map[string]bool{}
	for _, p := range c.Problems {
		ingested[p.ID] = true
		if len(p.Functions) != 3 {
			t.Errorf("%s: %d functions", p.ID, len(p.Functions))
		}
		for _, f := range p.Functions {
			if f.Name == "" || f.Signature == "" || !strings.Contains(f.Code, f.Name) {
				t.Errorf("%s %s: name %q signature %q", p.ID, f.Lang, f.Name, f.Signature)
			}
		}
		if len(p.Tests) == 0 {
			t.Errorf("%s: no tests", p.ID)
		}
		for _, tc := range p.Tests {
			var args []json.RawMessage
			if err := json.Unmarshal([]byte(tc.Args), &args); err != nil || len(args) != len(p.Params) {
				t.Errorf("%s test %d: %d args for %d params (%v)", p.ID, tc.Index, len(args), len(p.Params), err)
			}
		}
	}
	// every problem with a Python script yields 10 tests of the right arity
	withPy := 0
	for _, p := range c.Problems {
		if _, err := os.Stat(filepath.Join(dir, "testscript", "python", p.ID+".py")); err != nil {
			continue
		}
		withPy++
		if len(p.Tests) != 10 {
			t.Errorf("%s: %d tests, want 10", p.ID, len(p.Tests))
		}
	}
	pyScripts, _ := filepath.Glob(filepath.Join(dir, "testscript", "python", "*.py"))
	t.Logf("problems with a Python script: %d ingested of %d scripts", withPy, len(pyScripts))
	// a Python script's problem may only be missing for a typed reason (not its tests)
	for _, s := range pyScripts {
		id := strings.TrimSuffix(filepath.Base(s), ".py")
		if !ingested[id] {
			for _, e := range c.Errors {
				if e.ProblemID == id && strings.Contains(e.Reason, "test inputs") {
					t.Errorf("%s: Python test inputs not read: %s", id, e.Reason)
				}
			}
		}
	}
	if len(c.Problems)+countProblemErrors(c) != nGold {
		t.Errorf("%d problems + %d problem errors != %d gold lines", len(c.Problems), countProblemErrors(c), nGold)
	}
	if len(c.Problems) < nGold*9/10 {
		t.Errorf("only %d of %d problems ingested", len(c.Problems), nGold)
	}
	if len(c.Tasks) != 6*len(c.Problems) {
		t.Errorf("%d tasks for %d problems", len(c.Tasks), len(c.Problems))
	}
}

func countProblemErrors(c *Corpus) int {
	n := 0
	for _, e := range c.Errors {
		if e.Lang == "" {
			n++
		}
	}
	return n
}

func TestRealTrace(t *testing.T) {
	root := testenv.SharedCorpora(t, "transcoder-test/gold.jsonl")
	tasksFile := filepath.Join(root, "trace", "tasks.jsonl")
	if _, err := os.Stat(tasksFile); err != nil {
		t.Skipf("TRACE not found: %v", err)
	}
	c, err := Load(context.Background(), "trace:"+filepath.Join(root, "trace"))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(tasksFile)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	t.Logf("TRACE: %d task lines -> %d tasks on %d problems, %d error rows", len(lines), len(c.Tasks), len(c.Problems), len(c.Errors))
	for _, e := range c.Errors {
		t.Logf("error row: %s [%s] %s (%s)", e.ProblemID, e.Lang, e.Reason, e.Detail)
	}
	if len(c.Tasks)+len(c.Errors) != len(lines) {
		t.Errorf("%d tasks + %d errors != %d lines", len(c.Tasks), len(c.Errors), len(lines))
	}
	probs := map[string]bool{}
	for _, p := range c.Problems {
		probs[p.ID] = true
		if p.Corpus != "trace" || len(p.Tests) == 0 {
			t.Errorf("%s: corpus %q, %d tests", p.ID, p.Corpus, len(p.Tests))
		}
	}
	for _, k := range c.Tasks {
		if !probs[k.ProblemID] {
			t.Errorf("task %+v has no problem", k)
		}
	}
	// TRACE's source and target code are used as the functions of their languages
	for _, line := range lines {
		var tt traceTask
		if err := json.Unmarshal([]byte(line), &tt); err != nil {
			continue
		}
		p, ok := c.Problem(tt.SampleID)
		if !ok {
			continue
		}
		if f, _ := p.Function(tt.SrcLang); strings.TrimSpace(f.Code) != strings.TrimSpace(tt.SourceCode) {
			t.Errorf("%s: source function is not TRACE's source_code", tt.SampleID)
		}
	}
}

// TestRealThreeDims ingests the TransCoder-test problem whose function takes a 3-D
// array (int dp[][][]), which was an error row while types had at most 2 dimensions.
func TestRealThreeDims(t *testing.T) {
	root := testenv.SharedCorpora(t, "transcoder-test/gold.jsonl")
	c, err := Load(context.Background(), "transcoder:"+filepath.Join(root, "transcoder-test"))
	if err != nil {
		t.Fatal(err)
	}
	const id = "MINIMUM_COST_MAKE_LONGEST_COMMON_SUBSEQUENCE_LENGTH_K"
	for _, e := range c.Errors {
		if e.ProblemID == id {
			t.Errorf("error row: %s %s", e.Reason, e.Detail)
		}
	}
	p, ok := c.Problem(id)
	if !ok {
		t.Fatalf("%s not ingested", id)
	}
	if types := paramTypeList(*p); types != "char[],char[],int,int,int,int[][][]" || p.Returns != "int" {
		t.Errorf("types %s -> %s", types, p.Returns)
	}
	// the C++ gold declares int dp[][N][N] (N is not defined in it: it does not compile)
	if cf, _ := p.Function("cpp"); cf.Name != "solve" || !strings.Contains(cf.Signature, "int dp [ ] [ N ] [ N ]") {
		t.Errorf("cpp function %q %q", cf.Name, cf.Signature)
	}
	if len(p.Tests) != 10 {
		t.Fatalf("%d tests, want 10", len(p.Tests))
	}
	// every dp is an n x n x n cube, n the length of X and Y
	for _, tc := range p.Tests {
		var args []json.RawMessage
		if err := json.Unmarshal([]byte(tc.Args), &args); err != nil || len(args) != 6 {
			t.Fatalf("test %d: %d args (%v)", tc.Index, len(args), err)
		}
		var x, y []string
		var dp [][][]int
		if json.Unmarshal(args[0], &x) != nil || json.Unmarshal(args[1], &y) != nil || json.Unmarshal(args[5], &dp) != nil {
			t.Fatalf("test %d: arguments not of types char[], char[], int[][][]: %.200s", tc.Index, tc.Args)
		}
		n := len(x)
		if len(y) != n || len(dp) != n {
			t.Errorf("test %d: |X| %d, |Y| %d, |dp| %d", tc.Index, n, len(y), len(dp))
		}
		for i := range dp {
			for j := range dp[i] {
				if len(dp[i]) != n || len(dp[i][j]) != n {
					t.Fatalf("test %d: dp[%d] has %d rows, dp[%d][%d] %d elements, want %d", tc.Index, i, len(dp[i]), i, j, len(dp[i][j]), n)
				}
			}
		}
	}
	// the last test, as the Python script writes it
	last := p.Tests[9].Args
	if !strings.HasPrefix(last, `[["m","w","U","v","s","G","P","l","V"],["U","e","a","S","Y","D","F","Z","G"],6,8,4,[[[42,57,10,74,20,83,8,10,72],[96,78,76,63,99,46,88,42,45],`) {
		t.Errorf("test 9: %.200s", last)
	}
}
