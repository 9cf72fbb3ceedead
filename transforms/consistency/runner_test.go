package consistency

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/execute"
	"transmute/transforms/execute/python"
	"transmute/transforms/runner"
	"transmute/transforms/sandbox"
	"transmute/transforms/translate"
	"transmute/transforms/translate/identity"
	"transmute/transforms/values"
)

func TestMain(m *testing.M) { sandbox.Main(m) }

// rewriter is a translator under test (Python to Python) that returns its input
// with one text rewritten when a trigger occurs in it: the inconsistent translators
// the repair tests need, whose bugs are known.
type rewriter struct {
	trigger, from, to string
}

func (w rewriter) Name() string { return "rewriter" }
func (w rewriter) Translate(_ context.Context, r translate.Request) ([]translate.Translation, error) {
	code := r.Code
	if strings.Contains(code, w.trigger) {
		code = strings.Replace(code, w.from, w.to, 1)
	}
	return []translate.Translation{{Status: schemas.TranslationOK, Code: code, Imports: r.Imports, Entry: r.Entry}}, nil
}
func (rewriter) TranslatesVariants() bool { return true }
func (rewriter) Directions() [][2]string  { return [][2]string{{"python", "python"}} }
func (rewriter) Close() error             { return nil }

const sumPy = "def f ( arr , n ) :\n    res = 0\n    for i in range ( n ) :\n        res += arr [ i ]\n    return res"

func pyProblem() evaluate.Item {
	p := schemas.Problem{ID: "SUM", Corpus: "test", Returns: "int",
		Params:    []schemas.Param{{Name: "arr", Type: "int[]"}, {Name: "n", Type: "int"}},
		Functions: []schemas.Function{{Lang: "python", Name: "f", Code: sumPy}},
		Tests: []schemas.Test{{Index: 0, Args: "[[1,2,3],3]"}, {Index: 1, Args: "[[5,-5,4],2]"},
			{Index: 2, Args: "[[7],1]"}}}
	return evaluate.Item{Problem: p, Tasks: []schemas.Task{{ProblemID: p.ID, SrcLang: "python", TgtLang: "python"}}}
}

