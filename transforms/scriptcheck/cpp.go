package scriptcheck

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"transmute/io/corpus"
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/execute/cpp"
)

// TransCoder-test's C++ scripts: #include lines (<bits/stdc++.h> among them), "using
// namespace std;", f_gold, "//TOFILL", and an "int main()" that compares
// f_filled(param0[i], ...) == f_gold(param0[i], ...) (arrays as &param0[i].front())
// and writes "#Results: <passed>, <total>" to cout.

const cppMarker = "//TOFILL"

var (
	// the script's main, the last one in the file (a translation may define its own)
	cppMain = regexp.MustCompile(`\bint\s+main\s*\(\s*(void)?\s*\)\s*\{`)
	// a definition of main in a translation: the script's own then is a redefinition
	cppAnyMain = regexp.MustCompile(`\bmain\s*\([^()]*\)\s*\{`)
)

// FillCpp puts a C++ translation (its import section, #includes and "using"
// lines, then its code) in the script at its //TOFILL marker, its entry renamed to
// f_filled, as TransCoder's evaluation does. entry, when empty, is the function the
// C++ engine would call (cpp.LastFunction: the last top-level function, main
// excepted).
func FillCpp(script, imports, code, entry string) (string, error) {
	i := strings.Index(script, cppMarker)
	if i < 0 {
		return "", fmt.Errorf("no %s marker in the script", cppMarker)
	}
	if entry == "" {
		entry = cpp.LastFunction(imports + "\n" + code)
	}
	if entry == "" {
		return "", fmt.Errorf("no function definition found in the translation")
	}
	body := strings.TrimSpace(imports) + "\n" + code
	if entry != "f_filled" {
		body = regexp.MustCompile(`\b`+regexp.QuoteMeta(entry)+`\b`).ReplaceAllString(body, "f_filled")
	}
	return script[:i] + strings.TrimSpace(body) + "\n" + script[i+len(cppMarker):], nil
}

// scriptMain renames the script's main (the last "int main()" of the filled script)
// to __sc_main and returns the code and where main starts in it, or ok false.
func scriptMain(filled string) (string, int, bool) {
	ms := cppMain.FindAllStringIndex(filled, -1)
	if len(ms) == 0 {
		return filled, 0, false
	}
	m := ms[len(ms)-1]
	return filled[:m[0]] + "int __sc_main() {" + filled[m[1]:], m[0], true
}

// cppEntry runs the script's main with cout captured, and returns what it wrote.
const cppEntry = `
std::string __scriptcheck() {
  std::ostringstream __sc_os;
  std::streambuf* __sc_old = std::cout.rdbuf(__sc_os.rdbuf());
  struct __sc_restore { std::streambuf* o; ~__sc_restore() { std::cout.rdbuf(o); } } __sc_r{__sc_old};
  __sc_main();
  std::cout.flush();
  return __sc_os.str();
}
`

// ErrCppMainTwice is RunCpp's detail for a translation that defines main: the
// filled script then defines main twice and does not compile.
const ErrCppMainTwice = "the translation defines main: the filled script defines it twice"

