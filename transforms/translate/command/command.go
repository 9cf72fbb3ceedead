// Package command runs an external translator program (a transpiler's CLI) in the
// sandbox, with a timeout. Spec:
//
//	command:/usr/local/bin/j2py?arg={in}&arg=-o&arg={out}&name=j2py&directions=java-python
//
// Arguments are given as repeated "arg" options, with placeholders {src} and {tgt}
// (language names), {in} (a file holding the source, in the sandbox's private
// directory) and {out} (the file the translation should be written to). Without
// {out} in the arguments the translation is read from standard output; the source is
// always also on standard input. Options: name (default: the program's base name),
// directions (src-tgt list; default any), timeout (30s), memory_mb (2048).
// The program sees none of the parent's environment, no network, and can write only
// its private directory.
package command

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"transmute/internal/clip"
	"transmute/schemas"
	"transmute/transforms/sandbox"
	"transmute/transforms/translate"
)

func init() {
	translate.Register("command", func(ctx context.Context, rest string) (translate.Translator, error) {
		return Open(rest)
	})
}

// Translator runs one external program per translation.
type Translator struct {
	path    string
	args    []string
	name    string
	dirs    [][2]string
	timeout time.Duration
	memory  int64
}

// Open parses the spec after "command:".
func Open(rest string) (*Translator, error) {
	p, q, _ := strings.Cut(rest, "?")
	if p == "" {
		return nil, fmt.Errorf("command: program path required")
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("command: %w", err)
	}
	vals, err := url.ParseQuery(q)
	if err != nil {
		return nil, fmt.Errorf("command: options %q: %w", q, err)
	}
	if err := translate.CheckOptions("command", vals, "arg", "name", "directions", "timeout", "memory_mb"); err != nil {
		return nil, err
	}
	t := &Translator{path: abs, args: vals["arg"], name: vals.Get("name"), timeout: 30 * time.Second, memory: 2048 << 20}
	if t.name == "" {
		t.name = filepath.Base(abs)
	}
	if v := vals.Get("timeout"); v != "" {
		if t.timeout, err = time.ParseDuration(v); err != nil {
			return nil, fmt.Errorf("command: timeout: %w", err)
		}
		if t.timeout <= 0 {
			return nil, fmt.Errorf("command: timeout=%v: must be positive", t.timeout)
		}
	}
	if v := vals.Get("memory_mb"); v != "" {
		mb, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("command: memory_mb: %w", err)
		}
		if mb <= 0 || mb > 1<<30 {
			return nil, fmt.Errorf("command: memory_mb=%d: want 1..%d", mb, 1<<30)
		}
		t.memory = mb << 20
	}
	if v := vals.Get("directions"); v != "" {
		for _, d := range strings.Split(v, ",") {
			a, b, ok := strings.Cut(strings.TrimSpace(d), "-")
			if !ok || !slices.Contains(schemas.Languages, a) || !slices.Contains(schemas.Languages, b) {
				return nil, fmt.Errorf("command: bad direction %q in directions=%s: want src-tgt between %v", d, v, schemas.Languages)
			}
			t.dirs = append(t.dirs, [2]string{a, b})
		}
	}
	return t, nil
}

// Name of the translator.
func (t *Translator) Name() string { return t.name }

// TranslatesVariants is true: the program gets any source.
func (t *Translator) TranslatesVariants() bool { return true }

// Directions as configured (nil: any).
func (t *Translator) Directions() [][2]string { return t.dirs }

// Close does nothing.
func (t *Translator) Close() error { return nil }

var exts = map[string]string{schemas.Java: ".java", schemas.Python: ".py", schemas.Cpp: ".cpp", schemas.Go: ".go"}

// Translate runs the program on the request's source.
func (t *Translator) Translate(ctx context.Context, r translate.Request) ([]translate.Translation, error) {
	dir, err := os.MkdirTemp("", "transmute-cmd-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o777); err != nil {
		return nil, err
	}
	in := filepath.Join(dir, "input"+exts[r.SrcLang])
	out := filepath.Join(dir, "output"+exts[r.TgtLang])
	src := r.Code
	if r.Imports != "" {
		src = r.Imports + "\n" + r.Code
	}
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		return nil, err
	}
	usesOut := false
	args := make([]string, len(t.args))
	rep := strings.NewReplacer("{src}", r.SrcLang, "{tgt}", r.TgtLang, "{in}", in, "{out}", out)
	for i, a := range t.args {
		if strings.Contains(a, "{out}") {
			usesOut = true
		}
		args[i] = rep.Replace(a)
	}
	start := time.Now()
	o, err := sandbox.Run(ctx, sandbox.Spec{Path: t.path, Args: args, WorkDir: dir, ReadOnly: []string{filepath.Dir(t.path)},
		Limits: sandbox.Limits{WallTime: t.timeout, CPUTime: t.timeout, MemoryBytes: t.memory, OutputBytes: outputCap}}, []byte(src))
	tr := translate.Translation{LatencyMs: time.Since(start).Milliseconds()}
	switch {
	case err != nil:
		tr.Status, tr.Error = schemas.TranslationError, "sandbox: "+err.Error()
	case o.WallTimeout || o.CPUTimeout:
		tr.Status, tr.Error = schemas.TranslationError, fmt.Sprintf("timed out after %v", t.timeout)
	case o.ExitCode != 0:
		tr.Status, tr.Error = schemas.TranslationError, fmt.Sprintf("exit %d %s: %s", o.ExitCode, o.Signal, clip.String(string(o.Stderr), 500))
	case !usesOut && o.StdoutTruncated:
		// what is left after the cap is not the program's translation
		tr.Status, tr.Error = schemas.TranslationError, fmt.Sprintf("%s (%d bytes of standard output)", translate.CutPrefix, outputCap)
	default:
		code := string(o.Stdout)
		if usesOut {
			data, rerr := readCapped(out, outputCap)
			if rerr != nil {
				tr.Status, tr.Error = schemas.TranslationError, "no output file: "+rerr.Error()
				return []translate.Translation{tr}, nil
			}
			if int64(len(data)) > outputCap {
				tr.Status, tr.Error = schemas.TranslationError, fmt.Sprintf("%s (%d bytes of the output file)", translate.CutPrefix, outputCap)
				return []translate.Translation{tr}, nil
			}
			code = string(data)
		}
		if strings.Contains(code, "```") {
			c, imp, xerr := translate.Extract(code, r.TgtLang)
			if xerr != nil {
				tr.Status, tr.Error = schemas.TranslationError, xerr.Error()
				return []translate.Translation{tr}, nil
			}
			tr.Code, tr.Imports = c, imp
		} else {
			tr.Code, tr.Imports = translate.SplitImports(code, r.TgtLang)
		}
		if strings.TrimSpace(tr.Code) == "" {
			tr.Status, tr.Error = schemas.TranslationError, "empty translation"
		} else {
			tr.Status = schemas.TranslationOK
		}
	}
	return []translate.Translation{tr}, nil
}

// outputCap is the most a translation may be, on standard output or in its file
// (the sandbox's default output cap).
var outputCap int64 = 8 << 20

// readCapped reads at most limit+1 bytes of path, so that an oversized file is
// detected without reading it whole.
func readCapped(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit+1))
}
