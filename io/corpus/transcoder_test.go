package corpus

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"transmute/internal/testenv"
	"transmute/schemas"
)

var (
	memBucket = testenv.MemBucket
	writeTree = testenv.WriteTree
)

func goldLine(id, java, python, cpp string) string {
	b, _ := json.Marshal(map[string]string{"sample_id": id, "java": java, "python": python, "cpp": cpp})
	return string(b)
}

// a small TransCoder-test corpus with the odd cases of the real one.
func transcoderFixture() map[string]string {
	gold := []string{
		goldLine("ADD_ONE",
			"static int addOne ( int x ) {\n  return x + 1 ;\n}",
			"def addOne ( x ) :\n    return x + 1",
			"int addOne ( int x ) {\n  return x + 1;\n}"),
		goldLine("SORT_IT",
			"static void sortIt ( int arr [ ] , int n ) {\n  Arrays . sort ( arr , 0 , n ) ;\n}",
			"def sortIt ( arr , n ) :\n    arr [ : n ] = sorted ( arr [ : n ] )",
			"void sortIt ( int arr [ ], int n ) {\n  sort ( arr, arr + n );\n}"),
		goldLine("COUNT_CHARS",
			"static int countChars ( char str [ ] , String t , long k ) {\n  return str . length ;\n}",
			"def countChars ( str , t , k ) :\n    return len ( str )",
			"int countChars ( char str [ ], string t, long long k ) {\n  return t . size ( );\n}"),
		goldLine("CPP_ONLY",
			"static double half ( double [ ] [ ] m ) {\n  return m [ 0 ] [ 0 ] / 2 ;\n}",
			"def half ( m ) :\n    return m [ 0 ] [ 0 ] / 2",
			"double half ( vector<vector<double>> m ) {\n  return m [ 0 ] [ 0 ] / 2;\n}"),
		goldLine("BAD_PYTHON",
			"static int id ( int x ) {\n  return x ;\n}",
			"def id ( x ) :\n    return x",
			"int id ( int x ) {\n  return x;\n}"),
		// a 3-D parameter, as in MINIMUM_COST_MAKE_LONGEST_COMMON_SUBSEQUENCE_LENGTH_K;
		// only a Python script: types from the gold Java function
		goldLine("THREE_D",
			"static int solve ( char X [ ] , int k , int dp [ ] [ ] [ ] ) {\n  return dp [ 0 ] [ 0 ] [ k ] ;\n}",
			"def solve ( X , k , dp ) :\n    return dp [ 0 ] [ 0 ] [ k ]",
			"int solve ( char X [ ], int k, int dp [ ] [ N ] [ N ] ) {\n  return dp [ 0 ] [ 0 ] [ k ];\n}"),
		goldLine("FOUR_D",
			"static int solve ( int dp [ ] [ ] [ ] [ ] ) {\n  return 0 ;\n}",
			"def solve ( dp ) :\n    return 0",
			"int solve ( int dp [ ] [ N ] [ N ] [ N ] ) {\n  return 0;\n}"),
		`{"sample_id": "BROKEN", "java": `,
		goldLine("NO_SCRIPT",
			"static int id ( int x ) {\n  return x ;\n}",
			"def id ( x ) :\n    return x",
			"int id ( int x ) {\n  return x;\n}"),
	}
	return map[string]string{
		"gold.jsonl": strings.Join(gold, "\n") + "\n",
		"testscript/java/ADD_ONE.java": `import java.util. *;
import java.util.stream.*;
import java.lang.*;
import javafx.util.Pair;
public class ADD_ONE{
static int f_gold ( int x ) {
  return x + 1 ;
}
//TOFILL
public static void main(String args[]) {
    int n_success = 0;
    List<Integer> param0 = new ArrayList<>();
    param0.add(96);
    param0.add(-7);
    for(int i = 0; i < param0.size(); ++i)
    {
        if(f_filled(param0.get(i)) == f_gold(param0.get(i))) n_success+=1;
    }
}
}`,
		"testscript/python/ADD_ONE.py": `import math
def f_gold ( x ) :
    return x + 1
#TOFILL
if __name__ == '__main__':
    param = [
    (96,),
    (-7,)
        ]
    n_success = 0
`,
		"testscript/cpp/ADD_ONE.cpp": "#include <bits/stdc++.h>\nusing namespace std;\nint f_gold ( int x ) {\n  return x + 1;\n}\n//TOFILL\nint main() {\n    vector<int> param0 {96,-7};\n}\n",
		// a void function: the scripts also hold filled_function_param copies
		"testscript/java/SORT_IT.java": `public class SORT_IT{
static void f_gold ( int arr [ ] , int n ) {
  Arrays . sort ( arr , 0 , n ) ;
}
//TOFILL
public static void main(String args[]) {
    List<int [ ]> param0 = new ArrayList<>();
    param0.add(new int[]{3,1,2});
    param0.add(new int[]{5,4});
    List<Integer> param1 = new ArrayList<>();
    param1.add(3);
    param1.add(2);
    List<int [ ]> filled_function_param0 = new ArrayList<>();
    filled_function_param0.add(new int[]{3,1,2});
    filled_function_param0.add(new int[]{5,4});
    List<Integer> filled_function_param1 = new ArrayList<>();
    filled_function_param1.add(3);
    filled_function_param1.add(2);
}
}`,
		"testscript/python/SORT_IT.py": `def f_gold ( arr , n ) :
    arr [ : n ] = sorted ( arr [ : n ] )
#TOFILL
if __name__ == '__main__':
    param = [
    ([3, 1, 2],3,),
    ([5, 4],2,)
        ]
    filled_function_param = [
    ([3, 1, 2],3,),
    ([5, 4],2,)
        ]
`,
		// no Python script: tests come from the Java param lists
		"testscript/java/COUNT_CHARS.java": `public class COUNT_CHARS{
static int f_gold ( char str [ ] , String t , long k ) {
  return str . length ;
}
//TOFILL
public static void main(String args[]) {
    List<char [ ]> param0 = new ArrayList<>();
    param0.add(new char[]{'a','b'});
    param0.add(new char[]{'\''});
    List<String> param1 = new ArrayList<>();
    param1.add("xy");
    param1.add("");
    List<Long> param2 = new ArrayList<>();
    param2.add(Long.parseLong("10000000000"));
    param2.add(5L);
}
}`,
		// only a C++ script: types from the gold Java function, tests from C++ vectors
		"testscript/cpp/CPP_ONLY.cpp":     "double f_gold ( vector<vector<double>> m ) {\n  return m[0][0] / 2;\n}\n//TOFILL\nint main() {\n    vector<vector<vector<double>>> param0 {{{1.5,2}},\n    {{-3e2}}};\n}\n",
		"testscript/python/BAD_PYTHON.py": "def f_gold ( x ) :\n    return x\n#TOFILL\nif __name__ == '__main__':\n    param = [\n    (1,),\n    (2,\n",
		"testscript/python/THREE_D.py":    "def f_gold ( X , k , dp ) :\n    return dp [ 0 ] [ 0 ] [ k ]\n#TOFILL\nif __name__ == '__main__':\n    param = [\n    (['a', 'b'],1,[[[1, 2], [3]], [[-4]]],),\n    ([],0,[[[7]]],)\n        ]\n",
		"testscript/python/FOUR_D.py":     "def f_gold ( dp ) :\n    return 0\n#TOFILL\nif __name__ == '__main__':\n    param = [\n    ([[[[1]]]],),\n        ]\n",
	}
}

