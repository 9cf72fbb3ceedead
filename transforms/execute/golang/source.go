package golang

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"transmute/transforms/values"
)

// prepared is a candidate's package, ready to build, or the reason it cannot be.
type prepared struct {
	src   string // the package's source, package clause included
	entry string // the function the harness calls
	err   string // a compile error found before the build
}

// packageClause matches a leading "package x" (LLM answers and scripts carry one).
var packageClause = regexp.MustCompile(`^(\s*(//[^\n]*\n|/\*(?s:.*?)\*/)?)*\s*package\s+[A-Za-z_][A-Za-z0-9_]*\s*;?`)

// entryAlias is the exported name under which each candidate package exposes its
// entry function to the harness.
const entryAlias = "TransmuteEntry"

// prepare builds candidate package pkg from imports and code: it drops a package
// clause, keeps only the imports the code uses (the benchmark's scripts import fmt, os
// and unsafe for their own main), checks that every import is of the standard library,
// refuses load-time code, finds the entry and checks its signature against the
// problem's declared types.
func prepare(goroot, pkg, imports, code, entry string, params []values.Type, ret values.Type) prepared {
	imports = strings.TrimSpace(packageClause.ReplaceAllString(imports, ""))
	code = packageClause.ReplaceAllString(code, "")
	head := "package " + pkg + "\n"
	src := head + imports + "\n" + code + "\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "cand.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return prepared{err: err.Error()}
	}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := s.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	var keep []*ast.ImportSpec
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		if msg := checkImport(goroot, path); msg != "" {
			return prepared{err: fmt.Sprintf("%s: %s", fset.Position(im.Pos()), msg)}
		}
		name := filepath.Base(path)
		if im.Name != nil {
			name = im.Name.Name
		}
		if name == "_" || name == "." || used[name] || path == "unsafe" && strings.Contains(code, "go:linkname") {
			keep = append(keep, im)
		}
	}
	if msg := loadTimeCode(fset, f); msg != "" {
		return prepared{err: msg}
	}
	fn, msg := findEntry(f, entry)
	if msg != "" {
		return prepared{err: msg}
	}
	if msg := checkSignature(fn, params, ret); msg != "" {
		return prepared{err: msg}
	}
	// Rewrite the source with the kept imports only, the declarations as written.
	var b strings.Builder
	b.WriteString(head)
	for _, im := range keep {
		if im.Name != nil {
			b.WriteString("import " + im.Name.Name + " " + im.Path.Value + "\n")
		} else {
			b.WriteString("import " + im.Path.Value + "\n")
		}
	}
	declStart := len(src)
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			continue
		}
		declStart = fset.Position(d.Pos()).Offset
		if c := docStart(d); c >= 0 {
			declStart = fset.Position(token.Pos(c)).Offset
		}
		break
	}
	if declStart > len(src) {
		declStart = len(src)
	}
	b.WriteString(src[declStart:])
	b.WriteString("\nvar " + entryAlias + " = " + fn.Name.Name + "\n")
	return prepared{src: b.String(), entry: fn.Name.Name}
}

// docStart is the position of a declaration's doc comment, or -1.
func docStart(d ast.Decl) int {
	switch x := d.(type) {
	case *ast.FuncDecl:
		if x.Doc != nil {
			return int(x.Doc.Pos())
		}
	case *ast.GenDecl:
		if x.Doc != nil {
			return int(x.Doc.Pos())
		}
	}
	return -1
}

