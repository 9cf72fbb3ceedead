package cpp

import (
	"reflect"
	"testing"
)

func TestGoldCallTypes(t *testing.T) {
	for _, c := range []struct {
		decl string
		want []string
	}{
		{"int f_gold ( int arr [ ], int n )", []string{"int*", "int"}},
		{"double f_gold ( vector < int > & A , int K )", []string{"vector<int>&", "int"}},
		{"bool f_gold ( const string & s, char c )", []string{"string", "char"}}, // a non-const lvalue, as the scripts pass it
		{"int f_gold ( const vector < vector < int > > & grid )", []string{"vector<vector<int>>"}},
		{"int f_gold ( const int * a, int n )", []string{"const int*", "int"}},
		{"long long int f_gold ( long long int n, unsigned int k )", []string{"long long int", "unsigned int"}},
		{"int f_gold ( char str [ 100 ], std::vector<std::vector<int>> m )", []string{"char*", "std::vector<std::vector<int>>"}},
		{"void f_gold ( char * s, float x = 1.5 )", []string{"char*", "float"}},
		{"int f_gold ( int mat [ ] [ N ], int n )", []string{"", "int"}}, // 2-D: adapt
		{"ll f_gold ( ll n, pair<int, int> p, unsigned )", []string{"", "", "unsigned"}},
		{"int f_gold ( )", []string{}},
		{"int f_gold ( void )", []string{}},
		{"int f_gold", nil},
	} {
		if got := GoldCallTypes(c.decl); !reflect.DeepEqual(got, c.want) {
			t.Errorf("GoldCallTypes(%q) = %q, want %q", c.decl, got, c.want)
		}
	}
}
