// Package identity is the translator that returns its input unchanged, for
// same-language "directions" (java-java, python-python, cpp-cpp). Its MTS must be
// exactly 0 and its pass rate 1 on non-anomalous inputs: the pipeline's own
// self-check. Spec: "identity:".
package identity

import (
	"context"

	"transmute/schemas"
	"transmute/transforms/translate"
)

func init() {
	translate.Register("identity", func(ctx context.Context, rest string) (translate.Translator, error) {
		if err := translate.NoOptions("identity", rest); err != nil {
			return nil, err
		}
		return Translator{}, nil
	})
}

// Translator copies the source.
type Translator struct{}

// Name is "identity".
func (Translator) Name() string { return "identity" }

// Translate returns the request's code for same-language requests.
func (Translator) Translate(_ context.Context, r translate.Request) ([]translate.Translation, error) {
	if r.SrcLang != r.TgtLang {
		return []translate.Translation{{Status: schemas.TranslationUnsupported,
			Error: "identity translates a language into itself only"}}, nil
	}
	return []translate.Translation{{Status: schemas.TranslationOK, Code: r.Code, Imports: r.Imports, Entry: r.Entry}}, nil
}

// TranslatesVariants is true: it can copy anything.
func (Translator) TranslatesVariants() bool { return true }

// Directions are the same-language pairs.
func (Translator) Directions() [][2]string {
	var d [][2]string
	for _, l := range schemas.Languages {
		d = append(d, [2]string{l, l})
	}
	return d
}

// Close does nothing.
func (Translator) Close() error { return nil }
