package javasrc

import (
	"slices"
	"testing"
)

func TestGeneric(t *testing.T) {
	cases := []struct {
		in, name string
		args     []string
		ok       bool
	}{
		{"int", "int", nil, false},
		{"int[]", "int[]", nil, false},
		{"List<Integer>", "List", []string{"Integer"}, true},
		{"HashMap<Integer,List<Integer>>", "HashMap", []string{"Integer", "List<Integer>"}, true},
		{"Map<Map<A,B>,C>", "Map", []string{"Map<A,B>", "C"}, true},
		{"HashMap<>", "HashMap", []string{""}, true},
		{"Map.Entry<K,V>", "Map.Entry", []string{"K", "V"}, true},
		{"List<Integer>[]", "List<Integer>[]", nil, false},
	}
	for _, c := range cases {
		name, args, ok := Generic(c.in)
		if name != c.name || !slices.Equal(args, c.args) || ok != c.ok {
			t.Errorf("Generic(%q) = %q, %q, %v; want %q, %q, %v", c.in, name, args, ok, c.name, c.args, c.ok)
		}
	}
}

func TestPromote(t *testing.T) {
	cases := [][3]string{
		{"int", "int", "int"}, {"char", "short", "int"}, {"byte", "Integer", "int"},
		{"int", "long", "long"}, {"Long", "int", "long"}, {"long", "float", "float"},
		{"Float", "double", "double"}, {"Double", "char", "double"},
	}
	for _, c := range cases {
		if got := Promote(c[0], c[1]); got != c[2] {
			t.Errorf("Promote(%s, %s) = %s, want %s", c[0], c[1], got, c[2])
		}
	}
	for boxed, prim := range map[string]string{"Integer": "int", "Character": "char", "Boolean": "boolean", "String": "String", "int": "int"} {
		if got := Unbox(boxed); got != prim {
			t.Errorf("Unbox(%s) = %s, want %s", boxed, got, prim)
		}
	}
}

func TestParseAndFirstErrorLine(t *testing.T) {
	good := Parse([]byte("class A {\n  static int f(int x) { return x + 1; }\n}\n"))
	if good == nil {
		t.Fatal("no tree for valid Java")
	}
	defer good.Close()
	if good.RootNode().HasError() {
		t.Error("valid Java parsed with an error")
	}
	bad := Parse([]byte("class A {\n  static int f(int x) {\n    return x +;\n  }\n}\n"))
	if bad == nil {
		t.Fatal("no tree for invalid Java")
	}
	defer bad.Close()
	if root := bad.RootNode(); !root.HasError() || FirstErrorLine(root) != 3 {
		t.Errorf("invalid Java: error %v at line %d, want line 3", root.HasError(), FirstErrorLine(root))
	}
}
