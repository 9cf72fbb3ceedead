package similarity

import "sync"

// Tree edit distance by Zhang and Shasha (1989), written here because no kept Go
// package implements it: ordered labelled trees, unit costs for deleting and
// inserting a node and for relabelling one (0 when the labels are equal).
// Time O(|T1| |T2| min(depth, leaves)^2), space O(|T1| |T2|).

// FlatTree is an ordered labelled tree in postorder, ready for Zhang-Shasha.
type FlatTree struct {
	Labels []uint64 // hashed label of the i-th node in postorder
	LML    []int32  // postorder index of the leftmost leaf descendant of node i
	Keys   []int32  // keyroots, ascending
	// Mirror is the same tree with every node's children in reverse order (nil when
	// not built). TED takes the right-path decomposition through it when that needs
	// fewer cells: the distance is the same, as mirroring both trees maps every
	// edit mapping to one of the same cost.
	Mirror *FlatTree
}

// Len is the number of nodes.
func (t *FlatTree) Len() int { return len(t.Labels) }

// work is the number of forest-table cells Zhang-Shasha fills per cell of the
// other tree: the sum of the keyroots' subtree sizes.
func (t *FlatTree) work() int64 {
	var s int64
	for _, k := range t.Keys {
		s += int64(k-t.LML[k]) + 1
	}
	return s
}

// LabelTree is a plain tree for building a FlatTree (tests and ASTs).
type LabelTree struct {
	Label    string
	Children []*LabelTree
}

// Flatten numbers t in postorder, and its mirror image.
func Flatten(t *LabelTree) *FlatTree {
	f := flatten(t, false)
	if f.Len() > 0 {
		f.Mirror = flatten(t, true)
	}
	return f
}

func flatten(t *LabelTree, mirror bool) *FlatTree {
	f := &FlatTree{}
	if t == nil {
		return f
	}
	var walk func(n *LabelTree) int32
	walk = func(n *LabelTree) int32 {
		first := int32(-1)
		for k := range n.Children {
			c := n.Children[k]
			if mirror {
				c = n.Children[len(n.Children)-1-k]
			}
			l := walk(c)
			if first < 0 {
				first = l
			}
		}
		id := int32(len(f.Labels))
		if first < 0 {
			first = id
		}
		f.Labels = append(f.Labels, hashString(n.Label))
		f.LML = append(f.LML, first)
		return first
	}
	walk(t)
	f.keyroots()
	return f
}

// keyroots: the nodes that have a left sibling, plus the root; equivalently for
// each leftmost-leaf value the highest node having it.
func (f *FlatTree) keyroots() {
	seen := map[int32]bool{}
	var ks []int32
	for i := len(f.LML) - 1; i >= 0; i-- {
		if !seen[f.LML[i]] {
			seen[f.LML[i]] = true
			ks = append(ks, int32(i))
		}
	}
	for i, j := 0, len(ks)-1; i < j; i, j = i+1, j-1 {
		ks[i], ks[j] = ks[j], ks[i]
	}
	f.Keys = ks
}

// tedBufs recycles TED's tables: a pair of 1,000-node trees needs 8 MB.
var tedBufs sync.Pool

// TED is the Zhang-Shasha tree edit distance between a and b. It runs on the
// mirror images when their right-path decomposition fills fewer cells (a choice
// RTED and APTED generalise per subtree).
func TED(a, b *FlatTree) int {
	n, m := a.Len(), b.Len()
	if n == 0 || m == 0 {
		return n + m
	}
	if a.Mirror != nil && b.Mirror != nil && a.Mirror.work()*b.Mirror.work() < a.work()*b.work() {
		a, b = a.Mirror, b.Mirror
	}
	need := n*m + (n+1)*(m+1) + m
	var buf []int32
	if p, _ := tedBufs.Get().(*[]int32); p != nil && cap(*p) >= need {
		buf = (*p)[:need]
	} else {
		buf = make([]int32, need)
	}
	d := zhangShasha(a, b, buf)
	tedBufs.Put(&buf)
	return d
}

// zhangShasha fills the tree distance table td (n x m) keyroot pair by keyroot
// pair. Every td cell it reads was written earlier in the same call, so buf need
// not be zeroed. The loops are the textbook ones, arranged for the inner loop to
// run over contiguous rows: b's keyroots outermost (so the offsets of b's
// leftmost leaves are computed once per keyroot), and the forest table's stride
// the current subtree's size rather than the whole tree's.
func zhangShasha(a, b *FlatTree, buf []int32) int {
	n, m := a.Len(), b.Len()
	td := buf[:n*m]
	fd := buf[n*m : n*m+(n+1)*(m+1)]
	offs := buf[n*m+(n+1)*(m+1):]
	for _, j := range b.Keys {
		lj := b.LML[j]
		nj := int(j-lj) + 1
		w := nj + 1
		// off[y-lj] = lml(y) - lj: column of the forest before y's subtree.
		off := offs[:nj]
		for yo := range off {
			off[yo] = b.LML[int(lj)+yo] - lj
		}
		labB := b.Labels[lj : j+1]
		row0 := fd[:w]
		for y := range row0 {
			row0[y] = int32(y)
		}
		for _, i := range a.Keys {
			li := a.LML[i]
			prev := row0
			for x := int(li); x <= int(i); x++ {
				xo := x - int(li)
				cur := fd[(xo+1)*w : (xo+2)*w]
				left := int32(xo + 1)
				cur[0] = left
				cur1, prev1 := cur[1:w], prev[1:w]
				tdx := td[x*m+int(lj) : x*m+int(j)+1]
				lx := a.LML[x]
				if lx == li {
					// a[li..x] is the whole subtree of x: where b[lj..y] is one too,
					// this is a tree distance.
					lab := a.Labels[x]
					for yo, q := range off {
						best := min(prev1[yo], left) + 1
						if q == 0 {
							r := prev[yo]
							if lab != labB[yo] {
								r++
							}
							best = min(best, r)
							tdx[yo] = best
						} else {
							best = min(best, q+tdx[yo]) // forest row 0 holds q at column q
						}
						cur1[yo] = best
						left = best
					}
				} else {
					prow := fd[int(lx-li)*w : int(lx-li+1)*w]
					for yo, q := range off {
						best := min(min(prev1[yo], left)+1, prow[q]+tdx[yo])
						cur1[yo] = best
						left = best
					}
				}
				prev = cur
			}
		}
	}
	return int(td[(n-1)*m+(m-1)])
}

// TRS is RUBY's tree similarity 1 - TED / (size + size); 1 for two empty trees.
func TRS(a, b *FlatTree) float64 {
	s := a.Len() + b.Len()
	if s == 0 {
		return 1
	}
	return 1 - float64(TED(a, b))/float64(s)
}
