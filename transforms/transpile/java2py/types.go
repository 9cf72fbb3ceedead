package java2py

import (
	"strings"

	"transmute/transforms/transpile/javasrc"
)

// Java types are kept as normalized source text without spaces: "int", "char[][]",
// "HashMap<Integer,Integer>", "Map.Entry<K,V>". Boxed types are mapped to primitives
// when reasoning about arithmetic (javasrc.Unbox).

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

func isIntegral(ty string) bool {
	switch javasrc.Unbox(ty) {
	case "int", "long", "short", "byte":
		return true
	}
	return false
}

func isChar(ty string) bool   { return javasrc.Unbox(ty) == "char" }
func isString(ty string) bool { return ty == "String" }
func isBool(ty string) bool   { return javasrc.Unbox(ty) == "boolean" }

// isNumeric tells whether a type takes part in arithmetic (char included).
func isNumeric(ty string) bool { return isIntegral(ty) || javasrc.IsFloating(ty) || isChar(ty) }

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
	_, args, _ := javasrc.Generic(ty)
	return args
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
