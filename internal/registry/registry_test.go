package registry

import (
	"slices"
	"sync"
	"testing"
)

func TestRegistry(t *testing.T) {
	var r Registry[int]
	if n := r.Names(); n != nil {
		t.Errorf("empty registry: names %v, want none", n)
	}
	if _, ok := r.Lookup("a"); ok {
		t.Error("empty registry: found a")
	}
	var wg sync.WaitGroup
	for i, name := range []string{"c", "a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.Register(name, i)
		}()
	}
	wg.Wait()
	r.Register("a", 7) // a later value replaces the first
	if got := r.Names(); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("names %v, want [a b c]", got)
	}
	if v, ok := r.Lookup("a"); !ok || v != 7 {
		t.Errorf("a = %d, %v; want 7, true", v, ok)
	}
	if v, ok := r.Lookup("c"); !ok || v != 0 {
		t.Errorf("c = %d, %v; want 0, true", v, ok)
	}
}
