package metamorph

import "transmute/schemas"

// cBody is the fixtures' function body in Java and C++, where it is the same text.
const cBody = `{
  int s = 0;
  for (int i = 0; i < n; i++) {
    s += i * k;
  }
  if (s > 10) {
    s = s - 1;
  }
  return s;
}`

// The same function in the three languages: a for-loop without a conditional, an
// if, and two int parameters.
var fixtures = map[string]Function{
	"java": {Lang: "java", Entry: "f", Code: "static int f(int n, int k) " + cBody},
	"cpp":  {Lang: "cpp", Entry: "f", Code: "int f(int n, int k) " + cBody},
	"python": {Lang: "python", Entry: "f", Code: `def f(n, k):
    s = 0
    for i in range(n):
        s += i * k
    if s > 10:
        s = s - 1
    return s`},
}

// partners are second functions for merge: a loop-free function with a conditional.
var partners = map[string]Function{
	"java":   {Lang: "java", Entry: "g", Code: "static int g(int a) {\n  if (a % 2 == 0) return a / 2;\n  return 3 * a + 1;\n}"},
	"cpp":    {Lang: "cpp", Entry: "g", Code: "int g(int a) {\n  if (a % 2 == 0) return a / 2;\n  return 3 * a + 1;\n}"},
	"python": {Lang: "python", Entry: "g", Code: "def g(a):\n    if a % 2 == 0:\n        return a // 2\n    return 3 * a + 1"},
}

var fixtureTests = []schemas.Test{{Index: 0, Args: "[3,2]"}, {Index: 1, Args: "[5,1]"}, {Index: 2, Args: "[0,4]"}, {Index: 3, Args: "[10,-1]"}}

func fixture(lang string) Function {
	f := fixtures[lang]
	f.Params = []schemas.Param{{Name: "n", Type: "int"}, {Name: "k", Type: "int"}}
	f.Returns = "int"
	f.Tests = fixtureTests
	return f
}

func partner(lang string) Function {
	f := partners[lang]
	f.Params = []schemas.Param{{Name: "a", Type: "int"}}
	f.Returns = "int"
	f.Tests = []schemas.Test{{Index: 0, Args: "[6]"}, {Index: 1, Args: "[7]"}}
	return f
}
