package translate_test

import (
	"context"
	"strings"
	"testing"

	"transmute/transforms/translate"
	_ "transmute/transforms/translate/builtin"
	_ "transmute/transforms/translate/command"
	_ "transmute/transforms/translate/identity"
	"transmute/transforms/translate/openai"
	_ "transmute/transforms/translate/recorded"
)

// FuzzOpenSpec: no translator spec panics the spec parser of any scheme. openai
// specs go to openai.ParseSpec only: opening one creates its cache directory, which
// a fuzzer must not scatter over the disk.
func FuzzOpenSpec(f *testing.F) {
	for _, s := range []string{
		"identity:", "builtin:", "recorded:../../../data/translations/toy-llm.jsonl", "recorded:../../../data/translations/toy-llm.jsonl?name=x",
		"recorded:", "recorded:?name=", "recorded:/nonexistent/m.gpt", "command:/bin/true?arg={in}&timeout=0s", "command:/bin/true?memory_mb=-1",
		"command:?", "command:/bin/true?directions=java", "openai:http://h/v1?model=m&backoff=0s", "openai:http://h/v1?model=m&n=1e9",
		"nosuch:x", ":", "", "recorded:%zz", "recorded:mem://?name=a",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		if rest, ok := strings.CutPrefix(spec, "openai:"); ok {
			_, _ = openai.ParseSpec(rest)
			return
		}
		tr, err := translate.Open(context.Background(), spec)
		if err != nil {
			return
		}
		if tr.Name() == "" && !strings.Contains(spec, "name=") {
			t.Errorf("%q: translator without a name", spec)
		}
		tr.Close()
	})
}
