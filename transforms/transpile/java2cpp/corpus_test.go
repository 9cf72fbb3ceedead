package java2cpp

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"transmute/internal/testenv"
)

// corpusDir locates ../shared/corpora from the module root, or "" when absent.
func corpusDir() string {
	c, err := testenv.CorporaDir()
	if err != nil {
		return ""
	}
	if st, err := os.Stat(c); err != nil || !st.IsDir() {
		return ""
	}
	return c
}

type goldRow struct {
	ID   string `json:"sample_id"`
	Java string `json:"java"`
}

func loadGold(t testing.TB) []goldRow {
	t.Helper()
	return testenv.SharedJSONL[goldRow](t, "transcoder-test/gold.jsonl")
}

// precompile builds bits/stdc++.h as a precompiled header in dir; it returns the g++
// flags that use it (or none when it cannot be built).
func precompile(t testing.TB, dir string) []string {
	out, err := exec.Command("g++", "-print-file-name=include").Output()
	_ = out
	hdr := ""
	cands, _ := filepath.Glob("/usr/include/*/c++/*/bits/stdc++.h")
	if len(cands) > 0 {
		hdr = cands[0]
	}
	if err != nil || hdr == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Join(dir, "bits"), 0o755); err != nil {
		return nil
	}
	if err := os.Symlink(hdr, filepath.Join(dir, "bits", "stdc++.h")); err != nil {
		return nil
	}
	cmd := exec.Command("g++", "-O2", "-std=c++17", "-x", "c++-header", hdr, "-o", filepath.Join(dir, "bits", "stdc++.h.gch"))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Logf("precompiled header not built: %v %s", err, b)
		return nil
	}
	return []string{"-I", dir, "-include", "bits/stdc++.h"}
}

var resultsRe = regexp.MustCompile(`#Results:\s*(\d+),\s*(\d+)`)

// corpusSampleEvery: unless TRANSMUTE_FULL=1 (make test-corpora), the C++ scripts of
// one problem in this many are compiled and run, evenly spread over the corpus. Each
// is an optimised g++ compile (about half a second of CPU), 233 on the whole corpus;
// a third of them is still enough for a fall of the pass rate below its bound to show.
const corpusSampleEvery = 3

// TestCorpusTranscoderCpp translates every Java gold function of transcoder-test and runs
// the C++ test script of each problem that has one (of one in corpusSampleEvery unless
// TRANSMUTE_FULL=1).
func TestCorpusTranscoderCpp(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus evaluation skipped in -short mode")
	}
	rows := loadGold(t)
	scripts := filepath.Join(corpusDir(), "transcoder-test", "testscript", "cpp")
	tmp := t.TempDir()
	pch := precompile(t, tmp)
	type outcome struct {
		id, status, detail string
	}
	var (
		mu       sync.Mutex
		outcomes []outcome
		errsBy   = map[string]int{}
		wg       sync.WaitGroup
		jobs     = make(chan goldRow)
	)
	nErr := 0
	for _, r := range rows {
		if _, err := Translate(r.Java); err != nil {
			nErr++
			ue, ok := err.(*UnsupportedError)
			if !ok {
				t.Errorf("%s: error is %T, not *UnsupportedError", r.ID, err)
				continue
			}
			errsBy[constructClass(ue.Construct)]++
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range jobs {
				st, det := runScript(ctx, r, scripts, tmp, pch)
				mu.Lock()
				outcomes = append(outcomes, outcome{r.ID, st, det})
				mu.Unlock()
			}
		}()
	}
	withScript, seen := 0, 0
	full := os.Getenv("TRANSMUTE_FULL") == "1"
	for _, r := range rows {
		if _, err := os.Stat(filepath.Join(scripts, r.ID+".cpp")); err != nil {
			continue
		}
		seen++
		if !full && (seen-1)%corpusSampleEvery != 0 {
			continue
		}
		withScript++
		jobs <- r
	}
	close(jobs)
	wg.Wait()
	sort.Slice(outcomes, func(i, j int) bool { return outcomes[i].id < outcomes[j].id })
	counts := map[string]int{}
	for _, o := range outcomes {
		counts[o.status]++
		if o.status != "pass" && os.Getenv("J2C_VERBOSE") != "" {
			t.Logf("%s %s: %s", o.status, o.id, o.detail)
		}
	}
	var keys []string
	for k := range errsBy {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return errsBy[keys[i]] > errsBy[keys[j]] || errsBy[keys[i]] == errsBy[keys[j]] && keys[i] < keys[j]
	})
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%d", k, errsBy[k]))
	}
	rate := float64(counts["pass"]) / float64(withScript)
	t.Logf("translation errors: %d/%d functions (%.3f); by construct: %s", nErr, len(rows), float64(nErr)/float64(len(rows)), strings.Join(parts, ", "))
	t.Logf("cpp scripts: %d of %d; pass %d, fail %d, compile error %d, untranslated %d, runtime error/timeout %d; pass rate %.3f",
		withScript, seen, counts["pass"], counts["fail"], counts["compile"], counts["untranslated"], counts["run"], rate)
	if ctx.Err() != nil {
		t.Fatalf("corpus evaluation exceeded its time budget")
	}
	if rate < 0.70 {
		t.Errorf("pass rate %.3f below 0.70", rate)
	}
}

// constructClass groups error constructs for the breakdown (drops identifiers/types).
func constructClass(c string) string {
	for _, p := range []string{"unknown identifier", "call of unknown method", "method ", "type ", "new ", "cast ", "field access", "for-each over", "string conversion of", "arithmetic on", "switch on"} {
		if strings.HasPrefix(c, p) {
			if p == "method " {
				if i := strings.LastIndexByte(c, '.'); i >= 0 {
					if j := strings.IndexByte(c, '<'); j >= 0 && j < i {
						return "method " + c[len("method "):j] + c[i:]
					}
				}
				return c
			}
			return strings.TrimSpace(p)
		}
	}
	return c
}

func runScript(ctx context.Context, r goldRow, scripts, tmp string, pch []string) (string, string) {
	res, err := Translate(r.Java)
	if err != nil {
		return "untranslated", err.Error()
	}
	script, err := os.ReadFile(filepath.Join(scripts, r.ID+".cpp"))
	if err != nil {
		return "untranslated", err.Error()
	}
	code := regexp.MustCompile(`\b`+regexp.QuoteMeta(res.Entry)+`\b`).ReplaceAllString(res.Code, "f_filled")
	src := strings.Replace(string(script), "//TOFILL", res.Imports+"\n"+code, 1)
	dir := filepath.Join(tmp, r.ID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "compile", err.Error()
	}
	file := filepath.Join(dir, "main.cpp")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		return "compile", err.Error()
	}
	bin := filepath.Join(dir, "main")
	args := append([]string{"-O2", "-std=c++17"}, pch...)
	args = append(args, file, "-o", bin)
	cctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(cctx, "g++", args...).CombinedOutput(); err != nil {
		msg := string(out)
		if len(msg) > 600 {
			msg = msg[:600]
		}
		return "compile", msg
	}
	rctx, cancel2 := context.WithTimeout(ctx, 10*time.Second)
	defer cancel2()
	out, err := exec.CommandContext(rctx, bin).Output()
	m := resultsRe.FindStringSubmatch(string(out))
	if m == nil {
		return "run", fmt.Sprintf("%v %q", err, out)
	}
	if m[1] == m[2] {
		return "pass", ""
	}
	return "fail", m[0]
}