func TestReadTranscoder(t *testing.T) {
	ctx := context.Background()
	c, err := ReadTranscoder(ctx, memBucket(t, transcoderFixture()))
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "transcoder" {
		t.Errorf("name %q", c.Name)
	}
	got := map[string]schemas.Problem{}
	for _, p := range c.Problems {
		got[p.ID] = p
		if p.Corpus != "transcoder" {
			t.Errorf("%s: corpus %q", p.ID, p.Corpus)
		}
	}
	if len(c.Problems) != 5 {
		t.Errorf("got %d problems, want 5: %v", len(c.Problems), keys(got))
	}
	if len(c.Tasks) != 5*6 {
		t.Errorf("got %d tasks, want 30", len(c.Tasks))
	}

	add := got["ADD_ONE"]
	checkTests(t, add, `[96]`, `[-7]`)
	if add.Returns != "int" || len(add.Params) != 1 || add.Params[0] != (schemas.Param{Name: "x", Type: "int"}) {
		t.Errorf("ADD_ONE signature: %+v -> %s", add.Params, add.Returns)
	}
	jf, _ := add.Function("java")
	if jf.Name != "addOne" || jf.Signature != "static int addOne ( int x )" {
		t.Errorf("java function %q %q", jf.Name, jf.Signature)
	}
	if strings.Contains(jf.Imports, "javafx") || !strings.Contains(jf.Imports, "import java.util. *;") {
		t.Errorf("java imports %q", jf.Imports)
	}
	if pf, _ := add.Function("python"); pf.Imports != "import math" || pf.Name != "addOne" {
		t.Errorf("python function %q imports %q", pf.Name, pf.Imports)
	}
	if cf, _ := add.Function("cpp"); !strings.Contains(cf.Imports, "using namespace std;") {
		t.Errorf("cpp imports %q", cf.Imports)
	}

	sortIt := got["SORT_IT"]
	if sortIt.Returns != "void" {
		t.Errorf("SORT_IT returns %q", sortIt.Returns)
	}
	checkTests(t, sortIt, `[[3,1,2],3]`, `[[5,4],2]`)

	cc := got["COUNT_CHARS"]
	if types := paramTypeList(cc); types != "char[],string,long" {
		t.Errorf("COUNT_CHARS types %s", types)
	}
	checkTests(t, cc, `[["a","b"],"xy",10000000000]`, `[["'"],"",5]`)

	co := got["CPP_ONLY"]
	if types := paramTypeList(co); types != "double[][]" || co.Returns != "double" {
		t.Errorf("CPP_ONLY types %s -> %s", types, co.Returns)
	}
	checkTests(t, co, `[[[1.5,2.0]]]`, `[[[-300.0]]]`)

	three := got["THREE_D"]
	if types := paramTypeList(three); types != "char[],int,int[][][]" || three.Returns != "int" {
		t.Errorf("THREE_D types %s -> %s", types, three.Returns)
	}
	checkTests(t, three, `[["a","b"],1,[[[1,2],[3]],[[-4]]]]`, `[[],0,[[[7]]]]`)

	wantMentions(t, ingestReasons(t, c.Errors, "transcoder", ""), map[string]string{
		"BAD_PYTHON": "python script",
		"FOUR_D":     "4 dimensions",
		"NO_SCRIPT":  "no test script",
		"":           "gold.jsonl line 8",
	})
	if len(c.Errors) != 4 {
		t.Errorf("got %d error rows: %+v", len(c.Errors), c.Errors)
	}
}

