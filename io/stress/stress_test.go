package stress

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gocloud.dev/blob/memblob"

	"transmute/internal/testenv"
	"transmute/io/corpus"
	"transmute/schemas"
	"transmute/transforms/values"
)

const pySuite = `# header
def start():
    # TEST_SUITE_FILL
    try:
        total_test_case_num += 1
        arr_full = [3, -1, 2]
        n_full = 3
        output_1 = F_FULL(arr_full, n_full)
        arr_gold = [3, -1, 2]
        output_2 = f_gold(arr_gold, n_gold)
    except Exception as e:
        print(f'|EXCEPTION| test_id=7 | error {e}')

    try:
        s_ignored = 1
        n_full = 0
        arr_full = []
        output_1 = F_FULL(arr_full, n_full)
    except Exception as e:
        print(f'|EXCEPTION| test_id=2 | error {e}')
`

const cppSuite = `//TEST_SUITE_FILL
        try {
            int arr_full_7[3] = {3, -1, 2};
            int n_full_7 = 3 ;
            auto output_1_7 = F_FULL(arr_full_7, n_full_7);
        } catch (exception& e) {}
        try {
            std::vector<int> arr_full_2 = {};
            int n_full_2 = 0 ;
            F_FULL (arr_full_2, n_full_2);
        } catch (exception& e) {}
`

const javaSuite = `    //TEST_SUITE_FILL
        try {
            int[] arr_full_7; arr_full_7 = readIntArray ( "../P/test_7/param_idx_0.txt" ) ;
            int n_full_7; n_full_7 = readInt ( "../P/test_7/param_idx_1.txt" ) ;
            Object output_1_7 = F_FULL(arr_full_7, n_full_7);
        } catch (Exception e) {}
        try {
            int[] arr_full_2; arr_full_2 = readIntArray ( "../P/test_2/param_idx_0.txt" ) ;
            int n_full_2; n_full_2 = readInt ( "../P/test_2/param_idx_1.txt" ) ;
            Object output_1_2 = F_FULL(arr_full_2, n_full_2);
        } catch (Exception e) {}
`

func TestLoadSyntheticAllLanguages(t *testing.T) {
	ctx := context.Background()
	b := memblob.OpenBucket(nil)
	defer b.Close()
	put := func(k, v string) {
		if err := b.WriteAll(ctx, k, []byte(v), nil); err != nil {
			t.Fatal(err)
		}
	}
	put("T/python/P/P.py", pySuite)
	put("T/cpp/P/P.cpp", cppSuite)
	put("T/java/P/MAIN.java", javaSuite)
	put("T/java/P/test_7/param_idx_0.txt", "3\n-1\r\n2\n")
	put("T/java/P/test_7/param_idx_1.txt", "3\n")
	put("T/java/P/test_2/param_idx_0.txt", "")
	put("T/java/P/test_2/param_idx_1.txt", " 0 \n")
	params := []schemas.Param{{Name: "arr", Type: "int[]"}, {Name: "n", Type: "int"}}
	want := []schemas.Test{{Index: 2, Args: "[[],0]"}, {Index: 7, Args: "[[3,-1,2],3]"}}
	// TRACE's three languages: its stress suites come in these formats only.
	for _, lang := range []string{schemas.Java, schemas.Python, schemas.Cpp} {
		got, err := Load(ctx, b, "T", lang, "P", params)
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: got %v, want %v", lang, got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s test %d: got %+v, want %+v", lang, i, got[i], want[i])
			}
		}
	}
	// A C++ char array passed for a string parameter is read as the string.
	put("T/cpp/S/S.cpp", "//TEST_SUITE_FILL\n try {\n  char s_full_5 [] = {'a', 'b'} ;\n  char c_full_5 = 'x' ;\n  auto output_1_5 = F_FULL(s_full_5, c_full_5);\n } catch (exception& e) {}\n")
	got, err := Load(ctx, b, "T", "cpp", "S", []schemas.Param{{Name: "s", Type: "string"}, {Name: "c", Type: "char"}})
	if err != nil || len(got) != 1 || got[0].Args != `["ab","x"]` || got[0].Index != 5 {
		t.Errorf("char array as string: %v %v", got, err)
	}
	// wrong arity and wrong types are errors, not panics
	if _, err := Load(ctx, b, "T", "python", "P", params[:1]); err == nil || !strings.Contains(err.Error(), "2 arguments for 1") {
		t.Errorf("arity mismatch: got %v", err)
	}
	if _, err := Load(ctx, b, "T", "cpp", "P", []schemas.Param{{Name: "a", Type: "string"}, {Name: "n", Type: "int"}}); err == nil {
		t.Errorf("type mismatch accepted")
	}
	if _, err := Load(ctx, b, "T", "cpp", "MISSING", params); err == nil {
		t.Errorf("missing suite accepted")
	}
}

