package score

import "math"

// Beyond is the efficiency score of TRACE, section 4 (after Mercury):
//
//	B_X(c) = (r_max - clip(x_c, r_min, r_max)) / (r_max - r_min) * 100
//
// where r_min and r_max are the smallest and largest values of indicator X (CPU
// time, peak memory) over the task's efficiency reference set. When the reference
// set has a single value (r_max == r_min) a candidate at or below it scores 100 and
// one above it 0.
func Beyond(x float64, ref []float64) float64 {
	if len(ref) == 0 || math.IsNaN(x) {
		return math.NaN()
	}
	lo, hi := ref[0], ref[0]
	for _, r := range ref[1:] {
		lo = math.Min(lo, r)
		hi = math.Max(hi, r)
	}
	if hi == lo {
		if x <= lo {
			return 100
		}
		return 0
	}
	c := math.Max(lo, math.Min(hi, x))
	return (hi - c) / (hi - lo) * 100
}

// BeyondScores averages per-task Beyond scores of one translator: B over all tasks
// with incorrect translations scored 0, and B^P over the correct ones only. correct
// and scores are parallel; scores of incorrect tasks are ignored.
func BeyondScores(correct []bool, scores []float64) (b, bp float64, nCorrect int) {
	if len(correct) == 0 {
		return math.NaN(), math.NaN(), 0
	}
	sum := 0.0
	for i, ok := range correct {
		if ok {
			sum += scores[i]
			nCorrect++
		}
	}
	b = sum / float64(len(correct))
	bp = math.NaN()
	if nCorrect > 0 {
		bp = sum / float64(nCorrect)
	}
	return b, bp, nCorrect
}

// Inefficiency is x over the best (smallest) value of the reference set; a
// translation is notably inefficient above 2 (TRACE, section 5.2).
func Inefficiency(x float64, ref []float64) float64 {
	if len(ref) == 0 {
		return math.NaN()
	}
	best := ref[0]
	for _, r := range ref[1:] {
		best = math.Min(best, r)
	}
	if best <= 0 {
		return math.NaN()
	}
	return x / best
}
