package similarity

import (
	"math"
	"sort"
	"time"
)

// Graph edit distance with unit costs: inserting, deleting or relabelling a node,
// and inserting, deleting or relabelling an edge, cost 1 each. Exact by
// depth-first branch and bound over node mappings; the bipartite method of Riesen
// and Bunke (2009) gives the first upper bound (the cost of the edit path its node
// assignment induces, so never below the exact distance). When the graphs are too
// big or the search exceeds its budget or time cap, the best edit path found so far
// is the answer: an upper bound on GED, so GRS is then a lower bound of the exact
// GRS, and Lower (a label-count bound) brackets the distance from below.

// GEDOptions bound the exact search.
type GEDOptions struct {
	// MaxExactNodes: graphs with more nodes together than this skip the exact search.
	MaxExactNodes int
	// MaxExpansions caps the search nodes expanded (deterministic cap).
	MaxExpansions int
	// TimeCap caps the wall time of one pair's search (a safety net under load).
	TimeCap time.Duration
}

// DefaultGEDOptions keep one pair under a few milliseconds.
var DefaultGEDOptions = GEDOptions{MaxExactNodes: 40, MaxExpansions: 3000, TimeCap: 20 * time.Millisecond}

// GEDResult is a graph edit distance with how it was obtained.
type GEDResult struct {
	Distance int  // exact, or the best upper bound found
	Lower    int  // a lower bound (equal to Distance when Exact)
	Exact    bool // the search finished: Distance is the exact GED
	CapHit   bool // the search stopped at MaxExpansions or TimeCap
	Searched bool // an exact search was attempted (the graphs were small enough)
}

type gedGraph struct {
	lab []int32
	adj [][]uint8
}

// GED computes the graph edit distance between two PDGs.
func GED(a, b *PDG, o GEDOptions) GEDResult {
	in := Interner{}
	ga := gedGraph{lab: in.IDs(a.Labels), adj: a.Adj}
	gb := gedGraph{lab: in.IDs(b.Labels), adj: b.Adj}
	n1, n2 := len(ga.lab), len(gb.lab)
	if n1 == 0 || n2 == 0 {
		d := a.Size() + b.Size()
		return GEDResult{Distance: d, Lower: d, Exact: true}
	}
	phi := bipartite(ga, gb)
	ub := pathCost(ga, gb, phi)
	lb := lowerBound(ga, gb)
	res := GEDResult{Distance: ub, Lower: lb}
	if ub == lb {
		res.Exact = true
		res.Lower = ub
		return res
	}
	if n1+n2 > o.MaxExactNodes {
		return res
	}
	res.Searched = true
	s := newSearch(ga, gb, phi, ub, o)
	s.dfs(0, 0)
	res.Distance = s.best
	if s.stopped {
		res.CapHit = true
		return res
	}
	res.Exact = true
	res.Lower = s.best
	return res
}

// GRS is RUBY's graph similarity 1 - GED / (size + size).
func GRS(ged, sizeA, sizeB int) float64 {
	if sizeA+sizeB == 0 {
		return 1
	}
	return 1 - float64(ged)/float64(sizeA+sizeB)
}

// pathCost is the cost of the edit path induced by node mapping phi (phi[u] = v,
// or -1 to delete u); unmapped nodes of b are inserted.
func pathCost(a, b gedGraph, phi []int) int {
	n1, n2 := len(a.lab), len(b.lab)
	used := make([]bool, n2)
	c := 0
	for u := range n1 {
		if phi[u] < 0 {
			c++
			continue
		}
		used[phi[u]] = true
		if a.lab[u] != b.lab[phi[u]] {
			c++
		}
	}
	for v := range n2 {
		if !used[v] {
			c++
		}
	}
	for u := range n1 {
		for w := range n1 {
			e1 := a.adj[u][w]
			var e2 uint8
			if phi[u] >= 0 && phi[w] >= 0 {
				e2 = b.adj[phi[u]][phi[w]]
			}
			if e1 != e2 {
				c++
			}
		}
	}
	for v := range n2 {
		for x := range n2 {
			if b.adj[v][x] != 0 && (!used[v] || !used[x]) {
				c++
			}
		}
	}
	return c
}

// lowerBound: node labels that cannot be matched plus the difference in edge-label
// counts, each at least that many operations.
func lowerBound(a, b gedGraph) int {
	return multisetGap(a.lab, b.lab) + multisetGap(edgeLabels(a), edgeLabels(b))
}

