package similarity

import (
	"math"
	"strings"
	"testing"
)

func mustPrepare(t *testing.T, lang, code string) *Prepared {
	t.Helper()
	p, err := Prepare(lang, code, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The same function in the three languages, and a translation of it that renames
// the variables and uses a compound assignment: hand-checked values.
func TestMetricsPerLanguage(t *testing.T) {
	for _, c := range []struct {
		lang, ref, hyp string
		tokens         int
	}{
		{"java", "static int f ( int x ) {\n  int m = 1 ;\n  return x + m ;\n}", "static int f(int y) {\n  int k = 1;\n  return y + k;\n}", 19},
		{"cpp", "int f ( int x ) {\n  int m = 1;\n  return x + m;\n}", "int f(int y) {\n  int k = 1;\n  return y + k;\n}", 18},
		{"python", "def f ( x ) :\n    m = 1\n    return x + m", "def f(y):\n    k = 1\n    return y + k", 13},
	} {
		r, h := mustPrepare(t, c.lang, c.ref), mustPrepare(t, c.lang, c.hyp)
		if len(r.Hashes) != c.tokens || len(h.Hashes) != c.tokens {
			t.Fatalf("%s: tokens %d/%d, want %d: %q", c.lang, len(r.Hashes), len(h.Hashes), c.tokens, r.Prog.Tokens)
		}
		s := Compare(r, h, nil, DefaultOptions)
		// Renaming x->y and m->k changes 5 tokens (x twice, m twice... x: param and use,
		// m: declaration and use), i.e. 4 token substitutions.
		if want := 1 - 4.0/float64(c.tokens); !near(s.STS, want, 1e-12) {
			t.Errorf("%s: STS %v, want %v", c.lang, s.STS, want)
		}
		// The trees differ in the four identifier leaves only: TED 4.
		if s.TED != 4 {
			t.Errorf("%s: TED %d, want 4", c.lang, s.TED)
		}
		// The PDGs are equal up to names: GRS 1, RUBY at graph level.
		if s.Level != LevelGraph || s.GED != 0 || s.GRS != 1 || s.RUBY != 1 {
			t.Errorf("%s: level %s GED %d GRS %v RUBY %v", c.lang, s.Level, s.GED, s.GRS, s.RUBY)
		}
		// Data flow is renamed by order of appearance: a full match; the syntax shapes
		// ignore names: a full match.
		if s.DataflowMatch != 1 || s.SyntaxMatch != 1 {
			t.Errorf("%s: dataflow %v syntax %v", c.lang, s.DataflowMatch, s.SyntaxMatch)
		}
		if s.BLEU <= 0 || s.BLEU >= 1 || s.CodeBLEU <= s.BLEU {
			t.Errorf("%s: BLEU %v CodeBLEU %v", c.lang, s.BLEU, s.CodeBLEU)
		}
	}
}

// A swapped statement order changes the data flow: GRS sees it, BLEU barely does.
func TestPDGEdges(t *testing.T) {
	g, ok := BuildPDG(mustPrepare(t, "python", "def f(x):\n    y = x + 1\n    z = y * 2\n    return z").Prog)
	if !ok {
		t.Fatal("no PDG")
	}
	// entry, y=, z=, return: control entry->each (3), data entry->y (x), y->z, z->return.
	if g.Size() != 4+3+3-1 {
		// entry->y carries both control and data: one edge.
		t.Errorf("size %d (labels %v adj %v)", g.Size(), g.Labels, g.Adj)
	}
	if g.Adj[0][1] != EdgeControl|EdgeData || g.Adj[1][2] != EdgeData || g.Adj[2][3] != EdgeData || g.Adj[0][3] != EdgeControl {
		t.Errorf("edges %v", g.Adj)
	}
}

func TestGEDSmall(t *testing.T) {
	a := &PDG{Labels: []string{"a", "b", "c"}, Adj: [][]uint8{{0, 1, 0}, {0, 0, 1}, {0, 0, 0}}}
	b := &PDG{Labels: []string{"a", "b", "d"}, Adj: [][]uint8{{0, 1, 1}, {0, 0, 0}, {0, 0, 0}}}
	// Relabel c->d (1), delete edge b->c (1), insert edge a->d (1): 3.
	g := GED(a, b, DefaultGEDOptions)
	if g.Distance != 3 || !g.Exact {
		t.Errorf("GED %+v, want exact 3", g)
	}
	if got := GRS(g.Distance, a.Size(), b.Size()); !near(got, 1-3.0/10, 1e-12) {
		t.Errorf("GRS %v", got)
	}
	// A budget of one expansion stops the search: an upper bound, never below exact.
	c := GED(a, b, GEDOptions{MaxExactNodes: 40, MaxExpansions: 1})
	if c.Distance < 3 || c.Lower > 3 {
		t.Errorf("capped %+v", c)
	}
	empty := &PDG{}
	if d := GED(a, empty, DefaultGEDOptions); d.Distance != a.Size() {
		t.Errorf("to empty %+v", d)
	}
}

// Bad input: never a crash, always a defined value or an error.
func TestBadInput(t *testing.T) {
	ref := mustPrepare(t, "java", "static int f ( int x ) {\n  return x ;\n}")
	for name, code := range map[string]string{
		"empty":        "",
		"blank":        "  \n\t",
		"unparseable":  "static int f( { return ) x ;;; }}}",
		"not java":     "def f(x):\n    return x",
		"binary bytes": "\x00\xff\xfe int \x01",
	} {
		h, err := Prepare("java", code, DefaultOptions)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s := Compare(ref, h, nil, DefaultOptions)
		for _, v := range []float64{s.BLEU, s.STS, s.RUBY, s.CodeBLEU, s.CrystalBLEU} {
			if math.IsNaN(v) || v < 0 || v > 1 {
				t.Errorf("%s: value %v out of [0, 1] (%+v)", name, v, s)
			}
		}
		if s.Level != LevelTokens {
			t.Errorf("%s: level %s, want tokens", name, s.Level)
		}
	}
	if _, err := Prepare("java", strings.Repeat("x", DefaultOptions.MaxBytes+1), DefaultOptions); err == nil {
		t.Error("huge code: no error")
	}
	if _, err := Prepare("cobol", "x", DefaultOptions); err == nil {
		t.Error("unknown language: no error")
	}
	// Big but allowed: a long generated function parses and gets a tree-level score.
	var b strings.Builder
	b.WriteString("static int f(int x) {\n")
	for i := 0; i < 400; i++ {
		b.WriteString("  x = x + 1;\n")
	}
	b.WriteString("  return x;\n}")
	h := mustPrepare(t, "java", b.String())
	s := Compare(ref, h, nil, DefaultOptions)
	if math.IsNaN(s.RUBY) || s.RUBY < 0 || s.RUBY > 1 {
		t.Errorf("long function: %+v", s)
	}
}

func TestDump(t *testing.T) {
	if !testing.Verbose() {
		t.Skip("prints representations with -v")
	}
	for _, c := range []struct{ lang, code string }{
		{"java", "static int addOne ( int x ) {\n  int m = 1 ;\n  while ( ( int ) ( x & m ) >= 1 ) {\n    x = x ^ m ;\n    m <<= 1 ;\n  }\n  x = x ^ m ;\n  return x ;\n}"},
		{"python", "def addOne ( x ) :\n    m = 1\n    while ( x & m ) :\n        x = x ^ m\n        m <<= 1\n    x = x ^ m\n    return x"},
		{"cpp", "int addOne ( int x ) {\n  int m = 1;\n  while ( x & m ) {\n    x = x ^ m;\n    m <<= 1;\n  }\n  x = x ^ m;\n  return x;\n}"},
	} {
		p := mustPrepare(t, c.lang, c.code)
		t.Logf("%s parses=%v tokens=%q flat=%d", c.lang, p.Prog.Parses, strings.Join(p.Prog.Tokens, " "), p.Flat.Len())
		if p.PDG != nil {
			for i, l := range p.PDG.Labels {
				var es []string
				for j, e := range p.PDG.Adj[i] {
					if e != 0 {
						es = append(es, itoa(j)+"/"+itoa(int(e)))
					}
				}
				t.Logf("  %d %s -> %v", i, l, es)
			}
		}
		t.Logf("  flow %v", p.Flow)
	}
	_ = math.NaN
}
