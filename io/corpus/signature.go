package corpus

import (
	"fmt"
	"regexp"
	"strings"

	"transmute/schemas"
	"transmute/transforms/values"
)

// Signature is a function declaration read from Java or C++ source, with its
// parameter and return types mapped to language-neutral types (transforms/values).
type Signature struct {
	Name    string
	Returns string
	Params  []schemas.Param
	// Decl is the declaration as written, from the start of its line to the
	// closing parenthesis of the parameter list.
	Decl string
}

// Types returns the parsed parameter types.
func (s Signature) Types() ([]values.Type, error) {
	return paramTypes(s.Params)
}

func paramTypes(ps []schemas.Param) ([]values.Type, error) {
	out := make([]values.Type, len(ps))
	for i, p := range ps {
		t, err := values.ParseType(p.Type)
		if err != nil {
			return nil, fmt.Errorf("parameter %q: %v", p.Name, err)
		}
		if t.Base == values.Void {
			return nil, fmt.Errorf("parameter %q cannot be void", p.Name)
		}
		out[i] = t
	}
	return out, nil
}

// Java and C++ identifiers may hold any Unicode letter or digit (and $), not only
// ASCII ones: `static int größe(int länge)` is a valid Java function.
const identRe = `[\p{L}\p{Nl}_$][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}_$]*`

var (
	callRe     = regexp.MustCompile(`(` + identRe + `)\s*\(`)
	typePrefix = regexp.MustCompile(`^[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}_$\s<>\[\],:*&.]*$`)
	bracketsRe = regexp.MustCompile(`\[\s*\]`)
	spaceRe    = regexp.MustCompile(`\s+`)
	lastWordRe = regexp.MustCompile(`(` + identRe + `)\s*$`)
)

// keywords that can precede "name (" without it being a declaration.
var notDeclWords = map[string]bool{
	"return": true, "new": true, "if": true, "while": true, "for": true, "switch": true,
	"else": true, "do": true, "case": true, "throw": true, "sizeof": true, "delete": true,
	"catch": true,
}

// modifiers stripped from the text before a function name.
var modifierWords = map[string]bool{
	"public": true, "private": true, "protected": true, "static": true, "final": true,
	"synchronized": true, "abstract": true, "native": true, "strictfp": true,
	"inline": true, "constexpr": true, "virtual": true, "extern": true, "explicit": true,
	"friend": true,
}

// findDecl locates the declaration of function name in code (the first
// "type name (" whose prefix on its line looks like a type), or of the last
// top-level function when name is empty. It returns the declaration's line
// prefix (the return type and modifiers), the function name, the parameter list
// text and the full declaration text.
func findDecl(code, name string) (prefix, fname, params, decl string, err error) {
	depth := braceDepths(code)
	type cand struct{ start, nameStart, open int }
	var cands []cand
	for _, m := range callRe.FindAllStringSubmatchIndex(code, -1) {
		n := code[m[2]:m[3]]
		if name != "" && n != name {
			continue
		}
		if notDeclWords[n] {
			continue
		}
		lineStart := strings.LastIndexByte(code[:m[2]], '\n') + 1
		pre := code[lineStart:m[2]]
		if strings.TrimSpace(pre) == "" || !typePrefix.MatchString(pre) || strings.HasSuffix(strings.TrimSpace(pre), ".") {
			continue
		}
		words := strings.Fields(strings.NewReplacer("<", " ", ">", " ", "*", " ", "&", " ", "[", " ", "]", " ", ",", " ").Replace(pre))
		if len(words) == 0 || notDeclWords[words[0]] || notDeclWords[words[len(words)-1]] {
			continue
		}
		cands = append(cands, cand{lineStart, m[2], m[1] - 1})
	}
	if len(cands) == 0 {
		if name != "" {
			return "", "", "", "", fmt.Errorf("no declaration of %s found", name)
		}
		return "", "", "", "", fmt.Errorf("no function declaration found")
	}
	pick := cands[0]
	if name == "" {
		// prefer the shallowest declaration (top level, or inside a class)
		// the last of the shallowest declarations (top level, or inside a class):
		// helpers come first, the function itself last
		for _, c := range cands[1:] {
			if depth[c.nameStart] <= depth[pick.nameStart] {
				pick = c
			}
		}
	}
	closeIdx := MatchParen(code, pick.open)
	if closeIdx < 0 {
		return "", "", "", "", fmt.Errorf("unbalanced parentheses in declaration")
	}
	prefix = code[pick.start:pick.nameStart]
	fname = lastWordRe.FindString(code[:pick.open])
	fname = strings.TrimSpace(fname)
	params = code[pick.open+1 : closeIdx]
	decl = spaceRe.ReplaceAllString(strings.TrimSpace(code[pick.start:closeIdx+1]), " ")
	return prefix, fname, params, decl, nil
}

