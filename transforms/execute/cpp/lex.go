package cpp

import "strings"

// contained tells whether a candidate's code (its #includes removed) ends where its
// text ends when the compiler reads it inside the unit, so that whatever errors it has
// stay on its own lines and cannot make a candidate after it fail: its brackets
// ((), [], {}) nest and close outside comments and literals, every comment, string,
// character and raw-string literal closes, its #if blocks close, and its macro
// definitions hold balanced brackets (a macro that expands to a lone brace hides
// one from this count). #pragma (an optimize or diagnostic pragma outlives the
// namespace), #line, extern "C" (one name across namespaces) and digraphs (<% %> <: :>)
// make it not contained. A local syntax error (a missing semicolon, a stray token)
// leaves a candidate contained: the compiler recovers at the next brace.
//
// This is a lexical check, written here rather than taken from the tree-sitter parse
// (mutate.ParsesClean), because any syntax error gives the parse an ERROR node, and
// syntax errors are exactly the candidates whose messages this check lets the engine
// trust (LLM translations; see setApart).
func contained(code string) bool {
	var stack []byte
	ppDepth := 0
	lineStart := true // only whitespace since the last newline
	n := len(code)
	for i := 0; i < n; i++ {
		c := code[i]
		switch {
		case c == '\n':
			lineStart = true
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			continue
		case c == '\\' && i+1 < n && code[i+1] == '\n':
			i++ // a spliced line
			continue
		}
		if lineStart && c == '#' {
			end := lineEnd(code, i)
			if !directiveOK(code[i+1:end], &ppDepth) {
				return false
			}
			i = end - 1
			continue
		}
		lineStart = false
		switch {
		case c == '/' && i+1 < n && code[i+1] == '/':
			i = lineEnd(code, i) - 1
		case c == '/' && i+1 < n && code[i+1] == '*':
			j := strings.Index(code[i+2:], "*/")
			if j < 0 {
				return false
			}
			i += 2 + j + 1
		case c == '"':
			if rawPrefix(code, i) {
				j, ok := rawStringEnd(code, i)
				if !ok {
					return false
				}
				i = j - 1
				continue
			}
			j, ok := quotedEnd(code, i, '"')
			if !ok {
				return false
			}
			i = j - 1
		case c == '\'':
			j, ok := quotedEnd(code, i, '\'')
			if !ok {
				return false
			}
			i = j - 1
		case isDigit(c) && (i == 0 || !isIdent(code[i-1])):
			i = numberEnd(code, i) - 1
		case isIdentStart(c):
			j := i
			for j < n && isIdent(code[j]) {
				j++
			}
			if code[i:j] == "extern" && strings.HasPrefix(strings.TrimLeft(code[j:], " \t\r\n"), `"C"`) {
				return false
			}
			i = j - 1
		case c == '(' || c == '[' || c == '{':
			stack = append(stack, c)
		case c == ')' || c == ']' || c == '}':
			if len(stack) == 0 || stack[len(stack)-1] != opener(c) {
				return false
			}
			stack = stack[:len(stack)-1]
		case i+1 < n && isDigraph(code[i:i+2]):
			return false
		}
	}
	return len(stack) == 0 && ppDepth == 0
}

func opener(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

func isDigraph(s string) bool { return s == "<%" || s == "%>" || s == "<:" || s == ":>" }

func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isIdent(c byte) bool      { return isIdentStart(c) || isDigit(c) }

// numberEnd returns the end of the preprocessing number at i (digit separators ' and
// exponents' signs included).
func numberEnd(code string, i int) int {
	j := i + 1
	for j < len(code) {
		c := code[j]
		switch {
		case isIdent(c) || c == '.':
			j++
		case c == '\'' && j+1 < len(code) && isIdent(code[j+1]):
			j += 2
		case (c == '+' || c == '-') && strings.ContainsRune("eEpP", rune(code[j-1])):
			j++
		default:
			return j
		}
	}
	return j
}

// lineEnd returns the index of the newline ending the logical line at i (a backslash
// before a newline splices the next line in): the end of a // comment or of a
// preprocessor directive.
func lineEnd(code string, i int) int {
	for j := i; j < len(code); j++ {
		if code[j] == '\n' && !(j > 0 && code[j-1] == '\\') {
			return j
		}
	}
	return len(code)
}

// quotedEnd returns the index after the literal opened by q at i, on its line.
func quotedEnd(code string, i int, q byte) (int, bool) {
	for j := i + 1; j < len(code); j++ {
		switch code[j] {
		case '\\':
			j++
		case q:
			return j + 1, true
		case '\n':
			return 0, false
		}
	}
	return 0, false
}

// rawPrefix tells whether the quote at i opens a raw string (R", u8R", LR", uR", UR").
func rawPrefix(code string, i int) bool {
	if i == 0 || code[i-1] != 'R' {
		return false
	}
	k := i - 1
	for _, p := range []string{"u8", "u", "U", "L", ""} {
		s := k - len(p)
		if s >= 0 && code[s:k] == p && (s == 0 || !isIdent(code[s-1])) {
			return true
		}
	}
	return false
}

// rawStringEnd returns the index after the raw string whose quote is at i.
func rawStringEnd(code string, i int) (int, bool) {
	open := strings.IndexByte(code[i+1:], '(')
	if open < 0 || open > 16 {
		return 0, false
	}
	delim := code[i+1 : i+1+open]
	if strings.ContainsAny(delim, " \\)\t\n") {
		return 0, false
	}
	body := i + 1 + open + 1
	end := strings.Index(code[body:], ")"+delim+`"`)
	if end < 0 {
		return 0, false
	}
	return body + end + len(delim) + 2, true
}

// directiveOK checks one directive (its text after the '#') and tracks #if depth.
func directiveOK(d string, depth *int) bool {
	d = strings.TrimLeft(d, " \t")
	name := d
	for k := 0; k < len(d); k++ {
		if !isIdent(d[k]) {
			name = d[:k]
			break
		}
	}
	switch name {
	case "if", "ifdef", "ifndef":
		*depth++
	case "endif":
		*depth--
		return *depth >= 0
	case "else", "elif", "elifdef", "elifndef":
		return *depth > 0
	case "define":
		// the replacement list must not open or close what the code around it does
		return contained(strings.ReplaceAll(d[len(name):], "\\\n", " "))
	case "pragma", "line", "":
		return false
	}
	return true
}
