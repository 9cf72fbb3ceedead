package schemas

// ProfileRow is one program profiled on a TRACE task's stress suite by the
// efficiency job (TRACE, section 4 and appendix A.4): the task's ground-truth
// target function, or a translation that passed the task's default tests. Times
// are CPU (user+sys) or wall milliseconds of one whole-suite run in a fresh
// process; mean, std (sample) and CV are over the measured repetitions.
type ProfileRow struct {
	Run        string `parquet:"run,dict"`
	Translator string `parquet:"translator,dict"` // "" for the ground truth
	ProblemID  string `parquet:"problem_id,dict"`
	Corpus     string `parquet:"corpus,dict"`
	SrcLang    string `parquet:"src_lang,dict"`
	TgtLang    string `parquet:"tgt_lang,dict"`
	Role       Role   `parquet:"role,dict"` // ground_truth | translation
	// Status of the profiled runs: ok, compile_error, runtime_error, timeout,
	// memory_limit, output_limit, infra_error.
	Status Status `parquet:"status,dict"`
	Detail string `parquet:"detail,plain"`
	// PassDefault: the program passed the task's default tests (always true for
	// a translation that was profiled; true for the ground truth by definition).
	PassDefault bool `parquet:"pass_default"`
	// StressMatch: status ok and every stress-test output equal to the ground
	// truth's (true for the ground truth itself when it ran).
	StressMatch bool `parquet:"stress_match"`
	// Correct = PassDefault && StressMatch: the program counts for Beyond.
	Correct bool `parquet:"correct"`
	// InReference: the program is in the task's efficiency reference set.
	InReference bool  `parquet:"in_reference"`
	Tests       int32 `parquet:"tests"`
	Repetitions int32 `parquet:"repetitions"`
	// Core is the CPU the runs were pinned to. MeasuredFrom and MeasuredTo (RFC
	// 3339, UTC; "" when no repetition ran) bound the measured repetitions in
	// time: with Core, they join a program to the noise probes of its core.
	Core         int32   `parquet:"core"`
	MeasuredFrom string  `parquet:"measured_from,plain"`
	MeasuredTo   string  `parquet:"measured_to,plain"`
	CPUMeanMs    float64 `parquet:"cpu_mean_ms,optional"`
	CPUStdMs     float64 `parquet:"cpu_std_ms,optional"`
	CPUCV        float64 `parquet:"cpu_cv,optional"`
	WallMean     float64 `parquet:"wall_mean_ms,optional"`
	WallStd      float64 `parquet:"wall_std_ms,optional"`
	WallCV       float64 `parquet:"wall_cv,optional"`
	RSSMeanKB    float64 `parquet:"rss_mean_kb,optional"`
	RSSStdKB     float64 `parquet:"rss_std_kb,optional"`
	RSSCV        float64 `parquet:"rss_cv,optional"`
	// OverheadCPUMs and OverheadRSSKB: the empty candidate's mean (same harness,
	// inputs and pinning); NetCPUMs = max(CPUMeanMs - OverheadCPUMs, 0).
	OverheadCPUMs float64 `parquet:"overhead_cpu_ms,optional"`
	OverheadRSSKB float64 `parquet:"overhead_rss_kb,optional"`
	NetCPUMs      float64 `parquet:"net_cpu_ms,optional"`
	// BeyondTime and BeyondMem (0..100) against the task's reference set, from
	// CPUMeanMs and RSSMeanKB; 0 when not Correct. InefficiencyTime and
	// InefficiencyMem: the value over the reference set's best; 0 when not Correct.
	BeyondTime       float64 `parquet:"beyond_time,optional"`
	BeyondMem        float64 `parquet:"beyond_mem,optional"`
	InefficiencyTime float64 `parquet:"inefficiency_time,optional"`
	InefficiencyMem  float64 `parquet:"inefficiency_mem,optional"`
	// Selected: the task passes TRACE's task selection (section 3.3) on our
	// reference set: feasible, impactful, diverse.
	Selected bool `parquet:"selected"`
	// TimeMeasure names the value BeyondTime was computed from (efficiency.Time*,
	// e.g. process_cpu_ms). FloorTime and FloorMemKB are the task's resolution
	// floors (in TimeMeasure's unit and KiB): reference values closer than the
	// floor are ties. NoSignalTime and NoSignalMem: the task's whole reference range
	// lies within the floor (or the reference set is empty), so every correct
	// program scores 100. The same on every row of a task.
	TimeMeasure  string  `parquet:"time_measure"`
	FloorTime    float64 `parquet:"floor_time"`
	FloorMemKB   float64 `parquet:"floor_mem_kb"`
	NoSignalTime bool    `parquet:"no_signal_time"`
	NoSignalMem  bool    `parquet:"no_signal_mem"`
	// The cost mode and the figures beside the process's CPU and RSS. CostMode is
	// the job's --cost: "count" (Beyond from Instructions and AllocPeakKB) or
	// "time" (from CPUMeanMs and RSSMeanKB). Instructions: callgrind's count of the
	// instructions of the candidate's calls, start-up excluded (0: not counted).
	// CallsCPUMeanMs and CallsCPUStdMs: the thread CPU time of the calls, measured
	// in the process around them, over the repetitions. AllocPeakKB: the
	// allocation peak of the calls in the counted run (C++: live heap through
	// operator new; Python: tracemalloc's peak; Java: the bytes the calling thread
	// allocated), -1 when not measured. MemMeasure names the value BeyondMem was
	// computed from. CountCPUMs: the CPU time of the counted run (0 when none ran);
	// CountCached: the program's count came from the count cache (its whole report,
	// or the count of a program built to the same bytes, which differs only in
	// spacing or comments). TimedWith: in the count mode, the number of correct
	// programs of the suite whose calls were timed side by side with this one in
	// rounds, when one of them was too heavy to count; its native-run columns are
	// then those rounds', and CallsCPUMeanMs is normalised by each round's
	// geometric mean over the suite (0: not timed so).
	CostMode       string  `parquet:"cost_mode,dict"`
	Instructions   int64   `parquet:"instructions,optional"`
	CallsCPUMeanMs float64 `parquet:"calls_cpu_mean_ms,optional"`
	CallsCPUStdMs  float64 `parquet:"calls_cpu_std_ms,optional"`
	AllocPeakKB    float64 `parquet:"alloc_peak_kb,optional"`
	MemMeasure     string  `parquet:"mem_measure,dict"`
	CountCPUMs     float64 `parquet:"count_cpu_ms,optional"`
	CountCached    bool    `parquet:"count_cached"`
	TimedWith      int32   `parquet:"timed_with"`
}

