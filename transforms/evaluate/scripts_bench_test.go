package evaluate

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"transmute/internal/testenv"
	"transmute/io/corpus"
	"transmute/schemas"
	"transmute/transforms/execute"
	_ "transmute/transforms/execute/java"
	_ "transmute/transforms/execute/python"
	"transmute/transforms/sandbox"
	"transmute/transforms/scriptcheck"
	"transmute/transforms/translate"
	"transmute/transforms/translate/recorded"
	"transmute/transforms/values"
)

const (
	// scriptsModel is the recorded model evaluated: every TRACE model has all 280
	// problems of each direction of the shared half, and GPT-4o's translations mostly
	// compile, so the scripts' cost is mostly compiling and running, not failing early.
	scriptsModel = "m.gpt-4o"
	// scriptsProblems problems are sampled per direction (seeded, as scriptcheck
	// --sample) and run both ways in scriptsRounds rounds. A script costs the same
	// whichever problems run with it, while the engines share their start-up and group
	// candidates over the problems in flight, so ours costs less per problem over more
	// problems (a whole evaluation of the half, about 230 problems): a few keep the
	// run within minutes on a loaded machine, and the figure conservative.
	scriptsProblems = 12
	scriptsRounds   = 3
	scriptsSeed     = 1
	// scriptsFeeders goroutines per core evaluate problems at once, and the engines'
	// coalescers group their batches as the pipeline's do (pipelines/pool.go).
	scriptsFeeders        = 4
	scriptsCoalesceMax    = 48
	scriptsCoalesceLinger = 50 * time.Millisecond
)

// BenchmarkScripts{PythonToJava,JavaToCpp} evaluate one recorded model's translations
// of one direction on the shared TransCoder-test half, side by side with the
// benchmark's own test scripts filled with the same translations and run one by one
// (javac and a JVM of its own per script; g++ without a precompiled header and a
// process per script), in rounds that alternate which way runs first. Ours is the
// evaluate job's path: every gold of the problem (the fidelity marks and the source
// oracle of the tables), the translation, both oracles, on engines opened in the
// first round (their harness builds cached, as on any run after the first) and
// closed in the last, as a pipeline worker holds them. Each way's CPU is
// testenv.TreeCPU's: this process, its reaped children and its live descendants
// (engine workers, compilers, sandboxed programs). target_only_* is ours with the
// target language's engine alone, what the target-gold verdict needs (scriptcheck
// --only-target; the tables then lack the other golds' rows). steady_* leaves out
// the first round, which pays the engines' start-up. Our target-gold verdicts must
// agree with the scripts' (scriptcheck's comparison, its causes for each
// disagreement on stderr).
func BenchmarkScriptsPythonToJava(b *testing.B) {
	benchScripts(b, schemas.Python, schemas.Java, scriptsProblems, scriptsRounds)
}
func BenchmarkScriptsJavaToCpp(b *testing.B) {
	// fewer: a C++ script's compile alone costs about 2 s of CPU
	benchScripts(b, schemas.Java, schemas.Cpp, scriptsProblems/2, scriptsRounds-1)
}

// scriptsProblem is one sampled problem with its script.
type scriptsProblem struct {
	p      schemas.Problem
	item   Item // the problem with the one direction as its task
	script string
}

// scriptsWay is what one way cost over some rounds.
type scriptsWay struct {
	cpu, wall time.Duration
	n         int
}

func (w scriptsWay) msPerProblem() float64 {
	return float64(w.cpu.Microseconds()) / 1000 / float64(w.n)
}

func (w *scriptsWay) add(x scriptsWay) {
	w.cpu += x.cpu
	w.wall += x.wall
	w.n += x.n
}

