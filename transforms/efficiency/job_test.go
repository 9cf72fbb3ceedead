package efficiency

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"transmute/internal/testenv"
	"transmute/schemas"
)

// A problem's suites: one per target language with programs, the ground truth
// and the passing translations, each distinct program once (two translators with
// the same code share a profile), in an order that depends on the programs'
// content, not on the order of the tasks.
func TestSuites(t *testing.T) {
	tr := func(name, code string) Translation { return Translation{Translator: name, Code: code, Entry: "f"} }
	p := Problem{ProblemID: "P", Returns: "int",
		Golds:  []schemas.Function{{Lang: "java", Name: "f", Code: "gold java"}, {Lang: "cpp", Name: "f", Code: "gold cpp"}},
		Suites: []StressSuite{{Lang: "cpp", Tests: make([]schemas.Test, 3)}, {Lang: "java", Tests: make([]schemas.Test, 2)}},
		Tasks: []Task{
			{Task: schemas.Task{ProblemID: "P", SrcLang: "python", TgtLang: "java"},
				Translations: []Translation{tr("a", "x"), tr("b", "y"), tr("c", "x")}},
			{Task: schemas.Task{ProblemID: "P", SrcLang: "cpp", TgtLang: "java"}, Translations: []Translation{tr("a", "z")}},
			{Task: schemas.Task{ProblemID: "P", SrcLang: "java", TgtLang: "cpp"}, Translations: []Translation{tr("a", "w")}},
			{Task: schemas.Task{ProblemID: "P", SrcLang: "java", TgtLang: "python"}, NoSuite: true},
		}}
	codes := func(s Suite) string {
		var cs []string
		for _, p := range s.Programs {
			cs = append(cs, p.Candidate.Code)
		}
		return strings.Join(cs, ",")
	}
	suites := Suites(p)
	if len(suites) != 2 {
		t.Fatalf("%d suites, want java and cpp", len(suites))
	}
	by := map[string]Suite{}
	for _, s := range suites {
		by[s.Lang] = s
	}
	java, cpp := by["java"], by["cpp"]
	if len(java.Programs) != 4 || len(java.Tests) != 2 || java.Returns != "int" || java.ProblemID != "P" {
		t.Errorf("java suite: %d programs (%s), %d tests", len(java.Programs), codes(java), len(java.Tests))
	}
	if len(cpp.Programs) != 2 || len(cpp.Tests) != 3 {
		t.Errorf("cpp suite: %d programs (%s), %d tests", len(cpp.Programs), codes(cpp), len(cpp.Tests))
	}
	// The count mode's split: one suite per program, each with its suite's tests,
	// every program once.
	split := SplitPrograms(suites)
	if len(split) != 6 {
		t.Fatalf("%d suites after the split, want 6 (4 java, 2 cpp)", len(split))
	}
	seen := map[string]bool{}
	for _, s := range split {
		if len(s.Programs) != 1 || len(s.Tests) != len(by[s.Lang].Tests) || seen[s.Programs[0].Key] {
			t.Errorf("split suite %s: %d programs, %d tests", s.Lang, len(s.Programs), len(s.Tests))
		}
		seen[s.Programs[0].Key] = true
	}
	// The same programs, tasks and translations reversed: the same order.
	q := p
	q.Tasks = nil
	for i := len(p.Tasks) - 1; i >= 0; i-- {
		task := p.Tasks[i]
		task.Translations = nil
		for j := len(p.Tasks[i].Translations) - 1; j >= 0; j-- {
			task.Translations = append(task.Translations, p.Tasks[i].Translations[j])
		}
		q.Tasks = append(q.Tasks, task)
	}
	for _, s := range Suites(q) {
		if codes(s) != codes(by[s.Lang]) {
			t.Errorf("%s: order %s, was %s", s.Lang, codes(s), codes(by[s.Lang]))
		}
	}
}