func TestReadTranscoderWithoutGold(t *testing.T) {
	if _, err := ReadTranscoder(context.Background(), memBucket(t, map[string]string{"x": "y"})); err == nil {
		t.Error("want an error for a corpus without gold.jsonl")
	}
}

func TestLoadTranscoderFromPathAndURL(t *testing.T) {
	dir := writeTree(t, transcoderFixture())
	ctx := context.Background()
	for _, spec := range []string{"transcoder:" + dir, "transcoder:file://" + filepath.ToSlash(dir)} {
		c, err := Load(ctx, spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if len(c.Problems) != 5 || len(c.Errors) != 4 {
			t.Errorf("%s: %d problems, %d errors", spec, len(c.Problems), len(c.Errors))
		}
	}
	for _, spec := range []string{"transcoder:" + filepath.Join(dir, "missing"), "transcoder:", "nope:" + dir, "transcoder:" + dir + "?bogus=1"} {
		if _, err := Load(ctx, spec); err == nil {
			t.Errorf("%s: want an error", spec)
		}
	}
}

func checkTests(t *testing.T, p schemas.Problem, want ...string) {
	t.Helper()
	if len(p.Tests) != len(want) {
		t.Errorf("%s: %d tests, want %d", p.ID, len(p.Tests), len(want))
		return
	}
	for i, w := range want {
		if p.Tests[i].Index != int32(i) || p.Tests[i].Args != w {
			t.Errorf("%s test %d: %d %s, want %s", p.ID, i, p.Tests[i].Index, p.Tests[i].Args, w)
		}
	}
}

func paramTypeList(p schemas.Problem) string {
	var s []string
	for _, x := range p.Params {
		s = append(s, x.Type)
	}
	return strings.Join(s, ",")
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// ingestReasons fails the test for an error row that is not an ingest error of
// corpus, and returns each problem's reasons, each followed by sep.
func ingestReasons(t *testing.T, errs []schemas.ErrorRow, corpus, sep string) map[string]string {
	t.Helper()
	reasons := map[string]string{}
	for _, e := range errs {
		if e.Stage != "ingest" || e.Corpus != corpus {
			t.Errorf("error row %+v", e)
		}
		reasons[e.ProblemID] += e.Reason + sep
	}
	return reasons
}

// wantMentions checks that the reasons of each problem id mention want[id].
func wantMentions(t *testing.T, reasons, want map[string]string) {
	t.Helper()
	for id, w := range want {
		if !strings.Contains(reasons[id], w) {
			t.Errorf("error for %q: %q, want it to mention %q", id, reasons[id], w)
		}
	}
}
