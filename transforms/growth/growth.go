// Package growth measures the complexity growth of programs (the growth job,
// docs/GROWTH.md): for a problem whose inputs have a size (Detect), it generates
// inputs at geometrically growing sizes with the typed generator of
// transforms/inputs, measures each program's cost at each size (a Meter:
// instructions counted under callgrind by transforms/profile), and fits the growth
// exponent as the slope of log cost on log size with a t interval (FitExponent). A
// translation whose exponent exceeds its gold's by a clear margin is a complexity
// regression. Plain Go, no Beam.
package growth

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"transmute/schemas"
	"transmute/transforms/efficiency"
	"transmute/transforms/execute"
	"transmute/transforms/values"
)

// Cost is one program's measurement on one size's inputs.
type Cost struct {
	// Value is the cost in the meter's unit, net of the harness where the meter
	// subtracts it; meaningful when Status is ok.
	Value   float64
	Status  schemas.Status
	Detail  string
	Outputs []string
	// CPU is what the measurement itself took (the counted run's CPU time).
	CPU time.Duration
}

// Scale is a meter's resolution and the gold's cost range the ladder aims at.
type Scale struct {
	// Floor is the resolution: a smaller net cost counts as Floor in the fit.
	Floor float64
	// MinCost: the ladder starts at the smallest size where the gold costs at
	// least this much; MaxCost: it stops after a size where the gold costs more.
	MinCost, MaxCost float64
}

// Meter measures the programs of one language on one suite of inputs.
type Meter interface {
	// Measure returns each candidate's cost on tests, in the order of cands. limit
	// bounds one program's run (0: the meter's default). An error is the
	// measurement's own failure, not a program's.
	Measure(ctx context.Context, lang string, cands []execute.Candidate, params []schemas.Param, returns string,
		tests []schemas.Test, limit time.Duration) ([]Cost, error)
	// Unit names the cost (GrowthRow.Measure); Scale is its scale in lang.
	Unit() string
	Scale(lang string) Scale
}

// Options configure Analyze. Zero fields take the defaults.
type Options struct {
	Run  string
	Seed int64
	// Inputs per size (default 3): the cost at a size is their total.
	Inputs int
	// Sizes of the ladder (default 5), each twice the one before.
	Sizes int
	// MinPoints: the sizes a fit needs (default 3).
	MinPoints int
	// MaxSteps bounds the gold's walk to the ladder's first size (default 6
	// doublings or halvings from the stress suite's size).
	MaxSteps int
	// Margin: a regression's exponent exceeds the gold's by at least this much
	// (default 0.5), besides the intervals not overlapping.
	Margin float64
	// Level of the exponents' intervals (default 0.95).
	Level float64
	// TimeFactor: a translation's run at a size is limited to this many times the
	// gold's (default 30), at least MinLimit (default 10s); the meter's default
	// bounds it.
	TimeFactor float64
	MinLimit   time.Duration
	// Scale overrides the meter's (fields left 0 keep the meter's).
	Scale Scale
}

func (o Options) withDefaults() Options {
	if o.Inputs <= 0 {
		o.Inputs = 3
	}
	if o.Sizes <= 0 {
		o.Sizes = 5
	}
	if o.MinPoints <= 0 {
		o.MinPoints = 3
	}
	if o.MaxSteps <= 0 {
		o.MaxSteps = 6
	}
	if o.Margin <= 0 {
		o.Margin = 0.5
	}
	if o.Level <= 0 || o.Level >= 1 {
		o.Level = 0.95
	}
	if o.TimeFactor <= 0 {
		o.TimeFactor = 30
	}
	if o.MinLimit <= 0 {
		o.MinLimit = 10 * time.Second
	}
	return o
}

// forLang returns o with its Scale completed by the meter's in lang.
func (o Options) forLang(m Meter, lang string) Options {
	s := m.Scale(lang)
	if o.Scale.Floor <= 0 {
		o.Scale.Floor = s.Floor
	}
	if o.Scale.MinCost <= 0 {
		o.Scale.MinCost = s.MinCost
	}
	if o.Scale.MaxCost <= 0 {
		o.Scale.MaxCost = s.MaxCost
	}
	return o
}

