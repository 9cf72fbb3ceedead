// Package pipelines assembles Transmute's Beam pipelines from the domain packages
// under transforms/ and io/. DoFns here are thin adapters: they open resources in
// Setup, call plain Go in ProcessElement, and close in Teardown.
package pipelines

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"transmute/io/corpus"
)

// Config is everything a run needs; cmd/launch fills it from flags or a JSON file.
type Config struct {
	// Run names the run (a column of every table); default: a timestamp.
	Run string `json:"run"`
	// Corpora are specs like "transcoder:../shared/corpora/transcoder-test",
	// "trace:../shared/corpora/trace", "jsonl:data/problems.jsonl".
	Corpora []string `json:"corpora"`
	// Translators are specs like "recorded:data/translations/toy-llm.jsonl", "identity:", "builtin:".
	Translators []string `json:"translators"`
	// Directions restricts the tasks ("java-python,python-cpp"); empty means every
	// task the corpora define. Same-language directions (java-java) are added to
	// every problem that has the language, for the identity translator.
	Directions string `json:"directions"`
	// Output is a directory or bucket URL; tables go under it.
	Output string `json:"output"`
	// Parallelism is the number of calls of each execution engine running at once per
	// worker (the batch stages keep BatchProblems problems of each bundle in flight, so
	// that the C++ engine finds small batches to compile together; efficiency profiles
	// on one core each).
	Parallelism int `json:"parallelism"`
	// RowsPerFile is the most rows a table's Parquet file holds (--shards; default
	// DefaultRowsPerFile). Each bundle of a Write streams its rows into files of its
	// own and starts a new one past this many rows, so a table has at least one file
	// per bundle that produced rows; the number of files is the runner's, not a flag's.
	RowsPerFile int `json:"rows_per_file"`
	// MergeGroups is the number of groups the properties job takes merge partners
	// from (a problem's partner is a problem of its group; the property search's
	// too); --compute-shards sets it. 0 means 1 on every runner: every problem of
	// the run, so that the properties tables do not depend on the runner.
	MergeGroups int `json:"merge_groups"`
	// Limits for every program run.
	CPUTime     time.Duration `json:"cpu_time"`
	WallTime    time.Duration `json:"wall_time"`
	MemoryBytes int64         `json:"memory_bytes"`
	// CppArgs is how C++ programs get their arguments (evaluate and efficiency jobs):
	// "adapt" (default) or "gold", the types of the problem's C++ gold, as the
	// benchmarks' own C++ scripts pass them (evaluate.Evaluator.CppArgs).
	CppArgs string `json:"cpp_args"`
	// Limit caps the number of problems per corpus (0 = all), for quick runs.
	Limit int `json:"limit"`
	// Problems restricts the run to these problem ids (--problems ID,... and
	// --problems-file FILE; empty = all). An id in no corpus is an error
	// (CheckProblems); Limit applies to the problems selected.
	Problems []string `json:"problems"`
	// MaxLineBytes bounds a line of a JSONL corpus (0: corpus.DefaultMaxLineBytes,
	// 16 MiB); a longer line is an error row.
	MaxLineBytes int `json:"max_line_bytes"`
	// WorkDir caches compiled runners and headers.
	WorkDir string `json:"work_dir"`
	// ExecCache is the execution cache's directory or bucket URL (execute.Cached:
	// results keyed by content, so a rerun after a crash skips what ran); "" or "off"
	// disables it. cmd/launch defaults it to .cache/exec.
	ExecCache string `json:"exec_cache"`
	// Progress prints a progress line on stderr.
	Progress bool `json:"progress"`
}

// WithDefaults fills empty fields.
func (c Config) WithDefaults() Config {
	if c.Run == "" {
		c.Run = time.Now().UTC().Format("20060102T150405Z")
	}
	if c.Parallelism <= 0 {
		c.Parallelism = 2
	}
	if c.RowsPerFile <= 0 {
		c.RowsPerFile = DefaultRowsPerFile
	}
	if c.MergeGroups <= 0 {
		c.MergeGroups = 1
	}
	if c.Output == "" {
		c.Output = "out/run"
	}
	return c
}

// ParseProblems splits a list of problem ids: separated by commas, spaces or lines,
// with "#" starting a comment to the end of its line (a --problems-file).
func ParseProblems(text string) []string {
	var ids []string
	for _, line := range strings.Split(text, "\n") {
		line, _, _ = strings.Cut(line, "#")
		ids = append(ids, strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\r' })...)
	}
	return ids
}

// ReadProblemsFile reads a --problems-file (ParseProblems).
func ReadProblemsFile(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--problems-file: %w", err)
	}
	ids := ParseProblems(string(data))
	if len(ids) == 0 {
		return nil, fmt.Errorf("--problems-file %s: no problem id", path)
	}
	return ids, nil
}

// CheckProblems fails when an id of c.Problems is in none of c's corpora: a
// misspelt id would otherwise shrink the run without a word.
func CheckProblems(ctx context.Context, c Config) error {
	if len(c.Problems) == 0 {
		return nil
	}
	have := map[string]bool{}
	for _, spec := range c.Corpora {
		cp, err := corpus.LoadWith(ctx, spec, corpus.Options{MaxLineBytes: c.MaxLineBytes})
		if err != nil {
			return fmt.Errorf("--corpus %s: %w", spec, err)
		}
		for _, p := range cp.Problems {
			have[p.ID] = true
		}
	}
	var unknown []string
	for _, id := range c.Problems {
		if !have[id] {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	return fmt.Errorf("--problems: %d unknown problem id(s), in none of the corpora: %s", len(unknown), strings.Join(unknown[:min(len(unknown), 10)], ", "))
}

// Floors of the per-program limits: below them no program, not even a gold, can run,
// so a smaller value is a typo (1ns, 1024 bytes), not a setting.
const (
	MinTimeLimit   = 10 * time.Millisecond
	MinMemoryBytes = 16 << 20
)

// configFile is the JSON form of Config in a --config file: its durations are Go
// duration strings ("10s", "1m30s"), which shadow Config's nanosecond integers.
type configFile struct {
	Config
	CPUTime  json.RawMessage `json:"cpu_time"`
	WallTime json.RawMessage `json:"wall_time"`
}

// ParseConfig reads a --config file: unknown keys are errors (a misspelled key must
// not silently fall back to a default), and the durations cpu_time and wall_time
// take Go duration strings; a bare number is refused, since it would be read as
// nanoseconds.
func ParseConfig(data []byte) (Config, error) {
	var f configFile
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(&f); err != nil {
		return Config{}, err
	}
	if d.More() {
		return Config{}, fmt.Errorf("more than one JSON value")
	}
	c := f.Config
	for _, fld := range []struct {
		name string
		raw  json.RawMessage
		dst  *time.Duration
	}{{"cpu_time", f.CPUTime, &c.CPUTime}, {"wall_time", f.WallTime, &c.WallTime}} {
		if len(fld.raw) == 0 || string(fld.raw) == "null" {
			continue
		}
		var s string
		if err := json.Unmarshal(fld.raw, &s); err != nil {
			return Config{}, fmt.Errorf("%s: %s is not a duration string: write a Go duration such as \"10s\" or \"500ms\"", fld.name, fld.raw)
		}
		v, err := time.ParseDuration(s)
		if err != nil {
			return Config{}, fmt.Errorf("%s: %v (write a Go duration such as \"10s\" or \"500ms\")", fld.name, err)
		}
		*fld.dst = v
	}
	return c, nil
}
