package scriptcheck

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"

	"transmute/internal/proctree"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/execute/cpp"
	"transmute/transforms/sandbox"
)

var (
	langOnce sync.Once
	cppLang  *sitter.Language
)

// GlobalChecker compiles filled C++ scripts as the benchmark does, each alone at
// global scope (g++ -fsyntax-only, the engine's flags), to find the scripts that
// compile in RunCpp's namespace but not there: a namespace changes name lookup (a
// translation's global variable named count or y1 is ambiguous with std::count, or
// clashes with math.h's y1, at global scope, and not in its own namespace). Every
// script includes <bits/stdc++.h>, so a precompiled <bits/stdc++.h> given with
// -include first changes nothing but the cost (about 0.15 s of compiler CPU a script
// against 1 s). The compiler reads the untrusted code but runs none of it, as the
// C++ engine's compiles do.
type GlobalChecker struct {
	CXX string // g++ when empty
	// Dir caches the precompiled header (transmute-cache-<uid>/scriptcheck-pch under
	// the temporary directory when empty).
	Dir string
	// Plain makes RunAlone compile without the precompiled header, each script parsing
	// <bits/stdc++.h> itself, as the benchmark's own harness compiles it.
	Plain bool

	once sync.Once
	err  error
	pch  string // the header to -include

	namesOnce sync.Once
	names     map[string]bool
	namesErr  error
}

func (g *GlobalChecker) prepare() error {
	g.once.Do(func() {
		if g.CXX == "" {
			g.CXX = "g++"
		}
		if g.Dir == "" {
			g.Dir = filepath.Join(execute.UserDir("transmute-cache"), "scriptcheck-pch")
		}
		if g.err = os.MkdirAll(g.Dir, 0o755); g.err != nil {
			return
		}
		h := filepath.Join(g.Dir, "sc_std.h")
		g.pch = h
		src := []byte("#include <bits/stdc++.h>\n")
		if old, err := os.ReadFile(h); err == nil && bytes.Equal(old, src) {
			if _, err := os.Stat(h + ".gch"); err == nil {
				return
			}
		}
		if g.err = os.WriteFile(h, src, 0o644); g.err != nil {
			return
		}
		tmp := fmt.Sprintf("%s.%d.tmp.gch", h, os.Getpid())
		args := append(append([]string{}, cpp.Flags...), "-x", "c++-header", "-o", tmp, h)
		if out, err := proctree.CombinedOutput(exec.Command(g.CXX, args...)); err != nil {
			os.Remove(tmp)
			g.err = fmt.Errorf("scriptcheck: precompile <bits/stdc++.h>: %v\n%s", err, out)
			return
		}
		g.err = os.Rename(tmp, h+".gch")
	})
	return g.err
}

// Check compiles one filled script alone at global scope; ok false with g++'s
// first error when it does not compile.
func (g *GlobalChecker) Check(ctx context.Context, filled string) (ok bool, msg string, err error) {
	if err := g.prepare(); err != nil {
		return false, "", err
	}
	dir, err := os.MkdirTemp("", "scriptcheck-cpp-")
	if err != nil {
		return false, "", err
	}
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, "script.cpp")
	if err := os.WriteFile(src, []byte(filled), 0o644); err != nil {
		return false, "", err
	}
	args := append(append([]string{}, cpp.Flags...), "-w", "-fmax-errors=5", "-include", g.pch, "-fsyntax-only", src)
	out, failed, err := compile(ctx, dir, g.CXX, args...)
	if err != nil {
		return false, "", err
	}
	if !failed {
		return true, "", nil
	}
	text := strings.ReplaceAll(out, dir+"/", "")
	for _, l := range strings.Split(text, "\n") {
		if isErrorLine(l) {
			return false, firstLine(l), nil
		}
	}
	return false, firstLine(text), nil
}

func isErrorLine(l string) bool {
	return strings.Contains(l, " error: ") || strings.Contains(l, " fatal error: ")
}

