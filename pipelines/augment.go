package pipelines

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"sort"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"gocloud.dev/blob"

	"transmute/io/sink"
	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/inputs"
	"transmute/transforms/mutate"
	"transmute/transforms/values"
)

// AugmentTables are the tables written by the augment job. Besides them it writes
// the augmented corpus as JSONL (AugmentCorpusKey, AugmentReducedKey).
var AugmentTables = []string{"problems", "augmented_tests", "augment", "augment_drops", "errors"}

// The augmented corpus's files under the output: every valid test, and the reduced
// suite only. Each is a corpus of its own for --corpus jsonl:<file>.
const (
	AugmentCorpusKey  = "corpus/augmented.jsonl"
	AugmentReducedKey = "corpus/reduced.jsonl"
)

// AugmentOptions configure the augment job.
type AugmentOptions struct {
	Seed  int64 `json:"seed"`
	Count int   `json:"count"` // generated inputs per problem
	// MaxMutants caps the mutants per gold language for the reduced suite; a
	// negative value skips the reduction.
	MaxMutants int `json:"max_mutants"`
}

func init() {
	beam.RegisterType(reflect.TypeOf((*augmentFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*inputs.Output)(nil)).Elem())
	register.Emitter1[inputs.Output]()
	registerTable[schemas.AugmentedTestRow]()
	registerTable[schemas.AugmentRow]()
	registerTable[schemas.AugmentDropRow]()
}

var problemsAugmented = beam.NewCounter("transmute", "problems_augmented")

// BuildAugment adds the augment job to s: Load the corpora, then per batch of
// problems generate new inputs, keep those valid by the golds, and reduce the
// suite (transforms/inputs); write the tables. FinishAugment writes the corpus.
func BuildAugment(s beam.Scope, c Config, o AugmentOptions) {
	c = c.WithDefaults()
	items, loadErrs := Load(s, c)
	outs := beam.ParDo(s.Scope("Augment"), &augmentFn{Exec: execOf(c), Options: o}, Batches(s.Scope("Augment"), items))
	errs := beam.Flatten(s, loadErrs, Split[schemas.ErrorRow](s, outs, "Errors"))
	writeTable[schemas.Problem](s, c.Output, "problems", c.RowsPerFile, Split[schemas.Problem](s, outs, "Problem"))
	writeTable[schemas.AugmentedTestRow](s, c.Output, "augmented_tests", c.RowsPerFile, Split[schemas.AugmentedTestRow](s, outs, "Tests"))
	writeTable[schemas.AugmentRow](s, c.Output, "augment", c.RowsPerFile, Split[schemas.AugmentRow](s, outs, "Summary"))
	writeTable[schemas.AugmentDropRow](s, c.Output, "augment_drops", c.RowsPerFile, Split[schemas.AugmentDropRow](s, outs, "Drops"))
	writeTable[schemas.ErrorRow](s, c.Output, "errors", c.RowsPerFile, errs)
}

// augmentFn augments a batch of problems on the worker's shared engines.
type augmentFn struct {
	Exec
	Options AugmentOptions

	aug   *inputs.Augmenter
	tools lazyTools
}

func (f *augmentFn) Teardown() error {
	f.tools.release()
	return nil
}

func (f *augmentFn) StartBundle(ctx context.Context, _ func(inputs.Output)) {
	executeBundles.Inc(ctx, 1)
	announceCounters(ctx, problemsAugmented)
}

func (f *augmentFn) ProcessElement(ctx context.Context, _ string, batch func(*evaluate.Item) bool, emit func(inputs.Output)) error {
	t, err := f.tools.get(ctx, f.toolSpec(false))
	if err != nil {
		return err
	}
	if f.aug == nil {
		o := f.Options
		if o.Count <= 0 {
			o.Count = 200
		}
		maxMut := o.MaxMutants
		if maxMut == 0 {
			maxMut = 12
		}
		ev := &evaluate.Evaluator{Run: f.Run, Engines: t.engines, Tolerance: values.DefaultTolerance,
			Limits: f.limits(), CppArgs: f.CppArgs}
		f.aug = &inputs.Augmenter{Run: f.Run, Generate: inputs.Options{Seed: o.Seed, Count: o.Count},
			Validator: inputs.Validator{Evaluator: ev},
			Reducer: inputs.Reducer{Engines: t.engines, Limits: f.limits(), Tolerance: values.DefaultTolerance,
				Mutate: mutate.Options{MaxTotal: maxMut, Seed: o.Seed}},
			NoReduce: maxMut < 0}
	}
	runBatch(batch, func(it evaluate.Item) inputs.Output { return f.aug.Augment(ctx, it.Problem) }, func(out inputs.Output) {
		problemsAugmented.Inc(ctx, 1)
		emit(out)
	})
	return nil
}

// FinishAugment writes the empty tables and the manifest (Finish).
func FinishAugment(ctx context.Context, b *blob.Bucket, m *Manifest) error {
	for table, write := range map[string]func() error{
		"augmented_tests": func() error {
			_, err := sink.WriteShard[schemas.AugmentedTestRow](ctx, b, "augmented_tests", nil)
			return err
		},
		"augment": func() error { _, err := sink.WriteShard[schemas.AugmentRow](ctx, b, "augment", nil); return err },
		"augment_drops": func() error {
			_, err := sink.WriteShard[schemas.AugmentDropRow](ctx, b, "augment_drops", nil)
			return err
		},
	} {
		_, shards, err := countRows(ctx, b, table)
		if err != nil {
			return err
		}
		if shards == 0 {
			if err := write(); err != nil {
				return err
			}
		}
	}
	return Finish(ctx, b, m, AugmentTables)
}

// WriteAugmentCorpus writes the augmented corpus as JSONL from the published tables
// of b: every valid test (AugmentCorpusKey) and the reduced suite
// (AugmentReducedKey), problems in id order. It runs after the publish, which
// installs only the tables' shards; like summary.txt, every run rewrites the files.
func WriteAugmentCorpus(ctx context.Context, b *blob.Bucket) error {
	probs, err := sink.Read[schemas.Problem](ctx, b, "problems")
	if err != nil {
		return err
	}
	tests, err := sink.Read[schemas.AugmentedTestRow](ctx, b, "augmented_tests")
	if err != nil {
		return err
	}
	reduced := map[string][]int{}
	for _, t := range tests {
		if t.Reduced {
			reduced[t.ProblemID] = append(reduced[t.ProblemID], int(t.TestIndex))
		}
	}
	sort.Slice(probs, func(i, j int) bool { return probs[i].ID < probs[j].ID })
	var all, mini bytes.Buffer
	for _, p := range probs {
		line, err := inputs.JSONLine(p, nil)
		if err != nil {
			return fmt.Errorf("augment: problem %s: %w", p.ID, err)
		}
		all.Write(line)
		keep := reduced[p.ID]
		sort.Ints(keep)
		if len(keep) == 0 {
			continue // not reduced (no mutants run): only in the whole corpus
		}
		if line, err = inputs.JSONLine(p, keep); err != nil {
			return err
		}
		mini.Write(line)
	}
	if err := b.WriteAll(ctx, AugmentCorpusKey, all.Bytes(), nil); err != nil {
		return err
	}
	return b.WriteAll(ctx, AugmentReducedKey, mini.Bytes(), nil)
}
