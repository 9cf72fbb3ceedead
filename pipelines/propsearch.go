package pipelines

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"reflect"
	"sort"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"gocloud.dev/blob"

	"transmute/io/sink"
	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/properties"
	"transmute/transforms/propsearch"
	"transmute/transforms/sandbox"
	"transmute/transforms/values"
)

// SearchTable is the property-guided search's table (schemas.SearchRow).
const SearchTable = "search"

// StageSearch is the ErrorRow stage of a search that stopped on an error.
const StageSearch = "property_search"

// SearchOptions are the property-guided search's settings (seed 001, section 3.3,
// Algorithm 1); Budget 0 leaves the search out.
type SearchOptions struct {
	// Budget is the number of model instances (temperatures) tried per problem,
	// translator and direction; the paper's is 20.
	Budget int `json:"budget"`
	// Start is the first temperature (paper: 0.1); Sigma the standard deviation of
	// the Gaussian mutation (paper: variance 0.01, so 0.1).
	Start float64 `json:"start"`
	Sigma float64 `json:"sigma"`
}

// PaperSearchOptions are the paper's settings.
var PaperSearchOptions = SearchOptions{Budget: propsearch.PaperSearch.Budget, Start: propsearch.PaperSearch.Start,
	Sigma: propsearch.PaperSearch.Sigma}

// ValidateSearch refuses search settings that cannot run: a budget with a
// translator that has no temperature to mutate (builtin, recorded, identity,
// command) is an error here, before the run, rather than a translator silently left
// out of the search.
func ValidateSearch(c Config, o SearchOptions) error {
	switch {
	case o.Budget < 0:
		return fmt.Errorf("--search-budget %d: must not be negative", o.Budget)
	case o.Budget == 0:
		return nil
	case o.Start < 0 || o.Start > propsearch.PaperSearch.MaxTemperature || math.IsNaN(o.Start):
		return fmt.Errorf("--search-start %v: a temperature in [0, %v]", o.Start, propsearch.PaperSearch.MaxTemperature)
	case o.Sigma < 0 || math.IsNaN(o.Sigma):
		return fmt.Errorf("--search-sigma %v: must not be negative", o.Sigma)
	case len(c.Translators) == 0:
		return fmt.Errorf("--search-budget %d: no translator to search", o.Budget)
	}
	for _, spec := range c.Translators {
		if err := propsearch.Searchable(spec); err != nil {
			return fmt.Errorf("--search-budget %d: translator %q has no temperature to mutate (the property-guided search takes openai: translators only; drop it or the search): %w",
				o.Budget, spec, err)
		}
	}
	return nil
}

func init() {
	beam.RegisterType(reflect.TypeOf((*searchFn)(nil)).Elem())
	registerTable[schemas.SearchRow]()
	beam.RegisterFunction(searchErrorRows)
}

// buildPropertySearch runs the property-guided search on every (problem, direction,
// translator) of merged (the keyed items of BuildProperties), writes the search
// table and returns the error rows of searches that stopped on an error.
func buildPropertySearch(s beam.Scope, c Config, o PropertiesOptions, merged beam.PCollection) beam.PCollection {
	s = s.Scope("PropertySearch")
	rows := beam.ParDo(s, &searchFn{Run: c.Run, Translators: c.Translators, Parallelism: c.Parallelism, CPUTime: c.CPUTime,
		WallTime: c.WallTime, MemoryBytes: c.MemoryBytes, WorkDir: c.WorkDir, ExecCache: c.ExecCache, Options: o},
		beam.GroupByKey(s, merged))
	writeTable[schemas.SearchRow](s, c.Output, SearchTable, c.Shards, rows)
	return beam.ParDo(s, searchErrorRows, rows)
}

