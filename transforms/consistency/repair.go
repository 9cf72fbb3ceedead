package consistency

import (
	"errors"
	"sort"
	"strings"

	"transmute/transforms/mutate"
)

// Rank orders translations (token sequences; index 0 is the original's) by their
// mean similarity under metric m to all the others, best first: TransRepair's
// cross-reference ranking (section 2.4.3). The runner ranks the variants'
// translations after mapping them back (MapBack), so that all are translations
// of the original and a renamed variable does not count as disagreement. Ties
// keep the lower index, so the original wins a tie and is left alone.
func Rank(m Metric, ts [][]string, idf *IDF) ([]int, []float64) {
	n := len(ts)
	mean := make([]float64, n)
	if n > 1 {
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				s := Similarity(m, ts[i], ts[j], idf)
				mean[i] += s
				mean[j] += s
			}
		}
		for i := range mean {
			mean[i] /= float64(n - 1)
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return mean[order[a]] > mean[order[b]] })
	return order, mean
}

// Why a variant's translation cannot be mapped back onto the original.
var (
	ErrNameAbsent    = errors.New("the new name is not in the translation")
	ErrNameTaken     = errors.New("the old name is already in the translation")
	ErrLiteralAmbig  = errors.New("the new literal is not in the translation exactly once")
	ErrMappedNoParse = errors.New("the mapped-back translation does not parse")
)

// MapBack turns the translation (in lang) of variant v into a translation of the
// original: a rename is undone on every token of the new name, a literal change
// on the one token of the new value. This is Algorithm 2's mapBack, with the
// variant's own change standing in for word alignment: the change is known
// token for token, so the check that an alignment found the right words
// (line 13, numeric or not) becomes "the new token is found where it must be",
// and the structure check (line 18) a clean re-parse.
func MapBack(lang, translation string, v Variant) (string, error) {
	spans := tokenSpans(lang, translation)
	var at [][2]int
	switch v.Kind {
	case KindIdentifier:
		for _, s := range spans {
			switch translation[s[0]:s[1]] {
			case v.New:
				at = append(at, s)
			case v.Old:
				return "", ErrNameTaken
			}
		}
		if len(at) == 0 {
			return "", ErrNameAbsent
		}
	case KindLiteral:
		newDigits, _ := splitIntLiteral(v.New)
		for _, s := range spans {
			if d, _ := splitIntLiteral(translation[s[0]:s[1]]); d != "" && d == newDigits {
				at = append(at, [2]int{s[0], s[0] + len(d)})
			}
		}
		if len(at) != 1 {
			return "", ErrLiteralAmbig
		}
	default:
		return "", errors.New("unknown variant kind " + string(v.Kind))
	}
	repl := v.Old
	if v.Kind == KindLiteral {
		repl, _ = splitIntLiteral(v.Old)
	}
	var b strings.Builder
	prev := 0
	for _, s := range at {
		b.WriteString(translation[prev:s[0]])
		b.WriteString(repl)
		prev = s[1]
	}
	b.WriteString(translation[prev:])
	out := b.String()
	if ok, err := mutate.ParsesClean(lang, out); err != nil || !ok {
		if clean, _ := mutate.ParsesClean(lang, translation); clean {
			return "", ErrMappedNoParse
		}
	}
	return out, nil
}

// tokenSpans are the byte ranges of Tokens(lang, code).
func tokenSpans(lang, code string) [][2]int {
	re := cTokenRe
	if lang == "python" || lang == "py" {
		re = pyTokenRe
	}
	var out [][2]int
	for _, s := range re.FindAllStringIndex(code, -1) {
		if !isComment(lang, code[s[0]:s[1]]) {
			out = append(out, [2]int{s[0], s[1]})
		}
	}
	return out
}

// PassRate is the share of tests on which outcomes give the source's output.
func PassRate(match func(i int) bool, n int) float64 {
	if n == 0 {
		return 0
	}
	k := 0
	for i := 0; i < n; i++ {
		if match(i) {
			k++
		}
	}
	return float64(k) / float64(n)
}
