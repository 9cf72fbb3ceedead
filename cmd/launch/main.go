// Command launch runs Transmute's evaluation pipeline on Beam: by default on Prism,
// in process; --runner=universal --endpoint=HOST:PORT for a Prism or Flink job
// server; --runner=dataflow with the usual Dataflow flags for the cloud.
//
//	launch --corpus jsonl:data/problems.jsonl \
//	       --translator recorded:data/translations/toy-llm.jsonl --out out/run
//
// Flags may also come from a JSON config file (--config), flags overriding it.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"transmute/io/blobs"
	"transmute/io/sink"
	"transmute/pipelines"
	"transmute/transforms/evaluate"
	"transmute/transforms/sandbox"

	// Engines and translators register themselves.
	_ "transmute/transforms/execute/cpp"
	_ "transmute/transforms/execute/java"
	_ "transmute/transforms/execute/python"
	_ "transmute/transforms/translate/builtin"
	_ "transmute/transforms/translate/command"
	_ "transmute/transforms/translate/identity"
	_ "transmute/transforms/translate/openai"
	_ "transmute/transforms/translate/recorded"
)

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// Flags of --job efficiency (seed 002, TRACE); --limit is its number of tasks per direction.
var (
	effRepetitions = flag.Int("repetitions", 0, "efficiency: measured runs per profile (default 5)")
	effTimeLimit   = flag.Duration("profile-time-limit", 0, "efficiency: CPU limit of one whole-stress-suite run (default 60s; TRACE 180s)")
	effMemoryMB    = flag.Int64("profile-memory-mb", 0, "efficiency: memory limit of one stress-suite run in MiB (default 4096, as TRACE)")
	effCPUs        = flag.String("profile-cpus", "", "efficiency: comma-separated cores, one profiling worker pinned to each (default: every core)")
	effReference   = flag.String("reference", "", "efficiency: comma-separated translators whose correct translations join the reference set (default: all)")
	effNoiseEvery  = flag.Duration("noise-every", 0, "efficiency: probe each profiling core for machine noise (fixed work, the noise table) when its last probe is this old (default 20s; negative: never)")
)

// Flags of --job similarity (seed 003).
var (
	simFrom      = flag.String("from", "", "similarity: output directory of an evaluate job whose translations are scored")
	simBootstrap = flag.Int("bootstrap", 200, "similarity: bootstrap resamples for the 95% intervals (0: none)")
)

// efficiencyOptions reads the --job efficiency flags.
func efficiencyOptions(limit int) pipelines.EfficiencyOptions {
	o := pipelines.EfficiencyOptions{PerDirection: limit, Repetitions: *effRepetitions, TimeLimit: *effTimeLimit,
		MemoryBytes: *effMemoryMB << 20, NoiseEvery: *effNoiseEvery}
	for _, c := range strings.Split(*effCPUs, ",") {
		if c = strings.TrimSpace(c); c != "" {
			n, err := strconv.Atoi(c)
			if err != nil {
				fatal(fmt.Errorf("--profile-cpus: %w", err))
			}
			o.CPUs = append(o.CPUs, n)
		}
	}
	for _, r := range strings.Split(*effReference, ",") {
		if r = strings.TrimSpace(r); r != "" {
			o.Reference = append(o.Reference, r)
		}
	}
	return o
}

// similarityOptions reads the --job similarity flags.
func similarityOptions() pipelines.SimilarityOptions {
	if *simFrom == "" {
		fatal(fmt.Errorf("--job similarity needs --from (an evaluate job's output)"))
	}
	return pipelines.SimilarityOptions{From: *simFrom, Workers: runtime.NumCPU(), Resamples: *simBootstrap, Seed: 3}
}