// checkImport refuses what the build cannot or must not load: cgo, packages outside
// the standard library (the build has no network and no module cache), internal
// packages, and the harness's own packages.
func checkImport(goroot, path string) string {
	switch {
	case path == "C":
		return `import "C": cgo is off (CGO_ENABLED=0)`
	case path == "unsafe":
		return ""
	case path == "" || strings.Contains(path, "..") || strings.HasPrefix(path, "/") || strings.Contains(path, "\\"):
		return fmt.Sprintf("bad import path %q", path)
	case strings.Contains(path, "internal") || strings.HasPrefix(path, "vendor/") || strings.HasPrefix(path, "cmd/"):
		return fmt.Sprintf("import %q: not an importable package of the standard library", path)
	case strings.Contains(strings.SplitN(path, "/", 2)[0], "."):
		return fmt.Sprintf("import %q: only the standard library is available (no network, no module cache)", path)
	}
	if st, err := os.Stat(filepath.Join(goroot, "src", path)); err != nil || !st.IsDir() {
		return fmt.Sprintf("import %q: no such package in the standard library", path)
	}
	return ""
}

// loadTimeCode refuses code that would run when the program starts, before any
// candidate is chosen: init functions and package-level variables whose initialisers
// may call a function, panic or block. One program serves every candidate of a build,
// so such code would run in every candidate's process (where it could write to the
// protocol channel or end the process before the harness runs); Go gives no way to
// defer a package's initialisation, so the engine refuses it as a compile error.
// Initialisers made of literals, constants, other variables, composite literals,
// function literals, arithmetic other than division, and conversions to basic types
// are allowed.
func loadTimeCode(fset *token.FileSet, f *ast.File) string {
	for _, d := range f.Decls {
		switch x := d.(type) {
		case *ast.FuncDecl:
			if x.Recv == nil && x.Name.Name == "init" {
				return fmt.Sprintf("%s: func init is load-time code, which the Go engine refuses: one program serves every candidate of a build, and an init function would run in each candidate's process before the harness",
					fset.Position(x.Pos()))
			}
		case *ast.GenDecl:
			if x.Tok != token.VAR {
				continue
			}
			for _, s := range x.Specs {
				for _, v := range s.(*ast.ValueSpec).Values {
					if bad := unsafeInit(v); bad != nil {
						return fmt.Sprintf("%s: a package-level variable initialised by an expression that can run code, panic or block (%T) is load-time code, which the Go engine refuses: declare it without an initialiser and assign it in a function",
							fset.Position(bad.Pos()), bad)
					}
				}
			}
		}
	}
	return ""
}

// basicTypes are the predeclared types a conversion in an initialiser may name.
var basicTypes = map[string]bool{"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"float32": true, "float64": true, "byte": true, "rune": true, "bool": true, "string": true}

// unsafeInit returns the first node of e that may run code, panic or block at load
// time, or nil.
func unsafeInit(e ast.Expr) ast.Node {
	var bad ast.Node
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		if bad != nil || n == nil {
			return false
		}
		switch x := n.(type) {
		case *ast.BasicLit, *ast.Ident, *ast.FuncLit:
			return false // a function literal's body runs only when called
		case *ast.CompositeLit:
			for _, el := range x.Elts {
				ast.Inspect(el, walk)
			}
			return false
		case *ast.KeyValueExpr, *ast.ParenExpr:
			return true
		case *ast.SelectorExpr:
			// pkg.Const; a field of a variable could be a nil dereference
			if _, ok := x.X.(*ast.Ident); ok {
				return false
			}
			bad = x
		case *ast.UnaryExpr:
			if x.Op == token.ARROW {
				bad = x
				return false
			}
			return true
		case *ast.BinaryExpr:
			switch x.Op {
			case token.QUO, token.REM, token.SHL, token.SHR:
				if _, lit := x.Y.(*ast.BasicLit); !lit {
					bad = x
					return false
				}
			}
			return true
		case *ast.CallExpr:
			if id, ok := x.Fun.(*ast.Ident); ok && basicTypes[id.Name] && len(x.Args) == 1 {
				return true
			}
			bad = x
		case *ast.ArrayType, *ast.MapType:
			return false
		default:
			bad = n
		}
		return false
	}
	ast.Inspect(e, walk)
	return bad
}

