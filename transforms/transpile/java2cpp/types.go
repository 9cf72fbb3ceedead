package java2cpp

import "strings"

// Java types are tracked as normalized Java source text without spaces: "int", "long",
// "String", "int[]", "HashMap<Integer,Integer>". Boxed types are unboxed for arithmetic.

// unbox maps a boxed Java type to its primitive.
func unbox(t string) string {
	switch t {
	case "Integer":
		return "int"
	case "Long":
		return "long"
	case "Character":
		return "char"
	case "Boolean":
		return "boolean"
	case "Double":
		return "double"
	case "Float":
		return "float"
	case "Short":
		return "short"
	case "Byte":
		return "byte"
	}
	return t
}

// isIntegral tells whether t is an integral primitive (after unboxing).
func isIntegral(t string) bool {
	switch unbox(t) {
	case "int", "long", "short", "byte", "char":
		return true
	}
	return false
}

// isFloating tells whether t is float or double.
func isFloating(t string) bool {
	switch unbox(t) {
	case "float", "double":
		return true
	}
	return false
}

func isNumeric(t string) bool { return isIntegral(t) || isFloating(t) }

func isString(t string) bool { return t == "String" }

func isBuilder(t string) bool { return t == "StringBuilder" || t == "StringBuffer" }

// isArray tells whether t is an array type.
func isArray(t string) bool { return strings.HasSuffix(t, "[]") }

// elem strips one array dimension.
func elem(t string) string { return strings.TrimSuffix(t, "[]") }

// promote applies Java's binary numeric promotion.
func promote(a, b string) string {
	a, b = unbox(a), unbox(b)
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

// unaryPromote applies Java's unary numeric promotion.
func unaryPromote(a string) string {
	switch a = unbox(a); a {
	case "char", "short", "byte":
		return "int"
	}
	return a
}

// generic splits "Name<A,B>" into "Name" and its top-level arguments.
func generic(t string) (string, []string) {
	i := strings.IndexByte(t, '<')
	if i < 0 || !strings.HasSuffix(t, ">") {
		return t, nil
	}
	name, inner := t[:i], t[i+1:len(t)-1]
	var args []string
	depth, start := 0, 0
	for k := 0; k < len(inner); k++ {
		switch inner[k] {
		case '<':
			depth++
		case '>':
			depth--
		case ',':
			if depth == 0 {
				args = append(args, inner[start:k])
				start = k + 1
			}
		}
	}
	if start < len(inner) {
		args = append(args, inner[start:])
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return name, args
}

// collection kinds of Java library types.
const (
	kNone  = ""
	kList  = "list"  // ArrayList, List, Vector -> std::vector
	kDeque = "deque" // LinkedList, Queue, Deque, ArrayDeque -> std::deque
	kStack = "stack" // Stack -> std::vector (push/pop at the back)
	kMap   = "map"   // HashMap, Map, TreeMap -> std::map
	kSet   = "set"   // HashSet, Set, TreeSet -> std::set
	kPQ    = "pq"    // PriorityQueue -> std::priority_queue
	kEntry = "entry" // Map.Entry -> std::pair
)

// kindOf classifies a Java library type.
func kindOf(t string) string {
	name, _ := generic(t)
	switch name {
	case "ArrayList", "List", "Vector":
		return kList
	case "LinkedList", "Queue", "Deque", "ArrayDeque":
		return kDeque
	case "Stack":
		return kStack
	case "HashMap", "Map", "TreeMap":
		return kMap
	case "HashSet", "Set", "TreeSet":
		return kSet
	case "PriorityQueue":
		return kPQ
	case "Entry":
		return kEntry
	}
	return kNone
}

// typeArg returns the i-th generic argument of t (unboxed), or "" when absent.
func typeArg(t string, i int) string {
	_, args := generic(t)
	if i < len(args) {
		return args[i]
	}
	return ""
}