// RunCpp runs filled C++ scripts as one batch of the C++ engine
// (transforms/execute/cpp, r.Cpp): each script is a candidate of its own (the engine
// puts it in its own namespace, one translation unit for the batch, and sets apart a
// script that does not compile, so that it fails alone), its main renamed and called
// by an added entry that captures cout; the program runs in the sandbox, each script
// in its own child process. The engine's namespace changes name lookup against the
// global scope the benchmark compiles the script at: CheckCppGlobal tells apart the
// scripts that would not compile there.
func (r Runner) RunCpp(ctx context.Context, filled []string) ([]Outcome, error) {
	out := make([]Outcome, len(filled))
	if r.Cpp == nil {
		return nil, fmt.Errorf("scriptcheck: no C++ engine")
	}
	lim := r.Limits
	if lim.CPUTime == 0 {
		lim.CPUTime, lim.WallTime = 20*time.Second, 60*time.Second
	}
	b := execute.Batch{ProblemID: "scriptcheck", Lang: schemas.Cpp, Returns: "String",
		Tests: []schemas.Test{{Args: "[]"}}, Limits: lim}
	var idx []int
	var mains []string
	for i, f := range filled {
		code, at, ok := scriptMain(f)
		if !ok {
			out[i] = Outcome{Status: schemas.StatusCompileError, Detail: "no main in the script"}
			continue
		}
		if cppAnyMain.MatchString(blankJava(code)) { // C++ comments and literals read as Java's
			out[i] = Outcome{Status: schemas.StatusCompileError, Detail: ErrCppMainTwice}
			continue
		}
		b.Candidates = append(b.Candidates, execute.Candidate{ID: fmt.Sprintf("script%d", i),
			Code: code + cppEntry, Entry: "__scriptcheck"})
		idx = append(idx, i)
		mains = append(mains, code[at:])
	}
	if len(idx) == 0 {
		return out, nil
	}
	res, err := r.Cpp.Run(ctx, b)
	if err != nil {
		return nil, err
	}
	if len(res) != len(idx) {
		return nil, fmt.Errorf("scriptcheck: the C++ engine returned %d results for %d scripts", len(res), len(idx))
	}
	for k, i := range idx {
		out[i] = cppOutcome(res[k], mains[k])
	}
	return out, nil
}

// cppErrorLine is an error of g++ in the unit, and the source line it quotes under it.
var cppErrorLine = regexp.MustCompile(`(?m)^tu\.cpp:\d+:(?:\d+:)?\s+(?:fatal )?error:\s*(.*)\n(?:\s*\d+\s*\|(.*))?`)

// cppOutcome reads the engine's result of a script; main is the script's main (from
// its renamed header on), to tell an error there from one in the translation.
func cppOutcome(r execute.Result, main string) Outcome {
	if r.Status == schemas.StatusCompileError {
		return Outcome{Status: r.Status, Detail: cppCompileDetail(r.Detail, main)}
	}
	return ranOutcome(r)
}

// cppCompileDetail is the first error of g++'s output, said to be in main (the call
// of f_filled, the comparison) or in the translation (the gold compiles). The unit's
// line numbers are not the script's: the source line g++ quotes under the error
// tells, when it is a line of main.
func cppCompileDetail(msg, main string) string {
	m := cppErrorLine.FindStringSubmatch(msg)
	if m == nil {
		return firstLine(msg)
	}
	if q := strings.TrimSpace(m[2]); q != "" && strings.Contains(main, q) {
		return InMain + m[1]
	}
	return InTranslation + m[1]
}

// cppCall matches the start of a call of f_filled or f_gold in a script's main.
var cppCall = regexp.MustCompile(`\b(f_filled|f_gold)\s*\(`)

var cppParam = regexp.MustCompile(`\bparam(\d+)\b`)

// IsolateCpp gives f_filled and f_gold each its own copy of the script's argument
// vectors in the comparison (each call becomes a lambda that copies the vectors it
// reads, param0..., and calls with the copies), so that a candidate that mutates an
// argument (through a reference or the array's pointer) cannot change what the gold
// then reads. ok is false when no comparison calls both.
func IsolateCpp(filled string) (string, bool) {
	ms := cppMain.FindAllStringIndex(filled, -1)
	if len(ms) == 0 {
		return filled, false
	}
	start := ms[len(ms)-1][0]
	lines := strings.Split(filled[start:], "\n")
	ok := false
	for i, l := range lines {
		if !strings.Contains(l, "f_filled(") || !strings.Contains(l, "f_gold(") {
			continue
		}
		var b strings.Builder
		pos := 0
		for _, m := range cppCall.FindAllStringSubmatchIndex(l, -1) {
			if m[0] < pos {
				continue
			}
			end := corpus.MatchParen(l, m[1]-1)
			if end < 0 {
				break
			}
			args := l[m[1]:end]
			seen := map[string]bool{}
			var copies []string
			for _, p := range cppParam.FindAllString(args, -1) {
				if !seen[p] {
					seen[p] = true
					copies = append(copies, fmt.Sprintf("auto __sc_%s = %s;", p, p))
				}
			}
			if len(copies) == 0 {
				continue
			}
			b.WriteString(l[pos:m[0]])
			fmt.Fprintf(&b, "([&]() { %s return %s(%s); }())", strings.Join(copies, " "), l[m[2]:m[3]],
				cppParam.ReplaceAllString(args, "__sc_param$1"))
			pos = end + 1
		}
		b.WriteString(l[pos:])
		if b.String() != l {
			lines[i] = b.String()
			ok = true
		}
	}
	if !ok {
		return filled, false
	}
	return filled[:start] + strings.Join(lines, "\n"), true
}

