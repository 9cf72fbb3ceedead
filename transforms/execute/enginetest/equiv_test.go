package enginetest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/sandbox"
	"transmute/transforms/translate"
	"transmute/transforms/translate/recorded"
)

// equivLimits bound each test in the equivalence runs.
var equivLimits = sandbox.Limits{CPUTime: 2 * time.Second, WallTime: 4 * time.Second, MemoryBytes: 512 << 20}

// equivSubset is the number of problems checked unless TRANSMUTE_FULL=1.
const equivSubset = 12

// equivModels are the recorded models checked unless TRANSMUTE_FULL=1 (make
// test-corpora): the Makefile's four-model sample, one per family and size. Every
// translation is run alone once, so the 28 models present cost seven times as much
// (about 2000 lone batches, most of them C++ compiles) without exercising another
// path of the engines.
var equivModels = []string{"CodeLlama-13b-Instruct-hf", "Qwen2.5-Coder-7B-Instruct", "deepseek-coder-6.7b-instruct", "gpt-4o"}

// TestBatchedEqualsAlone runs, per (problem, language), the gold function and the
// four recorded models' translations into that language once as one batch and once
// each alone in its own batch, and requires identical statuses and outputs per test.
func TestBatchedEqualsAlone(t *testing.T) {
	t.Parallel()
	c := transcoder(t)
	dir := filepath.Join(corporaDir(t), "trace", "Ref_Translation")
	models, _ := filepath.Glob(filepath.Join(dir, "m.*"))
	if os.Getenv("TRANSMUTE_FULL") != "1" {
		models = models[:0]
		for _, m := range equivModels {
			if _, err := os.Stat(filepath.Join(dir, "m."+m)); err == nil {
				models = append(models, filepath.Join(dir, "m."+m))
			}
		}
	}
	if len(models) == 0 {
		t.Skipf("no recorded models in %s", dir)
	}
	ctx := context.Background()
	var trs []*recorded.Translator
	for _, m := range models {
		tr, err := recorded.Open(ctx, m)
		if err != nil {
			t.Fatalf("open %s: %v", m, err)
		}
		trs = append(trs, tr)
	}
	probs := c.Problems
	if os.Getenv("TRANSMUTE_FULL") != "1" && len(probs) > equivSubset {
		// evenly spread over the sample, deterministic
		var sub []schemas.Problem
		for i := 0; i < equivSubset; i++ {
			sub = append(sub, probs[i*len(probs)/equivSubset])
		}
		probs = sub
	}
	engines := map[string]execute.Engine{}
	for _, l := range langs {
		engines[l] = openEngine(t, l)
	}
	start := time.Now()
	var nCand, nTests, nBatches atomic.Int64
	// the languages run in parallel, each on its own engine
	t.Run("langs", func(t *testing.T) {
		for _, lang := range langs {
			t.Run(lang, func(t *testing.T) {
				t.Parallel()
				for _, p := range probs {
					b := execute.Batch{ProblemID: p.ID, Lang: lang, Params: p.Params, Returns: p.Returns, Tests: p.Tests, Limits: equivLimits}
					if g, ok := p.Function(lang); ok {
						b.Candidates = append(b.Candidates, execute.Candidate{ID: "gold", Code: g.Code, Imports: g.Imports, Entry: g.Name})
					}
					for _, tr := range trs {
						for _, src := range langs {
							f, ok := p.Function(src)
							if src == lang || !ok {
								continue
							}
							out, err := tr.Translate(ctx, translate.Request{ProblemID: p.ID, Corpus: p.Corpus, VariantID: "orig",
								SrcLang: src, TgtLang: lang, Code: f.Code, Imports: f.Imports, Entry: f.Name, Params: p.Params, Returns: p.Returns})
							if err != nil {
								t.Fatalf("%s %s->%s: %v", tr.Name(), src, lang, err)
							}
							for _, o := range out {
								if o.Status != schemas.TranslationOK {
									continue
								}
								b.Candidates = append(b.Candidates, execute.Candidate{
									ID:   fmt.Sprintf("%s/%s/%d", tr.Name(), src, o.Sample),
									Code: o.Code, Imports: o.Imports, Entry: o.Entry})
							}
						}
					}
					if len(b.Candidates) == 0 {
						continue
					}
					e := engines[lang]
					batched := runBatch(t, e, b)
					nBatches.Add(1)
					aloneBy := map[execute.Candidate]execute.Result{}
					for i, cand := range b.Candidates {
						key := execute.Candidate{Code: cand.Code, Imports: cand.Imports, Entry: cand.Entry}
						alone, seen := aloneBy[key]
						if !seen {
							// identical code (two samples alike) runs alone once
							one := b
							one.Candidates = []execute.Candidate{cand}
							alone = runBatch(t, e, one)[0]
							aloneBy[key] = alone
							nBatches.Add(1)
						}
						alone.CandidateID = cand.ID
						nCand.Add(1)
						nTests.Add(int64(len(b.Tests)))
						if d := sameResult(batched[i], alone); d != "" {
							if borderline(batched[i], alone) {
								t.Logf("BORDERLINE %s %s %s: batched vs alone: %s", p.ID, lang, cand.ID, d)
								continue
							}
							if ub, ok := undefinedBehaviour[p.ID+"/"+lang]; ok && ub.explains(batched[i], alone) {
								t.Logf("UNDEFINED-BEHAVIOUR %s %s %s: batched vs alone: %s; %s", p.ID, lang, cand.ID, d, ub.why)
								continue
							}
							if why := stateDependent(t, e, b, cand, alone); why != "" {
								t.Logf("STATE-DEPENDENT %s %s %s: batched vs alone: %s; %s", p.ID, lang, cand.ID, d, why)
								continue
							}
							t.Errorf("%s %s %s: batched vs alone: %s", p.ID, lang, cand.ID, d)
						}
					}
				}
			})
		}
	})
	t.Logf("%d problems, %d candidates, %d tests each way, %d batches: %v", len(probs), nCand.Load(), nTests.Load(), nBatches.Load(), time.Since(start).Round(time.Second))
}