func pyRunner(t *testing.T, trs ...translate.Translator) *Runner {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	eng, err := python.New(execute.Options{WorkDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	return &Runner{Tools: runner.Tools{Run: "t", Translators: trs, Engines: map[string]execute.Engine{"python": eng},
		Tolerance: values.DefaultTolerance}, Table: handTable(), Options: Options{MaxIdentifiers: 4, MaxLiterals: 1, PerName: 1}}
}

func TestIdentityIsConsistent(t *testing.T) {
	out := pyRunner(t, identity.Translator{}).Evaluate(context.Background(), pyProblem())
	if len(out.Errors) != 0 {
		t.Fatalf("errors %+v", out.Errors)
	}
	// arr->nums, n->size, i->j, res->ans, and 0->1.
	if len(out.Variants) != 5 || len(out.Results) != 5 {
		t.Fatalf("%d variants, %d results", len(out.Variants), len(out.Results))
	}
	for _, r := range out.Results {
		if !r.ExecConsistent || r.LCS != 1 || r.ED != 1 || r.TFIDF != 1 || r.BLEU != 1 {
			t.Errorf("identity pair %s %s->%s: %+v", r.Kind, r.Old, r.New, r)
		}
		if r.Kind == string(KindLiteral) != r.SourcesDiffer {
			t.Errorf("%s->%s: sources differ %v", r.Old, r.New, r.SourcesDiffer)
		}
	}
	if len(out.Repairs) != 0 {
		t.Fatalf("repairs of a consistent translation: %+v", out.Repairs)
	}
}

// A translator that has the original memorised with a bug (it drops the last
// element) and translates every variant right: each pair is inconsistent, the
// variants' translations agree with each other, and the best of them, mapped
// back, fixes the original's translation.
func TestRepairFixesMemorisedBug(t *testing.T) {
	bug := rewriter{trigger: sumPy, from: "range ( n )", to: "range ( n - 1 )"}
	out := pyRunner(t, bug).Evaluate(context.Background(), pyProblem())
	bad := 0
	for _, r := range out.Results {
		if !r.ExecConsistent {
			bad++
		}
	}
	if bad != 5 {
		t.Fatalf("%d inconsistent pairs, want 5: %+v", bad, out.Results)
	}
	if len(out.Repairs) != len(Metrics) {
		t.Fatalf("%d repairs", len(out.Repairs))
	}
	for _, rp := range out.Repairs {
		if !rp.Accepted || rp.ChosenRank != 0 || rp.PassAfter != 1 || rp.PassBefore >= 1 {
			t.Errorf("%s: %+v", rp.RankMetric, rp)
		}
		if rp.After != sumPy {
			t.Errorf("%s: repaired to\n%s", rp.RankMetric, rp.After)
		}
	}
}

// A translator that breaks only code naming a variable size: the original's
// translation is right, the n->size pair is inconsistent, and the repair must
// leave the original's translation alone (it ranks first among agreeing ones).
func TestRepairRefusesCorrectOriginal(t *testing.T) {
	bug := rewriter{trigger: "size", from: "return", to: "return 1 +"}
	out := pyRunner(t, bug).Evaluate(context.Background(), pyProblem())
	var bad []string
	for _, r := range out.Results {
		if !r.ExecConsistent {
			bad = append(bad, r.Old+"->"+r.New)
		}
	}
	if strings.Join(bad, ",") != "n->size" {
		t.Fatalf("inconsistent pairs %v", bad)
	}
	if len(out.Repairs) == 0 {
		t.Fatal("no repair tried")
	}
	for _, rp := range out.Repairs {
		if rp.Accepted || rp.After != rp.Before || rp.PassAfter != 1 || rp.Reason != ReasonOriginalBest {
			t.Errorf("%s: %+v", rp.RankMetric, rp)
		}
	}
}

func TestMapBack(t *testing.T) {
	v := Variant{Kind: KindIdentifier, Old: "arr", New: "nums"}
	got, err := MapBack("python", "def f ( nums , n ) :\n    return nums [ 0 ] # nums", v)
	if err != nil || got != "def f ( arr , n ) :\n    return arr [ 0 ] # nums" {
		t.Fatalf("%q %v", got, err)
	}
	if _, err := MapBack("python", "def f ( nums , arr ) :\n    return nums", v); err != ErrNameTaken {
		t.Fatalf("taken: %v", err)
	}
	if _, err := MapBack("java", "int f ( int [ ] a ) { return a [ 0 ] ; }", v); err != ErrNameAbsent {
		t.Fatalf("absent: %v", err)
	}
	lit := Variant{Kind: KindLiteral, Old: "10L", New: "11L"}
	if got, err := MapBack("cpp", "long f ( ) { return 11LL + 2 ; }", lit); err != nil || got != "long f ( ) { return 10LL + 2 ; }" {
		t.Fatalf("literal %q %v", got, err)
	}
	if _, err := MapBack("cpp", "long f ( ) { return 11 + 11 ; }", lit); err != ErrLiteralAmbig {
		t.Fatalf("ambiguous literal: %v", err)
	}
}

func TestRank(t *testing.T) {
	// Three translations agree, the first (the original's) is the outlier.
	ts := [][]string{toks("a b x d"), toks("a b c d"), toks("a b c d"), toks("a b c d e")}
	order, mean := Rank(MetricLCS, ts, nil)
	if order[0] != 1 || order[len(order)-1] != 0 {
		t.Fatalf("order %v mean %v", order, mean)
	}
	// A tie keeps the original first.
	order, _ = Rank(MetricLCS, [][]string{toks("a b"), toks("a b")}, nil)
	if order[0] != 0 {
		t.Fatalf("tie: %v", order)
	}
}
