package pipelines

import (
	"context"
	"fmt"
	"io"
	"math"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"gocloud.dev/blob"

	"transmute/io/sink"
	"transmute/schemas"
	"transmute/transforms/consistency"
	"transmute/transforms/evaluate"
	"transmute/transforms/sandbox"
	"transmute/transforms/values"
)

// ConsistencyTables are the tables written by the consistency job (seed 004).
var ConsistencyTables = []string{"variants", "translations", "executions", "consistency_results", "repairs", "scores", "errors"}

// ConsistencyGroup is what one problem contributes to one score key.
type ConsistencyGroup struct {
	Translator, Corpus, SrcLang, TgtLang string
	Results                              []schemas.ConsistencyRow
	Repairs                              []schemas.RepairRow
}

func init() {
	beam.RegisterType(reflect.TypeOf((*consistencyFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*consistencyScoreFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*consistency.Output)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*ConsistencyGroup)(nil)).Elem())
	registerTable[schemas.ConsistencyRow]()
	registerTable[schemas.RepairRow]()
	beam.RegisterFunction(splitConsGroups)
}

// BuildConsistency adds the consistency job (seed 004: context-similar variants,
// Algorithm 1 and execution consistency, black-box repair) to s, wired as
// BuildMBTA is: load and merge the corpora, run consistency.Runner on each
// problem in a worker pool per shard, score each (translator, corpus,
// direction), write the ConsistencyTables. The per-test limits are MBTA's.
func BuildConsistency(s beam.Scope, c Config) {
	c = MBTADefaults(c.WithDefaults())
	specs := beam.CreateList(s.Scope("Corpora"), c.Corpora)
	items, loadErrs := beam.ParDo2(s.Scope("Load"), &loadFn{Run: c.Run, Directions: c.Directions, Limit: c.Limit}, specs)
	merged := beam.ParDo(s.Scope("Merge"), &mergeFn{Shards: c.ComputeShards}, beam.GroupByKey(s, items))
	outs := beam.ParDo(s.Scope("Consistency"), &consistencyFn{Run: c.Run, Translators: c.Translators, ExecCache: c.ExecCache,
		Parallelism: c.Parallelism, CPUTime: c.CPUTime, WallTime: c.WallTime, MemoryBytes: c.MemoryBytes,
		WorkDir: c.WorkDir, Progress: c.Progress}, beam.GroupByKey(s, merged))
	errs := beam.Flatten(s, loadErrs, Split[schemas.ErrorRow](s, outs, "Errors"))
	scores := beam.ParDo(s.Scope("Score"), &consistencyScoreFn{Run: c.Run}, beam.GroupByKey(s, beam.ParDo(s, splitConsGroups, outs)))
	writeTable[schemas.VariantRow](s, c.Output, "variants", c.Shards, Split[schemas.VariantRow](s, outs, "Variants"))
	writeTable[schemas.TranslationRow](s, c.Output, "translations", c.Shards, Split[schemas.TranslationRow](s, outs, "Translations"))
	writeTable[schemas.ExecutionRow](s, c.Output, "executions", c.Shards, Split[schemas.ExecutionRow](s, outs, "Executions"))
	writeTable[schemas.ConsistencyRow](s, c.Output, "consistency_results", c.Shards, Split[schemas.ConsistencyRow](s, outs, "Results"))
	writeTable[schemas.RepairRow](s, c.Output, "repairs", c.Shards, Split[schemas.RepairRow](s, outs, "Repairs"))
	writeTable[schemas.ScoreRow](s, c.Output, "scores", 1, scores)
	writeTable[schemas.ErrorRow](s, c.Output, "errors", 1, errs)
}

// consistencyFn runs the consistency job on the problems of one shard.
type consistencyFn struct {
	Run         string
	Translators []string
	Parallelism int
	CPUTime     time.Duration
	WallTime    time.Duration
	MemoryBytes int64
	WorkDir     string
	Progress    bool
	ExecCache   string

	runner *consistency.Runner
	tools  *tools
}

func (f *consistencyFn) Setup(ctx context.Context) error {
	t, err := openTools(ctx, f.Translators, f.WorkDir, f.Parallelism, f.ExecCache)
	if err != nil {
		return err
	}
	table, err := consistency.DefaultTable()
	if err != nil {
		t.Close()
		return err
	}
	f.tools = t
	f.runner = &consistency.Runner{Run: f.Run, Translators: t.translators, Engines: t.engines, Tolerance: values.DefaultTolerance,
		Limits: sandbox.Limits{CPUTime: f.CPUTime, WallTime: f.WallTime, MemoryBytes: f.MemoryBytes},
		Table:  table, Options: consistency.DefaultOptions}
	return nil
}

