package pipelines

import (
	"fmt"
	"slices"
	"time"

	"transmute/schemas"
	"transmute/transforms/evaluate"
)

// ValidateSettings checks a configuration before any work: counts and limits that cannot be
// negative, time and memory limits below their floors (MinTimeLimit, MinMemoryBytes), directions between known languages, the C++ argument mode. launch calls
// it before it touches the output, so a typo never costs the last good run.
func (c Config) ValidateSettings() error {
	for _, f := range []struct {
		name string
		v    int64
	}{
		{"parallelism (--workers)", int64(c.Parallelism)}, {"rows_per_file (--shards)", int64(c.RowsPerFile)},
		{"merge_groups (--compute-shards)", int64(c.MergeGroups)}, {"limit (--limit)", int64(c.Limit)},
		{"cpu_time (--cpu-limit)", int64(c.CPUTime)}, {"wall_time (--wall-limit)", int64(c.WallTime)},
		{"memory_bytes (--memory-limit-mb)", c.MemoryBytes}, {"max_line_bytes (--max-line-bytes)", int64(c.MaxLineBytes)},
	} {
		if f.v < 0 {
			return fmt.Errorf("%s is negative (%d)", f.name, f.v)
		}
	}
	for _, f := range []struct {
		name string
		v    time.Duration
	}{{"cpu_time (--cpu-limit)", c.CPUTime}, {"wall_time (--wall-limit)", c.WallTime}} {
		if f.v > 0 && f.v < MinTimeLimit {
			return fmt.Errorf("%s %v is below the floor of %v", f.name, f.v, MinTimeLimit)
		}
	}
	if c.MemoryBytes > 0 && c.MemoryBytes < MinMemoryBytes {
		return fmt.Errorf("memory_bytes (--memory-limit-mb) %d is below the floor of %d (%d MiB)", c.MemoryBytes, MinMemoryBytes, MinMemoryBytes>>20)
	}
	dirs, err := evaluate.Directions(c.Directions)
	if err != nil {
		return fmt.Errorf("directions: %w", err)
	}
	for _, d := range dirs {
		for _, l := range []string{d.Src, d.Tgt} {
			if !slices.Contains(schemas.Languages, l) {
				return fmt.Errorf("directions: unknown language %q in %s (want %v)", l, d, schemas.Languages)
			}
		}
	}
	if c.CppArgs != "" && c.CppArgs != evaluate.CppArgsAdapt && c.CppArgs != evaluate.CppArgsGold {
		return fmt.Errorf("cpp_args %q: want %s or %s", c.CppArgs, evaluate.CppArgsAdapt, evaluate.CppArgsGold)
	}
	return nil
}

// Validate is ValidateSettings plus the inputs every job but those reading another
// run's tables needs: at least one corpus and one translator.
func (c Config) Validate() error {
	if err := c.ValidateSettings(); err != nil {
		return err
	}
	if len(c.Corpora) == 0 || len(c.Translators) == 0 {
		return fmt.Errorf("need at least one corpus and one translator (--corpus, --translator or a --config)")
	}
	return nil
}
