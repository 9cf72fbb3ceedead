// Package execute runs candidate functions (originals, variants, translations) on a
// problem's typed test inputs and reports, per candidate, its compile status and per
// test the status, canonical output and resources used.
//
// Engines are chosen by language name, like gocloud drivers: Open("java"). Each engine
// takes a Batch: all candidates of one problem in one language, which it may compile and
// run together (a warm JVM, a Python fork server, one C++ translation unit) as long as
// every candidate gets the result it would get alone.
package execute

import (
	"context"
	"fmt"
	"time"

	"transmute/internal/registry"
	"transmute/schemas"
	"transmute/transforms/sandbox"
)

// Candidate is one function to run.
type Candidate struct {
	// ID is unique within the batch; results carry it back.
	ID string
	// Code is the function and any helpers it defines, in the batch's language.
	Code string
	// Imports are lines to place before Code (imports, includes).
	Imports string
	// Entry is the name of the function to call. If empty, the engine picks the
	// last top-level function in Code.
	Entry string
}

// Batch is a set of candidates of one problem in one language, with the tests.
type Batch struct {
	ProblemID  string
	Lang       string
	Params     []schemas.Param
	Returns    string
	Tests      []schemas.Test
	Candidates []Candidate
	Limits     sandbox.Limits
	// StopAfterTimeouts, when > 0, marks a candidate's remaining tests as timeouts
	// (unrun) after that many timeouts in a row, for callers to whom a timeout
	// decides the candidate (MBTA: a mutant that hangs is anomalous, a translation
	// that hangs is killed). The Java and Python engines always stop a candidate at
	// its first timeout (its worker or its forked child is gone); the C++ engine goes
	// on after a timeout unless this is set (default cpp.MaxConsecutiveTimeouts).
	StopAfterTimeouts int
	// CallTypes, for C++, are the parameter types that the benchmark's own C++ test
	// scripts pass the arguments as: those of the corpus's C++ gold function (see
	// cpp.GoldCallTypes). TransCoder-test's scripts pass a 1-D array as a pointer to
	// its first element and a string as a std::string, so a translation taking
	// vector<int>& fails to compile there. With CallTypes set, the C++ engine passes
	// each argument as that type, and a candidate that cannot take it is a compile
	// error, as in the benchmark. Nil, or an empty entry, lets the harness adapt the
	// argument to whatever the candidate takes (the default). Other engines ignore it.
	CallTypes []string
	// Seed, when not 0, reseeds the language's default random generator before each
	// candidate (Python's random, C++'s rand), so that a second run of a program with
	// another seed shows whether its outputs depend on it. Java has no global seed
	// (new Random() and Math.random() draw theirs from the clock). 0 leaves the
	// engines' default state.
	Seed int64
	// BoundsChecks, for C++, builds the candidates with array bounds checks
	// (-fsanitize=bounds, fatal): a test on which a candidate indexes outside an
	// array (a VLA included) ends in a runtime error instead of reading or writing
	// whatever lies beside it. A gold's second run sets it, so that a gold whose
	// outputs depend on the memory layout (on what shares its unit) is marked
	// nondeterministic. Java and Python always check bounds and ignore it.
	BoundsChecks bool
}

// TestResult is the outcome of one test of one candidate.
type TestResult struct {
	Index  int32
	Status schemas.Status
	// Output is the canonical JSON value (transforms/values) when Status is ok.
	Output string
	// Error is the exception or failure, e.g. "ArithmeticException: / by zero".
	Error    string
	CPUTime  time.Duration
	WallTime time.Duration
	MaxRSSKB int64
}

// Result is the outcome of one candidate.
type Result struct {
	CandidateID string
	// Status: ok when every test ran (a test may still have raised: see Tests),
	// compile_error, or the status that stopped the candidate (timeout, memory_limit...).
	Status schemas.Status
	// Detail holds the compiler's message or the failure's reason.
	Detail string
	Tests  []TestResult
	// CPUTime and WallTime cover the whole candidate, as the engine measured them.
	CPUTime  time.Duration
	WallTime time.Duration
	MaxRSSKB int64
	// Cached is set by Cached when the result came from the execution cache.
	Cached bool `json:"-"`
}

// Engine runs batches in one language.
type Engine interface {
	Lang() string
	// Run returns one Result per candidate, in the order of b.Candidates. An error
	// means the engine itself failed; a candidate's failure is a status, not an error.
	Run(ctx context.Context, b Batch) ([]Result, error)
	// Close releases the engine's resources (worker processes, caches).
	Close() error
}

// Opener creates an engine from options.
type Opener func(opts Options) (Engine, error)

// Options configure an engine.
type Options struct {
	// WorkDir is where the engine may cache compiled runners and headers; empty means
	// a directory under os.TempDir().
	WorkDir string
	// Python is the interpreter; Java the JDK's bin dir; CXX the C++ compiler.
	// Empty means found on PATH (never through pyenv shims).
	Python, JavaHome, CXX string
}

var openers registry.Registry[Opener]

// Register makes an engine available under a language name.
func Register(lang string, o Opener) { openers.Register(lang, o) }

// Open opens the engine for lang.
func Open(lang string, opts Options) (Engine, error) {
	o, ok := openers.Lookup(lang)
	if !ok {
		return nil, fmt.Errorf("execute: no engine for language %q (have %v)", lang, Langs())
	}
	return o(opts)
}

// Langs lists the registered engines.
func Langs() []string { return openers.Names() }

// MaxConsecutiveTimeouts bounds the cost of a candidate that loops on every test:
// after this many timeouts in a row (Batch.StopAfterTimeouts when > 0) the engines
// report its remaining tests as timeouts without running them.
const MaxConsecutiveTimeouts = 3

// Timeouts counts one candidate's consecutive timeouts for the rule above.
type Timeouts struct{ n, max int }

// NewTimeouts starts a count with b's limit.
func NewTimeouts(b Batch) Timeouts {
	if b.StopAfterTimeouts > 0 {
		return Timeouts{max: b.StopAfterTimeouts}
	}
	return Timeouts{max: MaxConsecutiveTimeouts}
}

// Add records a test's status and says whether the rest are to be left unrun.
func (t *Timeouts) Add(status schemas.Status) bool {
	if status == schemas.StatusTimeout {
		t.n++
	} else {
		t.n = 0
	}
	return t.n >= t.max
}

// Unrun is the detail of the tests left unrun.
func (t Timeouts) Unrun() string {
	return fmt.Sprintf("not run after %d consecutive timeouts", t.n)
}