func edgeLabels(g gedGraph) []int32 {
	var out []int32
	for _, row := range g.adj {
		for _, e := range row {
			if e != 0 {
				out = append(out, int32(e))
			}
		}
	}
	return out
}

// multisetGap is max(|x|, |y|) minus the size of their multiset intersection.
func multisetGap(x, y []int32) int {
	m := map[int32]int{}
	for _, v := range x {
		m[v]++
	}
	common := 0
	for _, v := range y {
		if m[v] > 0 {
			m[v]--
			common++
		}
	}
	return max(len(x), len(y)) - common
}

// bipartite returns the node mapping of the Riesen-Bunke assignment: substituting
// u by v costs the label difference plus half the difference of their incident
// edges' label counts; deleting or inserting a node costs 1 plus half its degree.
func bipartite(a, b gedGraph) []int {
	n1, n2 := len(a.lab), len(b.lab)
	n := n1 + n2
	inf := math.Inf(1)
	cost := make([][]float64, n)
	for i := range cost {
		cost[i] = make([]float64, n)
	}
	incA, incB := incidence(a), incidence(b)
	for i := range n {
		for j := range n {
			switch {
			case i < n1 && j < n2:
				c := 0.0
				if a.lab[i] != b.lab[j] {
					c = 1
				}
				cost[i][j] = c + float64(incGap(incA[i], incB[j]))/2
			case i < n1: // delete i
				if j-n2 == i {
					cost[i][j] = 1 + float64(degree(incA[i]))/2
				} else {
					cost[i][j] = inf
				}
			case j < n2: // insert j
				if i-n1 == j {
					cost[i][j] = 1 + float64(degree(incB[j]))/2
				} else {
					cost[i][j] = inf
				}
			}
		}
	}
	assign := Hungarian(cost)
	phi := make([]int, n1)
	for i := range n1 {
		if assign[i] < n2 {
			phi[i] = assign[i]
		} else {
			phi[i] = -1
		}
	}
	return phi
}

// incidence counts each node's out- and in-edges by label (index label*2+dir).
func incidence(g gedGraph) [][8]int {
	out := make([][8]int, len(g.lab))
	for u, row := range g.adj {
		for w, e := range row {
			if e != 0 {
				out[u][int(e)*2]++
				out[w][int(e)*2+1]++
			}
		}
	}
	return out
}

func incGap(x, y [8]int) int {
	g := 0
	for i := range x {
		g += max(x[i]-y[i], y[i]-x[i])
	}
	return g
}

func degree(x [8]int) int {
	d := 0
	for _, v := range x {
		d += v
	}
	return d
}

// Hungarian solves the square assignment problem (minimum total cost; +Inf marks a
// forbidden pair) in O(n^3) with potentials (Kuhn-Munkres as Jonker and Volgenant
// arrange it); it returns the column of each row. Written here: gonum has no
// assignment solver.
func Hungarian(cost [][]float64) []int {
	n := len(cost)
	const big = 1e18
	u := make([]float64, n+1)
	v := make([]float64, n+1)
	p := make([]int, n+1) // p[j]: row matched to column j (1-based), 0 = none
	way := make([]int, n+1)
	minv := make([]float64, n+1)
	used := make([]bool, n+1)
	for i := 1; i <= n; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j] = big
			used[j] = false
		}
		for {
			used[j0] = true
			i0 := p[j0]
			delta := big
			j1 := 0
			for j := 1; j <= n; j++ {
				if used[j] {
					continue
				}
				c := cost[i0-1][j-1]
				if math.IsInf(c, 1) {
					c = big / 4
				}
				cur := c - u[i0] - v[j]
				if cur < minv[j] {
					minv[j] = cur
					way[j] = j0
				}
				if minv[j] < delta {
					delta = minv[j]
					j1 = j
				}
			}
			for j := 0; j <= n; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
			if j0 == 0 {
				break
			}
		}
	}
	ans := make([]int, n)
	for j := 1; j <= n; j++ {
		if p[j] > 0 {
			ans[p[j]-1] = j - 1
		}
	}
	return ans
}

type search struct {
	a, b       gedGraph
	order      []int   // a's nodes in the order they are mapped
	cands      [][]int // per depth: b's nodes to try, best first (-1 = delete)
	phi        []int   // a node -> b node or -1 (by a's index)
	used       []bool
	best       int
	expansions int
	max        int
	deadline   time.Time
	stopped    bool
	edgesB     int
}

