package lcs

import "testing"

func TestTrim(t *testing.T) {
	for _, c := range []struct {
		a, b string
		p, s int
	}{
		{"abcxyz", "abcqz", 3, 1},
		{"abc", "abc", 3, 0},
		{"abc", "abcd", 3, 0},
		{"aa", "aaa", 2, 0},
		{"xab", "yab", 0, 2},
		{"", "ab", 0, 0},
	} {
		p, s := Trim([]byte(c.a), []byte(c.b))
		if p != c.p || s != c.s {
			t.Errorf("Trim(%q, %q) = %d, %d, want %d, %d", c.a, c.b, p, s, c.p, c.s)
		}
	}
}

// naive is the LCS length by plain recursion, for small inputs.
func naive(a, b []byte) int32 {
	switch {
	case len(a) == 0 || len(b) == 0:
		return 0
	case a[0] == b[0]:
		return 1 + naive(a[1:], b[1:])
	}
	return max(naive(a[1:], b), naive(a, b[1:]))
}

func TestTable(t *testing.T) {
	a, b := []byte("ABCBDAB"), []byte("BDCABA")
	tab := Table(a, b)
	if tab[0][0] != 4 {
		t.Errorf("LCS(%s, %s) = %d, want 4", a, b, tab[0][0])
	}
	for i := 0; i <= len(a); i++ {
		for j := 0; j <= len(b); j++ {
			if want := naive(a[i:], b[j:]); tab[i][j] != want {
				t.Errorf("t[%d][%d] = %d, want %d", i, j, tab[i][j], want)
			}
		}
	}
	if len(Table([]int{}, []int{1, 2})) != 1 {
		t.Error("an empty side has a table of one row")
	}
}

func TestLevenshtein(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"kitten", "sitting", 3},
		{"sitting", "kitten", 3},
		{"", "abc", 3},
		{"abc", "", 3},
		{"flaw", "lawn", 2},
		{"same", "same", 0},
		{"naïve", "naive", 1}, // by rune, not byte
	} {
		if got := Levenshtein([]rune(c.a), []rune(c.b)); got != c.want {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
