// Package translate defines the translator interface and its registry. A translator is
// opened from a URL-like spec, like a gocloud driver: "identity:", "recorded:<url>",
// "builtin:", "openai://...", "command:...". Each scheme registers an Opener.
package translate

import (
	"context"
	"fmt"
	"strings"

	"transmute/internal/registry"
	"transmute/schemas"
)

// Request asks for the translation of one function (an original or a variant).
type Request struct {
	ProblemID string
	Corpus    string
	VariantID string // "orig" for the original function
	SrcLang   string
	TgtLang   string
	Code      string // the source function
	Imports   string
	Entry     string // the source function's name
	Params    []schemas.Param
	Returns   string
	// Feedback, when set, carries the previous round's translation and how it ran
	// (for refinement prompts such as TRACE's perf-self-refine).
	Feedback *Feedback
}

// Feedback describes a previous translation's execution.
type Feedback struct {
	PrevCode     string
	TestResult   float64 // share of tests passed
	ExecFeedback string
	TimeSec      float64
	MemMB        float64
}

// Translation is one output (one sample) of a translator.
type Translation struct {
	Sample  int32
	Status  schemas.TranslationStatus
	Error   string
	Code    string
	Imports string
	// Entry is the function to call in Code; empty lets the engine pick it.
	Entry      string
	PromptHash string
	LatencyMs  int64
	TokensIn   int64
	TokensOut  int64
	Cached     bool
	// Raw is the answer Code was extracted from, when it was (a fenced recorded answer).
	Raw string
}

// Translator turns source functions into target-language functions.
type Translator interface {
	// Name identifies the translator in tables ("gpt-4o", "identity", "builtin").
	Name() string
	// Translate returns one Translation per sample. A translator that cannot translate
	// the request returns a Translation with a non-ok status, not an error; an error
	// means the translator itself is broken.
	Translate(ctx context.Context, r Request) ([]Translation, error)
	// TranslatesVariants tells whether the translator can translate code it has not
	// seen (mutants, metamorphic variants). Recorded translators cannot.
	TranslatesVariants() bool
	// Directions lists the (src, tgt) pairs it supports; nil means any.
	Directions() [][2]string
	Close() error
}

// Opener creates a translator from the part of the spec after "scheme:".
type Opener func(ctx context.Context, rest string) (Translator, error)

var openers registry.Registry[Opener]

// Register makes a scheme available to Open.
func Register(scheme string, o Opener) { openers.Register(scheme, o) }

// Open opens a translator from a spec "scheme:rest" (or "scheme://rest").
func Open(ctx context.Context, spec string) (Translator, error) {
	scheme, rest, _ := strings.Cut(spec, ":")
	o, ok := openers.Lookup(scheme)
	if !ok {
		return nil, fmt.Errorf("translate: unknown translator scheme %q in %q (have %v)", scheme, spec, Schemes())
	}
	return o(ctx, rest)
}

// Schemes lists the registered schemes.
func Schemes() []string { return openers.Names() }

// Supports tells whether t translates src to tgt.
func Supports(t Translator, src, tgt string) bool {
	d := t.Directions()
	if d == nil {
		return true
	}
	for _, p := range d {
		if p[0] == src && p[1] == tgt {
			return true
		}
	}
	return false
}