func benchScripts(b *testing.B, src, tgt string, nProblems, rounds int) {
	dir := testenv.SharedCorpora(b, "transcoder-test")
	modelDir := filepath.Join(dir, "trace", "Ref_Translation", scriptsModel)
	if _, err := os.Stat(modelDir); err != nil {
		b.Skipf("recorded model absent: %v", err)
	}
	ctx := context.Background()
	c, err := corpus.Load(ctx, "transcoder:"+filepath.Join(dir, "transcoder-test"))
	if err != nil {
		b.Fatal(err)
	}
	rec, err := recorded.Open(ctx, modelDir)
	if err != nil {
		b.Fatal(err)
	}
	ext := map[string]string{schemas.Java: "java", schemas.Cpp: "cpp"}[tgt]
	var probs []scriptsProblem
	for _, p := range c.Problems {
		raw, err := os.ReadFile(filepath.Join(dir, "transcoder-test", "testscript", tgt, p.ID+"."+ext))
		if err != nil || !rec.Has(p.ID, src, tgt) {
			continue
		}
		probs = append(probs, scriptsProblem{p, scriptsItem(p, src, tgt), string(raw)})
	}
	sort.Slice(probs, func(i, j int) bool { return probs[i].p.ID < probs[j].p.ID })
	rand.New(rand.NewSource(scriptsSeed)).Shuffle(len(probs), func(i, j int) { probs[i], probs[j] = probs[j], probs[i] })
	if len(probs) < nProblems+1 {
		b.Skipf("only %d problems with a %s script and a translation", len(probs), tgt)
	}
	langs := []string{schemas.Cpp, schemas.Java, schemas.Python}
	// the engines' harness builds (the Java worker and its class-data archive, the C++
	// precompiled header) in the machine's engine cache, where a run finds them after
	// the first; on a problem outside the sample
	warm := openScriptsEngines(b, langs)
	scriptsOurs(warm, rec, probs[nProblems:nProblems+1])
	closeScriptsEngines(warm)
	probs = probs[:nProblems]
	fmt.Fprintf(os.Stderr, "%s->%s: engines warm\n", src, tgt)

	javaAlone := &scriptcheck.JavaAlone{}
	cppAlone := &scriptcheck.GlobalChecker{Plain: true}
	var ours, steady, target, targetSteady, naive, naiveSteady scriptsWay
	var agree, agreeConv, scriptPass, ourPass, notFilled int
	for it := 0; it < b.N; it++ {
		ours, steady, target, targetSteady, naive, naiveSteady = scriptsWay{}, scriptsWay{}, scriptsWay{}, scriptsWay{}, scriptsWay{}, scriptsWay{}
		agree, agreeConv, scriptPass, ourPass, notFilled = 0, 0, 0, 0, 0
		var engines, targetEngines map[string]execute.Engine
		for k := 0; k < rounds; k++ {
			oursChunk := probs[k*len(probs)/rounds : (k+1)*len(probs)/rounds]
			chunk := oursChunk // outs[i] is chunk[i]'s
			var outs []Output
			// run evaluates the round's problems on the engines of langs, opened in
			// the first round and closed in the last, as a pipeline worker holds them
			run := func(engs *map[string]execute.Engine, langs []string, all, steadyWay *scriptsWay) []Output {
				c0, w0 := testenv.TreeCPU(), time.Now()
				if k == 0 {
					*engs = openScriptsEngines(b, langs)
				}
				o := scriptsOurs(*engs, rec, oursChunk)
				if k == rounds-1 {
					closeScriptsEngines(*engs)
				}
				w := scriptsWay{cpu: testenv.TreeCPU() - c0, wall: time.Since(w0), n: len(oursChunk)}
				all.add(w)
				if k > 0 {
					steadyWay.add(w)
				}
				return o
			}
			runOurs := func() { outs = run(&engines, langs, &ours, &steady) }
			// the target language's engine alone: what the target-gold verdict needs
			// (scriptcheck --only-target); the tables lack the other golds' rows
			runTarget := func() { run(&targetEngines, []string{tgt}, &target, &targetSteady) }
			verdicts := make([]scriptcheck.Outcome, len(chunk))
			runNaive := func(trs []schemas.TranslationRow) {
				c0, w0 := testenv.TreeCPU(), time.Now()
				for i, sp := range chunk {
					o, ok := scriptAlone(b, javaAlone, cppAlone, tgt, sp, trs[i])
					if !ok {
						notFilled++
					}
					verdicts[i] = o
				}
				w := scriptsWay{cpu: testenv.TreeCPU() - c0, wall: time.Since(w0), n: len(chunk)}
				naive.add(w)
				if k > 0 {
					naiveSteady.add(w)
				}
			}
			// the naive way fills in the recorded translations themselves (the
			// translate step needs no engine); the order of the ways turns each round
			trs := make([]schemas.TranslationRow, len(chunk))
			ev := &Evaluator{Run: "bench", Translators: []translate.Translator{rec}}
			for i, sp := range chunk {
				trs[i], _ = sample0(ev.Translate(ctx, sp.item).Translations)
			}
			if k%2 == 0 {
				runOurs()
				runTarget()
				runNaive(trs)
			} else {
				runNaive(trs)
				runTarget()
				runOurs()
			}
			fmt.Fprintf(os.Stderr, "%s->%s round %d: ours %v CPU so far, target only %v, naive %v\n", src, tgt, k,
				ours.cpu.Round(time.Millisecond), target.cpu.Round(time.Millisecond), naive.cpu.Round(time.Millisecond))
			for i, sp := range chunk {
				so := verdicts[i]
				var rows []schemas.ResultRow
				for _, r := range outs[i].Results {
					if r.SrcLang == src && r.TgtLang == tgt {
						rows = append(rows, r)
					}
				}
				v, vc := scriptcheck.OurVerdict(rows), scriptcheck.OurVerdict(rows)
				cause := ""
				if tgt == schemas.Cpp {
					vc = scriptcheck.OurVerdictCppConversions(rows)
					cause = scriptcheck.CauseCpp(so, v, rows)
				} else {
					cause = scriptcheck.Cause(so, v, rows)
				}
				if so.Pass() {
					scriptPass++
				}
				if v.Pass {
					ourPass++
				}
				if so.Pass() == vc.Pass {
					agreeConv++
				}
				if so.Pass() == v.Pass {
					agree++
				} else {
					fmt.Fprintf(os.Stderr, "%s %s->%s: script %v (%s %s), ours %v: %s\n", sp.p.ID, src, tgt, so.Pass(),
						so.Status, so.Detail, v.Pass, cause)
				}
			}
		}
	}
	name := "scripts_" + src + "_to_" + tgt
	o, n := ours.msPerProblem(), naive.msPerProblem()
	oSteady, nSteady := steady.msPerProblem(), naiveSteady.msPerProblem()
	b.ReportMetric(o, "cpu-ms/problem")
	b.ReportMetric(n, "naive-cpu-ms/problem")
	b.ReportMetric(n/o, "speedup-cpu")
	b.ReportMetric(nSteady/oSteady, "steady-speedup-cpu")
	b.ReportMetric(n/target.msPerProblem(), "target-only-speedup-cpu")
	b.ReportMetric(float64(agree), "agree")
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("BENCH %s model=%s problems=%d naive_problems=%d rounds=%d cpu_ms_per_problem=%.0f naive_cpu_ms_per_problem=%.0f speedup_cpu=%.1f "+
		"steady_cpu_ms_per_problem=%.0f steady_naive_cpu_ms_per_problem=%.0f steady_speedup_cpu=%.1f "+
		"target_only_cpu_ms_per_problem=%.0f target_only_speedup_cpu=%.1f steady_target_only_cpu_ms_per_problem=%.0f steady_target_only_speedup_cpu=%.1f "+
		"wall_ms_per_problem=%.0f naive_wall_ms_per_problem=%.0f agree=%d/%d agree_cpp_conversions=%d/%d "+
		"script_pass=%d ours_pass=%d not_filled=%d loadavg=%q\n",
		name, strings.TrimPrefix(scriptsModel, "m."), ours.n, naive.n, rounds, o, n, n/o, oSteady, nSteady, nSteady/oSteady,
		target.msPerProblem(), n/target.msPerProblem(), targetSteady.msPerProblem(), nSteady/targetSteady.msPerProblem(),
		float64(ours.wall.Milliseconds())/float64(ours.n), float64(naive.wall.Milliseconds())/float64(naive.n),
		agree, naive.n, agreeConv, naive.n, scriptPass, ourPass, notFilled, strings.TrimSpace(string(load)))
}