// undefinedBehaviour lists (problem/language) whose translations were checked by
// hand to have undefined behaviour on the sample's tests: their outputs depend on
// what the process ran before (heap contents), so batched and alone may differ in
// outputs without any fault of the engine; in statuses only where crash is set.
var undefinedBehaviour = map[string]undefined{
	// isSubsetSum indexes subset[(i+1)%2][j-arr[i-1]] with negative arr values
	// (test 7: arr has -82, -18...), i.e. beyond sum: an out-of-bounds
	// vector<bool> read in the gpt-4o and deepseek translations. CodeLlama-7b's
	// Java->C++ translation declares bool subset[2^n][sum+1] on the stack: 251 MB
	// on test 3 (n=23), beyond the 128 MB test thread's stack, so its writes land
	// below the stack: a segmentation fault, or (seen once in a batch, 2026-11-26)
	// whatever mapping the address-space layout put there.
	"SUBSET_SUM_PROBLEM_OSUM_SPACE/cpp": {why: "out-of-bounds read (negative array values make j-arr[i-1] exceed sum); a 251 MB stack array", crash: true},
	// test 9 calls first("xVz IfQBHyEZMa", 82): the translations (and the C++ gold)
	// read str[82] of a 14-character string, past its end, looking for '\0' or an
	// upper-case letter (seen in the full run of 2026-11-24: "G" batched, "\u0000"
	// alone, for two Qwen translations taking a std::string)
	"FIRST_UPPERCASE_LETTER_IN_A_STRING_ITERATIVE_AND_RECURSIVE_1/cpp": {why: "out-of-bounds read (index 82 of a 14-character string)"},
}

// undefined is what undefinedBehaviour knows of a (problem, language).
type undefined struct {
	why string
	// crash: the behaviour may also end the program, so a test may be a segmentation
	// fault in one mode and return in the other
	crash bool
}

