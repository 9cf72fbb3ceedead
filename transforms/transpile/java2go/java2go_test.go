package java2go

import (
	"strings"
	"testing"
)

func TestTranslateShapes(t *testing.T) {
	for _, c := range []struct{ java, want string }{
		{"static int f(int a, int b) { return a + b; }", "func f(a int, b int) int {\n\treturn a + b\n\tpanic(\"unreachable\")\n}"},
		{"static long f(int a) { long s = 0; for (int i = 0; i < a; i++) s += i; return s; }", "s = s + int(i)"},
		{"static double f(int a) { return a / 2; }", "return float64(a / 2)"},
		{"static int f(int x) { return x >>> 1; }", "int(uint32(x) >> (1 & 31))"},
		{"static boolean f(String s) { return s.charAt(0) == 'a'; }", "func f(s_b []byte) bool {\n\tvar s string = string(s_b)\n\treturn int(s[0]) == int('a')"},
		{"static int f(int[] a, int n) { int m = a.length > n ? n : a.length; return m; }", "func() int {"},
		{"static int f(int n) { int[][] dp = new int[n][n + 1]; return dp[0][0]; }", "make([][]int, n)"},
	} {
		r, err := Translate(c.java)
		if err != nil {
			t.Errorf("%s: %v", c.java, err)
			continue
		}
		if !strings.Contains(r.Code, c.want) {
			t.Errorf("%s:\n%s\nwant it to contain %q", c.java, r.Code, c.want)
		}
	}
}
