package pipelines

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/propsearch"
)

// SearchTable is the property-guided search's table (schemas.SearchRow).
const SearchTable = "search"

// StageSearch is the ErrorRow stage of a search that stopped on an error.
const StageSearch = "property_search"

// SearchOptions are the property-guided search's settings (NOMOS, section 3.3,
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
// translator) of items (BuildProperties' loaded problems) in Batches of problems,
// with the same merge groups as the properties stage, writes the search table and
// returns the error rows of searches that stopped on an error.
func buildPropertySearch(s beam.Scope, c Config, o PropertiesOptions, items beam.PCollection) beam.PCollection {
	s = s.Scope("PropertySearch")
	rows := beam.ParDo(s, &searchFn{propBatchFn{Exec: execOf(c), Options: o, MergeGroups: c.MergeGroups}}, Batches(s, items), beam.SideInput{Input: items})
	writeTable[schemas.SearchRow](s, c.Output, SearchTable, c.RowsPerFile, rows)
	return beam.ParDo(s, searchErrorRows, rows)
}

// searchFn searches on a batch of problems with the worker's shared engines; the
// translators are opened per step (each step's temperature is a translator of its
// own).
type searchFn struct{ propBatchFn }

var searchBundles = beam.NewCounter("transmute", "bundles_search")

func (f *searchFn) StartBundle(ctx context.Context, _ func(*evaluate.Item) bool, _ func(schemas.SearchRow)) {
	searchBundles.Inc(ctx, 1)
}

// ProcessElement runs the searches of a batch's problems at once, each problem's
// (direction, translator) searches one after another: as many searches in flight
// as problems, like the other stages' batches.
func (f *searchFn) ProcessElement(ctx context.Context, _ string, batch func(*evaluate.Item) bool, all func(*evaluate.Item) bool,
	emit func(schemas.SearchRow)) error {
	if err := f.open(ctx, false, all); err != nil {
		return err
	}
	o := f.Options.Search
	runBatch(batch, func(it evaluate.Item) []schemas.SearchRow {
		pool := f.pool(it)
		var rows []schemas.SearchRow
		for _, task := range it.Tasks {
			for _, spec := range f.Translators {
				cfg := propsearch.SearchConfig{Budget: o.Budget, Start: o.Start, Sigma: o.Sigma,
					MaxTemperature: propsearch.PaperSearch.MaxTemperature, Seed: searchSeed(f.Options.Seed, it.Problem, task)}
				one := evaluate.Item{Problem: it.Problem, Tasks: []schemas.Task{task}}
				rs, _ := propsearch.SearchProblem(ctx, f.runner, cfg, spec, one, pool) // an error is the last row
				rows = append(rows, rs...)
			}
		}
		return rows
	}, func(rows []schemas.SearchRow) {
		for _, r := range rows {
			emit(r)
		}
	})
	return nil
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