// braceDepths gives the curly-brace depth at every byte of code, skipping string
// and character literals and comments (roughly: enough for declarations).
func braceDepths(code string) []int {
	d := make([]int, len(code)+1)
	depth := 0
	for i := 0; i < len(code); i++ {
		d[i] = depth
		switch c := code[i]; c {
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		case '"', '\'':
			j := i + 1
			for j < len(code) && code[j] != c && code[j] != '\n' {
				if code[j] == '\\' {
					j++
				}
				j++
			}
			for k := i; k <= j && k < len(code); k++ {
				d[k] = depth
			}
			i = j
		case '/':
			if i+1 < len(code) && code[i+1] == '/' {
				for i < len(code) && code[i] != '\n' {
					d[i] = depth
					i++
				}
				if i < len(code) {
					d[i] = depth
				}
			}
		}
	}
	d[len(code)] = depth
	return d
}

// MatchParen returns the index of the parenthesis closing the one at open in s,
// or -1 when it is not closed.
func MatchParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// splitTopLevel splits s at commas outside (), <>, [] and {}.
func splitTopLevel(s string) []string {
	var out []string
	depth := 0
	last := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '<', '[', '{':
			depth++
		case ')', '>', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[last:i])
				last = i + 1
			}
		}
	}
	out = append(out, s[last:])
	var res []string
	for _, p := range out {
		if strings.TrimSpace(p) != "" {
			res = append(res, strings.TrimSpace(p))
		}
	}
	return res
}

func stripModifiers(prefix string) string {
	var keep []string
	for _, w := range strings.Fields(prefix) {
		if !modifierWords[w] {
			keep = append(keep, w)
		}
	}
	return strings.Join(keep, " ")
}

// ParseJavaSignature reads the declaration of method name (or of the last
// top-level method when name is empty) in Java code.
func ParseJavaSignature(code, name string) (Signature, error) {
	return parseSignature(code, name, JavaType, javaParam)
}

// ParseCppSignature reads the declaration of function name (or of the last
// top-level function when name is empty) in C++ code.
func ParseCppSignature(code, name string) (Signature, error) {
	return parseSignature(code, name, CppType, cppParam)
}

func parseSignature(code, name string, typ func(string) (string, error), param func(string) (string, string, error)) (Signature, error) {
	prefix, fname, params, decl, err := findDecl(code, name)
	if err != nil {
		return Signature{}, err
	}
	sig := Signature{Name: fname, Decl: decl}
	ret := stripModifiers(prefix)
	// drop a C++ template header or Java generic parameters before the type
	if strings.HasPrefix(ret, "<") {
		if i := strings.Index(ret, ">"); i >= 0 {
			ret = strings.TrimSpace(ret[i+1:])
		}
	}
	if ret == "" {
		return Signature{}, fmt.Errorf("%s: no return type", decl)
	}
	if sig.Returns, err = typ(ret); err != nil {
		return Signature{}, fmt.Errorf("%s: return type: %v", decl, err)
	}
	for i, p := range splitTopLevel(params) {
		if p == "void" && i == 0 {
			continue // C "f(void)"
		}
		n, t, err := param(p)
		if err != nil {
			return Signature{}, fmt.Errorf("%s: parameter %d %q: %v", decl, i, p, err)
		}
		sig.Params = append(sig.Params, schemas.Param{Name: n, Type: t})
	}
	return sig, nil
}

