package cpp

import (
	"context"
	"fmt"
	"testing"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/execute/executetest"
)

func TestCandidateOf(t *testing.T) {
	for name, want := range map[string]int{
		"_ZN2c31fEi":                      3,
		"_ZN3c121fEi":                     12,
		"_ZN2c3L4memoE":                   3,
		"_ZZN2c71fEiE1v":                  7,
		"_ZNSt6vectorIN2c34NodeESaIS1_EE": 3,
		"_ZN2th10wall_limitE":             -1,
		"_ZN5Hello3fooE":                  -1,
		"_ZN12c3abcdefghiE":               -1,
		"pipe2":                           -1,
		"_ZN3c011fEv":                     -1, // no leading zeros in the engine's names
	} {
		if got := candidateOf(name); got != want {
			t.Errorf("candidateOf(%s) = %d, want %d", name, got, want)
		}
	}
}

// loadTimeBatch is a batch of candidates in the styles translations use at namespace
// scope, none of which runs code at load time, plus extra.
func loadTimeBatch(extra ...execute.Candidate) execute.Batch {
	codes := []string{
		"int dp[1000];\nconst int MOD = 1e9 + 7;\nconstexpr long long BIG = 1LL << 40;\nint f(int x) { dp[0] = x; return (dp[0] * 2 + 1) % MOD; }",
		"typedef long long ll;\n#define SQ(a) ((a) * (a))\ntemplate <class T> T sq(T v) { return SQ(v); }\nint f(int x) { return (int)sq<ll>(x) - 3; }",
		"struct P { int a, b; };\nint f(int x) { static vector<int> memo(10, 1); vector<P> v{{x, 1}}; sort(v.begin(), v.end(), [](const P& p, const P& q) { return p.a < q.a; }); return v[0].a + memo[0]; }",
		"int f(int x) { try { if (x < 0) throw runtime_error(\"neg\"); return stoi(to_string(x)) + 2; } catch (const exception& e) { return -1; } }",
		"static const char* names[] = {\"a\", \"b\"};\nint f(int x) { string s = names[x % 2]; map<int, int> m; m[x] = 4; return m[x] + (int)s.size(); }",
	}
	b := execute.Batch{Lang: schemas.Cpp, Params: executetest.Params("int"), Returns: "int", Tests: executetest.Tests("[3]", "[5]")}
	for i, c := range codes {
		b.Candidates = append(b.Candidates, execute.Candidate{ID: fmt.Sprint(i), Code: c})
	}
	b.Candidates = append(b.Candidates, extra...)
	return b
}

// TestNoLoadTimeCodeOneUnit: candidates without load-time code share one unit (the
// normal case keeps its batching).
func TestNoLoadTimeCodeOneUnit(t *testing.T) {
	e := newEngine(t)
	before := e.Stats()
	res, err := e.Run(context.Background(), loadTimeBatch())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Status != schemas.StatusOK {
			t.Errorf("%s: %s %s", r.CandidateID, r.Status, r.Detail)
		}
	}
	if st := e.Stats(); st.Compiles-before.Compiles != 1 || st.Servers-before.Servers != 1 {
		t.Errorf("%d compiles and %d servers, want 1 and 1", st.Compiles-before.Compiles, st.Servers-before.Servers)
	}
}

// TestLoadTimeCodeGetsItsOwnUnit: a candidate with a global object that has a dynamic
// initializer is built and served alone, the others together, and its initializer
// runs where its tests run.
func TestLoadTimeCodeGetsItsOwnUnit(t *testing.T) {
	e := newEngine(t)
	b := loadTimeBatch(execute.Candidate{ID: "global", Code: "vector<int> memo(5, 7);\nint f(int x) { return x + memo[4]; }"})
	before := e.Stats()
	res, err := e.Run(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Status != schemas.StatusOK {
			t.Errorf("%s: %s %s", r.CandidateID, r.Status, r.Detail)
		}
	}
	if got := res[len(res)-1].Tests[1].Output; got != "12" {
		t.Errorf("the global's candidate gives %s for 5, want 12", got)
	}
	// the unit of all (not linked), the global's alone, the rest
	if st := e.Stats(); st.Compiles-before.Compiles != 3 || st.Servers-before.Servers != 2 {
		t.Errorf("%d compiles and %d servers, want 3 and 2", st.Compiles-before.Compiles, st.Servers-before.Servers)
	}
}
