package enginetest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/sandbox"
	"transmute/transforms/values"
)

// dims3Problem is TransCoder-test's MINIMUM_COST_MAKE_LONGEST_COMMON_SUBSEQUENCE_LENGTH_K,
// whose function memoizes in a 3-D table int dp[][][].
const dims3Problem = "MINIMUM_COST_MAKE_LONGEST_COMMON_SUBSEQUENCE_LENGTH_K"

// dims3Gold is the problem's gold function in each language. The C++ gold declares
// int dp[][N][N] without defining N; here N is defined, and a second C++ version
// takes the table as a vector.
var dims3Gold = map[string][]string{
	schemas.Java: {`static int solve ( char X [ ] , char Y [ ] , int l , int r , int k , int dp [ ] [ ] [ ] ) {
  if ( k == 0 ) {
    return 0 ;
  }
  if ( l < 0 | r < 0 ) {
    return ( int ) 1e9 ;
  }
  if ( dp [ l ] [ r ] [ k ] != - 1 ) {
    return dp [ l ] [ r ] [ k ] ;
  }
  int cost = ( X [ l ] - 'a' ) ^ ( Y [ r ] - 'a' ) ;
  return dp [ l ] [ r ] [ k ] = Math . min ( Math . min ( cost + solve ( X , Y , l - 1 , r - 1 , k - 1 , dp ) , solve ( X , Y , l - 1 , r , k , dp ) ) , solve ( X , Y , l , r - 1 , k , dp ) ) ;
}`},
	schemas.Python: {`def solve ( X , Y , l , r , k , dp ) :
    if k == 0 :
        return 0
    if l < 0 or r < 0 :
        return 1000000000
    if dp [ l ] [ r ] [ k ] != - 1 :
        return dp [ l ] [ r ] [ k ]
    cost = ( ( ord ( X [ l ] ) - ord ( 'a' ) ) ^ ( ord ( Y [ r ] ) - ord ( 'a' ) ) )
    dp [ l ] [ r ] [ k ] = min ( [ cost + solve ( X , Y , l - 1 , r - 1 , k - 1 , dp ) , solve ( X , Y , l - 1 , r , k , dp ) , solve ( X , Y , l , r - 1 , k , dp ) ] )
    return dp [ l ] [ r ] [ k ]`},
	schemas.Cpp: {`const int N = 4;
int solve ( char X [ ], char Y [ ], int l, int r, int k, int dp [ ] [ N ] [ N ] ) {
  if ( ! k ) return 0;
  if ( l < 0 | r < 0 ) return 1e9;
  if ( dp [ l ] [ r ] [ k ] != - 1 ) return dp [ l ] [ r ] [ k ];
  int cost = ( X [ l ] - 'a' ) ^ ( Y [ r ] - 'a' );
  return dp [ l ] [ r ] [ k ] = min ( {
    cost + solve ( X, Y, l - 1, r - 1, k - 1, dp ), solve ( X, Y, l - 1, r, k, dp ), solve ( X, Y, l, r - 1, k, dp ) }
    );
  }`, `int solve(char X[], char Y[], int l, int r, int k, vector<vector<vector<int>>>& dp) {
  if (!k) return 0;
  if (l < 0 | r < 0) return 1e9;
  if (dp[l][r][k] != -1) return dp[l][r][k];
  int cost = (X[l] - 'a') ^ (Y[r] - 'a');
  return dp[l][r][k] = min({cost + solve(X, Y, l - 1, r - 1, k - 1, dp), solve(X, Y, l - 1, r, k, dp), solve(X, Y, l, r - 1, k, dp)});
}`},
}

// dims3Memo is a void entry that fills the table: the harness reports the array
// arguments (X, Y and dp) after the call.
var dims3Memo = map[string][]string{
	schemas.Java:   {"static void memo ( char X [ ] , char Y [ ] , int l , int r , int k , int dp [ ] [ ] [ ] ) {\n  solve ( X , Y , l , r , k , dp ) ;\n}"},
	schemas.Python: {"def memo ( X , Y , l , r , k , dp ) :\n    solve ( X , Y , l , r , k , dp )"},
	schemas.Cpp: {"void memo ( char X [ ], char Y [ ], int l, int r, int k, int dp [ ] [ N ] [ N ] ) {\n  solve ( X, Y, l, r, k, dp );\n}",
		"void memo(char X[], char Y[], int l, int r, int k, vector<vector<vector<int>>>& dp) { solve(X, Y, l, r, k, dp); }"},
}

