package java2py

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// pyCase is a Java method plus calls (Python argument lists) and the values Java
// returns for them, written as Python reprs.
type pyCase struct {
	name  string
	java  string
	calls []string // Python argument lists, e.g. "[3, 1, 2], 3"
	want  []string // repr of the expected result
	opts  *Options
	// prelude is Python code run first (stands for methods defined outside the snippet).
	prelude string
}

// runPy executes the translation on each call and returns repr(result) per call.
func runPy(t *testing.T, res Result, calls []string, prelude string) []string {
	t.Helper()
	var b strings.Builder
	b.WriteString(prelude + "\n" + res.Imports + "\n" + res.Code + "\n")
	for _, c := range calls {
		fmt.Fprintf(&b, "print('@@', repr(%s(%s)))\n", res.Entry, c)
	}
	cmd := exec.Command("/usr/bin/python3", "-c", b.String())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python failed: %v\n%s\n--- program ---\n%s", err, out, b.String())
	}
	var got []string
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "@@ "); ok {
			got = append(got, v)
		}
	}
	return got
}

func checkCases(t *testing.T, cases []pyCase) {
	t.Helper()
	if _, err := exec.LookPath("/usr/bin/python3"); err != nil {
		t.Skip("/usr/bin/python3 not available")
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := DefaultOptions
			if c.opts != nil {
				opts = *c.opts
			}
			res, err := TranslateWith(c.java, opts)
			if err != nil {
				t.Fatalf("translate: %v", err)
			}
			got := runPy(t, res, c.calls, c.prelude)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got %v, want %v\n--- python ---\n%s\n%s", got, c.want, res.Imports, res.Code)
			}
		})
	}
}

func TestMethodsAndRecursion(t *testing.T) {
	checkCases(t, []pyCase{
		{name: "recursion", java: `static int fib(int n) { if (n < 2) return n; return fib(n - 1) + fib(n - 2); }`,
			calls: []string{"10", "1"}, want: []string{"55", "1"}},
		{name: "deep recursion", java: `static int depth(int n) { if (n == 0) return 0; return 1 + depth(n - 1); }`,
			calls: []string{"5000"}, want: []string{"5000"}},
		{name: "String.format", java: `static String f(int x, double d) { return String.format("%d:%.2f", x, d) + String.format("ok"); }`,
			calls: []string{"7, 3.14159"}, want: []string{"'7:3.14ok'"}},
		{name: "helper methods, entry is last", java: `
static int sq(int x) { return x * x; }
static boolean isEven(int x) { return x % 2 == 0; }
static int sumSqEven(int a[], int n) {
  int s = 0;
  for (int i = 0; i < n; i++) if (isEven(a[i])) s += sq(a[i]);
  return s;
}`, calls: []string{"[1, 2, 3, 4], 4"}, want: []string{"20"}},
		{name: "overloads by arity", java: `
static int add(int a, int b) { return a + b; }
static int add(int a, int b, int c) { return a + b + c; }
static int f(int x) { return add(x, 1) + add(x, 1, 1); }`, calls: []string{"5"}, want: []string{"13"}},
		{name: "python keyword and builtin names", java: `
static int max(int a, int b) { return a > b ? a : b; }
static int f(int lambda, int len) { int sum = 0, min = max(lambda, len); for (int in = 0; in < min; in++) sum += in; return sum; }`,
			calls: []string{"3, 5"}, want: []string{"10"}},
		{name: "char parameter from int argument", java: `
static boolean isVowel(char c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'; }
static int f(int k) { return isVowel((char) ('a' + k)) ? 1 : 0; }`, calls: []string{"4", "1"}, want: []string{"1", "0"}},
		{name: "imports and a class wrapper with main", java: `import java.util.*;
import java.io.*;
public class Solution {
    static int twice(int x) { return 2 * x; }
    public static int f(int x) { return twice(x) + 1; }
    public static void main(String[] args) { System.out.println(f(3)); }
}`, calls: []string{"3"}, want: []string{"7"}},
		{name: "static field", java: `
static int counter = 5;
static int f(int x) { counter += x; return counter; }`, calls: []string{"2", "3"}, want: []string{"7", "10"}},
	})
}

func TestLocalVariableDeclaration(t *testing.T) {
	checkCases(t, []pyCase{
		{name: "multiple declarators and defaults", java: `static int f(int n) { int a = n, b, c = 2; b = a * c; long d = 3L; return (int) (b + d); }`,
			calls: []string{"4"}, want: []string{"11"}},
		{name: "char from int and int from char", java: `static String f(int k) { char c = 97; int x = 'b'; c += k; return "" + c + x; }`,
			calls: []string{"2"}, want: []string{"'c98'"}},
		{name: "var", java: `static int f(int n) { var x = n * 2; return x + 1; }`, calls: []string{"3"}, want: []string{"7"}},
	})
}

