package pipelines

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"

	"transmute/io/corpus"
	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/score"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*loadFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*evaluate.Item)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*evaluate.Output)(nil)).Elem())
	for _, t := range []any{schemas.Problem{}, schemas.Task{}, schemas.TranslationRow{}, schemas.ExecutionRow{},
		schemas.ResultRow{}, schemas.ScoreRow{}, schemas.ErrorRow{}, schemas.FidelityRow{}, schemas.VerdictRow{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	beam.RegisterFunction(keyResult)
	beam.RegisterFunction(splitVerdicts)
	beam.RegisterFunction(programKeys)
}

// loadFn reads one corpus spec and emits its problems keyed by id, with the tasks
// of the requested directions; problems it cannot ingest are error rows.
type loadFn struct {
	Run        string
	Directions string
	Limit      int
	Problems   []string // the problems selected; empty = all
	MaxLine    int
}

func (f *loadFn) ProcessElement(ctx context.Context, spec string, emit func(string, evaluate.Item), emitErr func(schemas.ErrorRow)) error {
	// A JSONL corpus is streamed and read no further than the limit, unless problems
	// are selected by id: the limit then applies to the selected ones.
	o := corpus.Options{Limit: f.Limit, MaxLineBytes: f.MaxLine}
	if len(f.Problems) > 0 {
		o.Limit = 0
	}
	c, err := corpus.LoadWith(ctx, spec, o)
	if err != nil {
		// A corpus that cannot be opened at all is a configuration error: fail loudly.
		return fmt.Errorf("load %s: %w", spec, err)
	}
	for _, e := range c.Errors {
		e.Run = f.Run
		emitErr(e)
	}
	dirs, err := evaluate.Directions(f.Directions)
	if err != nil {
		return err
	}
	tasks := map[string][]schemas.Task{}
	for _, t := range c.Tasks {
		tasks[t.ProblemID] = append(tasks[t.ProblemID], t)
	}
	var selected map[string]bool
	if len(f.Problems) > 0 {
		selected = map[string]bool{}
		for _, id := range f.Problems {
			selected[id] = true
		}
	}
	n := 0
	for _, p := range c.Problems {
		if selected != nil && !selected[p.ID] {
			continue
		}
		if f.Limit > 0 && n >= f.Limit {
			break
		}
		n++
		ts := filterTasks(p, tasks[p.ID], dirs)
		emit(p.ID, evaluate.Item{Problem: p, Tasks: ts})
	}
	log.Infof(ctx, "corpus %s: %d problems, %d tasks, %d error rows", spec, len(c.Problems), len(c.Tasks), len(c.Errors))
	return nil
}

// filterTasks keeps the tasks in dirs (all when dirs is nil) and adds same-language
// directions requested explicitly (for the identity translator).
func filterTasks(p schemas.Problem, ts []schemas.Task, dirs []schemas.Direction) []schemas.Task {
	if dirs == nil {
		return ts
	}
	want := map[schemas.Direction]bool{}
	for _, d := range dirs {
		want[d] = true
	}
	var out []schemas.Task
	have := map[schemas.Direction]bool{}
	for _, t := range ts {
		d := schemas.DirectionOf(t)
		if want[d] {
			out = append(out, t)
			have[d] = true
		}
	}
	for _, d := range dirs {
		if d.Src == d.Tgt && !have[d] {
			if _, ok := p.Function(d.Src); ok {
				out = append(out, schemas.Task{ProblemID: p.ID, Corpus: p.Corpus, SrcLang: d.Src, TgtLang: d.Tgt})
			}
		}
	}
	return out
}

var (
	problemsDone = beam.NewCounter("transmute", "problems_evaluated")
	programsRun  = beam.NewCounter("transmute", "programs_run")
)

// keyResult keys a result row for Score without its expected and actual values:
// the scores never read them, and they are most of a row's bytes, which a runner
// that does not lift the combiner sends through the shuffle.
func keyResult(r schemas.ResultRow) (string, schemas.ResultRow) {
	r.Expected, r.Actual = "", ""
	return score.KeyOf(r).String(), r
}

// splitVerdicts emits the verdicts of one problem's results (score.Verdicts): every
// result row of a translation is in its problem's output, so no grouping is needed.
func splitVerdicts(out evaluate.Output, emit func(schemas.VerdictRow)) {
	for _, v := range score.Verdicts(out.Results) {
		emit(v)
	}
}

// programKeys fills a translation's execution row with the plain keys its
// ProgramID (evaluate.TranslationID, "tr/<translator>/<src>-<tgt>/<sample>") holds,
// so that the table joins on columns; gold rows keep them NULL.
func programKeys(r schemas.ExecutionRow) schemas.ExecutionRow {
	rest, ok := strings.CutPrefix(r.ProgramID, "tr/"+r.Translator+"/")
	if r.Role != "translation" || !ok {
		return r
	}
	dir, sample, ok := strings.Cut(rest, "/")
	src, tgt, ok2 := strings.Cut(dir, "-")
	n, err := strconv.ParseInt(sample, 10, 32)
	if !ok || !ok2 || err != nil {
		return r
	}
	s := int32(n)
	r.SrcLang, r.TgtLang, r.Sample = src, tgt, &s
	return r
}
