// Package clip shortens text for table columns and error messages.
package clip

import "unicode/utf8"

// Ellipsis marks where String cut a text.
const Ellipsis = "…"

// String returns s when it is at most n bytes long; else its longest prefix of at
// most n bytes that ends on a rune boundary, followed by Ellipsis. Cutting between
// runes keeps valid UTF-8 valid (Parquet string columns and JSON expect it).
func String(s string, n int) string {
	if len(s) <= n {
		return s
	}
	n = max(n, 0)
	// Back up to the start of the rune that byte n falls in, at most UTFMax-1 bytes:
	// in invalid UTF-8 a continuation byte may start nothing.
	for i := n; i >= 0 && i > n-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			n = i
			break
		}
	}
	return s[:n] + Ellipsis
}
