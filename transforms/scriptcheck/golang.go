package scriptcheck

import (
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/sandbox"
)

// TransCoder's Go scripts (gfg-extra/go/<id>.go): "package main", imports (fmt, os,
// unsafe; math or sort in some), helpers (min, max, cmpfunc), f_gold, "//TOFILL" and a
// main that compares f_filled with f_gold on the tests, prints "#Results: <passed>,
// <total>" and calls os.Exit(0). The benchmark fills the function in at the marker and
// adds no import.

const goMarker = "//TOFILL"

// FillGo puts a Go translation in the script at its TOFILL marker, its entry renamed
// f_filled. Top-level functions of the translation that the script already declares
// with the same text (the helpers a Go gold carries: min, max, cmpfunc) are left out;
// the translation's imports are not added, as in the benchmark.
func FillGo(script, imports, code, entry string) (string, error) {
	_ = imports
	i := strings.Index(script, goMarker)
	if i < 0 {
		return "", fmt.Errorf("no %s marker in the script", goMarker)
	}
	if entry == "" {
		return "", fmt.Errorf("the translation names no entry function")
	}
	code = regexp.MustCompile(`\b`+regexp.QuoteMeta(entry)+`\b`).ReplaceAllString(code, "f_filled")
	code = dropDeclared(script, code)
	return script[:i] + code + "\n" + script[i+len(goMarker):], nil
}

// dropDeclared removes from code the top-level functions whose text the script also
// holds.
func dropDeclared(script, code string) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", "package p\n"+code, parser.SkipObjectResolution)
	if err != nil {
		return code
	}
	src := "package p\n" + code
	var b strings.Builder
	last := len("package p\n")
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		start, end := fset.Position(fn.Pos()).Offset, fset.Position(fn.End()).Offset
		if strings.Contains(script, src[start:end]) && fn.Name.Name != "f_filled" {
			b.WriteString(src[last:start])
			last = end
		}
	}
	b.WriteString(src[last:])
	return strings.TrimSpace(b.String())
}

// goScriptMain is what a script's main becomes in a candidate of the Go engine: the
// script's main, renamed, with its output captured (the engine sends a candidate's
// own stdout to /dev/null) and returned by the entry.
const goScriptMain = `

func transmuteRunScript(x int) string {
	r, w, err := os.Pipe()
	if err != nil {
		panic(err)
	}
	saved := os.Stdout
	os.Stdout = w
	out := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		out <- string(b)
	}()
	transmuteScriptMain()
	w.Close()
	os.Stdout = saved
	return <-out
}
`

var goExit0 = regexp.MustCompile(`\bos\.Exit\(0\)`)

// GoCandidate turns a filled Go script into a candidate of the Go engine whose entry
// returns what the script prints: its imports (with io), its declarations, and main
// renamed with its final os.Exit(0) made a return.
func GoCandidate(id, filled string) (execute.Candidate, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "script.go", filled, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return execute.Candidate{}, err
	}
	var imports []string
	hasIO := false
	bodyStart := 0
	for _, im := range f.Imports {
		imports = append(imports, "import "+im.Path.Value)
		hasIO = hasIO || im.Path.Value == `"io"`
	}
	if !hasIO {
		imports = append(imports, `import "io"`)
	}
	var mainFn *ast.FuncDecl
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			bodyStart = fset.Position(g.End()).Offset
			continue
		}
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == "main" {
			mainFn = fn
		}
	}
	if mainFn == nil {
		return execute.Candidate{}, fmt.Errorf("no main in the script")
	}
	if bodyStart == 0 {
		bodyStart = fset.Position(f.Name.End()).Offset
	}
	ms, me := fset.Position(mainFn.Pos()).Offset, fset.Position(mainFn.End()).Offset
	main := strings.Replace(filled[ms:me], "func main()", "func transmuteScriptMain()", 1)
	main = goExit0.ReplaceAllString(main, "return")
	code := filled[bodyStart:ms] + main + filled[me:] + goScriptMain
	return execute.Candidate{ID: id, Imports: strings.Join(imports, "\n"), Code: code, Entry: "transmuteRunScript"}, nil
}

// RunGo runs filled Go scripts as one batch of the Go engine (r.Go): each script a
// candidate in its own package and process.
func (r Runner) RunGo(ctx context.Context, filled []string) ([]Outcome, error) {
	if r.Go == nil {
		return nil, fmt.Errorf("scriptcheck: no Go engine")
	}
	outs := make([]Outcome, len(filled))
	b := execute.Batch{ProblemID: "scripts", Lang: schemas.Go, Params: []schemas.Param{{Name: "x", Type: "int"}},
		Returns: "String", Tests: []schemas.Test{{Index: 0, Args: "[0]"}}, Limits: r.Limits}
	if b.Limits.CPUTime == 0 {
		b.Limits = sandbox.Limits{CPUTime: 20 * time.Second, WallTime: 60 * time.Second}
	}
	var idx []int
	for i, s := range filled {
		c, err := GoCandidate(fmt.Sprint(i), s)
		if err != nil {
			outs[i] = Outcome{Status: schemas.StatusCompileError, Detail: err.Error()}
			continue
		}
		b.Candidates = append(b.Candidates, c)
		idx = append(idx, i)
	}
	if len(idx) == 0 {
		return outs, nil
	}
	res, err := r.Go.Run(ctx, b)
	if err != nil {
		return nil, err
	}
	for k, i := range idx {
		outs[i] = goOutcome(res[k])
	}
	return outs, nil
}

func goOutcome(r execute.Result) Outcome {
	if r.Status == schemas.StatusCompileError {
		return Outcome{Status: schemas.StatusCompileError, Detail: lastLine(r.Detail)}
	}
	if len(r.Tests) == 0 {
		return Outcome{Status: r.Status, Detail: r.Detail}
	}
	t := r.Tests[0]
	if t.Status == schemas.StatusOK {
		var s string
		if err := json.Unmarshal([]byte(t.Output), &s); err == nil {
			if p, tot, ok := Parse(s); ok {
				return Outcome{Ran: true, Passed: p, Total: tot}
			}
		}
		return Outcome{Status: schemas.StatusRuntimeError, Detail: "no #Results line: " + lastLine(t.Output)}
	}
	return Outcome{Status: t.Status, Detail: lastLine(t.Error)}
}
