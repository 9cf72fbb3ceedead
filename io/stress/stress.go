// Package stress ingests the stress-test suites of the TRACE benchmark (SPEC section
// 4, TRACE): Trace_Tests/<lang>/<sample_id>/ holds, for a target language, a test
// script whose start() calls the translated function (placeholder F_FULL) on many
// large inputs. Python (<id>.py) and C++ (<id>.cpp) scripts embed the inputs as
// literals; Java (MAIN.java) reads them from test_<n>/param_idx_<k>.txt files with
// readInt, readIntArray... helpers.
//
// Each stress test becomes a schemas.Test whose Args is the canonical JSON array of
// its arguments (transforms/values.CanonicalArgs against the problem's parameter
// types) and whose Index is TRACE's own test id (the number in "test_id=1005",
// "x_full_1005", "test_1005/"), so that the same stress test read from two languages'
// suites carries the same Index. Tests are returned sorted by Index.
//
// A suite that cannot be read (missing file, unknown reader, an argument that does
// not parse or does not match the parameter types) is an error for Load and an
// ErrorRow with Stage "stress" for LoadAll; ingestion never panics.
package stress

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gocloud.dev/blob"

	"transmute/io/blobs"
	"transmute/io/corpus"
	"transmute/schemas"
	"transmute/transforms/values"
)

// Stage is the ErrorRow stage of stress-suite ingestion errors.
const Stage = "stress"

// Corpus is the corpus name written in ErrorRows.
const Corpus = "trace"

// SuiteKey returns the key of the test script of sample id in lang under dir.
func SuiteKey(dir, lang, id string) string {
	switch lang {
	case schemas.Java:
		return path.Join(dir, lang, id, "MAIN.java")
	case schemas.Python:
		return path.Join(dir, lang, id, id+".py")
	case schemas.Cpp:
		return path.Join(dir, lang, id, id+".cpp")
	}
	return ""
}

// Load reads the stress suite of problem id in lang from bucket (dir is the key
// prefix of the Trace_Tests directory, "" for the bucket's root) and returns its tests
// with canonical arguments for params.
func Load(ctx context.Context, bucket *blob.Bucket, dir string, lang string, id string, params []schemas.Param) ([]schemas.Test, error) {
	key := SuiteKey(dir, lang, id)
	if key == "" {
		return nil, fmt.Errorf("no stress suites for language %q", lang)
	}
	types := make([]values.Type, len(params))
	for i, p := range params {
		t, err := values.ParseType(p.Type)
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %v", p.Name, err)
		}
		types[i] = t
	}
	src, err := bucket.ReadAll(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", key, err)
	}
	var raws []rawTest
	switch lang {
	case schemas.Python:
		raws, err = parsePython(string(src))
	case schemas.Cpp:
		raws, err = parseCpp(string(src))
	case schemas.Java:
		raws, err = parseJava(ctx, bucket, path.Join(dir, lang, id), string(src))
	}
	if err != nil {
		return nil, err
	}
	if len(raws) == 0 {
		return nil, fmt.Errorf("no stress test found in %s", path.Base(key))
	}
	seen := map[int32]bool{}
	tests := make([]schemas.Test, 0, len(raws))
	for _, r := range raws {
		if len(r.args) != len(types) {
			return nil, fmt.Errorf("test %d: %d arguments for %d parameters (%s)", r.id, len(r.args), len(types), paramList(params))
		}
		if seen[r.id] {
			return nil, fmt.Errorf("test id %d appears twice", r.id)
		}
		seen[r.id] = true
		for i, t := range types {
			// A C++ suite may pass a char array ({'a', 'b'}) for a string parameter.
			if t.Base == values.String && t.Dims == 0 {
				if s, ok := joinChars(r.args[i]); ok {
					r.args[i] = s
				}
			}
		}
		raw, err := json.Marshal(r.args)
		if err != nil {
			return nil, fmt.Errorf("test %d: %v", r.id, err)
		}
		args, err := values.CanonicalArgs(types, string(raw))
		if err != nil {
			return nil, fmt.Errorf("test %d: %v (%s)", r.id, err, paramList(params))
		}
		tests = append(tests, schemas.Test{Index: r.id, Args: args})
	}
	sort.Slice(tests, func(i, j int) bool { return tests[i].Index < tests[j].Index })
	return tests, nil
}

