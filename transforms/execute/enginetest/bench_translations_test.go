package enginetest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/translate"
	"transmute/transforms/translate/recorded"
)

var (
	recOnce sync.Once
	recs    []*recorded.Translator
	recErr  error
)

// traceModels opens every recorded TRACE model (Ref_Translation/m.*) once, in name
// order; it skips when the shared corpora are absent.
func traceModels(tb testing.TB) []*recorded.Translator {
	tb.Helper()
	root := filepath.Join(corporaDir(tb), "trace", "Ref_Translation")
	if _, err := os.Stat(root); err != nil {
		tb.Skipf("shared TRACE translations absent (%s): %v", root, err)
	}
	recOnce.Do(func() {
		dirs, err := filepath.Glob(filepath.Join(root, "m.*"))
		if err != nil {
			recErr = err
			return
		}
		sort.Strings(dirs)
		for _, d := range dirs {
			t, err := recorded.Open(context.Background(), d)
			if err != nil {
				recErr = err
				return
			}
			recs = append(recs, t)
		}
	})
	if recErr != nil {
		tb.Fatalf("open recorded translations: %v", recErr)
	}
	if len(recs) == 0 {
		tb.Skipf("no recorded model under %s", root)
	}
	return recs
}

// translationVariants takes the shared TransCoder-test problems in order and, for
// each, every recorded translation into lang (each model, each source language),
// deduplicated within the problem as the pipeline does, until there are at least
// benchMinVariants; it returns them grouped per problem (one batch each). The engine
// picks the entry function (the recorded translations name none).
func translationVariants(b testing.TB, lang string) [][]variant {
	c := transcoder(b)
	models := traceModels(b)
	var groups [][]variant
	n := 0
	for i := range c.Problems {
		p := &c.Problems[i]
		var grp []variant
		seen := map[string]bool{}
		for _, m := range models {
			for _, src := range schemas.Languages {
				if src == lang || !m.Has(p.ID, src, lang) {
					continue
				}
				trs, err := m.Translate(context.Background(), translate.Request{ProblemID: p.ID, VariantID: recorded.OrigVariant, SrcLang: src, TgtLang: lang})
				if err != nil {
					b.Fatalf("%s %s %s->%s: %v", m.Name(), p.ID, src, lang, err)
				}
				for _, tr := range trs {
					if tr.Status != schemas.TranslationOK || strings.TrimSpace(tr.Code) == "" {
						continue
					}
					key := tr.Imports + "\x00" + tr.Entry + "\x00" + tr.Code
					if seen[key] {
						continue
					}
					seen[key] = true
					id := p.ID + "/" + m.Name() + "/" + src + "/" + fmt.Sprint(tr.Sample)
					grp = append(grp, variant{p, execute.Candidate{ID: id, Code: tr.Code, Imports: tr.Imports, Entry: tr.Entry}})
				}
			}
		}
		if len(grp) == 0 {
			continue
		}
		groups = append(groups, grp)
		if n += len(grp); n >= benchMinVariants {
			return groups
		}
	}
	b.Skipf("only %d recorded translations into %s", n, lang)
	return nil
}

// BenchmarkEngine{Java,Python,Cpp}Translations run the recorded LLM translations
// (TRACE's four models) into the language, batched per problem, against the naive
// way on a sample of the same variants.
func BenchmarkEngineJavaTranslations(b *testing.B) {
	benchCompare(b, "engine_java_translations", schemas.Java, translationVariants(b, schemas.Java), false)
}
func BenchmarkEnginePythonTranslations(b *testing.B) {
	benchCompare(b, "engine_python_translations", schemas.Python, translationVariants(b, schemas.Python), false)
}
func BenchmarkEngineCppTranslations(b *testing.B) {
	benchCompare(b, "engine_cpp_translations", schemas.Cpp, translationVariants(b, schemas.Cpp), false)
}