func TestIfStatement(t *testing.T) {
	checkCases(t, []pyCase{
		{name: "else if chain", java: `
static int sign(int x) { if (x > 0) return 1; else if (x < 0) return -1; else { return 0; } }`,
			calls: []string{"5", "-3", "0"}, want: []string{"1", "-1", "0"}},
		{name: "empty branch", java: `static int f(int x) { if (x > 0) { } else x = -x; return x; }`,
			calls: []string{"-4", "4"}, want: []string{"4", "4"}},
	})
}

func TestLoops(t *testing.T) {
	checkCases(t, []pyCase{
		{name: "while", java: `static int digits(int n) { int c = 0; while (n > 0) { n /= 10; c++; } return c; }`,
			calls: []string{"12345", "0"}, want: []string{"5", "0"}},
		{name: "do while with continue", java: `
static int f(int n) { int i = 0, s = 0; do { i++; if (i % 2 == 0) continue; s += i; } while (i < n); return s; }`,
			calls: []string{"5", "0"}, want: []string{"9", "1"}},
		{name: "do while", java: `static int f(int n) { int c = 0; do { c++; n /= 2; } while (n > 0); return c; }`,
			calls: []string{"0", "8"}, want: []string{"1", "4"}},
		{name: "for range forms", java: `
static int f(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += i;
  for (int i = n; i >= 1; i--) s += i;
  for (int i = 0; i <= n; i += 2) s += 100;
  return s;
}`, calls: []string{"4"}, want: []string{"316"}},
		{name: "for with continue and body assignment", java: `
static int f(int n) {
  int s = 0, i;
  for (i = 0; i < n; i++) { if (i == 2) { i++; continue; } s += i; }
  return s * 100 + i;
}`, calls: []string{"6"}, want: []string{"1006"}},
		{name: "for with two variables and no condition", java: `
static int f(int n) { int r = 0; for (int i = 0, j = n; ; i++, j--) { if (i >= j) break; r += j - i; } return r; }`,
			calls: []string{"5"}, want: []string{"9"}},
		{name: "for over chars", java: `static String f(int n) { String s = ""; for (char c = 'a'; c < 'a' + n; c++) s += c; return s; }`,
			calls: []string{"3"}, want: []string{"'abc'"}},
		{name: "outer-declared loop variables", java: `
static int f(int n) { int i, j, s = 0; for (i = 0; i < n; i++) s += i; for (i = 0; i < n; i++) for (j = 0; j < i; j++) s += j; for (j = 0; j < n; j++) s++; return s * 100 + i + j; }`,
			calls: []string{"4", "0"}, want: []string{"1408", "0"}},
		{name: "outer-declared inner loop variables", java: `
static int j_(int x) { return x; }
static int f(int n) { int i, j, s = 0; for (i = 0; i < n; i++) { s += j_(i); for (j = 0; j < i; j++) s += j; } for (i = 0; i < n; i++) { for (j = 0; j < i; j++) s += 1; s += j; } return s; }`,
			calls: []string{"4"}, want: []string{"22"}},
		{name: "bound modified in body", java: `
static int f(int n) { int c = 0; for (int i = 0; i < n; i++) { n--; c++; } return c; }`,
			calls: []string{"10"}, want: []string{"5"}},
		{name: "enhanced for widening chars", java: `static int f(String s) { int t = 0; for (int c : s.toCharArray()) t += c; return t; }`,
			calls: []string{"'ab'"}, want: []string{"195"}},
		{name: "enhanced for and break", java: `
static int f(int a[]) { int s = 0; for (int x : a) { if (x < 0) break; s += x; } return s; }`,
			calls: []string{"[1, 2, -1, 5]"}, want: []string{"3"}},
		{name: "labeled break from nested loops", java: `
static int f(int n) { int c = 0; outer: for (int i = 0; i < n; i++) { int j = 0; while (true) { j++; if (i * j > 6) break outer; if (j > i) continue outer; c++; } } return c; }`,
			calls: []string{"5", "2"}, want: []string{"5", "1"}},
		{name: "labeled continue three levels", java: `
static int f(int n) { int c = 0; a: for (int i = 0; i < n; i++) { b: for (int j = 0; j < n; j++) { for (int k = 0; k < n; k++) { if (k == 1) continue b; if (j == 2) continue a; c++; } } } return c; }`,
			calls: []string{"4"}, want: []string{"8"}},
		{name: "labeled continue", java: `
static int f(int n) { int c = 0; outer: for (int i = 0; i < n; i++) { for (int j = 0; j < n; j++) { if (j > i) continue outer; c++; } } return c; }`,
			calls: []string{"4"}, want: []string{"10"}},
	})
}

