// Command scriptcheck sets our target-gold verdict beside TransCoder-test's own test
// scripts: it evaluates the recorded translations into one language with
// transforms/evaluate (no Beam), runs the benchmark's script of each problem with each
// distinct translation filled in (sandboxed), and prints per translation both
// verdicts (TSV on stdout) and per model the agreement and every disagreement's cause
// (stderr). Python scripts run one by one; Java scripts (--lang java) run per problem
// as one batch of the Java engine, each script its own class in its own class loader
// (scriptcheck.RunJava); C++ scripts (--lang cpp) as one batch of the C++ engine,
// each script its own candidate in its own namespace and child process
// (scriptcheck.RunCpp).
//
//	go run ./cmd/scriptcheck --corpus ../shared/corpora/transcoder-test \
//	  --models '../shared/corpora/trace/Ref_Translation/m.*' --lang java > agreement.tsv
//
// --sample N --seed S checks a seeded sample of N problems (the same for every model)
// instead of all; --problems and --limit restrict the problems too.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"transmute/io/corpus"
	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/execute"
	_ "transmute/transforms/execute/cpp"
	_ "transmute/transforms/execute/golang"
	_ "transmute/transforms/execute/java"
	_ "transmute/transforms/execute/python"
	"transmute/transforms/sandbox"
	"transmute/transforms/scriptcheck"
	"transmute/transforms/translate"
	_ "transmute/transforms/translate/builtin"
	_ "transmute/transforms/translate/identity"
	"transmute/transforms/translate/recorded"
	"transmute/transforms/values"
)

