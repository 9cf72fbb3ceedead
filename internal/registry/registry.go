// Package registry is a table of named values that packages fill from their init
// functions and others read at any time: the execution engines' openers by
// language, the translators' by scheme.
package registry

import (
	"maps"
	"slices"
	"sync"
)

// Registry maps names to values; its zero value is empty and ready to use, and
// it is safe for concurrent use.
type Registry[T any] struct {
	mu sync.Mutex
	m  map[string]T
}

// Register sets the value of name, replacing any earlier one.
func (r *Registry[T]) Register(name string, v T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[string]T{}
	}
	r.m[name] = v
}

// Lookup returns the value of name and whether there is one.
func (r *Registry[T]) Lookup(name string) (T, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	v, ok := r.m[name]
	return v, ok
}

// Names lists the registered names, sorted (nil when there are none).
func (r *Registry[T]) Names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Sorted(maps.Keys(r.m))
}