func TestSwitch(t *testing.T) {
	checkCases(t, []pyCase{
		{name: "classic switch with grouped labels", java: `
static int f(int x) {
  int r = 0;
  switch (x) {
    case 1: case 2: r = 10; break;
    case 3: { r = 30; break; }
    default: r = -1;
  }
  return r;
}`, calls: []string{"1", "2", "3", "9"}, want: []string{"10", "10", "30", "-1"}},
		{name: "char switch with return", java: `
static int f(char c) { switch (c) { case 'a': return 1; case 'b': return 2; } return 0; }`,
			calls: []string{"'a'", "'b'", "'z'"}, want: []string{"1", "2", "0"}},
		{name: "arrow switch on string", java: `
static int f(String s) { int r; switch (s) { case "x", "y" -> r = 1; case "z" -> { r = 2; } default -> r = 3; } return r; }`,
			calls: []string{"'y'", "'z'", "'q'"}, want: []string{"1", "2", "3"}},
		{name: "nested break and continue inside switch", java: `
static int f(int n) { int r = 0; for (int i = 0; i < n; i++) { switch (i % 4) { case 0: if (r > 3) break; r += 5; break; case 1: if (i > 4) continue; r += 1; break; case 2: while (true) { r += 100; break; } default: r += 1000; } r += 10000; } return r; }`,
			calls: []string{"3", "8"}, want: []string{"31106", "74206"}},
		{name: "fallthrough", java: `
static int f(int n) { int r = 0; switch (n) { case 1: r += 1; case 2: r += 10; break; case 3: r += 100; default: r += 1000; } return r; }`,
			calls: []string{"1", "2", "3", "4"}, want: []string{"11", "10", "1100", "1000"}},
		{name: "switch inside loop with continue", java: `
static int f(int n) { int s = 0; for (int i = 0; i < n; i++) { switch (i % 3) { case 0: continue; case 1: s += 1; break; default: s += 10; } } return s; }`,
			calls: []string{"7"}, want: []string{"22"}},
	})
}

