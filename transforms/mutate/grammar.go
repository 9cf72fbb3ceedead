package mutate

import sitter "github.com/tree-sitter/go-tree-sitter"

// Grammar returns the tree-sitter language of lang (java, cpp, python), shared with
// the mutation operators so that every package parses a language the same way.
func Grammar(lang string) (*sitter.Language, error) {
	s, err := specFor(lang)
	if err != nil {
		return nil, err
	}
	return s.lang, nil
}
