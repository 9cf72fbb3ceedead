package mutate

import sitter "github.com/tree-sitter/go-tree-sitter"

// The grammars the mutants are made with, for the other packages that read or edit
// code by syntax (transforms/consistency, inspect, metamorph), so that each language
// has one definition.

// Grammar returns the tree-sitter language of lang (java, cpp, python and their
// aliases) and its canonical name.
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

// CanonicalLang maps a language name or alias (c++, py) to java, cpp or python.
func CanonicalLang(lang string) (string, error) {
	s, err := specFor(lang)
	if err != nil {
		return "", err
	}
	return s.name, nil
}
