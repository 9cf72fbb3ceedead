package mutate

import (
	"regexp"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Type classes inferred for local names. muJava uses the compiler's types
// to decide where an operator applies (AOIU/AOIS only on numeric variables,
// LOI on integral ones, COI on boolean ones); this package approximates
// that with the declared types of parameters and locals (Java, C++) and
// with usage evidence (Python, which has no declarations).
type typeClass int

const (
	tUnknown typeClass = iota
	tInt
	tFloat
	tChar
	tBool
	tString
	tOther
)

type symbol struct {
	cls  typeClass
	dims int
}

// symbols maps a name to its declared type; a name declared twice with
// different types maps to tOther.
type symbols map[string]symbol

func (m symbols) add(name string, s symbol) {
	if name == "" {
		return
	}
	if old, ok := m[name]; ok && old != s {
		m[name] = symbol{cls: tOther}
		return
	}
	m[name] = s
}

var genericArgs = regexp.MustCompile(`<.*>`)

// classify maps a type spelling to a class and a number of array
// dimensions ("[]", vector<...> and pointers count as dimensions).
func classify(t string) symbol {
	t = strings.TrimSpace(t)
	dims := strings.Count(t, "[")
	t = strings.NewReplacer("[", "", "]", "").Replace(t)
	for {
		tl := strings.TrimSpace(t)
		if i := strings.Index(tl, "<"); i >= 0 && strings.HasSuffix(tl, ">") {
			head := strings.TrimSpace(tl[:i])
			if strings.HasSuffix(head, "vector") || strings.HasSuffix(head, "array") || strings.HasSuffix(head, "List") {
				dims++
				inner := tl[i+1 : len(tl)-1]
				if j := strings.Index(inner, ","); j >= 0 && !strings.Contains(inner[:j], "<") {
					inner = inner[:j]
				}
				t = inner
				continue
			}
			t = genericArgs.ReplaceAllString(tl, "")
		}
		break
	}
	dims += strings.Count(t, "*")
	t = strings.NewReplacer("*", " ", "&", " ", "const ", " ", "std::", "", "final ", " ").Replace(t)
	words := strings.Fields(t)
	base := strings.Join(words, " ")
	s := symbol{dims: dims, cls: tOther}
	switch {
	case base == "boolean" || base == "bool" || base == "Boolean":
		s.cls = tBool
	case base == "char" || base == "Character" || base == "wchar_t":
		s.cls = tChar
	case base == "String" || base == "string":
		s.cls = tString
	case base == "float" || base == "double" || base == "long double" || base == "Float" || base == "Double":
		s.cls = tFloat
	case base == "Integer" || base == "Long" || base == "Short" || base == "Byte":
		s.cls = tInt
	default:
		for _, w := range words {
			switch w {
			case "int", "long", "short", "byte", "unsigned", "signed", "size_t",
				"int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t":
				s.cls = tInt
			}
		}
		if strings.Contains(base, "char") && s.cls == tInt && !strings.Contains(base, "int") {
			s.cls = tChar // "unsigned char"
		}
	}
	return s
}

// collectSymbols reads the declarations captured as @decl.
func collectSymbols(s *langSpec, decls []sitter.Node, src []byte) symbols {
	syms := symbols{}
	for i := range decls {
		d := &decls[i]
		switch s.name {
		case "java":
			typ := d.ChildByFieldName("type")
			if typ == nil {
				continue
			}
			tt := typ.Utf8Text(src)
			if name := d.ChildByFieldName("name"); name != nil {
				dims := ""
				if dn := d.ChildByFieldName("dimensions"); dn != nil {
					dims = dn.Utf8Text(src)
				}
				syms.add(name.Utf8Text(src), classify(tt+dims))
			}
			for j := uint(0); j < d.NamedChildCount(); j++ {
				c := d.NamedChild(j)
				if c.Kind() != "variable_declarator" {
					continue
				}
				name := c.ChildByFieldName("name")
				if name == nil {
					continue
				}
				dims := ""
				if dn := c.ChildByFieldName("dimensions"); dn != nil {
					dims = dn.Utf8Text(src)
				}
				syms.add(name.Utf8Text(src), classify(tt+dims))
			}
		case "cpp":
			typ := d.ChildByFieldName("type")
			if typ == nil {
				continue
			}
			tt := typ.Utf8Text(src)
			for j := uint(0); j < d.NamedChildCount(); j++ {
				c := d.NamedChild(j)
				if sameNode(c, typ) || d.FieldNameForNamedChild(uint32(j)) != "declarator" {
					continue
				}
				name, extra := cppDeclName(c, src)
				if name != "" {
					syms.add(name, classify(tt+extra))
				}
			}
		}
	}
	return syms
}

// cppDeclName unwraps a C++ declarator into the declared name and a type
// suffix ("[]" per array dimension, "*" per pointer).
func cppDeclName(n *sitter.Node, src []byte) (string, string) {
	extra := ""
	for n != nil {
		switch n.Kind() {
		case "identifier":
			return n.Utf8Text(src), extra
		case "array_declarator":
			extra += "[]"
		case "pointer_declarator":
			extra += "*"
		case "init_declarator", "reference_declarator":
		default:
			return "", ""
		}
		if d := n.ChildByFieldName("declarator"); d != nil {
			n = d
		} else if n.NamedChildCount() > 0 {
			n = n.NamedChild(0)
		} else {
			return "", ""
		}
	}
	return "", ""
}

// pyTypes infers, from how each name is used, which Python names hold
// numbers and which hold booleans. A name is numeric when some occurrence
// is arithmetic-like (operand of an arithmetic/bitwise operator, compared
// with <,>, used as an index, a range() loop variable, assigned a number)
// and no occurrence is container-like (indexed, iterated, passed to len(),
// attribute access, called).
func pyTypes(idents []*sitter.Node, src []byte) symbols {
	pos, neg, boolish := map[string]bool{}, map[string]bool{}, map[string]bool{}
	numericRHS := func(r *sitter.Node) bool {
		switch r.Kind() {
		case "integer", "float", "unary_operator", "binary_operator":
			return true
		case "call":
			if f := r.ChildByFieldName("function"); f != nil {
				switch f.Utf8Text(src) {
				case "len", "int", "abs", "min", "max", "sum", "ord", "float", "round", "pow":
					return true
				}
			}
		}
		return false
	}
	for _, id := range idents {
		name := id.Utf8Text(src)
		par := id.Parent()
		if par == nil {
			continue
		}
		switch par.Kind() {
		case "binary_operator", "unary_operator", "augmented_assignment":
			if par.Kind() == "augmented_assignment" && !strings.ContainsAny(opText(par, src), "-*/%&|^<>") {
				// += also concatenates.
				if r := par.ChildByFieldName("right"); r != nil && !numericRHS(r) {
					break
				}
			}
			if par.Kind() == "binary_operator" && (opText(par, src) == "+" || opText(par, src) == "*") {
				l, r := par.ChildByFieldName("left"), par.ChildByFieldName("right")
				other := l
				if sameNode(l, id) {
					other = r
				}
				if other != nil && (other.Kind() == "string" || other.Kind() == "list" || other.Kind() == "tuple") {
					neg[name] = true
					break
				}
			}
			pos[name] = true
		case "comparison_operator":
			for i := uint(0); i < par.ChildCount(); i++ {
				switch par.Child(i).Kind() {
				case "<", ">", "<=", ">=":
					pos[name] = true
				}
			}
		case "subscript":
			if sameNode(par.ChildByFieldName("value"), id) {
				neg[name] = true
			} else {
				pos[name] = true
			}
		case "attribute":
			if sameNode(par.ChildByFieldName("object"), id) {
				neg[name] = true
			}
		case "call":
			if sameNode(par.ChildByFieldName("function"), id) {
				neg[name] = true
			}
		case "for_statement", "for_in_clause":
			if sameNode(par.ChildByFieldName("right"), id) {
				neg[name] = true
			} else if r := par.ChildByFieldName("right"); r != nil && r.Kind() == "call" {
				if f := r.ChildByFieldName("function"); f != nil && f.Utf8Text(src) == "range" {
					pos[name] = true
				}
			}
		case "argument_list":
			if call := par.Parent(); call != nil && call.Kind() == "call" {
				if f := call.ChildByFieldName("function"); f != nil {
					switch f.Utf8Text(src) {
					case "len", "sorted", "list", "set", "sum", "enumerate", "reversed", "zip":
						neg[name] = true
					case "range", "abs", "chr":
						pos[name] = true
					}
				}
			}
		case "assignment":
			r := par.ChildByFieldName("right")
			if sameNode(par.ChildByFieldName("left"), id) && r != nil {
				switch {
				case numericRHS(r):
					pos[name] = true
				case r.Kind() == "comparison_operator" || r.Kind() == "true" || r.Kind() == "false" ||
					r.Kind() == "not_operator" || r.Kind() == "boolean_operator":
					boolish[name] = true
				case r.Kind() == "list" || r.Kind() == "string" || r.Kind() == "dictionary" ||
					r.Kind() == "list_comprehension" || r.Kind() == "set" || r.Kind() == "tuple":
					neg[name] = true
				}
			}
		}
	}
	syms := symbols{}
	for name := range pos {
		if !neg[name] && !boolish[name] {
			syms[name] = symbol{cls: tInt}
		}
	}
	for name := range boolish {
		if !pos[name] && !neg[name] {
			syms[name] = symbol{cls: tBool}
		}
	}
	return syms
}