// javaParam splits a Java parameter ("int arr [ ]", "final String s",
// "int... xs") into its name and neutral type.
func javaParam(p string) (string, string, error) {
	p = regexp.MustCompile(`@\w+(\([^)]*\))?`).ReplaceAllString(p, "")
	p = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(p), "final "))
	p = bracketsRe.ReplaceAllString(p, "[]")
	p = strings.Replace(p, "...", "[] ", 1)
	after := 0
	for strings.HasSuffix(strings.TrimSpace(p), "[]") { // C-style "int a[]"
		p = strings.TrimSuffix(strings.TrimSpace(p), "[]")
		after++
	}
	m := lastWordRe.FindStringSubmatchIndex(p)
	if m == nil {
		return "", "", fmt.Errorf("no parameter name")
	}
	name := p[m[2]:m[3]]
	t := strings.TrimSpace(p[:m[2]])
	if t == "" {
		return "", "", fmt.Errorf("no parameter type")
	}
	nt, err := JavaType(t + strings.Repeat("[]", after))
	return name, nt, err
}

var javaBase = map[string]string{
	"int": "int", "Integer": "int", "short": "int", "Short": "int", "byte": "int", "Byte": "int",
	"long": "long", "Long": "long", "BigInteger": "long",
	"float": "float", "Float": "float", "double": "double", "Double": "double",
	"boolean": "bool", "Boolean": "bool", "char": "char", "Character": "char",
	"String": "string", "StringBuilder": "string", "StringBuffer": "string", "CharSequence": "string",
	"void": "void", "Void": "void",
}

var javaListTypes = map[string]bool{"List": true, "ArrayList": true, "LinkedList": true,
	"Vector": true, "Collection": true, "Deque": true, "ArrayDeque": true, "Iterable": true}

// JavaType maps a Java type ("int", "int [ ]", "Integer[]", "String", "char[][]",
// "List<Integer>", "void") to a neutral type. Types with no neutral counterpart
// (Pair, maps, user classes, arrays of more than values.MaxDims dimensions) are errors.
func JavaType(t string) (string, error) {
	t = strings.TrimSpace(bracketsRe.ReplaceAllString(t, "[]"))
	t = strings.TrimPrefix(strings.TrimPrefix(t, "java.lang."), "java.util.")
	dims := 0
	for strings.HasSuffix(t, "[]") {
		t = strings.TrimSpace(strings.TrimSuffix(t, "[]"))
		dims++
	}
	if i := strings.IndexByte(t, '<'); i > 0 && strings.HasSuffix(t, ">") {
		outer := strings.TrimSpace(t[:i])
		if !javaListTypes[outer] {
			return "", fmt.Errorf("unsupported Java type %q", t)
		}
		inner, err := JavaType(t[i+1 : len(t)-1])
		if err != nil {
			return "", err
		}
		return withDims(inner, dims+1)
	}
	base, ok := javaBase[t]
	if !ok {
		return "", fmt.Errorf("unsupported Java type %q", t)
	}
	return withDims(base, dims)
}

func withDims(base string, dims int) (string, error) {
	s := base + strings.Repeat("[]", dims)
	if _, err := values.ParseType(s); err != nil {
		return "", err
	}
	return s, nil
}

var cppBracketGroup = regexp.MustCompile(`\[[^\]]*\]`)

// cppParam splits a C++ parameter ("int arr [ ]", "const string &s",
// "char *str", "vector<vector<int>> &grid", "int a[][MAX]") into its name and
// neutral type.
func cppParam(p string) (string, string, error) {
	dims := len(cppBracketGroup.FindAllString(p, -1))
	p = cppBracketGroup.ReplaceAllString(p, " ")
	if i := strings.IndexByte(p, '='); i >= 0 { // default argument
		p = p[:i]
	}
	// the name is the last identifier outside template brackets
	m := lastWordRe.FindStringSubmatchIndex(p)
	if m == nil {
		return "", "", fmt.Errorf("no parameter name")
	}
	name := p[m[2]:m[3]]
	t := strings.TrimSpace(p[:m[2]])
	if t == "" || strings.HasSuffix(t, "<") || strings.Count(t, "<") != strings.Count(t, ">") {
		return "", "", fmt.Errorf("no parameter name")
	}
	if isCppTypeWord(name) && !strings.ContainsAny(t, "*&") {
		// "int" alone, or "long long" with no name
		return "", "", fmt.Errorf("parameter has no name")
	}
	nt, err := cppTypeDims(t, dims)
	return name, nt, err
}

func isCppTypeWord(w string) bool {
	switch w {
	case "int", "long", "short", "char", "float", "double", "bool", "unsigned", "signed", "string":
		return true
	}
	return false
}

