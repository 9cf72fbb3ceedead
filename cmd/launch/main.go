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
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"gocloud.dev/blob"

	"transmute/internal/proctree"
	"transmute/internal/progress"
	"transmute/io/blobs"
	"transmute/io/sink"
	"transmute/pipelines"
	"transmute/report"
	"transmute/transforms/efficiency"
	"transmute/transforms/profile"
	"transmute/transforms/sandbox"

	// Engines and translators register themselves.
	_ "transmute/transforms/execute/cpp"
	_ "transmute/transforms/execute/golang"
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

// Flags of --job efficiency (TRACE); --limit is its number of tasks per direction.
var (
	effRepetitions = flag.Int("repetitions", 0, "efficiency: measured runs per profile (default 5)")
	effTimeLimit   = flag.Duration("profile-time-limit", 0, "efficiency: CPU limit of one whole-stress-suite run (default 60s; TRACE 180s)")
	effMemoryMB    = flag.Int64("profile-memory-mb", 0, "efficiency: memory limit of one stress-suite run in MiB (default 4096, as TRACE)")
	effCPUs        = flag.String("profile-cpus", "", "efficiency: comma-separated cores to profile on, a suite per core (default: all)")
	effReference   = flag.String("reference", "", "efficiency: translators whose correct translations are the reference (default: all)")
	effRefGold     = flag.Bool("reference-gold", false, "efficiency: the ground truth joins the reference set (not in TRACE)")
	effFloor       = flag.Float64("floor-spreads", 3, "efficiency: Beyond's tie floor in within-program stds (0: none)")
	effNoiseEvery  = flag.Duration("noise-every", 0, "efficiency: probe a core for noise this often (default 20s; <0: never)")
	effCost        = flag.String("cost", "count", "efficiency: count (callgrind, cached) or time (process CPU)")
	effCountMax    = flag.Duration("count-max-calls", 0, "efficiency: count mode: time, not count, calls longer than this (default 200ms)")
)

// execCache is --cache: the execution cache (results keyed by content, so that a run
// killed midway and started again skips what it ran); "off" disables it.
var execCache = flag.String("cache", "", "execution cache: directory or bucket URL of program results keyed by content, so a rerun skips what ran (default .cache/exec; off: none)")

// Flags of --job similarity (RUBY).
var (
	simFrom      = flag.String("from", "", "similarity: output directory of an evaluate job whose translations are scored")
	simBootstrap = flag.Int("bootstrap", 200, "similarity: bootstrap resamples for the 95% intervals (0: none)")
)

// efficiencyOptions reads the --job efficiency flags.
func efficiencyOptions(limit int) (pipelines.EfficiencyOptions, error) {
	o := pipelines.EfficiencyOptions{PerDirection: limit, Repetitions: *effRepetitions, TimeLimit: *effTimeLimit,
		MemoryBytes: *effMemoryMB << 20, NoiseEvery: *effNoiseEvery, RefGold: *effRefGold, Cost: *effCost,
		CountMaxCalls: *effCountMax}
	if err := pipelines.CheckCost(o.Cost); err != nil {
		return o, err
	}
	switch f := *effFloor; {
	case f < 0:
		return o, fmt.Errorf("--floor-spreads: %v is negative", f)
	case f == 0:
		o.Resolution = efficiency.Resolution{TimeSpreads: -1, TimeQuantum: -1, MemSpreads: -1, MemQuantumKB: -1}
	default:
		o.Resolution = efficiency.DefaultResolution
		o.Resolution.TimeSpreads, o.Resolution.MemSpreads = f, f
	}
	for _, c := range strings.Split(*effCPUs, ",") {
		if c = strings.TrimSpace(c); c != "" {
			n, err := strconv.Atoi(c)
			if err != nil || n < 0 {
				return o, fmt.Errorf("--profile-cpus: %q is not a core number", c)
			}
			o.CPUs = append(o.CPUs, n)
		}
	}
	for _, r := range strings.Split(*effReference, ",") {
		if r = strings.TrimSpace(r); r != "" {
			o.Reference = append(o.Reference, r)
		}
	}
	return o, nil
}

// similarityOptions reads the --job similarity flags.
func similarityOptions() (pipelines.SimilarityOptions, error) {
	if *simFrom == "" {
		return pipelines.SimilarityOptions{}, fmt.Errorf("--job similarity needs --from (an evaluate job's output)")
	}
	return pipelines.SimilarityOptions{From: *simFrom, Resamples: *simBootstrap, Seed: 3}, nil
}

