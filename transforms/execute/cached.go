package execute

import (
	"context"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"

	"transmute/internal/proctree"
	"transmute/schemas"
)

// Store keeps JSON values under content keys; io/cache.Cache is one (a blob bucket,
// whose local driver writes a temporary file and renames it, so concurrent writers of
// the same key leave one whole entry).
type Store interface {
	Get(ctx context.Context, key string, v any) (bool, error)
	Put(ctx context.Context, key string, v any) error
}

// Cached wraps an engine with a cache of candidate results keyed by content: the
// engine's version (see Version), the language, the batch's signature, tests, limits,
// call types and timeout rule, and the candidate's code, imports and entry. Engines
// give every candidate the result it would get alone, so a candidate's result may be
// reused in any batch. Cache hits come back with Cached set; the misses run as one
// batch of the wrapped engine. Results with an infra_error (the engine failed, not
// the program) are never stored. Closing the result closes e.
func Cached(e Engine, s Store, version string) Engine {
	return &cachedEngine{e: e, s: s, version: version}
}

type cachedEngine struct {
	e       Engine
	s       Store
	version string
}

func (c *cachedEngine) Lang() string { return c.e.Lang() }
func (c *cachedEngine) Close() error { return c.e.Close() }

// cacheKey is the content key of one candidate of b.
func (c *cachedEngine) cacheKey(b Batch, cand Candidate) string {
	h := sha256.New()
	enc := json.NewEncoder(h)
	for _, p := range []any{"exec/v2", c.version, c.e.Lang(), b.Lang, b.Params, b.Returns, b.Tests, b.Limits, b.StopAfterTimeouts,
		b.CallTypes, b.Seed, b.BoundsChecks, cand.Code, cand.Imports, cand.Entry} {
		_ = enc.Encode(p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (c *cachedEngine) Run(ctx context.Context, b Batch) ([]Result, error) {
	out := make([]Result, len(b.Candidates))
	keys := make([]string, len(b.Candidates))
	miss := b
	miss.Candidates = nil
	var missAt []int
	for i, cand := range b.Candidates {
		keys[i] = c.cacheKey(b, cand)
		var r Result
		if ok, err := c.s.Get(ctx, keys[i], &r); err == nil && ok {
			r.CandidateID = cand.ID
			r.Cached = true
			out[i] = r
			continue
		}
		miss.Candidates = append(miss.Candidates, cand)
		missAt = append(missAt, i)
	}
	if len(missAt) == 0 {
		return out, nil
	}
	res, err := c.e.Run(ctx, miss)
	if proctree.Stopping() {
		// The process is shutting down and killed the programs (and compilers)
		// mid-run: their outcomes are the shutdown's, not the programs'.
		return nil, proctree.ErrStopping
	}
	if err != nil {
		return nil, err
	}
	if len(res) != len(missAt) {
		return res, nil // the caller reports the count mismatch
	}
	for j, r := range res {
		i := missAt[j]
		out[i] = r
		if cacheable(r) {
			// A failed write costs only a rerun later.
			_ = c.s.Put(ctx, keys[i], r)
		}
	}
	return out, nil
}

// cacheable is false for results the engine, not the program, decided.
func cacheable(r Result) bool {
	if r.Status == schemas.StatusInfraError {
		return false
	}
	for _, t := range r.Tests {
		if t.Status == schemas.StatusInfraError {
			return false
		}
	}
	return true
}

var (
	versionOnce sync.Once
	buildID     string
	toolMu      sync.Mutex
	toolVers    = map[string]string{}
)

// Version identifies what decides a result besides the batch: this program's Go
// build ID (the harnesses, runners and sandbox are compiled or embedded in it, so
// any change to them changes it) and the version banner of the language's
// toolchain on PATH (python3, java, g++).
func Version(lang string) string {
	versionOnce.Do(func() { buildID = selfBuildID() })
	toolMu.Lock()
	defer toolMu.Unlock()
	v, ok := toolVers[lang]
	if !ok {
		var cmd *exec.Cmd
		switch lang {
		case schemas.Python:
			cmd = exec.Command("python3", "--version")
		case schemas.Java:
			cmd = exec.Command("java", "-version")
		case schemas.Cpp:
			cmd = exec.Command("g++", "--version")
		}
		if cmd != nil {
			b, err := proctree.CombinedOutput(cmd)
			if errors.Is(err, proctree.ErrStopping) {
				return buildID + "\n" + lang + "\n" // shutting down: nothing is cached any more
			}
			v = strings.TrimSpace(string(b))
		}
		toolVers[lang] = v
	}
	return buildID + "\n" + lang + "\n" + v
}

// selfBuildID reads the Go build ID note of the running executable (a hash of its
// inputs and contents, cheaper than hashing the file); failing that, the file's hash.
func selfBuildID() string {
	path, err := os.Executable()
	if err != nil {
		return ""
	}
	if f, err := elf.Open(path); err == nil {
		defer f.Close()
		if s := f.Section(".note.go.buildid"); s != nil {
			if d, err := s.Data(); err == nil {
				return hex.EncodeToString(d)
			}
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
