package stats

import (
	"math"
	"sort"
)

// KendallTauB is Kendall's tau-b, the rank correlation that corrects for ties in
// either variable (scipy.stats.kendalltau's default), by Knight's O(n log n)
// algorithm: sort by x then y, count the discordant pairs as the swaps of a merge
// sort by y. Written here: gonum's stat.Kendall is tau-a (no tie correction), and
// CA and pass are mostly ties. NaN when n < 2 or a variable is constant.
func KendallTauB(x, y []float64) float64 {
	n := len(x)
	if n != len(y) || n < 2 {
		return math.NaN()
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool {
		if x[idx[a]] != x[idx[b]] {
			return x[idx[a]] < x[idx[b]]
		}
		return y[idx[a]] < y[idx[b]]
	})
	n0 := float64(n) * float64(n-1) / 2
	// Ties in x (n1) and in both (n3), over runs of the sorted order.
	var n1, n3 float64
	for i := 0; i < n; {
		j := i
		for j+1 < n && x[idx[j+1]] == x[idx[i]] {
			j++
		}
		t := float64(j - i + 1)
		n1 += t * (t - 1) / 2
		for k := i; k <= j; {
			l := k
			for l+1 <= j && y[idx[l+1]] == y[idx[k]] {
				l++
			}
			u := float64(l - k + 1)
			n3 += u * (u - 1) / 2
			k = l + 1
		}
		i = j + 1
	}
	ys := make([]float64, n)
	for i, k := range idx {
		ys[i] = y[k]
	}
	buf := make([]float64, n)
	swaps := float64(mergeCount(ys, buf))
	var n2 float64
	for i := 0; i < n; {
		j := i
		for j+1 < n && ys[j+1] == ys[i] {
			j++
		}
		t := float64(j - i + 1)
		n2 += t * (t - 1) / 2
		i = j + 1
	}
	den := math.Sqrt((n0 - n1) * (n0 - n2))
	if den == 0 {
		return math.NaN()
	}
	return (n0 - n1 - n2 + n3 - 2*swaps) / den
}

// mergeCount sorts xs ascending and returns the number of inversions (pairs i < j
// with xs[i] > xs[j]).
func mergeCount(xs, buf []float64) int64 {
	n := len(xs)
	if n < 2 {
		return 0
	}
	m := n / 2
	c := mergeCount(xs[:m], buf[:m]) + mergeCount(xs[m:], buf[m:])
	i, j, k := 0, m, 0
	for i < m && j < n {
		if xs[j] < xs[i] {
			buf[k] = xs[j]
			c += int64(m - i)
			j++
		} else {
			buf[k] = xs[i]
			i++
		}
		k++
	}
	for i < m {
		buf[k] = xs[i]
		i++
		k++
	}
	for j < n {
		buf[k] = xs[j]
		j++
		k++
	}
	copy(xs, buf[:n])
	return c
}
