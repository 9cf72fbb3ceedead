package values

import "testing"

func TestCppUnsignedWidth(t *testing.T) {
	for decl, want := range map[string]uint{
		"unsigned int russianPeasant ( unsigned int a, unsigned int b )": 32,
		"unsigned nextPowerOf2 ( unsigned int n )":                       32,
		"unsigned long long int f ( int n )":                             64,
		"size_t f ( string s )":                                          64,
		"int f ( unsigned int n )":                                       0,
		"long long f ( int n )":                                          0,
		"unsigned char f ( int n )":                                      8,
	} {
		if got := CppUnsignedWidth(decl); got != want {
			t.Errorf("CppUnsignedWidth(%q) = %d, want %d", decl, got, want)
		}
	}
}

// TestCppConvertedEqual: C++'s -1 == 4294967295u is true (the int converts to
// unsigned int); our value comparison says they differ.
func TestCppConvertedEqual(t *testing.T) {
	it := MustParseType("int")
	for _, c := range []struct {
		width     uint
		a, b      string
		conv, val bool
	}{
		{32, "4294967295", "-1", true, false},
		{32, "2147483648", "-2147483648", true, false},
		{32, "5", "5", true, true},
		{32, "5", "6", false, false},
		{32, "4294967296", "0", false, false}, // out of the unsigned range: a wider type
		{0, "4294967295", "-1", false, false},
		{64, "18446744073709551615", "-1", true, false},
	} {
		if got := CppConvertedEqual(c.width, it, c.a, c.b, DefaultTolerance); got != c.conv {
			t.Errorf("CppConvertedEqual(%d, %s, %s) = %v, want %v", c.width, c.a, c.b, got, c.conv)
		}
		if got := Equal(it, c.a, c.b, DefaultTolerance); got != c.val {
			t.Errorf("Equal(%s, %s) = %v, want %v", c.a, c.b, got, c.val)
		}
	}
}
