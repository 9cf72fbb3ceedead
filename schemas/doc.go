// Package schemas holds the row types of every table Transmute reads or writes,
// in one place. Each type is a plain struct with parquet and json tags; the Parquet
// sinks write them as they are, and Beam carries them between stages.
//
// See docs/SCHEMAS.md for the meaning of every column and docs/CORPUS_FORMAT.md for
// the canonical JSONL task format.
package schemas

// Languages known to the harnesses and engines.
const (
	Java   = "java"
	Python = "python"
	Cpp    = "cpp"
	Go     = "go"
)

// Languages lists the languages with a harness, in a stable order.
var Languages = []string{Java, Python, Cpp}

// Execution statuses (SPEC section 4). A test and a whole run both take one.
const (
	StatusOK               = "ok"
	StatusCompileError     = "compile_error"
	StatusRuntimeError     = "runtime_error"
	StatusTimeout          = "timeout"
	StatusMemoryLimit      = "memory_limit"
	StatusOutputLimit      = "output_limit"
	StatusSandboxViolation = "sandbox_violation"
	StatusInfraError       = "infra_error"
	// StatusNotRun marks a test that was never reached (the run died earlier).
	StatusNotRun = "not_run"
)

// Translation statuses.
const (
	TranslationOK          = "ok"
	TranslationMissing     = "missing"     // the translator has no translation for this input
	TranslationError       = "error"       // the translator failed (message in Error)
	TranslationUnsupported = "unsupported" // the translator cannot translate this construct or direction
)