// explains tells whether the undefined behaviour explains how a and b differ: in
// outputs only, or with crash also in a test that died of a segmentation fault in
// one of them.
func (u undefined) explains(a, b execute.Result) bool {
	if len(a.Tests) != len(b.Tests) {
		return false
	}
	segfault := func(r execute.TestResult) bool {
		return r.Status == schemas.StatusRuntimeError && strings.Contains(r.Error, "segmentation fault")
	}
	crashed := false
	for i := range a.Tests {
		x, y := a.Tests[i], b.Tests[i]
		if x.Status == y.Status {
			continue
		}
		if !u.crash || !(segfault(x) || segfault(y)) {
			return false
		}
		crashed = true
	}
	return a.Status == b.Status || crashed
}

// borderline tells whether a difference is a timeout in one mode where the other
// mode's same test used at least half the CPU limit (a genuine borderline case).
func borderline(a, b execute.Result) bool {
	for i := range a.Tests {
		x, y := a.Tests[i], b.Tests[i]
		if x.Status == y.Status && x.Output == y.Output {
			continue
		}
		if x.Status == schemas.StatusTimeout && y.CPUTime >= equivLimits.CPUTime/2 {
			continue
		}
		if y.Status == schemas.StatusTimeout && x.CPUTime >= equivLimits.CPUTime/2 {
			continue
		}
		return false
	}
	return a.Status == b.Status || a.Status == schemas.StatusTimeout || b.Status == schemas.StatusTimeout
}

// stateDependent reruns a candidate whose batched and alone results differ only in
// outputs: alone again, and twice in a row in one batch. When these runs disagree
// among themselves the candidate's result depends on process state (in practice: a
// C++ translation reading out-of-bounds or uninitialized memory), which no batching
// can make reproducible; it returns why, or "" when the candidate is deterministic
// (then the difference is the engine's).
func stateDependent(t *testing.T, e execute.Engine, b execute.Batch, cand execute.Candidate, alone execute.Result) string {
	one := b
	one.Candidates = []execute.Candidate{cand}
	again := runBatch(t, e, one)[0]
	if d := sameResult(alone, again); d != "" {
		return "alone twice: " + d
	}
	two := b
	c2 := cand
	c2.ID += "#2"
	two.Candidates = []execute.Candidate{cand, c2}
	res := runBatch(t, e, two)
	res[1].CandidateID = res[0].CandidateID
	if d := sameResult(res[0], res[1]); d != "" {
		return "same code twice in one batch: " + d
	}
	return ""
}

// TestUndefinedExplains: undefined behaviour explains a difference in outputs, and a
// segmentation fault in one mode only where the entry says it may crash.
func TestUndefinedExplains(t *testing.T) {
	res := func(tests ...execute.TestResult) execute.Result {
		return execute.Result{Status: schemas.StatusOK, Tests: tests}
	}
	ok := func(v string) execute.TestResult { return execute.TestResult{Status: schemas.StatusOK, Output: v} }
	segv := execute.TestResult{Status: schemas.StatusRuntimeError, Error: "killed by signal: segmentation fault"}
	exc := execute.TestResult{Status: schemas.StatusRuntimeError, Error: "IndexError"}
	tmo := execute.TestResult{Status: schemas.StatusTimeout}
	reads, crashes := undefined{why: "r"}, undefined{why: "c", crash: true}
	for _, c := range []struct {
		u    undefined
		a, b execute.Result
		want bool
	}{
		{reads, res(ok("1"), ok("2")), res(ok("1"), ok("3")), true},
		{reads, res(ok("1"), ok("2")), res(ok("1"), segv), false},
		{crashes, res(ok("1"), ok("2")), res(ok("1"), segv), true},
		{crashes, res(segv, ok("2")), res(ok("5"), ok("2")), true},
		{crashes, res(ok("1"), ok("2")), res(ok("1"), exc), false},
		{crashes, res(ok("1"), ok("2")), res(ok("1"), tmo), false},
		{crashes, res(ok("1")), res(ok("1"), ok("2")), false},
	} {
		if got := c.u.explains(c.a, c.b); got != c.want {
			t.Errorf("%+v explains %+v vs %+v: %v, want %v", c.u, c.a.Tests, c.b.Tests, got, c.want)
		}
	}
}