// Translation is a translation to measure: one that passed its task's default
// tests.
type Translation struct {
	Task       schemas.Task
	Translator string
	Cand       execute.Candidate
}

// Input is one problem: its signature, default tests and golds (Problem), its
// stress suites by language, the tasks to report and their translations.
type Input struct {
	Problem      schemas.Problem
	Stress       map[string][]schemas.Test
	Tasks        []schemas.Task
	Translations []Translation
}

// Analyze measures the growth of every task's target gold and translations, one
// ladder of sizes per target language (paced by that language's gold), and
// returns one row per task and program. The source language's gold is measured
// on the same inputs, for the rows' source exponent.
func Analyze(ctx context.Context, m Meter, in Input, o Options) ([]schemas.GrowthRow, []schemas.ErrorRow) {
	o = o.withDefaults()
	var langs []string
	seen := map[string]bool{}
	for _, t := range in.Tasks {
		if !seen[t.TgtLang] {
			seen[t.TgtLang] = true
			langs = append(langs, t.TgtLang)
		}
	}
	sort.Strings(langs)
	rows := make([][]schemas.GrowthRow, len(langs))
	errs := make([][]schemas.ErrorRow, len(langs))
	var wg sync.WaitGroup
	for i, l := range langs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rows[i], errs[i] = analyzeLang(ctx, m, in, l, o.forLang(m, l))
		}()
	}
	wg.Wait()
	var outR []schemas.GrowthRow
	var outE []schemas.ErrorRow
	for i := range langs {
		outR = append(outR, rows[i]...)
		outE = append(outE, errs[i]...)
	}
	return outR, outE
}

// series is one program's costs over a ladder.
type series struct {
	costs    []float64 // -1 where it failed or its outputs differed
	status   schemas.Status
	detail   string
	wrong    int  // sizes whose outputs differed from the gold's
	timedOut bool // failed by a limit at a size where the gold ran
	fit      Fit
}

func candKey(c execute.Candidate) string { return c.Imports + "\x00" + c.Entry + "\x00" + c.Code }

