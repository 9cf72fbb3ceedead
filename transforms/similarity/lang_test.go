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

func TestDump(t *testing.T) {
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
