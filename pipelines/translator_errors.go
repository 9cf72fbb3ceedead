package pipelines

import (
	"context"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"transmute/schemas"
	"transmute/transforms/translate"
)

func init() {
	register.DoFn3x1[context.Context, string, func(schemas.ErrorRow), error](&translatorInputsFn{})
	register.Emitter1[schemas.ErrorRow]()
}

// translatorInputsFn opens one translator spec and emits an error row per line of
// its input files that it could not read (recorded translations), once per run
// rather than once per worker that opens the translator.
type translatorInputsFn struct {
	Run string
}

func (f *translatorInputsFn) ProcessElement(ctx context.Context, spec string, emit func(schemas.ErrorRow)) error {
	t, err := translate.Open(ctx, spec)
	if err != nil {
		return fmt.Errorf("translator %s: %w", spec, err)
	}
	defer t.Close()
	for _, r := range translate.InputErrorRows(f.Run, t) {
		emit(r)
	}
	return nil
}

// translatorInputErrors is the error rows of every translator's unreadable input lines.
func translatorInputErrors(s beam.Scope, c Config) beam.PCollection {
	s = s.Scope("TranslatorInputs")
	return beam.ParDo(s, &translatorInputsFn{Run: c.Run}, beam.CreateList(s, c.Translators))
}
