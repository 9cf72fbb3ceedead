package consistency

import (
	"regexp"
	"strings"
)

// The tokens Algorithm 1 compares: names, numbers, string and character
// literals, multi-character operators, single characters. A regular lexer
// rather than tree-sitter leaves, because a bad translation may not parse and
// must still be compared. Comments are dropped (a translator's comment is not
// behaviour), and so are C++ preprocessor lines.
const tokenBody = `[A-Za-z_][A-Za-z0-9_]*|` +
	`[0-9][0-9A-Za-z_.]*|\.[0-9][0-9A-Za-z_]*|` +
	`"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|` +
	`>>>=|<<=|>>=|>>>|\*\*=|//=|->|::|\+\+|--|&&|\|\||==|!=|<=|>=|\+=|-=|\*=|/=|%=|&=|\|=|\^=|<<|>>|\*\*|//|` +
	`\S`

var (
	cTokenRe  = regexp.MustCompile(`(?m)//[^\n]*|/\*(?s:.*?)\*/|^[ \t]*#[^\n]*|` + tokenBody)
	pyTokenRe = regexp.MustCompile(`#[^\n]*|` + tokenBody)
)

// Tokens splits code in lang (java, cpp, python) into tokens, without comments.
func Tokens(lang, code string) []string {
	re := cTokenRe
	if lang == "python" || lang == "py" {
		re = pyTokenRe
	}
	raw := re.FindAllString(code, -1)
	out := raw[:0]
	for _, t := range raw {
		if isComment(lang, t) {
			continue
		}
		out = append(out, t)
	}
	return out
}

func isComment(lang, t string) bool {
	if lang == "python" || lang == "py" {
		return t[0] == '#'
	}
	if strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") {
		return true
	}
	for _, c := range t {
		if c == ' ' || c == '\t' {
			continue
		}
		return c == '#' && len(t) > 1
	}
	return false
}
