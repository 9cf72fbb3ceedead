package profile

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"transmute/internal/proctree"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/execute/cpp"
	"transmute/transforms/execute/python"
	"transmute/transforms/values"
)

var (
	//go:embed prof_runner.py
	pyRunnerTemplate string
	// pyRunner is prof_runner.py with the Python engine's argument conversion and
	// value encoding in place of its TM_ARGUMENT_CONVERSION and TM_VALUE_ENCODING
	// lines.
	pyRunner = []byte(spliceLine(spliceLine(pyRunnerTemplate,
		"# TM_ARGUMENT_CONVERSION", python.ArgumentConversion()),
		"# TM_VALUE_ENCODING", python.ValueEncoding()))
	//go:embed ProfHarness.java
	javaHarness []byte
	//go:embed prof.h
	cppHeaderTemplate string
	// cppHeader is prof.h with the C++ engine's JSON primitives and its value printer
	// and argument adapters in place of its TH_JSON_PRIMITIVES and
	// TH_VALUE_PRINTER_AND_ADAPTERS lines.
	cppHeader = []byte(spliceLine(spliceLine(cppHeaderTemplate,
		"// TH_JSON_PRIMITIVES", cpp.JSONPrimitives()),
		"// TH_VALUE_PRINTER_AND_ADAPTERS", cpp.ValuePrinterAndAdapters()))
)

// spliceLine replaces the line of tmpl (a harness) that starts with marker by text.
func spliceLine(tmpl, marker, text string) string {
	i := strings.Index(tmpl, "\n"+marker)
	if i < 0 {
		panic("profile: a harness has no line " + marker)
	}
	end := strings.IndexByte(tmpl[i+1:], '\n')
	if end < 0 {
		end = len(tmpl) - i - 1
	}
	return tmpl[:i+1] + text + tmpl[i+1+end:]
}

// compileTimeout bounds a compiler run.
const compileTimeout = 120 * time.Second

// runTool runs a compiler (trusted: it only reads the candidate) and returns its
// combined output.
func runTool(ctx context.Context, dir string, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, compileTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := proctree.Run(cmd)
	if ctx.Err() == context.DeadlineExceeded {
		return out.String(), fmt.Errorf("%s timed out after %s", filepath.Base(name), compileTimeout)
	}
	return out.String(), err
}

// cachedBuild returns the build output (a binary or a class directory) for a
// generated source, building it with build(target) only when no earlier build of
// the same source (and harness) is cached. The cache is content-addressed, under
// Options.WorkDir (or the temporary directory)/profile-cache; the inputs are not in
// the source (they are a data file), so the empty candidate of a signature and a
// candidate profiled again are built once. Failed builds are not cached.
func cachedBuild(opt Options, kind string, src []byte, build func(target string) (string, error)) (string, string, error) {
	sum := execute.Digest(12, kind, string(cppHeader)+string(javaHarness)+string(countHelperSrc)+string(src))
	base := opt.WorkDir
	if base == "" {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "profile-cache", kind+"-"+sum)
	target := filepath.Join(dir, "out")
	if _, err := os.Stat(target); err == nil {
		return target, "", nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), kind+"-tmp-")
	if err != nil {
		return "", "", err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", "", err
	}
	out, err := build(filepath.Join(tmp, "out"))
	if err != nil {
		os.RemoveAll(tmp)
		return "", out, err
	}
	if err := os.Rename(tmp, dir); err != nil {
		// another build of the same source won the race: use it
		os.RemoveAll(tmp)
		if _, serr := os.Stat(target); serr != nil {
			return "", "", err
		}
	}
	return target, out, nil
}

func trimMsg(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 2000 {
		s = s[:2000] + "..."
	}
	return s
}

