package command

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"transmute/schemas"
	"transmute/transforms/sandbox"
	"transmute/transforms/translate"
)

func TestMain(m *testing.M) { sandbox.Main(m) }

func script(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	p := filepath.Join(dir, "tool.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func req() translate.Request {
	return translate.Request{ProblemID: "P", SrcLang: schemas.Java, TgtLang: schemas.Python, Code: "static int f(int x) { return x; }"}
}

func TestStdinStdout(t *testing.T) {
	// A "translator" that turns the Java source into a Python function, via stdin.
	p := script(t, "read line\necho 'import math'\necho 'def f(x):'\necho \"    return x  # from: $1 $2\"\n")
	tr, err := Open(p + "?arg={src}&arg={tgt}&name=toy")
	if err != nil {
		t.Fatal(err)
	}
	out, err := tr.Translate(context.Background(), req())
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Status != schemas.TranslationOK || out[0].Imports != "import math" ||
		out[0].Code != "def f(x):\n    return x  # from: java python" || tr.Name() != "toy" {
		t.Fatalf("got %+v", out[0])
	}
}

func TestFilesAndFailures(t *testing.T) {
	p := script(t, "grep -q 'static int f' \"$1\" && printf 'def f(x):\\n    return x\\n' > \"$2\"\n")
	tr, err := Open(p + "?arg={in}&arg={out}")
	if err != nil {
		t.Fatal(err)
	}
	out, _ := tr.Translate(context.Background(), req())
	if out[0].Status != schemas.TranslationOK || !strings.HasPrefix(out[0].Code, "def f(x):") {
		t.Fatalf("file mode: %+v", out[0])
	}

	fail := script(t, "echo 'cannot parse' >&2; exit 3\n")
	tr, _ = Open(fail)
	out, _ = tr.Translate(context.Background(), req())
	if out[0].Status != schemas.TranslationError || !strings.Contains(out[0].Error, "exit 3") || !strings.Contains(out[0].Error, "cannot parse") {
		t.Errorf("failing tool: %+v", out[0])
	}

	hang := script(t, "sleep 30\n")
	tr, _ = Open(hang + "?timeout=300ms")
	out, _ = tr.Translate(context.Background(), req())
	if out[0].Status != schemas.TranslationError || !strings.Contains(out[0].Error, "timed out") {
		t.Errorf("hanging tool: %+v", out[0])
	}
}

func TestNoSecretsInTheToolsEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-secret-for-command-test")
	p := script(t, "echo \"def f(x):\"; echo \"    return '$OPENAI_API_KEY'\"\n")
	tr, _ := Open(p)
	out, _ := tr.Translate(context.Background(), req())
	if strings.Contains(out[0].Code, "sk-secret") {
		t.Fatalf("the tool saw the parent's API key: %q", out[0].Code)
	}
}

// TestOutputCutAtTheCapIsAFailure: a translation longer than the output cap is not
// stored as a success (on standard output or in the output file), and becomes a
// "translation cut" error row.
func TestOutputCutAtTheCapIsAFailure(t *testing.T) {
	defer func(c int64) { outputCap = c }(outputCap)
	outputCap = 1000
	long := "printf 'def f(x):\\n'; i=0; while [ $i -lt 300 ]; do echo '    x = x'; i=$((i+1)); done; echo '    return x'\n"
	for _, mode := range []string{"stdout", "file"} {
		body, opts := long, ""
		if mode == "file" {
			body, opts = "( "+strings.TrimSuffix(long, "\n")+" ) > \"$1\"\n", "?arg={out}"
		}
		tr, err := Open(script(t, body) + opts)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := tr.Translate(context.Background(), req())
		if out[0].Status != schemas.TranslationError || !strings.HasPrefix(out[0].Error, translate.CutPrefix) {
			t.Fatalf("%s: a %d-byte cap kept %+v", mode, outputCap, out[0])
		}
		row, ok := translate.FailureRow("r", "c", "P", tr.Name(), "orig", schemas.Java, schemas.Python, out[0])
		if !ok || row.Stage != translate.Stage || row.Reason != translate.ReasonCut {
			t.Errorf("%s: error row %+v %v", mode, row, ok)
		}
	}
	// under the cap, the same program's output is a translation
	outputCap = 1 << 20
	tr, _ := Open(script(t, long))
	if out, _ := tr.Translate(context.Background(), req()); out[0].Status != schemas.TranslationOK {
		t.Fatalf("under the cap: %+v", out[0])
	}
}

func TestBadOptionsRejected(t *testing.T) {
	p := script(t, "true\n")
	for _, q := range []string{"?timeout=0s", "?timeout=-1s", "?memory_mb=0", "?memory_mb=-5", "?memory_mb=99999999999999"} {
		if _, err := Open(p + q); err == nil {
			t.Errorf("%s accepted", q)
		}
	}
}