// scriptAlone fills the translation in the problem's script and compiles and runs it
// alone, as the benchmark's harness does; ok is false when there was nothing to run
// (no translation, or none the script can take).
func scriptAlone(b *testing.B, ja *scriptcheck.JavaAlone, ca *scriptcheck.GlobalChecker, tgt string, sp scriptsProblem,
	t schemas.TranslationRow) (scriptcheck.Outcome, bool) {
	ctx := context.Background()
	if t.Status != schemas.TranslationOK {
		return scriptcheck.Outcome{Status: schemas.StatusNoTranslation}, false
	}
	fill, run := scriptcheck.FillJava, ja.Run
	if tgt == schemas.Cpp {
		fill, run = scriptcheck.FillCpp, ca.RunAlone
	}
	filled, err := fill(sp.script, t.Imports, t.Code, t.Entry)
	if err != nil {
		return scriptcheck.Outcome{Status: schemas.StatusCompileError, Detail: err.Error()}, false
	}
	o, err := run(ctx, filled, sandbox.Limits{})
	if err != nil {
		b.Fatalf("%s: script not run: %v", sp.p.ID, err)
	}
	return o, true
}

func scriptsItem(p schemas.Problem, src, tgt string) Item {
	return Item{Problem: p, Tasks: []schemas.Task{{ProblemID: p.ID, Corpus: p.Corpus, SrcLang: src, TgtLang: tgt}}}
}