func TestExpressions(t *testing.T) {
	checkCases(t, []pyCase{
		{name: "integer division and remainder truncate", java: `static int f(int a, int b) { return (a / b) * 100 + a % b; }`,
			calls: []string{"-7, 2", "7, -2", "7, 2"}, want: []string{"-301", "-299", "301"}},
		{name: "double division", java: `static double f(int a, int b) { return (double) a / b; }`,
			calls: []string{"7, 2"}, want: []string{"3.5"}},
		{name: "mixed long and double", java: `static double f(long a) { double d = a / 2; return d + a / 2.0; }`,
			calls: []string{"5"}, want: []string{"4.5"}},
		{name: "unsigned shift and bit ops", java: `static int f(int x) { return (x >>> 28) + (x >> 1) + (x & 6) + (x | 1) + (x ^ 3) + ~x + (1 << 4); }`,
			calls: []string{"-1", "5"}, want: []string{"31", "27"}},
		{name: "long unsigned shift", java: `static long f(long x) { return x >>> 60; }`,
			calls: []string{"-1"}, want: []string{"15"}},
		{name: "comparison of comparisons", java: `static boolean f(int a, int b, int c) { return (a < b) == (b < c); }`,
			calls: []string{"1, 2, 3", "1, 3, 2"}, want: []string{"True", "False"}},
		{name: "boolean operators", java: `static boolean f(boolean a, boolean b) { return !a && b || a & !b | (a ^ b) && !(a == b); }`,
			calls: []string{"True, False", "False, False", "False, True"}, want: []string{"True", "False", "True"}},
		{name: "ternary nested", java: `static int f(int x) { return x > 10 ? 2 : x > 5 ? 1 : 0; }`,
			calls: []string{"11", "6", "1"}, want: []string{"2", "1", "0"}},
		{name: "unary minus and precedence", java: `static int f(int a, int b) { return -(a - b) * -a + -b % 3; }`,
			calls: []string{"2, 5"}, want: []string{"-8"}},
		{name: "compound assignment operators", java: `
static int f(int x) { int y = x; y += 3; y -= 1; y *= 4; y /= 3; y %= 5; y <<= 3; y >>= 1; y >>>= 1; y |= 1; y &= 7; y ^= 2; return y; }`,
			calls: []string{"-7", "10"}, want: []string{"5", "1"}},
		{name: "compound int with double", java: `static int f(int x) { x += 2.7; x *= 1.5; return x; }`,
			calls: []string{"1", "-4"}, want: []string{"4", "-1"}},
		{name: "chained assignment", java: `static int f(int n) { int a, b, c; a = b = c = n; int[] arr = new int[2]; arr[0] = arr[1] = 7; return a + b + c + arr[0] + arr[1]; }`,
			calls: []string{"2"}, want: []string{"20"}},
		{name: "increments inside expressions", java: `
static int f(int n) { int[] a = new int[5]; int i = 0; a[i++] = 10; a[i++] = 20; a[++i] = 30; int k = a[1]++ + ++a[0]; return i * 1000 + k + a[1] + i-- - --i; }`,
			calls: []string{"0"}, want: []string{"3054"}},
		{name: "char increments inside expressions", java: `static String f(char c) { char d = c++; char e = ++c; char g = c--; return "" + d + e + g + c + --c; }`,
			calls: []string{"'b'"}, want: []string{"'bddcb'"}},
		{name: "loop bound of type double", java: `static int f(double x) { int c = 0; for (int i = 0; i < x; i++) c++; return c; }`,
			calls: []string{"2.5"}, want: []string{"3"}},
		{name: "augmented assignment to a side-effecting target", java: `static int f(int n) { int[] a = {1, 2, 3}; int i = 0; a[i++] += 10; a[i++] -= 1; return a[0] * 100 + a[1] * 10 + i; }`,
			calls: []string{"0"}, want: []string{"1112"}},
		{name: "assignment inside condition", java: `static int f(int n) { int c = 0, x; while ((x = n / 2) > 0) { n = x; c++; } return c; }`,
			calls: []string{"16"}, want: []string{"4"}},
		{name: "literals", java: `static long f(int k) { int h = 0xFFFFFFFF; int o = 017; long l = 10_000L; float g = 1.5f; return h + o + l + (long) (g * 2) + k; }`,
			calls: []string{"0"}, want: []string{"10017"}},
		{name: "casts", java: `static String f(double d, int i) { return (int) d + "," + (char) (i + 1) + "," + (int) 'a' + "," + (short) 40000 + "," + (byte) 200 + "," + (long) -d; }`,
			calls: []string{"-2.7, 64"}, want: []string{"'-2,A,97,-25536,-56,2'"}},
		{name: "division of unknown-typed values decided at run time", java: `
static int f(int a, int b) { return helper(a) / b + helper(a) % b; }`, prelude: "def helper(x):\n    return x\n",
			calls: []string{"-7, 2"}, want: []string{"-4"}},
		{name: "constants", java: `static long f(int x) { long r = Integer.MAX_VALUE; r += Integer.MIN_VALUE; return r + Long.MAX_VALUE / Long.MIN_VALUE + x; }`,
			calls: []string{"0"}, want: []string{"-1"}},
	})
}

func TestOverflowOption(t *testing.T) {
	wrap := &Options{WrapOverflow: true}
	checkCases(t, []pyCase{
		{name: "int add overflow", opts: wrap, java: `static int f(int x) { return x + 1; }`,
			calls: []string{"2147483647"}, want: []string{"-2147483648"}},
		{name: "hash overflow", opts: wrap, java: `static int f(String s) { int h = 0; for (int i = 0; i < s.length(); i++) h = 31 * h + s.charAt(i); return h; }`,
			calls: []string{"'hello world'"}, want: []string{"1794106052"}},
		{name: "long multiply overflow", opts: wrap, java: `static long f(long x) { x *= x; return x; }`,
			calls: []string{"10000000000"}, want: []string{"7766279631452241920"}},
		{name: "shift overflow", opts: wrap, java: `static int f(int x) { return 1 << x; }`,
			calls: []string{"31"}, want: []string{"-2147483648"}},
		{name: "increment overflow", opts: wrap, java: `static int f(int x) { x++; return x; }`,
			calls: []string{"2147483647"}, want: []string{"-2147483648"}},
		{name: "saturating casts", opts: wrap, java: `static long f(double d) { return (int) d + (long) (d * 1e10) + (int) (d - d * 2); }`,
			calls: []string{"1e10"}, want: []string{"9223372036854775806"}},
		{name: "no wrap by default", java: `static int f(int x) { return x + 1; }`,
			calls: []string{"2147483647"}, want: []string{"2147483648"}},
	})
}

