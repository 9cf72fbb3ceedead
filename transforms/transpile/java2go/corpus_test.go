package java2go

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"transmute/internal/testenv"
	"transmute/io/corpus"
	"transmute/schemas"
)

// TestCorpusCoverage translates every Java gold of the shared TransCoder-test sample
// and logs how many translate and the constructs refused (run with -v); the pass rate
// of the translations is the evaluate job's (docs/runs/2026-11-28-go.md).
func TestCorpusCoverage(t *testing.T) {
	dir := filepath.Join(testenv.Root(t), "..", "shared", "corpora", "transcoder-test")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared corpora absent: %v", err)
	}
	c, err := corpus.Load(context.Background(), "transcoder:"+dir)
	if err != nil {
		t.Fatal(err)
	}
	why := map[string]int{}
	ok, all := 0, 0
	for _, p := range c.Problems {
		f, has := p.Function(schemas.Java)
		if !has {
			continue
		}
		all++
		if _, err := Translate(f.Code); err != nil {
			why[err.Error()]++
			continue
		}
		ok++
	}
	var ks []string
	for k := range why {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return why[ks[i]] > why[ks[j]] })
	for _, k := range ks {
		t.Logf("%3d %s", why[k], k)
	}
	t.Logf("translated %d of %d Java golds", ok, all)
	if all > 0 && ok*10 < all*8 {
		t.Errorf("only %d of %d Java golds translate", ok, all)
	}
}