// searchFn searches on the problems of one compute shard; the translators are
// opened per step (each step's temperature is a translator of its own).
type searchFn struct {
	Run         string
	Translators []string
	Parallelism int
	CPUTime     time.Duration
	WallTime    time.Duration
	MemoryBytes int64
	WorkDir     string
	ExecCache   string
	Options     PropertiesOptions

	runner *properties.Runner
	tools  *tools
}

func (f *searchFn) Setup(ctx context.Context) error {
	t, err := openTools(ctx, nil, f.WorkDir, f.Parallelism, f.ExecCache)
	if err != nil {
		return err
	}
	f.tools = t
	f.runner = &properties.Runner{Run: f.Run, Engines: t.engines, Tolerance: values.DefaultTolerance,
		Limits: sandbox.Limits{CPUTime: f.CPUTime, WallTime: f.WallTime, MemoryBytes: f.MemoryBytes},
		Seed:   f.Options.Seed, VariantsPer: f.Options.VariantsPer}
	return nil
}

func (f *searchFn) Teardown() error {
	f.tools.Close()
	return nil
}

// searchJob is one search: a problem, one of its directions, one translator.
type searchJob struct {
	item evaluate.Item
	spec string
}

func (f *searchFn) ProcessElement(ctx context.Context, shard int, items func(*evaluate.Item) bool, emit func(schemas.SearchRow)) {
	batch := collect(items)
	pool := make([]schemas.Problem, len(batch))
	var jobs []searchJob
	for i, it := range batch {
		pool[i] = it.Problem
		for _, task := range it.Tasks {
			for _, spec := range f.Translators {
				jobs = append(jobs, searchJob{evaluate.Item{Problem: it.Problem, Tasks: []schemas.Task{task}}, spec})
			}
		}
	}
	o := f.Options.Search
	runPool(jobs, feeders*f.Parallelism, func(j searchJob) []schemas.SearchRow {
		task := j.item.Tasks[0]
		cfg := propsearch.SearchConfig{Budget: o.Budget, Start: o.Start, Sigma: o.Sigma,
			MaxTemperature: propsearch.PaperSearch.MaxTemperature, Seed: searchSeed(f.Options.Seed, j.item.Problem, task)}
		rows, _ := propsearch.SearchProblem(ctx, f.runner, cfg, j.spec, j.item, pool) // an error is the last row
		return rows
	}, func(rows []schemas.SearchRow) {
		for _, r := range rows {
			emit(r)
		}
	})
}

// searchSeed gives every problem and direction its own Gaussian moves (with one seed
// for all, every problem would walk the same temperatures), and every translator the
// same moves on the same problem, so that translators are searched alike.
func searchSeed(seed uint64, p schemas.Problem, t schemas.Task) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s", p.Corpus, p.ID, t.SrcLang, t.TgtLang)
	return seed ^ h.Sum64()
}

// searchErrorRows turns the row of a search that stopped on an error (VP -1) into an
// error row.
func searchErrorRows(r schemas.SearchRow, emit func(schemas.ErrorRow)) {
	if r.VP < 0 {
		emit(schemas.ErrorRow{Run: r.Run, Stage: StageSearch, Corpus: r.Corpus, ProblemID: r.ProblemID, Lang: r.TgtLang,
			Reason: "property-guided search stopped", Detail: fmt.Sprintf("%s %s->%s step %d: %s", r.Translator, r.SrcLang,
				r.TgtLang, r.Step, r.Error)})
	}
}

// SearchSummary is the search's outcome for one translator, corpus and direction:
// the first step's translation against the returned one (seed 001, section 4.4:
// passing programs and mean iterations).
type SearchSummary struct {
	Translator, Corpus, SrcLang, TgtLang string
	// Searches counts the problems searched; Stopped those whose search ended on an
	// error (their completed steps still count below).
	Searches, Stopped int
	// PassingFirst and PassingReturned count the translations passing every test;
	// MeanPassFirst and MeanPassReturned are the mean pass rates (over the searches
	// with at least one step).
	PassingFirst, PassingReturned   int
	MeanPassFirst, MeanPassReturned float64
	// MeanIterations is the mean number of steps with a fitness; ViolationFree counts
	// the searches that returned a translation violating no property.
	MeanIterations float64
	ViolationFree  int
}

