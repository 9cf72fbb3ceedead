package pipelines

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strconv"
	"syscall"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"gocloud.dev/blob"

	"transmute/io/sink"
	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/metamorph"
	"transmute/transforms/properties"
	"transmute/transforms/sandbox"
	"transmute/transforms/score"
	"transmute/transforms/values"
)

// PropertiesTables are the tables written by the properties job (seed 001).
var PropertiesTables = []string{"variants", "transformations", "translations", "property_results", "scores", "errors"}

// PropertiesOptions select the metamorphic variants.
type PropertiesOptions struct {
	// Seed drives the transformations' random choices and the merge partners.
	Seed uint64 `json:"seed"`
	// VariantsPer is the number of variants per single-function transformation,
	// problem and language (0 = 1).
	VariantsPer int `json:"variants_per"`
}

// MetricCheckSeconds is the scores row (translator "", metric) holding the time
// the job spent in inspections and property checks.
const MetricCheckSeconds = "check_seconds"

func init() {
	beam.RegisterType(reflect.TypeOf((*propertiesFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*propertiesScoreFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*properties.Output)(nil)).Elem())
	registerTable[schemas.PropertyResultRow]()
	registerTable[schemas.TransformationRow]()
	beam.RegisterFunction(splitPropKeyed)
	beam.RegisterFunction(splitPropNanos)
	beam.RegisterFunction(sumInt64)
	beam.RegisterFunction(checkSecondsRow)
}

// BuildProperties adds the k-safety properties job (seed 001) to s: read and merge
// corpora as BuildEvaluate does, expand each source function into metamorphic
// variants, translate and run them, check the 38 properties per problem
// (transforms/properties) in a worker pool per shard, score each (translator,
// corpus, direction) and write the PropertiesTables. Merge takes its second
// function from the problems of the same compute shard (all of them in process).
func BuildProperties(s beam.Scope, c Config, o PropertiesOptions) {
	c = c.WithDefaults()
	specs := beam.CreateList(s.Scope("Corpora"), c.Corpora)
	items, loadErrs := beam.ParDo2(s.Scope("Load"), &loadFn{Run: c.Run, Directions: c.Directions, Limit: c.Limit}, specs)
	merged := beam.ParDo(s.Scope("Merge"), &mergeFn{Shards: c.ComputeShards}, beam.GroupByKey(s, items))
	outs := beam.ParDo(s.Scope("Properties"), &propertiesFn{Run: c.Run, Translators: c.Translators,
		Parallelism: c.Parallelism, CPUTime: c.CPUTime, WallTime: c.WallTime, MemoryBytes: c.MemoryBytes,
		WorkDir: c.WorkDir, Progress: c.Progress, Options: o, ExecCache: c.ExecCache}, beam.GroupByKey(s, merged))

	errs := beam.Flatten(s, loadErrs, Split[schemas.ErrorRow](s, outs, "Errors"))
	scores := beam.ParDo(s.Scope("Score"), &propertiesScoreFn{Run: c.Run}, beam.GroupByKey(s, beam.ParDo(s, splitPropKeyed, outs)))
	nanos := beam.Combine(s.Scope("CheckTime"), sumInt64, beam.ParDo(s, splitPropNanos, outs))
	scores = beam.Flatten(s, scores, beam.ParDo(s, checkSecondsRow, nanos))

	writeTable[schemas.VariantRow](s, c.Output, "variants", c.Shards, Split[schemas.VariantRow](s, outs, "Variants"))
	writeTable[schemas.TransformationRow](s, c.Output, "transformations", c.Shards, Split[schemas.TransformationRow](s, outs, "Transformations"))
	writeTable[schemas.TranslationRow](s, c.Output, "translations", c.Shards, Split[schemas.TranslationRow](s, outs, "Translations"))
	writeTable[schemas.PropertyResultRow](s, c.Output, "property_results", c.Shards, Split[schemas.PropertyResultRow](s, outs, "Results"))
	writeTable[schemas.ScoreRow](s, c.Output, "scores", 1, scores)
	writeTable[schemas.ErrorRow](s, c.Output, "errors", 1, errs)
}

// propertiesFn runs the properties job on the problems of one shard.
type propertiesFn struct {
	Run         string
	Translators []string
	Parallelism int
	CPUTime     time.Duration
	WallTime    time.Duration
	MemoryBytes int64
	WorkDir     string
	Progress    bool
	ExecCache   string
	Options     PropertiesOptions

	runner *properties.Runner
	tools  *tools
}

