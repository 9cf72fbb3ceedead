package pipelines

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"transmute/io/corpus"
	"transmute/schemas"
	"transmute/transforms/evaluate"
)

// TestProblemsSelection: --problems keeps exactly the problems named (in corpus
// order, --limit applying after it), a --problems-file is read with its comments,
// and an id in no corpus is an error naming it.
func TestProblemsSelection(t *testing.T) {
	ctx := context.Background()
	spec := "jsonl:" + filepath.Join("..", "data", "problems.jsonl")
	c, err := corpus.Load(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Problems) < 5 {
		t.Fatalf("%d problems", len(c.Problems))
	}
	pick := []string{c.Problems[4].ID, c.Problems[1].ID, c.Problems[3].ID}
	load := func(f *loadFn) []string {
		var ids []string
		if err := f.ProcessElement(ctx, spec, func(id string, _ evaluate.Item) { ids = append(ids, id) }, func(schemas.ErrorRow) {}); err != nil {
			t.Fatal(err)
		}
		return ids
	}
	want := []string{pick[1], pick[2], pick[0]}
	if got := load(&loadFn{Problems: pick}); !reflect.DeepEqual(got, want) {
		t.Errorf("selected %v, want %v", got, want)
	}
	if got := load(&loadFn{Problems: pick, Limit: 2}); !reflect.DeepEqual(got, want[:2]) {
		t.Errorf("selected with --limit 2: %v, want %v", got, want[:2])
	}
	if got := load(&loadFn{}); len(got) != len(c.Problems) {
		t.Errorf("no selection: %d problems, want %d", len(got), len(c.Problems))
	}

	file := filepath.Join(t.TempDir(), "ids.txt")
	if err := os.WriteFile(file, []byte("# the three\n"+pick[0]+", "+pick[1]+"\n\n"+pick[2]+"  # last\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ids, err := ReadProblemsFile(file)
	if err != nil || !reflect.DeepEqual(ids, pick) {
		t.Errorf("problems file: %v %v, want %v", ids, err, pick)
	}
	if err := CheckProblems(ctx, Config{Corpora: []string{spec}, Problems: pick}); err != nil {
		t.Errorf("known ids: %v", err)
	}
	err = CheckProblems(ctx, Config{Corpora: []string{spec}, Problems: append(pick, "NO_SUCH_PROBLEM")})
	if err == nil || !strings.Contains(err.Error(), "unknown problem id") || !strings.Contains(err.Error(), "NO_SUCH_PROBLEM") {
		t.Errorf("unknown id: %v", err)
	}
}
