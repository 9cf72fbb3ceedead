package main

import (
	"path/filepath"
	"strings"

	"transmute/pipelines"
)

// absolutePaths resolves the run's local paths (corpora and the TRACE corpus's
// transcoder= option, recorded translations, the output, the execution cache and the
// work directory) against the submitting directory. A worker of a job server runs in
// a working directory of its own and would resolve a relative path there; in process,
// the engines' compilers run in directories of their own.
func absolutePaths(c pipelines.Config) (pipelines.Config, error) {
	var err error
	abs := func(loc string) string {
		if err != nil || loc == "" || strings.Contains(loc, "://") || filepath.IsAbs(loc) {
			return loc
		}
		var a string
		if a, err = filepath.Abs(loc); err != nil {
			return loc
		}
		return a
	}
	// spec resolves the location of "kind:loc[?query]" and the transcoder= path of
	// its query, leaving everything else of the spec as written.
	spec := func(s string) string {
		kind, rest, ok := strings.Cut(s, ":")
		if !ok {
			return s
		}
		loc, query, hasQuery := strings.Cut(rest, "?")
		if strings.HasPrefix(rest, "//") || strings.Contains(loc, "://") { // a URL: its query is the driver's
			return s
		}
		out := kind + ":" + abs(loc)
		if hasQuery {
			var opts []string
			for _, o := range strings.Split(query, "&") {
				if k, v, ok := strings.Cut(o, "="); ok && k == "transcoder" {
					o = k + "=" + abs(v)
				}
				opts = append(opts, o)
			}
			out += "?" + strings.Join(opts, "&")
		}
		return out
	}
	corpora := make([]string, len(c.Corpora))
	for i, s := range c.Corpora {
		corpora[i] = spec(s)
	}
	c.Corpora = corpora
	translators := make([]string, len(c.Translators))
	for i, s := range c.Translators {
		if strings.HasPrefix(s, "recorded:") { // the other schemes name no file
			s = spec(s)
		}
		translators[i] = s
	}
	c.Translators = translators
	c.Output = abs(c.Output)
	c.WorkDir = abs(c.WorkDir)
	if c.ExecCache != "off" {
		c.ExecCache = abs(c.ExecCache)
	}
	return c, err
}