// writeTestsJSONL writes one canonical argument array per line.
func writeTestsJSONL(path string, tests []schemas.Test) error {
	var b bytes.Buffer
	for _, t := range tests {
		b.WriteString(strings.ReplaceAll(t.Args, "\n", " "))
		b.WriteByte('\n')
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// ---- Python ----------------------------------------------------------------------------

type pyBuilder struct{}

var pyDefRe = regexp.MustCompile(`(?m)^(?:async\s+)?def\s+(\w+)\s*\(`)

func (pyBuilder) build(ctx context.Context, dir string, s *suite, c execute.Candidate, opt Options) (*program, string, error) {
	py, err := python.FindPython("")
	if err != nil {
		return nil, "", err
	}
	src := c.Code
	if strings.TrimSpace(c.Imports) != "" {
		src = c.Imports + "\n" + c.Code
	}
	files := map[string][]byte{"cand.py": []byte(src), "prof_runner.py": pyRunner}
	entry := c.Entry
	if entry == "" {
		// the last top-level def (the harness would need the ast module, and its
		// import time, to find it)
		if m := pyDefRe.FindAllStringSubmatch(src, -1); len(m) > 0 {
			entry = m[len(m)-1][1]
		}
	}
	meta, _ := json.Marshal(map[string]any{"entry": entry, "params": typeNames(s.types), "returns": s.returns})
	files["meta.json"] = meta
	helper := countHelper(ctx, opt)
	if opt.Count {
		// The counted run loads the counting helper and measures the allocation peak.
		meta, _ = json.Marshal(map[string]any{"entry": entry, "params": typeNames(s.types), "returns": s.returns,
			"helper": helper, "alloc": true})
		files["meta-count.json"] = meta
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return nil, "", err
		}
	}
	if err := writeTestsJSONL(filepath.Join(dir, "tests.jsonl"), s.tests); err != nil {
		return nil, "", err
	}
	// "Build": the parser checks the source once (it is not run).
	out, err := runTool(ctx, dir, py, "-S", "-B", "-c",
		"import ast,sys\ntry:\n ast.parse(open(sys.argv[1]).read(), sys.argv[1])\nexcept SyntaxError as e:\n print('SyntaxError: %s (line %s)' % (e.msg, e.lineno)); sys.exit(1)",
		filepath.Join(dir, "cand.py"))
	if err != nil {
		return nil, trimMsg(out), nil
	}
	p := &program{
		path:     py,
		args:     []string{"-S", "-B", filepath.Join(dir, "prof_runner.py"), filepath.Join(dir, "cand.py"), filepath.Join(dir, "tests.jsonl"), filepath.Join(dir, "meta.json")},
		readOnly: []string{dir},
	}
	if opt.Count {
		p.countArgs = append(append([]string{}, p.args[:len(p.args)-1]...), filepath.Join(dir, "meta-count.json"))
		if helper != "" {
			p.readOnly = append(p.readOnly, filepath.Dir(helper))
		}
	}
	return p, "", nil
}

func typeNames(ts []values.Type) []string {
	n := make([]string, len(ts))
	for i, t := range ts {
		n[i] = t.String()
	}
	return n
}

func (pyBuilder) empty(s *suite) execute.Candidate {
	def := map[values.Kind]string{values.Int: "0", values.Long: "0", values.Float: "0.0", values.Double: "0.0",
		values.Bool: "False", values.Char: "'a'", values.String: "''", values.Void: "None"}[s.ret.Base]
	if s.ret.Dims > 0 {
		def = "[]"
	}
	return execute.Candidate{ID: "empty", Entry: "profile_empty", Code: "def profile_empty(*args):\n    return " + def + "\n"}
}

// ---- Java ------------------------------------------------------------------------------

type javaBuilder struct{}

var (
	javaImportRe = regexp.MustCompile(`^\s*import\s+[\w.*\s]+;\s*$`)
	javaMethodRe = regexp.MustCompile(`(?m)^[ \t]*(?:(?:public|private|protected|static|final|synchronized|abstract|native|strictfp)\s+)*(?:<[^>]*>\s*)?[\w$][\w$<>\[\],.? ]*?\s+([\w$]+)\s*\([^;{]*\)\s*(?:throws\s+[\w$.,\s]+)?\{`)
)

// javaDefaultImports are the imports of TRACE's Java test scripts.
const javaDefaultImports = "import java.util.*;\nimport java.util.stream.*;\nimport java.lang.*;\nimport java.io.*;\nimport java.math.*;\n"

// lastJavaMethod returns the name of the last method declared at the top level of
// code (outside any class body), else of the last method anywhere.
func lastJavaMethod(code string) string {
	last := ""
	for _, m := range javaMethodRe.FindAllStringSubmatchIndex(code, -1) {
		name := code[m[2]:m[3]]
		switch name {
		case "if", "for", "while", "switch", "catch", "return", "new", "else", "main":
			continue
		}
		if depthAt(code, m[0]) == 0 {
			last = name
		}
	}
	if last == "" {
		for _, m := range javaMethodRe.FindAllStringSubmatch(code, -1) {
			if m[1] != "main" && m[1] != "if" && m[1] != "for" && m[1] != "while" && m[1] != "switch" && m[1] != "catch" {
				last = m[1]
			}
		}
	}
	return last
}

// depthAt is the brace depth at byte i of code, skipping strings, chars and comments.
func depthAt(code string, i int) int {
	d := 0
	for k := 0; k < i && k < len(code); k++ {
		switch c := code[k]; c {
		case '{':
			d++
		case '}':
			d--
		case '"', '\'':
			for k++; k < len(code) && code[k] != c; k++ {
				if code[k] == '\\' {
					k++
				}
			}
		case '/':
			if k+1 < len(code) && code[k+1] == '/' {
				for k < len(code) && code[k] != '\n' {
					k++
				}
			} else if k+1 < len(code) && code[k+1] == '*' {
				if e := strings.Index(code[k+2:], "*/"); e >= 0 {
					k += e + 3
				} else {
					k = len(code)
				}
			}
		}
	}
	return d
}

func javaTools() (java, javac, home string, err error) {
	javac, err = exec.LookPath("javac")
	if err != nil {
		return "", "", "", fmt.Errorf("profile: javac not found: %w", err)
	}
	real, err := filepath.EvalSymlinks(javac)
	if err != nil {
		return "", "", "", err
	}
	home = filepath.Dir(filepath.Dir(real))
	java = filepath.Join(home, "bin", "java")
	if _, err := os.Stat(java); err != nil {
		return "", "", "", fmt.Errorf("profile: java not found next to %s", real)
	}
	return java, real, home, nil
}

func (javaBuilder) build(ctx context.Context, dir string, s *suite, c execute.Candidate, opt Options) (*program, string, error) {
	java, javac, home, err := javaTools()
	if err != nil {
		return nil, "", err
	}
	var imports, body strings.Builder
	imports.WriteString(javaDefaultImports)
	for _, src := range []string{c.Imports, c.Code} {
		for _, line := range strings.Split(src, "\n") {
			if javaImportRe.MatchString(line) {
				imports.WriteString(strings.TrimSpace(line) + "\n")
				body.WriteString("\n")
				continue
			}
			if src == c.Code {
				body.WriteString(line + "\n")
			}
		}
	}
	entry := c.Entry
	if entry == "" {
		entry = lastJavaMethod(c.Code)
	}
	if entry == "" {
		return nil, "no method found in the candidate", nil
	}
	src := imports.String() + "class Cand {\n" + body.String() + "\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "Cand.java"), []byte(src), 0o644); err != nil {
		return nil, "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "ProfHarness.java"), javaHarness, 0o644); err != nil {
		return nil, "", err
	}
	if err := writeTestsJSONL(filepath.Join(dir, "tests.jsonl"), s.tests); err != nil {
		return nil, "", err
	}
	classes, out, err := cachedBuild(opt, "java", []byte(src), func(target string) (string, error) {
		if err := os.MkdirAll(target, 0o755); err != nil {
			return "", err
		}
		return buildJava(ctx, java, javac, dir, target)
	})
	if err != nil {
		return nil, trimMsg(out), nil
	}
	heap := opt.MemoryBytes - 512<<20
	if heap < 256<<20 {
		heap = 256 << 20
	}
	jvm := []string{"-XX:+UseSerialGC", "-XX:-UsePerfData", "-Xshare:auto", "-Xss16m",
		"-Xmx" + strconv.FormatInt(heap>>20, 10) + "m", "-XX:ErrorFile=/dev/null", "-Dfile.encoding=UTF-8"}
	ro := []string{dir, classes, home}
	if helper := countHelper(ctx, opt); helper != "" {
		jvm = append(jvm, "-Dtm.helper="+helper)
		ro = append(ro, filepath.Dir(helper))
	}
	main := append([]string{"-cp", classes, "ProfHarness", filepath.Join(dir, "tests.jsonl"), entry, s.returns}, typeNames(s.types)...)
	if _, err := os.Stat("/etc/java-17-openjdk"); err == nil {
		ro = append(ro, "/etc/java-17-openjdk")
	}
	p := &program{path: java, args: append(append([]string{}, jvm...), main...), readOnly: ro, noAS: true, ownThreads: true}
	if opt.Count {
		sum, err := treeSum(classes)
		if err != nil {
			return nil, "", err
		}
		p.artifact = sum + " " + entry // the harness calls entry by name
		// Counted: compilation synchronous (-Xbatch) and by C1 alone, without the
		// periodic safepoints. With C2 the same program's count moved by up to 0.8%
		// (C2's profile-driven decisions); with C1 alone by under 0.001%, at 40% of
		// the CPU (C2's compiler thread runs under valgrind too). -Xint is exact
		// but counts 8x the instructions of another cost model.
		args := countJVMArgs
		if opt.CountInterpreted {
			args = countJVMArgsInt
		}
		p.countArgs = append(append(append([]string{}, jvm...), args...), main...)
	}
	return p, "", nil
}

