package metamorph

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"transmute/internal/testenv"
	"transmute/io/corpus"
)

// TestSharedCorpus applies every transformation to every function of the shared
// TransCoder-test sample: a variant must re-parse, and a transformation either makes
// one or says the construct is absent (or the function is not mergeable); other
// failures are logged with their reason and must stay under 1%.
func TestSharedCorpus(t *testing.T) {
	// TRANSMUTE_CORPORA points at the shared corpora from a worktree not beside them.
	root := os.Getenv("TRANSMUTE_CORPORA")
	if root == "" {
		root = testenv.SharedCorpora(t, "transcoder-test")
	}
	dir := filepath.Join(root, "transcoder-test")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared corpus not available (%s)", dir)
	}
	c, err := corpus.Load(context.Background(), "transcoder:"+dir)
	if err != nil {
		t.Fatal(err)
	}
	type key struct{ lang, t string }
	made, absent, failed := map[key]int{}, map[key]int{}, map[key]int{}
	total := 0
	for i, p := range c.Problems {
		for _, fn := range p.Functions {
			f := Function{Lang: fn.Lang, Code: fn.Code, Imports: fn.Imports, Entry: fn.Name, Params: p.Params, Returns: p.Returns, Tests: p.Tests}
			for _, tr := range Transformations {
				total++
				var err error
				if tr == Merge {
					q := c.Problems[(i+1)%len(c.Problems)]
					g, _ := q.Function(fn.Lang)
					_, err = MergeFunctions(f, Function{Lang: g.Lang, Code: g.Code, Entry: g.Name, Params: q.Params, Returns: q.Returns, Tests: q.Tests}, 1)
				} else {
					_, err = Apply(tr, f, 1)
				}
				k := key{fn.Lang, string(tr)}
				switch {
				case err == nil:
					made[k]++
				case errors.Is(err, ErrAbsent):
					absent[k]++
				default:
					failed[k]++
					t.Logf("%s %s %s: %v", p.ID, fn.Lang, tr, err)
				}
			}
		}
	}
	nf := 0
	for _, l := range []string{"java", "cpp", "python"} {
		for _, tr := range Transformations {
			k := key{l, string(tr)}
			nf += failed[k]
			t.Logf("%-6s %-15s made %3d absent %3d failed %d", l, tr, made[k], absent[k], failed[k])
		}
	}
	if nf*100 > total {
		t.Fatalf("%d of %d transformations failed", nf, total)
	}
}