func analyzeLang(ctx context.Context, m Meter, in Input, lang string, o Options) ([]schemas.GrowthRow, []schemas.ErrorRow) {
	p := in.Problem
	var tasks []schemas.Task
	for _, t := range in.Tasks {
		if t.TgtLang == lang {
			tasks = append(tasks, t)
		}
	}
	var errs []schemas.ErrorRow
	errRow := func(reason, detail string) {
		errs = append(errs, schemas.ErrorRow{Run: o.Run, Stage: schemas.StageGrowth, Corpus: p.Corpus, ProblemID: p.ID,
			Lang: lang, Reason: reason, Detail: efficiency.Clip(detail, 2000)})
	}
	var plan *Plan
	row := func(t schemas.Task, role schemas.Role, translator string) schemas.GrowthRow {
		r := schemas.GrowthRow{Run: o.Run, Translator: translator, ProblemID: t.ProblemID, Corpus: t.Corpus,
			SrcLang: t.SrcLang, TgtLang: t.TgtLang, Role: role, Measure: m.Unit()}
		if plan != nil {
			r.SizeKind, r.SizeParams = plan.Kind, plan.ParamList()
		}
		return r
	}
	fail := func(st schemas.Status, detail string) []schemas.GrowthRow {
		var out []schemas.GrowthRow
		for _, t := range tasks {
			r := row(t, schemas.RoleGroundTruth, "")
			r.Status, r.Detail = st, efficiency.Clip(detail, 2000)
			out = append(out, r)
			for _, tr := range in.Translations {
				if tr.Task == t {
					r := row(t, schemas.RoleTranslation, tr.Translator)
					r.Status, r.Detail = st, efficiency.Clip(detail, 2000)
					out = append(out, r)
				}
			}
		}
		return out
	}
	plan, err := Detect(p, in.Stress[lang])
	if err != nil {
		return fail(schemas.StatusNoSize, err.Error()), errs
	}
	gf, ok := p.Function(lang)
	if !ok {
		errRow("no gold function in the target language", "")
		return fail(schemas.StatusInfraError, "no gold function in "+lang), errs
	}
	lad := &ladder{m: m, plan: plan, o: o, params: p.Params, returns: p.Returns,
		tests: map[int64][]schemas.Test{}, gold: map[string]map[int64]Cost{},
		base: map[string]map[string]float64{}, baseNote: map[string]string{}}
	gold := execute.Candidate{ID: "gold/" + lang, Code: gf.Code, Imports: gf.Imports, Entry: gf.Name}
	sizes, err := lad.walk(ctx, lang, gold)
	if err != nil {
		errRow("growth measurement failed", err.Error())
		return fail(schemas.StatusInfraError, err.Error()), errs
	}
	if len(sizes) < o.MinPoints {
		return fail(schemas.StatusFewSizes, fmt.Sprintf("the gold ran correctly at %d sizes of the ladder (%s)", len(sizes), lad.note)), errs
	}
	goldS := lad.series(lang, sizes)
	goldS.fit = FitExponent(floats(sizes), goldS.costs, o.Scale.Floor, o.Level)

	// The source languages' golds, on the same inputs.
	srcFit := map[string]series{}
	for _, t := range tasks {
		if _, done := srcFit[t.SrcLang]; done || t.SrcLang == lang {
			continue
		}
		sf, ok := p.Function(t.SrcLang)
		if !ok {
			continue
		}
		s := lad.measureUp(ctx, t.SrcLang, execute.Candidate{ID: "gold/" + t.SrcLang, Code: sf.Code, Imports: sf.Imports, Entry: sf.Name}, sizes)
		s.fit = FitExponent(floats(sizes), s.costs, o.Scale.Floor, o.Level)
		srcFit[t.SrcLang] = s
	}
	srcFit[lang] = goldS

	// The translations, each distinct program once, all sizes ascending.
	var cands []execute.Candidate
	index := map[string]int{}
	for _, tr := range in.Translations {
		if tr.Task.TgtLang != lang {
			continue
		}
		k := candKey(tr.Cand)
		if _, ok := index[k]; !ok {
			index[k] = len(cands)
			c := tr.Cand
			c.ID = fmt.Sprintf("tr%d", len(cands))
			cands = append(cands, c)
		}
	}
	trS := lad.measureTranslations(ctx, lang, cands, sizes)
	for i := range trS {
		trS[i].fit = FitExponent(floats(sizes), trS[i].costs, o.Scale.Floor, o.Level)
	}

	var out []schemas.GrowthRow
	fill := func(r *schemas.GrowthRow, s series, src schemas.Task) {
		r.Sizes, r.Costs = joinInts(sizes), joinFloats(s.costs)
		r.Points = int32(s.fit.Points)
		r.Exponent, r.ExponentLo, r.ExponentHi, r.R2 = s.fit.Exponent, s.fit.Lo, s.fit.Hi, s.fit.R2
		r.GoldPoints = int32(goldS.fit.Points)
		r.GoldExponent, r.GoldLo, r.GoldHi = goldS.fit.Exponent, goldS.fit.Lo, goldS.fit.Hi
		if sf, ok := srcFit[src.SrcLang]; ok {
			r.SourcePoints = int32(sf.fit.Points)
			r.SourceExponent, r.SourceLo, r.SourceHi = sf.fit.Exponent, sf.fit.Lo, sf.fit.Hi
		}
		r.TimedOut = s.timedOut
		switch {
		case s.fit.OK():
			r.Status = schemas.StatusOK
		case s.status != "" && s.status != schemas.StatusOK:
			r.Status = s.status
		case s.wrong > 0:
			r.Status = schemas.StatusWrongOutput
		default:
			r.Status = schemas.StatusFewSizes
		}
		r.Detail = efficiency.Clip(s.detail, 2000)
		if s.wrong > 0 {
			r.Detail = strings.TrimSpace(fmt.Sprintf("outputs differ from the gold's at %d sizes; %s", s.wrong, r.Detail))
		}
	}
	for _, t := range tasks {
		r := row(t, schemas.RoleGroundTruth, "")
		fill(&r, goldS, t)
		if r.Detail == "" {
			r.Detail = lad.note
		}
		out = append(out, r)
		for _, tr := range in.Translations {
			if tr.Task != t {
				continue
			}
			s := trS[index[candKey(tr.Cand)]]
			r := row(t, schemas.RoleTranslation, tr.Translator)
			fill(&r, s, t)
			r.Regression = Regression(s.fit, goldS.fit, o.Margin)
			if sf, ok := srcFit[t.SrcLang]; ok {
				r.RegressionVsSource = Regression(s.fit, sf.fit, o.Margin)
			}
			out = append(out, r)
		}
	}
	return out, errs
}

