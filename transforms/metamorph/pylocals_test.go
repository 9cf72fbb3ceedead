package metamorph

import (
	"strings"
	"testing"

	"transmute/schemas"
)

// TestMergePythonLocalShadowsBuiltin: the second function binds max locally and the
// first calls the builtin max. Merged into one Python function unrenamed, the first
// body would raise UnboundLocalError (the TransCoder-test merge of
// LENGTH_LONGEST_SUB_STRING_CAN_MAKE_REMOVED did); the local is renamed apart and the
// merge keeps both functions' outputs.
func TestMergePythonLocalShadowsBuiltin(t *testing.T) {
	f1 := Function{Lang: "python", Entry: "f", Code: "def f(a, b):\n    return max(a, b) + len([a])",
		Params: []schemas.Param{{Name: "a", Type: "int"}, {Name: "b", Type: "int"}}, Returns: "int",
		Tests: []schemas.Test{{Index: 0, Args: "[3,9]"}, {Index: 1, Args: "[7,2]"}}}
	f2 := Function{Lang: "python", Entry: "g", Code: "def g(x):\n    max = x * 2\n    for len in range(2):\n        max += len\n    return max",
		Params: []schemas.Param{{Name: "x", Type: "int"}}, Returns: "int",
		Tests: []schemas.Test{{Index: 0, Args: "[5]"}, {Index: 1, Args: "[-1]"}}}
	v, err := MergeFunctions(f1, f2, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"max_2 = x2 * 2", "for len_2 in range(2):", "max_2 += len_2", "return max_2", "return max(a1, b1) + len([a1])"} {
		if !strings.Contains(v.Fn.Code, want) {
			t.Errorf("merged code lacks %q:\n%s", want, v.Fn.Code)
		}
	}
	if !strings.Contains(v.Diff, "-def f(a, b):") {
		t.Errorf("the diff is not against the source as given:\n%s", v.Diff)
	}
	// The same pair without a clash is left alone.
	f3 := f2
	f3.Code = "def g(x):\n    y = x * 2\n    return y"
	v3, err := MergeFunctions(f1, f3, 1)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(v3.Fn.Code, "y_2") {
		t.Errorf("a local without a clash was renamed:\n%s", v3.Fn.Code)
	}
	if testing.Short() {
		return
	}
	e := engine(t, "python")
	a, b, m := run(t, e, f1), run(t, e, f2), run(t, e, v.Fn)
	for j, r := range m.Tests {
		want := b.Tests[v.SecondTest[j]].Output
		if v.Selector[j] {
			want = a.Tests[v.FirstTest[j]].Output
		}
		if r.Status != schemas.StatusOK || r.Output != want {
			t.Errorf("merge test %d (selector %v): %s %s, want %s", j, v.Selector[j], r.Status, r.Output, want)
		}
	}
}
