package pipelines

import (
	"bytes"
	"context"
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"gocloud.dev/blob"

	"transmute/io/blobs"
	"transmute/io/sink"
	"transmute/schemas"
	"transmute/transforms/similarity"
)

// SimilarityTables are written by the similarity job (RUBY, Tran et al.): one row
// per translation, and the correlations of the analysis.
var SimilarityTables = []string{"similarity", "similarity_stats"}

// SimilarityOptions: From is the output of an evaluate job (its problems,
// translations and results tables); Resamples and Seed drive the bootstrap
// intervals.
type SimilarityOptions struct {
	From      string
	Resamples int
	Seed      uint64
}

func init() {
	for _, t := range []any{&simScoreFn{}, &simAnalyzeFn{}, &simOverallFn{}, &readTableFn[schemas.Problem]{},
		&readTableFn[schemas.TranslationRow]{}, &readTableFn[schemas.ResultRow]{}} {
		beam.RegisterType(reflect.TypeOf(t).Elem())
	}
	beam.RegisterType(reflect.TypeOf((*similarity.GroupJob)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*similarity.TestResult)(nil)).Elem())
	registerTable[schemas.SimilarityRow]()
	registerTable[schemas.SimilarityStatRow]()
	register.Combiner3[*similarity.TrivialAcc, schemas.Problem, similarity.Trivial](&simTrivialFn{})
	register.Combiner3[*similarity.RowsAcc, schemas.SimilarityRow, similarity.RowsAcc](&simRowsFn{})
	beam.RegisterCoder(reflect.TypeOf((*similarity.TrivialAcc)(nil)), encodeTrivialAcc, decodeTrivialAcc)
	beam.RegisterCoder(reflect.TypeOf((*similarity.RowsAcc)(nil)), encodeRowsAcc, decodeRowsAcc)
	beam.RegisterCoder(reflect.TypeOf(similarity.Trivial{}), encodeTrivial, decodeTrivial)
	beam.RegisterCoder(reflect.TypeOf(similarity.RowsAcc{}), encodeRows, decodeRows)
	beam.RegisterFunction(keyProblem)
	beam.RegisterFunction(keyOriginal)
	beam.RegisterFunction(keyTargetGold)
	beam.RegisterFunction(planGroups)
}

// BuildSimilarity adds the similarity job: read an evaluate output's tables (o.From),
// score each problem's translations against its references (one element per
// problem after a CoGroupByKey of the problem, its translations and its
// target-gold results; CrystalBLEU's trivial n-grams, counted over every problem by
// a combiner, as a side input), gather the usable rows with a combiner, analyse
// each group (all, per direction, per model, ...) as an element of its own, and
// write the SimilarityTables.
func BuildSimilarity(s beam.Scope, c Config, o SimilarityOptions) {
	c = c.WithDefaults()
	s = s.Scope("Similarity")
	problems := readTable[schemas.Problem](s, o.From, "problems")
	trivial := beam.Combine(s.Scope("Trivial"), &simTrivialFn{}, problems)
	joined := beam.CoGroupByKey(s.Scope("Join"), beam.ParDo(s, keyProblem, problems),
		beam.ParDo(s, keyOriginal, readTable[schemas.TranslationRow](s, o.From, "translations")),
		beam.ParDo(s, keyTargetGold, readTable[schemas.ResultRow](s, o.From, "results")))
	rows := beam.ParDo(s.Scope("Score"), &simScoreFn{Run: c.Run}, joined, beam.SideInput{Input: trivial})
	stats := SimilarityStats(s, c.Run, o, rows)

	writeTable[schemas.SimilarityRow](s, c.Output, "similarity", c.RowsPerFile, rows)
	writeTable[schemas.SimilarityStatRow](s, c.Output, "similarity_stats", c.RowsPerFile, stats)
}