func main() {
	sandbox.Init() // a sandboxed child re-executes this binary: set it up and exec

	var (
		corpora, translators listFlag
		configPath           = flag.String("config", "", "JSON config file (see data/configs); flags override it")
		out                  = flag.String("out", "", "output directory or bucket URL (default out/run)")
		directions           = flag.String("directions", "", "comma-separated src-tgt directions (default: every task of the corpora)")
		parallelism          = flag.Int("workers", 0, "executions at once per Beam worker, per language (default 2); four times as many problems are in flight, so that small C++ batches can be compiled together")
		shards               = flag.Int("shards", 0, "Parquet files per table (default 4)")
		computeShards        = flag.Int("compute-shards", 0, "groups the problems are evaluated in, each with its own worker pool (default 1 in process, where Prism runs them one after another; else --shards)")
		limit                = flag.Int("limit", 0, "at most this many problems per corpus (0 = all)")
		cppArgs              = flag.String("cpp-args", "", "how C++ programs get their arguments: adapt (default: to whatever the function takes) or gold (as the C++ gold declares them, like TransCoder-test's and TRACE's scripts; a translation that cannot take them is a compile error)")
		cpu                  = flag.Duration("cpu-limit", 0, "CPU time limit per test (default 10s; 1s for --job mbta)")
		wall                 = flag.Duration("wall-limit", 0, "wall time limit per test (default 20s; 2s for --job mbta)")
		mem                  = flag.Int64("memory-limit-mb", 0, "memory limit per program in MiB (default 1024)")
		runName              = flag.String("run", "", "run name (default: a UTC timestamp)")
		workDir              = flag.String("work-dir", "", "cache directory for compiled runners (default: temp)")
		quiet                = flag.Bool("quiet", false, "no progress line and no summary")
		job                  = flag.String("job", "evaluate", "job to run: evaluate (CA and pass rate), mbta (mutation-based translation analysis), efficiency (TRACE Beyond; --limit is then tasks per direction) or similarity (seed 003 metrics of an evaluate output, --from)")
		mutOps               = flag.String("mutation-operators", "", "mbta: comma-separated muJava operators (default: all 19)")
		mutMaxOp             = flag.Int("max-mutants-per-operator", 0, "mbta: at most this many mutants per operator and problem (0 = all)")
		mutMax               = flag.Int("max-mutants", 0, "mbta: at most this many mutants per problem and language (0 = all)")
		mutSeed              = flag.Int64("mutation-seed", 1, "mbta: seed of the sampling when a mutant cap applies")
		mutTimeFactor        = flag.Float64("mutant-time-factor", 0, "mbta: per-test limit of mutants = factor × the original's slowest test + --mutant-time-floor (0: the fixed limits)")
		mutTimeFloor         = flag.Duration("mutant-time-floor", 100*time.Millisecond, "mbta: constant added to the mutants' adaptive limit")
		cpuProfile           = flag.String("cpuprofile", "", "write a Go CPU profile of this process (not of the programs it runs) to this file, for `go tool pprof`")
	)
	flag.Var(&corpora, "corpus", "corpus spec, repeatable: transcoder:DIR, trace:DIR, jsonl:FILE (paths or blob URLs)")
	flag.Var(&translators, "translator", "translator spec, repeatable: recorded:PATH, identity:, builtin:")
	flag.Parse()
	beam.Init()

	var c pipelines.Config
	if *configPath != "" {
		data, err := os.ReadFile(*configPath)
		if err != nil {
			fatal(err)
		}
		if err := json.Unmarshal(data, &c); err != nil {
			fatal(fmt.Errorf("config %s: %w", *configPath, err))
		}
	}
	if len(corpora) > 0 {
		c.Corpora = corpora
	}
	if len(translators) > 0 {
		c.Translators = translators
	}
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&c.Output, *out)
	set(&c.Directions, *directions)
	set(&c.Run, *runName)
	set(&c.WorkDir, *workDir)
	if *parallelism > 0 {
		c.Parallelism = *parallelism
	}
	if *shards > 0 {
		c.Shards = *shards
	}
	if *computeShards > 0 {
		c.ComputeShards = *computeShards
	} else if c.ComputeShards == 0 && inProcess() {
		c.ComputeShards = 1
	}
	if *limit > 0 {
		c.Limit = *limit
	}
	if *cppArgs != "" {
		c.CppArgs = *cppArgs
	}
	if c.CppArgs != "" && c.CppArgs != evaluate.CppArgsAdapt && c.CppArgs != evaluate.CppArgsGold {
		fatal(fmt.Errorf("--cpp-args %q: want %s or %s", c.CppArgs, evaluate.CppArgsAdapt, evaluate.CppArgsGold))
	}
	if *cpu > 0 {
		c.CPUTime = *cpu
	}
	if *wall > 0 {
		c.WallTime = *wall
	}
	if *mem > 0 {
		c.MemoryBytes = *mem << 20
	}
	c.Progress = !*quiet
	c = c.WithDefaults()
	if *job == "mbta" {
		c = pipelines.MBTADefaults(c)
	}
	if (len(c.Corpora) == 0 || len(c.Translators) == 0) && *job != "similarity" {
		fatal(fmt.Errorf("need at least one --corpus and one --translator (or a --config)"))
	}

	ctx := context.Background()
	bucket, err := blobs.Open(ctx, c.Output)
	if err != nil {
		fatal(err)
	}
	defer bucket.Close()
	if *job != "evaluate" && *job != "mbta" && *job != "efficiency" && *job != "similarity" {
		fatal(fmt.Errorf("unknown --job %q (want evaluate, mbta, efficiency or similarity)", *job))
	}
	tables := pipelines.Tables
	if *job == "mbta" {
		tables = pipelines.MBTATables
	}
	if *job == "efficiency" {
		tables = pipelines.EfficiencyTables
	}
	if *job == "similarity" {
		tables = pipelines.SimilarityTables
	}
	for _, t := range tables {
		if err := sink.Clear(ctx, bucket, t); err != nil {
			fatal(fmt.Errorf("clearing old %s: %w", t, err))
		}
	}
	m := &pipelines.Manifest{Run: c.Run, Command: strings.Join(os.Args, " "), Config: c,
		Start: time.Now().UTC(), Versions: pipelines.Versions()}

	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fatal(err)
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}
	p, s := beam.NewPipelineWithRoot()
	if *job == "mbta" {
		var ops []string
		for _, o := range strings.Split(*mutOps, ",") {
			if o = strings.TrimSpace(o); o != "" {
				ops = append(ops, o)
			}
		}
		pipelines.BuildMBTA(s, c, pipelines.MBTAOptions{Operators: ops, MaxPerOperator: *mutMaxOp, MaxTotal: *mutMax, Seed: *mutSeed,
			TimeFactor: *mutTimeFactor, TimeFloor: *mutTimeFloor})
	} else if *job == "efficiency" {
		pipelines.BuildEfficiency(s, c, efficiencyOptions(c.Limit))
	} else if *job == "similarity" {
		pipelines.BuildSimilarity(s, c, similarityOptions())
	} else {
		pipelines.BuildEvaluate(s, c)
	}
	err = beamx.Run(ctx, p)
	pipelines.SweepBeamTemp(time.Minute) // Beam's loopback placeholders, this run's once it is old enough
	if err != nil {
		fatal(fmt.Errorf("pipeline failed: %w", err))
	}
	if c.Progress {
		fmt.Fprintln(os.Stderr)
	}
	if *job == "mbta" {
		if err := pipelines.FinishMBTA(ctx, bucket, m); err != nil {
			fatal(fmt.Errorf("manifest: %w", err))
		}
		if !*quiet {
			fmt.Printf("run %s (mbta): %d variants, %d translations, %d mutant results, %d error rows in %.0fs; tables under %s\n",
				c.Run, m.Counts["variants"], m.Counts["translations"], m.Counts["mutant_results"], m.Counts["errors"], m.Seconds, c.Output)
			if err := pipelines.PrintMBTASummary(ctx, os.Stdout, bucket); err != nil {
				fatal(err)
			}
		}
		return
	}
	if *job == "efficiency" {
		if err := pipelines.FinishEfficiency(ctx, bucket, m); err != nil {
			fatal(fmt.Errorf("manifest: %w", err))
		}
		if !*quiet {
			fmt.Printf("run %s (efficiency): %d profiles, %d score rows, %d error rows in %.0fs; tables under %s\n",
				c.Run, m.Counts["profiles"], m.Counts["scores"], m.Counts["errors"], m.Seconds, c.Output)
			if err := pipelines.PrintEfficiencySummary(ctx, os.Stdout, bucket); err != nil {
				fatal(err)
			}
			if err := pipelines.PrintEfficiencyRunCPU(ctx, os.Stdout, bucket); err != nil {
				fatal(err)
			}
		}
		return
	}
	if *job == "similarity" {
		summary, err := pipelines.FinishSimilarity(ctx, bucket, m, similarityOptions())
		if err != nil {
			fatal(fmt.Errorf("similarity analysis: %w", err))
		}
		if !*quiet {
			fmt.Printf("run %s (similarity): %d rows, %d statistics in %.0fs; tables under %s\n",
				c.Run, m.Counts["similarity"], m.Counts["similarity_stats"], m.Seconds, c.Output)
			pipelines.PrintSimilaritySummary(os.Stdout, summary)
		}
		return
	}
	if err := pipelines.Finish(ctx, bucket, m, pipelines.Tables); err != nil {
		fatal(fmt.Errorf("manifest: %w", err))
	}
	if !*quiet {
		fmt.Printf("run %s: %d problems, %d translations, %d executions, %d error rows in %.0fs; tables under %s\n",
			c.Run, m.Counts["problems"], m.Counts["translations"], m.Counts["executions"], m.Counts["errors"], m.Seconds, c.Output)
		if err := pipelines.PrintSummary(ctx, os.Stdout, bucket); err != nil {
			fatal(err)
		}
	}
}

// inProcess tells whether the pipeline runs in this process (Prism, the default
// runner, without a job server).
func inProcess() bool {
	switch *runners.Runner {
	case "", "prism", "direct":
		f := flag.Lookup("endpoint")
		return f == nil || f.Value.String() == ""
	}
	return false
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "launch:", err)
	os.Exit(1)
}