func TestStringsAndChars(t *testing.T) {
	checkCases(t, []pyCase{
		{name: "string methods", java: `
static String f(String s) {
  String t = s.substring(1, 3) + s.substring(2) + s.length() + s.indexOf('l') + s.indexOf("lo") + s.lastIndexOf('l');
  if (s.equals("hello") && s.contains("ell") && s.startsWith("he")) t += "!";
  return t + s.toUpperCase() + s.charAt(0) + s.compareTo("help") + s.trim().isEmpty();
}`, calls: []string{"'hello'"}, want: []string{"'elllo5233!HELLOh-4false'"}},
		{name: "string concatenation conversions", java: `static String f(int x) { return "" + 'a' + 1 + ('a' + 1) + 2.0 + true + x / 2 + 1.5f + null; }`,
			calls: []string{"5"}, want: []string{"'a1982.0true21.5null'"}},
		{name: "double to string like Java", java: `static String f(double x) { return "" + x * 1e10 + " " + x / 10000 + " " + (x + 122.5) + " " + (-x * 1e7) + " " + (x - x); }`,
			calls: []string{"1.0"}, want: []string{"'1.0E10 1.0E-4 123.5 -1.0E7 0.0'"}},
		{name: "char arithmetic", java: `
static int f(String s) { int[] cnt = new int[26]; for (int i = 0; i < s.length(); i++) cnt[s.charAt(i) - 'a']++; int best = 0; for (int i = 0; i < 26; i++) if (cnt[i] > cnt[best]) best = i; return best * 100 + cnt[best]; }`,
			calls: []string{"'banana'"}, want: []string{"3"}},
		{name: "char comparisons and conversion", java: `
static String f(String s) { char[] a = s.toCharArray(); for (int i = 0; i < a.length; i++) { if (a[i] >= 'a' && a[i] <= 'z') a[i] = (char) (a[i] - 32); else if (a[i] == 48) a[i] = 'O'; } return String.valueOf(a) + new String(a).length(); }`,
			calls: []string{"'ab0Z'"}, want: []string{"'ABOZ4'"}},
		{name: "char array index and digits", java: `static int f(String s) { int v = 0; for (char c : s.toCharArray()) if (Character.isDigit(c)) v = v * 10 + (c - '0'); return v; }`,
			calls: []string{"'a1b2c3'"}, want: []string{"123"}},
		{name: "Character methods", java: `
static String f(char c) { return "" + Character.isLetter(c) + Character.isUpperCase(c) + Character.toUpperCase(c) + Character.toLowerCase(c) + Character.isLetterOrDigit(c) + Character.isWhitespace(c) + Character.getNumericValue(c); }`,
			calls: []string{"'q'", "'7'"}, want: []string{"'truefalseQqtruefalse26'", "'falsefalse77truefalse7'"}},
		{name: "split and string switch of words", java: `static int f(String s) { String[] w = s.split(" "); return w.length * 10 + w[1].length(); }`,
			calls: []string{"'ab cde f'"}, want: []string{"33"}},
		{name: "escapes", java: `static String f(int n) { return "a\tb\"c\\" + '\n' + '\'' + "\u0041"; }`,
			calls: []string{"0"}, want: []string{`'a\tb"c\\\n\'A'`}},
		{name: "String.valueOf and parse", java: `static int f(int n) { String s = String.valueOf(n) + Integer.toString(n + 1); return Integer.parseInt(s) + s.length(); }`,
			calls: []string{"12"}, want: []string{"1217"}},
		{name: "char return from int", java: `static char f(int k) { return (char) ('a' + k); }`,
			calls: []string{"2"}, want: []string{"'c'"}},
	})
}

func TestStringBuilder(t *testing.T) {
	checkCases(t, []pyCase{
		{name: "append reverse insert", java: `
static String f(String s) { StringBuilder sb = new StringBuilder(); sb.append(s).append('-').append(42); sb.insert(0, "x"); String r = sb.reverse().toString(); return r + sb.length() + sb.charAt(0); }`,
			calls: []string{"'ab'"}, want: []string{"'24-bax62'"}},
		{name: "StringBuffer from string and setCharAt", java: `static String f(String s) { StringBuffer b = new StringBuffer(s); b.setCharAt(0, 'Z'); b.deleteCharAt(1); return b.toString(); }`,
			calls: []string{"'abc'"}, want: []string{"'Zc'"}},
	})
}

