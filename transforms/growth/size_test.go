package growth

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"transmute/internal/testenv"
	"transmute/io/corpus"
	"transmute/io/stress"
	"transmute/schemas"
	"transmute/transforms/values"
)

// prob builds a problem from parameter specs ("a:int[]") and argument lists.
func prob(id string, params []string, ret string, tests ...string) schemas.Problem {
	p := schemas.Problem{ID: id, Returns: ret}
	for _, s := range params {
		name, typ, _ := strings.Cut(s, ":")
		p.Params = append(p.Params, schemas.Param{Name: name, Type: typ})
	}
	for i, a := range tests {
		p.Tests = append(p.Tests, schemas.Test{Index: int32(i), Args: a})
	}
	return p
}

func testsOf(args ...string) []schemas.Test {
	var out []schemas.Test
	for i, a := range args {
		out = append(out, schemas.Test{Index: int32(1000 + i), Args: a})
	}
	return out
}

// arr is a JSON array of n integers from a seeded draw in [lo, hi].
func arr(seed uint64, n, lo, hi int) string {
	r := rand.New(rand.NewPCG(seed, 7))
	s := make([]string, n)
	for i := range s {
		s[i] = fmt.Sprint(lo + r.IntN(hi-lo+1))
	}
	return "[" + strings.Join(s, ",") + "]"
}

func decode(t *testing.T, raw string) []any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(raw))
	d.UseNumber()
	var v []any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return v
}

func num(t *testing.T, v any) int64 {
	t.Helper()
	n, err := v.(json.Number).Int64()
	if err != nil {
		t.Fatalf("%v: %v", v, err)
	}
	return n
}

