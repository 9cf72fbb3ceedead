package pipelines

import (
	"context"
	"fmt"
	"time"

	"transmute/io/cache"
	"transmute/transforms/execute"
	"transmute/transforms/translate"
)

// tools are what a DoFn that translates and executes opens in Setup and closes in
// Teardown: the translators of its specs and one engine per language.
type tools struct {
	translators []translate.Translator
	engines     map[string]execute.Engine
	execCache   *cache.Cache
}

// openTools opens the translators and one engine per language. Each engine is
// wrapped by execute.Coalesce: at most parallel calls of it run at once, and the C++
// engine runs the small batches that queue meanwhile (problems of a few translations
// each) as one translation unit, which pays the compiler's fixed cost once for them.
//
// With execCache set (not "" or "off"), each engine is also wrapped by
// execute.Cached over that directory or bucket, outside the coalescer so that hits
// never wait for an engine slot.
func openTools(ctx context.Context, specs []string, workDir string, parallel int, execCache string) (*tools, error) {
	t, err := openTranslators(ctx, specs)
	if err != nil {
		return nil, err
	}
	t.engines = map[string]execute.Engine{}
	for _, lang := range execute.Langs() {
		e, err := execute.Open(lang, execute.Options{WorkDir: workDir})
		if err != nil {
			t.Close()
			return nil, fmt.Errorf("engine %s: %w", lang, err)
		}
		t.engines[lang] = execute.Coalesce(e, execute.CoalesceOptions{Parallel: max(parallel, 1), MaxCandidates: coalesceMax,
			Linger: coalesceLinger})
	}
	if execCache != "" && execCache != "off" {
		c, err := cache.Open(ctx, execCache, "exec")
		if err != nil {
			t.Close()
			return nil, fmt.Errorf("execution cache %s: %w", execCache, err)
		}
		t.execCache = c
		for lang, e := range t.engines {
			t.engines[lang] = execute.Cached(e, c, execute.Version(lang))
		}
	}
	injectEngineFaults(t.engines)
	return t, nil
}

// openTranslators opens the translators of specs (a Translate stage needs no engine).
func openTranslators(ctx context.Context, specs []string) (*tools, error) {
	t := &tools{}
	for _, spec := range specs {
		tr, err := translate.Open(ctx, spec)
		if err != nil {
			t.Close()
			return nil, fmt.Errorf("translator %q: %w", spec, err)
		}
		t.translators = append(t.translators, tr)
	}
	return t, nil
}

// Close closes the engines and the translators; a nil *tools is fine.
func (t *tools) Close() {
	if t == nil {
		return
	}
	for _, e := range t.engines {
		e.Close()
	}
	for _, tr := range t.translators {
		tr.Close()
	}
	t.execCache.Close()
}

// coalesceMax is the most candidates the engines' coalescers put in one group: about
// 7 problems' translations, where a C++ unit's compile time grows by about 16 ms per
// candidate over a fixed 0.75 s.
const coalesceMax = 48

// coalesceLinger is how long a small batch waits for others when an engine slot is
// free: the problems a finished group releases come back within milliseconds, and
// without the wait the first of them would take the slot alone.
const coalesceLinger = 50 * time.Millisecond