// cube4 is a 4 x 4 x 4 table of v, as JSON.
func cube4(v int) string {
	row := strings.TrimSuffix(strings.Repeat(fmt.Sprint(v)+",", 4), ",")
	plane := strings.TrimSuffix(strings.Repeat("["+row+"],", 4), ",")
	return "[" + strings.TrimSuffix(strings.Repeat("["+plane+"],", 4), ",") + "]"
}

// TestThreeDimArrays runs the gold of the problem with a 3-D parameter in the three
// languages on hand-made tests whose tables start at -1 (so that the recursion fills
// them) or at 7 (the answer is read from the table, as in the corpus's own tests),
// and a void function that fills the table. The expected values are the Python
// gold's, run by plain python3.
func TestThreeDimArrays(t *testing.T) {
	params := []schemas.Param{{Name: "X", Type: "char[]"}, {Name: "Y", Type: "char[]"}, {Name: "l", Type: "int"},
		{Name: "r", Type: "int"}, {Name: "k", Type: "int"}, {Name: "dp", Type: "int[][][]"}}
	type tc struct {
		x, y, lrk  string
		fill       int
		ret, after string
	}
	tcs := []tc{
		{`"abcd"`, `"dcba"`, "3,3,3", -1, "4", "[[[-1,3,1000000000,1000000000],[-1,2,1000000000,1000000000],[-1,-1,1000000000,1000000000],[-1,-1,-1,1000000000]],[[-1,2,1000000000,1000000000],[-1,2,6,1000000000],[-1,-1,2,1000000000],[-1,-1,-1,1000000000]],[[-1,-1,1000000000,1000000000],[-1,-1,2,1000000000],[-1,-1,2,9],[-1,-1,-1,4]],[[-1,-1,-1,1000000000],[-1,-1,-1,1000000000],[-1,-1,-1,4],[-1,-1,-1,4]]]"},
		{`"abcd"`, `"abce"`, "3,3,2", -1, "0", "[[[-1,0,1000000000,-1],[-1,0,1000000000,-1],[-1,0,1000000000,-1],[-1,-1,1000000000,-1]],[[-1,0,1000000000,-1],[-1,0,0,-1],[-1,0,0,-1],[-1,-1,0,-1]],[[-1,0,1000000000,-1],[-1,0,0,-1],[-1,0,0,-1],[-1,-1,0,-1]],[[-1,-1,1000000000,-1],[-1,-1,0,-1],[-1,-1,0,-1],[-1,-1,0,-1]]]"},
		{`"abcd"`, `"abcd"`, "3,3,3", 7, "7", cube4(7)},
		{`"abcd"`, `"bbbb"`, "3,1,2", -1, "1", "[[[-1,1,1000000000,-1],[-1,-1,1000000000,-1],[-1,-1,-1,-1],[-1,-1,-1,-1]],[[-1,0,1000000000,-1],[-1,-1,1,-1],[-1,-1,-1,-1],[-1,-1,-1,-1]],[[-1,0,1000000000,-1],[-1,-1,1,-1],[-1,-1,-1,-1],[-1,-1,-1,-1]],[[-1,-1,1000000000,-1],[-1,-1,1,-1],[-1,-1,-1,-1],[-1,-1,-1,-1]]]"},
	}
	var tests []schemas.Test
	for i, c := range tcs {
		args, err := values.CanonicalArgs([]values.Type{{Base: values.Char, Dims: 1}, {Base: values.Char, Dims: 1},
			{Base: values.Int}, {Base: values.Int}, {Base: values.Int}, {Base: values.Int, Dims: 3}},
			fmt.Sprintf("[%s,%s,%s,%s]", c.x, c.y, c.lrk, cube4(c.fill)))
		if err != nil {
			t.Fatal(err)
		}
		tests = append(tests, schemas.Test{Index: int32(i), Args: args})
	}
	lim := sandbox.Limits{CPUTime: 2 * time.Second, WallTime: 4 * time.Second}
	for _, lang := range langs {
		e := openEngine(t, lang)
		for _, void := range []bool{false, true} {
			b := execute.Batch{ProblemID: dims3Problem, Lang: lang, Params: params, Returns: "int", Tests: tests, Limits: lim}
			entry := "solve"
			if void {
				b.Returns, entry = "void", "memo"
			}
			for i, code := range dims3Gold[lang] {
				if void {
					code += "\n" + dims3Memo[lang][i]
				}
				b.Candidates = append(b.Candidates, execute.Candidate{ID: fmt.Sprintf("%s%d", entry, i), Code: code, Entry: entry})
			}
			ret := values.MustParseType(b.Returns)
			for _, r := range runBatch(t, e, b) {
				if r.Status != schemas.StatusOK {
					t.Errorf("%s %s: %s %s", lang, r.CandidateID, r.Status, short(r.Detail))
					continue
				}
				for i, c := range tcs {
					want := c.ret
					if void {
						// a void result is compared loosely: X and Y as the char arrays printed
						x, _ := values.Canonical(values.Type{Base: values.Char, Dims: 1}, c.x)
						y, _ := values.Canonical(values.Type{Base: values.Char, Dims: 1}, c.y)
						want = fmt.Sprintf("[%s,%s,%s]", x, y, c.after)
					}
					want, err := values.Canonical(ret, want)
					if err != nil {
						t.Fatal(err)
					}
					got := r.Tests[i]
					if got.Status != schemas.StatusOK || !values.Equal(ret, got.Output, want, values.Tolerance{}) {
						t.Errorf("%s %s test %d: %s %s %s, want %s", lang, r.CandidateID, i, got.Status, short(got.Error), short(got.Output), short(want))
					}
				}
			}
		}
	}
}

