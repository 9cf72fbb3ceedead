package mutate

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// opCase is one operator applied to one small function, with the exact
// mutated functions expected, in order.
type opCase struct {
	lang, op, code string
	want           []string
}

// sub builds the expected mutant list from a template holding one "%s":
// the template filled with each replacement.
func sub(tmpl string, repls ...string) []string {
	out := make([]string, len(repls))
	for i, r := range repls {
		out[i] = strings.Replace(tmpl, "%s", r, 1)
	}
	return out
}

var javaCases = []opCase{
	{"java", "AORB", "int f(int a, int b) { return a + b; }",
		sub("int f(int a, int b) { return %s; }", "a - b", "a * b", "a / b", "a % b")},
	{"java", "AORB", "int f(int a, int b, int c) { return a + b * c; }",
		sub("int f(int a, int b, int c) { return %s; }", "a - b * c", "a * (b * c)", "a / (b * c)", "a % (b * c)",
			"a + (b + c)", "a + (b - c)", "a + b / c", "a + b % c")},
	{"java", "AORB", `String f(int a) { return "x" + a; }`, nil},
	{"java", "AORS", "void f(int i) { i++; }",
		sub("void f(int i) { %s; }", "++i", "--i", "i--")},
	{"java", "AOIU", "int f(int a, int b) { return a + b; }",
		sub("int f(int a, int b) { return %s; }", "-a + b", "a + -b")},
	{"java", "AOIU", "int f(int a, int b) { return a - b; }",
		sub("int f(int a, int b) { return %s; }", "-a - b", "a - -b")},
	{"java", "AOIU", "boolean f(boolean p, String s) { return p; }", nil},
	{"java", "AOIS", "int f(int a) { return a; }",
		sub("int f(int a) { return %s; }", "++a", "--a", "a++", "a--")},
	{"java", "AOIS", "int f(int a, int b) { return b-a; }",
		sub("int f(int a, int b) { return %s; }", "++b-a", "--b-a", "b++ -a", "b-- -a",
			"b- ++a", "b- --a", "b-a++", "b-a--")},
	{"java", "AODU", "int f(int a) { return -a; }", []string{"int f(int a) { return a; }"}},
	{"java", "AODS", "int f(int a) { return a++; }", []string{"int f(int a) { return a; }"}},
	{"java", "AODS", "void f(int a) { a++; for (;; a--) {} }", nil},
	{"java", "ROR", "boolean f(int a, int b) { return a > b; }",
		sub("boolean f(int a, int b) { return %s; }", "a >= b", "a < b", "a <= b", "a == b", "a != b", "true", "false")},
	{"java", "ROR", "boolean f(boolean p, boolean q) { return p == q; }",
		sub("boolean f(boolean p, boolean q) { return %s; }", "p != q", "true", "false")},
	{"java", "COR", "boolean f(boolean p, boolean q) { return p && q; }",
		sub("boolean f(boolean p, boolean q) { return %s; }", "p || q", "p & q", "p | q", "p ^ q")},
	{"java", "COR", "boolean f(boolean p, boolean q, boolean r) { return p || q && r; }",
		sub("boolean f(boolean p, boolean q, boolean r) { return %s; }",
			"p && (q && r)", "p & (q && r)", "p | (q && r)", "p ^ (q && r)",
			"p || (q || r)", "p || q & r", "p || q | r", "p || q ^ r")},
	{"java", "COD", "boolean f(boolean p) { return !p; }", []string{"boolean f(boolean p) { return p; }"}},
	{"java", "COI", "boolean f(boolean p, int a) { return p && a > 0; }",
		sub("boolean f(boolean p, int a) { return %s; }", "!p && a > 0", "!(p && a > 0)", "p && !(a > 0)")},
	{"java", "COI", "int f(String s, int n) { if (s.isEmpty() || g(n)) return 1; return h(n); }",
		sub("int f(String s, int n) { if (%s) return 1; return h(n); }", "!s.isEmpty() || g(n)",
			"!(s.isEmpty() || g(n))", "s.isEmpty() || !g(n)")},
	{"java", "SOR", "int f(int a) { return a << 2; }",
		sub("int f(int a) { return %s; }", "a >> 2", "a >>> 2")},
	{"java", "LOR", "int f(int a, int b) { return a & b; }",
		sub("int f(int a, int b) { return %s; }", "a | b", "a ^ b")},
	{"java", "LOI", "int f(int a, double d) { return a + (int) d; }",
		[]string{"int f(int a, double d) { return ~a + (int) d; }"}},
	{"java", "LOD", "int f(int a) { return ~a; }", []string{"int f(int a) { return a; }"}},
	{"java", "ASRS", "void f(int a) { a += 2; a <<= 1; a |= 4; }",
		[]string{
			"void f(int a) { a -= 2; a <<= 1; a |= 4; }", "void f(int a) { a *= 2; a <<= 1; a |= 4; }",
			"void f(int a) { a /= 2; a <<= 1; a |= 4; }", "void f(int a) { a %= 2; a <<= 1; a |= 4; }",
			"void f(int a) { a += 2; a >>= 1; a |= 4; }", "void f(int a) { a += 2; a >>>= 1; a |= 4; }",
			"void f(int a) { a += 2; a <<= 1; a &= 4; }", "void f(int a) { a += 2; a <<= 1; a ^= 4; }",
		}},
	{"java", "SDL", "int f(int a) {\n  int b = 1;\n  a = 2;\n  if (a > 0) b = 3;\n  return a + b;\n}",
		[]string{
			"int f(int a) {\n  int b = 1;\n  if (a > 0) b = 3;\n  return a + b;\n}",
			"int f(int a) {\n  int b = 1;\n  a = 2;\n  return a + b;\n}",
			"int f(int a) {\n  int b = 1;\n  a = 2;\n  if (a > 0) ;\n  return a + b;\n}",
		}},
	{"java", "VDL", "int f(int a, int b) { return a + 1 - b; }",
		sub("int f(int a, int b) { return %s; }", "1 - b", "a + 1")},
	{"java", "CDL", "int f(int a, int b) { return a + 1 - b; }",
		sub("int f(int a, int b) { return %s; }", "a - b")},
	{"java", "ODL", "int f(int a, int b) { a += b; return -a * b; }",
		[]string{
			"int f(int a, int b) { a = b; return -a * b; }",
			"int f(int a, int b) { a += b; return a * b; }",
			"int f(int a, int b) { a += b; return -a; }",
			"int f(int a, int b) { a += b; return b; }",
		}},
}

