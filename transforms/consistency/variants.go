package consistency

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// VariantKind is how a context-similar variant differs from its original.
type VariantKind string

const (
	// KindIdentifier renames one parameter or local variable everywhere.
	KindIdentifier VariantKind = "identifier"
	// KindLiteral replaces one integer literal by the next integer.
	KindLiteral VariantKind = "literal"
)

// Variant is one context-similar variant of a function (TransRepair section 2.2,
// for code): one name or one literal replaced.
type Variant struct {
	// ID is the first 16 hex digits of sha256(lang, kind, Code).
	ID   string
	Lang string
	Kind VariantKind
	// Old and New are the names (identifier) or literal texts (literal).
	Old, New string
	Role     Role // identifier variants only
	// Line and Col (1-based, bytes) locate the first replaced token.
	Line, Col int
	// Starts are the byte offsets, in the original code, of the replaced tokens.
	Starts []int
	Code   string
}

// Refusal is a candidate replacement the structural filter dropped.
type Refusal struct {
	Kind     VariantKind
	Old, New string
	Reason   RefusalReason
}

// RefusalReason says which filter dropped a candidate.
type RefusalReason string

const (
	RefuseReserved    RefusalReason = "reserved in some language"
	RefuseCaptures    RefusalReason = "name already used in the program"
	RefuseMember      RefusalReason = "old name also used as a member, function or keyword argument"
	RefuseScoped      RefusalReason = "old name is global or nonlocal"
	RefuseNoParse     RefusalReason = "variant does not parse"
	RefuseKindChanged RefusalReason = "replaced token changes syntax node type"
	RefuseNotIdent    RefusalReason = "not an identifier"
	RefuseUnchanged   RefusalReason = "same as the original"
)

// Options caps the variants made per function.
type Options struct {
	// MaxIdentifiers caps identifier variants (0 = none); MaxLiterals literal ones.
	MaxIdentifiers, MaxLiterals int
	// PerName is how many similar names each declared name is tried with (>= 1).
	PerName int
}

// DefaultOptions: up to 5 identifier variants (TransRepair uses up to 5 mutants per
// sentence for testing) and 2 literal ones per function and language.
var DefaultOptions = Options{MaxIdentifiers: 5, MaxLiterals: 2, PerName: 1}

var identRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Generate returns the context-similar variants of code (one function, in lang)
// and the candidates the structural filter refused. context holds the text that
// surrounds the function when it runs (its imports): a new name may not occur
// there either. entry is the function's own name, never renamed.
func Generate(lang, code, context, entry string, t *Table, opt Options) ([]Variant, []Refusal, error) {
	p, err := parse(lang, code)
	if err != nil {
		return nil, nil, err
	}
	if p.hasError {
		return nil, nil, fmt.Errorf("consistency: %s function does not parse", p.lang)
	}
	var out []Variant
	var refused []Refusal
	if opt.PerName < 1 {
		opt.PerName = 1
	}
	roles := declaredRoles(p)
	// Declared names in order of first occurrence: parameters first, deterministic.
	var names []string
	seen := map[string]bool{}
	for _, id := range p.idents {
		if _, ok := roles[id.name]; ok && !seen[id.name] && id.name != entry {
			seen[id.name] = true
			names = append(names, id.name)
		}
	}
	nIdent := 0
	for _, old := range names {
		if nIdent >= opt.MaxIdentifiers {
			break
		}
		tried := 0
		for _, nw := range t.Similar(old, roles[old]) {
			if tried >= opt.PerName || nIdent >= opt.MaxIdentifiers {
				break
			}
			v, reason := Rename(p.lang, code, context, old, nw)
			if reason != "" {
				refused = append(refused, Refusal{Kind: KindIdentifier, Old: old, New: nw, Reason: reason})
				continue
			}
			tried++
			v.Role = roles[old]
			out = append(out, v)
			nIdent++
		}
	}
	nLit := 0
	for _, l := range p.literals {
		if nLit >= opt.MaxLiterals {
			break
		}
		v, reason := replaceLiteral(p.lang, code, l)
		if reason != "" {
			refused = append(refused, Refusal{Kind: KindLiteral, Old: l.text, Reason: reason})
			continue
		}
		out = append(out, v)
		nLit++
	}
	return out, refused, nil
}