func javaType(t values.Type) string {
	b := map[values.Kind]string{values.Int: "int", values.Long: "long", values.Float: "float", values.Double: "double",
		values.Bool: "boolean", values.Char: "char", values.String: "String", values.Void: "void"}[t.Base]
	return b + strings.Repeat("[]", t.Dims)
}

func (javaBuilder) empty(s *suite) execute.Candidate {
	var ps []string
	for i, t := range s.types {
		ps = append(ps, fmt.Sprintf("%s a%d", javaType(t), i))
	}
	ret := ""
	if s.ret.Base != values.Void {
		def := map[values.Kind]string{values.Int: "0", values.Long: "0L", values.Float: "0f", values.Double: "0.0",
			values.Bool: "false", values.Char: "'a'", values.String: `""`}[s.ret.Base]
		if s.ret.Dims > 0 {
			def = "null"
		}
		ret = "return " + def + ";"
	}
	return execute.Candidate{ID: "empty", Entry: "profileEmpty",
		Code: fmt.Sprintf("static %s profileEmpty(%s) { %s }\n", javaType(s.ret), strings.Join(ps, ", "), ret)}
}

// ---- C++ -------------------------------------------------------------------------------

type cppBuilder struct{}

var includeRe = regexp.MustCompile(`^\s*#\s*include\b`)

