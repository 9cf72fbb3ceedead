// Package builtin registers Transmute's own rule-based transpilers as the translator
// "builtin:": Java to Python (transforms/transpile/java2py), Java to C++
// (transforms/transpile/java2cpp) and Java to Go (transforms/transpile/java2go). They are deterministic, offline and fast, and can
// translate any variant, so MBTA runs without an LLM endpoint.
package builtin

import (
	"context"
	"errors"
	"fmt"

	"transmute/schemas"
	"transmute/transforms/translate"
	"transmute/transforms/transpile/java2cpp"
	"transmute/transforms/transpile/java2go"
	"transmute/transforms/transpile/java2py"
	"transmute/transforms/transpile/javasrc"
)

func init() {
	translate.Register("builtin", func(ctx context.Context, rest string) (translate.Translator, error) {
		if err := translate.NoOptions("builtin", rest); err != nil {
			return nil, err
		}
		return Translator{}, nil
	})
}

// Translator dispatches on the direction.
type Translator struct{}

// Name is "builtin".
func (Translator) Name() string { return "builtin" }

// Translate translates one Java function.
func (Translator) Translate(_ context.Context, r translate.Request) ([]translate.Translation, error) {
	if r.SrcLang != schemas.Java {
		return []translate.Translation{{Status: schemas.TranslationUnsupported,
			Error: fmt.Sprintf("builtin translates from java only, not %s", r.SrcLang)}}, nil
	}
	var res javasrc.Result
	var err error
	switch r.TgtLang {
	case schemas.Python:
		res, err = java2py.Translate(r.Code)
	case schemas.Cpp:
		res, err = java2cpp.Translate(r.Code)
	case schemas.Go:
		res, err = java2go.Translate(r.Code)
	default:
		return []translate.Translation{{Status: schemas.TranslationUnsupported,
			Error: fmt.Sprintf("builtin translates java to python, cpp and go, not %s", r.TgtLang)}}, nil
	}
	if err != nil {
		st := schemas.TranslationError
		// The three translators share javasrc's error type.
		var ue *javasrc.UnsupportedError
		if errors.As(err, &ue) {
			st = schemas.TranslationUnsupported
		}
		return []translate.Translation{{Status: st, Error: err.Error()}}, nil
	}
	return []translate.Translation{{Status: schemas.TranslationOK, Code: res.Code, Imports: res.Imports, Entry: res.Entry}}, nil
}

// TranslatesVariants is true: rules apply to any Java code.
func (Translator) TranslatesVariants() bool { return true }

// Directions: java to python, cpp and go.
func (Translator) Directions() [][2]string {
	return [][2]string{{schemas.Java, schemas.Python}, {schemas.Java, schemas.Cpp}, {schemas.Java, schemas.Go}}
}

// Close does nothing.
func (Translator) Close() error { return nil }
