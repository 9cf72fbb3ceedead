package score

import (
	"math"
	"math/rand/v2"
	"sort"

	"transmute/transforms/stats"
)

// BeyondEntry is one translator's outcome on one task, for BootstrapBeyondPass.
type BeyondEntry struct {
	Correct bool    // the translator has a correct translation of the task: it counts for B^P
	Score   float64 // its Beyond score (used when Correct)
}

// BeyondBootstrap is the sampling uncertainty of B^P (the mean Beyond score over a
// translator's correct translations) from a sample of tasks.
type BeyondBootstrap struct {
	// Estimate is each translator's B^P on the tasks as given (NaN when it has no
	// correct translation); Lo and Hi bound its percentile interval.
	Estimate, Lo, Hi []float64
	// OrderKept is the share of resamples in which every translator has a B^P and
	// their order (strictly by B^P, descending) is the order of Estimate.
	OrderKept float64
	Resamples int
}

// BootstrapBeyondPass resamples the tasks with replacement (the same tasks for
// every translator, so that their order is compared on the same sample) and
// returns, per translator, the percentile interval of B^P at the given level (0.95:
// 2.5th to 97.5th percentile), and how often a resample keeps the translators'
// order. A resample in which a translator has no correct translation has no B^P
// for it: it is left out of that translator's interval, and it does not keep the
// order. tasks[i][j] is translator j's entry on task i. seed makes the result
// reproducible. With TRACE's tasks this says how far a Beyond ranking of a few
// hundred tasks can be trusted.
func BootstrapBeyondPass(tasks [][]BeyondEntry, resamples int, level float64, seed uint64) BeyondBootstrap {
	nt := 0
	if len(tasks) > 0 {
		nt = len(tasks[0])
	}
	bp := func(idx []int) []float64 {
		sum := make([]float64, nt)
		n := make([]int, nt)
		for _, i := range idx {
			for j, e := range tasks[i] {
				if e.Correct {
					sum[j] += e.Score
					n[j]++
				}
			}
		}
		out := make([]float64, nt)
		for j := range out {
			out[j] = math.NaN()
			if n[j] > 0 {
				out[j] = sum[j] / float64(n[j])
			}
		}
		return out
	}
	all := make([]int, len(tasks))
	for i := range all {
		all[i] = i
	}
	res := BeyondBootstrap{Estimate: bp(all), Lo: make([]float64, nt), Hi: make([]float64, nt), Resamples: resamples}
	if len(tasks) == 0 || resamples <= 0 {
		for j := range res.Lo {
			res.Lo[j], res.Hi[j] = math.NaN(), math.NaN()
		}
		res.OrderKept = math.NaN()
		return res
	}
	order := descendingOrder(res.Estimate)
	rng := rand.New(rand.NewPCG(seed, 0x7472616365)) // "trace"
	draws := make([][]float64, nt)
	kept := 0
	idx := make([]int, len(tasks))
	for r := 0; r < resamples; r++ {
		for i := range idx {
			idx[i] = rng.IntN(len(tasks))
		}
		b := bp(idx)
		for j, v := range b {
			draws[j] = append(draws[j], v)
		}
		if order != nil && sameOrder(b, order) {
			kept++
		}
	}
	alpha := (1 - level) / 2
	for j := range draws {
		res.Lo[j] = stats.Quantile(draws[j], alpha)
		res.Hi[j] = stats.Quantile(draws[j], 1-alpha)
	}
	res.OrderKept = float64(kept) / float64(resamples)
	if order == nil {
		res.OrderKept = math.NaN()
	}
	return res
}

// descendingOrder returns the indices of xs from largest to smallest, or nil when
// a value is NaN or two are equal (no strict order to keep).
func descendingOrder(xs []float64) []int {
	o := make([]int, len(xs))
	for i := range o {
		o[i] = i
		if math.IsNaN(xs[i]) {
			return nil
		}
	}
	sort.Slice(o, func(a, b int) bool { return xs[o[a]] > xs[o[b]] })
	for k := 1; k < len(o); k++ {
		if xs[o[k]] == xs[o[k-1]] {
			return nil
		}
	}
	return o
}

// sameOrder: xs is strictly descending along order (no NaN).
func sameOrder(xs []float64, order []int) bool {
	for k := range order {
		if math.IsNaN(xs[order[k]]) {
			return false
		}
		if k > 0 && !(xs[order[k-1]] > xs[order[k]]) {
			return false
		}
	}
	return true
}