// Rename renames the parameter or local variable old to nw everywhere in code,
// or says which structural filter refuses it.
func Rename(lang, code, context, old, nw string) (Variant, RefusalReason) {
	if old == nw {
		return Variant{}, RefuseUnchanged
	}
	if !identRe.MatchString(nw) {
		return Variant{}, RefuseNotIdent
	}
	if Reserved(nw) {
		return Variant{}, RefuseReserved
	}
	// Capture and shadowing: the new name may occur nowhere in the program (as a
	// variable, field, method, type, or inside a string), so no reference changes
	// its binding in either direction.
	if wordIn(nw, code) || wordIn(nw, context) {
		return Variant{}, RefuseCaptures
	}
	p, err := parse(lang, code)
	if err != nil || p.hasError {
		return Variant{}, RefuseNoParse
	}
	if p.scoped[old] {
		return Variant{}, RefuseScoped
	}
	var starts []int
	for _, id := range p.idents {
		if id.name != old {
			continue
		}
		if id.member {
			return Variant{}, RefuseMember
		}
		starts = append(starts, id.start)
	}
	if len(starts) == 0 {
		return Variant{}, RefuseNotIdent
	}
	newCode := replaceAt(code, starts, len(old), nw)
	if reason := sameKinds(lang, newCode, p, starts, len(old), nw, "identifier"); reason != "" {
		return Variant{}, reason
	}
	line, col := lineCol(code, starts[0])
	return Variant{ID: variantID(p.lang, KindIdentifier, newCode), Lang: p.lang, Kind: KindIdentifier, Old: old, New: nw,
		Line: line, Col: col, Starts: starts, Code: newCode}, ""
}

// replaceLiteral turns the integer literal l into the next integer (the near
// number of TransRepair's number replacement).
func replaceLiteral(lang, code string, l literal) (Variant, RefusalReason) {
	digits, suffix := splitIntLiteral(l.text)
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n >= 1<<31-1 {
		return Variant{}, RefuseNotIdent
	}
	nw := strconv.FormatInt(n+1, 10) + suffix
	newCode := code[:l.start] + nw + code[l.end:]
	p, err := parse(lang, code)
	if err != nil {
		return Variant{}, RefuseNoParse
	}
	if reason := sameKinds(lang, newCode, p, []int{l.start}, len(l.text), nw, l.kind); reason != "" {
		return Variant{}, reason
	}
	line, col := lineCol(code, l.start)
	return Variant{ID: variantID(p.lang, KindLiteral, newCode), Lang: p.lang, Kind: KindLiteral, Old: l.text, New: nw,
		Line: line, Col: col, Starts: []int{l.start}, Code: newCode}, ""
}

// sameKinds re-parses the variant and checks that it parses cleanly and that
// every replaced token is still a leaf of kind want (TransRepair's structural
// filter: the replacement keeps its part of speech).
func sameKinds(lang, newCode string, orig *parsed, starts []int, oldLen int, nw, want string) RefusalReason {
	q, err := parse(lang, newCode)
	if err != nil || q.hasError {
		return RefuseNoParse
	}
	shifted := map[int]bool{}
	for i, s := range starts {
		shifted[s+i*(len(nw)-oldLen)] = true
	}
	found := 0
	if want == "identifier" {
		for _, id := range q.idents {
			if shifted[id.start] && id.end-id.start == len(nw) && id.name == nw {
				found++
			}
		}
	} else {
		for _, l := range q.literals {
			if shifted[l.start] && l.text == nw && l.kind == want {
				found++
			}
		}
	}
	if found != len(starts) {
		return RefuseKindChanged
	}
	return ""
}

func replaceAt(code string, starts []int, oldLen int, nw string) string {
	sort.Ints(starts)
	var b strings.Builder
	prev := 0
	for _, s := range starts {
		b.WriteString(code[prev:s])
		b.WriteString(nw)
		prev = s + oldLen
	}
	b.WriteString(code[prev:])
	return b.String()
}

// wordIn reports whether w occurs in text as a whole word.
func wordIn(w, text string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], w)
		if j < 0 {
			return false
		}
		a, b := i+j, i+j+len(w)
		if (a == 0 || !isWordByte(text[a-1])) && (b == len(text) || !isWordByte(text[b])) {
			return true
		}
		i = a + 1
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func lineCol(code string, off int) (int, int) {
	line := 1 + strings.Count(code[:off], "\n")
	col := off - strings.LastIndex(code[:off], "\n")
	return line, col
}

func variantID(lang string, kind VariantKind, code string) string {
	h := sha256.Sum256([]byte(lang + "\x00" + string(kind) + "\x00" + code))
	return hex.EncodeToString(h[:8])
}
