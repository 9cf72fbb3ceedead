package consistency

import (
	"strings"
	"testing"
)

func testTable(t *testing.T) *Table {
	t.Helper()
	tb, err := DefaultTable()
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// A small table whose groups the tests choose.
func handTable() *Table {
	t := &Table{MinCount: 1, Roles: map[Role][]NameCount{
		RoleArray:  {{"arr", 9}, {"nums", 5}, {"a", 4}},
		RoleBound:  {{"n", 9}, {"size", 3}, {"len", 2}},
		RoleIndex:  {{"i", 9}, {"j", 5}, {"idx", 2}},
		RoleResult: {{"res", 5}, {"ans", 3}},
	}}
	t.index()
	return t
}

var sumFuncs = map[string]string{
	"java":   "static int f ( int arr [ ] , int n ) {\n  int res = 0 ;\n  for ( int i = 0 ; i < n ; i ++ ) res += arr [ i ] * 3 ;\n  return res ;\n}",
	"python": "def f ( arr , n ) :\n    res = 0\n    for i in range ( n ) :\n        res += arr [ i ] * 3\n    return res",
	"cpp":    "int f ( int arr [ ] , int n ) {\n  int res = 0;\n  for ( int i = 0; i < n; i ++ ) res += arr [ i ] * 3;\n  return res;\n}",
}

func TestRolesPerLanguage(t *testing.T) {
	for lang, code := range sumFuncs {
		p, err := parse(lang, code)
		if err != nil {
			t.Fatal(err)
		}
		got := declaredRoles(p)
		want := map[string]Role{"arr": RoleArray, "n": RoleBound, "i": RoleIndex, "res": RoleResult}
		for name, r := range want {
			if got[name] != r {
				t.Errorf("%s: role of %s = %q, want %q (all %v)", lang, name, got[name], r, got)
			}
		}
		if _, ok := got["f"]; ok {
			t.Errorf("%s: the function's own name got a role", lang)
		}
	}
}

func TestIdentifierVariantsPerLanguage(t *testing.T) {
	tb := handTable()
	for lang, code := range sumFuncs {
		vs, _, err := Generate(lang, code, "", "f", tb, Options{MaxIdentifiers: 10, PerName: 1})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, v := range vs {
			if v.Kind != KindIdentifier {
				t.Fatalf("%s: kind %s", lang, v.Kind)
			}
			got[v.Old] = v.New
		}
		// len is reserved (Python's builtin): n takes size.
		want := map[string]string{"arr": "nums", "n": "size", "i": "j", "res": "ans"}
		for o, n := range want {
			if got[o] != n {
				t.Errorf("%s: %s -> %q, want %q", lang, o, got[o], n)
			}
		}
		for _, v := range vs {
			if v.Old == "arr" {
				if strings.Contains(v.Code, "arr") || strings.Count(v.Code, "nums") != 2 {
					t.Errorf("%s: arr->nums variant:\n%s", lang, v.Code)
				}
				if v.Line != 1 || len(v.Starts) != 2 {
					t.Errorf("%s: line %d starts %v", lang, v.Line, v.Starts)
				}
			}
		}
	}
}

func TestLiteralVariantsPerLanguage(t *testing.T) {
	for lang, code := range sumFuncs {
		vs, _, err := Generate(lang, code, "", "f", handTable(), Options{MaxLiterals: 5})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, v := range vs {
			got = append(got, v.Old+"->"+v.New)
		}
		// Literals in order: the 0 of res, the 0 of the loop (not in Python), the 3.
		want := "0->1 0->1 3->4"
		if lang == "python" {
			want = "0->1 3->4"
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: literal variants %v, want %s", lang, got, want)
		}
		last := vs[len(vs)-1]
		if !strings.Contains(last.Code, "* 4") || strings.Contains(last.Code, "* 3") {
			t.Errorf("%s: %s", lang, last.Code)
		}
	}
	// A suffix stays.
	vs, _, err := Generate("java", "static long g ( ) {\n  return 10L ;\n}", "", "g", handTable(), Options{MaxLiterals: 1})
	if err != nil || len(vs) != 1 || vs[0].New != "11L" {
		t.Fatalf("10L: %+v %v", vs, err)
	}
}

func TestRenameRefusals(t *testing.T) {
	cases := []struct {
		lang, code, ctx, old, nw string
		want                     RefusalReason
	}{
		// The new name is already a local: the rename would capture it.
		{"java", "static int f ( int a , int b ) {\n  return a + b ;\n}", "", "a", "b", RefuseCaptures},
		// The new name is a field / method used in the function.
		{"java", "static int f ( int [ ] a ) {\n  return a . length ;\n}", "", "a", "length", RefuseCaptures},
		// Keyword or builtin in some language (len in Python, int everywhere, vector in C++).
		{"java", "static int f ( int n ) {\n  return n ;\n}", "", "n", "len", RefuseReserved},
		{"python", "def f ( n ) :\n    return n", "", "n", "vector", RefuseReserved},
		{"cpp", "int f ( int n ) {\n  return n;\n}", "", "n", "print", RefuseReserved},
		// The new name occurs in the imports around the function (shadowing a module).
		{"python", "def f ( n ) :\n    return n * 2", "import heapq", "n", "heapq", RefuseCaptures},
		// The old name is also a method name (obj.n()): not a plain variable.
		{"java", "static int f ( Foo n ) {\n  return n . n ( ) ;\n}", "", "n", "size", RefuseMember},
		// Python global.
		{"python", "def f ( ) :\n    global n\n    n = 1\n    return n", "", "n", "size", RefuseScoped},
		// Not an identifier.
		{"cpp", "int f ( int n ) {\n  return n;\n}", "", "n", "2x", RefuseNotIdent},
	}
	for _, c := range cases {
		_, got := Rename(c.lang, c.code, c.ctx, c.old, c.nw)
		if got != c.want {
			t.Errorf("%s %s->%s: %q, want %q", c.lang, c.old, c.nw, got, c.want)
		}
	}
	// A refused name is skipped for the next similar one, and listed.
	tb := handTable()
	code := "static int f ( int arr [ ] , int nums ) {\n  return arr [ nums ] ;\n}"
	vs, refused, err := Generate("java", code, "", "f", tb, Options{MaxIdentifiers: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) == 0 || vs[0].Old != "arr" || vs[0].New != "a" {
		t.Fatalf("arr with nums taken: %+v", vs)
	}
	if len(refused) == 0 || refused[0].New != "nums" || refused[0].Reason != RefuseCaptures {
		t.Fatalf("refusals %+v", refused)
	}
}

func TestGenerateRejectsBrokenCode(t *testing.T) {
	if _, _, err := Generate("java", "static int f ( int n { return n ; }", "", "f", handTable(), DefaultOptions); err == nil {
		t.Fatal("a function that does not parse got variants")
	}
	if _, _, err := Generate("cobol", "x", "", "f", handTable(), DefaultOptions); err == nil {
		t.Fatal("unknown language accepted")
	}
}

// The shipped table has the groups the corpora's names suggest.
func TestShippedTableGroups(t *testing.T) {
	tb := testTable(t)
	for _, c := range []struct {
		name string
		role Role
		want string
	}{{"arr", RoleArray, "a"}, {"n", RoleBound, "m"}, {"i", RoleIndex, "j"}, {"res", RoleResult, "result"}} {
		sim := tb.Similar(c.name, c.role)
		found := false
		for _, s := range sim {
			found = found || s == c.want
		}
		if !found {
			t.Errorf("%s (%s) similar %v, want %s among them", c.name, c.role, sim, c.want)
		}
	}
	for _, r := range Roles {
		for _, nc := range tb.Roles[r] {
			if Reserved(nc.Name) {
				t.Errorf("reserved name %s in the table", nc.Name)
			}
		}
	}
}