// ladder holds one target language's sizes: the inputs of each size and the golds'
// costs on them.
type ladder struct {
	m       Meter
	plan    *Plan
	o       Options
	params  []schemas.Param
	returns string
	tests   map[int64][]schemas.Test
	gold    map[string]map[int64]Cost // by language
	note    string                    // how the walk went, for the gold's row
	// base is each program's cost at baseSize (by language and candKey),
	// subtracted from its cost at every size: what it spends whatever the size
	// (the call, its setup, printing a number, the first use of a library
	// function: 1,400 instructions a call in C++, 1,600 in Python) is not growth.
	// baseNote says why a program has none.
	base     map[string]map[string]float64
	baseNote map[string]string
}

// baseSize is the size of the programs' base cost: the smallest size of the grid
// of at least 16, or the smallest there is. Not smaller: the C++ harness's own
// work in the bracket is 2,000 instructions larger on arrays of one or two
// elements than on arrays of eight or more (counted on the empty candidate).
func (l *ladder) baseSize() int64 {
	j := 0
	for k := 0; k < 64 && l.valid(j-1) && l.size(j-1) >= 16; k++ {
		j--
	}
	for k := 0; k < 64 && !l.valid(j) && l.size(j) > 1; k++ {
		j--
	}
	return l.size(j)
}