// joinChars turns a list of one-character strings into the string they spell.
func joinChars(v any) (string, bool) {
	l, ok := v.([]any)
	if !ok {
		return "", false
	}
	var b strings.Builder
	for _, e := range l {
		s, ok := e.(string)
		if !ok || len([]rune(s)) != 1 {
			return "", false
		}
		b.WriteString(s)
	}
	return b.String(), true
}

func paramList(ps []schemas.Param) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.Type + " " + p.Name
	}
	return "params: " + strings.Join(s, ", ")
}

// LoadAll ingests every suite under root (a path or URL of Trace_Tests) for the
// problems given (by id) and returns the tests by problem id and language, with one
// ErrorRow per suite that could not be ingested (including suites of problems that
// are not in problems).
func LoadAll(ctx context.Context, root string, problems map[string]schemas.Problem) (map[string]map[string][]schemas.Test, []schemas.ErrorRow) {
	out := map[string]map[string][]schemas.Test{}
	var errs []schemas.ErrorRow
	fail := func(id, lang, reason, detail string) {
		errs = append(errs, schemas.ErrorRow{Stage: Stage, Corpus: Corpus, ProblemID: id, Lang: lang, Reason: reason, Detail: detail})
	}
	b, err := blobs.Open(ctx, root)
	if err != nil {
		fail("", "", "cannot open stress-test directory", err.Error())
		return out, errs
	}
	defer b.Close()
	for _, lang := range schemas.Languages {
		ids, err := listDirs(ctx, b, lang+"/")
		if err != nil {
			fail("", lang, "cannot list stress suites", err.Error())
			continue
		}
		for _, id := range ids {
			p, ok := problems[id]
			if !ok {
				fail(id, lang, "no problem with this id (parameter types unknown)", "")
				continue
			}
			tests, err := Load(ctx, b, "", lang, id, p.Params)
			if err != nil {
				fail(id, lang, "stress suite not ingested", err.Error())
				continue
			}
			if out[id] == nil {
				out[id] = map[string][]schemas.Test{}
			}
			out[id][lang] = tests
		}
	}
	return out, errs
}