// findEntry returns the entry function: the one named, or the last top-level function
// other than main.
func findEntry(f *ast.File, name string) (*ast.FuncDecl, string) {
	var last *ast.FuncDecl
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil {
			continue
		}
		if name != "" && fn.Name.Name == name {
			return fn, ""
		}
		if fn.Name.Name != "main" && fn.Name.Name != "_" {
			last = fn
		}
	}
	if name != "" {
		return nil, fmt.Sprintf("no function %s in the candidate", name)
	}
	if last == nil {
		return nil, "no function in the candidate"
	}
	return last, ""
}

// goType reads a parameter or result type: a basic type name with slice dimensions.
func goType(e ast.Expr) (base string, dims int, ok bool) {
	for {
		switch x := e.(type) {
		case *ast.ArrayType:
			if x.Len != nil {
				return "", 0, false
			}
			dims++
			e = x.Elt
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			if !basicTypes[x.Name] {
				return "", 0, false
			}
			return x.Name, dims, true
		default:
			return "", 0, false
		}
	}
}

var (
	goInts   = map[string]bool{"int": true, "int8": true, "int16": true, "int32": true, "int64": true, "uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true, "byte": true, "rune": true}
	goFloats = map[string]bool{"float32": true, "float64": true}
)

// fits tells whether a Go type (base, dims) can take a value of declared type t.
func fits(base string, dims int, t values.Type) bool {
	switch t.Base {
	case values.String:
		return base == "string" && dims == t.Dims || (base == "byte" || base == "uint8" || base == "rune" || base == "int32") && dims == t.Dims+1
	case values.Char:
		return dims == t.Dims && (goInts[base] || base == "string") || base == "string" && dims == t.Dims-1
	case values.Int, values.Long:
		return dims == t.Dims && (goInts[base] || goFloats[base])
	case values.Float, values.Double:
		return dims == t.Dims && goFloats[base]
	case values.Bool:
		return dims == t.Dims && base == "bool"
	}
	return false
}

// checkSignature checks that the entry takes the problem's parameters and returns one
// value (none for void), of types the harness can pass and print.
func checkSignature(fn *ast.FuncDecl, params []values.Type, ret values.Type) string {
	if fn.Type.TypeParams != nil && fn.Type.TypeParams.NumFields() > 0 {
		return fmt.Sprintf("entry %s is generic: the harness cannot instantiate it", fn.Name.Name)
	}
	var types []ast.Expr
	for _, p := range fn.Type.Params.List {
		if _, ok := p.Type.(*ast.Ellipsis); ok {
			return fmt.Sprintf("entry %s is variadic", fn.Name.Name)
		}
		k := max(1, len(p.Names))
		for range k {
			types = append(types, p.Type)
		}
	}
	if len(types) != len(params) {
		return fmt.Sprintf("entry %s takes %d parameters; the tests pass %d", fn.Name.Name, len(types), len(params))
	}
	for i, e := range types {
		base, dims, ok := goType(e)
		if !ok || !fits(base, dims, params[i]) {
			return fmt.Sprintf("entry %s: parameter %d of type %s cannot take the tests' %s", fn.Name.Name, i+1, exprString(e), params[i])
		}
	}
	nres := 0
	if fn.Type.Results != nil {
		for _, r := range fn.Type.Results.List {
			nres += max(1, len(r.Names))
		}
	}
	if ret.Base == values.Void {
		if nres != 0 {
			return fmt.Sprintf("entry %s returns a value; the problem's function returns none", fn.Name.Name)
		}
		return ""
	}
	if nres != 1 {
		return fmt.Sprintf("entry %s returns %d values; the problem's function returns one %s", fn.Name.Name, nres, ret)
	}
	return ""
}

func exprString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.ArrayType:
		if x.Len == nil {
			return "[]" + exprString(x.Elt)
		}
		return "[...]" + exprString(x.Elt)
	case *ast.SelectorExpr:
		return exprString(x.X) + "." + x.Sel.Name
	case *ast.StarExpr:
		return "*" + exprString(x.X)
	}
	return fmt.Sprintf("%T", e)
}
