package scriptcheck

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/transpile/javasrc"
)

// TransCoder-test's Java scripts: imports (java.util.*, java.util.stream.*,
// java.lang.*, javafx.util.Pair), "public class <ID>{", f_gold, "//TOFILL", and a
// "public static void main(String args[])" that prints "#Results:<passed>, <total>".

const javaMarker = "//TOFILL"

var (
	javaClassDecl = regexp.MustCompile(`(?m)^\s*(?:public\s+)?class\s+\w+\s*\{`)
	// an import line, with perhaps a comment after it (javac takes it)
	javaImport  = regexp.MustCompile(`(?m)^\s*import\s+(static\s+)?[\w.]+(\s*\.\s*\*)?\s*;[ \t]*(//.*)?$`)
	javaPackage = regexp.MustCompile(`(?m)^\s*package\s+[\w.]+\s*;[ \t]*$`)
	javaMain    = regexp.MustCompile(`public\s+static\s+void\s+main\s*\(\s*String\s*(\[\s*\]\s*\w+|\w+\s*\[\s*\]|\.\.\.\s*\w+)\s*\)`)
	// a method header: modifiers, type parameters, return type, name, parameters
	javaMethod = regexp.MustCompile(`((?:(?:public|private|protected|static|final|synchronized|strictfp)\s+)*)(?:<[^>{};]*>\s*)?[\w$.]+(?:\s*<[^{};()]*>)?(?:\s*\[\s*\])*\s+([\w$]+)\s*\(([^()]*)\)\s*(?:throws\s+[\w$.,\s]+)?\{`)
	javaGold   = regexp.MustCompile(`\bf_gold\s*\(([^()]*)\)\s*(?:throws\s+[\w$.,\s]+)?\{`)
)

// blankJava returns code with its comments, string and char literals blanked out
// (same length, newlines kept), so that braces and names in them are not read.
func blankJava(code string) string {
	b := []byte(code)
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '/':
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			j := strings.Index(code[i+2:], "*/")
			end := len(b)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			for ; i < end; i++ {
				if b[i] != '\n' {
					b[i] = ' '
				}
			}
			i--
		case b[i] == '"' || b[i] == '\'':
			q := b[i]
			i++
			for ; i < len(b) && b[i] != q && b[i] != '\n'; i++ {
				if b[i] == '\\' && i+1 < len(b) {
					b[i] = ' '
					i++
				}
				b[i] = ' '
			}
		}
	}
	return string(b)
}

// javaArity counts the parameters of a parameter list (commas outside <>).
func javaArity(params string) int {
	if strings.TrimSpace(params) == "" {
		return 0
	}
	return len(javasrc.SplitTop(params))
}

type javaMethodInfo struct {
	name     string
	static   bool
	arity    int
	from, to int // the header's span in the code
}

// topMethods lists the methods declared at the top level of a class body.
func topMethods(code string) []javaMethodInfo {
	bl := blankJava(code)
	depth := make([]int, len(bl)+1)
	d := 0
	for i := 0; i < len(bl); i++ {
		depth[i] = d
		switch bl[i] {
		case '{':
			d++
		case '}':
			d--
		}
	}
	var out []javaMethodInfo
	for _, m := range javaMethod.FindAllStringSubmatchIndex(bl, -1) {
		if depth[m[0]] != 0 {
			continue
		}
		name := bl[m[4]:m[5]]
		switch name {
		case "if", "while", "for", "switch", "catch", "synchronized", "return", "new":
			continue
		}
		out = append(out, javaMethodInfo{name: name, static: strings.Contains(bl[m[2]:m[3]], "static"),
			arity: javaArity(bl[m[6]:m[7]]), from: m[0], to: m[1]})
	}
	return out
}

// JavaEntry is the method the Java engine calls in a translation without a named
// entry (Runner.resolve): the last one with the most points, two for the gold's
// arity and one for static; main(String[]) only when it is the only method.
func JavaEntry(code string, arity int) string {
	ms := topMethods(code)
	best, pick := -1, ""
	for _, m := range ms {
		if m.name == "main" && m.arity == 1 && len(ms) > 1 {
			continue
		}
		score := 0
		if m.arity == arity {
			score += 2
		}
		if m.static {
			score++
		}
		if score >= best {
			best, pick = score, m.name
		}
	}
	return pick
}

// GoldArity is the number of parameters of the script's f_gold.
func GoldArity(script string) int {
	m := javaGold.FindStringSubmatch(blankJava(script))
	if m == nil {
		return -1
	}
	return javaArity(m[1])
}