// GoldFilled is a translation that calls the script's own gold: a script filled with
// it runs the gold alone, as every filled script runs it (a gold that times out on
// the script's inputs makes every translation's script time out).
const GoldFilled = "template <class... A> auto f_filled(A&&... a) { return f_gold(std::forward<A>(a)...); }"

// The causes of a disagreement particular to the C++ scripts.
const (
	// CauseCppParamType: the translation takes other parameter types than the gold
	// (a vector where the gold takes an array, long long& for int): g++ rejects the
	// script's call with the gold's arguments, our harness adapts the arguments.
	CauseCppParamType = "the translation's parameter types differ from the gold's: g++ rejects the script's call, our harness adapts the arguments"
	// CauseCppReturnType: the translation returns a type that the script's == cannot
	// compare with the gold's (a vector for a pointer, a string for a char).
	CauseCppReturnType = "the translation's return type cannot be compared with the gold's by the script's =="
	// CauseCppConversions: the values differ as the declared type but compare equal
	// under C++'s usual arithmetic conversions (an int -1 for an unsigned gold's
	// 4294967295): the script's == passes, our match as declared fails, our
	// match_cpp_conversions passes.
	CauseCppConversions = "the values differ as the declared type but compare equal under C++'s arithmetic conversions (match_cpp_conversions passes)"
	// CauseCppGoldTimesOut: the script runs the gold on every input, and the gold
	// alone times out in the script; ours leaves out the tests whose gold timed out.
	CauseCppGoldTimesOut = "the script times out in the gold itself (the script filled with the gold times out); ours leaves out the tests whose gold timed out"
)

// AtGlobalScope starts the detail of a script that compiles in the engine's
// namespace but not alone at global scope (GlobalChecker), CompilesAtGlobalScope ends
// that of one that does not compile in the namespace but does at global scope.
const (
	AtGlobalScope         = "at global scope: "
	CompilesAtGlobalScope = "(it compiles alone at global scope)"
)

// CauseCppGlobalScope: the translation compiles in its own namespace (ours, and the
// engine's run of the script) but not at the global scope of the benchmark's script,
// where its top-level names meet the headers' (int abs(int) redefines stdlib's,
// a variable count is ambiguous with std::count).
const CauseCppGlobalScope = "the translation compiles in a namespace of its own (ours) but not at the script's global scope, where its top-level names meet the standard headers'"

// CauseCppMemory: the script's verdict changes when the calls get copies of the
// arguments although f_filled cannot change them (CppMayMutate): the copies moved
// the calls' memory, and a read of uninitialized or out-of-bounds memory then read
// something else (a gold that reads the stack the translation just left).
const CauseCppMemory = "the verdict depends on memory the program reads uninitialized or out of bounds (it changes with the calls' memory layout; f_filled cannot mutate its arguments)"