// Settle matches each task's programs to their profiles by content: the ground
// truth's outputs decide which translations are correct, a failed profile is an
// infra error row with an error row beside it, and a task without a suite only
// counts for Pass.
func TestSettle(t *testing.T) {
	task := schemas.Task{ProblemID: "P", Corpus: "trace", SrcLang: "python", TgtLang: "java"}
	p := Problem{ProblemID: "P", Returns: "int", Golds: []schemas.Function{{Lang: "java", Name: "f", Code: "g"}},
		Suites: []StressSuite{{Lang: "java", Tests: make([]schemas.Test, 2)}},
		Tasks: []Task{{Task: task, Translators: []string{"a", "b", "c"}, PassDefault: []bool{true, true, true},
			Translations: []Translation{{Translator: "a", Code: "x", Entry: "f"}, {Translator: "b", Code: "y", Entry: "f"},
				{Translator: "c", Code: "z", Entry: "f"}}},
			{Task: schemas.Task{ProblemID: "P", SrcLang: "cpp", TgtLang: "python"}, NoSuite: true}}}
	suites := Suites(p)
	if len(suites) != 1 {
		t.Fatalf("%d suites", len(suites))
	}
	sp := SuiteProfile{ProblemID: "P", Lang: "java"}
	for _, prog := range suites[0].Programs {
		m := Measured{Key: prog.Key, Core: 1}
		m.Report.Status = schemas.StatusOK
		m.Report.CPUTime = []time.Duration{time.Millisecond}
		m.Report.Outputs = []string{"1", "2"}
		switch prog.Candidate.Code {
		case "y":
			m.Report.Outputs = []string{"1", "3"}
		case "z":
			m.Err = "harness broke"
		}
		sp.Measured = append(sp.Measured, m)
	}
	outs := Settle("r", p, []SuiteProfile{sp}, DefaultScoreOptions)
	if len(outs) != 2 || !outs[1].Outcome.NoSuite || len(outs[1].Outcome.Profiles) != 0 {
		t.Fatalf("outputs %+v", outs)
	}
	got := map[string]schemas.ProfileRow{}
	for _, r := range outs[0].Outcome.Profiles {
		got[r.Translator] = r
	}
	if g := got[""]; g.Role != schemas.RoleGroundTruth || !g.Correct || g.Tests != 2 || g.Core != 1 {
		t.Errorf("ground truth %+v", g)
	}
	if !got["a"].Correct || got["b"].Correct || !strings.Contains(got["b"].Detail, "differ") {
		t.Errorf("a %+v\nb %+v", got["a"], got["b"])
	}
	if c := got["c"]; c.Status != schemas.StatusInfraError || c.Correct || c.Detail != "harness broke" {
		t.Errorf("c %+v", c)
	}
	if len(outs[0].Errors) != 1 || outs[0].Errors[0].Reason != "profiling failed" {
		t.Errorf("errors %+v", outs[0].Errors)
	}
}

// The core lease helper process: it leases core 7 and holds it until its stdin
// closes.
func TestCoreLeaseHelper(t *testing.T) {
	if os.Getenv("EFFICIENCY_CORE_HELPER") == "" {
		t.Skip("helper process of TestCoreLeases")
	}
	l, err := AcquireCore(context.Background(), []int{7})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("leased", l.Core)
	bufio.NewReader(os.Stdin).ReadString('\n')
	os.Exit(0)
}

// A core is leased to one holder at a time, within a process and across
// processes (a second worker on the machine), and comes back when its holder
// releases it or dies.
func TestCoreLeases(t *testing.T) {
	t.Setenv(CoreLockDirEnv, t.TempDir())
	ctx := context.Background()
	a, err := AcquireCore(ctx, []int{5, 6})
	if err != nil {
		t.Fatal(err)
	}
	b, err := AcquireCore(ctx, []int{5, 6})
	if err != nil {
		t.Fatal(err)
	}
	if a.Core == b.Core {
		t.Fatalf("both leases on core %d", a.Core)
	}
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if _, err := AcquireCore(short, []int{5, 6}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a third lease of two cores: %v, want to wait", err)
	}
	a.Release()
	c, err := AcquireCore(ctx, []int{5, 6})
	if err != nil || c.Core != a.Core {
		t.Fatalf("after a release: %v, %v", c, err)
	}
	c.Release()
	b.Release()

	// Another process holds core 7.
	cmd := exec.Command(os.Args[0], "-test.run=^TestCoreLeaseHelper$")
	cmd.Env = append(os.Environ(), "EFFICIENCY_CORE_HELPER=1")
	stdin, stdout := testenv.StartPiped(t, cmd)
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if strings.TrimSpace(line) != "leased 7" {
		t.Fatalf("helper: %q", line)
	}
	short2, cancel2 := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel2()
	if _, err := AcquireCore(short2, []int{7}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("core 7, leased by another process: %v, want to wait", err)
	}
	stdin.Close()
	cmd.Wait()
	d, err := AcquireCore(ctx, []int{7})
	if err != nil || d.Core != 7 {
		t.Fatalf("after the other process ended: %v, %v", d, err)
	}
	d.Release()
}

// The noise schedule is the core's, in the lock file: due at the first lease of a
// run, not again within every, due again for another run.
func TestCoreNoiseDue(t *testing.T) {
	t.Setenv(CoreLockDirEnv, t.TempDir())
	l, err := AcquireCore(context.Background(), []int{3})
	if err != nil {
		t.Fatal(err)
	}
	if due, first := l.NoiseDue("r1", time.Hour); !due || !first {
		t.Errorf("first lease of r1: due %v first %v", due, first)
	}
	l.Release()
	l, _ = AcquireCore(context.Background(), []int{3})
	if due, _ := l.NoiseDue("r1", time.Hour); due {
		t.Error("due again within the hour")
	}
	if due, first := l.NoiseDue("r1", time.Nanosecond); !due || first {
		t.Errorf("every 1ns: due %v first %v", due, first)
	}
	if due, first := l.NoiseDue("r2", time.Hour); !due || !first {
		t.Errorf("another run: due %v first %v", due, first)
	}
	if due, _ := l.NoiseDue("r2", -1); due {
		t.Error("due with every < 0")
	}
	l.Release()
}