func TestJavaReaders(t *testing.T) {
	cases := []struct{ fn, text, typ, want string }{
		{"readLong", "-9000000000\n", "long", "-9000000000"},
		{"readDouble", "2.5\n", "double", "2.5"},
		{"readString", "a b \n", "string", `"a b "`},
		{"readCharArray", "ab\ncd\n", "char[]", `["a","b","c","d"]`},
		{"readStringArray", " x \ny\n", "string[]", `["x","y"]`},
		{"readInt2DArray", "1 2\n3  4\n", "int[][]", "[[1,2],[3,4]]"},
		{"readBoolean2DArray", "true false\n", "bool[][]", "[[true,false]]"},
		{"readInt3DArray", "\n1 2\n3  4\n\n\n-5\n\n6 7 8\n\n", "int[][][]", "[[[1,2],[3,4]],[[-5]],[[6,7,8]]]"},
		{"readInt3DArray", "", "int[][][]", "[]"},
	}
	for _, c := range cases {
		v, err := javaRead(c.fn, c.text)
		if err != nil {
			t.Fatalf("%s: %v", c.fn, err)
		}
		raw, _ := jsonMarshal([]any{v})
		got, err := values.CanonicalArgs([]values.Type{values.MustParseType(c.typ)}, raw)
		if err != nil {
			t.Fatalf("%s: %v", c.fn, err)
		}
		if got != "["+c.want+"]" {
			t.Errorf("%s: got %s, want [%s]", c.fn, got, c.want)
		}
	}
	if _, err := javaRead("readInt", "x1\n"); err == nil {
		t.Errorf("bad int accepted")
	}
	if _, err := javaRead("readInt3DArray", "1 x\n"); err == nil {
		t.Errorf("bad int in a 3-D array accepted")
	}
	if _, err := javaRead("readLong3DArray", "1\n"); err == nil {
		t.Errorf("unknown reader accepted")
	}
}

// TestSharedTrace ingests every stress suite of the shared TRACE corpus.
func TestSharedTrace(t *testing.T) {
	root := testenv.SharedCorpora(t, "trace/Trace_Tests")
	ctx := context.Background()
	tc, err := corpus.Load(ctx, "transcoder:"+filepath.Join(root, "transcoder-test"))
	if err != nil {
		t.Fatal(err)
	}
	problems := map[string]schemas.Problem{}
	for _, p := range tc.Problems {
		problems[p.ID] = p
	}
	tests, errs := LoadAll(ctx, filepath.Join(root, "trace", "Trace_Tests"), problems)
	suites := map[string]int{}
	ntests := map[string]int{}
	for id, byLang := range tests {
		for lang, ts := range byLang {
			suites[lang]++
			ntests[lang] += len(ts)
			p := problems[id]
			types := make([]values.Type, len(p.Params))
			for i, pp := range p.Params {
				types[i] = values.MustParseType(pp.Type)
			}
			for _, x := range ts {
				// arity and types agree: the args are already canonical for the params
				if c, err := values.CanonicalArgs(types, x.Args); err != nil || c != x.Args {
					t.Errorf("%s/%s test %d: not canonical (%v)", lang, id, x.Index, err)
				}
			}
		}
	}
	total := 0
	for _, lang := range schemas.Languages {
		dirs, _ := os.ReadDir(filepath.Join(root, "trace", "Trace_Tests", lang))
		total += len(dirs)
		t.Logf("%s: %d/%d suites ingested, %d stress tests", lang, suites[lang], len(dirs), ntests[lang])
	}
	for _, e := range errs {
		if e.Stage != Stage || e.Reason == "" {
			t.Errorf("bad error row %+v", e)
		}
		t.Logf("not ingested: %s/%s: %s: %s", e.Lang, e.ProblemID, e.Reason, e.Detail)
	}
	ok := suites["python"] + suites["java"] + suites["cpp"]
	if ok+len(errs) != total {
		t.Errorf("%d suites ingested + %d errors != %d suites", ok, len(errs), total)
	}
	if ok < total*8/10 {
		t.Errorf("only %d of %d suites ingested", ok, total)
	}
	// The same stress test read from two languages' suites has the same values.
	compared, agree := 0, 0
	ids := make([]string, 0, len(tests))
	for id := range tests {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		byLang := tests[id]
		for _, pair := range [][2]string{{"python", "java"}, {"java", "cpp"}, {"python", "cpp"}} {
			a, b := byLang[pair[0]], byLang[pair[1]]
			if a == nil || b == nil {
				continue
			}
			bi := map[int32]string{}
			for _, x := range b {
				bi[x.Index] = x.Args
			}
			for _, x := range a {
				if y, ok := bi[x.Index]; ok {
					compared++
					if equalArgs(problems[id], x.Args, y) {
						agree++
					} else {
						t.Logf("%s test %d differs between %s and %s: %.80s vs %.80s", id, x.Index, pair[0], pair[1], x.Args, y)
					}
				}
			}
		}
	}
	t.Logf("cross-language: %d shared stress tests compared, %d identical", compared, agree)
	if compared < 20 {
		t.Errorf("only %d stress tests shared between languages", compared)
	}
	if agree < compared*9/10 {
		t.Errorf("only %d of %d shared stress tests agree across languages", agree, compared)
	}
}

// equalArgs compares two canonical argument arrays, floats with a tolerance.
func equalArgs(p schemas.Problem, a, b string) bool {
	if a == b {
		return true
	}
	var x, y []jsonRaw
	if jsonUnmarshal(a, &x) != nil || jsonUnmarshal(b, &y) != nil || len(x) != len(y) || len(x) != len(p.Params) {
		return false
	}
	for i := range x {
		if !values.Equal(values.MustParseType(p.Params[i].Type), string(x[i]), string(y[i]), values.Tolerance{Abs: 1e-6, Rel: 1e-6}) {
			return false
		}
	}
	return true
}

type jsonRaw = json.RawMessage

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

func jsonMarshal(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}
