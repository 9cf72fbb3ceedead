package enginetest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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

// TestBatchedEqualsAlone runs, per (problem, language), the gold function and the
// four recorded models' translations into that language once as one batch and once
// each alone in its own batch, and requires identical statuses and outputs per test.
func TestBatchedEqualsAlone(t *testing.T) {
	t.Parallel()
	c := transcoder(t)
	dir := filepath.Join(corporaDir(t), "trace", "Ref_Translation")
	models, _ := filepath.Glob(filepath.Join(dir, "m.*"))
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
							if why, ok := undefinedBehaviour[p.ID+"/"+lang]; ok && sameStatuses(batched[i], alone) {
								t.Logf("UNDEFINED-BEHAVIOUR %s %s %s: batched vs alone: %s; %s", p.ID, lang, cand.ID, d, why)
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
// hand to read memory out of bounds on the sample's tests: their outputs depend on
// what the process ran before (heap contents), so batched and alone may differ in
// outputs (never in statuses) without any fault of the engine.
var undefinedBehaviour = map[string]string{
	// isSubsetSum indexes subset[(i+1)%2][j-arr[i-1]] with negative arr values
	// (test 7: arr has -82, -18...), i.e. beyond sum: an out-of-bounds
	// vector<bool> read in the gpt-4o and deepseek translations.
	"SUBSET_SUM_PROBLEM_OSUM_SPACE/cpp": "out-of-bounds read (negative array values make j-arr[i-1] exceed sum)",
	// test 9 calls first("xVz IfQBHyEZMa", 82): the translations (and the C++ gold)
	// read str[82] of a 14-character string, past its end, looking for '\0' or an
	// upper-case letter (seen in the full run of 2026-11-24: "G" batched, "\u0000"
	// alone, for two Qwen translations taking a std::string)
	"FIRST_UPPERCASE_LETTER_IN_A_STRING_ITERATIVE_AND_RECURSIVE_1/cpp": "out-of-bounds read (index 82 of a 14-character string)",
}

// sameStatuses tells whether two results differ at most in outputs.
func sameStatuses(a, b execute.Result) bool {
	if a.Status != b.Status || len(a.Tests) != len(b.Tests) {
		return false
	}
	for i := range a.Tests {
		if a.Tests[i].Status != b.Tests[i].Status {
			return false
		}
	}
	return true
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