var cppCases = []opCase{
	{"cpp", "AORB", "double f(double a, int b) { return a + b; }",
		sub("double f(double a, int b) { return %s; }", "a - b", "a * b", "a / b")},
	{"cpp", "AORS", "void f(int i) { --i; }", sub("void f(int i) { %s; }", "++i", "i++", "i--")},
	{"cpp", "AOIU", "long long f(long long a, vector<int>& v) { return a + v[0]; }",
		[]string{"long long f(long long a, vector<int>& v) { return -a + v[0]; }"}},
	{"cpp", "AOIS", "int f(int a) { return a; }", sub("int f(int a) { return %s; }", "++a", "--a", "a++", "a--")},
	{"cpp", "AODU", "int f(int a) { return -a; }", []string{"int f(int a) { return a; }"}},
	{"cpp", "AODS", "int f(int a) { return a--; }", []string{"int f(int a) { return a; }"}},
	{"cpp", "ROR", "bool f(int a, int b) { return a <= b; }",
		sub("bool f(int a, int b) { return %s; }", "a > b", "a >= b", "a < b", "a == b", "a != b", "true", "false")},
	{"cpp", "COR", "bool f(bool p, bool q) { return p || q; }",
		sub("bool f(bool p, bool q) { return %s; }", "p && q", "p & q", "p | q", "p ^ q")},
	{"cpp", "COD", "bool f(bool p) { return !p; }", []string{"bool f(bool p) { return p; }"}},
	{"cpp", "COI", "int f(int x) { while (x & 1) x >>= 1; return x; }",
		[]string{"int f(int x) { while (!(x & 1)) x >>= 1; return x; }"}},
	{"cpp", "SOR", "int f(int a) { cout << a; return a >> 1; }",
		[]string{"int f(int a) { cout << a; return a << 1; }"}},
	{"cpp", "LOR", "int f(int a, int b) { return a ^ b; }", sub("int f(int a, int b) { return %s; }", "a & b", "a | b")},
	{"cpp", "LOI", "int f(unsigned int a) { return a; }", []string{"int f(unsigned int a) { return ~a; }"}},
	{"cpp", "LOD", "int f(int a) { return ~a; }", []string{"int f(int a) { return a; }"}},
	{"cpp", "ASRS", "void f(double d) { d *= 2; }",
		sub("void f(double d) { %s; }", "d += 2", "d -= 2", "d /= 2")},
	{"cpp", "SDL", "int f(int a) {\n  a++;\n  return a;\n}", []string{"int f(int a) {\n  return a;\n}"}},
	{"cpp", "VDL", "int f(int a, int b) { return a * b; }", sub("int f(int a, int b) { return %s; }", "a", "b")},
	{"cpp", "CDL", "int f(int a) { return 2 * a; }", sub("int f(int a) { return %s; }", "a")},
	{"cpp", "ODL", "int f(int a) { return !a; }", []string{"int f(int a) { return a; }"}},
}