func main() {
	sandbox.Init()
	dir := flag.String("corpus", "../shared/corpora/transcoder-test", "TransCoder-test directory (gold.jsonl, testscript/)")
	models := flag.String("models", "../shared/corpora/trace/Ref_Translation/m.*", "glob of recorded model directories")
	lang := flag.String("lang", schemas.Python, "target language: python, java or cpp")
	limit := flag.Int("limit", 0, "at most this many problems (0 = all)")
	parallel := flag.Int("workers", 2, "engine calls at once per language")
	only := flag.String("problems", "", "comma-separated problem ids to check (default: all)")
	sample := flag.Int("sample", 0, "check a seeded random sample of this many problems with a script (0 = all); the same problems for every model")
	seed := flag.Int64("seed", 1, "seed of --sample")
	onlyTarget := flag.Bool("only-target", true, "run only the target language's programs: the source golds (the source oracle, the fidelity marks) are not needed for the target-gold verdict, and the C++ compiler is the costly part on a loaded machine")
	globalCheck := flag.Bool("global-check", true, "cpp: compile again alone at global scope, as the benchmark does, each distinct filled script whose translation may compile differently there than in the engine's namespace (GlobalChecker.NeedsCheck), and each that did not compile in the namespace")
	globalOnly := flag.Bool("global-only", false, "cpp: only translate, fill and check at global scope the translations that need it (no evaluation, no script run); prints model, problem, direction, why, global_ok, message")
	alone := flag.Bool("alone", false, "cpp: also compile and run every distinct filled script alone at global scope (GlobalChecker.RunAlone, sandboxed), as the benchmark does, and report where its outcome differs from the batch's (a check of RunCpp, at about 0.3 s of compiler CPU a script)")
	goScripts := flag.String("go-scripts", "../shared/corpora/gfg-extra/go", "go: TransCoder's Go test scripts (<id>.go), whose f_gold is also the Go gold")
	translators := flag.String("translators", "", "comma-separated translator specs (builtin:, identity:) to check besides --models")
	flag.Parse()
	ext := map[string]string{schemas.Python: "py", schemas.Java: "java", schemas.Cpp: "cpp", schemas.Go: "go"}[*lang]
	if ext == "" {
		fatal(fmt.Errorf("--lang %s: python, java, cpp or go", *lang))
	}
	scriptPath := func(id string) string { return filepath.Join(*dir, "testscript", *lang, id+"."+ext) }
	spec := "transcoder:" + *dir
	if *lang == schemas.Go {
		scriptPath = func(id string) string { return filepath.Join(*goScripts, id+".go") }
		spec += "?go=" + *goScripts
	}
	ctx := context.Background()
	c, err := corpus.Load(ctx, spec)
	if err != nil {
		fatal(err)
	}
	paths, _ := filepath.Glob(*models)
	sort.Strings(paths)
	var trs []translate.Translator
	for _, p := range paths {
		tr, err := recorded.Open(ctx, p)
		if err != nil {
			fatal(err)
		}
		trs = append(trs, tr)
	}
	for _, sp := range strings.Split(*translators, ",") {
		if sp = strings.TrimSpace(sp); sp == "" {
			continue
		}
		tr, err := translate.Open(ctx, sp)
		if err != nil {
			fatal(err)
		}
		trs = append(trs, tr)
	}
	engines := map[string]execute.Engine{}
	for _, l := range schemas.Languages {
		if *onlyTarget && l != *lang {
			continue // the evaluator records "no engine" for these and goes on
		}
		e, err := execute.Open(l, execute.Options{})
		if err != nil {
			fatal(err)
		}
		engines[l] = execute.Coalesce(e, execute.CoalesceOptions{Parallel: *parallel})
		defer e.Close()
	}
	ev := &evaluate.Evaluator{Run: "scriptcheck", Translators: trs, Engines: engines, Tolerance: values.DefaultTolerance,
		CppArgs: evaluate.CppArgsGold}
	// C++ scripts go to the engine itself, not its Coalesce wrapper: a problem's
	// scripts are one batch already, and the wrapper would add them to our own
	// evaluation's units
	var cppEngine execute.Engine
	if *lang == schemas.Cpp {
		if cppEngine, err = execute.Open(schemas.Cpp, execute.Options{}); err != nil {
			fatal(err)
		}
		defer cppEngine.Close()
	}
	run := scriptcheck.Runner{Java: engines[schemas.Java], Cpp: cppEngine, Go: engines[schemas.Go]}
	gc := &scriptcheck.GlobalChecker{}
	// checkGlobal compiles a filled script alone at global scope when its translation
	// needs it or it did not compile in the namespace: ran false when not checked.
	checkGlobal := func(ctx context.Context, filled string, t schemas.TranslationRow, nsCompileError bool) (ran, ok bool, why, msg string) {
		body, err := scriptcheck.FillCpp("//TOFILL", t.Imports, t.Code, t.Entry)
		if err != nil {
			return false, false, "", ""
		}
		need, why, err := gc.NeedsCheck("", body)
		if err != nil {
			fatal(err)
		}
		if !need && !nsCompileError {
			return false, false, "", ""
		}
		if why == "" {
			why = "did not compile in the namespace"
		}
		ok, msg, err = gc.Check(ctx, filled)
		if err != nil {
			fmt.Fprintf(os.Stderr, "global-scope check not done: %v\n", err)
			return false, false, "", ""
		}
		return true, ok, why, msg
	}
	fill, isolate := scriptcheck.FillPython, scriptcheck.IsolatePython
	switch *lang {
	case schemas.Java:
		fill, isolate = scriptcheck.FillJava, scriptcheck.IsolateJava
	case schemas.Cpp:
		fill, isolate = scriptcheck.FillCpp, scriptcheck.IsolateCpp
	case schemas.Go:
		fill, isolate = scriptcheck.FillGo, func(string) (string, bool) { return "", false }
	}
	// runAll runs distinct filled scripts: Python one by one, Java and C++ as one
	// engine batch
	runAll := func(ctx context.Context, filled []string) map[string]scriptcheck.Outcome {
		res := map[string]scriptcheck.Outcome{}
		if len(filled) == 0 {
			return res
		}
		if *lang == schemas.Java || *lang == schemas.Cpp || *lang == schemas.Go {
			batch := run.RunJava
			switch *lang {
			case schemas.Cpp:
				batch = run.RunCpp
			case schemas.Go:
				batch = run.RunGo
			}
			outs, err := batch(ctx, filled)
			for i, f := range filled {
				if err != nil {
					res[f] = scriptcheck.Outcome{Status: schemas.StatusInfraError, Detail: err.Error()}
				} else {
					res[f] = outs[i]
				}
			}
			return res
		}
		for _, f := range filled {
			o, err := run.RunPython(ctx, f)
			if err != nil {
				o = scriptcheck.Outcome{Status: schemas.StatusInfraError, Detail: err.Error()}
			}
			res[f] = o
		}
		return res
	}
	problems := c.Problems
	if *sample > 0 {
		var with []schemas.Problem
		for _, p := range problems {
			if _, err := os.Stat(scriptPath(p.ID)); err == nil {
				with = append(with, p)
			}
		}
		sort.Slice(with, func(i, j int) bool { return with[i].ID < with[j].ID })
		rand.New(rand.NewSource(*seed)).Shuffle(len(with), func(i, j int) { with[i], with[j] = with[j], with[i] })
		if *sample < len(with) {
			with = with[:*sample]
		}
		problems = with
	}

	type agg struct {
		n, scriptPass, ourPass, agree int
		// under the C++ scripts' return convention (match_cpp_conversions)
		ourPassConv, agreeConv int
		causes                 map[string]int
	}
	perModel := map[string]*agg{}
	var aloneN, aloneSame int
	causes := map[string]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2**parallel)
	start := time.Now()
	if *globalOnly {
		fmt.Println("model\tproblem\tdirection\twhy\tglobal_ok\tmessage")
	} else {
		fmt.Println("model\tproblem\tdirection\tscript\tours\tours_cpp_conversions\tcause\tscript_detail")
	}
	n := 0
	for _, p := range problems {
		if *limit > 0 && n >= *limit {
			break
		}
		if *only != "" && !strings.Contains(","+*only+",", ","+p.ID+",") {
			continue
		}
		raw, err := os.ReadFile(scriptPath(p.ID))
		if err != nil {
			continue // no script for this problem
		}
		n++
		var tasks []schemas.Task
		for _, src := range schemas.Languages {
			if src != *lang {
				tasks = append(tasks, schemas.Task{ProblemID: p.ID, Corpus: p.Corpus, SrcLang: src, TgtLang: *lang})
			}
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if *globalOnly {
				tr := ev.Translate(ctx, evaluate.Item{Problem: p, Tasks: tasks})
				type checked struct {
					ran, ok  bool
					why, msg string
				}
				done := map[string]checked{}
				for _, t := range tr.Translations {
					if t.Sample != 0 || t.Status != schemas.TranslationOK {
						continue
					}
					filled, err := fill(string(raw), t.Imports, t.Code, t.Entry)
					if err != nil {
						continue
					}
					c, dup := done[filled]
					if !dup {
						c.ran, c.ok, c.why, c.msg = checkGlobal(ctx, filled, t, false)
						done[filled] = c
					}
					if ran, ok, why, msg := c.ran, c.ok, c.why, c.msg; ran {
						mu.Lock()
						fmt.Printf("%s\t%s\t%s\t%s\t%v\t%s\n", t.Translator, p.ID, t.SrcLang+"-"+t.TgtLang, why, ok, strings.ReplaceAll(msg, "\t", " "))
						mu.Unlock()
					}
				}
				return
			}
			out := ev.Evaluate(ctx, evaluate.Item{Problem: p, Tasks: tasks})
			rows := map[string][]schemas.ResultRow{}
			for _, r := range out.Results {
				k := r.Translator + "|" + r.SrcLang
				rows[k] = append(rows[k], r)
			}
			// fill every translation in, then run the distinct scripts (Java: one batch)
			type item struct {
				t      schemas.TranslationRow
				filled string
				so     scriptcheck.Outcome
			}
			var items []*item
			var todo []string
			seen := map[string]bool{}
			trOf := map[string]schemas.TranslationRow{}
			for _, t := range out.Translations {
				if t.Sample != 0 {
					continue
				}
				it := &item{t: t}
				items = append(items, it)
				if t.Status != schemas.TranslationOK {
					it.so = scriptcheck.Outcome{Status: schemas.StatusNoTranslation}
				} else if filled, err := fill(string(raw), t.Imports, t.Code, t.Entry); err != nil {
					it.so = scriptcheck.Outcome{Status: schemas.StatusCompileError, Detail: err.Error()}
				} else {
					it.filled = filled
					if !seen[filled] {
						seen[filled] = true
						todo = append(todo, filled)
						trOf[filled] = t
					}
				}
			}
			// A C++ gold that timed out in our run: run the script with the gold alone
			// first; if that times out too, so does every translation's script.
			var goldAlone *scriptcheck.Outcome
			if *lang == schemas.Cpp && goldTimedOut(out.Results) {
				if g, err := fill(string(raw), "", scriptcheck.GoldFilled, "f_filled"); err == nil {
					o := runAll(ctx, []string{g})[g]
					fmt.Fprintf(os.Stderr, "%s: the gold timed out in ours; the script with the gold alone: %+v\n", p.ID, o)
					if o.Status == schemas.StatusTimeout {
						goldAlone = &o
						todo = nil
					}
				}
			}
			scripts := runAll(ctx, todo)
			if *lang == schemas.Cpp && *globalCheck {
				// the engine compiled each script in a namespace of its own; the benchmark
				// compiles it alone at global scope, where name lookup may differ
				for _, f := range todo {
					o := scripts[f]
					nsErr := o.Status == schemas.StatusCompileError
					ran, ok, why, msg := checkGlobal(ctx, f, trOf[f], nsErr)
					switch {
					case !ran:
					case !ok && !nsErr:
						scripts[f] = scriptcheck.Outcome{Status: schemas.StatusCompileError, Detail: scriptcheck.AtGlobalScope + msg + " [" + why + "]"}
					case ok && nsErr:
						o.Detail += " " + scriptcheck.CompilesAtGlobalScope
						scripts[f] = o
					}
				}
			}
			if goldAlone != nil {
				for f := range seen {
					scripts[f] = scriptcheck.Outcome{Status: goldAlone.Status, Detail: "the script with the gold alone: " + goldAlone.Detail}
				}
			}
			for _, it := range items {
				if it.filled != "" {
					it.so = scripts[it.filled]
				}
			}
			if *lang == schemas.Cpp && *alone {
				for _, f := range todo {
					o, err := gc.RunAlone(ctx, f, sandbox.Limits{})
					if err != nil {
						fmt.Fprintf(os.Stderr, "%s: not run alone: %v\n", p.ID, err)
						continue
					}
					b := scripts[f]
					same := o.Ran == b.Ran && o.Passed == b.Passed && o.Total == b.Total && (o.Ran || o.Status == b.Status)
					mu.Lock()
					aloneN++
					if same {
						aloneSame++
					} else {
						fmt.Fprintf(os.Stderr, "%s: alone %+v, in the batch %+v\n", p.ID, o, b)
					}
					mu.Unlock()
				}
			}
			// a disagreement: does the script's verdict change when each function gets
			// its own copy of the arguments?
			verdicts := make([]scriptcheck.Verdict, len(items))
			isoOf := map[string]string{}
			var isoTodo []string
			for i, it := range items {
				verdicts[i] = scriptcheck.OurVerdict(rows[it.t.Translator+"|"+it.t.SrcLang])
				if it.so.Pass() != verdicts[i].Pass && it.so.Ran && it.filled != "" {
					if iso, ok := isolate(it.filled); ok && isoOf[it.filled] == "" {
						isoOf[it.filled] = iso
						isoTodo = append(isoTodo, iso)
					}
				}
			}
			isolated := runAll(ctx, isoTodo)
			for i, it := range items {
				t := it.t
				so, ours := it.so, verdicts[i]
				rs := rows[t.Translator+"|"+t.SrcLang]
				cause := scriptcheck.Cause(so, ours, rs)
				oursConv := ours
				if *lang == schemas.Cpp {
					cause = scriptcheck.CauseCpp(so, ours, rs)
					if goldAlone != nil && !so.Pass() && ours.Pass {
						cause = scriptcheck.CauseCppGoldTimesOut
					}
					oursConv = scriptcheck.OurVerdictCppConversions(rs)
				}
				if *lang == schemas.Java && so.Pass() && !ours.Pass && ours.Cause == string(schemas.StatusCompileError) &&
					scriptcheck.ForeignImports(t.Imports) {
					cause = scriptcheck.CauseJavaForeignImports
				}
				if iso, ok := isoOf[it.filled]; ok && so.Pass() != ours.Pass {
					if o, ok := isolated[iso]; ok && o.Status != schemas.StatusInfraError && o.Pass() != so.Pass() {
						cause = scriptcheck.CauseMutation
						if !so.Pass() {
							cause = scriptcheck.CauseMutationFails
						}
						if *lang == schemas.Cpp && !scriptcheck.CppMayMutate(it.filled) {
							cause = scriptcheck.CauseCppMemory
						}
					}
				}
				mu.Lock()
				a := perModel[t.Translator]
				if a == nil {
					a = &agg{causes: map[string]int{}}
					perModel[t.Translator] = a
				}
				a.n++
				if so.Pass() {
					a.scriptPass++
				}
				if ours.Pass {
					a.ourPass++
				}
				if oursConv.Pass {
					a.ourPassConv++
				}
				if so.Pass() == oursConv.Pass {
					a.agreeConv++
				}
				if so.Pass() == ours.Pass {
					a.agree++
				} else {
					causes[cause]++
					a.causes[cause]++
				}
				detail := ""
				if so.Pass() != ours.Pass {
					detail = strings.ReplaceAll(string(so.Status)+" "+so.Detail, "\t", " ")
				}
				fmt.Printf("%s\t%s\t%s\t%v\t%v\t%v\t%s\t%s\n", t.Translator, p.ID, t.SrcLang+"-"+t.TgtLang, so.Pass(), ours.Pass, oursConv.Pass,
					strings.ReplaceAll(cause, "\t", " "), strings.ReplaceAll(detail, "\n", " "))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	names := make([]string, 0, len(perModel))
	for m := range perModel {
		names = append(names, m)
	}
	sort.Strings(names)
	fmt.Fprintf(os.Stderr, "%d problems with a %s script, %s\n", n, *lang, time.Since(start).Round(time.Second))
	if *alone {
		fmt.Fprintf(os.Stderr, "alone at global scope: %d of %d distinct scripts have the batch's outcome\n", aloneSame, aloneN)
	}
	fmt.Fprintf(os.Stderr, "%-32s %6s %8s %8s %8s %8s %8s\n", "model", "n", "script%", "ours%", "agree%", "oursC%", "agreeC%")
	tot := agg{}
	for _, m := range names {
		a := perModel[m]
		tot.n += a.n
		tot.agree += a.agree
		tot.agreeConv += a.agreeConv
		tot.scriptPass += a.scriptPass
		tot.ourPass += a.ourPass
		tot.ourPassConv += a.ourPassConv
		fmt.Fprintf(os.Stderr, "%-32s %6d %8.1f %8.1f %8.1f %8.1f %8.1f  %s\n", m, a.n, pct(a.scriptPass, a.n), pct(a.ourPass, a.n), pct(a.agree, a.n),
			pct(a.ourPassConv, a.n), pct(a.agreeConv, a.n), short(a.causes))
	}
	fmt.Fprintf(os.Stderr, "all: %d translations, agreement %.1f%% (script pass %.1f%%, ours %.1f%%); under the C++ return convention (match_cpp_conversions; the same as match outside C++): ours %.1f%%, agreement %.1f%%\ndisagreements by cause:\n",
		tot.n, pct(tot.agree, tot.n), pct(tot.scriptPass, tot.n), pct(tot.ourPass, tot.n), pct(tot.ourPassConv, tot.n), pct(tot.agreeConv, tot.n))
	type kv struct {
		k string
		v int
	}
	var cs []kv
	for k, v := range causes {
		cs = append(cs, kv{k, v})
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].v > cs[j].v })
	for _, x := range cs {
		fmt.Fprintf(os.Stderr, "%6d %s\n", x.v, x.k)
	}
}

// short lists a model's disagreements by cause, most first: "3 cause; 1 other".
func short(causes map[string]int) string {
	var ks []string
	for k := range causes {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool {
		if causes[ks[i]] != causes[ks[j]] {
			return causes[ks[i]] > causes[ks[j]]
		}
		return ks[i] < ks[j]
	})
	var parts []string
	for _, k := range ks {
		parts = append(parts, fmt.Sprintf("%d %s", causes[k], k))
	}
	return strings.Join(parts, "; ")
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "scriptcheck:", err)
	os.Exit(1)
}

// goldTimedOut tells whether the target gold timed out on a test (sample 0).
func goldTimedOut(rows []schemas.ResultRow) bool {
	for _, r := range rows {
		if r.Oracle == "target_gold" && r.Sample == 0 && r.OracleStatus == schemas.StatusTimeout {
			return true
		}
	}
	return false
}