// SimilarityStats is the analysis of the similarity rows (similarity.Analyze): a
// combiner gathers the usable rows (every group's correlations and bootstraps need
// all of its rows), similarity.Plan splits them into groups, and each group is
// analysed as an element of its own after a Reshuffle, its bootstraps seeded by
// its place in the plan; the counts over every row (counterexamples, system-level
// ranks) come from the gathered rows.
func SimilarityStats(s beam.Scope, run string, o SimilarityOptions, rows beam.PCollection) beam.PCollection {
	s = s.Scope("Analyze")
	all := beam.Combine(s, &simRowsFn{}, rows)
	jobs := beam.Reshuffle(s, beam.ParDo(s, planGroups, all))
	groups := beam.ParDo(s, &simAnalyzeFn{Run: run, Resamples: o.Resamples, Seed: o.Seed}, jobs)
	return beam.Flatten(s, groups, beam.ParDo(s, &simOverallFn{Run: run}, all))
}

// readTableFn reads one table of a finished run (its published shards) and emits
// its rows.
type readTableFn[T Row] struct {
	From  string
	Table string
}

func (f *readTableFn[T]) ProcessElement(ctx context.Context, _ []byte, emit func(T)) error {
	b, err := blobs.Open(ctx, f.From)
	if err != nil {
		return err
	}
	defer b.Close()
	rows, err := sink.Read[T](ctx, b, f.Table)
	if err != nil {
		return fmt.Errorf("reading %s of %s: %w", f.Table, f.From, err)
	}
	for _, r := range rows {
		emit(r)
	}
	return nil
}

// readTable is the rows of table in the run at from.
func readTable[T Row](s beam.Scope, from, table string) beam.PCollection {
	s = s.Scope("Read_" + table)
	return beam.ParDo(s, &readTableFn[T]{From: from, Table: table}, beam.Impulse(s))
}

func keyProblem(p schemas.Problem) (string, schemas.Problem) { return p.ID, p }

// keyOriginal keys the translations of the problems themselves (not of variants)
// by problem.
func keyOriginal(t schemas.TranslationRow, emit func(string, schemas.TranslationRow)) {
	if similarity.Original(t) {
		emit(t.ProblemID, t)
	}
}

// keyTargetGold keys, by problem, what CA needs of a result judged by the target
// gold: the expected and actual values, most of a result's bytes, stay behind.
func keyTargetGold(r schemas.ResultRow, emit func(string, similarity.TestResult)) {
	if t, ok := similarity.TargetGoldResult(r); ok {
		emit(r.ProblemID, t)
	}
}

// simScoreFn scores one problem's translations (similarity.ScoreProblem).
type simScoreFn struct {
	Run string

	trivial map[string]map[uint64]bool
}

func (f *simScoreFn) ProcessElement(_ string, problems func(*schemas.Problem) bool, trs func(*schemas.TranslationRow) bool,
	results func(*similarity.TestResult) bool, trivial func(*similarity.Trivial) bool, emit func(schemas.SimilarityRow)) {
	var p schemas.Problem
	if !problems(&p) {
		return // translations of a problem the run does not list: not scored, as before
	}
	var ts []schemas.TranslationRow
	var t schemas.TranslationRow
	for trs(&t) {
		ts = append(ts, t)
		t = schemas.TranslationRow{}
	}
	if len(ts) == 0 {
		return
	}
	var rs []similarity.TestResult
	var r similarity.TestResult
	for results(&r) {
		rs = append(rs, r)
	}
	if f.trivial == nil {
		var tv similarity.Trivial
		trivial(&tv)
		f.trivial = tv.Sets()
	}
	for _, row := range similarity.ScoreProblem(f.Run, p, ts, similarity.OutcomesOf(rs), f.trivial, similarity.DefaultOptions) {
		emit(row)
	}
}

// simTrivialFn counts the n-grams of every problem's references for CrystalBLEU
// (similarity.TrivialAcc).
type simTrivialFn struct{}

func (simTrivialFn) CreateAccumulator() *similarity.TrivialAcc { return &similarity.TrivialAcc{} }
func (simTrivialFn) AddInput(a *similarity.TrivialAcc, p schemas.Problem) *similarity.TrivialAcc {
	a.Add(p)
	return a
}
func (simTrivialFn) MergeAccumulators(a, b *similarity.TrivialAcc) *similarity.TrivialAcc {
	a.Merge(b)
	return a
}
func (simTrivialFn) ExtractOutput(a *similarity.TrivialAcc) similarity.Trivial {
	return a.Trivial(similarity.CrystalK)
}

