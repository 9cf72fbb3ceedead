package translate

import (
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"
)

// CheckOptions refuses a query option of a spec that the scheme does not know,
// naming the known ones: a misspelled option (temprature=1.7) must not silently
// leave its default in place.
func CheckOptions(scheme string, q url.Values, known ...string) error {
	var unknown []string
	for k := range q {
		if !slices.Contains(known, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	k := append([]string(nil), known...)
	sort.Strings(k)
	return fmt.Errorf("%s: unknown option %s (known: %s)", scheme, strings.Join(quoteAll(unknown), ", "), strings.Join(k, ", "))
}

// NoOptions refuses anything after the scheme of a translator that takes no options
// ("identity:", "builtin:").
func NoOptions(scheme, rest string) error {
	if rest != "" {
		return fmt.Errorf("%s: takes no options or location, got %q (write %q)", scheme, rest, scheme+":")
	}
	return nil
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = fmt.Sprintf("%q", v)
	}
	return out
}