// splitJavaImports moves import lines out of a translation's code (as the Java
// engine does) and drops package declarations.
func splitJavaImports(code, imports string) (string, []string) {
	var out []string
	for _, l := range strings.Split(imports, "\n") {
		if l = strings.TrimSpace(l); javaImport.MatchString(l) {
			out = append(out, importOnly(l))
		}
	}
	code = javaPackage.ReplaceAllString(code, "")
	code = javaImport.ReplaceAllStringFunc(code, func(l string) string {
		out = append(out, importOnly(l))
		return ""
	})
	return code, out
}

// importOnly is an import line without its trailing comment.
func importOnly(l string) string {
	l = strings.TrimSpace(l)
	if i := strings.Index(l, ";"); i >= 0 {
		l = l[:i+1]
	}
	return l
}

// ForeignImports reports whether a translation's import section holds lines that are
// neither Java imports nor comments (a C++ #include, "using namespace std;"): the
// script takes only its import lines, our harness puts the section before the class
// as it is, and javac rejects it.
func ForeignImports(imports string) bool {
	for _, l := range strings.Split(blankJava(imports), "\n") {
		if l = strings.TrimSpace(l); l != "" && !javaImport.MatchString(l) && !javaPackage.MatchString(l) {
			return true
		}
	}
	return false
}

// ErrNoTopMethod is FillJava's error for a translation with no method at its top
// level (its methods are inside a class it declares).
const ErrNoTopMethod = "no method at the top level of the translation"

// FillJava puts a Java translation (methods of a class body, as the recorded
// translations are) in the script at its //TOFILL marker, its entry renamed to
// f_filled (as TransCoder's evaluation does), and the imports it needs (its own, and
// import lines in its code) after the script's. entry, when empty, is the method the
// Java engine would call (JavaEntry, with f_gold's arity).
func FillJava(script, imports, code, entry string) (string, error) {
	i := strings.Index(script, javaMarker)
	if i < 0 {
		return "", fmt.Errorf("no %s marker in the script", javaMarker)
	}
	cls := javaClassDecl.FindStringIndex(script)
	if cls == nil || cls[0] > i {
		return "", fmt.Errorf("no class before the %s marker", javaMarker)
	}
	code, imps := splitJavaImports(code, imports)
	if entry == "" {
		entry = JavaEntry(code, GoldArity(script))
	}
	if entry == "" {
		// the engine then calls a method of a nested class (Runner.methods); the script's
		// main cannot call it unqualified
		return "", fmt.Errorf("%s", ErrNoTopMethod)
	}
	if entry != "f_filled" {
		code = regexp.MustCompile(`\b`+regexp.QuoteMeta(entry)+`\b`).ReplaceAllString(code, "f_filled")
	}
	have := map[string]bool{}
	for _, l := range javaImport.FindAllString(script[:cls[0]], -1) {
		have[normImport(l)] = true
	}
	var add []string
	for _, l := range imps {
		if k := normImport(l); !have[k] {
			have[k] = true
			add = append(add, l)
		}
	}
	head := script[:cls[0]]
	if len(add) > 0 {
		head = strings.TrimRight(head, "\n") + "\n" + strings.Join(add, "\n") + "\n"
	}
	return head + script[cls[0]:i] + strings.TrimSpace(code) + "\n" + script[i+len(javaMarker):], nil
}

func normImport(l string) string {
	return strings.Join(strings.Fields(strings.NewReplacer(".", " . ", ";", " ; ").Replace(l)), " ")
}

// javaPrelude lists, per package that the Java engine imports for every candidate
// (Runner.COMMON_IMPORTS) but TransCoder's scripts do not, the classes a translation
// is likely to name. A script naming one without importing it does not compile.
var javaPrelude = map[string][]string{
	"java.math": {"BigInteger", "BigDecimal", "MathContext", "RoundingMode"},
	"java.util.function": {"Function", "BiFunction", "Supplier", "Consumer", "BiConsumer", "Predicate",
		"BiPredicate", "UnaryOperator", "BinaryOperator", "IntBinaryOperator", "IntUnaryOperator",
		"IntPredicate", "IntFunction", "ToIntFunction", "ToIntBiFunction", "IntConsumer", "IntSupplier",
		"LongBinaryOperator", "LongUnaryOperator", "ToLongFunction", "DoubleBinaryOperator",
		"DoubleUnaryOperator", "ToDoubleFunction", "BooleanSupplier", "LongFunction", "DoubleFunction"},
	"java.io": {"IOException", "BufferedReader", "InputStreamReader", "PrintWriter", "PrintStream",
		"Serializable", "UncheckedIOException", "StringReader", "StringWriter", "BufferedWriter",
		"OutputStreamWriter", "InputStream", "OutputStream", "File", "FileReader", "FileWriter"},
}

