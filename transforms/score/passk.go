package score

// PassAtKs are the k of the pass@k scores (Chen et al. 2021), each emitted when every
// problem of a key has at least k samples.
var PassAtKs = []int{1, 5, 10}

// PassAtK is the unbiased estimator of pass@k from n samples of which c pass:
// 1 - C(n-c, k)/C(n, k), the chance that k samples drawn without replacement include
// a passing one. It is computed as 1 - prod_{i=n-c+1..n} (1 - k/i), Chen et al.'s
// numerically stable form: the binomials themselves overflow float64 for n in the
// hundreds. k > n is clamped to n.
func PassAtK(n, c, k int) float64 {
	if n <= 0 || c <= 0 {
		return 0
	}
	k = min(k, n)
	if n-c < k {
		return 1
	}
	p := 1.0
	for i := n - c + 1; i <= n; i++ {
		p *= 1 - float64(k)/float64(i)
	}
	return 1 - p
}