// cppFlags are the flags of every profiled C++ build (and of its precompiled header,
// which GCC uses only with the same flags).
var cppFlags = []string{"-std=gnu++17", "-O2", "-w", "-pthread"}

var pchMu sync.Mutex

// cppPCH returns a directory holding prof.h and its precompiled prof.h.gch, built
// once per header and WorkDir (cached like the programs), or "" when it cannot be
// built (the programs are then built from the header's text). A build of
// bits/stdc++.h at -O2 costs about 1.7 s of CPU without it and 0.3 s with it; the
// candidate's code is the same (the disassembly of a program built both ways is
// identical).
func cppPCH(ctx context.Context, cxx string, opt Options) string {
	pchMu.Lock() // one build of the header at a time, not one per worker
	defer pchMu.Unlock()
	target, _, err := cachedBuild(opt, "cpp-pch", []byte(strings.Join(cppFlags, " ")), func(target string) (string, error) {
		dir := filepath.Dir(target)
		if err := os.WriteFile(filepath.Join(dir, "prof.h"), cppHeader, 0o644); err != nil {
			return "", err
		}
		out, err := runTool(ctx, dir, cxx, append(append([]string{}, cppFlags...), "-x", "c++-header", "prof.h", "-o", "prof.h.gch")...)
		if err != nil {
			return out, err
		}
		return out, os.WriteFile(target, nil, 0o644)
	})
	if err != nil {
		return ""
	}
	return filepath.Dir(target)
}