func newSearch(a, b gedGraph, start []int, ub int, o GEDOptions) *search {
	n1, n2 := len(a.lab), len(b.lab)
	s := &search{a: a, b: b, phi: make([]int, n1), used: make([]bool, n2), best: ub, max: o.MaxExpansions}
	if o.TimeCap > 0 {
		s.deadline = time.Now().Add(o.TimeCap)
	}
	// Map the most connected nodes first: their edges decide the cost early.
	incA := incidence(a)
	s.order = make([]int, n1)
	for i := range s.order {
		s.order[i] = i
	}
	sort.SliceStable(s.order, func(i, j int) bool { return degree(incA[s.order[i]]) > degree(incA[s.order[j]]) })
	incB := incidence(b)
	s.cands = make([][]int, n1)
	for d, u := range s.order {
		type cand struct {
			v int
			c float64
		}
		var cs []cand
		for v := range n2 {
			c := float64(incGap(incA[u], incB[v])) / 2
			if a.lab[u] != b.lab[v] {
				c++
			}
			if v == start[u] {
				c = -1 // the bipartite choice first
			}
			cs = append(cs, cand{v, c})
		}
		dc := 1 + float64(degree(incA[u]))/2
		if start[u] < 0 {
			dc = -1
		}
		cs = append(cs, cand{-1, dc})
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].c < cs[j].c })
		for _, c := range cs {
			s.cands[d] = append(s.cands[d], c.v)
		}
	}
	for _, row := range b.adj {
		for _, e := range row {
			if e != 0 {
				s.edgesB++
			}
		}
	}
	return s
}

// step is the cost of mapping the depth-th node u to v given the earlier choices:
// its node operation and the edges between u and the nodes mapped before it.
func (s *search) step(depth, u, v int) int {
	c := 0
	if v < 0 || s.a.lab[u] != s.b.lab[v] {
		c = 1
	}
	for k := range depth {
		w := s.order[k]
		x := s.phi[w]
		var f, r uint8
		if v >= 0 && x >= 0 {
			f, r = s.b.adj[v][x], s.b.adj[x][v]
		}
		if s.a.adj[u][w] != f {
			c++
		}
		if s.a.adj[w][u] != r {
			c++
		}
	}
	if s.a.adj[u][u] != 0 {
		var self uint8
		if v >= 0 {
			self = s.b.adj[v][v]
		}
		if s.a.adj[u][u] != self {
			c++
		}
	} else if v >= 0 && s.b.adj[v][v] != 0 {
		c++
	}
	return c
}

// rest is a lower bound for mapping the nodes from depth on: unmatched labels
// among the remaining nodes of both graphs.
func (s *search) rest(depth int) int {
	var x, y []int32
	for _, u := range s.order[depth:] {
		x = append(x, s.a.lab[u])
	}
	for v, used := range s.used {
		if !used {
			y = append(y, s.b.lab[v])
		}
	}
	return multisetGap(x, y)
}

// finish is the cost of inserting b's unused nodes and the edges touching them.
func (s *search) finish() int {
	c := 0
	for v, u := range s.used {
		if !u {
			c++
			for x := range s.used {
				if s.b.adj[v][x] != 0 {
					c++
				}
			}
			for x, ux := range s.used {
				if ux && s.b.adj[x][v] != 0 {
					c++
				}
			}
		}
	}
	return c
}

func (s *search) dfs(depth, cost int) {
	if s.stopped {
		return
	}
	s.expansions++
	if s.expansions > s.max || (s.expansions&255 == 0 && !s.deadline.IsZero() && time.Now().After(s.deadline)) {
		s.stopped = true
		return
	}
	if depth == len(s.order) {
		if t := cost + s.finish(); t < s.best {
			s.best = t
		}
		return
	}
	u := s.order[depth]
	for _, v := range s.cands[depth] {
		if v >= 0 && s.used[v] {
			continue
		}
		c := cost + s.step(depth, u, v)
		if c >= s.best {
			continue
		}
		s.phi[u] = v
		if v >= 0 {
			s.used[v] = true
		}
		if c+s.rest(depth+1) < s.best {
			s.dfs(depth+1, c)
		}
		if v >= 0 {
			s.used[v] = false
		}
		if s.stopped {
			return
		}
	}
}
