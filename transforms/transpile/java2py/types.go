package java2py

import "strings"

// Java types are kept as normalized source text without spaces: "int", "char[][]",
// "HashMap<Integer,Integer>", "Map.Entry<K,V>". Boxed types are mapped to primitives
// when reasoning about arithmetic (prim).

// typeOf returns the normalized type of a type node plus extra declarator dimensions.
func (t *translator) typeOf(ty *node, dims *node) string {
	if ty == nil {
		return "?"
	}
	s := strings.Join(strings.Fields(t.text(ty)), "")
	s = strings.TrimPrefix(s, "final")
	s = strings.ReplaceAll(strings.ReplaceAll(s, "java.util.", ""), "java.lang.", "")
	return s + dimsSuffix(t, dims)
}

func dimsSuffix(t *translator, dims *node) string {
	if dims == nil {
		return ""
	}
	return strings.Repeat("[]", strings.Count(t.text(dims), "["))
}

var boxed = map[string]string{
	"Integer": "int", "Long": "long", "Character": "char", "Boolean": "boolean",
	"Double": "double", "Float": "float", "Short": "short", "Byte": "byte",
}

// prim maps a boxed type to its primitive.
func prim(ty string) string {
	if p, ok := boxed[ty]; ok {
		return p
	}
	return ty
}

func isIntegral(ty string) bool {
	switch prim(ty) {
	case "int", "long", "short", "byte":
		return true
	}
	return false
}

func isFloating(ty string) bool {
	switch prim(ty) {
	case "double", "float":
		return true
	}
	return false
}

func isChar(ty string) bool   { return prim(ty) == "char" }
func isString(ty string) bool { return ty == "String" }
func isBool(ty string) bool   { return prim(ty) == "boolean" }

// isNumeric tells whether a type takes part in arithmetic (char included).
func isNumeric(ty string) bool { return isIntegral(ty) || isFloating(ty) || isChar(ty) }

func isArray(ty string) bool { return strings.HasSuffix(ty, "[]") }

func elemType(ty string) string {
	if isArray(ty) {
		return ty[:len(ty)-2]
	}
	return "?"
}

// baseName strips generic arguments: "HashMap<Integer,Integer>" -> "HashMap".
func baseName(ty string) string {
	if i := strings.IndexByte(ty, '<'); i >= 0 {
		return ty[:i]
	}
	return ty
}

// typeArgs returns the top-level generic arguments.
func typeArgs(ty string) []string {
	i := strings.IndexByte(ty, '<')
	if i < 0 || !strings.HasSuffix(ty, ">") {
		return nil
	}
	inner := ty[i+1 : len(ty)-1]
	var out []string
	depth, start := 0, 0
	for j := 0; j < len(inner); j++ {
		switch inner[j] {
		case '<':
			depth++
		case '>':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, inner[start:j])
				start = j + 1
			}
		}
	}
	return append(out, inner[start:])
}

func typeArg(ty string, i int) string {
	a := typeArgs(ty)
	if i < len(a) {
		return a[i]
	}
	return "?"
}

// collection kinds of Java types
const (
	kList  = "list"
	kDeque = "deque"
	kStack = "stack"
	kSet   = "set"
	kTSet  = "treeset"
	kMap   = "map"
	kTMap  = "treemap"
	kEntry = "entry"
	kSB    = "sb"
	kStrm  = "stream"
	kOpt   = "optional"
	kPQ    = "pq"
	kPair  = "pair"
	kPQMax = "pqmax"
)

func collKind(ty string) string {
	switch baseName(ty) {
	case "List", "ArrayList", "Vector", "Collection", "AbstractList":
		return kList
	case "LinkedList", "Queue", "Deque", "ArrayDeque":
		return kDeque
	case "Stack":
		return kStack
	case "Set", "HashSet", "LinkedHashSet":
		return kSet
	case "TreeSet", "SortedSet", "NavigableSet":
		return kTSet
	case "Map", "HashMap", "LinkedHashMap", "Hashtable":
		return kMap
	case "TreeMap", "SortedMap", "NavigableMap":
		return kTMap
	case "Map.Entry", "Entry", "HashMap.Entry", "TreeMap.Entry", "AbstractMap.SimpleEntry", "SimpleEntry":
		return kEntry
	case "PriorityQueue":
		return kPQ
	case "Pair", "SimpleImmutableEntry":
		return kPair
	case "MaxPriorityQueue":
		return kPQMax
	case "StringBuilder", "StringBuffer":
		return kSB
	case "IntStream", "LongStream", "DoubleStream", "Stream":
		return kStrm
	case "OptionalInt", "OptionalLong", "OptionalDouble", "Optional":
		return kOpt
	}
	return ""
}

// binaryPromote is Java's binary numeric promotion.
func binaryPromote(a, b string) string {
	a, b = prim(a), prim(b)
	switch {
	case a == "double" || b == "double":
		return "double"
	case a == "float" || b == "float":
		return "float"
	case a == "long" || b == "long":
		return "long"
	}
	return "int"
}

// defaultValue is the Python value of a Java field/array element default.
func defaultValue(ty string) string {
	switch ty {
	case "int", "long", "short", "byte":
		return "0"
	case "double", "float":
		return "0.0"
	case "boolean":
		return "False"
	case "char":
		return `'\x00'`
	}
	return "None"
}