// CauseCpp puts a disagreement between a C++ script and our verdict down to a cause:
// the C++ compile errors in the script's main, the arithmetic conversions, else Cause.
func CauseCpp(script Outcome, ours Verdict, rows []schemas.ResultRow) string {
	if !script.Pass() && ours.Pass && !script.Ran && script.Status == schemas.StatusCompileError {
		if msg, ok := strings.CutPrefix(script.Detail, AtGlobalScope); ok {
			return CauseCppGlobalScope + " (" + msg + ")"
		}
		if msg, ok := strings.CutPrefix(script.Detail, InMain); ok {
			switch {
			case strings.Contains(msg, "no match for 'operator=='") || strings.Contains(msg, "comparison between") ||
				strings.Contains(msg, "ISO C++ forbids comparison"):
				return CauseCppReturnType + " (" + msg + ")"
			case strings.Contains(msg, "invalid initialization") || strings.Contains(msg, "cannot convert") ||
				strings.Contains(msg, "no matching function") || strings.Contains(msg, "cannot bind") ||
				strings.Contains(msg, "invalid conversion") || strings.Contains(msg, "too many arguments") ||
				strings.Contains(msg, "too few arguments") || strings.Contains(msg, "could not convert"):
				return CauseCppParamType + " (" + msg + ")"
			}
		}
	}
	if script.Pass() && !ours.Pass && ours.Cause == "value" {
		conv := true
		for _, r := range rows {
			if r.Oracle == "target_gold" && r.Sample == 0 && r.OracleStatus == schemas.StatusOK && !r.Nondeterministic &&
				!r.Match && !r.MatchCppConversions {
				conv = false
			}
		}
		if conv {
			return CauseCppConversions
		}
	}
	if !script.Pass() && ours.Pass && script.Ran && script.Total > ours.Tests {
		return Cause(script, ours, rows) + " (" + leftOut(rows) + ")"
	}
	return Cause(script, ours, rows)
}

// leftOut says why our target-gold tests were not counted: "2 nondeterministic, 1
// gold timeout".
func leftOut(rows []schemas.ResultRow) string {
	n := map[string]int{}
	var keys []string
	for _, r := range rows {
		if r.Oracle != "target_gold" || r.Sample != 0 {
			continue
		}
		k := ""
		switch {
		case r.OracleStatus != schemas.StatusOK:
			k = "gold " + string(r.OracleStatus)
		case r.Nondeterministic:
			k = "nondeterministic"
		}
		if k == "" {
			continue
		}
		if n[k] == 0 {
			keys = append(keys, k)
		}
		n[k]++
	}
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d %s", n[k], k))
	}
	return "left out: " + strings.Join(parts, ", ")
}

// OurVerdictCppConversions is OurVerdict under the C++ scripts' convention for the
// returned values (match_cpp_conversions in place of match).
func OurVerdictCppConversions(rows []schemas.ResultRow) Verdict {
	conv := make([]schemas.ResultRow, len(rows))
	for i, r := range rows {
		r.Match = r.MatchCppConversions
		conv[i] = r
	}
	return OurVerdict(conv)
}

// cppFilledDef matches the definition of f_filled: its parameter list.
var cppFilledDef = regexp.MustCompile(`\bf_filled\s*\(([^()]*)\)\s*(?:const\s*)?(?:noexcept\s*)?\{`)

// CppMayMutate tells whether the filled script's f_filled can change its caller's
// arguments: it takes a pointer, an array, or a non-const reference. A script whose
// verdict changes with copied arguments (IsolateCpp) while f_filled takes everything
// by value or const reference did not change for a mutation: the copies moved the
// calls' stack and heap, and a read of uninitialized or out-of-bounds memory (in the
// gold or the translation) then read something else. A template f_filled (auto&&)
// counts as one that may.
func CppMayMutate(filled string) bool {
	m := cppFilledDef.FindStringSubmatch(blankJava(filled))
	if m == nil {
		return true
	}
	for _, p := range cpp.SplitParams(m[1]) {
		if strings.ContainsAny(p, "*[") {
			return true
		}
		if strings.Contains(p, "&") && !strings.HasPrefix(p, "const ") && !strings.Contains(p, " const") {
			return true
		}
	}
	return false
}