func (cppBuilder) build(ctx context.Context, dir string, s *suite, c execute.Candidate, opt Options) (*program, string, error) {
	cxx, err := exec.LookPath("g++")
	if err != nil {
		return nil, "", fmt.Errorf("profile: g++ not found: %w", err)
	}
	var incs, body strings.Builder
	for _, src := range []string{c.Imports, c.Code} {
		for _, line := range strings.Split(src, "\n") {
			if includeRe.MatchString(line) {
				incs.WriteString(strings.TrimSpace(line) + "\n")
				body.WriteString("\n")
				continue
			}
			body.WriteString(line + "\n")
		}
	}
	entry := c.Entry
	if entry == "" {
		entry = cpp.LastFunction(c.Imports + "\n" + c.Code)
	}
	if entry == "" {
		return nil, "no function found in the candidate", nil
	}
	var w strings.Builder
	w.WriteString("#include \"prof.h\"\n__attribute__((init_priority(101))) static th::Redirect redirect_;\n" + incs.String() + "namespace cand {\nusing namespace std;\n" + body.String() + "\n}  // namespace cand\n")
	w.WriteString("struct Args {\n")
	var call []string
	for i, t := range s.types {
		fmt.Fprintf(&w, "  %s p%d{};\n", cpp.HolderType(t), i)
		call = append(call, fmt.Sprintf("a.p%d", i))
	}
	w.WriteString("};\nstatic std::vector<Args> tests;\n")
	w.WriteString("static void run() {\n  th::calls_begin();\n  for (int t = 0; t < (int)tests.size(); ++t) {\n    Args& a = tests[t];\n    try {\n      std::string o;\n")
	callExpr := fmt.Sprintf("cand::%s(%s)", entry, strings.Join(call, ", "))
	if s.ret.Base == values.Void {
		fmt.Fprintf(&w, "      %s;\n      o += '[';\n", callExpr)
		first := true
		for i, t := range s.types {
			if t.Dims == 0 {
				continue
			}
			if !first {
				w.WriteString("      o += ',';\n")
			}
			first = false
			fmt.Fprintf(&w, "      th::pv<%s, %d>(o, a.p%d.cur());\n", cpp.KindConst(t.Base), t.Dims, i)
		}
		w.WriteString("      o += ']';\n")
	} else {
		fmt.Fprintf(&w, "      auto&& r = %s;\n      th::pv<%s, %d>(o, r);\n", callExpr, cpp.KindConst(s.ret.Base), s.ret.Dims)
	}
	w.WriteString("      th::ok(t, o);\n    }\n    TH_CATCH(t)\n  }\n  th::calls_end();\n}\n")
	w.WriteString("int main(int argc, char** argv) {\n  if (argc < 2) return 2;\n  th::Reader rd(argv[1]);\n  int n = (int)rd.integer();\n  tests.resize(n);\n  for (auto& a : tests) {\n")
	for i := range s.types {
		fmt.Fprintf(&w, "    th::fill(rd, a.p%d);\n", i)
	}
	w.WriteString("  }\n  th::write_all(\"{\\\"c\\\":0,\\\"compile\\\":\\\"ok\\\"}\\n\");\n  th::run_on_big_stack(run, (size_t)1 << 29);\n  th::write_all(\"{\\\"c\\\":0,\\\"done\\\":true,\\\"rss_kb\\\":\" + std::to_string(th::peak_rss_kb()) + \",\\\"calls_ns\\\":\" + std::to_string(th::calls_ns) + \",\\\"alloc_peak\\\":\" + std::to_string(th::alloc_peak) + \"}\\n\");\n  _exit(0);\n}\n")

	data, err := cppData(s)
	if err != nil {
		return nil, "", fmt.Errorf("profile: tests: %w", err)
	}
	files := map[string][]byte{"prog.cpp": []byte(w.String()), "data.txt": data}
	args := append([]string{}, cppFlags...)
	if pch := cppPCH(ctx, cxx, opt); pch != "" {
		// prof.h is found (with its .gch) through -I, not next to prog.cpp.
		args = append(args, "-I", pch)
	} else {
		files["prof.h"] = cppHeader
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			return nil, "", err
		}
	}
	bin, out, err := cachedBuild(opt, "cpp", []byte(w.String()), func(target string) (string, error) {
		return runTool(ctx, dir, cxx, append(args, "-o", target, "prog.cpp")...)
	})
	if err != nil {
		return nil, trimMsg(out), nil
	}
	p := &program{path: bin, args: []string{filepath.Join(dir, "data.txt")}, readOnly: []string{dir, filepath.Dir(bin)}}
	p.countArgs = p.args
	if opt.Count {
		if p.artifact, err = treeSum(bin); err != nil {
			return nil, "", err
		}
	}
	return p, "", nil
}