// simRowsFn gathers the usable rows, sorted (similarity.RowsAcc).
type simRowsFn struct{}

func (simRowsFn) CreateAccumulator() *similarity.RowsAcc { return &similarity.RowsAcc{} }
func (simRowsFn) AddInput(a *similarity.RowsAcc, r schemas.SimilarityRow) *similarity.RowsAcc {
	a.Add(r)
	return a
}
func (simRowsFn) MergeAccumulators(a, b *similarity.RowsAcc) *similarity.RowsAcc {
	a.Merge(b)
	return a
}
func (simRowsFn) ExtractOutput(a *similarity.RowsAcc) similarity.RowsAcc {
	return similarity.RowsAcc{Rows: a.Sorted()}
}

// planGroups emits the analysis' groups of the gathered rows.
func planGroups(all similarity.RowsAcc, emit func(similarity.GroupJob)) {
	for _, j := range similarity.Plan(all.Rows) {
		emit(j)
	}
}

// simOverallFn emits the rows over every translation (similarity.Overall).
type simOverallFn struct{ Run string }

func (f *simOverallFn) ProcessElement(all similarity.RowsAcc, emit func(schemas.SimilarityStatRow)) {
	for _, r := range similarity.Overall(f.Run, all.Rows) {
		emit(r)
	}
}

// simAnalyzeFn analyses one group (similarity.AnalyzeGroup).
type simAnalyzeFn struct {
	Run       string
	Resamples int
	Seed      uint64
}

func (f *simAnalyzeFn) ProcessElement(j similarity.GroupJob, emit func(schemas.SimilarityStatRow)) {
	for _, r := range similarity.AnalyzeGroup(f.Run, j, similarity.AnalysisOptions{Resamples: f.Resamples, Seed: f.Seed}) {
		emit(r)
	}
}

func encodeTrivialAcc(a *similarity.TrivialAcc) ([]byte, error) { return gobEncode(a) }
func decodeTrivialAcc(b []byte) (*similarity.TrivialAcc, error) {
	return gobDecode(b, &similarity.TrivialAcc{})
}
func encodeRowsAcc(a *similarity.RowsAcc) ([]byte, error) { return gobEncode(a) }
func decodeRowsAcc(b []byte) (*similarity.RowsAcc, error) {
	return gobDecode(b, &similarity.RowsAcc{})
}
func encodeTrivial(t similarity.Trivial) ([]byte, error) { return gobEncode(t) }
func decodeTrivial(b []byte) (similarity.Trivial, error) {
	var t similarity.Trivial
	_, err := gobDecode(b, &t)
	return t, err
}
func encodeRows(a similarity.RowsAcc) ([]byte, error) { return gobEncode(a) }
func decodeRows(b []byte) (similarity.RowsAcc, error) {
	var a similarity.RowsAcc
	_, err := gobDecode(b, &a)
	return a, err
}

// FinishSimilarity writes the manifest and returns the summary of the analysis,
// read back from the tables (launch writes it to summary.txt after the publish).
func FinishSimilarity(ctx context.Context, b *blob.Bucket, m *Manifest) (string, error) {
	rows, err := sink.Read[schemas.SimilarityRow](ctx, b, "similarity")
	if err != nil {
		return "", err
	}
	st, err := sink.Read[schemas.SimilarityStatRow](ctx, b, "similarity_stats")
	if err != nil {
		return "", err
	}
	// Finish's writeEmpty does not know these tables.
	if len(rows) == 0 {
		if _, err := sink.WriteShard[schemas.SimilarityRow](ctx, b, "similarity", nil); err != nil {
			return "", err
		}
	}
	if len(st) == 0 {
		if _, err := sink.WriteShard[schemas.SimilarityStatRow](ctx, b, "similarity_stats", nil); err != nil {
			return "", err
		}
	}
	similarity.SortRows(rows)
	var buf bytes.Buffer
	similarity.Summary(&buf, rows, st)
	return buf.String(), Finish(ctx, b, m, SimilarityTables)
}