func (f *propertiesFn) Setup(ctx context.Context) error {
	t, err := openTools(ctx, f.Translators, f.WorkDir, f.Parallelism, f.ExecCache)
	if err != nil {
		return err
	}
	f.tools = t
	f.runner = &properties.Runner{Run: f.Run, Translators: t.translators, Engines: t.engines, Tolerance: values.DefaultTolerance,
		Limits: sandbox.Limits{CPUTime: f.CPUTime, WallTime: f.WallTime, MemoryBytes: f.MemoryBytes},
		Seed:   f.Options.Seed, VariantsPer: f.Options.VariantsPer}
	return nil
}

func (f *propertiesFn) Teardown() error {
	f.tools.Close()
	return nil
}

var instancesChecked = beam.NewCounter("transmute", "property_instances")

func (f *propertiesFn) ProcessElement(ctx context.Context, shard int, items func(*evaluate.Item) bool, emit func(properties.Output)) {
	batch := collect(items)
	pool := make([]schemas.Problem, len(batch))
	for i, it := range batch {
		pool[i] = it.Problem
	}
	propMeter.AddTotal(int64(len(batch)))
	runPool(batch, feeders*f.Parallelism, func(it evaluate.Item) properties.Output { return f.runner.Evaluate(ctx, it, pool) },
		func(out properties.Output) {
			problemsDone.Inc(ctx, 1)
			instancesChecked.Inc(ctx, int64(len(out.Results)))
			if f.Progress {
				propMeter.Done(1)
			}
			emit(out)
		})
}

func splitPropKeyed(o properties.Output, emit func(string, schemas.PropertyResultRow)) {
	for _, r := range o.Results {
		emit(score.Key{Translator: r.Translator, Corpus: r.Corpus, SrcLang: r.SrcLang, TgtLang: r.TgtLang}.String(), r)
	}
}
func splitPropNanos(o properties.Output) int64 { return o.CheckNanos }
func sumInt64(a, b int64) int64                { return a + b }
func checkSecondsRow(n int64) schemas.ScoreRow {
	return schemas.ScoreRow{Subset: score.SubsetAll, Metric: MetricCheckSeconds, Value: float64(n) / 1e9}
}

// propertiesScoreFn scores one (translator, corpus, direction).
type propertiesScoreFn struct {
	Run string
}

func (f *propertiesScoreFn) ProcessElement(key string, rows func(*schemas.PropertyResultRow) bool, emit func(schemas.ScoreRow)) {
	all := collect(rows)
	if len(all) == 0 {
		return
	}
	r := all[0]
	for _, s := range properties.Score(f.Run, score.Key{Translator: r.Translator, Corpus: r.Corpus, SrcLang: r.SrcLang, TgtLang: r.TgtLang}, all) {
		emit(s)
	}
}

// FinishProperties is Finish for the properties tables.
func FinishProperties(ctx context.Context, b *blob.Bucket, m *Manifest) error {
	return Finish(ctx, b, m, PropertiesTables)
}

// ProcessCPU is the CPU time of this process and of its waited-for children (the
// engines' workers and compilers) so far.
func ProcessCPU() time.Duration {
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
}

