package consistency

import (
	"crypto/sha256"
	"math"
)

// Labeled is one (original, variant) translation pair: its consistency score
// under one metric and whether execution found it inconsistent (the label the
// thresholds are chosen against; TransRepair used manual labels).
type Labeled struct {
	Score        float64
	Inconsistent bool
}

// Confusion counts a threshold's verdicts against execution; the positive class
// is "inconsistent" (score below the threshold).
type Confusion struct {
	TP, FP, FN, TN int
}

// Precision and Recall are NaN when undefined (no predicted or no actual
// inconsistency); F1 = 2TP/(2TP+FP+FN), NaN only when there is neither (so a
// threshold that flags nothing while execution finds inconsistencies has F1 0).
func (c Confusion) Precision() float64 { return ratio(c.TP, c.TP+c.FP) }
func (c Confusion) Recall() float64    { return ratio(c.TP, c.TP+c.FN) }
func (c Confusion) F1() float64        { return ratio(2*c.TP, 2*c.TP+c.FP+c.FN) }

func ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

// Evaluate judges every sample inconsistent when its score is below t.
func Evaluate(samples []Labeled, t float64) Confusion {
	var c Confusion
	for _, s := range samples {
		pred := s.Score < t
		switch {
		case pred && s.Inconsistent:
			c.TP++
		case pred:
			c.FP++
		case s.Inconsistent:
			c.FN++
		default:
			c.TN++
		}
	}
	return c
}

// ThresholdGrid is 0.01, 0.02, ..., 1.00: TransRepair searched 0.8 to 1.0 in steps
// of 0.01; code translations can differ more, so the grid starts lower.
func ThresholdGrid() []float64 {
	g := make([]float64, 100)
	for i := range g {
		g[i] = float64(i+1) / 100
	}
	return g
}

// ChooseThreshold returns the threshold of grid with the best F1 against
// execution on samples (TransRepair section 4.2, "Threshold learning"); ties, and
// samples where F1 is undefined everywhere, go to the fewest errors (FP + FN),
// then to the highest threshold.
func ChooseThreshold(samples []Labeled, grid []float64) (float64, Confusion) {
	return chooseThreshold(grid, func(i int) Confusion { return Evaluate(samples, grid[i]) })
}

// chooseThreshold is ChooseThreshold given the confusion at each grid index (from
// the samples, or from ScoreAcc's counts per grid bin).
func chooseThreshold(grid []float64, eval func(i int) Confusion) (float64, Confusion) {
	best, bestC := math.NaN(), Confusion{}
	bestF, bestErr := math.Inf(-1), math.MaxInt
	for i, t := range grid {
		c := eval(i)
		f := c.F1()
		if math.IsNaN(f) {
			f = -1
		}
		e := c.FP + c.FN
		if f > bestF || f == bestF && (e < bestErr || e == bestErr && t > best) || math.IsNaN(best) {
			best, bestC, bestF, bestErr = t, c, f, e
		}
	}
	return best, bestC
}

// Halves of the problems: thresholds are chosen on one, measured on the other.
const (
	HalfChoose  = "choose"
	HalfMeasure = "measure"
)

// HalfOf puts a problem in a half by the parity of its id's hash: each worker
// decides alone, without the list of problems, and the split does not follow
// name order (which groups similar problems).
func HalfOf(problemID string) string {
	sum := sha256.Sum256([]byte(problemID))
	if sum[0]&1 == 0 {
		return HalfChoose
	}
	return HalfMeasure
}
