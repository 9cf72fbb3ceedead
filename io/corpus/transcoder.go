package corpus

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gocloud.dev/blob"

	"transmute/internal/clip"
	"transmute/schemas"
	"transmute/transforms/values"
)

// TransCoder-test layout.
const (
	goldKey       = "gold.jsonl"
	scriptsPrefix = "testscript/"
)

var scriptExt = map[string]string{schemas.Java: "java", schemas.Python: "py", schemas.Cpp: "cpp"}

// Imports used when a language has no test script to take them from: those of
// the benchmark's scripts (without javafx.util.Pair, which JDK 17 lacks).
var defaultImports = map[string]string{
	schemas.Java: "import java.util.*;\nimport java.util.stream.*;\nimport java.lang.*;",
	schemas.Cpp: "#include <iostream>\n#include <cstdlib>\n#include <string>\n#include <vector>\n" +
		"#include <fstream>\n#include <iomanip>\n#include <bits/stdc++.h>\nusing namespace std;",
}

// ReadTranscoder ingests a TransCoder-test directory: gold.jsonl (one problem a
// line: sample_id and the gold function in each language) and
// testscript/{java,python,cpp}/<id>.<ext>. Problem types come from the Java
// f_gold signature (the Java test script, else the gold Java function), else
// from the C++ one; tests from the Python script's param list, else the Java
// script's param lists, else the C++ script's param vectors. b is rooted at the
// corpus directory.
func ReadTranscoder(ctx context.Context, b *blob.Bucket) (*Corpus, error) {
	c := &Corpus{Name: TransCoder}
	lines, err := ReadLines(ctx, b, goldKey)
	if err != nil {
		return nil, fmt.Errorf("corpus: TransCoder-test: read %s: %w", goldKey, err)
	}
	keys, err := ListKeys(ctx, b, scriptsPrefix, "")
	if err != nil {
		return nil, fmt.Errorf("corpus: TransCoder-test: list %s: %w", scriptsPrefix, err)
	}
	have := map[string]bool{}
	for _, k := range keys {
		have[k] = true
	}
	seen := map[string]bool{}
	for i, line := range lines {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var row map[string]any
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			c.addError("", "", fmt.Sprintf("bad JSON in %s line %d: %v", goldKey, i+1, err), clip.String(line, 200))
			continue
		}
		id, _ := row["sample_id"].(string)
		if id == "" {
			c.addError("", "", fmt.Sprintf("%s line %d has no sample_id", goldKey, i+1), clip.String(line, 200))
			continue
		}
		if seen[id] {
			c.addError(id, "", fmt.Sprintf("duplicate sample_id in %s line %d", goldKey, i+1), "")
			continue
		}
		seen[id] = true
		gold := map[string]string{}
		for _, l := range schemas.Languages {
			if s, ok := row[l].(string); ok && strings.TrimSpace(s) != "" {
				gold[l] = s
			}
		}
		scripts := map[string]string{}
		for l, ext := range scriptExt {
			key := scriptsPrefix + l + "/" + id + "." + ext
			if !have[key] {
				continue
			}
			data, err := b.ReadAll(ctx, key)
			if err != nil {
				c.addError(id, l, "cannot read test script", fmt.Sprintf("%s: %v", key, err))
				continue
			}
			scripts[l] = string(data)
		}
		p, err := transcoderProblem(c, id, gold, scripts)
		if err != nil {
			c.addError(id, "", err.Error(), "")
			continue
		}
		c.Problems = append(c.Problems, *p)
		c.Tasks = append(c.Tasks, tasksFor(p)...)
	}
	return c, nil
}

// transcoderProblem builds one problem; function-level problems are recorded in
// c, problem-level ones returned.
func transcoderProblem(c *Corpus, id string, gold, scripts map[string]string) (*schemas.Problem, error) {
	p := &schemas.Problem{ID: id, Corpus: c.Name}
	for _, l := range schemas.Languages {
		code, ok := gold[l]
		if !ok {
			continue
		}
		name, decl, err := DescribeFunction(l, code, "")
		if err != nil {
			c.addError(id, l, "cannot find the gold function's name", err.Error())
			continue
		}
		p.Functions = append(p.Functions, schemas.Function{
			Lang: l, Name: name, Code: code, Signature: decl,
			Imports: scriptImports(l, scripts[l], code),
		})
	}
	if len(p.Functions) == 0 {
		return nil, fmt.Errorf("no gold function")
	}
	sig, err := transcoderSignature(gold, scripts)
	if err != nil {
		return nil, err
	}
	p.Params, p.Returns = sig.Params, sig.Returns
	types, err := sig.Types()
	if err != nil {
		return nil, fmt.Errorf("signature %s: %v", sig.Decl, err)
	}
	tests, err := transcoderTests(scripts, types)
	if err != nil {
		return nil, err
	}
	p.Tests = tests
	return p, nil
}