func (f *consistencyFn) Teardown() error {
	f.tools.Close()
	return nil
}

var pairsJudged = beam.NewCounter("transmute", "consistency_pairs_judged")

func (f *consistencyFn) ProcessElement(ctx context.Context, shard int, items func(*evaluate.Item) bool, emit func(consistency.Output)) {
	batch := collect(items)
	consMeter.AddTotal(int64(len(batch)))
	runPool(batch, feeders*f.Parallelism, func(it evaluate.Item) consistency.Output { return f.runner.Evaluate(ctx, it) }, func(out consistency.Output) {
		problemsDone.Inc(ctx, 1)
		pairsJudged.Inc(ctx, int64(len(out.Results)))
		if f.Progress {
			consMeter.Done(1)
		}
		emit(out)
	})
}

// splitConsGroups keys one problem's pairs and repairs by score key.
func splitConsGroups(o consistency.Output, emit func(string, ConsistencyGroup)) {
	groups := map[string]*ConsistencyGroup{}
	get := func(tr, corpus, src, tgt string) *ConsistencyGroup {
		k := tr + "|" + corpus + "|" + src + "|" + tgt
		if groups[k] == nil {
			groups[k] = &ConsistencyGroup{Translator: tr, Corpus: corpus, SrcLang: src, TgtLang: tgt}
		}
		return groups[k]
	}
	for _, r := range o.Results {
		g := get(r.Translator, r.Corpus, r.SrcLang, r.TgtLang)
		g.Results = append(g.Results, r)
	}
	for _, r := range o.Repairs {
		g := get(r.Translator, r.Corpus, r.SrcLang, r.TgtLang)
		g.Repairs = append(g.Repairs, r)
	}
	for k, g := range groups {
		emit(k, *g)
	}
}

// consistencyScoreFn scores one (translator, corpus, direction).
type consistencyScoreFn struct {
	Run string
}

func (f *consistencyScoreFn) ProcessElement(key string, groups func(*ConsistencyGroup) bool, emit func(schemas.ScoreRow)) {
	var rows []schemas.ConsistencyRow
	var reps []schemas.RepairRow
	var g ConsistencyGroup
	var k consistency.Key
	for groups(&g) {
		k = consistency.Key{Translator: g.Translator, Corpus: g.Corpus, SrcLang: g.SrcLang, TgtLang: g.TgtLang}
		rows = append(rows, g.Results...)
		reps = append(reps, g.Repairs...)
		g = ConsistencyGroup{}
	}
	for _, s := range consistency.Score(f.Run, k, rows, reps) {
		emit(s)
	}
}

// FinishConsistency is Finish for the consistency tables.
func FinishConsistency(ctx context.Context, b *blob.Bucket, m *Manifest) error {
	return Finish(ctx, b, m, ConsistencyTables)
}