// listDirs lists the immediate sub-directories of prefix.
func listDirs(ctx context.Context, b *blob.Bucket, prefix string) ([]string, error) {
	var ids []string
	for obj, err := range blobs.Objects(ctx, b, &blob.ListOptions{Prefix: prefix, Delimiter: "/"}) {
		if err != nil {
			return nil, err
		}
		if obj.IsDir {
			ids = append(ids, strings.TrimSuffix(strings.TrimPrefix(obj.Key, prefix), "/"))
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// rawTest is one stress test as read from a script: its TRACE id and its argument
// values in call order (JSON-ready Go values).
type rawTest struct {
	id   int32
	args []any
}

var (
	tryLine  = regexp.MustCompile(`^\s*try\s*[:{]\s*$`)
	callRe   = regexp.MustCompile(`\bF_FULL\s*\(([^()]*)\)\s*;?\s*$`)
	testIDRe = regexp.MustCompile(`test_id=(\d+)`)
	pyDeclRe = regexp.MustCompile(`^\s*(\w+)_full\s*=\s*(.*?)\s*$`)
	// C++: "int arr_full_12 [500] = {...} ;", "std::string s_full_3 = "..." ;"
	cppDeclRe = regexp.MustCompile(`^\s*([A-Za-z_][\w:<>, ]*?[\w>])\s+(\w+?)_full_(\d+)\s*((?:\[\s*\w*\s*\]\s*)*)=\s*(.*?)\s*;\s*$`)
	// Java: "int x_full_1; x_full_1 = readInt ( "../ID/test_1/param_idx_0.txt" ) ;"
	javaDeclRe = regexp.MustCompile(`^\s*([\w<>\[\], ]+?)\s+(\w+?)_full_(\d+)\s*;\s*\w+_full_\d+\s*=\s*(read\w+)\s*\(\s*"([^"]*)"\s*\)\s*;\s*$`)
	argNameRe  = regexp.MustCompile(`^(\w+?)_full(?:_(\d+))?$`)
)

// blocks splits the body of start() (after the TEST_SUITE_FILL marker, or the whole
// script) into the lines of each try block.
func blocks(src string) [][]string {
	if i := strings.Index(src, "TEST_SUITE_FILL"); i >= 0 {
		src = src[i:]
	}
	var out [][]string
	var cur []string
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if tryLine.MatchString(line) {
			if cur != nil {
				out = append(out, cur)
			}
			cur = []string{}
			continue
		}
		if cur != nil {
			cur = append(cur, line)
		}
	}
	if cur != nil {
		out = append(out, cur)
	}
	return out
}

// callArgs returns the parameter names (without the _full[_id] suffix) of the F_FULL
// call in block, and the test id written in the argument names, if any.
func callArgs(block []string) (names []string, id int64, found bool, err error) {
	id = -1
	for _, line := range block {
		m := callRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		found = true
		inner := strings.TrimSpace(m[1])
		if inner == "" {
			return nil, id, true, nil
		}
		for _, a := range strings.Split(inner, ",") {
			am := argNameRe.FindStringSubmatch(strings.TrimSpace(a))
			if am == nil {
				return nil, id, true, fmt.Errorf("unexpected argument %q in F_FULL call", strings.TrimSpace(a))
			}
			names = append(names, am[1])
			if am[2] != "" {
				id, _ = strconv.ParseInt(am[2], 10, 32)
			}
		}
		return names, id, true, nil
	}
	return nil, id, false, nil
}

// assemble builds a rawTest from a block's declarations.
func assemble(block []string, decl map[string]any, id int64, names []string) (rawTest, error) {
	if id < 0 {
		for _, line := range block {
			if m := testIDRe.FindStringSubmatch(line); m != nil {
				id, _ = strconv.ParseInt(m[1], 10, 32)
				break
			}
		}
	}
	if id < 0 {
		return rawTest{}, fmt.Errorf("a test without an id")
	}
	r := rawTest{id: int32(id)}
	for _, n := range names {
		v, ok := decl[n]
		if !ok {
			return rawTest{}, fmt.Errorf("test %d: argument %s_full is never assigned", id, n)
		}
		r.args = append(r.args, v)
	}
	return r, nil
}

// parseBlocks reads the tests of a suite: one per block that calls the function,
// with the arguments' values that decl reads from the block's declaration lines
// (ok false for any other line).
func parseBlocks(src string, decl func(line string) (name string, v any, ok bool, err error)) ([]rawTest, error) {
	var out []rawTest
	for _, b := range blocks(src) {
		names, id, found, err := callArgs(b)
		if err != nil {
			return nil, err
		}
		if !found {
			continue
		}
		values := map[string]any{}
		for _, line := range b {
			name, v, ok, err := decl(line)
			if err != nil {
				return nil, err
			}
			if ok {
				values[name] = v
			}
		}
		r, err := assemble(b, values, id, names)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func parsePython(src string) ([]rawTest, error) {
	return parseBlocks(src, func(line string) (string, any, bool, error) {
		m := pyDeclRe.FindStringSubmatch(line)
		if m == nil {
			return "", nil, false, nil
		}
		v, err := corpus.ParseLiteral(m[2], corpus.PythonSyntax)
		if err != nil {
			return "", nil, false, fmt.Errorf("value of %s_full: %v", m[1], err)
		}
		return m[1], v, true, nil
	})
}

func parseCpp(src string) ([]rawTest, error) {
	return parseBlocks(src, func(line string) (string, any, bool, error) {
		m := cppDeclRe.FindStringSubmatch(line)
		if m == nil {
			return "", nil, false, nil
		}
		v, err := corpus.ParseLiteral(m[5], corpus.CppSyntax)
		if err != nil {
			return "", nil, false, fmt.Errorf("value of %s_full_%s: %v", m[2], m[3], err)
		}
		// "char s[] = "abc"" is a char array: its value is the string's characters.
		if s, ok := v.(string); ok && strings.TrimSpace(m[4]) != "" && strings.HasSuffix(m[1], "char") {
			v = charList(s)
		}
		return m[2], v, true, nil
	})
}

func charList(s string) []any {
	l := make([]any, 0, len(s))
	for _, r := range s {
		l = append(l, string(r))
	}
	return l
}

func parseJava(ctx context.Context, b *blob.Bucket, suiteDir, src string) ([]rawTest, error) {
	return parseBlocks(src, func(line string) (string, any, bool, error) {
		m := javaDeclRe.FindStringSubmatch(line)
		if m == nil {
			return "", nil, false, nil
		}
		key := path.Join(suiteDir, m[5])
		data, err := b.ReadAll(ctx, key)
		if err != nil {
			return "", nil, false, fmt.Errorf("test %s: reading %s: %v", m[3], m[5], err)
		}
		v, err := javaRead(m[4], string(data))
		if err != nil {
			return "", nil, false, fmt.Errorf("test %s: %s(%s): %v", m[3], m[4], m[5], err)
		}
		return m[2], v, true, nil
	})
}

// javaLines splits text as BufferedReader.readLine does (\n, \r or \r\n; no final
// empty line).
func javaLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	if s == "" {
		return nil
	}
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n")
}

// javaInt parses an integer as Integer.parseInt / Long.parseLong would (a leading
// '+' allowed), keeping it exact.
func javaInt(s string) (any, error) {
	s = strings.TrimSpace(s)
	t := strings.TrimPrefix(s, "+")
	if t == "" {
		return nil, fmt.Errorf("empty number")
	}
	for i, c := range t {
		if !(c >= '0' && c <= '9' || (i == 0 && c == '-' && len(t) > 1)) {
			return nil, fmt.Errorf("not an integer: %q", trunc(s))
		}
	}
	return json.Number(t), nil
}

// javaFloat parses a number as Double.parseDouble would (suffixes f/d, Infinity,
// NaN).
func javaFloat(s string) (any, error) {
	s = strings.TrimSpace(s)
	t := strings.TrimRight(s, "fFdD")
	switch strings.TrimPrefix(t, "+") {
	case "Infinity":
		return "Infinity", nil
	case "-Infinity":
		return "-Infinity", nil
	case "NaN":
		return "NaN", nil
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return nil, fmt.Errorf("not a number: %q", trunc(s))
	}
	return json.Number(values.FormatFloat(f)), nil
}

func trunc(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// javaRead converts the text of a param file as the MAIN.java reader named fn does.
func javaRead(fn, text string) (any, error) {
	lines := javaLines(text)
	first := func() (string, error) {
		if len(lines) == 0 {
			return "", fmt.Errorf("empty file")
		}
		return lines[0], nil
	}
	each := func(conv func(string) (any, error)) (any, error) {
		out := make([]any, 0, len(lines))
		for _, l := range lines {
			v, err := conv(l)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	rows := func(lines []string, conv func(string) (any, error)) (any, error) {
		out := make([]any, 0, len(lines))
		for _, l := range lines {
			toks := strings.Fields(l)
			row := make([]any, 0, len(toks))
			for _, t := range toks {
				v, err := conv(t)
				if err != nil {
					return nil, err
				}
				row = append(row, v)
			}
			out = append(out, row)
		}
		return out, nil
	}
	boolean := func(s string) (any, error) { return strings.EqualFold(strings.TrimSpace(s), "true"), nil }
	str := func(s string) (any, error) { return strings.TrimSpace(s), nil }
	switch fn {
	case "readInt", "readLong":
		l, err := first()
		if err != nil {
			return nil, err
		}
		return javaInt(l)
	case "readFloat", "readDouble":
		l, err := first()
		if err != nil {
			return nil, err
		}
		return javaFloat(l)
	case "readChar":
		l, err := first()
		if err != nil {
			return nil, err
		}
		r := []rune(strings.TrimSpace(l))
		if len(r) == 0 {
			return nil, fmt.Errorf("empty char")
		}
		return string(r[0]), nil
	case "readString":
		if len(lines) == 0 {
			return nil, nil // readLine returns null
		}
		return lines[0], nil
	case "readIntArray", "readIntegerArray", "readLongArray":
		return each(javaInt)
	case "readFloatArray", "readDoubleArray":
		return each(javaFloat)
	case "readStringArray":
		return each(str)
	case "readBooleanArray":
		return each(boolean)
	case "readCharArray":
		return charList(strings.Join(lines, "")), nil
	case "readInt2DArray", "readLong2DArray":
		return rows(lines, javaInt)
	case "readDouble2DArray", "readFloat2DArray":
		return rows(lines, javaFloat)
	case "readBoolean2DArray":
		return rows(lines, boolean)
	case "readInt3DArray":
		// matrices of rows separated by blank lines, grouped as MAIN.java's reader
		// groups them: several blank lines in a row separate once, and blank lines
		// before the first matrix or after the last are ignored
		cube := []any{}
		all := lines
		for len(all) > 0 {
			for len(all) > 0 && strings.TrimSpace(all[0]) == "" {
				all = all[1:]
			}
			n := 0
			for n < len(all) && strings.TrimSpace(all[n]) != "" {
				n++
			}
			if n == 0 {
				break
			}
			m, err := rows(all[:n], javaInt)
			if err != nil {
				return nil, err
			}
			cube = append(cube, m)
			all = all[n:]
		}
		return cube, nil
	}
	return nil, fmt.Errorf("unsupported reader %s", fn)
}