func TestArrays(t *testing.T) {
	checkCases(t, []pyCase{
		{name: "2-D arrays", java: `
static int f(int n, int m) { int[][] g = new int[n][m]; for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) g[i][j] = i * j; int s = 0; for (int[] row : g) for (int v : row) s += v; return s + g.length * 100 + g[0].length; }`,
			calls: []string{"3, 4"}, want: []string{"322"}},
		{name: "initializers and booleans", java: `
static int f(int k) { int[] a = {5, 3, 9}; int b[][] = {{1, 2}, {3, 4}}; boolean[] seen = new boolean[3]; seen[k] = true; return a[k] + b[1][k] + (seen[k] ? 100 : 0) + new int[]{7, 8}[1]; }`,
			calls: []string{"1"}, want: []string{"115"}},
		{name: "Arrays utilities", java: `
static int f(int a[]) { Arrays.sort(a); int[] b = new int[4]; Arrays.fill(b, 2); int[] c = Arrays.copyOfRange(a, 1, 3); List<Integer> l = Arrays.asList(1, 2, 3); return a[0] * 1000 + b[3] * 100 + c[0] * 10 + l.size(); }`,
			calls: []string{"[5, 1, 4]"}, want: []string{"1243"}},
		{name: "sort descending and partial", java: `
static String f(Integer a[]) { Arrays.sort(a, Collections.reverseOrder()); return "" + a[0] + a[a.length - 1]; }`,
			calls: []string{"[2, 9, 4]"}, want: []string{"'92'"}},
		{name: "stream max", java: `static int f(int a[]) { return Arrays.stream(a).max().getAsInt() + Arrays.stream(a).sum(); }`,
			calls: []string{"[2, 9, 4]"}, want: []string{"24"}},
		{name: "dimensions evaluated once, in order", java: `static int f(int n) { int[][] a = new int[n++][n]; return a.length * 10 + a[0].length; }`,
			calls: []string{"2"}, want: []string{"23"}},
		{name: "inclusive bounds", java: `static int f(int j) { int s = 0; for (int k = 1; k <= j - 1; k++) s += k; for (int k = j; k >= j + 1; k--) s += 100; return s; }`,
			calls: []string{"4"}, want: []string{"6"}},
		{name: "3-D and long arrays", java: `static long f(int n) { long[][][] d = new long[n][n][2]; d[n - 1][0][1] = 5L; return d[n - 1][0][1] + d[0][0][0] + d.length; }`,
			calls: []string{"3"}, want: []string{"8"}},
	})
}