// MissingImport names a class of the Java engine's prelude (java.math, java.io,
// java.util.function) that the filled script uses without importing it: javac
// rejects such a script ("cannot find symbol"), while our harness compiles the
// translation. "" when there is none.
func MissingImport(filled string) string {
	bl := blankJava(filled)
	imps := map[string]bool{}
	for _, l := range javaImport.FindAllString(filled, -1) {
		k := strings.ReplaceAll(strings.TrimSuffix(strings.TrimSpace(l), ";"), " ", "")
		imps[strings.TrimPrefix(strings.TrimPrefix(k, "import"), "static")] = true
	}
	for pkg, names := range javaPrelude {
		if imps[pkg+".*"] {
			continue
		}
		for _, n := range names {
			if imps[pkg+"."+n] || declares(bl, n) {
				continue
			}
			re := regexp.MustCompile(`(^|[^\w$.])` + n + `\b`)
			if re.MatchString(bl) {
				return pkg + "." + n
			}
		}
	}
	return ""
}

// declares: the code declares a type of that name (which shadows the import).
func declares(code, name string) bool {
	return regexp.MustCompile(`\b(class|interface|enum|record)\s+` + name + `\b`).MatchString(code)
}

// scriptEntry is the method RunJava adds to a script's class: it runs main with its
// "#Results" line (System.out.println in main) captured, and returns the line.
const scriptEntry = "__scriptcheck"

const javaHelpers = `
static StringBuilder __sc_out;
static void __sc_println(Object o) { __sc_out.append(String.valueOf(o)).append('\n'); }
static void __sc_print(Object o) { __sc_out.append(String.valueOf(o)); }
static String ` + scriptEntry + `() {
  __sc_out = new StringBuilder();
  main(new String[0]);
  return __sc_out.toString();
}
@SuppressWarnings("unchecked")
static <T> T __sc_copy(T x) {
  if (x == null || !x.getClass().isArray()) return x;
  int n = java.lang.reflect.Array.getLength(x);
  Object c = java.lang.reflect.Array.newInstance(x.getClass().getComponentType(), n);
  for (int i = 0; i < n; i++) java.lang.reflect.Array.set(c, i, __sc_copy(java.lang.reflect.Array.get(x, i)));
  return (T) c;
}
`

// javaCandidate turns a filled script into a candidate of the Java engine: its
// imports, and its class body (the engine names the class C<i>) with main's
// System.out.print calls captured and an entry method that runs main.
func javaCandidate(filled string) (execute.Candidate, error) {
	cls := javaClassDecl.FindStringIndex(filled)
	if cls == nil {
		return execute.Candidate{}, fmt.Errorf("no class in the script")
	}
	end := strings.LastIndexByte(filled, '}')
	if end < cls[1] {
		return execute.Candidate{}, fmt.Errorf("the script's class does not end")
	}
	body := filled[cls[1]:end]
	m := javaMain.FindStringIndex(body)
	if m == nil {
		return execute.Candidate{}, fmt.Errorf("no main in the script")
	}
	main := strings.NewReplacer("System.out.println(", "__sc_println(", "System.out.print(", "__sc_print(").Replace(body[m[0]:])
	imports := strings.Join(javaImport.FindAllString(filled[:cls[0]], -1), "\n")
	return execute.Candidate{Code: body[:m[0]] + main + "\n" + javaHelpers, Imports: imports, Entry: scriptEntry}, nil
}

// RunJava runs filled Java scripts as one batch of the Java engine
// (transforms/execute/java, r.Java): each script is its own candidate, compiled as its
// own class and run in its own class loader, so that one script's compile error,
// exception, timeout or static state does not reach another's verdict; the engine's
// worker JVM runs in the sandbox. A script using a class that only the engine's
// prelude imports (MissingImport) is not run: javac would reject it.
func (r Runner) RunJava(ctx context.Context, filled []string) ([]Outcome, error) {
	out := make([]Outcome, len(filled))
	if r.Java == nil {
		return nil, fmt.Errorf("scriptcheck: no Java engine")
	}
	lim := r.Limits
	if lim.CPUTime == 0 {
		lim.CPUTime, lim.WallTime = 20*time.Second, 60*time.Second
	}
	b := execute.Batch{ProblemID: "scriptcheck", Lang: schemas.Java, Returns: "String",
		Tests: []schemas.Test{{Args: "[]"}}, Limits: lim}
	var idx, mainLine []int
	for i, f := range filled {
		if n := MissingImport(f); n != "" {
			out[i] = Outcome{Status: schemas.StatusCompileError, Detail: MissingImportDetail + n}
			continue
		}
		c, err := javaCandidate(f)
		if err != nil {
			out[i] = Outcome{Status: schemas.StatusCompileError, Detail: err.Error()}
			continue
		}
		c.ID = fmt.Sprintf("script%d", i)
		b.Candidates = append(b.Candidates, c)
		idx = append(idx, i)
		// the engine numbers compile errors' lines from the code's first line
		mainLine = append(mainLine, strings.Count(c.Code[:javaMain.FindStringIndex(c.Code)[0]], "\n")+1)
	}
	if len(idx) == 0 {
		return out, nil
	}
	res, err := r.Java.Run(ctx, b)
	if err != nil {
		return nil, err
	}
	if len(res) != len(idx) {
		return nil, fmt.Errorf("scriptcheck: the Java engine returned %d results for %d scripts", len(res), len(idx))
	}
	for k, i := range idx {
		out[i] = javaOutcome(res[k], mainLine[k])
	}
	return out, nil
}

