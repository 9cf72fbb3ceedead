package properties

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"transmute/internal/testenv"
	"transmute/io/corpus"
	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/metamorph"
	"transmute/transforms/score"
)

// TestSharedCorpusRun runs the properties job's domain code (no Beam) on the shared
// TransCoder-test sample with the builtin translators (Java->Python, Java->C++) and
// the identity translator in all three languages, and prints Table 3, the Table 1
// layout, the transformations' outcomes and the share of time spent in inspections
// and property checks. The identity translator must violate nothing, and at least
// 99.5% of the semantics-preserving variants must keep the outputs. Opt-in (it
// takes minutes): PROPERTIES_SHARED=1; TRANSMUTE_CORPORA points at the corpora from
// a worktree not beside them; PROPERTIES_LIMIT takes the first N problems.
func TestSharedCorpusRun(t *testing.T) {
	if os.Getenv("PROPERTIES_SHARED") == "" {
		t.Skip("set PROPERTIES_SHARED=1 to run the shared-corpus properties run")
	}
	root := os.Getenv("TRANSMUTE_CORPORA")
	if root == "" {
		root = testenv.SharedCorpora(t, "transcoder-test")
	}
	c, err := corpus.Load(context.Background(), "transcoder:"+filepath.Join(root, "transcoder-test"))
	if err != nil {
		t.Fatal(err)
	}
	probs := c.Problems
	if n, _ := strconv.Atoi(os.Getenv("PROPERTIES_LIMIT")); n > 0 && n < len(probs) {
		probs = probs[:n]
	}
	r := openRunner(t, "builtin:", "identity:")
	r.Limits.CPUTime, r.Limits.WallTime = time.Second, 2*time.Second
	dirs := [][2]string{{"java", "python"}, {"java", "cpp"}, {"java", "java"}, {"python", "python"}, {"cpp", "cpp"}}
	start := time.Now()
	var mu sync.Mutex
	var all []Output
	work := make(chan schemas.Problem)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				var tasks []schemas.Task
				for _, d := range dirs {
					tasks = append(tasks, schemas.Task{ProblemID: p.ID, Corpus: p.Corpus, SrcLang: d[0], TgtLang: d[1]})
				}
				o := r.Evaluate(context.Background(), evaluate.Item{Problem: p, Tasks: tasks}, c.Problems)
				mu.Lock()
				all = append(all, o)
				if len(all)%20 == 0 {
					fmt.Fprintf(os.Stderr, "%d/%d problems in %s\n", len(all), len(probs), time.Since(start).Round(time.Second))
				}
				mu.Unlock()
			}
		}()
	}
	for _, p := range probs {
		work <- p
	}
	close(work)
	wg.Wait()
	elapsed := time.Since(start)

	byKey := map[score.Key][]schemas.PropertyResultRow{}
	var checkNs int64
	type tk struct{ lang, t string }
	outcomes := map[tk]map[string]int{}
	problems := map[tk]map[string]bool{}
	errs := map[string]int{}
	for _, o := range all {
		checkNs += o.CheckNanos
		for _, res := range o.Results {
			k := score.Key{Translator: res.Translator, Corpus: res.Corpus, SrcLang: res.SrcLang, TgtLang: res.TgtLang}
			byKey[k] = append(byKey[k], res)
		}
		for _, tr := range o.Transformations {
			k := tk{tr.Lang, tr.Transformation}
			if outcomes[k] == nil {
				outcomes[k], problems[k] = map[string]int{}, map[string]bool{}
			}
			outcomes[k][tr.Outcome]++
			if tr.VariantID != "" {
				problems[k][tr.ProblemID] = true
			}
		}
		for _, e := range o.Errors {
			errs[e.Reason]++
			if e.Reason == ReasonChangedOutputs {
				t.Logf("%s %s: %s", e.ProblemID, e.Lang, e.Detail)
			}
		}
	}
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	cpu := time.Duration(self.Utime.Nano() + self.Stime.Nano() + kids.Utime.Nano() + kids.Stime.Nano())
	fmt.Printf("%d problems in %s; CPU %s (this process and its children); inspections+checks %.1fs = %.2f%% of CPU\n",
		len(all), elapsed.Round(time.Second), cpu.Round(time.Second), float64(checkNs)/1e9, 100*float64(checkNs)/float64(cpu))
	var keys []score.Key
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
	fmt.Println("Table 3: translator direction TV VP VSP instances")
	for _, k := range keys {
		ms := map[schemas.Metric]schemas.ScoreRow{}
		for _, s := range Score("", k, byKey[k]) {
			ms[s.Metric] = s
		}
		fmt.Printf("  %-9s %s->%-7s TV %5.0f VP %2.0f VSP %2.0f instances %5.0f\n", k.Translator, k.SrcLang, k.TgtLang,
			ms[MetricTV].Value, ms[MetricVP].Value, ms[MetricVSP].Value, ms[MetricInstances].Value)
		if k.Translator == "identity" && ms[MetricTV].Value != 0 {
			for _, res := range byKey[k] {
				if res.Violated {
					t.Errorf("identity %s %s violates %s (%s, test %d)", res.ProblemID, res.SrcLang, res.Property, res.Variants, res.WitnessTest)
				}
			}
		}
	}
	for _, k := range keys {
		ms := map[schemas.Metric]schemas.ScoreRow{}
		for _, s := range Score("", k, byKey[k]) {
			ms[s.Metric] = s
		}
		fmt.Printf("Table 1 layout %s %s->%s: %% violated (violations/instances)\n", k.Translator, k.SrcLang, k.TgtLang)
		for _, tr := range append([]metamorph.Transformation{""}, metamorph.Transformations...) {
			line := fmt.Sprintf("  %-5s", map[bool]string{true: "-", false: tr.Abbrev()}[tr == ""])
			byIn := map[Inspection]Property{}
			for _, p := range ByTransformation(tr) {
				byIn[p.Inspection] = p
			}
			for _, in := range Inspections {
				p, ok := byIn[in]
				if !ok {
					line += fmt.Sprintf(" %14s", "-")
					continue
				}
				v, n := ms[PropertyMetric(MetricPropViolations, p.Name)].Value, ms[PropertyMetric(MetricPropInstances, p.Name)].Value
				line += fmt.Sprintf(" %14s", fmt.Sprintf("%.1f(%.0f/%.0f)", 100*v/max(n, 1), v, n))
			}
			fmt.Println(line)
		}
	}
	fmt.Println("Transformations: lang t problems variants valid changed_outputs no_compile absent failed")
	var tks []tk
	for k := range outcomes {
		tks = append(tks, k)
	}
	sort.Slice(tks, func(i, j int) bool { return tks[i].lang+tks[i].t < tks[j].lang+tks[j].t })
	kept, checked := 0, 0
	for _, k := range tks {
		o := outcomes[k]
		fmt.Printf("  %-6s %-15s %4d %4d %4d %3d %3d %4d %2d\n", k.lang, k.t, len(problems[k]),
			o[OutcomeValid]+o[OutcomeChangedOutputs]+o[OutcomeNoCompile], o[OutcomeValid], o[OutcomeChangedOutputs],
			o[OutcomeNoCompile], o[OutcomeAbsent], o[OutcomeFailed])
		if metamorph.Transformation(k.t).PreservesSemantics() {
			kept += o[OutcomeValid]
			checked += o[OutcomeValid] + o[OutcomeChangedOutputs]
		}
	}
	fmt.Printf("semantics-preserving variants keeping outputs: %d/%d; error rows by reason: %v\n", kept, checked, errs)
	if checked > 0 && float64(kept) < 0.995*float64(checked) {
		t.Errorf("only %d of %d semantics-preserving variants kept their outputs", kept, checked)
	}
}