// SummarizeSearch computes the SearchSummary of every translator, corpus and
// direction of the search rows, sorted.
func SummarizeSearch(rows []schemas.SearchRow) []SearchSummary {
	type pk struct{ tr, corpus, src, tgt, problem string }
	by := map[pk][]schemas.SearchRow{}
	for _, r := range rows {
		k := pk{r.Translator, r.Corpus, r.SrcLang, r.TgtLang, r.ProblemID}
		by[k] = append(by[k], r)
	}
	type gk struct{ tr, corpus, src, tgt string }
	sums := map[gk]*SearchSummary{}
	withSteps := map[gk]int{}
	for k, rs := range by {
		g := gk{k.tr, k.corpus, k.src, k.tgt}
		s := sums[g]
		if s == nil {
			s = &SearchSummary{Translator: k.tr, Corpus: k.corpus, SrcLang: k.src, TgtLang: k.tgt}
			sums[g] = s
		}
		s.Searches++
		sort.Slice(rs, func(i, j int) bool { return rs[i].Step < rs[j].Step })
		steps := 0
		var first, returned *schemas.SearchRow
		for i := range rs {
			if rs[i].VP < 0 {
				s.Stopped++
				continue
			}
			steps++
			if first == nil {
				first = &rs[i]
			}
			if rs[i].Best {
				returned = &rs[i]
			}
		}
		if first == nil || returned == nil {
			continue
		}
		withSteps[g]++
		s.MeanIterations += float64(steps)
		s.MeanPassFirst += first.PassRate
		s.MeanPassReturned += returned.PassRate
		if first.PassRate == 1 {
			s.PassingFirst++
		}
		if returned.PassRate == 1 {
			s.PassingReturned++
		}
		if returned.VP == 0 {
			s.ViolationFree++
		}
	}
	var out []SearchSummary
	for g, s := range sums {
		if n := withSteps[g]; n > 0 {
			s.MeanIterations /= float64(n)
			s.MeanPassFirst /= float64(n)
			s.MeanPassReturned /= float64(n)
		}
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.Translator+"\x00"+a.Corpus+"\x00"+a.SrcLang+"\x00"+a.TgtLang < b.Translator+"\x00"+b.Corpus+"\x00"+b.SrcLang+"\x00"+b.TgtLang
	})
	return out
}

// PrintSearchSummary prints the search table's summary; nothing when the search did
// not run (an empty table).
func PrintSearchSummary(ctx context.Context, w io.Writer, b *blob.Bucket) error {
	rows, err := sink.Read[schemas.SearchRow](ctx, b, SearchTable)
	if err != nil || len(rows) == 0 {
		return err
	}
	fmt.Fprintln(w, "Property-guided search (seed 001, Algorithm 1): the first step's translation -> the returned one")
	fmt.Fprintf(w, "  %-28s %-12s %8s %18s %20s %10s %14s %8s\n", "translator", "direction", "searches", "passing programs",
		"mean pass rate", "mean iter", "violation-free", "stopped")
	for _, s := range SummarizeSearch(rows) {
		fmt.Fprintf(w, "  %-28s %-12s %8d %18s %20s %10.2f %14d %8d\n", s.Translator, s.SrcLang+"->"+s.TgtLang, s.Searches,
			fmt.Sprintf("%d -> %d", s.PassingFirst, s.PassingReturned),
			fmt.Sprintf("%.3f -> %.3f", s.MeanPassFirst, s.MeanPassReturned), s.MeanIterations, s.ViolationFree, s.Stopped)
	}
	fmt.Fprintln(w, "  (paper, TransCoder: passing programs 66 -> 84, mean 4.5 iterations)")
	return nil
}