// NoiseRow is one machine-noise probe of the efficiency job
// (profile.MeasureNoise), on the core the profiles use, between two suites: Chunks
// compute chunks (fixed integer work in registers) and as many cache chunks (a fixed
// dependent walk over a 4 MiB table, which also sees other tenants of the shared
// cache), alternately. The compute chunks' CV is what the machine alone adds to
// the CV of a program that only computes; the cache chunks' is what it adds to one
// that reads memory beyond its core's own caches, as most interpreted and JVM
// programs do.
type NoiseRow struct {
	Run string `parquet:"run,dict"`
	// Core is the CPU probed; At the probe's start (RFC 3339, UTC).
	Core int32  `parquet:"core"`
	At   string `parquet:"at,plain"`
	// Chunks of each kind, and the CPU time of one compute chunk: mean, min, max
	// (ms) and CV.
	Chunks      int32   `parquet:"chunks"`
	ChunkMeanMs float64 `parquet:"chunk_mean_ms,optional"`
	ChunkMinMs  float64 `parquet:"chunk_min_ms,optional"`
	ChunkMaxMs  float64 `parquet:"chunk_max_ms,optional"`
	CV          float64 `parquet:"cv,optional"`
	// The same for one cache chunk.
	CacheChunkMeanMs float64 `parquet:"cache_chunk_mean_ms,optional"`
	CacheChunkMinMs  float64 `parquet:"cache_chunk_min_ms,optional"`
	CacheChunkMaxMs  float64 `parquet:"cache_chunk_max_ms,optional"`
	CacheCV          float64 `parquet:"cache_cv,optional"`
}
