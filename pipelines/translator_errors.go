package pipelines

import (
	"context"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"transmute/io/corpus"
	"transmute/schemas"
	"transmute/transforms/translate"
)

func init() {
	register.DoFn4x1[context.Context, string, func(*string) bool, func(schemas.ErrorRow), error](&translatorInputsFn{})
	register.DoFn3x1[context.Context, string, func(string), error](&corpusIDsFn{})
	register.Emitter1[schemas.ErrorRow]()
	register.Iter1[string]()
}

// translatorInputsFn opens one translator spec and emits an error row per line of
// its input files that it could not read (recorded translations), once per run
// rather than once per worker that opens the translator.
type translatorInputsFn struct {
	Run string
}

func (f *translatorInputsFn) ProcessElement(ctx context.Context, spec string, ids func(*string) bool, emit func(schemas.ErrorRow)) error {
	t, err := translate.Open(ctx, spec)
	if err != nil {
		return fmt.Errorf("translator %s: %w", spec, err)
	}
	defer t.Close()
	for _, r := range translate.InputErrorRows(f.Run, t) {
		emit(r)
	}
	// Recorded translations of problems that no corpus has: a wrong id or corpus,
	// which would otherwise go unseen (no request ever asks for them).
	u, ok := t.(interface {
		UnknownProblems(known func(string) bool) []translate.InputError
	})
	if !ok {
		return nil
	}
	known := map[string]bool{}
	var id string
	for ids(&id) {
		known[id] = true
	}
	for _, e := range u.UnknownProblems(func(id string) bool { return known[id] }) {
		emit(schemas.ErrorRow{Run: f.Run, Stage: translate.Stage, ProblemID: e.ProblemID, Reason: ReasonUnknownProblem,
			Detail: fmt.Sprintf("%s: %s line %d: %s", t.Name(), e.File, e.Line, e.Reason)})
	}
	return nil
}

// ReasonUnknownProblem is the error row of a recorded translation whose problem id
// no corpus of the run has.
const ReasonUnknownProblem = "unknown problem id"

// corpusIDsFn emits the id of every problem of a corpus, before any --limit or
// --problems selection: a recorded translation outside the selection is not unknown.
type corpusIDsFn struct{}

func (f *corpusIDsFn) ProcessElement(ctx context.Context, spec string, emit func(string)) error {
	c, err := corpus.Load(ctx, spec)
	if err != nil {
		return fmt.Errorf("load %s: %w", spec, err)
	}
	for _, p := range c.Problems {
		emit(p.ID)
	}
	return nil
}

// translatorInputErrors is the error rows of every translator's unreadable input
// lines and of its recorded translations of problems no corpus has.
func translatorInputErrors(s beam.Scope, c Config) beam.PCollection {
	s = s.Scope("TranslatorInputs")
	ids := beam.ParDo(s.Scope("CorpusIDs"), &corpusIDsFn{}, beam.CreateList(s, c.Corpora))
	return beam.ParDo(s, &translatorInputsFn{Run: c.Run}, beam.CreateList(s, c.Translators), beam.SideInput{Input: ids})
}