// An array with its length beside it: the array is the size, the length follows
// it, the elements stay within the tests' range, and the inputs are the same for
// the same seed and differ for another.
func TestDetectArrayAndInputs(t *testing.T) {
	p := prob("SUM_ARR", []string{"a:int[]", "n:int", "k:int"}, "int",
		"[[3,1,2],3,1]", "[[5,6],2,0]", "[[9,8,7,6],4,2]", "[[1],1,1]")
	st := testsOf(fmt.Sprintf("[%s,200,3]", arr(1, 200, -50, 50)), fmt.Sprintf("[%s,180,1]", arr(2, 180, -50, 50)),
		fmt.Sprintf("[%s,220,2]", arr(3, 220, -50, 50)))
	pl, err := Detect(p, st)
	if err != nil {
		t.Fatal(err)
	}
	if pl.Kind != KindLength || pl.ParamList() != "0" || pl.Base != 200 {
		t.Fatalf("plan %s (%s) base %d, want length (0) base 200", pl.Kind, pl.ParamList(), pl.Base)
	}
	types := []values.Type{}
	for _, prm := range p.Params {
		ty, _ := values.ParseType(prm.Type)
		types = append(types, ty)
	}
	in, err := pl.Inputs(7, 1000, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(in) != 3 {
		t.Fatalf("%d inputs", len(in))
	}
	for _, tc := range in {
		if c, err := values.CanonicalArgs(types, tc.Args); err != nil || c != tc.Args {
			t.Errorf("not canonical for %v: %v", types, err)
		}
		args := decode(t, tc.Args)
		a := args[0].([]any)
		if len(a) != 1000 || num(t, args[1]) != 1000 {
			t.Errorf("length %d, n %v: want 1000 and 1000", len(a), args[1])
		}
		if k := num(t, args[2]); k < 0 || k > 3 {
			t.Errorf("k = %d: not from a stress test", k)
		}
		for _, e := range a {
			if x := num(t, e); x < -50 || x > 50 {
				t.Fatalf("element %d outside the tests' range [-50, 50]", x)
			}
		}
	}
	again, _ := pl.Inputs(7, 1000, 3)
	other, _ := pl.Inputs(8, 1000, 3)
	for i := range in {
		if again[i].Args != in[i].Args {
			t.Errorf("input %d differs for the same seed", i)
		}
		if other[i].Args == in[i].Args {
			t.Errorf("input %d is the same for another seed", i)
		}
	}
	if in[0].Args == in[1].Args {
		t.Error("the inputs of one size are all alike")
	}
	if _, err := pl.Inputs(7, MaxLength+1, 1); err == nil {
		t.Error("a length beyond MaxLength was accepted")
	}
}

// Two strings scale together in their stress proportion, from the tests'
// alphabet; a sorted array stays sorted; a square matrix stays square with its
// size beside it.
func TestDetectStringsSortedMatrix(t *testing.T) {
	p := prob("LCS", []string{"x:string", "y:string"}, "int", `["ab","ba"]`, `["aab","b"]`)
	st := testsOf(fmt.Sprintf(`[%q,%q]`, strings.Repeat("ab", 50), strings.Repeat("ba", 25)),
		fmt.Sprintf(`[%q,%q]`, strings.Repeat("ba", 50), strings.Repeat("a", 50)))
	pl, err := Detect(p, st)
	if err != nil {
		t.Fatal(err)
	}
	if pl.Kind != KindLength || pl.ParamList() != "0,1" || pl.Ratio[1] != 0.5 {
		t.Fatalf("plan %s (%s) ratios %v", pl.Kind, pl.ParamList(), pl.Ratio)
	}
	in, _ := pl.Inputs(1, 400, 2)
	for _, tc := range in {
		args := decode(t, tc.Args)
		x, y := args[0].(string), args[1].(string)
		if len(x) != 400 || len(y) != 200 || strings.Trim(x+y, "ab") != "" {
			t.Errorf("lengths %d, %d (want 400, 200), alphabet of %q", len(x), len(y), x+y)
		}
	}

	p = prob("SEARCH", []string{"a:int[]", "x:int"}, "int", "[[1,2,3],2]", "[[0,4],4]")
	pl, err = Detect(p, testsOf(fmt.Sprintf("[%s,5]", sortedArr(300)), fmt.Sprintf("[%s,7]", sortedArr(250))))
	if err != nil {
		t.Fatal(err)
	}
	in, _ = pl.Inputs(1, 64, 2)
	for _, tc := range in {
		a := decode(t, tc.Args)[0].([]any)
		if !sort.SliceIsSorted(a, func(i, j int) bool { return num(t, a[i]) < num(t, a[j]) }) || len(a) != 64 {
			t.Errorf("not a sorted array of 64: %v", a)
		}
	}

	p = prob("MAT", []string{"m:int[][]", "n:int"}, "int", "[[[1,2],[3,4]],2]", "[[[1]],1]")
	pl, err = Detect(p, testsOf("[[[1,2,3],[4,5,6],[7,8,9]],3]", "[[[1,2,3,4],[1,2,3,4],[1,2,3,4],[0,0,0,0]],4]"))
	if err != nil {
		t.Fatal(err)
	}
	in, _ = pl.Inputs(1, 10, 1)
	args := decode(t, in[0].Args)
	rows := args[0].([]any)
	if len(rows) != 10 || len(rows[9].([]any)) != 10 || num(t, args[1]) != 10 {
		t.Errorf("want a 10x10 matrix and 10: %s", in[0].Args)
	}
}

func sortedArr(n int) string {
	s := make([]string, n)
	for i := range s {
		s[i] = fmt.Sprint(i * 3)
	}
	return "[" + strings.Join(s, ",") + "]"
}

// Integers: the one the stress suite makes large is the size, a flag stays as a
// stress test has it; a problem whose integers stay small has no size.
func TestDetectIntegers(t *testing.T) {
	p := prob("SUM_PAIRS", []string{"n:int", "flag:int"}, "long", "[3,0]", "[10,1]", "[17,0]", "[5,1]")
	pl, err := Detect(p, testsOf("[300,0]", "[350,1]", "[360,0]"))
	if err != nil {
		t.Fatal(err)
	}
	if pl.Kind != KindValue || pl.ParamList() != "0" || pl.Base != 350 {
		t.Fatalf("plan %s (%s) base %d, want value (0) base 350", pl.Kind, pl.ParamList(), pl.Base)
	}
	in, _ := pl.Inputs(3, 5000, 3)
	for _, tc := range in {
		args := decode(t, tc.Args)
		if num(t, args[0]) != 5000 || (num(t, args[1]) != 0 && num(t, args[1]) != 1) {
			t.Errorf("want n = 5000 and a flag of a stress test: %s", tc.Args)
		}
	}
	// Beyond int's range: out of the ladder.
	if _, err := pl.Inputs(3, 1<<32, 1); err == nil {
		t.Error("an int beyond 2^31 was accepted")
	}
	if _, err := Detect(prob("TINY", []string{"a:int", "b:int"}, "int", "[1,2]", "[3,4]"), testsOf("[2,3]", "[4,1]")); err == nil {
		t.Error("small integers were taken for a size")
	}
	if _, err := Detect(prob("FLAG", []string{"b:bool", "c:char"}, "int", "[true,\"a\"]"), testsOf("[false,\"b\"]")); err == nil {
		t.Error("a bool and a char were taken for a size")
	}
}

// On TRACE's stress suites: every problem with a suite gets a plan or a reason,
// an array or string problem is sized by length, and the inputs of every plan
// are canonical and deterministic.
func TestDetectTrace(t *testing.T) {
	root := testenv.SharedCorpora(t, "trace/tasks.jsonl")
	ctx := context.Background()
	c, err := corpus.Load(ctx, "trace:"+filepath.Join(root, "trace"))
	if err != nil {
		t.Fatal(err)
	}
	probs := map[string]schemas.Problem{}
	for _, p := range c.Problems {
		probs[p.ID] = p
	}
	suites, _ := stress.LoadAll(ctx, filepath.Join(root, "trace", "Trace_Tests"), probs)
	kinds := map[string]int{}
	for id, byLang := range suites {
		p := probs[id]
		for lang, st := range byLang {
			pl, err := Detect(p, st)
			if err != nil {
				kinds["none"]++
				continue
			}
			kinds[pl.Kind]++
			hasArray := false
			for _, prm := range p.Params {
				ty, _ := values.ParseType(prm.Type)
				hasArray = hasArray || ty.Dims > 0
			}
			if hasArray && pl.Kind != KindLength {
				t.Logf("%s (%s): arrays of fixed length; sized by %s (%s)", id, lang, pl.Kind, pl.ParamList())
			}
			n := pl.Base // within the types by construction
			a, err1 := pl.Inputs(1, n, 2)
			b, err2 := pl.Inputs(1, n, 2)
			if err1 != nil || err2 != nil || a[0].Args != b[0].Args || a[1].Args != b[1].Args {
				t.Errorf("%s (%s): inputs at %d: %v %v or not deterministic", id, lang, n, err1, err2)
			}
		}
	}
	t.Logf("TRACE suites by kind of size: %v", kinds)
	if kinds[KindLength] == 0 || kinds[KindValue] == 0 {
		t.Errorf("kinds %v: want both kinds among TRACE's suites", kinds)
	}
}
