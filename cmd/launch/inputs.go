package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"transmute/io/blobs"
	"transmute/io/corpus"
	"transmute/pipelines"
	"transmute/transforms/translate"
)

var (
	allowEmpty   = flag.Bool("allow-empty", false, "publish an empty run over the published one (refused without it)")
	maxLineBytes = flag.Int("max-line-bytes", 0, fmt.Sprintf("longest JSONL corpus line in bytes (default %d); longer: an error row", corpus.DefaultMaxLineBytes))
)

// checkEnvironment refuses, in one line and before the pipeline starts, a TMPDIR
// that is not a writable directory (Beam and the sandboxes put their files there)
// and an execution cache that cannot be a directory (a regular file named by
// --cache).
func checkEnvironment(ctx context.Context, c pipelines.Config) error {
	tmp := os.TempDir()
	f, err := os.CreateTemp(tmp, "transmute-check-")
	if err != nil {
		return fmt.Errorf("TMPDIR %s is not a writable directory: %w", tmp, errors.Unwrap(err))
	}
	f.Close()
	os.Remove(f.Name())
	if c.ExecCache == "" || c.ExecCache == "off" {
		return nil
	}
	if dir, ok := blobs.LocalDir(c.ExecCache); ok {
		if st, err := os.Stat(dir); err == nil && !st.IsDir() {
			return fmt.Errorf("--cache %s: not a directory (give a directory, a bucket URL, or off)", c.ExecCache)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("--cache %s: %w", c.ExecCache, err)
		}
	}
	b, err := blobs.Open(ctx, c.ExecCache)
	if err != nil {
		return fmt.Errorf("--cache %s: %w", c.ExecCache, err)
	}
	return b.Close()
}

// duplicateSpecs refuses a corpus or translator given twice, which would double
// its rows (the same problems twice, or two translators of one name).
func duplicateSpecs(c pipelines.Config) error {
	seen := map[string]string{}
	for _, spec := range c.Corpora {
		key := spec
		if loc, name, ok := corpus.JSONLLocation(spec); ok && !strings.Contains(loc, "://") {
			if abs, err := filepath.Abs(loc); err == nil {
				key = "jsonl:" + abs + "?name=" + name
			}
		}
		if prev, dup := seen[key]; dup {
			return fmt.Errorf("--corpus %s: given twice (also as %s); each corpus once", spec, prev)
		}
		seen[key] = spec
	}
	return nil
}

// copyStreams copies every jsonl: corpus that is a local pipe or device
// (/dev/stdin, a process substitution, a FIFO) once into dir, and returns the config
// reading the copies: the check before the run and the pipeline would otherwise
// each read the stream, and the pipeline would find it empty. The copy keeps the
// corpus's name (stdin for /dev/stdin, unless ?name= gives one).
func copyStreams(c pipelines.Config, dir func() (string, error)) (pipelines.Config, error) {
	var out []string
	for _, spec := range c.Corpora {
		loc, name, ok := corpus.JSONLLocation(spec)
		st, err := os.Stat(loc)
		if !ok || err != nil || st.IsDir() || st.Mode().IsRegular() {
			out = append(out, spec)
			continue
		}
		d, err := dir()
		if err != nil {
			return c, err
		}
		if name == "" {
			name = strings.TrimSuffix(filepath.Base(loc), ".jsonl")
		}
		dst := filepath.Join(d, fmt.Sprintf("%d-%s.jsonl", len(out), name))
		if err := copyStream(loc, dst, c.MaxLineBytes); err != nil {
			return c, fmt.Errorf("--corpus %s: %w", spec, err)
		}
		out = append(out, "jsonl:"+dst+"?name="+name)
	}
	c.Corpora = out
	return c, nil
}

func copyStream(src, dst string, max int) error {
	if max <= 0 {
		max = corpus.DefaultMaxLineBytes
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := corpus.CopyLines(in, out, max); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// checkInputs reads every corpus once, streaming (a JSONL corpus costs the memory
// of one line, and no more than --limit problems are read), and opens every
// translator once, so that a bad path or spec fails here, before the output is
// touched, rather than in a worker. Corpora that give no problem at all are refused
// unless --allow-empty: an empty run would replace the published one.
func checkInputs(ctx context.Context, c pipelines.Config) error {
	problems, errRows := 0, 0
	for _, spec := range c.Corpora {
		n, e, err := corpus.Count(ctx, spec, corpus.Options{Limit: c.Limit, MaxLineBytes: c.MaxLineBytes})
		if err != nil {
			return fmt.Errorf("--corpus %s: %w", spec, err)
		}
		problems += n
		errRows += e
	}
	if len(c.Corpora) > 0 && problems == 0 && !*allowEmpty {
		return fmt.Errorf("the corpora hold no problem (%d error rows): an empty run would replace the output's published run; check the corpus, or give --allow-empty", errRows)
	}
	if err := pipelines.CheckProblems(ctx, c); err != nil {
		return err
	}
	names := map[string]string{}
	for _, spec := range c.Translators {
		t, err := translate.Open(ctx, spec)
		if err != nil {
			return fmt.Errorf("--translator %s: %w", spec, err)
		}
		name := t.Name()
		t.Close()
		if prev, dup := names[name]; dup {
			return fmt.Errorf("--translator %s: a second translator named %q (also %s); each translator once (?name= tells two apart)", spec, name, prev)
		}
		names[name] = spec
	}
	return nil
}

var streamCopies string

// streamDir is the temporary directory of the copied streams, made on first use.
func streamDir() (string, error) {
	if streamCopies == "" {
		d, err := os.MkdirTemp("", "transmute-corpus-")
		if err != nil {
			return "", err
		}
		streamCopies = d
	}
	return streamCopies, nil
}

func removeStreamDir() {
	if streamCopies != "" {
		os.RemoveAll(streamCopies)
		streamCopies = ""
	}
}

// checkNotEmpty refuses to publish a run whose pipeline loaded no problem (a corpus
// that changed or emptied after the check) unless --allow-empty. The jobs that load
// problems through the shared Load stage count them (problems_loaded); a runner that
// reports no metrics is not checked.
func checkNotEmpty(job string, jb jobDef, counters map[string]int64) error {
	if *allowEmpty || jb.fromRun || job == "efficiency" || counters == nil {
		return nil
	}
	if counters["problems_loaded"] == 0 {
		return fmt.Errorf("the pipeline loaded no problem; an empty run would replace the published one (--allow-empty publishes it)")
	}
	return nil
}