// TestRealThreeDimGolds runs the corpus's Java and Python golds of the problem on its
// ten tests: both give the same value on every test. The corpus's tables hold no -1 at
// dp[l][r][k], so each answer is that entry; the C++ gold does not compile (N is not
// defined), a defect of the corpus.
func TestRealThreeDimGolds(t *testing.T) {
	c := transcoder(t)
	p, ok := c.Problem(dims3Problem)
	if !ok {
		t.Fatalf("%s not ingested", dims3Problem)
	}
	if len(p.Tests) != 10 {
		t.Fatalf("%d tests", len(p.Tests))
	}
	// the expected answers: dp[l][r][k] of each test's arguments
	var want []string
	for _, tc := range p.Tests {
		var a []json.RawMessage
		var l, r, k int
		var dp [][][]int
		if json.Unmarshal([]byte(tc.Args), &a) != nil || len(a) != 6 || json.Unmarshal(a[2], &l) != nil ||
			json.Unmarshal(a[3], &r) != nil || json.Unmarshal(a[4], &k) != nil || json.Unmarshal(a[5], &dp) != nil {
			t.Fatalf("test %d: arguments %.200s", tc.Index, tc.Args)
		}
		want = append(want, fmt.Sprint(dp[l][r][k]))
	}
	lim := sandbox.Limits{CPUTime: 5 * time.Second, WallTime: 10 * time.Second}
	outputs := map[string][]string{}
	for _, lang := range langs {
		f, ok := p.Function(lang)
		if !ok {
			t.Logf("%s: the corpus has no %s gold of this problem", p.ID, lang)
			continue
		}
		b := execute.Batch{ProblemID: p.ID, Lang: lang, Params: p.Params, Returns: p.Returns, Tests: p.Tests, Limits: lim,
			Candidates: []execute.Candidate{{ID: "gold", Code: f.Code, Imports: f.Imports, Entry: f.Name}}}
		if lang == schemas.Cpp {
			// the gold as it is, and with the N it lacks (its tables are at most 45 x 45 x 45)
			b.Candidates = append(b.Candidates, execute.Candidate{ID: "gold+N", Code: "const int N = 45;\n" + f.Code, Imports: f.Imports, Entry: f.Name})
		}
		for _, r := range runBatch(t, openEngine(t, lang), b) {
			name := lang + " " + r.CandidateID
			if name == "cpp gold" {
				if r.Status != schemas.StatusCompileError || !strings.Contains(r.Detail, "'N' was not declared") {
					t.Errorf("%s: %s %s, want the compile error of the undefined N", name, r.Status, short(r.Detail))
				}
				continue
			}
			if r.Status != schemas.StatusOK {
				t.Errorf("%s: %s %s", name, r.Status, short(r.Detail))
				continue
			}
			for i, tr := range r.Tests {
				outputs[name] = append(outputs[name], string(tr.Status)+" "+tr.Output)
				if tr.Status != schemas.StatusOK || tr.Output != want[i] {
					t.Errorf("%s test %d: %s %s (%s), want %s", name, i, tr.Status, tr.Output, short(tr.Error), want[i])
				}
			}
		}
	}
	t.Logf("expected %v; java %v; python %v; cpp with N %v", want, outputs["java gold"], outputs["python gold"], outputs["cpp gold+N"])
}
