package translate_test

import (
	"context"
	"strings"
	"testing"

	"transmute/transforms/translate"
	"transmute/transforms/translate/openai"
)

// Every scheme refuses an option it does not know, naming the known ones, and the
// command translator refuses a direction between unknown languages: a typo must
// not leave a default in place (temperature 0, any direction, a 30s timeout).
func TestUnknownOptionsRefused(t *testing.T) {
	if _, err := openai.ParseSpec("http://127.0.0.1:1/v1?model=m&temperature=1.7"); err != nil {
		t.Fatalf("a good openai spec: %v", err)
	}
	_, err := openai.ParseSpec("http://127.0.0.1:1/v1?model=m&temprature=1.7")
	if err == nil || !strings.Contains(err.Error(), `"temprature"`) || !strings.Contains(err.Error(), "temperature") {
		t.Errorf("openai temprature=1.7: %v, want an error naming it and the known options", err)
	}
	for _, tc := range []struct{ spec, want string }{
		{"command:/bin/true?directions=java-pyton", "pyton"},
		{"command:/bin/true?directions=java", "java"},
		{"command:/bin/true?directon=java-python", `"directon"`},
		{"command:/bin/true?tmeout=5s", `"tmeout"`},
		{"identity:foo", "foo"},
		{"identity:?name=x", "name=x"},
		{"builtin:?name=x", "name=x"},
		{"builtin:x", "x"},
	} {
		tr, err := translate.Open(context.Background(), tc.spec)
		if err == nil {
			tr.Close()
			t.Errorf("%s accepted", tc.spec)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want it to name %s", tc.spec, err, tc.want)
		}
	}
	_, err = translate.Open(context.Background(), "command:/bin/true?tmeout=5s")
	if err == nil || !strings.Contains(err.Error(), "timeout") || !strings.Contains(err.Error(), "memory_mb") {
		t.Errorf("command: %v, want the known options listed", err)
	}
	for _, spec := range []string{"identity:", "builtin:", "command:/bin/true?directions=java-python,cpp-java&timeout=5s&name=t&arg=x&memory_mb=64"} {
		tr, err := translate.Open(context.Background(), spec)
		if err != nil {
			t.Errorf("%s: %v", spec, err)
			continue
		}
		tr.Close()
	}
}
