package mutate

import sitter "github.com/tree-sitter/go-tree-sitter"

// Grammar returns the tree-sitter language of lang (java, cpp, python and their
// aliases) and its canonical name, for other packages that walk the same trees
// (transforms/metamorph, transforms/properties) without loading a grammar twice.
func Grammar(lang string) (*sitter.Language, string, error) {
	s, err := specFor(lang)
	if err != nil {
		return nil, "", err
	}
	return s.lang, s.name, nil
}

// NewParser returns a parser for lang; the caller closes it.
func NewParser(lang string) (*sitter.Parser, error) {
	s, err := specFor(lang)
	if err != nil {
		return nil, err
	}
	return newParser(s)
}