func main() {
	sandbox.Init() // a sandboxed child re-executes this binary: set it up and exec
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "launch:", err)
		os.Exit(1)
	}
}

// run is the whole command; it returns instead of exiting so that its deferred
// closes (the output lock, buckets, the CPU profile) run.
func run() error {
	var (
		corpora, translators listFlag
		configPath           = flag.String("config", "", "JSON config file (see data/configs); flags override it")
		out                  = flag.String("out", "", "output directory or bucket URL (default out/run)")
		directions           = flag.String("directions", "", "comma-separated src-tgt directions (default: every task of the corpora)")
		parallelism          = flag.Int("workers", 0, "executions at once per Beam worker and language (default 2; a batch's 4 problems run at once, so small C++ batches compile together)")
		shards               = flag.Int("shards", 0, fmt.Sprintf("at most this many rows per Parquet file of a table (default %d; each bundle writes files of its own)", pipelines.DefaultRowsPerFile))
		computeShards        = flag.Int("compute-shards", 0, "properties: groups of problems that take their merge partners from each other (default 1: every problem, on every runner)")
		limit                = flag.Int("limit", 0, "at most this many problems per corpus (0 = all)")
		problems             = flag.String("problems", "", "only these problem ids, comma-separated (an unknown id is an error)")
		problemsFile         = flag.String("problems-file", "", "only the problem ids in this file (# comments)")
		cppArgs              = flag.String("cpp-args", "", "how C++ programs get their arguments: adapt (default: as the function takes them) or gold (as the C++ gold declares them, like TransCoder-test's and TRACE's scripts)")
		cpu                  = flag.Duration("cpu-limit", 0, "CPU time limit per test (default 10s; 1s for --job mbta)")
		wall                 = flag.Duration("wall-limit", 0, "wall time limit per test (default 20s; 2s for --job mbta)")
		mem                  = flag.Int64("memory-limit-mb", 0, "memory limit per program in MiB (default 1024)")
		runName              = flag.String("run", "", "run name (default: a UTC timestamp)")
		workDir              = flag.String("work-dir", "", "cache directory for compiled runners (default: temp)")
		quiet                = flag.Bool("quiet", false, "no progress line and no summary")
		job                  = flag.String("job", "evaluate", "job: evaluate (CA, pass rate), mbta (mutation analysis), efficiency (TRACE Beyond; --limit: tasks per direction), consistency, properties (k-safety), similarity (--from), augment (new tests valid by the golds) or growth (complexity)")
		mutOps               = flag.String("mutation-operators", "", "mbta: comma-separated muJava operators (default: all 19)")
		mutMaxOp             = flag.Int("max-mutants-per-operator", 0, "mbta: at most this many mutants per operator and problem (0 = all)")
		mutMax               = flag.Int("max-mutants", 0, "mbta: at most this many mutants per problem and language (0 = all)")
		mutSeed              = flag.Int64("mutation-seed", 1, "mbta: seed of the sampling when a mutant cap applies")
		mutTimeFactor        = flag.Float64("mutant-time-factor", 0, "mbta: per-test limit of mutants = factor × the original's slowest test + --mutant-time-floor (0: the fixed limits)")
		mutTimeFloor         = flag.Duration("mutant-time-floor", 100*time.Millisecond, "mbta: constant added to the mutants' adaptive limit")
		propSeed             = flag.Uint64("properties-seed", 1, "properties: seed of the metamorphic transformations and merge partners")
		propVariants         = flag.Int("variants-per-transformation", 1, "properties: variants per transformation, problem and language")
		cpuProfile           = flag.String("cpuprofile", "", "write a Go CPU profile of the launcher to this file")
	)
	flag.Var(&corpora, "corpus", "corpus spec, repeatable: transcoder:DIR, trace:DIR, jsonl:FILE (paths or blob URLs)")
	flag.Var(&translators, "translator", "translator spec, repeatable (schemes below)")
	flag.Usage = printUsage
	flag.Parse()
	if helpOrVersion() {
		return nil
	}
	beam.Init()

	// 1. Everything is checked before the output is touched.
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (flags only; see -help)", flag.Arg(0))
	}
	if err := negativeFlags(); err != nil {
		return err
	}
	jobs = map[jobKind]jobDef{
		jobEvaluate: evaluateJob(),
		jobMBTA: {
			tables:        pipelines.MBTATables,
			variantLimits: true,
			build: func(s beam.Scope, c pipelines.Config) error {
				var ops []string
				for _, o := range strings.Split(*mutOps, ",") {
					if o = strings.TrimSpace(o); o != "" {
						ops = append(ops, o)
					}
				}
				pipelines.BuildMBTA(s, c, pipelines.MBTAOptions{Operators: ops, MaxPerOperator: *mutMaxOp, MaxTotal: *mutMax,
					Seed: *mutSeed, TimeFactor: *mutTimeFactor, TimeFloor: *mutTimeFloor})
				return nil
			},
			finish: pipelines.FinishMBTA,
			headline: func(c pipelines.Config, m *pipelines.Manifest) string {
				return fmt.Sprintf("run %s (mbta): %d variants, %d translations, %d mutant results, %d error rows in %.0fs; tables under %s",
					c.Run, m.Counts["variants"], m.Counts["translations"], m.Counts["mutant_results"], m.Counts["errors"], m.Seconds, c.Output)
			},
			summary: report.PrintMBTASummary,
		},
		jobEfficiency: {
			tables: pipelines.EfficiencyTables,
			check:  func(c pipelines.Config) error { _, err := efficiencyOptions(c.Limit); return err },
			build: func(s beam.Scope, c pipelines.Config) error {
				o, err := efficiencyOptions(c.Limit)
				if err == nil {
					pipelines.BuildEfficiency(s, c, o)
				}
				return err
			},
			finish: pipelines.FinishEfficiency,
			headline: func(c pipelines.Config, m *pipelines.Manifest) string {
				return fmt.Sprintf("run %s (efficiency): %d profiles, %d score rows, %d error rows in %.0fs; tables under %s",
					c.Run, m.Counts["profiles"], m.Counts["scores"], m.Counts["errors"], m.Seconds, c.Output)
			},
			summary: func(ctx context.Context, w io.Writer, b *blob.Bucket) error {
				if err := report.PrintEfficiencySummary(ctx, w, b); err != nil {
					return err
				}
				profile.StopJavacServer() // its CPU counts once it has been waited for
				return report.PrintEfficiencyRunCPU(ctx, w, b, processCPU())
			},
		},
		jobConsistency: consistencyJob(),
		jobSimilarity:  similarityJob(),
		jobAugment:     augmentJob(*mutSeed, *mutMax),
		jobGrowth:      growthJob(),
		jobProperties: {
			tables:        pipelines.PropertiesTables,
			variantLimits: true,
			check:         func(c pipelines.Config) error { return pipelines.ValidateSearch(c, searchOptions()) },
			build: func(s beam.Scope, c pipelines.Config) error {
				pipelines.BuildProperties(s, c, pipelines.PropertiesOptions{Seed: *propSeed, VariantsPer: *propVariants,
					Search: searchOptions()})
				return nil
			},
			finish: pipelines.FinishProperties,
			headline: func(c pipelines.Config, m *pipelines.Manifest) string {
				return fmt.Sprintf("run %s (properties): %d variants, %d translations, %d property results, %d error rows in %.0fs; tables under %s",
					c.Run, m.Counts["variants"], m.Counts["translations"], m.Counts["property_results"], m.Counts["errors"], m.Seconds, c.Output)
			},
			summary: func(ctx context.Context, w io.Writer, b *blob.Bucket) error {
				if err := report.PrintPropertiesSummary(ctx, w, b, processCPU()); err != nil {
					return err
				}
				return report.PrintSearchSummary(ctx, w, b)
			},
		},
	}
	jb, err := lookupJob(*job)
	if err != nil {
		return err
	}
	var c pipelines.Config
	if *configPath != "" {
		data, err := os.ReadFile(*configPath)
		if err != nil {
			return err
		}
		if c, err = pipelines.ParseConfig(data); err != nil {
			return fmt.Errorf("config %s: %w", *configPath, err)
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
	if err := jb.validate(c); err != nil { // the config file's values, before defaults hide them
		return err
	}
	if *parallelism > 0 {
		c.Parallelism = *parallelism
	}
	if *shards > 0 {
		c.RowsPerFile = *shards
	}
	if *computeShards > 0 {
		c.MergeGroups = *computeShards
	}
	if *limit > 0 {
		c.Limit = *limit
	}
	if *problems != "" || *problemsFile != "" {
		c.Problems = pipelines.ParseProblems(*problems)
		if *problemsFile != "" {
			ids, err := pipelines.ReadProblemsFile(*problemsFile)
			if err != nil {
				return err
			}
			c.Problems = append(c.Problems, ids...)
		}
	}
	if *cppArgs != "" {
		c.CppArgs = *cppArgs
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
	if *maxLineBytes > 0 {
		c.MaxLineBytes = *maxLineBytes
	}
	c.Progress = !*quiet
	if *execCache != "" {
		c.ExecCache = *execCache
	} else if c.ExecCache == "" {
		c.ExecCache = ".cache/exec"
	}
	c = c.WithDefaults()
	if jb.variantLimits {
		c = pipelines.MBTADefaults(c)
	}
	// In process too: the engines run their compilers in directories of their own,
	// where a relative --work-dir would name nothing.
	if c, err = absolutePaths(c); err != nil {
		return err
	}
	if err := jb.validate(c); err != nil {
		return err
	}
	if jb.check != nil {
		if err := jb.check(c); err != nil {
			return err
		}
	}
	ctx := context.Background()
	// The pipeline runs under runCtx, which a stop signal (SIGINT, SIGTERM, SIGHUP,
	// SIGPIPE) cancels, killing the child processes; the output's lock and staging are
	// released under ctx.
	runCtx, stopSignals := interruptible(ctx)
	defer stopSignals()
	hideRunnerLogs(runCtx, *verbose)
	defer proctree.KillAll() // the engines' pooled workers and their work dirs end with the run
	if err := checkEnvironment(ctx, c); err != nil {
		return err
	}
	if err := duplicateSpecs(c); err != nil {
		return err
	}
	// A corpus that is a stream is copied once; the manifest names it as given.
	givenCorpora := c.Corpora
	c, err = copyStreams(c, streamDir)
	defer removeStreamDir()
	if err != nil {
		return err
	}
	if err := checkInputs(ctx, c); err != nil {
		return err
	}

	// 2. Take the output: lock it (also the check that it is writable), finish or
	// clear what an interrupted run left, and stage this run apart from the
	// published one (docs/OUTPUT_LIFECYCLE.md).
	bucket, err := blobs.Open(ctx, c.Output)
	if err != nil {
		return err
	}
	defer bucket.Close()
	stagingID := sink.NewStagingID(c.Run)
	staging := sink.StagingPrefix(stagingID)
	localDir, _ := blobs.LocalDir(c.Output)
	lock, err := sink.AcquireLock(ctx, bucket, c.Run, staging, localDir)
	if err != nil {
		return fmt.Errorf("%s: %w", c.Output, err)
	}
	defer lock.Release(ctx)
	if lock.Stale != "" {
		fmt.Fprintf(os.Stderr, "launch: %s: took over the lock: %s\n", c.Output, lock.Stale)
	}
	rec, err := sink.Recover(ctx, bucket)
	if err != nil {
		return fmt.Errorf("%s: %w", c.Output, err)
	}
	if rec.RolledBack != "" {
		fmt.Fprintf(os.Stderr, "launch: %s: undid the interrupted publish of run %q (%s); the previous run stays published\n", c.Output, rec.RolledBack, rec.Why)
	}
	if rec.RolledForward != "" {
		fmt.Fprintf(os.Stderr, "launch: %s: finished publishing run %q, which was interrupted while publishing\n", c.Output, rec.RolledForward)
	}
	for _, a := range rec.Abandoned {
		fmt.Fprintf(os.Stderr, "launch: %s: removed %s, the partial output of an interrupted run\n", c.Output, a)
	}
	removeEmptyDirs(c.Output, sink.StagingDir)
	stagedOut, err := blobs.Join(c.Output, staging)
	if err != nil {
		return err
	}
	published := false
	defer func() {
		if !published { // a failed run removes its partial output now (a killed one: at the next start)
			if ok, _ := bucket.Exists(ctx, sink.JournalKey); ok {
				return // a publish that could not be undone: the next start needs the staging
			}
			if err := sink.Clear(ctx, bucket, strings.TrimSuffix(staging, "/")); err != nil {
				fmt.Fprintf(os.Stderr, "launch: removing %s: %v\n", staging, err)
			}
			removeEmptyDirs(c.Output, sink.StagingDir)
		}
	}()
	m := &pipelines.Manifest{Run: c.Run, Command: strings.Join(os.Args, " "), Config: c,
		Start: time.Now().UTC(), Versions: pipelines.Versions()}
	m.Config.Corpora = givenCorpora
	sc := c
	sc.Output = stagedOut

	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}
	stopLive := func() {}
	if c.Progress && inProcess() && (*job == "evaluate" || *job == "mbta" || *job == "consistency" || *job == "properties") {
		// Progress from the job's counters, polled from the job service; the DoFns'
		// per-process meters (the other jobs' and a remote worker's fallback) stay quiet.
		if cli, err := startJobServer(runCtx); err != nil {
			fmt.Fprintf(os.Stderr, "launch: no live progress: %v\n", err)
		} else {
			sc.Progress = false
			meter := progress.Stderr("transmute "+*job, "problems")
			meter.Every = 5 * time.Second
			stopLive = pollProgress(runCtx, cli, meter, "problems_evaluated", "problems_loaded", time.Second)
		}
	}
	p, s := beam.NewPipelineWithRoot()
	pipelines.RecordWorker(s, sc.Output) // the manifest reports the workers' toolchains
	if err := jb.build(s, sc); err != nil {
		stopLive()
		return err
	}
	res, err := beamx.RunWithMetrics(runCtx, p)
	stopLive()
	if runCtx.Err() != nil {
		return fmt.Errorf("interrupted: run %s not published; %s keeps its previous run", c.Run, c.Output)
	}
	m.Counters = pipelines.Counters(res)
	pipelines.SweepBeamTemp(time.Minute) // Beam's loopback placeholders, this run's once it is old enough
	if err != nil {
		return fmt.Errorf("pipeline failed: %w", err)
	}
	if c.Progress {
		pipelines.FinishProgress()
	}
	if err := checkNotEmpty(*job, jb, m.Counters); err != nil {
		return fmt.Errorf("run %s not published, %s keeps its previous run: %w", c.Run, c.Output, err)
	}

	// 3. The manifest, written last into the staging directory, names the run's
	// shards; publishing it makes the run the output's.
	sb, err := blobs.Open(ctx, stagedOut)
	if err != nil {
		return err
	}
	defer sb.Close()
	err = jb.finish(ctx, sb, m)
	if err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	installed := 0
	sink.OnPublishStep = func(step string) {
		if strings.HasPrefix(step, "install ") {
			if installed++; installed == 2 { // one shard of the new run is live
				pipelines.PauseAt("publish")
			}
		}
	}
	if err := sink.Publish(ctx, bucket, staging); err != nil {
		return fmt.Errorf("%s: %w", c.Output, err)
	}
	published = true
	removeEmptyDirs(c.Output, sink.StagingDir)
	// The summary is rendered from the published tables and kept beside them as
	// summary.txt (outside the run's shards: it is rewritten by every run).
	var sum bytes.Buffer
	fmt.Fprintln(&sum, jb.headline(c, m))
	if err := report.PrintErrorCounts(ctx, &sum, bucket); err != nil {
		return err
	}
	if err := jb.summary(ctx, &sum, bucket); err != nil {
		return err
	}
	if err := bucket.WriteAll(ctx, "summary.txt", sum.Bytes(), nil); err != nil {
		return fmt.Errorf("%s: summary.txt: %w", c.Output, err)
	}
	if *quiet {
		return nil
	}
	_, err = os.Stdout.Write(sum.Bytes())
	return err
}

// negativeFlags rejects a negative count or limit given on the command line (the
// ones the config cannot also hold; Config.Validate checks the others).
func negativeFlags() error {
	var err error
	flag.Visit(func(f *flag.Flag) {
		if err != nil || f.Name == "noise-every" { // negative --noise-every means never
			return
		}
		if g, ok := f.Value.(flag.Getter); ok {
			neg := false
			switch v := g.Get().(type) {
			case int:
				neg = v < 0
			case int64:
				neg = v < 0
			case float64:
				neg = v < 0
			case time.Duration:
				neg = v < 0
			}
			if neg {
				err = fmt.Errorf("--%s %s: must not be negative", f.Name, f.Value)
			}
		}
	})
	return err
}

// removeEmptyDirs removes the empty directories that deleted blobs leave under
// sub of a local output (fileblob deletes files only).
func removeEmptyDirs(output, sub string) {
	dir, ok := blobs.LocalDir(output)
	if !ok {
		return
	}
	root := filepath.Join(dir, filepath.FromSlash(sub))
	var dirs []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		os.Remove(dirs[i]) // fails, as wanted, on a directory that is not empty
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
