package similarity

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// tedZhangShasha is the first TED of this package, kept verbatim as the reference
// the fast TED must equal (TestTEDFastEqualsReference) and as the naive way of
// BenchmarkRealPairs: left-path decomposition only, one forest table of stride
// |b|+1 for every keyroot pair.
func tedZhangShasha(a, b *FlatTree) int {
	n, m := a.Len(), b.Len()
	if n == 0 || m == 0 {
		return n + m
	}
	td := make([]int32, n*m)
	fd := make([]int32, (n+1)*(m+1))
	w := m + 1
	for _, i := range a.Keys {
		for _, j := range b.Keys {
			li, lj := a.LML[i], b.LML[j]
			// Forest distance between a[li..x] and b[lj..y], offset by one.
			fd[0] = 0
			for x := li; x <= i; x++ {
				fd[int(x-li+1)*w] = fd[int(x-li)*w] + 1
			}
			for y := lj; y <= j; y++ {
				fd[int(y-lj+1)] = fd[int(y-lj)] + 1
			}
			for x := li; x <= i; x++ {
				xi := int(x-li+1) * w
				xp := int(x-li) * w
				lx := a.LML[x]
				for y := lj; y <= j; y++ {
					yi := int(y - lj + 1)
					del := fd[xp+yi] + 1
					ins := fd[xi+yi-1] + 1
					best := min(del, ins)
					if lx == li && b.LML[y] == lj {
						// Both prefixes are whole trees: this is a tree distance.
						r := fd[xp+yi-1]
						if a.Labels[x] != b.Labels[y] {
							r++
						}
						best = min(best, r)
						fd[xi+yi] = best
						td[int(x)*m+int(y)] = best
					} else {
						p := int(lx-li) * w
						q := int(b.LML[y] - lj)
						best = min(best, fd[p+q]+td[int(x)*m+int(y)])
						fd[xi+yi] = best
					}
				}
			}
		}
	}
	return int(td[(n-1)*m+(m-1)])
}

// randomTree builds a tree of n nodes over a small alphabet, so that labels often
// match, with random shapes from paths to bushes.
func randomTree(rng *rand.Rand, n int) *LabelTree {
	nodes := []*LabelTree{{Label: string(rune('a' + rng.IntN(4)))}}
	for len(nodes) < n {
		p := nodes[rng.IntN(len(nodes))]
		if rng.IntN(3) == 0 {
			p = nodes[len(nodes)-1] // deepen
		}
		c := &LabelTree{Label: string(rune('a' + rng.IntN(4)))}
		p.Children = append(p.Children, c)
		nodes = append(nodes, c)
	}
	return nodes[0]
}

// TestTEDFastEqualsReference: the fast TED (compact tables, mirrored trees when
// cheaper) gives exactly the distance of the first implementation, on hand cases,
// random trees and, when the shared corpora are present, real translations.
func TestTEDFastEqualsReference(t *testing.T) {
	check := func(name string, a, b *FlatTree) {
		t.Helper()
		want := tedZhangShasha(a, b)
		if got := TED(a, b); got != want {
			t.Fatalf("%s: TED %d, reference %d", name, got, want)
		}
		if got := TED(b, a); got != want {
			t.Fatalf("%s: TED(b, a) %d, reference %d", name, got, want)
		}
	}
	for _, c := range [][2]string{
		{"{f{d{a}{c{b}}}{e}}", "{f{c{d{a}{b}}}{e}}"},
		{"{a{b}{c}{d}}", "{a{c}}"},
		{"{a{b{c{d{e}}}}}", "{a{b}{c}{d}{e}}"},
		{"{a}", "{b{a}}"},
	} {
		check(c[0]+" "+c[1], Flatten(parseBracket(c[0])), Flatten(parseBracket(c[1])))
	}
	// Hand cases where the right-path decomposition is the cheaper one, so TED
	// runs on the mirrors: a bush whose last child is the deep one.
	a := Flatten(parseBracket("{r{x}{y}{z{p{q{s}}{t}}}}"))
	b := Flatten(parseBracket("{r{x}{z{p{q}{t}}}}"))
	if a.Mirror.work()*b.Mirror.work() >= a.work()*b.work() {
		t.Fatalf("expected the mirrors to be cheaper: %d*%d vs %d*%d", a.Mirror.work(), b.Mirror.work(), a.work(), b.work())
	}
	if got := TED(a, b); got != 2 { // delete y and s
		t.Errorf("TED = %d, want 2", got)
	}
	check("mirror-cheaper", a, b)
	rng := rand.New(rand.NewPCG(23, 1))
	for k := range 400 {
		check(fmt.Sprintf("random %d", k), Flatten(randomTree(rng, 1+rng.IntN(40))), Flatten(randomTree(rng, 1+rng.IntN(40))))
	}
	pairs := loadRealPairs(t, 1)
	refs := map[string]*Prepared{}
	n := 0
	for i, p := range pairs {
		if i%3 != 0 {
			continue // a third of one model's pairs keeps the test short
		}
		r := refs[p.lang+p.ref]
		if r == nil {
			r, _ = Prepare(p.lang, p.ref, DefaultOptions)
			refs[p.lang+p.ref] = r
		}
		h, err := Prepare(p.lang, p.hyp, DefaultOptions)
		if err != nil || r == nil || r.Flat == nil || h.Flat == nil || r.Flat.Len()*h.Flat.Len() > DefaultOptions.MaxTEDCells {
			continue
		}
		check(fmt.Sprintf("real pair %d (%s)", i, p.lang), r.Flat, h.Flat)
		n++
	}
	t.Logf("%d real tree pairs equal", n)
}