func TestCollections(t *testing.T) {
	checkCases(t, []pyCase{
		{name: "ArrayList", java: `
static int f(int n) { ArrayList<Integer> l = new ArrayList<>(); for (int i = 0; i < n; i++) l.add(i * 2); l.remove(0); l.remove(Integer.valueOf(4)); l.add(0, 7); l.set(1, 9); Collections.sort(l); return l.get(0) * 100 + l.size() * 10 + (l.contains(9) ? 1 : 0) + l.indexOf(42); }`,
			calls: []string{"5"}, want: []string{"640"}},
		{name: "HashMap counting", java: `
static int f(int a[], int n) { HashMap<Integer, Integer> m = new HashMap<>(); for (int i = 0; i < n; i++) { if (m.containsKey(a[i])) m.put(a[i], m.get(a[i]) + 1); else m.put(a[i], 1); } int best = 0; for (Map.Entry<Integer, Integer> e : m.entrySet()) best += e.getValue() * e.getKey(); return best + m.getOrDefault(99, 0) + m.size() * 1000; }`,
			calls: []string{"[3, 1, 3, 2, 3], 5"}, want: []string{"3012"}},
		{name: "HashSet", java: `
static int f(int a[]) { Set<Integer> s = new HashSet<>(); int dups = 0; for (int x : a) if (!s.add(x)) dups++; s.remove(1); return dups * 10 + s.size(); }`,
			calls: []string{"[1, 2, 2, 3, 1]"}, want: []string{"22"}},
		{name: "Stack", java: `
static boolean f(String s) { Stack<Character> st = new Stack<>(); for (int i = 0; i < s.length(); i++) { char c = s.charAt(i); if (c == '(') st.push(c); else { if (st.isEmpty()) return false; st.pop(); } } return st.empty(); }`,
			calls: []string{"'(())'", "'())'", "'(('"}, want: []string{"True", "False", "False"}},
		{name: "Queue", java: `
static int f(int n) { Queue<Integer> q = new LinkedList<>(); q.add(1); int s = 0; while (!q.isEmpty() && s < n) { int x = q.poll(); s += x; q.add(x + 1); q.offer(x + 2); } return s * 100 + q.size() + q.peek(); }`,
			calls: []string{"10"}, want: []string{"1310"}},
		{name: "ArrayDeque as stack", java: `
static int f(int n) { Deque<Integer> d = new ArrayDeque<>(); for (int i = 0; i < n; i++) d.push(i); int top = d.pop(); d.addLast(42); return top * 100 + d.peekLast() - 40 + d.peekFirst() * 1000; }`,
			calls: []string{"4"}, want: []string{"2302"}},
		{name: "PriorityQueue min and max", java: `
static int f(int a[]) { PriorityQueue<Integer> mn = new PriorityQueue<>(); Queue<Integer> mx = new PriorityQueue<>(Collections.reverseOrder()); for (int x : a) { mn.add(x); mx.offer(x); } int r = mn.poll() * 100 + mx.poll() * 10; return r + mn.peek() + mx.size(); }`,
			calls: []string{"[4, 1, 7, 3]"}, want: []string{"176"}},
		{name: "subList, arraycopy, qualified names, repeat", java: `
static String f(int a[]) { java.util.List<Integer> l = new java.util.ArrayList<>(); for (int x : a) l.add(x); List<Integer> s = l.subList(1, 3); int[] b = new int[5]; System.arraycopy(a, 0, b, 1, 3); java.util.Arrays.sort(a); return "ab".repeat(2) + s.size() + s.get(0) + b[1] + b[3] + b[4] + a[0]; }`,
			calls: []string{"[4, 1, 7, 3]"}, want: []string{"'abab214701'"}},
		{name: "Pair", java: `
static int f(String s) { ArrayList<Pair> st = new ArrayList<>(); st.add(new Pair('@', -1)); for (int i = 0; i < s.length(); i++) st.add(new Pair(s.charAt(i), i)); Pair<Integer, Integer> p = new Pair<>(3, 4); return st.get(st.size() - 1).second + (st.get(1).first == 'x' ? 100 : 0) + p.getKey() * 10 + p.getValue(); }`,
			calls: []string{"'xyz'"}, want: []string{"136"}},
		{name: "TreeMap ordered", java: `
static int f(int a[]) { TreeMap<Integer, Integer> m = new TreeMap<>(); for (int x : a) m.put(x, x * x); int r = 0; for (int k : m.keySet()) r = r * 10 + k; return r; }`,
			calls: []string{"[3, 1, 2]"}, want: []string{"123"}},
	})
}

func TestMath(t *testing.T) {
	checkCases(t, []pyCase{
		{name: "Math functions", java: `
static double f(double x) { return Math.max(1, 2) + Math.min(x, 3.0) + Math.abs(-x) + Math.pow(2, 3) + Math.sqrt(16) + Math.floor(-x) + Math.ceil(x) + Math.round(x) + Math.log(Math.E) + Math.log10(100); }`,
			calls: []string{"2.5"}, want: []string{"25.0"}},
		{name: "Math.round halves and int casts", java: `static long f(double x) { return Math.round(x) * 10 + (int) Math.sqrt(x * x); }`,
			calls: []string{"-2.5", "2.5"}, want: []string{"-18", "32"}},
		{name: "int max min on chars", java: `static int f(String s) { return Math.max(s.charAt(0), s.charAt(1)) - Math.min('a', s.charAt(1)); }`,
			calls: []string{"'bd'"}, want: []string{"3"}},
		{name: "Integer helpers", java: `static String f(int x) { return Integer.bitCount(x) + Integer.toBinaryString(x) + Integer.max(x, 3); }`,
			calls: []string{"5", "-1"}, want: []string{"'21015'", "'32111111111111111111111111111111113'"}},
	})
}

