// Package propsearch is the property-guided search of NOMOS (section 3.3,
// Algorithm 1): it queries a translator with mutated parameters (the temperature)
// until a translation violates none of the properties, or keeps the best by a
// lexicographic fitness. Plain Go, no Beam.
package propsearch

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/execute"
	"transmute/transforms/properties"
	"transmute/transforms/translate"
	"transmute/transforms/values"
)

// SearchConfig holds the parameters of the property-guided search (NOMOS,
// section 3.3, Algorithm 1). The paper's: budget 20, start temperature 0.1, Gaussian
// mutation with mean 0 and variance 0.01.
type SearchConfig struct {
	// Budget is the number of model instances tried (the search budget).
	Budget int
	// Start is the initial temperature; Sigma the mutation's standard deviation.
	Start, Sigma float64
	// MaxTemperature bounds the mutated temperature (the OpenAI API takes 0..2).
	MaxTemperature float64
	Seed           uint64
}

// PaperSearch is the configuration of the paper's experiments.
var PaperSearch = SearchConfig{Budget: 20, Start: 0.1, Sigma: math.Sqrt(0.01), MaxTemperature: 2, Seed: 1}

// Fitness is one model instance's test outcome: violated properties, then total
// violations (lexicographic, lower is better).
type Fitness struct{ VP, TV int }

// Better tells whether f beats g lexicographically.
func (f Fitness) Better(g Fitness) bool { return f.VP < g.VP || (f.VP == g.VP && f.TV < g.TV) }

// Step is one iteration of the search.
type Step struct {
	Temperature float64
	Fitness     Fitness
	Translation translate.Translation
	PassRate    float64
}

// Tester runs the testing procedure with one temperature: it returns the fitness,
// the translation of the user's program (P_1) and that translation's pass rate.
type Tester func(ctx context.Context, temperature float64) (Fitness, translate.Translation, float64, error)

// Search is Algorithm 1: test the current parameters, return at once when no
// property is violated, keep the best translation by the lexicographic fitness,
// mutate the temperature by Gaussian noise (clamped to [0, MaxTemperature]), until
// the budget is spent. It returns the steps and the index of the returned one.
func Search(ctx context.Context, cfg SearchConfig, test Tester) ([]Step, int, error) {
	if cfg.Budget <= 0 {
		return nil, -1, fmt.Errorf("propsearch: search budget %d", cfg.Budget)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x5eed))
	temp := cfg.Start
	best := -1
	var steps []Step
	for b := 0; b < cfg.Budget; b++ {
		f, tr, pass, err := test(ctx, temp)
		if err != nil {
			return steps, best, err
		}
		steps = append(steps, Step{Temperature: temp, Fitness: f, Translation: tr, PassRate: pass})
		if best < 0 || f.Better(steps[best].Fitness) {
			best = len(steps) - 1
		}
		if f.VP == 0 {
			return steps, len(steps) - 1, nil
		}
		temp = math.Min(math.Max(temp+rng.NormFloat64()*cfg.Sigma, 0), cfg.MaxTemperature)
	}
	return steps, best, nil
}

// WithTemperature returns an openai translator spec with its temperature set.
func WithTemperature(spec string, t float64) (string, error) {
	scheme, rest, _ := strings.Cut(spec, ":")
	if scheme != "openai" {
		return "", fmt.Errorf("propsearch: the search changes the temperature of openai translators, not %q", scheme)
	}
	base, query, _ := strings.Cut(rest, "?")
	q, err := url.ParseQuery(query)
	if err != nil {
		return "", err
	}
	q.Set("temperature", strconv.FormatFloat(t, 'f', -1, 64))
	return scheme + ":" + base + "?" + q.Encode(), nil
}

// passRate runs the source function and the translation on the problem's tests and
// returns the share of tests on which both return the same value.
func passRate(ctx context.Context, r *properties.Runner, p schemas.Problem, task schemas.Task, tr translate.Translation) float64 {
	src, ok := p.Function(task.SrcLang)
	if !ok || tr.Status != schemas.TranslationOK || len(p.Tests) == 0 {
		return 0
	}
	ret, err := values.ParseType(p.Returns)
	if err != nil {
		return 0
	}
	runOne := func(lang string, c execute.Candidate) (execute.Result, bool) {
		e := r.Engines[lang]
		if e == nil {
			return execute.Result{}, false
		}
		res, err := e.Run(ctx, execute.Batch{ProblemID: p.ID, Lang: lang, Params: p.Params, Returns: p.Returns, Tests: p.Tests,
			Limits: r.Limits, StopAfterTimeouts: 1, Candidates: []execute.Candidate{c}})
		if err != nil || len(res) != 1 {
			return execute.Result{}, false
		}
		return res[0], true
	}
	a, ok1 := runOne(task.SrcLang, execute.Candidate{ID: "src", Code: src.Code, Imports: src.Imports, Entry: src.Name})
	b, ok2 := runOne(task.TgtLang, execute.Candidate{ID: "tr", Code: tr.Code, Imports: tr.Imports, Entry: tr.Entry})
	if !ok1 || !ok2 {
		return 0
	}
	same := 0
	for j, t := range a.Tests {
		if j < len(b.Tests) && t.Status == schemas.StatusOK && b.Tests[j].Status == schemas.StatusOK &&
			values.Equal(ret, t.Output, b.Tests[j].Output, r.Tolerance) {
			same++
		}
	}
	return float64(same) / float64(len(p.Tests))
}