// sample0 is the first translation of the rows.
func sample0(rows []schemas.TranslationRow) (schemas.TranslationRow, bool) {
	for _, t := range rows {
		if t.Sample == 0 {
			return t, true
		}
	}
	return schemas.TranslationRow{}, false
}

// openScriptsEngines opens the engines of langs on the machine's engine cache,
// wrapped as the pipeline wraps them.
func openScriptsEngines(b *testing.B, langs []string) map[string]execute.Engine {
	engines := map[string]execute.Engine{}
	for _, l := range langs {
		e, err := execute.Open(l, execute.Options{})
		if err != nil {
			closeScriptsEngines(engines)
			b.Skipf("no %s engine: %v", l, err)
		}
		engines[l] = execute.Coalesce(e, execute.CoalesceOptions{Parallel: runtime.NumCPU(),
			MaxCandidates: scriptsCoalesceMax, Linger: scriptsCoalesceLinger})
	}
	return engines
}

func closeScriptsEngines(engines map[string]execute.Engine) {
	for _, e := range engines {
		e.Close()
	}
}

// scriptsOurs evaluates the problems as the evaluate job does, scriptsFeeders per
// core at once, and returns the outputs in the problems' order.
func scriptsOurs(engines map[string]execute.Engine, rec translate.Translator, probs []scriptsProblem) []Output {
	ctx := context.Background()
	ev := &Evaluator{Run: "bench", Translators: []translate.Translator{rec}, Engines: engines,
		Tolerance: values.DefaultTolerance, CppArgs: CppArgsGold}
	outs := make([]Output, len(probs))
	next := make(chan int)
	var wg sync.WaitGroup
	for g := 0; g < scriptsFeeders*runtime.NumCPU(); g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				outs[i] = ev.Evaluate(ctx, probs[i].item)
			}
		}()
	}
	for i := range probs {
		next <- i
	}
	close(next)
	wg.Wait()
	return outs
}