// PrintConsistencySummary prints, in seed 004's terms: per translator and
// direction the pairs, the inconsistencies by execution and by each metric
// (threshold chosen on half the problems, precision/recall/F1 against execution
// on the other half), the repairs; then how many identifier replacements kept
// the source's outputs, with the exceptions, and examples of inconsistencies.
func PrintConsistencySummary(ctx context.Context, w io.Writer, b *blob.Bucket) error {
	scores, err := sink.Read[schemas.ScoreRow](ctx, b, "scores")
	if err != nil {
		return err
	}
	type key struct{ tr, corpus, src, tgt string }
	m := map[key]map[string]schemas.ScoreRow{}
	for _, r := range scores {
		if r.Oracle != consistency.OracleConsistency {
			continue
		}
		k := key{r.Translator, r.Corpus, r.SrcLang, r.TgtLang}
		if m[k] == nil {
			m[k] = map[string]schemas.ScoreRow{}
		}
		m[k][r.Metric] = r
	}
	keys := make([]key, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
	f := func(v float64) string {
		if math.IsNaN(v) {
			return "-"
		}
		if v == math.Trunc(v) && math.Abs(v) < 1e9 {
			return fmt.Sprintf("%d", int64(v))
		}
		return fmt.Sprintf("%.3f", v)
	}
	pct := func(v float64) string {
		if math.IsNaN(v) {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*v)
	}
	for _, k := range keys {
		s := m[k]
		fmt.Fprintf(w, "%s %s %s->%s: %s problems, %s variant pairs (%s literal)\n", k.tr, k.corpus, k.src, k.tgt,
			f(s["problems"].Value), f(s["pairs"].Value), f(s["pairs_literal"].Value))
		fmt.Fprintf(w, "  inconsistent by execution: %s (%s)\n", f(s["exec_inconsistent"].Value), pct(s["exec_inconsistent_rate"].Value))
		fmt.Fprintf(w, "  %-6s %9s %8s %16s %9s %6s %6s %6s  %s\n", "metric", "threshold", "below 1", "inconsistent", "F1 choose",
			"P", "R", "F1", "repair: tried, repaired, pass before->after, worse/better")
		for _, mt := range consistency.Metrics {
			p := string(mt)
			fmt.Fprintf(w, "  %-6s %9s %8s %9s %6s %9s %6s %6s %6s  %s, %s (%s), %s->%s, %s/%s\n", p, f(s[p+"_threshold"].Value),
				f(s[p+"_below_1"].Value), f(s[p+"_inconsistent"].Value), pct(s[p+"_inconsistent_rate"].Value),
				f(s[p+"_f1_choose"].Value), f(s[p+"_precision"].Value), f(s[p+"_recall"].Value), f(s[p+"_f1"].Value),
				f(s[p+"_repair_tried"].Value), f(s[p+"_repaired"].Value), pct(s[p+"_repaired_rate"].Value),
				pct(s[p+"_pass_before"].Value), pct(s[p+"_pass_after"].Value), f(s[p+"_repair_worse"].Value), f(s[p+"_repair_better"].Value))
		}
	}

	// Identifier replacements that kept the source's outputs.
	variants, err := sink.Read[schemas.VariantRow](ctx, b, "variants")
	if err != nil {
		return err
	}
	errs, err := sink.Read[schemas.ErrorRow](ctx, b, "errors")
	if err != nil {
		return err
	}
	idents := map[string]int{}
	lits := map[string]int{}
	for _, v := range variants {
		if v.Kind != schemas.VariantKindContextSimilar {
			continue
		}
		if v.Operator == string(consistency.KindIdentifier) {
			idents[v.Lang]++
		} else {
			lits[v.Lang]++
		}
	}
	changed := map[string][]schemas.ErrorRow{}
	for _, e := range errs {
		if e.Stage == consistency.Stage && e.Reason == "identifier variant changed outputs" {
			changed[e.Lang] = append(changed[e.Lang], e)
		}
	}
	for _, lang := range schemas.Languages {
		if idents[lang] == 0 {
			continue
		}
		n, bad := idents[lang], len(changed[lang])
		fmt.Fprintf(w, "%s: %d identifier replacements, %d kept the source's outputs (%.2f%%); %d literal replacements\n",
			lang, n, n-bad, 100*float64(n-bad)/float64(n), lits[lang])
		for i, e := range changed[lang] {
			if i == 10 {
				fmt.Fprintf(w, "  ... %d more\n", bad-10)
				break
			}
			fmt.Fprintf(w, "  changed: %s %s\n", e.ProblemID, e.Detail)
		}
	}

	// Examples of execution inconsistencies of translators other than the identity.
	rows, err := sink.Read[schemas.ConsistencyRow](ctx, b, "consistency_results")
	if err != nil {
		return err
	}
	sort.Slice(rows, func(i, j int) bool {
		return rows[i].Translator+rows[i].TgtLang+rows[i].ProblemID+rows[i].VariantID <
			rows[j].Translator+rows[j].TgtLang+rows[j].ProblemID+rows[j].VariantID
	})
	shown := map[string]int{}
	for _, r := range rows {
		k := r.Translator + " " + r.SrcLang + "->" + r.TgtLang
		if r.ExecConsistent || shown[k] >= 6 {
			continue
		}
		shown[k]++
		fmt.Fprintf(w, "inconsistent %s %s %s %s->%s (lcs %.3f): %s\n", k, r.ProblemID, r.Kind, r.Old, r.New, r.LCS,
			strings.ReplaceAll(r.Detail, "\n", " "))
	}
	return nil
}
