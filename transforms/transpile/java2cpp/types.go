package java2cpp

import (
	"strings"

	"transmute/transforms/transpile/javasrc"
)

// Java types are tracked as normalized Java source text without spaces: "int", "long",
// "String", "int[]", "HashMap<Integer,Integer>". Boxed types are unboxed for arithmetic
// (javasrc.Unbox).

// isIntegral tells whether t is an integral primitive (after unboxing).
func isIntegral(t string) bool {
	switch javasrc.Unbox(t) {
	case "int", "long", "short", "byte", "char":
		return true
	}
	return false
}

func isNumeric(t string) bool { return isIntegral(t) || javasrc.IsFloating(t) }

func isString(t string) bool { return t == "String" }

func isBuilder(t string) bool { return t == "StringBuilder" || t == "StringBuffer" }

// isArray tells whether t is an array type.
func isArray(t string) bool { return strings.HasSuffix(t, "[]") }

// elem strips one array dimension.
func elem(t string) string { return strings.TrimSuffix(t, "[]") }

// unaryPromote applies Java's unary numeric promotion.
func unaryPromote(a string) string {
	switch a = javasrc.Unbox(a); a {
	case "char", "short", "byte":
		return "int"
	}
	return a
}

// generic splits "Name<A,B>" into "Name" (without its qualifier) and its
// top-level arguments (none is empty).
func generic(t string) (string, []string) {
	name, args, ok := javasrc.Generic(t)
	if !ok {
		return t, nil
	}
	if args[len(args)-1] == "" {
		args = args[:len(args)-1]
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
