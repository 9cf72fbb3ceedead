package similarity

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"transmute/internal/lcs"
	"transmute/internal/testenv"
)

type realPair struct {
	lang, ref, hyp string
}

// loadRealPairs reads the TransCoder-test gold functions and the recorded
// translations of up to maxModels TRACE models (every direction).
func loadRealPairs(tb testing.TB, maxModels int) []realPair {
	tb.Helper()
	// SHARED_CORPORA points elsewhere than ../shared/corpora (a git worktree's parent
	// has none).
	root := os.Getenv("SHARED_CORPORA")
	if root == "" {
		root = testenv.SharedCorpora(tb, "transcoder-test/gold.jsonl")
	}
	f, err := os.Open(filepath.Join(root, "transcoder-test", "gold.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	golds := map[string]map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var m map[string]string
		if json.Unmarshal(sc.Bytes(), &m) == nil {
			golds[m["sample_id"]] = m
		}
	}
	models, _ := filepath.Glob(filepath.Join(root, "trace", "Ref_Translation", "m.*"))
	sort.Strings(models)
	if len(models) > maxModels {
		models = models[:maxModels]
	}
	var out []realPair
	for _, m := range models {
		files, _ := filepath.Glob(filepath.Join(m, "*_to_*", "*.jsonl"))
		for _, file := range files {
			tgt := strings.SplitN(filepath.Base(filepath.Dir(file)), "_to_", 2)[1]
			tf, err := os.Open(file)
			if err != nil {
				continue
			}
			s := bufio.NewScanner(tf)
			s.Buffer(make([]byte, 1<<20), 1<<24)
			for s.Scan() {
				var rec map[string]any
				if json.Unmarshal(s.Bytes(), &rec) != nil {
					continue
				}
				id, _ := rec["sample_id"].(string)
				arr, _ := rec[tgt].([]any)
				if len(arr) == 0 || golds[id][tgt] == "" {
					continue
				}
				code, _ := arr[0].(string)
				if i := strings.Index(code, "--IMPORT_SPLIT--"); i >= 0 {
					code = code[i+len("--IMPORT_SPLIT--"):]
				}
				out = append(out, realPair{tgt, golds[id][tgt], code})
			}
			tf.Close()
		}
	}
	if len(out) == 0 {
		tb.Skip("no recorded translations found in the shared corpora")
	}
	return out
}

// naiveBLEU counts n-grams as joined strings, the textbook way.
func naiveBLEU(ref, hyp []string) float64 {
	count := func(t []string) map[string]int {
		m := map[string]int{}
		for n := 1; n <= MaxOrder; n++ {
			for i := 0; i+n <= len(t); i++ {
				m[fmt.Sprint(n)+"\x00"+strings.Join(t[i:i+n], "\x00")]++
			}
		}
		return m
	}
	rc, hc := count(ref), count(hyp)
	s := NgramStats{HypLen: len(hyp), RefLen: len(ref)}
	for g, c := range hc {
		n := int(g[0] - '0')
		s.Possible[n-1] += float64(c)
		s.Matches[n-1] += float64(min(c, rc[g]))
	}
	return s.Score(SmoothAddOne)
}

// cpuNow is this process's user+system CPU time: on a machine shared with other
// jobs, wall time would count their share too; the loops measured are
// single-threaded, so CPU time is one core's time.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRealPairs measures BLEU, STS and TRS pairs per second per core on
// real translations (the first 2 TRACE models, all directions), against the naive
// way: string n-grams and string tokens, and the reference re-parsed for every pair.
func BenchmarkRealPairs(b *testing.B) {
	pairs := loadRealPairs(b, 2)
	refs := map[string]*Prepared{}
	var hyps []*Prepared
	var refOf []*Prepared
	start := cpuNow()
	for _, p := range pairs {
		r := refs[p.lang+p.ref]
		if r == nil {
			var err error
			if r, err = Prepare(p.lang, p.ref, DefaultOptions); err != nil {
				b.Fatal(err)
			}
			refs[p.lang+p.ref] = r
		}
		h, err := Prepare(p.lang, p.hyp, DefaultOptions)
		if err != nil {
			b.Fatal(err)
		}
		hyps, refOf = append(hyps, h), append(refOf, r)
	}
	prep := (cpuNow() - start)
	rate := func(d time.Duration) float64 { return float64(len(pairs)) / d.Seconds() }
	b.ResetTimer()
	for range b.N {
		t0 := cpuNow()
		for i, h := range hyps {
			r := refOf[i]
			StatsNgrams(r.Ngrams, len(r.Hashes), h.Ngrams, len(h.Hashes), nil).Score(SmoothAddOne)
		}
		tBLEU := (cpuNow() - t0)
		t0 = cpuNow()
		for i := range hyps {
			naiveBLEU(refOf[i].Prog.Tokens, hyps[i].Prog.Tokens)
		}
		tBLEUNaive := (cpuNow() - t0)
		t0 = cpuNow()
		for i, h := range hyps {
			lcs.Levenshtein(refOf[i].Hashes, h.Hashes)
		}
		tSTS := (cpuNow() - t0)
		t0 = cpuNow()
		for i := range hyps {
			lcs.Levenshtein(refOf[i].Prog.Tokens, hyps[i].Prog.Tokens)
		}
		tSTSNaive := (cpuNow() - t0)
		t0 = cpuNow()
		trees := 0
		for i, h := range hyps {
			if refOf[i].Flat != nil && h.Flat != nil {
				TED(refOf[i].Flat, h.Flat)
				trees++
			}
		}
		tTRS := (cpuNow() - t0)
		t0 = cpuNow()
		for i, h := range hyps {
			if refOf[i].Flat != nil && h.Flat != nil {
				tedZhangShasha(refOf[i].Flat, h.Flat)
			}
		}
		tTRSNaive := (cpuNow() - t0)
		t0 = cpuNow()
		var capHit, graphs int
		for i, h := range hyps {
			if refOf[i].PDG != nil && h.PDG != nil {
				g := GED(refOf[i].PDG, h.PDG, DefaultGEDOptions)
				graphs++
				if g.CapHit {
					capHit++
				}
			}
		}
		tGRS := (cpuNow() - t0)
		// The whole comparison with the reference prepared once per problem, against
		// preparing it again for every pair.
		t0 = cpuNow()
		for i, p := range pairs {
			h, _ := Prepare(p.lang, p.hyp, DefaultOptions)
			Compare(refOf[i], h, nil, DefaultOptions)
		}
		tAll := (cpuNow() - t0)
		t0 = cpuNow()
		for _, p := range pairs[:len(pairs)/4] {
			r, _ := Prepare(p.lang, p.ref, DefaultOptions)
			h, _ := Prepare(p.lang, p.hyp, DefaultOptions)
			Compare(r, h, nil, DefaultOptions)
		}
		tAllNaive := (cpuNow() - t0) * 4
		fmt.Printf("BENCH similarity (rates per CPU second of this process)\n")
		fmt.Printf("BENCH similarity pairs=%d (2 models, 6 directions) prepare=%.0f/s GOMAXPROCS=%d\n", len(pairs), rate(prep), runtime.GOMAXPROCS(0))
		fmt.Printf("BENCH similarity BLEU %.0f pairs/s/core (naive string n-grams %.0f)\n", rate(tBLEU), rate(tBLEUNaive))
		fmt.Printf("BENCH similarity STS %.0f pairs/s/core (naive string tokens %.0f)\n", rate(tSTS), rate(tSTSNaive))
		fmt.Printf("BENCH similarity TRS %.0f pairs/s/core over %d tree pairs (first Zhang-Shasha %.0f)\n",
			float64(trees)/tTRS.Seconds(), trees, float64(trees)/tTRSNaive.Seconds())
		fmt.Printf("BENCH similarity GRS %.0f pairs/s/core over %d graph pairs, cap hit %d (%.2f%%)\n",
			float64(graphs)/tGRS.Seconds(), graphs, capHit, 100*float64(capHit)/float64(max(graphs, 1)))
		fmt.Printf("BENCH similarity all metrics incl. parsing %.0f pairs/s/core (reference re-parsed per pair: %.0f)\n", rate(tAll), rate(tAllNaive))
	}
}