// headerNames returns every identifier that the preprocessed <bits/stdc++.h> spells
// (with the engine's flags): a name the headers never spell cannot clash with a
// declaration of theirs.
func (g *GlobalChecker) headerNames() (map[string]bool, error) {
	if err := g.prepare(); err != nil {
		return nil, err
	}
	g.namesOnce.Do(func() {
		args := append(append([]string{}, cpp.Flags...), "-E", "-P", "-x", "c++", g.pch)
		out, err := proctree.Output(exec.Command(g.CXX, args...))
		if err != nil {
			g.namesErr = fmt.Errorf("scriptcheck: preprocess <bits/stdc++.h>: %v", err)
			return
		}
		g.names = map[string]bool{}
		for _, w := range identRe.FindAll(out, -1) {
			g.names[string(w)] = true
		}
	})
	return g.names, g.namesErr
}

var identRe = regexp.MustCompile(`[A-Za-z_]\w*`)

// NeedsCheck tells whether a translation (its import section and code) may compile
// differently in RunCpp's namespace than at the script's global scope, and why: it
// declares at its top level a name that the standard headers spell (a function abs,
// a variable count or y1), or it has a construct whose meaning depends on the
// enclosing namespace (a namespace, extern "C", a qualified or operator name, a
// using-declaration or using-directive other than "using namespace std", a part
// tree-sitter cannot parse). Anything else declares only names that nothing in the
// headers can clash with, and compiles alike in both.
func (g *GlobalChecker) NeedsCheck(imports, code string) (bool, string, error) {
	names, err := g.headerNames()
	if err != nil {
		return false, "", err
	}
	declared, why := topLevelNames(imports + "\n" + code)
	if why != "" {
		return true, why, nil
	}
	var clash []string
	for _, n := range declared {
		if names[n] {
			clash = append(clash, n)
		}
	}
	if len(clash) > 0 {
		return true, "declares " + strings.Join(clash, ", ") + " at its top level, a name the headers spell", nil
	}
	return false, "", nil
}

// topLevelNames lists the names code declares at its top level, or says why that
// cannot be told (a construct that depends on the enclosing namespace).
func topLevelNames(code string) ([]string, string) {
	langOnce.Do(func() { cppLang = sitter.NewLanguage(tscpp.Language()) })
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(cppLang); err != nil {
		return nil, "no C++ grammar"
	}
	src := []byte(code)
	tree := p.Parse(src, nil)
	if tree == nil {
		return nil, "not parsed"
	}
	defer tree.Close()
	var names []string
	why := ""
	var decl func(n *sitter.Node)
	decl = func(n *sitter.Node) {
		if n == nil || why != "" {
			return
		}
		switch n.Kind() {
		case "identifier", "type_identifier", "field_identifier", "namespace_identifier":
			names = append(names, n.Utf8Text(src))
		case "qualified_identifier", "operator_name", "destructor_name", "template_function", "operator_cast":
			why = "a " + n.Kind() + " at its top level"
		case "function_declarator", "array_declarator", "init_declarator", "parenthesized_declarator",
			"attributed_declarator":
			decl(n.ChildByFieldName("declarator"))
		case "pointer_declarator", "reference_declarator":
			next := n.ChildByFieldName("declarator")
			if next == nil && n.NamedChildCount() > 0 {
				next = n.NamedChild(n.NamedChildCount() - 1)
			}
			decl(next)
		default:
			why = "a " + n.Kind() + " declarator at its top level"
		}
	}
	// specifier adds the name (and enumerators) of a class or enum defined in a type
	specifier := func(t *sitter.Node) {
		if t == nil {
			return
		}
		switch t.Kind() {
		case "struct_specifier", "class_specifier", "union_specifier", "enum_specifier":
			decl(t.ChildByFieldName("name"))
			if b := t.ChildByFieldName("body"); b != nil && t.Kind() == "enum_specifier" {
				for i := uint(0); i < b.NamedChildCount(); i++ {
					if e := b.NamedChild(i); e.Kind() == "enumerator" {
						decl(e.ChildByFieldName("name"))
					}
				}
			}
		}
	}
	var top func(n *sitter.Node)
	top = func(n *sitter.Node) {
		for i := uint(0); i < n.NamedChildCount() && why == ""; i++ {
			c := n.NamedChild(i)
			switch c.Kind() {
			case "comment", "preproc_include", "preproc_def", "preproc_function_def", "preproc_call", "empty_declaration":
			case "preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif", "template_declaration":
				top(c)
			case "function_definition", "declaration", "type_definition", "field_declaration":
				specifier(c.ChildByFieldName("type"))
				cur := c.Walk()
				for _, d := range c.ChildrenByFieldName("declarator", cur) {
					decl(&d)
				}
				cur.Close()
			case "struct_specifier", "class_specifier", "union_specifier", "enum_specifier":
				specifier(c)
			case "alias_declaration":
				decl(c.ChildByFieldName("name"))
			case "using_declaration":
				if t := strings.Join(strings.Fields(c.Utf8Text(src)), " "); strings.ReplaceAll(t, " ", "") != "usingnamespacestd;" {
					why = "a using declaration (" + t + ")"
				}
			case "template_parameter_list":
			default:
				why = "a " + c.Kind() + " at its top level"
			}
		}
	}
	top(tree.RootNode())
	return names, why
}

