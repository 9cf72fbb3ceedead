package cpp

import (
	"regexp"
	"strings"
)

// callTypeWords are the words a parameter type may use to be passed as declared:
// built-in types, std::string and std::vector, and their qualifiers. A type naming
// anything else (a typedef such as ll, a macro, a struct of the gold's code) is not
// declared in the candidate's unit, so the harness adapts that argument instead.
var callTypeWords = map[string]bool{
	"const": true, "unsigned": true, "signed": true, "short": true, "int": true, "long": true,
	"char": true, "bool": true, "float": true, "double": true, "size_t": true,
	"string": true, "vector": true, "std": true,
}

var (
	callTypeToken = regexp.MustCompile(`[A-Za-z_]\w*|::|[<>,*&]|\S`)
	arraySuffix   = regexp.MustCompile(`\[\s*[^\[\]]*\]\s*$`)
	trailingName  = regexp.MustCompile(`[A-Za-z_]\w*\s*$`)
)

// GoldCallTypes reads the parameter types of a C++ declaration, "int f_gold ( int arr [
// ], int n )", as the types that a benchmark's C++ test script passes the arguments
// as: an array parameter T a[] or T a[N] is a T*, the rest is the declared type
// without the name (vector<int>&, const string&, long). An entry is empty where the
// harness should adapt instead: a 2-D array (int a[][N] names a bound of the gold's
// code), or a type outside callTypeWords. It returns nil when decl has no parameter
// list.
func GoldCallTypes(decl string) []string {
	open := strings.IndexByte(decl, '(')
	if open < 0 {
		return nil
	}
	depth, end := 0, -1
	for i := open; i < len(decl) && end < 0; i++ {
		switch decl[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				end = i
			}
		}
	}
	if end < 0 {
		return nil
	}
	params := SplitParams(decl[open+1 : end])
	if len(params) == 1 && (params[0] == "" || params[0] == "void") {
		return []string{}
	}
	out := make([]string, len(params))
	for i, p := range params {
		out[i] = callType(p)
	}
	return out
}

// SplitParams splits a parameter list at the commas outside <> and ().
func SplitParams(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '(':
			depth++
		case '>', ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// callType is one parameter's type as passed, or "" to adapt.
func callType(p string) string {
	if i := strings.IndexByte(p, '='); i >= 0 { // a default argument
		p = p[:i]
	}
	p = strings.TrimSpace(p)
	dims := 0
	for arraySuffix.MatchString(p) {
		p = strings.TrimSpace(arraySuffix.ReplaceAllString(p, ""))
		dims++
	}
	if dims > 1 {
		return ""
	}
	// The name is the last word, unless that word belongs to the type (an unnamed
	// "unsigned int"; "vector<int>&" ends in punctuation and has no last word).
	if m := trailingName.FindStringIndex(p); m != nil && !callTypeWords[strings.TrimSpace(p[m[0]:])] {
		p = strings.TrimSpace(p[:m[0]])
	}
	if p == "" {
		return ""
	}
	var b strings.Builder
	prevWord := false
	for _, tok := range callTypeToken.FindAllString(p, -1) {
		c := tok[0]
		isWord := c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
		if isWord && !callTypeWords[tok] || !isWord && !strings.Contains("::<>,*&", tok) {
			return ""
		}
		if prevWord && isWord {
			b.WriteByte(' ')
		}
		b.WriteString(tok)
		prevWord = isWord
	}
	out := b.String()
	if dims == 1 {
		return out + "*"
	}
	// The scripts hold each argument in a variable of the declared type and pass
	// that non-const lvalue (param0[i]) whatever the gold declares, so a gold's
	// "const T&" is passed as a T lvalue: a translation taking T& compiles there.
	if strings.HasPrefix(out, "const ") && strings.HasSuffix(out, "&") {
		out = strings.TrimSuffix(strings.TrimPrefix(out, "const "), "&")
	}
	return out
}
