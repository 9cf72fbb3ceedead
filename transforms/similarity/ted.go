package similarity

// Tree edit distance by Zhang and Shasha (1989), written here because no kept Go
// package implements it: ordered labelled trees, unit costs for deleting and
// inserting a node and for relabelling one (0 when the labels are equal).
// Time O(|T1| |T2| min(depth, leaves)^2), space O(|T1| |T2|).

// FlatTree is an ordered labelled tree in postorder, ready for Zhang-Shasha.
type FlatTree struct {
	Labels []uint64 // hashed label of the i-th node in postorder
	LML    []int32  // postorder index of the leftmost leaf descendant of node i
	Keys   []int32  // keyroots, ascending
}

// Len is the number of nodes.
func (t *FlatTree) Len() int { return len(t.Labels) }

// LabelTree is a plain tree for building a FlatTree (tests and ASTs).
type LabelTree struct {
	Label    string
	Children []*LabelTree
}

// Flatten numbers t in postorder.
func Flatten(t *LabelTree) *FlatTree {
	f := &FlatTree{}
	if t == nil {
		return f
	}
	var walk func(n *LabelTree) int32
	walk = func(n *LabelTree) int32 {
		first := int32(-1)
		for _, c := range n.Children {
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

// TED is the Zhang-Shasha tree edit distance between a and b.
func TED(a, b *FlatTree) int {
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

// TRS is seed 003's tree similarity 1 - TED / (size + size); 1 for two empty trees.
func TRS(a, b *FlatTree) float64 {
	s := a.Len() + b.Len()
	if s == 0 {
		return 1
	}
	return 1 - float64(TED(a, b))/float64(s)
}