// RunAlone compiles one filled script alone at global scope (the engine's flags,
// <bits/stdc++.h> precompiled unless Plain) and runs it in the sandbox, as the
// benchmark runs its scripts: a check of RunCpp's batch on a sample, at about 0.3 s
// of compiler CPU a script against the batch's share.
func (g *GlobalChecker) RunAlone(ctx context.Context, filled string, lim sandbox.Limits) (Outcome, error) {
	if !g.Plain {
		if err := g.prepare(); err != nil {
			return Outcome{}, err
		}
	}
	cxx := g.CXX
	if cxx == "" {
		cxx = "g++"
	}
	dir, err := os.MkdirTemp("", "scriptcheck-cpp-")
	if err != nil {
		return Outcome{}, err
	}
	defer os.RemoveAll(dir)
	_ = os.Chmod(dir, 0o755)
	src, bin := filepath.Join(dir, "script.cpp"), filepath.Join(dir, "script")
	if err := os.WriteFile(src, []byte(filled), 0o644); err != nil {
		return Outcome{}, err
	}
	args := append(append([]string{}, cpp.Flags...), "-w", "-fmax-errors=5")
	if !g.Plain {
		args = append(args, "-include", g.pch)
	}
	args = append(args, "-o", bin, src)
	if out, failed, err := compile(ctx, dir, cxx, args...); err != nil {
		return Outcome{}, err
	} else if failed {
		msg := strings.ReplaceAll(out, dir+"/", "")
		for _, l := range strings.Split(msg, "\n") {
			if isErrorLine(l) {
				msg = l
				break
			}
		}
		return Outcome{Status: schemas.StatusCompileError, Detail: firstLine(msg)}, nil
	}
	if lim.CPUTime == 0 {
		lim.CPUTime, lim.WallTime = 20*time.Second, 60*time.Second
	}
	o, err := sandbox.Run(ctx, sandbox.Spec{Path: bin, ReadOnly: []string{dir}, Limits: lim}, nil)
	if err != nil {
		return Outcome{}, err
	}
	return outcome(o), nil
}

// compile runs a compiler on a filled script in dir, outside the sandbox: it
// reads the untrusted code but runs none of it. failed: the compiler rejected the
// script, out its messages; err: the compiler itself did not finish (2 minutes)
// or ctx ended, which is no verdict on the script.
func compile(ctx context.Context, dir, tool string, args ...string) (out string, failed bool, err error) {
	cctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(cctx, tool, args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C", "TMPDIR=" + dir}
	b, runErr := proctree.CombinedOutput(cmd)
	switch {
	case ctx.Err() != nil:
		return "", false, ctx.Err()
	case cctx.Err() != nil:
		return "", false, fmt.Errorf("scriptcheck: %s did not finish in 2 minutes", filepath.Base(tool))
	}
	return string(b), runErr != nil, nil
}
