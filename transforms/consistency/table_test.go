package consistency

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"transmute/internal/testenv"
	"transmute/io/corpus"
)

var updateTable = flag.Bool("update-table", false, "rebuild similar_names.json from the corpora")

// The shipped table is built from the bundled problems and the shared
// TransCoder-test sample, every language's function.
// TRANSMUTE_CORPORA overrides ../shared/corpora (a worktree has none beside it).
func buildFromSources(t *testing.T) *Table {
	t.Helper()
	dir := os.Getenv("TRANSMUTE_CORPORA")
	if dir == "" {
		dir = testenv.SharedCorpora(t, "transcoder-test")
	}
	if _, err := os.Stat(filepath.Join(dir, "transcoder-test")); err != nil {
		t.Skip("the shared TransCoder-test corpus is absent: the shipped table cannot be rebuilt here")
	}
	root := testenv.Root(t)
	var funcs []SourceFunc
	for _, spec := range []string{"jsonl:" + filepath.Join(root, "data", "problems.jsonl"), "transcoder:" + filepath.Join(dir, "transcoder-test")} {
		c, err := corpus.Load(context.Background(), spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range c.Problems {
			for _, f := range p.Functions {
				funcs = append(funcs, SourceFunc{Group: p.Corpus + "/" + p.ID, Lang: f.Lang, Code: f.Code})
			}
		}
	}
	tb, err := BuildTable(funcs, 3, []string{"data/problems.jsonl", "shared/corpora/transcoder-test"})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// The shipped table is what BuildTable makes of the corpora (go test -run
// TestShippedTable -update-table rewrites it).
func TestShippedTable(t *testing.T) {
	built := buildFromSources(t)
	js, err := json.MarshalIndent(built, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	js = append(js, '\n')
	if *updateTable {
		if err := os.WriteFile("similar_names.json", js, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if string(js) != string(shippedTable) && !*updateTable {
		t.Fatal("similar_names.json differs from the table built from the corpora; rerun with -update-table")
	}
}