// PrintPropertiesSummary prints, per translator, corpus and direction, Table 3 (TV,
// VP, VSP) and the Table 1 layout (percentage of violated instances per
// transformation and inspection, with the instance counts), then per language and
// transformation what the transformations produced, and the time spent in
// inspections and property checks against cpu (the run's CPU, 0 to leave it out).
func PrintPropertiesSummary(ctx context.Context, w io.Writer, b *blob.Bucket, cpu time.Duration) error {
	rows, err := sink.Read[schemas.ScoreRow](ctx, b, "scores")
	if err != nil {
		return err
	}
	type key struct{ tr, corpus, src, tgt string }
	m := map[key]map[string]schemas.ScoreRow{}
	checkSec := 0.0
	for _, r := range rows {
		if r.Metric == MetricCheckSeconds {
			checkSec += r.Value
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
	fmt.Fprintln(w, "Table 3: total violations (TV), violated properties (VP, of 38), violated syntactic properties (VSP, of 24)")
	fmt.Fprintf(w, "  %-28s %-12s %8s %4s %4s %10s\n", "translator", "direction", "TV", "VP", "VSP", "instances")
	for _, k := range keys {
		ms := m[k]
		fmt.Fprintf(w, "  %-28s %-12s %8.0f %4.0f %4.0f %10.0f\n", k.tr, k.src+"->"+k.tgt, ms[properties.MetricTV].Value,
			ms[properties.MetricVP].Value, ms[properties.MetricVSP].Value, ms[properties.MetricInstances].Value)
	}
	for _, k := range keys {
		ms := m[k]
		fmt.Fprintf(w, "Table 1 layout: %s %s %s->%s, %% of instances violated (violations/instances)\n", k.tr, k.corpus, k.src, k.tgt)
		fmt.Fprintf(w, "  %-2s %-5s", "k", "PT")
		for _, in := range properties.Inspections {
			fmt.Fprintf(w, " %16s", in)
		}
		fmt.Fprintln(w)
		for _, t := range append([]metamorph.Transformation{""}, metamorph.Transformations...) {
			ps := properties.ByTransformation(t)
			abbrev := "-"
			if t != "" {
				abbrev = t.Abbrev()
			}
			fmt.Fprintf(w, "  %-2d %-5s", ps[0].K, abbrev)
			byIn := map[properties.Inspection]properties.Property{}
			for _, p := range ps {
				byIn[p.Inspection] = p
			}
			for _, in := range properties.Inspections {
				p, ok := byIn[in]
				if !ok {
					fmt.Fprintf(w, " %16s", "-")
					continue
				}
				v := ms[properties.MetricPropViolations+":"+p.Name].Value
				n := ms[properties.MetricPropInstances+":"+p.Name].Value
				cell := "n/a"
				if n > 0 {
					cell = fmt.Sprintf("%s (%.0f/%.0f)", pct(100*v/n), v, n)
				}
				fmt.Fprintf(w, " %16s", cell)
			}
			fmt.Fprintln(w)
		}
	}
	trs, err := sink.Read[schemas.TransformationRow](ctx, b, "transformations")
	if err != nil {
		return err
	}
	type tk struct{ lang, t string }
	type tally struct {
		problems map[string]bool
		outcomes map[string]int
	}
	ts := map[tk]*tally{}
	for _, r := range trs {
		k := tk{r.Lang, r.Transformation}
		if ts[k] == nil {
			ts[k] = &tally{problems: map[string]bool{}, outcomes: map[string]int{}}
		}
		if r.VariantID != "" {
			ts[k].problems[r.ProblemID] = true
		}
		ts[k].outcomes[r.Outcome]++
	}
	var tks []tk
	for k := range ts {
		tks = append(tks, k)
	}
	sort.Slice(tks, func(i, j int) bool { return tks[i].lang+tks[i].t < tks[j].lang+tks[j].t })
	fmt.Fprintln(w, "Transformations: problems applied to, variants produced, outcomes (valid / changed_outputs / no_compile / absent / failed)")
	for _, k := range tks {
		t := ts[k]
		o := t.outcomes
		produced := o[properties.OutcomeValid] + o[properties.OutcomeChangedOutputs] + o[properties.OutcomeNoCompile]
		kept := ""
		if metamorph.Transformation(k.t).PreservesSemantics() || k.t == string(metamorph.Merge) {
			checked := o[properties.OutcomeValid] + o[properties.OutcomeChangedOutputs]
			if checked > 0 {
				kept = fmt.Sprintf(", outputs kept %d/%d (%.2f%%)", o[properties.OutcomeValid], checked,
					100*float64(o[properties.OutcomeValid])/float64(checked))
			}
		}
		fmt.Fprintf(w, "  %-7s %-15s problems %4d, variants %4d: %d / %d / %d / %d / %d%s\n", k.lang, k.t, len(t.problems), produced,
			o[properties.OutcomeValid], o[properties.OutcomeChangedOutputs], o[properties.OutcomeNoCompile],
			o[properties.OutcomeAbsent], o[properties.OutcomeFailed], kept)
	}
	if cpu > 0 {
		fmt.Fprintf(w, "Inspections and property checks: %.1f s of the run's %.1f s CPU (this process and its children): %.2f%%\n",
			checkSec, cpu.Seconds(), 100*checkSec/cpu.Seconds())
	} else {
		fmt.Fprintf(w, "Inspections and property checks: %.1f s\n", checkSec)
	}
	return nil
}

// pct renders a percentage as the paper does: 0, <1, or a whole number.
func pct(v float64) string {
	switch {
	case v == 0:
		return "0"
	case v < 1:
		return "<1"
	}
	return strconv.Itoa(int(v + 0.5))
}