func (cppBuilder) empty(s *suite) execute.Candidate {
	var ps []string
	for i, t := range s.types {
		var pt string
		switch {
		case t.Dims > 0:
			pt = cppVector(t) + "&"
		case t.Base == values.String:
			pt = "std::string&"
		default:
			pt = cpp.CType(t.Base)
		}
		ps = append(ps, fmt.Sprintf("%s a%d", pt, i))
	}
	ret, body := "void", ""
	if s.ret.Base != values.Void {
		ret = cppVector(s.ret)
		body = "return {};"
	}
	return execute.Candidate{ID: "empty", Entry: "profile_empty",
		Code: fmt.Sprintf("%s profile_empty(%s) { %s }\n", ret, strings.Join(ps, ", "), body)}
}

// cppVector is the C++ type of a value of type t: its element type in t.Dims vectors.
func cppVector(t values.Type) string {
	s := cpp.CType(t.Base)
	for i := 0; i < t.Dims; i++ {
		s = "std::vector<" + s + ">"
	}
	return s
}

// cppData writes the tests in the token format th::Reader reads.
func cppData(s *suite) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d\n", len(s.tests))
	for _, t := range s.tests {
		d := json.NewDecoder(strings.NewReader(t.Args))
		d.UseNumber()
		var args []any
		if err := d.Decode(&args); err != nil {
			return nil, fmt.Errorf("test %d: %v", t.Index, err)
		}
		if len(args) != len(s.types) {
			return nil, fmt.Errorf("test %d: %d arguments for %d parameters", t.Index, len(args), len(s.types))
		}
		for i, ty := range s.types {
			if err := token(&b, ty, args[i]); err != nil {
				return nil, fmt.Errorf("test %d argument %d: %v", t.Index, i, err)
			}
		}
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

func token(b *bytes.Buffer, t values.Type, v any) error {
	if t.Dims > 0 {
		if s, ok := v.(string); ok && t.Dims == 1 && t.Base == values.Char {
			v = charList(s)
		}
		if v == nil {
			b.WriteString("0 ")
			return nil
		}
		arr, ok := v.([]any)
		if !ok {
			return fmt.Errorf("want %s, got %T", t, v)
		}
		fmt.Fprintf(b, "%d ", len(arr))
		for _, e := range arr {
			if err := token(b, t.Elem(), e); err != nil {
				return err
			}
		}
		return nil
	}
	switch t.Base {
	case values.Int, values.Long:
		n, ok := new(big.Int).SetString(fmt.Sprint(v), 10)
		if !ok {
			return fmt.Errorf("not an integer: %v", v)
		}
		if !n.IsInt64() {
			return fmt.Errorf("integer %s does not fit in 64 bits", n)
		}
		i := n.Int64()
		if t.Base == values.Int {
			i = int64(int32(i)) // as a C++ int would hold it
		}
		fmt.Fprintf(b, "%d ", i)
	case values.Float, values.Double:
		var f float64
		switch x := v.(type) {
		case json.Number:
			var err error
			if f, err = strconv.ParseFloat(string(x), 64); err != nil {
				return err
			}
		case string:
			switch x {
			case "NaN":
				f = math.NaN()
			case "Infinity":
				f = math.Inf(1)
			case "-Infinity":
				f = math.Inf(-1)
			default:
				return fmt.Errorf("not a number: %q", x)
			}
		default:
			return fmt.Errorf("not a number: %v", v)
		}
		switch {
		case math.IsNaN(f):
			b.WriteString("nan ")
		case math.IsInf(f, 1):
			b.WriteString("inf ")
		case math.IsInf(f, -1):
			b.WriteString("-inf ")
		default:
			b.WriteString(strconv.FormatFloat(f, 'x', -1, 64) + " ")
		}
	case values.Bool:
		if x, _ := v.(bool); x {
			b.WriteString("1 ")
		} else {
			b.WriteString("0 ")
		}
	case values.Char:
		s, _ := v.(string)
		r := []rune(s)
		if len(r) != 1 {
			return fmt.Errorf("not a char: %v", v)
		}
		fmt.Fprintf(b, "%d ", int64(r[0])&0xff)
	case values.String:
		s, _ := v.(string)
		fmt.Fprintf(b, "%d %s ", len(s), s)
	default:
		return fmt.Errorf("unsupported type %s", t)
	}
	return nil
}

func charList(s string) []any {
	l := make([]any, 0, len(s))
	for _, r := range s {
		l = append(l, string(r))
	}
	return l
}

// treeSum is a hash of the regular files under root (or of root, a file): their
// paths relative to root and their bytes, in lexical order.
func treeSum(root string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", rel, len(data))
		h.Write(data)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil)), err
}
