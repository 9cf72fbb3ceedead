package corpus

import (
	"fmt"
	"testing"
)

func TestJavaType(t *testing.T) {
	ok := map[string]string{
		"int": "int", "long": "long", "float": "float", "double": "double", "boolean": "bool",
		"char": "char", "String": "string", "Integer": "int", "Long": "long", "Boolean": "bool",
		"Character": "char", "Double": "double", "int [ ]": "int[]", "int[]": "int[]",
		"int [ ] [ ]": "int[][]", "Integer[]": "int[]", "String [ ]": "string[]", "char [ ]": "char[]",
		"void": "void", "StringBuffer": "string", "List<Integer>": "int[]", "ArrayList<String>": "string[]",
		"java.lang.String": "string", "List<int[]>": "int[][]",
		"int [ ] [ ] [ ]": "int[][][]", "List<int[][]>": "int[][][]", "long[][][]": "long[][][]",
	}
	for in, want := range ok {
		got, err := JavaType(in)
		if err != nil || got != want {
			t.Errorf("JavaType(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"Pair", "int[][][][]", "List<int[][][]>", "Map<Integer,Integer>", "Node", "List<Pair>"} {
		if got, err := JavaType(in); err == nil {
			t.Errorf("JavaType(%q) = %q, want an error", in, got)
		}
	}
}

func TestCppType(t *testing.T) {
	ok := map[string]string{
		"int": "int", "long long": "long", "long long int": "long", "long": "long",
		"unsigned int": "int", "unsigned": "int", "unsigned long long": "long", "float": "float",
		"double": "double", "bool": "bool", "char": "char", "string": "string", "std::string": "string",
		"char *": "string", "const char*": "string", "string &": "string", "const string&": "string",
		"int*": "int[]", "vector<int>": "int[]", "vector < int > &": "int[]", "vector<vector<int>>": "int[][]",
		"vector<string>": "string[]", "void": "void", "long double": "double",
		"vector<vector<vector<int>>>": "int[][][]", "vector<vector<string>>": "string[][]",
		"vector<vector<int>>*": "int[][][]",
	}
	for in, want := range ok {
		got, err := CppType(in)
		if err != nil || got != want {
			t.Errorf("CppType(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"pair<int,int>", "Node*", "map<int,int>", "vector<vector<vector<vector<int>>>>", "vector<vector<vector<int>>>*"} {
		if got, err := CppType(in); err == nil {
			t.Errorf("CppType(%q) = %q, want an error", in, got)
		}
	}
}

func sigString(s Signature) string {
	out := s.Name + "("
	for i, p := range s.Params {
		if i > 0 {
			out += ","
		}
		out += p.Name + " " + p.Type
	}
	return out + ") " + s.Returns
}

func TestParseJavaSignature(t *testing.T) {
	script := `import java.util.*;
public class X{
static int helper ( int a ) { return a; }
public static void f_gold ( int arr [ ] , int [ ] b, int m [ ] [ ] , final String s , char c , Integer xs[], long... rest ) {
  f_gold ( arr , b , m , s , c , xs ) ;
}
public static void main(String args[]) {
    if(f_filled(param0.get(i)) == f_gold(param0.get(i))) {}
}
}`
	s, err := ParseJavaSignature(script, "f_gold")
	if err != nil {
		t.Fatal(err)
	}
	want := "f_gold(arr int[],b int[],m int[][],s string,c char,xs int[],rest long[]) void"
	if got := sigString(s); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if s.Decl != "public static void f_gold ( int arr [ ] , int [ ] b, int m [ ] [ ] , final String s , char c , Integer xs[], long... rest )" {
		t.Errorf("decl %q", s.Decl)
	}
	// no name: the last top-level method of gold code
	g, err := ParseJavaSignature("static boolean check ( String str ) {\n  int n = str . length ( ) ;\n  return n > 0 ;\n}", "")
	if err != nil || sigString(g) != "check(str string) bool" {
		t.Errorf("gold: %s %v", sigString(g), err)
	}
	if _, err := ParseJavaSignature("static int f ( Pair p ) { return 0; }", ""); err == nil {
		t.Error("Pair parameter: want an error")
	}
}

func TestParseCppSignature(t *testing.T) {
	code := "long long int f_gold ( int arr [ ], unsigned int n, char * str, const string & s, vector < int > & v, int m [ ] [ MAX ], vector<vector<int>> &g ) {\n  return f_gold ( arr, n ) ;\n}"
	s, err := ParseCppSignature(code, "f_gold")
	if err != nil {
		t.Fatal(err)
	}
	want := "f_gold(arr int[],n int,str string,s string,v int[],m int[][],g int[][]) long"
	if got := sigString(s); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	// TransCoder-test's MINIMUM_COST_MAKE_LONGEST_COMMON_SUBSEQUENCE_LENGTH_K
	s3, err := ParseCppSignature("int solve ( char X [ ], char Y [ ], int l, int r, int k, int dp [ ] [ N ] [ N ] ) { return 0; }", "")
	if err != nil || sigString(s3) != "solve(X char[],Y char[],l int,r int,k int,dp int[][][]) int" {
		t.Errorf("3-D array: %s %v", sigString(s3), err)
	}
	if _, err := ParseCppSignature("int solve ( int dp [ ] [ N ] [ N ] [ N ] ) { return 0; }", ""); err == nil {
		t.Error("4-D array: want an error")
	}
}

func TestDescribeFunction(t *testing.T) {
	cases := []struct {
		lang, code, entry, name, decl string
		fail                          bool
	}{
		{"python", "def helper(x):\n    return x\n\ndef main_fn ( a , b ) :\n    return helper(a)", "", "main_fn", "def main_fn ( a , b ) :", false},
		{"python", "def helper(x):\n    return x\n\ndef main_fn(a):\n    return a", "helper", "helper", "def helper(x):", false},
		{"python", "def f(x):\n    def inner(y):\n        return y\n    return inner(x)", "inner", "", "", true},
		{"java", "static int gcd ( int a , int b ) {\n  if ( a == 0 ) return b ;\n  return gcd ( b % a , a ) ;\n}", "", "gcd", "static int gcd ( int a , int b )", false},
		{"cpp", "int add(int a, int b) {\n  return a + b;\n}\nint twice(int a) {\n  return add(a, a);\n}", "", "twice", "int twice(int a)", false},
		{"cpp", "int add(int a, int b) { return a + b; }", "sub", "", "", true},
		{"ruby", "def f; end", "", "", "", true},
	}
	for i, c := range cases {
		name, decl, err := DescribeFunction(c.lang, c.code, c.entry)
		if c.fail {
			if err == nil {
				t.Errorf("case %d: want an error, got %s", i, name)
			}
			continue
		}
		if err != nil || name != c.name || decl != c.decl {
			t.Errorf("case %d: got %q %q %v; want %q %q", i, name, decl, err, c.name, c.decl)
		}
	}
}

func ExampleParseJavaSignature() {
	s, _ := ParseJavaSignature("static int winner ( int a [ ] , int n , int k ) {\n  return n ;\n}", "")
	fmt.Println(s.Name, s.Params, s.Returns)
	// Output: winner [{a int[]} {n int} {k int}] int
}

// Identifiers are Unicode: a Java, C++ or Python function whose names are not
// ASCII is found, with its parameters.
func TestNonASCIIIdentifiers(t *testing.T) {
	for _, tc := range []struct{ lang, code, name string }{
		{"java", "static int größe(int länge) {\n    return länge * 2;\n}", "größe"},
		{"java", "static int helper$1(int x) { return x; }\nstatic long 計算(long 値) {\n    return helper$1((int) 値);\n}", "計算"},
		{"cpp", "int größe(int länge) {\n    return länge * 2;\n}", "größe"},
		{"python", "def größe(länge):\n    return länge * 2", "größe"},
	} {
		name, _, err := DescribeFunction(tc.lang, tc.code, "")
		if err != nil || name != tc.name {
			t.Errorf("%s %q: %q %v, want %s", tc.lang, tc.code, name, err, tc.name)
		}
	}
	sig, err := ParseJavaSignature("static int größe(int länge, char[] zeichen) { return länge; }", "größe")
	if err != nil || len(sig.Params) != 2 || sig.Params[0].Name != "länge" || sig.Params[1].Type != "char[]" {
		t.Errorf("ParseJavaSignature: %+v %v", sig, err)
	}
}