// MissingImportDetail starts the detail of a script that names a class it does not import.
const MissingImportDetail = "cannot find symbol (the script does not import it): "

// InMain starts the detail of a compile error in the script's main (its call of
// f_filled or its comparison), InTranslation one before main (in the translation,
// since the gold compiles).
const (
	InMain        = "in main: "
	InTranslation = "in the translation: "
)

var compileLine = regexp.MustCompile(`^line (-?\d+): `)

func javaOutcome(r execute.Result, mainLine int) Outcome {
	if r.Status == schemas.StatusCompileError {
		d := firstLine(r.Detail)
		if m := compileLine.FindStringSubmatch(d); m != nil {
			n, _ := strconv.Atoi(m[1])
			where := InTranslation
			if n >= mainLine {
				where = InMain
			}
			d = where + d[len(m[0]):]
		}
		return Outcome{Status: r.Status, Detail: d}
	}
	return ranOutcome(r)
}

// ranOutcome reads the engine's result of a script that compiled: its one test's
// output is main's "#Results" line (Java and C++ scripts alike).
func ranOutcome(r execute.Result) Outcome {
	if len(r.Tests) == 0 {
		return Outcome{Status: r.Status, Detail: firstLine(r.Detail)}
	}
	t := r.Tests[0]
	if t.Status != schemas.StatusOK {
		d := t.Error
		if d == "" {
			d = r.Detail
		}
		return Outcome{Status: t.Status, Detail: firstLine(d)}
	}
	var s string
	if json.Unmarshal([]byte(t.Output), &s) != nil {
		s = t.Output
	}
	if p, tot, ok := Parse(s); ok {
		return Outcome{Ran: true, Passed: p, Total: tot}
	}
	return Outcome{Status: schemas.StatusRuntimeError, Detail: "no #Results line"}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 300 {
		s = s[:300]
	}
	return s
}

// javaArg matches the arguments a Java script passes to f_filled and f_gold.
var javaArg = regexp.MustCompile(`\b(param\d+)\.get\(i\)`)

// javaParamDecl matches the declaration of a script's argument list: its element type
// and its name.
var javaParamDecl = regexp.MustCompile(`List<(.+?)>\s+(param\d+)\s*=`)

// IsolateJava gives f_filled and f_gold each its own deep copy of the array arguments
// in the script's comparisons, so that a candidate that mutates an argument cannot
// change what the gold then reads. ok is false when no comparison passes an array. The
// copy is a helper that RunJava adds to the script's class: the result runs only
// through RunJava.
func IsolateJava(filled string) (string, bool) {
	m := javaMain.FindStringIndex(filled)
	if m == nil {
		return filled, false
	}
	// only the arrays: copying the other arguments changes nothing, and a rerun of a
	// nondeterministic script could then pass for a mutation
	arrays := map[string]bool{}
	for _, d := range javaParamDecl.FindAllStringSubmatch(filled[m[0]:], -1) {
		if strings.Contains(d[1], "[") {
			arrays[d[2]] = true
		}
	}
	lines := strings.Split(filled[m[0]:], "\n")
	ok := false
	for i, l := range lines {
		if strings.Contains(l, "f_filled(") && strings.Contains(l, "f_gold(") {
			lines[i] = javaArg.ReplaceAllStringFunc(l, func(a string) string {
				if !arrays[javaArg.FindStringSubmatch(a)[1]] {
					return a
				}
				return "__sc_copy(" + a + ")"
			})
			ok = ok || lines[i] != l
		}
	}
	if !ok {
		return filled, false
	}
	return filled[:m[0]] + strings.Join(lines, "\n"), true
}