// transcoderSignature takes the types from the first signature that parses among
// the Java script's f_gold, the gold Java function, the C++ script's f_gold and
// the gold C++ function.
func transcoderSignature(gold, scripts map[string]string) (Signature, error) {
	type source struct {
		what, code, name string
		parse            func(string, string) (Signature, error)
	}
	srcs := []source{
		{"Java test script", scripts[schemas.Java], "f_gold", ParseJavaSignature},
		{"gold Java function", gold[schemas.Java], "", ParseJavaSignature},
		{"C++ test script", scripts[schemas.Cpp], "f_gold", ParseCppSignature},
		{"gold C++ function", gold[schemas.Cpp], "", ParseCppSignature},
	}
	var why []string
	for _, s := range srcs {
		if s.code == "" {
			continue
		}
		sig, err := s.parse(s.code, s.name)
		if err == nil {
			return sig, nil
		}
		why = append(why, fmt.Sprintf("%s: %v", s.what, err))
	}
	if len(why) == 0 {
		return Signature{}, fmt.Errorf("no typed signature: the problem has neither Java nor C++ code")
	}
	return Signature{}, fmt.Errorf("cannot type the signature: %s", strings.Join(why, "; "))
}

// transcoderTests recovers the test inputs from the scripts, preferring Python.
func transcoderTests(scripts map[string]string, types []values.Type) ([]schemas.Test, error) {
	type source struct {
		lang string
		read func(string) ([][]any, error)
	}
	srcs := []source{
		{schemas.Python, pythonParams},
		{schemas.Java, javaParams},
		{schemas.Cpp, cppParams},
	}
	var why []string
	for _, s := range srcs {
		script, ok := scripts[s.lang]
		if !ok {
			continue
		}
		rows, err := s.read(script)
		if err == nil {
			var tests []schemas.Test
			tests, err = canonicalTests(rows, types)
			if err == nil {
				return tests, nil
			}
		}
		why = append(why, fmt.Sprintf("%s script: %v", s.lang, err))
	}
	if len(why) == 0 {
		return nil, fmt.Errorf("no test script to take the test inputs from")
	}
	return nil, fmt.Errorf("cannot read the test inputs: %s", strings.Join(why, "; "))
}

func canonicalTests(rows [][]any, types []values.Type) ([]schemas.Test, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("no test inputs")
	}
	tests := make([]schemas.Test, 0, len(rows))
	for i, r := range rows {
		raw, err := encodeJSON(r)
		if err != nil {
			return nil, fmt.Errorf("test %d: %v", i, err)
		}
		args, err := values.CanonicalArgs(types, raw)
		if err != nil {
			return nil, fmt.Errorf("test %d: %v", i, err)
		}
		tests = append(tests, schemas.Test{Index: int32(i), Args: args})
	}
	return tests, nil
}

var pyParamRe = regexp.MustCompile(`(?m)^[ \t]*param[ \t]*=[ \t]*\[`)

// pythonParams reads the "param = [(...), ...]" list of a Python test script.
func pythonParams(script string) ([][]any, error) {
	loc := pyParamRe.FindStringIndex(script)
	if loc == nil {
		return nil, fmt.Errorf("no param list")
	}
	v, _, err := parseLiteralPrefix(script[loc[1]-1:], PythonSyntax)
	if err != nil {
		return nil, err
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("param is not a list")
	}
	rows := make([][]any, len(list))
	for i, e := range list {
		if t, ok := e.([]any); ok {
			rows[i] = t
		} else {
			rows[i] = []any{e}
		}
	}
	return rows, nil
}

var (
	javaAddRe = regexp.MustCompile(`(?m)^[ \t]*param(\d+)\.add\(`)
	cppVecRe  = regexp.MustCompile(`(?m)^[ \t]*[\w:<>, \t]*?\bparam(\d+)[ \t]*=?[ \t]*\{`)
)