// baselines measures at the smallest size the programs of cands that have no
// base yet (a program that fails there gets 0, noted).
func (l *ladder) baselines(ctx context.Context, lang string, cands []execute.Candidate) error {
	if l.base[lang] == nil {
		l.base[lang] = map[string]float64{}
	}
	var todo []execute.Candidate
	for _, c := range cands {
		if _, ok := l.base[lang][candKey(c)]; !ok {
			todo = append(todo, c)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	n0 := l.baseSize()
	tests, err := l.inputs(n0)
	if err != nil {
		return err
	}
	res, err := l.m.Measure(ctx, lang, todo, l.params, l.returns, tests, 0)
	if err != nil {
		return err
	}
	for k, c := range todo {
		l.base[lang][candKey(c)] = 0
		if res[k].Status == schemas.StatusOK {
			l.base[lang][candKey(c)] = res[k].Value
		} else {
			l.baseNote[candKey(c)] = fmt.Sprintf("no base cost (at size %d: %s)", n0, res[k].Status)
		}
	}
	return nil
}

// size is the j-th size of the grid: the stress suite's size times 2^j.
func (l *ladder) size(j int) int64 {
	return int64(math.Round(float64(max(l.plan.Base, 1)) * math.Pow(2, float64(j))))
}

// valid: size j is within the parameters' range and distinct from its
// neighbours (a small base rounds to equal sizes).
func (l *ladder) valid(j int) bool {
	n := l.size(j)
	if _, ok := l.plan.values(n); !ok {
		return false
	}
	return l.size(j-1) < n && n < l.size(j+1)
}

func (l *ladder) inputs(n int64) ([]schemas.Test, error) {
	if t, ok := l.tests[n]; ok {
		return t, nil
	}
	t, err := l.plan.Inputs(l.o.Seed, n, l.o.Inputs)
	if err != nil {
		return nil, err
	}
	l.tests[n] = t
	return t, nil
}

// goldAt measures lang's gold at size n (once).
func (l *ladder) goldAt(ctx context.Context, lang string, c execute.Candidate, n int64, limit time.Duration) (Cost, error) {
	if l.gold[lang] == nil {
		l.gold[lang] = map[int64]Cost{}
	}
	if c, ok := l.gold[lang][n]; ok {
		return c, nil
	}
	if err := l.baselines(ctx, lang, []execute.Candidate{c}); err != nil {
		return Cost{}, err
	}
	tests, err := l.inputs(n)
	if err != nil {
		return Cost{}, err
	}
	res, err := l.m.Measure(ctx, lang, []execute.Candidate{c}, l.params, l.returns, tests, limit)
	if err != nil {
		return Cost{}, err
	}
	res[0].Value -= l.base[lang][candKey(c)]
	l.gold[lang][n] = res[0]
	return res[0], nil
}

// walk finds the ladder of lang's gold: from the stress suite's size it halves
// (or doubles) the size until the gold's cost is just above MinCost, then takes
// Sizes doublings from there, up to the first size where the gold fails or after
// one costing more than MaxCost. A gold whose cost never reaches MinCost within
// MaxSteps doublings (a cost that does not grow) gets the ladder from the stress
// suite's size up.
func (l *ladder) walk(ctx context.Context, lang string, gold execute.Candidate) ([]int64, error) {
	o := l.o
	at := func(j int) (float64, bool, error) {
		// A size twice the last one costs at most 16 times as much for a
		// polynomial of degree 4: TimeFactor times the last one's run bounds the
		// next, so that an exponential gold stops the ladder in seconds.
		var limit time.Duration
		if prev, ok := l.gold[lang][l.size(j-1)]; ok && prev.Status == schemas.StatusOK {
			limit = max(o.MinLimit, time.Duration(o.TimeFactor*float64(prev.CPU)))
		}
		c, err := l.goldAt(ctx, lang, gold, l.size(j), limit)
		return c.Value, c.Status == schemas.StatusOK, err
	}
	j := 0
	for s := 0; !l.valid(j) && s < o.MaxSteps; s++ {
		j--
	}
	if !l.valid(j) {
		return nil, nil
	}
	c, ok, err := at(j)
	if err != nil {
		return nil, err
	}
	switch {
	case !ok: // the gold fails at the stress size on these inputs: smaller
		for s := 0; s < o.MaxSteps && !ok && l.valid(j-1); s++ {
			j--
			if _, ok, err = at(j); err != nil {
				return nil, err
			}
		}
		if !ok {
			l.note = "the gold failed at every size tried"
			return nil, nil
		}
	case c >= o.Scale.MinCost:
		for s := 0; s < o.MaxSteps && l.valid(j-1); s++ {
			c2, ok2, err := at(j - 1)
			if err != nil {
				return nil, err
			}
			if !ok2 || c2 < o.Scale.MinCost {
				break
			}
			j--
		}
	default:
		start := j
		for s := 0; s < o.MaxSteps && l.valid(j+1) && c < o.Scale.MinCost; s++ {
			c2, ok2, err := at(j + 1)
			if err != nil {
				return nil, err
			}
			if !ok2 {
				break
			}
			j, c = j+1, c2
		}
		if c < o.Scale.MinCost {
			// The gold's cost stays below MinCost: from the stress size up (or as
			// far up as the range allows).
			j = min(start, j-(o.Sizes-1))
			for !l.valid(j) && j < start {
				j++
			}
			l.note = fmt.Sprintf("the gold's cost stays below %.0f %s", o.Scale.MinCost, l.m.Unit())
		}
	}
	var sizes []int64
	for k := 0; k < o.Sizes && l.valid(j+k); k++ {
		c, ok, err := at(j + k)
		if err != nil {
			return nil, err
		}
		if !ok {
			l.note = strings.TrimSpace(l.note + fmt.Sprintf(" the gold failed at size %d", l.size(j+k)))
			break
		}
		sizes = append(sizes, l.size(j+k))
		if c > o.Scale.MaxCost {
			break
		}
	}
	return sizes, nil
}

// series returns lang's gold costs over sizes (walked already).
func (l *ladder) series(lang string, sizes []int64) series {
	var s series
	for _, n := range sizes {
		s.costs = append(s.costs, l.gold[lang][n].Value)
	}
	s.status = schemas.StatusOK
	return s
}

// limit is a program's run limit at size n: TimeFactor times the target gold's
// measurement there, at least MinLimit.
func (l *ladder) limit(n int64) time.Duration {
	var g time.Duration
	for _, byN := range l.gold {
		g = max(g, byN[n].CPU)
	}
	return max(l.o.MinLimit, time.Duration(l.o.TimeFactor*float64(g)))
}

// measureUp measures one program (another language's gold) over sizes,
// ascending, until it fails.
func (l *ladder) measureUp(ctx context.Context, lang string, c execute.Candidate, sizes []int64) series {
	s := series{costs: make([]float64, len(sizes)), status: schemas.StatusOK}
	for i := range s.costs {
		s.costs[i] = -1
	}
	for i, n := range sizes {
		r, err := l.goldAt(ctx, lang, c, n, l.limit(n))
		if err != nil {
			s.status, s.detail = schemas.StatusInfraError, err.Error()
			break
		}
		if r.Status != schemas.StatusOK {
			if i == 0 {
				s.status, s.detail = r.Status, r.Detail
			}
			break
		}
		s.costs[i] = r.Value
	}
	return s
}

// measureTranslations measures cands (of the target language) over sizes,
// ascending; a program that fails at a size is not run at the larger ones, and
// one whose outputs differ from the gold's at a size has no cost there.
func (l *ladder) measureTranslations(ctx context.Context, lang string, cands []execute.Candidate, sizes []int64) []series {
	out := make([]series, len(cands))
	alive := make([]bool, len(cands))
	for i := range out {
		out[i].costs = make([]float64, len(sizes))
		for k := range sizes {
			out[i].costs[k] = -1
		}
		alive[i] = true
	}
	ret, _ := values.ParseType(l.returns)
	if err := l.baselines(ctx, lang, cands); err != nil {
		for i := range out {
			out[i].status, out[i].detail = schemas.StatusInfraError, err.Error()
		}
		return out
	}
	for i, c := range cands {
		out[i].detail = l.baseNote[candKey(c)]
	}
	for k, n := range sizes {
		var run []int
		var cs []execute.Candidate
		for i, c := range cands {
			if alive[i] {
				run = append(run, i)
				cs = append(cs, c)
			}
		}
		if len(cs) == 0 {
			break
		}
		tests, err := l.inputs(n)
		var res []Cost
		if err == nil {
			res, err = l.m.Measure(ctx, lang, cs, l.params, l.returns, tests, l.limit(n))
		}
		gold := l.gold[lang][n]
		for j, i := range run {
			s := &out[i]
			if err != nil {
				s.status, s.detail, alive[i] = schemas.StatusInfraError, err.Error(), false
				continue
			}
			r := res[j]
			switch {
			case r.Status != schemas.StatusOK:
				if s.status == "" {
					s.status = r.Status
					s.detail = strings.TrimSpace(fmt.Sprintf("size %d: %s %s; %s", n, r.Status, r.Detail, s.detail))
				}
				s.timedOut = r.Status == schemas.StatusTimeout || r.Status == schemas.StatusMemoryLimit
				alive[i] = false
			case !efficiency.StressMatch(ret, gold.Outputs, r.Outputs, values.DefaultTolerance):
				s.wrong++
			default:
				s.costs[k] = r.Value - l.base[lang][candKey(cands[i])]
			}
		}
	}
	for i := range out {
		if out[i].status == "" {
			out[i].status = schemas.StatusOK
		} else if out[i].costs[0] >= 0 {
			// It ran at the smaller sizes: the fit stands on them; the failure is in
			// the detail and TimedOut.
			out[i].status = schemas.StatusOK
		}
	}
	return out
}

func floats(xs []int64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

func joinInts(xs []int64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.FormatInt(x, 10)
	}
	return strings.Join(s, ",")
}

func joinFloats(xs []float64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strings.Join(s, ",")
}
