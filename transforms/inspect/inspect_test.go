package inspect

import "testing"

func TestInspectJava(t *testing.T) {
	code := `static int helper(int x) { return x > 0 ? x : -x; }
static int f(int[] a, int n, char c) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    if (a[i] > 0) s += a[i];
    else if (a[i] < -5) s -= 1;
  }
  for (int v : a) { while (v > 10) v /= 2; }
  do { s--; } while (s > 100);
  switch (c) { case 'a': s++; break; case 'b': s--; break; default: break; }
  return helper(s);
}`
	got, err := Inspect("java", code, "f")
	if err != nil {
		t.Fatal(err)
	}
	// conditionals: ternary, if, else-if, 2 cases; loops: for, enhanced for, while, do
	want := Syntax{Arity: 3, Conditionals: 5, Loops: 4}
	if got != want {
		t.Fatalf("got %+v want %+v", got, want)
	}
	h, _ := Inspect("java", code, "helper")
	if h.Arity != 1 {
		t.Fatalf("helper arity %d", h.Arity)
	}
}

func TestInspectCpp(t *testing.T) {
	code := `int f(int a[], vector<int>& v, const string &s, int n) {
  int r = n > 2 ? 1 : 0;
  for (int i = 0; i < n; i++) if (a[i]) r++; else if (a[i] < 0) r--;
  for (auto x : v) r += x;
  while (r > 100) r /= 2;
  do { r++; } while (r < 0);
  switch (n) { case 1: r = 2; break; case 2: case 3: r = 4; break; default: r = 0; }
  return r;
}`
	got, err := Inspect("cpp", code, "f")
	if err != nil {
		t.Fatal(err)
	}
	// conditionals: ternary, if, else-if, cases 1, 2, 3; loops: for, range for, while, do
	want := Syntax{Arity: 4, Conditionals: 6, Loops: 4}
	if got != want {
		t.Fatalf("got %+v want %+v", got, want)
	}
	v, _ := Inspect("cpp", "int g(void) { return 1; }", "g")
	if v.Arity != 0 {
		t.Fatalf("f(void) arity %d", v.Arity)
	}
}

func TestInspectPython(t *testing.T) {
	code := `def f(a, n, k=2):
    xs = [x for x in a if x > k]
    t = 1 if n else 0
    if n > 1:
        t += 1
    elif n < 0:
        t -= 1
    else:
        t = 0
    while t > 10:
        t //= 2
    for i in range(n):
        t += sum(y for y in xs)
    return t
`
	got, err := Inspect("python", code, "f")
	if err != nil {
		t.Fatal(err)
	}
	// conditionals: comprehension if, ternary, if, elif; loops: 2 comprehension fors, while, for
	want := Syntax{Arity: 3, Conditionals: 4, Loops: 4}
	if got != want {
		t.Fatalf("got %+v want %+v", got, want)
	}
	none, _ := Inspect("python", "x = 1\n", "f")
	if none.Arity != -1 {
		t.Fatalf("no function: arity %d", none.Arity)
	}
}
