package schemas

import "strconv"

// Metric names one figure of the scores table (ScoreRow.Metric). A type rather
// than bare strings so that a misspelt metric is a compile error where it is
// emitted or read; the Parquet values are the strings below, unchanged
// (docs/SCHEMAS.md). Names built from parts (per operator, per property, per
// consistency metric, confidence bounds) are Metric too: a Metric plus an untyped
// string constant is a Metric.
type Metric string

// Metrics of the evaluate job (transforms/score.Compute), per oracle and subset.
const (
	MetricCAOverall              Metric = "ca_overall" // computational accuracy over every test
	MetricCAMean                 Metric = "ca_mean"    // of the problems' CA
	MetricCAMedian               Metric = "ca_median"
	MetricCAStd                  Metric = "ca_std"
	MetricPassRate               Metric = "pass_rate" // share of problems passing every test
	MetricPassRateCppConversions Metric = "pass_rate_cpp_conversions"
	MetricPassRateAnyOfN         Metric = "pass_rate_any_of_n"
	MetricPassRateAllOfN         Metric = "pass_rate_all_of_n"
	MetricSamples                Metric = "samples"
	MetricProblems               Metric = "problems" // of the direction the evaluation covers
	MetricTests                  Metric = "tests"
	MetricOracleFailures         Metric = "oracle_failures"
	MetricNondeterministicTests  Metric = "nondeterministic_tests"
	// Coverage: how many of the problems had a translation to judge. Translated,
	// missing and translation_failed add up to problems; coverage is
	// translated/problems; evaluated counts the problems in pass_rate's denominator;
	// pass_rate_attempted is pass_rate over the evaluated problems that were translated.
	MetricTranslated        Metric = "translated"
	MetricMissing           Metric = "missing"
	MetricTranslationFailed Metric = "translation_failed"
	MetricEvaluated         Metric = "evaluated"
	MetricCoverage          Metric = "coverage"
	MetricPassRateAttempted Metric = "pass_rate_attempted"
)

// MetricPassAt is pass@k: "pass@1", "pass@5", "pass@10".
func MetricPassAt(k int) Metric { return Metric("pass@" + strconv.Itoa(k)) }

// MetricStatus counts the tests of one execution status: "status_timeout".
func MetricStatus(status Status) Metric { return Metric("status_" + status) }

// Metrics of the MBTA job (transforms/score.MTS, Funnel.Rows, transforms/mbta.Score).
const (
	MetricMutants             Metric = "mutants"
	MetricAnomalousMutants    Metric = "anomalous_mutants"
	MetricNonAnomalousMutants Metric = "non_anomalous_mutants"
	MetricMTSOverall          Metric = "mts_overall"
	MetricMTSMean             Metric = "mts_mean"
	MetricMTSMedian           Metric = "mts_median"
	MetricMTSStd              Metric = "mts_std"
	// MetricMTSOpPrefix + operator is the MTS of one muJava operator: "mts_op_AORB".
	MetricMTSOpPrefix Metric = "mts_op_"

	MetricFunnelNonAnomalousMutants      Metric = "funnel_non_anomalous_mutants"
	MetricFunnelTranslationOutputs       Metric = "funnel_translation_outputs"
	MetricFunnelCompilable               Metric = "funnel_compilable"
	MetricFunnelTimeouts                 Metric = "funnel_timeouts"
	MetricFunnelExceptions               Metric = "funnel_exceptions"
	MetricFunnelNonAnomalousTranslations Metric = "funnel_non_anomalous_translations"

	// Correlations across problems; each has a twin with SuffixP, its p-value.
	MetricCorrSpearmanMTSCA      Metric = "corr_spearman_mts_ca"
	MetricCorrPearsonMTSCA       Metric = "corr_pearson_mts_ca"
	MetricCorrSpearmanMutantsMTS Metric = "corr_spearman_mutants_mts"
	MetricCorrPearsonMutantsMTS  Metric = "corr_pearson_mutants_mts"
	MetricCorrSpearmanMutantsCA  Metric = "corr_spearman_mutants_ca"
	MetricCorrPearsonMutantsCA   Metric = "corr_pearson_mutants_ca"
)

