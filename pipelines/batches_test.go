package pipelines

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"transmute/io/corpus"
	"transmute/schemas"
	"transmute/transforms/evaluate"
	"transmute/transforms/properties"
	"transmute/transforms/runner"
	"transmute/transforms/sandbox"
	"transmute/transforms/values"
)

func propResultKey(r schemas.PropertyResultRow) string     { return fmt.Sprintf("%+v", r) }
func transformationKey(r schemas.TransformationRow) string { return fmt.Sprintf("%+v", r) }

func init() {
	beam.RegisterFunction(propResultKey)
	beam.RegisterFunction(transformationKey)
}

// TestPropertiesBatchesMatchShards: the properties stages (Expand, Translate,
// Execute) over keyed batches give the rows the shard-at-once job gave, which ran
// properties.Runner on every problem of a compute shard with that shard's problems
// as merge partners. With two merge groups, a batch holds problems of both groups:
// each must still take its partners from its own group (the side input), or the
// merge variants and their property results change.
func TestPropertiesBatchesMatchShards(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the engine runs")
	}
	const groups, limit = 2, 8
	spec := "jsonl:" + filepath.Join(repoRoot(t), "data", "problems.jsonl")
	c := Config{Run: "batches", Parallelism: 2, RowsPerFile: 1, MergeGroups: groups, CPUTime: testCPU, WallTime: testWall,
		Corpora: []string{spec}, Translators: []string{"identity:"}, Directions: "python-python", Limit: limit,
		WorkDir: t.TempDir(), ExecCache: "off"}
	o := PropertiesOptions{Seed: 3}

	// The old job: a shard's problems run with the shard's problems as the pool.
	ctx := context.Background()
	cp, err := corpus.Load(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := evaluate.Directions(c.Directions)
	if err != nil {
		t.Fatal(err)
	}
	var items []evaluate.Item
	shards := map[int][]schemas.Problem{}
	for _, p := range cp.Problems[:limit] {
		items = append(items, evaluate.Item{Problem: p, Tasks: filterTasks(p, nil, dirs)})
		g := mergeGroup(p.ID, groups)
		shards[g] = append(shards[g], p)
	}
	if len(shards) != groups {
		t.Fatalf("the %d problems fall in %d merge groups, want %d", limit, len(shards), groups)
	}
	tl, err := openTools(ctx, c.Translators, t.TempDir(), c.Parallelism, "off")
	if err != nil {
		t.Fatal(err)
	}
	defer tl.Close()
	r := &properties.Runner{Tools: runner.Tools{Run: c.Run, Translators: tl.translators, Engines: tl.engines, Tolerance: values.DefaultTolerance,
		Limits: sandbox.Limits{CPUTime: c.CPUTime, WallTime: c.WallTime}}, Seed: o.Seed}
	var wantRes, wantTr []any
	merges := 0
	for _, it := range items {
		out := r.Evaluate(ctx, it, shards[mergeGroup(it.Problem.ID, groups)])
		for _, x := range out.Results {
			wantRes = append(wantRes, propResultKey(x))
		}
		for _, x := range out.Transformations {
			wantTr = append(wantTr, transformationKey(x))
			if x.Transformation == "merge" && x.Outcome == properties.OutcomeValid {
				merges++
			}
		}
	}
	if merges == 0 || len(wantRes) == 0 {
		t.Fatalf("%d valid merges, %d property results: the test checks nothing", merges, len(wantRes))
	}

	// The new stage, in batches the runner spreads.
	p, s := beam.NewPipelineWithRoot()
	loaded, _ := Load(s, c.WithDefaults())
	cc := c.WithDefaults()
	outs := PropertiesExecute(s, cc, PropertiesTranslate(s, cc, PropertiesExpand(s, cc, o, loaded)))
	passert.Equals(s, beam.ParDo(s, propResultKey, Split[schemas.PropertyResultRow](s, outs, "Results")), wantRes...)
	passert.Equals(s, beam.ParDo(s, transformationKey, Split[schemas.TransformationRow](s, outs, "Transformations")), wantTr...)
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
}