var pyCases = []opCase{
	{"python", "AORB", "def f(a, b):\n    return a + b\n",
		sub("def f(a, b):\n    return %s\n", "a - b", "a * b", "a / b", "a // b", "a % b")},
	{"python", "AORB", "def f(s):\n    return s + 'x'\n", nil},
	{"python", "AORS", "def f(a):\n    a += 1\n    return a\n", nil},
	{"python", "AOIU", "def f(a, arr):\n    return a * 2 + len(arr)\n",
		[]string{"def f(a, arr):\n    return -a * 2 + len(arr)\n"}},
	{"python", "AOIU", "def f(a, b):\n    return a ** b\n",
		sub("def f(a, b):\n    return %s\n", "(-a) ** b", "a ** -b")},
	{"python", "AOIS", "def f(a):\n    return a + 1\n", nil},
	{"python", "AODU", "def f(a):\n    return -a\n", []string{"def f(a):\n    return a\n"}},
	{"python", "ROR", "def f(a, b, c):\n    return a < b <= c\n",
		sub("def f(a, b, c):\n    return %s\n", "True", "False",
			"a > b <= c", "a >= b <= c", "a <= b <= c", "a == b <= c", "a != b <= c", "a < b > c", "a < b >= c", "a < b < c", "a < b == c", "a < b != c")},
	{"python", "ROR", "def f(a):\n    return a == None\n",
		sub("def f(a):\n    return %s\n", "True", "False", "a != None")},
	{"python", "COR", "def f(p, q, r):\n    return p or q and r\n",
		sub("def f(p, q, r):\n    return %s\n", "p and (q and r)", "p or (q or r)")},
	{"python", "COD", "def f(p):\n    return not p\n", []string{"def f(p):\n    return p\n"}},
	{"python", "COI", "def f(a, p):\n    if p:\n        return a > 0 and p\n    return 1 + (a < 2)\n",
		[]string{
			"def f(a, p):\n    if not p:\n        return a > 0 and p\n    return 1 + (a < 2)\n",
			"def f(a, p):\n    if p:\n        return not a > 0 and p\n    return 1 + (a < 2)\n",
			"def f(a, p):\n    if p:\n        return not (a > 0 and p)\n    return 1 + (a < 2)\n",
			"def f(a, p):\n    if p:\n        return a > 0 and not p\n    return 1 + (a < 2)\n",
			"def f(a, p):\n    if p:\n        return a > 0 and p\n    return 1 + (not a < 2)\n",
		}},
	{"python", "SOR", "def f(a):\n    return a << 2\n", []string{"def f(a):\n    return a >> 2\n"}},
	{"python", "LOR", "def f(a, b):\n    return a | b\n", sub("def f(a, b):\n    return %s\n", "a & b", "a ^ b")},
	{"python", "LOI", "def f(a):\n    return a - 1\n", []string{"def f(a):\n    return ~a - 1\n"}},
	{"python", "LOD", "def f(a):\n    return ~a\n", []string{"def f(a):\n    return a\n"}},
	{"python", "ASRS", "def f(a):\n    a //= 2\n    return a\n",
		sub("def f(a):\n    a %s 2\n    return a\n", "+=", "-=", "*=", "/=", "%=")},
	{"python", "SDL", "def f(a):\n    b = 1 ;\n    b = a + b ;\n    if a:\n        b = 0\n    return b\n",
		[]string{
			"def f(a):\n    b = 1 ;\n    if a:\n        b = 0\n    return b\n",
			"def f(a):\n    b = 1 ;\n    b = a + b ;\n    return b\n",
			"def f(a):\n    b = 1 ;\n    b = a + b ;\n    if a:\n        pass\n    return b\n",
		}},
	{"python", "VDL", "def f(a, b):\n    return a % b\n", sub("def f(a, b):\n    return %s\n", "a", "b")},
	{"python", "CDL", "def f(a):\n    return 3 - a\n", []string{"def f(a):\n    return a\n"}},
	{"python", "ODL", "def f(a):\n    a -= 1\n    return a ** 2\n",
		[]string{"def f(a):\n    a = 1\n    return a ** 2\n", "def f(a):\n    a -= 1\n    return a\n", "def f(a):\n    a -= 1\n    return 2\n"}},
}

