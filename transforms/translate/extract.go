package translate

import (
	"fmt"
	"regexp"
	"strings"

	"transmute/schemas"
)

var fence = regexp.MustCompile("(?s)```[ \\t]*([A-Za-z0-9_+#-]*)[^\\n]*\\n(.*?)(?:```|$)")

var langTags = map[string][]string{
	schemas.Python: {"python", "py", "python3"},
	schemas.Java:   {"java"},
	schemas.Cpp:    {"cpp", "c++", "cc", "cxx", "c"},
	schemas.Go:     {"go", "golang"},
}

// Extract finds the translation in a chat answer: the first fenced block tagged with
// the target language, else the first fenced block, else the text before <|END|>
// when it looks like code. It then separates imports from the function and drops
// what a harness must not see (a main function, a Python __main__ block, a Java class
// wrapper around static methods).
func Extract(answer, tgt string) (code, imports string, err error) {
	answer = strings.ReplaceAll(answer, "\r\n", "\n")
	if i := strings.Index(answer, "<|END|>"); i >= 0 {
		answer = answer[:i]
	}
	blocks := fence.FindAllStringSubmatch(answer, -1)
	body := ""
	for _, b := range blocks {
		tag := strings.ToLower(b[1])
		for _, t := range langTags[tgt] {
			if tag == t {
				body = b[2]
				break
			}
		}
		if body != "" {
			break
		}
	}
	if body == "" && len(blocks) > 0 {
		body = blocks[0][2]
	}
	if body == "" {
		trimmed := strings.TrimSpace(answer)
		if looksLikeCode(trimmed, tgt) {
			body = trimmed
		} else {
			return "", "", fmt.Errorf("no code block in the answer")
		}
	}
	code, imports = SplitImports(body, tgt)
	code = DropEntryPoints(code, tgt)
	if strings.TrimSpace(code) == "" {
		return "", "", fmt.Errorf("the code block holds no function")
	}
	return code, imports, nil
}

func looksLikeCode(s, tgt string) bool {
	switch tgt {
	case schemas.Python:
		return strings.Contains(s, "def ")
	default:
		return strings.Contains(s, "{") && strings.Contains(s, "(") && strings.Contains(s, "return")
	}
}

func SplitImports(body, tgt string) (code, imports string) {
	var cl, il []string
	for _, line := range strings.Split(body, "\n") {
		t := strings.TrimSpace(line)
		isImport := false
		switch tgt {
		case schemas.Python:
			isImport = line == t && (strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "from "))
		case schemas.Java:
			isImport = strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "package ")
		case schemas.Cpp:
			isImport = strings.HasPrefix(t, "#include") || strings.HasPrefix(t, "using namespace")
		}
		if isImport {
			if !strings.HasPrefix(t, "package ") {
				il = append(il, t)
			}
		} else {
			cl = append(cl, line)
		}
	}
	return strings.Trim(strings.Join(cl, "\n"), "\n"), strings.Join(il, "\n")
}

var (
	pyMain    = regexp.MustCompile(`(?m)^if\s+__name__\s*==\s*['"]__main__['"]\s*:.*$`)
	cppMain   = regexp.MustCompile(`(?m)^\s*int\s+main\s*\(`)
	javaClass = regexp.MustCompile(`(?m)^\s*(public\s+)?(final\s+)?class\s+\w+[^{]*\{`)
	javaMain  = regexp.MustCompile(`(?m)^\s*public\s+static\s+void\s+main\s*\(`)
)

// dropEntryPoints removes a program's entry point so only functions remain.
func DropEntryPoints(code, tgt string) string {
	switch tgt {
	case schemas.Python:
		if loc := pyMain.FindStringIndex(code); loc != nil {
			code = code[:loc[0]]
		}
	case schemas.Cpp:
		if loc := cppMain.FindStringIndex(code); loc != nil {
			end := matchBrace(code, loc[1])
			code = code[:loc[0]] + code[end:]
		}
	case schemas.Java:
		if loc := javaMain.FindStringIndex(code); loc != nil {
			end := matchBrace(code, loc[1])
			code = code[:loc[0]] + code[end:]
		}
		if loc := javaClass.FindStringIndex(code); loc != nil {
			// unwrap: keep the class body
			end := matchBrace(code, loc[1]-1)
			inner := code[loc[1]:max(loc[1], end-1)]
			code = code[:loc[0]] + inner + code[end:]
		}
	}
	return strings.Trim(code, "\n")
}

// matchBrace returns the index just past the brace block that starts at or after i.
func matchBrace(s string, i int) int {
	open := strings.IndexByte(s[i:], '{')
	if open < 0 {
		return len(s)
	}
	depth := 0
	for j := i + open; j < len(s); j++ {
		switch s[j] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(s)
}
