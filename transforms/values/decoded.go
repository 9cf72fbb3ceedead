package values

import "encoding/json"

// What the input generators (transforms/inputs) and the growth measure
// (transforms/growth) read off decoded JSON arguments (json.Number for numbers).

// Number is a JSON number's value; ok is false for any other value.
func Number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

// Length is the length of an array or of a string (in characters), -1 for any
// other value.
func Length(v any) int {
	switch x := v.(type) {
	case []any:
		return len(x)
	case string:
		return len([]rune(x))
	}
	return -1
}