func TestOperatorsExact(t *testing.T) {
	var all []opCase
	all = append(append(append(all, javaCases...), cppCases...), pyCases...)
	for i, c := range all {
		t.Run(fmt.Sprintf("%s/%s/%d", c.lang, c.op, i), func(t *testing.T) {
			ms, st, err := Generate(c.lang, c.code, Options{Operators: []string{c.op}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range ms {
				if m.Operator != c.op {
					t.Errorf("operator %s leaked into %s run", m.Operator, c.op)
				}
				got = append(got, m.Code)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("code:\n%s\ngot  %q\nwant %q", c.code, got, c.want)
			}
			if st.Generated != len(c.want) || st.PerOperator[c.op] != len(c.want) {
				t.Errorf("stats %+v, want %d generated", st, len(c.want))
			}
			assertValid(t, c.lang, c.code, ms)
		})
	}
}

// assertValid checks the invariants every mutant must satisfy: it
// re-parses cleanly, its fields are consistent with the edit, and its ID is
// the content hash.
func assertValid(t *testing.T, lang, code string, ms []Mutant) {
	t.Helper()
	spec, err := specFor(lang)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newParser(spec)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, m := range ms {
		if !parsesClean(p, spec, []byte(m.Code)) {
			t.Errorf("%s mutant does not parse:\n%s", m.Operator, m.Code)
		}
		if m.Code != code[:m.StartByte]+m.Replacement+code[m.EndByte:] || m.Original != code[m.StartByte:m.EndByte] {
			t.Errorf("%s mutant fields inconsistent: %+v", m.Operator, m)
		}
		if m.ID != MutantID(spec.name, m.Operator, m.Code) || len(m.ID) != 16 {
			t.Errorf("bad id %q", m.ID)
		}
		if m.Lang != spec.name || m.Line < 1 || m.Col < 1 || !strings.HasPrefix(m.Diff, "@@ -") {
			t.Errorf("bad location/diff: %+v", m)
		}
	}
}

// TestEveryOperatorCovered makes sure the exact tables exercise every
// operator on every language where it applies (docs/MUTATION.md).
func TestEveryOperatorCovered(t *testing.T) {
	notApplicable := map[string]bool{"python/AORS": true, "python/AOIS": true, "python/AODS": true}
	seen := map[string]bool{}
	for _, cs := range [][]opCase{javaCases, cppCases, pyCases} {
		for _, c := range cs {
			if len(c.want) > 0 {
				seen[c.lang+"/"+c.op] = true
			}
		}
	}
	for _, lang := range []string{"java", "cpp", "python"} {
		for _, op := range Operators {
			key := lang + "/" + op
			if !seen[key] && !notApplicable[key] {
				t.Errorf("no positive exact test for %s", key)
			}
		}
	}
}

const detJava = `static int f(int a[], int n) {
  int x = -a[0] + n << 2;
  boolean b = !(x > 1) && n != 2 || true;
  x += 3;
  for (int i = 0; i < n; i++)
    if (b) x = ~x;
  return x * n;
}`

func TestDeterminismAndIDs(t *testing.T) {
	a, sa, err := Generate("java", detJava, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, sb, err := Generate("JAVA", detJava, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(sa, sb) {
		t.Fatal("two runs differ")
	}
	if len(a) < 50 {
		t.Fatalf("only %d mutants", len(a))
	}
	ids := map[string]bool{}
	last := -1
	for _, m := range a {
		if ids[m.ID] {
			t.Errorf("duplicate id %s", m.ID)
		}
		ids[m.ID] = true
		if oi := opIndex[m.Operator]; oi < last {
			t.Errorf("mutants not grouped in operator order at %s", m.Operator)
		} else {
			last = oi
		}
	}
	assertValid(t, "java", detJava, a)
	// The id is a pure function of (lang, operator, code): pinned here so a
	// change of the scheme is noticed (stored results refer to these ids).
	if got := MutantID("java", "ROR", "x"); got != "68494b95f621a8e7" {
		t.Errorf("MutantID(java, ROR, x) = %s, want 68494b95f621a8e7", got)
	}
}

func TestCapsAndSampling(t *testing.T) {
	full, fst, err := Generate("java", detJava, Options{})
	if err != nil {
		t.Fatal(err)
	}
	index := map[string]int{}
	for i, m := range full {
		index[m.ID] = i
	}
	capped, cst, err := Generate("java", detJava, Options{MaxPerOperator: 2, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if cst.Generated != fst.Generated || !reflect.DeepEqual(cst.PerOperator, fst.PerOperator) {
		t.Errorf("stats must count all valid mutants before caps: %+v vs %+v", cst, fst)
	}
	per := map[string]int{}
	prev := -1
	for _, m := range capped {
		per[m.Operator]++
		i, ok := index[m.ID]
		if !ok {
			t.Fatalf("sampled mutant %s not in the full set", m.ID)
		}
		if i <= prev {
			t.Errorf("sampling broke the order")
		}
		prev = i
	}
	want := 0
	for op, n := range fst.PerOperator {
		w := min(n, 2)
		want += w
		if per[op] != w {
			t.Errorf("%s: %d kept, want %d", op, per[op], w)
		}
	}
	if len(capped) != want || cst.Returned != want {
		t.Errorf("kept %d (Returned %d), want %d", len(capped), cst.Returned, want)
	}
	again, _, _ := Generate("java", detJava, Options{MaxPerOperator: 2, Seed: 7})
	if !reflect.DeepEqual(capped, again) {
		t.Error("same seed gave a different sample")
	}
	differs := false
	for seed := int64(8); seed < 14 && !differs; seed++ {
		other, _, _ := Generate("java", detJava, Options{MaxPerOperator: 2, Seed: seed})
		differs = !reflect.DeepEqual(capped, other)
	}
	if !differs {
		t.Error("six other seeds all gave the same sample")
	}
	tot, tst, _ := Generate("java", detJava, Options{MaxPerOperator: 3, MaxTotal: 5, Seed: 1})
	if len(tot) != 5 || tst.Returned != 5 {
		t.Errorf("MaxTotal: got %d mutants", len(tot))
	}
	for _, m := range tot {
		if _, ok := index[m.ID]; !ok {
			t.Errorf("MaxTotal sample has unknown mutant %s", m.ID)
		}
	}
}

func TestOptionsAndErrors(t *testing.T) {
	ms, _, err := Generate("java", detJava, Options{Operators: []string{"ror", "SDL"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.Operator != "ROR" && m.Operator != "SDL" {
			t.Errorf("unexpected operator %s", m.Operator)
		}
	}
	if _, _, err := Generate("java", detJava, Options{Operators: []string{"XYZ"}}); err == nil {
		t.Error("unknown operator accepted")
	}
	if _, _, err := Generate("cobol", detJava, Options{}); err == nil {
		t.Error("unknown language accepted")
	}
	if _, _, err := Generate("java", "static int f( { return", Options{}); err == nil {
		t.Error("unparseable source accepted")
	}
	if ms, st, err := Generate("python", "def f():\n    pass\n", Options{}); err != nil || len(ms) != 0 || st.Generated != 0 {
		t.Errorf("trivial function: %v %v %+v", ms, err, st)
	}
}

// TestInvalidAndDuplicateCounting drives the validation stage with edits
// that break the syntax or repeat another edit, as an operator on an
// unusual construct could.
func TestInvalidAndDuplicateCounting(t *testing.T) {
	code := "int f(int a, int b) { return a + b; }"
	spec, _ := specFor("java")
	p, err := newParser(spec)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	plus := strings.Index(code, "+")
	cands := []candidate{
		{op: "AORB", start: plus, end: plus + 1, repl: "-", seq: 1},
		{op: "AORB", start: plus, end: plus + 1, repl: "-", seq: 2},   // duplicate
		{op: "AORB", start: plus, end: plus + 1, repl: "+", seq: 3},   // no-op
		{op: "AORB", start: plus, end: plus + 1, repl: "+ )", seq: 4}, // does not parse
		{op: "ODL", start: plus, end: plus + 1, repl: "-", seq: 5},    // same code, other operator: kept
	}
	tree := p.Parse([]byte(code), nil)
	defer tree.Close()
	ms, st := finish(spec, p, tree, code, cands, Options{}, Stats{PerOperator: map[string]int{}})
	if st.Invalid != 1 || st.Duplicates != 2 || st.Generated != 2 || len(ms) != 2 {
		t.Fatalf("stats %+v, %d mutants", st, len(ms))
	}
	if ms[0].Operator != "AORB" || ms[1].Operator != "ODL" || ms[0].Code != ms[1].Code || ms[0].ID == ms[1].ID {
		t.Errorf("unexpected mutants %+v", ms)
	}
}

func TestSDLLocationAndConcurrency(t *testing.T) {
	code := "void f(int a) {\n  a = 1;\n  a++;\n}"
	ms, _, err := Generate("java", code, Options{Operators: []string{"SDL"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].Line != 2 || ms[0].Col != 3 || ms[1].Line != 3 || ms[1].Col != 3 {
		t.Fatalf("SDL locations: %+v", ms)
	}
	if ms[0].Code != "void f(int a) {\n  a++;\n}" || ms[0].Diff != "@@ -1,2 +1,1 @@\n-void f(int a) {\n-  a = 1;\n+void f(int a) {\n" {
		t.Errorf("SDL mutant %q diff %q", ms[0].Code, ms[0].Diff)
	}
	want, _, _ := Generate("java", detJava, Options{})
	done := make(chan []Mutant)
	for i := 0; i < 4; i++ {
		go func() {
			got, _, _ := Generate("java", detJava, Options{})
			done <- got
		}()
	}
	for i := 0; i < 4; i++ {
		if got := <-done; !reflect.DeepEqual(got, want) {
			t.Error("concurrent run differs")
		}
	}
}

func TestParsesClean(t *testing.T) {
	for _, c := range []struct {
		lang, code string
		want       bool
	}{
		{"cpp", "int f(int x) { return x + 1; }", true},
		{"cpp", "int f(int x) { return x + 1; ", false},         // unclosed brace
		{"cpp", "int f(int x) { return x; } /* open", false},    // unterminated comment
		{"cpp", "#if 1\nint f(int x) { return x; }\n", false},   // #if without #endif
		{"cpp", "int f(int x) { return undeclared(x); }", true}, // a type error is not a parse error
		{"java", "int f(int x) { return x; }", true},
		{"python", "def f(x):\n    return (x\n", false},
	} {
		got, err := ParsesClean(c.lang, c.code)
		if err != nil || got != c.want {
			t.Errorf("ParsesClean(%s, %q) = %v, %v; want %v", c.lang, c.code, got, err, c.want)
		}
	}
	if _, err := ParsesClean("cobol", "x"); err == nil {
		t.Error("ParsesClean(cobol) gave no error")
	}
}
