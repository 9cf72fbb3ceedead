package cpp

import "testing"

func TestContained(t *testing.T) {
	for _, c := range []struct {
		code string
		want bool
	}{
		{"int f(int a[], int n) { return a[n - 1]; }", true},
		// local syntax errors: the brackets close
		{"int f(int x) { for (int i = 0; i < x) x++; return x; }", true},
		{"int f(int x) { int y = x return y; }", true},
		{"int f(int x) { return x +; }\nstruct S { int a; }", true},
		// brackets that do not close, or close the wrong one
		{"int f(int x) { return x; } }", false},
		{"int f(int x) { if (x) { return x; }", false},
		{"int f(int x) { return (x; }", false},
		{"int f(int x) { return a[x); }", false},
		// literals and comments that hide brackets, or do not close
		{`int f() { const char* s = "}{)("; char c = '}'; return s[0] + c; }`, true},
		{`int f() { return '\''; } // } unbalanced in a comment`, true},
		{"int f() { /* } */ return 0; }", true},
		{"int f() { /* never closed\n return 0; }", false},
		{`int f() { const char* s = "never closed; }`, false},
		{"int f() { char c = 'x; }", false},
		{`int f() { auto s = R"x(})x"; return s[0]; }`, true},
		{`int f() { auto s = u8R"(a")"; return 0; }`, true},
		{`int f() { auto s = R"x(}); }`, false},
		{"int f() { return 1'000'000 + 0x1F'FFu + 1e+5; }", true},
		{"int f() { return 0; } // a comment with a splice \\\n }", true},
		// preprocessor
		{"#define MAX 100\n#define SQ(x) ((x) * (x))\nint f() { return SQ(MAX); }", true},
		{"#define BEGIN {\nint f() BEGIN return 0; }", false},
		{"#define LONG_MACRO(a, b) \\\n  ((a) + \\\n   (b))\nint f() { return LONG_MACRO(1, 2); }", true},
		{"#if 1\nint f() { return 0; }\n#endif", true},
		{"#ifdef X\nint f() { return 0; }", false},
		{"#endif\nint f() { return 0; }", false},
		{"#pragma GCC optimize(\"O3\")\nint f() { return 0; }", false},
		{"#line 1 \"x.cpp\"\nint f() { return 0; }", false},
		{"#undef INT_MAX\nint f() { return 0; }", true},
		{"  #  define  N 5\nint f() { return N; }", true},
		// other ways out of the namespace
		{`extern "C" int g(int); int f() { return g(1); }`, false},
		{"int f() { return 0; %>", false},
		{"", true},
	} {
		if got := contained(c.code); got != c.want {
			t.Errorf("contained(%q) = %v, want %v", c.code, got, c.want)
		}
	}
}
