package clip

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "abc…"},
		{"", 0, ""},
		{"abc", 0, "…"},
		// "é" is 2 bytes: a cut inside it keeps the whole rune out.
		{"aé", 2, "a…"},
		{"aéb", 3, "aé…"},
		// "€" is 3 bytes, "😀" 4.
		{"€€", 4, "€…"},
		{"😀x", 3, "…"},
		{"x😀y", 4, "x…"},
		{"x😀y", 5, "x😀…"},
	} {
		if got := String(c.in, c.n); got != c.want {
			t.Errorf("String(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

// A long multi-byte text cut at every length stays valid UTF-8, within n bytes
// before the ellipsis (a byte cut would split a rune at most lengths).
func TestStringValidUTF8(t *testing.T) {
	s := strings.Repeat("aé€😀", 20)
	for n := 0; n <= len(s); n++ {
		got := String(s, n)
		if !utf8.ValidString(got) {
			t.Fatalf("String(s, %d) = %q: invalid UTF-8", n, got)
		}
		if body := strings.TrimSuffix(got, Ellipsis); len(body) > n || !strings.HasPrefix(s, body) {
			t.Fatalf("String(s, %d) = %q: not a prefix of at most %d bytes", n, got, n)
		}
	}
}

// Invalid input is cut at n when no rune starts within UTFMax bytes before it.
func TestStringInvalid(t *testing.T) {
	s := "a" + strings.Repeat("\x80", 10)
	if got := String(s, 6); got != s[:6]+Ellipsis {
		t.Errorf("String = %q", got)
	}
}