func TestPrint(t *testing.T) {
	res, err := Translate(`static void show(int n) { for (int i = 0; i < n; i++) System.out.print(i + " "); System.out.println(); System.out.println("done " + (n > 1)); System.out.printf("%d-%d%n", n, n * 2); }`)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("/usr/bin/python3", "-c", res.Imports+"\n"+res.Code+"\n"+res.Entry+"(3)\n").CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if want := "0 1 2 \ndone true\n3-6\n"; string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

func TestUnsupported(t *testing.T) {
	cases := []struct {
		java, construct string
		line            int
	}{
		{"static boolean f(Object o) {\n  return o instanceof String;\n}", "expression instanceof_expression", 2},
		{"static int f(int n) {\n  Random r = new Random();\n  return r.nextInt(n);\n}", "new Random", 2},
		{"static int f(int n) {\n lbl: { if (n > 0) break lbl; }\n return 0;\n}", "labeled block", 2},
		{"static int f(int n) {\n  try { return n; } catch (Exception e) { return 0; }\n}", "statement try_statement", 2},
		{"static int f(int n) {\n  Function<Integer, Integer> g = x -> x + 1;\n  return g.apply(n);\n}", "expression lambda_expression", 2},
		{"static int f(int n) {\n  return n +;\n}", "syntax error (not valid Java)", 2},
		{"", "no method found", 0},
		{"static int f(int a[], int i) {\n  a[i++] /= 2;\n  return i;\n}", "compound assignment /= to a target with side effects", 2},
	}
	for _, c := range cases {
		res, err := Translate(c.java)
		var ue *UnsupportedError
		if !errors.As(err, &ue) {
			t.Errorf("%q: want UnsupportedError, got %v (code %q)", c.java, err, res.Code)
			continue
		}
		if ue.Construct != c.construct || ue.Line != c.line {
			t.Errorf("%q: got %q line %d, want %q line %d", c.java, ue.Construct, ue.Line, c.construct, c.line)
		}
		if res.Code != "" {
			t.Errorf("%q: code returned along with the error", c.java)
		}
		if !strings.Contains(ue.Error(), c.construct) {
			t.Errorf("message %q lacks the construct", ue.Error())
		}
	}
}

func TestDeterminism(t *testing.T) {
	src := `
static int g(int x) { return x / 3 + x % 3; }
static String f(String s, int a[]) { StringBuilder sb = new StringBuilder(); HashMap<Character, Integer> m = new HashMap<>(); for (char c : s.toCharArray()) m.put(c, m.getOrDefault(c, 0) + 1); for (int x : a) sb.append(g(x) >>> 1); Arrays.sort(a); return sb.toString() + m.size() + Math.round(2.5) + s.compareTo("b"); }`
	first, err := Translate(src)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		again, err := Translate(src)
		if err != nil {
			t.Fatal(err)
		}
		if again != first {
			t.Fatalf("translation %d differs:\n%s\n%s\nvs\n%s\n%s", i, first.Imports, first.Code, again.Imports, again.Code)
		}
	}
	if first.Entry != "f" {
		t.Errorf("entry %q, want f", first.Entry)
	}
}

func TestMiscRules(t *testing.T) {
	checkCases(t, []pyCase{
		{name: "null comparisons and binary literal", java: `
static int f(int k) { HashMap<Integer, Integer> m = new HashMap<>(); m.put(1, 0b101); Integer v = m.get(k); if (v == null) return -1; if (v != null) { ; } return v; }`,
			calls: []string{"1", "2"}, want: []string{"5", "-1"}},
		{name: "nested blocks and empty statements", java: `static int f(int x) { { int y = x + 1; ; { x = y * 2; } } ; return x; }`,
			calls: []string{"3"}, want: []string{"8"}},
		{name: "assert", java: `static int f(int x) { assert x >= 0; return x; }`,
			calls: []string{"3"}, want: []string{"3"}},
		{name: "hex, octal and long literals", java: `static long f(int x) { return 0x10 + 010 + 0L + 0xFFFFFFFFL + x; }`,
			calls: []string{"0"}, want: []string{"4294967319"}},
		{name: "throw", java: `static int f(int x) { if (x < 0) throw new IllegalArgumentException("neg"); return x; }`,
			prelude: "", calls: []string{"4"}, want: []string{"4"}},
	})
	res, err := Translate(`static int f(int x) { if (x < 0) throw new IllegalArgumentException("neg"); return x; }`)
	if err != nil {
		t.Fatal(err)
	}
	prog := res.Imports + "\n" + res.Code + "\ntry:\n    f(-1)\n    print('no exception')\nexcept Exception:\n    print('raised')\n"
	out, err := exec.Command("/usr/bin/python3", "-c", prog).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "raised" {
		t.Errorf("throw: got %q (%v)", out, err)
	}
}

func TestConcurrentUse(t *testing.T) {
	srcs := []string{
		`static int f(int a[], int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i] / 2; return s; }`,
		`static String g(String s) { StringBuilder b = new StringBuilder(s); return b.reverse().toString() + s.charAt(0); }`,
		`static boolean h(int x) { switch (x) { case 1: return true; default: return x % 7 == 3; } }`,
	}
	want := make([]Result, len(srcs))
	for i, s := range srcs {
		r, err := Translate(s)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = r
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for k := 0; k < 30; k++ {
				i := (g + k) % len(srcs)
				r, err := Translate(srcs[i])
				if err != nil || r != want[i] {
					errs <- fmt.Sprintf("goroutine %d: %v", g, err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
