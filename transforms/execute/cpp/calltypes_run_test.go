package cpp

import (
	"fmt"
	"strings"
	"testing"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/execute/executetest"
)

// TestGoldCallTypesRun runs candidates with and without Batch.CallTypes: with them,
// only a candidate that takes the gold's declared types compiles, as in the
// benchmark's own C++ scripts; without them, the harness adapts to every candidate.
// The results of the candidates that compile in both modes are the same, and a void
// candidate's writes through the pointer are seen.
func TestGoldCallTypesRun(t *testing.T) {
	e := newEngine(t)
	cases := []struct {
		decl  string
		types []string
		ret   string
		args  string
		want  string
		codes map[string]bool // candidate -> compiles with the gold's types
	}{
		{"int f_gold ( int arr [ ], int n )", []string{"int[]", "int"}, "int", "[[3,1,2],3]", "6",
			map[string]bool{
				"int f(int a[], int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }":         true,
				"int f(const int* a, long n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }":   true,
				"int f(vector<int>& a, int n) { return accumulate(a.begin(), a.begin() + n, 0); }":              false,
				"int f(const vector<int>& a, int n) { return accumulate(a.begin(), a.begin() + n, 0); }":        false,
				"long long f(vector<long long> a, int n) { return accumulate(a.begin(), a.begin() + n, 0LL); }": false,
			}},
		{"double f_gold ( vector < int > & A , int K )", []string{"int[]", "int"}, "int", "[[3,1,2],2]", "4",
			map[string]bool{
				"int f(vector<int>& a, int k) { return a[0] + k - 1; }":       true,
				"int f(const vector<int>& a, int k) { return a[0] + k - 1; }": true,
				"int f(vector<int> a, int k) { return a[0] + k - 1; }":        true,
				"int f(int a[], int k) { return a[0] + k - 1; }":              false,
			}},
		{"bool f_gold ( string s )", []string{"string"}, "int", `["abc"]`, "3",
			map[string]bool{
				"int f(string s) { return s.size(); }":        true,
				"int f(string& s) { return s.size(); }":       true, // TRACE passes an lvalue
				"int f(const string& s) { return s.size(); }": true,
				"int f(string_view s) { return s.size(); }":   true,
				"int f(char* s) { return strlen(s); }":        false,
				"int f(const char* s) { return strlen(s); }":  false,
			}},
		// the scripts pass a non-const lvalue where the gold takes const T&
		{"int f_gold ( const vector < vector < int > > & g )", []string{"int[][]"}, "int", "[[[1,2],[3]]]", "3",
			map[string]bool{
				"int f(vector<vector<int>>& g) { return g.size() + g[0].size() - 1; }":       true,
				"int f(const vector<vector<int>>& g) { return g.size() + g[0].size() - 1; }": true,
				"int f(vector<vector<int>> g) { return g.size() + g[0].size() - 1; }":        true,
			}},
		{"int f_gold ( const string & s )", []string{"string"}, "int", `["abcd"]`, "4",
			map[string]bool{
				"int f(string& s) { return s.size(); }":       true,
				"int f(const string& s) { return s.size(); }": true,
				"int f(char* s) { return strlen(s); }":        false,
			}},
		{"long f_gold ( long n, unsigned int k )", []string{"long", "int"}, "long", "[9000000000,2]", "9000000002",
			map[string]bool{
				"long long f(long long n, int k) { return n + k; }": true,
				"long f(long n, unsigned k) { return n + k; }":      true,
			}},
		{"void f_gold ( int arr [ ], int n )", []string{"int[]", "int"}, "void", "[[3,1,2],3]", "[[1,2,3]]",
			map[string]bool{
				"void f(int a[], int n) { sort(a, a + n); }":                  true,
				"void f(vector<int>& a, int n) { sort(a.begin(), a.end()); }": false,
			}},
	}
	for _, c := range cases {
		var codes []string
		for code := range c.codes {
			codes = append(codes, code)
		}
		for _, mode := range []string{"adapt", "gold"} {
			b := execute.Batch{Lang: "cpp", Params: executetest.Params(c.types...), Returns: c.ret, Tests: executetest.Tests(c.args)}
			if mode == "gold" {
				b.CallTypes = GoldCallTypes(c.decl)
			}
			for i, code := range codes {
				b.Candidates = append(b.Candidates, execute.Candidate{ID: fmt.Sprint(i), Code: code})
			}
			for i, r := range executetest.Run(t, e, b) {
				compiles := mode == "adapt" || c.codes[codes[i]]
				if !compiles {
					if r.Status != schemas.StatusCompileError {
						t.Errorf("%s, %s: %q: %s, want compile_error", c.decl, mode, codes[i], r.Status)
					}
					continue
				}
				if r.Status != schemas.StatusOK || r.Tests[0].Status != schemas.StatusOK {
					t.Errorf("%s, %s: %q: %s %s %+v", c.decl, mode, codes[i], r.Status, firstLine(r.Detail), r.Tests)
					continue
				}
				if got := r.Tests[0].Output; got != c.want {
					t.Errorf("%s, %s: %q: output %s, want %s", c.decl, mode, codes[i], got, c.want)
				}
			}
		}
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