// MetricMTSOp is the MTS of one muJava operator.
func MetricMTSOp(operator string) Metric { return MetricMTSOpPrefix + Metric(operator) }

// Suffixes of derived metrics.
const (
	SuffixP         = "_p"          // the p-value of a correlation
	SuffixCILo      = "_ci_lo"      // bootstrap interval bounds
	SuffixCIHi      = "_ci_hi"      //
	SuffixOrderKept = "_order_kept" // share of resamples keeping the translators' order
)

// Metrics of the efficiency job (transforms/efficiency.Aggregate).
const (
	MetricTasks                Metric = "tasks"
	MetricCorrectRate          Metric = "correct_rate"
	MetricBeyondTime           Metric = "beyond_time"
	MetricBeyondMem            Metric = "beyond_mem"
	MetricBeyondTimePass       Metric = "beyond_time_pass"
	MetricBeyondMemPass        Metric = "beyond_mem_pass"
	MetricInefficiencyTimeMean Metric = "inefficiency_time_mean"
	MetricInefficiencyMemMean  Metric = "inefficiency_mem_mean"
	MetricInefficientTimeShare Metric = "inefficient_time_share"
	MetricInefficientMemShare  Metric = "inefficient_mem_share"
	MetricMedianCPUCV          Metric = "median_cpu_cv"
	MetricTasksUsable          Metric = "tasks_usable"
	MetricTasksSelected        Metric = "tasks_selected"
	MetricReferenceSetMean     Metric = "reference_set_mean"
	MetricProgramsProfiled     Metric = "programs_profiled"
	MetricMedianOverheadShare  Metric = "median_overhead_share"
	MetricOverheadShareTotal   Metric = "overhead_share_total"
	// Beyond's resolution floor: per direction, the usable tasks without
	// efficiency signal and the median task floor; once per run (src = tgt = "*")
	// the floor's parameters and whether the ground truth joined the reference set.
	MetricNoSignalTasksTime Metric = "no_signal_tasks_time"
	MetricNoSignalTasksMem  Metric = "no_signal_tasks_mem"
	// MetricTasksTimed: in the count mode, the usable tasks scored on the calls'
	// CPU time because a correct program's calls were too long to count.
	MetricTasksTimed        Metric = "tasks_timed"
	MetricFloorTimeMedian   Metric = "floor_time_median"
	MetricFloorMemMedianKB  Metric = "floor_mem_median_kb"
	MetricFloorTimeSpreads  Metric = "floor_time_spreads"
	MetricFloorTimeQuantum  Metric = "floor_time_quantum"
	MetricFloorMemSpreads   Metric = "floor_mem_spreads"
	MetricFloorMemQuantumKB Metric = "floor_mem_quantum_kb"
	MetricReferenceHasGold  Metric = "reference_has_gold"
	// Across translators, of the pooled pass rate with B^P (each with SuffixP).
	MetricCorrPearsonPassBeyondTimePass  Metric = "corr_pearson_pass_beyond_time_pass"
	MetricCorrSpearmanPassBeyondTimePass Metric = "corr_spearman_pass_beyond_time_pass"
	MetricOLSR2PassBeyondTimePass        Metric = "ols_r2_pass_beyond_time_pass"
	MetricCorrPearsonPassBeyondMemPass   Metric = "corr_pearson_pass_beyond_mem_pass"
	MetricCorrSpearmanPassBeyondMemPass  Metric = "corr_spearman_pass_beyond_mem_pass"
	MetricOLSR2PassBeyondMemPass         Metric = "ols_r2_pass_beyond_mem_pass"
)

// MetricCheckSeconds is the scores row (translator "", metric) of the properties
// job holding the time it spent in inspections and property checks.
const MetricCheckSeconds Metric = "check_seconds"