// CppType maps a C++ type ("int", "long long", "unsigned int", "char *",
// "string &", "vector<int>", "int*") to a neutral type. char* is a string.
func CppType(t string) (string, error) { return cppTypeDims(t, 0) }

func cppTypeDims(t string, dims int) (string, error) {
	t = strings.ReplaceAll(t, "std::", "")
	ptr := strings.Count(t, "*")
	t = strings.NewReplacer("*", " ", "&", " ").Replace(t)
	var words []string
	for _, w := range strings.Fields(strings.NewReplacer("<", " < ", ">", " > ", ",", " , ").Replace(t)) {
		switch w {
		case "const", "volatile", "register", "struct", "typename", "static", "inline", "constexpr":
			continue
		}
		words = append(words, w)
	}
	t = strings.Join(words, " ")
	t = strings.NewReplacer(" < ", "<", " > ", ">", "< ", "<", " >", ">", " , ", ",").Replace(t)
	if strings.HasPrefix(t, "vector<") && strings.HasSuffix(t, ">") {
		inner, err := cppTypeDims(t[len("vector<"):len(t)-1], 0)
		if err != nil {
			return "", err
		}
		// too many dimensions (vector<vector<vector<vector<int>>>>) is withDims' error
		return withDims(inner, dims+ptr+1)
	}
	base, ok := cppBase[t]
	if !ok {
		return "", fmt.Errorf("unsupported C++ type %q", t)
	}
	if base == "char" && ptr > 0 {
		base, ptr = "string", ptr-1
	}
	if strings.Contains(base, "[]") { // already an array (vector-like string types)
		return base, nil
	}
	return withDims(base, dims+ptr)
}

var cppBase = func() map[string]string {
	m := map[string]string{
		"int": "int", "signed": "int", "signed int": "int", "unsigned": "int", "unsigned int": "int",
		"short": "int", "short int": "int", "unsigned short": "int", "unsigned short int": "int",
		"int32_t": "int", "uint32_t": "int", "int16_t": "int", "uint16_t": "int", "int8_t": "int", "uint8_t": "int",
		"long": "long", "long int": "long", "long long": "long", "long long int": "long",
		"unsigned long": "long", "unsigned long int": "long", "unsigned long long": "long",
		"unsigned long long int": "long", "signed long": "long", "signed long long": "long",
		"int64_t": "long", "uint64_t": "long", "size_t": "long", "ll": "long",
		"float": "float", "double": "double", "long double": "double",
		"bool": "bool", "char": "char", "unsigned char": "char", "signed char": "char",
		"string": "string", "void": "void",
	}
	return m
}()

var (
	pyDefRe  = regexp.MustCompile(`(?m)^(?:async\s+)?def\s+([\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}_]*)\s*\(`)
	goFuncRe = regexp.MustCompile(`(?m)^func\s+([\p{L}_][\p{L}\p{Nd}_]*)\s*\(`)
)

// DescribeFunction finds the function a harness calls in code of lang: entry
// when it is given (it must be defined in code), else the last top-level
// function defined. It returns the function's name and its declaration line.
func DescribeFunction(lang, code, entry string) (name, decl string, err error) {
	switch lang {
	case schemas.Python, schemas.Go:
		re := pyDefRe
		if lang == schemas.Go {
			re = goFuncRe
		}
		ms := re.FindAllStringSubmatchIndex(code, -1)
		if len(ms) == 0 {
			return "", "", fmt.Errorf("no top-level function defined")
		}
		pick := ms[len(ms)-1]
		if entry != "" {
			pick = nil
			for _, m := range ms {
				if code[m[2]:m[3]] == entry {
					pick = m
					break
				}
			}
			if pick == nil {
				return "", "", fmt.Errorf("function %s is not defined at top level", entry)
			}
		}
		end := strings.IndexByte(code[pick[0]:], '\n')
		line := code[pick[0]:]
		if end >= 0 {
			line = line[:end]
		}
		return code[pick[2]:pick[3]], strings.TrimSpace(line), nil
	case schemas.Java, schemas.Cpp:
		_, n, _, d, err := findDecl(code, entry)
		if err != nil {
			return "", "", err
		}
		return n, d, nil
	}
	return "", "", fmt.Errorf("unknown language %q", lang)
}