// javaParams reads the paramN.add(...) calls of a Java test script (not the
// filled_function_paramN copies that void functions' scripts also have).
func javaParams(script string) ([][]any, error) {
	cols := map[int][]any{}
	for _, m := range javaAddRe.FindAllStringSubmatchIndex(script, -1) {
		k, _ := strconv.Atoi(script[m[2]:m[3]])
		v, n, err := parseLiteralPrefix(script[m[1]:], JavaSyntax)
		if err != nil {
			return nil, fmt.Errorf("param%d: %v", k, err)
		}
		if rest := strings.TrimLeft(script[m[1]+n:], " \t\r\n"); !strings.HasPrefix(rest, ")") {
			return nil, fmt.Errorf("param%d: unexpected %q after the value", k, clip.String(rest, 20))
		}
		cols[k] = append(cols[k], v)
	}
	return columnsToRows(cols)
}

// cppParams reads the "vector<T> paramN {...};" declarations of a C++ test script.
func cppParams(script string) ([][]any, error) {
	cols := map[int][]any{}
	for _, m := range cppVecRe.FindAllStringSubmatchIndex(script, -1) {
		k, _ := strconv.Atoi(script[m[2]:m[3]])
		if _, dup := cols[k]; dup {
			return nil, fmt.Errorf("param%d defined twice", k)
		}
		v, _, err := parseLiteralPrefix(script[m[1]-1:], CppSyntax)
		if err != nil {
			return nil, fmt.Errorf("param%d: %v", k, err)
		}
		list, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("param%d is not a list", k)
		}
		cols[k] = list
	}
	return columnsToRows(cols)
}

func columnsToRows(cols map[int][]any) ([][]any, error) {
	if len(cols) == 0 {
		return nil, fmt.Errorf("no param lists")
	}
	var ks []int
	for k := range cols {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	n := len(cols[ks[0]])
	for i, k := range ks {
		if k != i {
			return nil, fmt.Errorf("param lists are not numbered 0..%d", len(ks)-1)
		}
		if len(cols[k]) != n {
			return nil, fmt.Errorf("param%d has %d values, param0 has %d", k, len(cols[k]), n)
		}
	}
	rows := make([][]any, n)
	for i := range rows {
		rows[i] = make([]any, len(ks))
		for j, k := range ks {
			rows[i][j] = cols[k][i]
		}
	}
	return rows, nil
}

var (
	javaImportRe = regexp.MustCompile(`(?m)^[ \t]*import[ \t]+[\w. \t*]+;[ \t]*$`)
	cppImportRe  = regexp.MustCompile(`(?m)^[ \t]*(#include[^\n]*|using[ \t]+namespace[^\n]*;)[ \t]*$`)
	pyImportRe   = regexp.MustCompile(`(?m)^(import[ \t][^\n]*|from[ \t]+\S+[ \t]+import[ \t][^\n]*)$`)
)

// scriptImports returns the import lines of a test script before its f_gold
// (dropping javafx.util.Pair, which JDK 17 lacks), or defaults when there is no
// script: the scripts' fixed Java and C++ headers, and for Python the modules
// the code visibly uses.
func scriptImports(lang, script, code string) string {
	if script == "" {
		if lang == schemas.Python {
			return guessPythonImports(code)
		}
		return defaultImports[lang]
	}
	head := script
	if i := strings.Index(script, "f_gold"); i >= 0 {
		head = script[:i]
	}
	var re *regexp.Regexp
	switch lang {
	case schemas.Java:
		re = javaImportRe
	case schemas.Cpp:
		re = cppImportRe
	default:
		re = pyImportRe
	}
	var out []string
	for _, m := range re.FindAllString(head, -1) {
		m = strings.TrimSpace(m)
		if strings.Contains(m, "javafx.util.Pair") {
			continue
		}
		out = append(out, m)
	}
	return strings.Join(out, "\n")
}

var pyModuleUse = regexp.MustCompile(`\b(math|sys|collections|heapq|bisect|itertools|functools|re|string|random|queue|array)\s*\.`)

func guessPythonImports(code string) string {
	seen := map[string]bool{}
	var out []string
	for _, m := range pyModuleUse.FindAllStringSubmatch(code, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, "import "+m[1])
		}
	}
	sort.Strings(out)
	if regexp.MustCompile(`(^|[^.\w])sqrt\s*\(`).MatchString(code) {
		out = append(out, "from math import sqrt")
	}
	return strings.Join(out, "\n")
}