// Searchable says why the search cannot run with a translator spec (nil when it
// can): only openai translators have a parameter to mutate, the temperature.
func Searchable(spec string) error {
	_, err := WithTemperature(spec, 0)
	return err
}

// SearchProblem runs the search for one item's first task with the openai
// translator of spec: each step opens the translator at the step's temperature and
// checks the 38 properties of the item's function (r.Translators is ignored). It
// returns one search row per step; when a step cannot be tested (the translator does
// not open, the source function does not run, no property could be checked) the
// search stops there with a last row holding the error, VP and TV -1, and err.
func SearchProblem(ctx context.Context, r *properties.Runner, cfg SearchConfig, spec string, it evaluate.Item, pool []schemas.Problem) ([]schemas.SearchRow, error) {
	if len(it.Tasks) == 0 {
		return nil, fmt.Errorf("propsearch: no task")
	}
	task := it.Tasks[0]
	item := evaluate.Item{Problem: it.Problem, Tasks: []schemas.Task{task}}
	name := spec
	var violatedNames []string // per step, appended with the step
	tried := cfg.Start         // the temperature of the last step tried
	test := func(ctx context.Context, temp float64) (Fitness, translate.Translation, float64, error) {
		tried = temp
		s, err := WithTemperature(spec, temp)
		if err != nil {
			return Fitness{}, translate.Translation{}, 0, err
		}
		tr, err := translate.Open(ctx, s)
		if err != nil {
			return Fitness{}, translate.Translation{}, 0, err
		}
		defer tr.Close()
		name = tr.Name()
		if !translate.Supports(tr, task.SrcLang, task.TgtLang) {
			return Fitness{}, translate.Translation{}, 0, fmt.Errorf("propsearch: %s does not translate %s to %s", name, task.SrcLang, task.TgtLang)
		}
		rr := *r
		rr.Translators = []translate.Translator{tr}
		out := rr.Evaluate(ctx, item, pool)
		if len(out.Results) == 0 {
			// No property checked is no evidence of none violated: stop, not succeed.
			var why []string
			for _, e := range out.Errors {
				why = append(why, strings.TrimSpace(e.Reason+" "+e.Detail))
			}
			return Fitness{}, translate.Translation{}, 0, fmt.Errorf("propsearch: no property checked: %s", strings.Join(why, "; "))
		}
		var f Fitness
		violated := map[string]bool{}
		for _, res := range out.Results {
			if res.Violated {
				f.TV++
				violated[res.Property] = true
			}
		}
		f.VP = len(violated)
		names := make([]string, 0, len(violated))
		for n := range violated {
			names = append(names, n)
		}
		sort.Strings(names)
		var first translate.Translation
		found := false
		for _, t := range out.Translations {
			if t.VariantID == "orig" && t.Sample == 0 {
				first = translate.Translation{Status: t.Status, Error: t.Error, Code: t.Code, Imports: t.Imports, Entry: t.Entry}
				found = true
			}
		}
		if !found {
			return Fitness{}, translate.Translation{}, 0, fmt.Errorf("propsearch: %s returned no translation of the original", name)
		}
		violatedNames = append(violatedNames, strings.Join(names, ","))
		return f, first, passRate(ctx, r, it.Problem, task, first), nil
	}
	steps, best, err := Search(ctx, cfg, test)
	row := func(i int) schemas.SearchRow {
		return schemas.SearchRow{Run: r.Run, Translator: name, ProblemID: it.Problem.ID, Corpus: it.Problem.Corpus,
			SrcLang: task.SrcLang, TgtLang: task.TgtLang, Step: int32(i)}
	}
	var rows []schemas.SearchRow
	for i, s := range steps {
		x := row(i)
		x.Temperature, x.VP, x.TV, x.Violated = s.Temperature, int32(s.Fitness.VP), int32(s.Fitness.TV), violatedNames[i]
		x.Best, x.PassRate = i == best, s.PassRate
		x.Status, x.Code, x.Entry, x.Error = s.Translation.Status, s.Translation.Code, s.Translation.Entry, s.Translation.Error
		rows = append(rows, x)
	}
	if err != nil {
		x := row(len(steps))
		x.Temperature, x.VP, x.TV, x.Error = tried, -1, -1, err.Error()
		rows = append(rows, x)
	}
	return rows, err
}
