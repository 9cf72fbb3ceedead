// Package scoretest compares score rows for the tests of the score accumulators:
// an accumulator must give its batch scorer's rows to the last bit.
package scoretest

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"transmute/schemas"
)

// Same returns the first difference between the rows a and want, field by field,
// floats by their bits (so a NaN equals a NaN of the same bits), or nil.
func Same(a, want []schemas.ScoreRow) error {
	if len(a) != len(want) {
		return fmt.Errorf("%d rows, want %d", len(a), len(want))
	}
	for i := range a {
		x, y := a[i], want[i]
		if math.Float64bits(x.Value) != math.Float64bits(y.Value) {
			return fmt.Errorf("row %d: %s %s-%s %s/%s/%s = %v (%x), want %v (%x)", i, x.Translator, x.SrcLang, x.TgtLang,
				x.Oracle, x.Subset, x.Metric, x.Value, math.Float64bits(x.Value), y.Value, math.Float64bits(y.Value))
		}
		x.Value, y.Value = 0, 0
		if x != y {
			return fmt.Errorf("row %d: %+v, want %+v", i, x, y)
		}
	}
	return nil
}

// MergeTree merges parts into one by merging random neighbours, either into the
// other, until one is left (a tree of merges, as bundles and workers give), and
// returns it.
func MergeTree[A interface{ Merge(A) }](rng *rand.Rand, parts []A) A {
	parts = append([]A(nil), parts...)
	for len(parts) > 1 {
		i := rng.IntN(len(parts) - 1)
		if rng.IntN(2) == 0 {
			parts[i].Merge(parts[i+1])
		} else {
			parts[i+1].Merge(parts[i])
			parts[i] = parts[i+1]
		}
		parts = append(parts[:i+1], parts[i+2:]...)
	}
	return parts[0]
}

// GobCopy returns a's copy through gob, the coder the pipeline registers for the
// accumulators (as between workers); it fails tb when either way fails.
func GobCopy[A any](tb testing.TB, a *A) *A {
	tb.Helper()
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(a); err != nil {
		tb.Fatal(err)
	}
	b := new(A)
	if err := gob.NewDecoder(&buf).Decode(b); err != nil {
		tb.Fatal(err)
	}
	return b
}
