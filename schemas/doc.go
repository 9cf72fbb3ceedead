// Package schemas holds the row types of every table Transmute reads or writes,
// in one place. Each type is a plain struct with parquet and json tags; the Parquet
// sinks write them as they are, and Beam carries them between stages.
//
// See docs/SCHEMAS.md for the meaning of every column and docs/CORPUS_FORMAT.md for
// the canonical JSONL task format.
package schemas

import "slices"

// Languages known to the harnesses and engines.
const (
	Java   = "java"
	Python = "python"
	Cpp    = "cpp"
	Go     = "go"
)

// Languages lists the languages with a harness, in a stable order.
var Languages = []string{Java, Python, Cpp, Go}

// IsLanguage says whether l is one of Languages, spelt exactly.
func IsLanguage(l string) bool { return slices.Contains(Languages, l) }

// Status is an execution status (SPEC section 4): a test and a whole run both take
// one. A type rather than bare strings so that a misspelt status does not compile;
// the Parquet values are the strings below.
type Status string

// Execution statuses.
const (
	StatusOK               Status = "ok"
	StatusCompileError     Status = "compile_error"
	StatusRuntimeError     Status = "runtime_error"
	StatusTimeout          Status = "timeout"
	StatusMemoryLimit      Status = "memory_limit"
	StatusOutputLimit      Status = "output_limit"
	StatusSandboxViolation Status = "sandbox_violation"
	StatusInfraError       Status = "infra_error"
	// StatusNotRun marks a test that was never reached (the run died earlier).
	StatusNotRun Status = "not_run"
	// StatusNoTranslation is a result's status when the translator gave no program
	// that could run (ResultRow.Status).
	StatusNoTranslation Status = "no_translation"
)

// SchemaVersion is the version of the tables' layout, in manifest.json and in every
// Parquet file's key-value metadata (MetaSchemaVersion). 2: dictionary and plain
// encodings, nullable columns, the verdicts table, plain keys on executions; the
// tables of earlier runs carry no version.
const SchemaVersion = "2"

// Key-value metadata keys of every Parquet file Transmute writes.
const (
	MetaSchemaVersion = "transmute.schema_version"
	MetaVersion       = "transmute.version" // the module version of the binary (debug.ReadBuildInfo)
	MetaCommit        = "transmute.commit"  // its vcs.revision, "-dirty" when modified; "unknown" without VCS stamps
)
