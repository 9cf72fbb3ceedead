package mutate

import sitter "github.com/tree-sitter/go-tree-sitter"

// NewParser returns a tree-sitter parser for lang (java, cpp, python), the same
// grammar the mutants are made with, for other packages that edit code by syntax
// (transforms/consistency). The caller closes it.
func NewParser(lang string) (*sitter.Parser, error) {
	s, err := specFor(lang)
	if err != nil {
		return nil, err
	}
	return newParser(s)
}

// CanonicalLang maps a language name or alias (c++, py) to java, cpp or python.
func CanonicalLang(lang string) (string, error) {
	s, err := specFor(lang)
	if err != nil {
		return "", err
	}
	return s.name, nil
}
