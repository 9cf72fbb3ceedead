// Package scriptcheck runs TransCoder-test's own test scripts (testscript/<lang>/<id>.<ext>)
// with a translation filled in, as the benchmark does, so that our target-gold verdict
// can be set beside the benchmark's. A script holds f_gold, a "TOFILL"
// marker where the candidate goes as f_filled, and a main that compares
// f_filled(args) == f_gold(args) on its inputs and prints "#Results: <passed>, <total>".
// Scripts run in the sandbox: the translations are untrusted code. Python scripts run
// one process each (RunPython); Java scripts (java.go) run many to a batch of the Java
// engine (RunJava), C++ scripts (cpp.go) many to a batch of the C++ engine (RunCpp),
// checked at the global scope the benchmark compiles them at (cppglobal.go).
package scriptcheck

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/execute/python"
	"transmute/transforms/sandbox"
)

// Outcome is what one script run said.
type Outcome struct {
	// Ran: the script printed its "#Results" line.
	Ran           bool
	Passed, Total int
	Status        schemas.Status // when the script did not print its line
	Detail        string
}

// Pass is the script's verdict: every input compared equal.
func (o Outcome) Pass() bool { return o.Ran && o.Total > 0 && o.Passed == o.Total }

var resultsLine = regexp.MustCompile(`#Results:\s*(\d+)\s*,\s*(\d+)`)

// Parse reads the script's "#Results: <passed>, <total>" line.
func Parse(stdout string) (passed, total int, ok bool) {
	m := resultsLine.FindAllStringSubmatch(stdout, -1)
	if len(m) == 0 {
		return 0, 0, false
	}
	last := m[len(m)-1]
	p, _ := strconv.Atoi(last[1])
	t, _ := strconv.Atoi(last[2])
	return p, t, true
}

var pyDef = regexp.MustCompile(`(?m)^def\s+([A-Za-z_]\w*)\s*\(`)

// PythonEntry is the function the harness calls in a Python translation without a
// named entry: the last top-level def (as the Python engine picks it).
func PythonEntry(code string) string {
	m := pyDef.FindAllStringSubmatch(code, -1)
	if len(m) == 0 {
		return ""
	}
	return m[len(m)-1][1]
}

// FillPython puts a Python translation in the script at its TOFILL marker, its entry
// renamed to f_filled (TransCoder's own evaluation renames it too: a translation
// named f_gold would otherwise replace the script's gold).
func FillPython(script, imports, code, entry string) (string, error) {
	if entry == "" {
		entry = PythonEntry(code)
	}
	if entry == "" {
		return "", fmt.Errorf("no function in the translation")
	}
	i := strings.Index(script, "#TOFILL")
	if i < 0 {
		return "", fmt.Errorf("no #TOFILL marker in the script")
	}
	renamed := regexp.MustCompile(`\b`+regexp.QuoteMeta(entry)+`\b`).ReplaceAllString(code, "f_filled")
	body := strings.TrimSpace(imports) + "\n" + renamed + "\n"
	return script[:i] + body + script[i+len("#TOFILL"):], nil
}

// Runner runs filled scripts in the sandbox.
type Runner struct {
	Python string // interpreter; found on PATH when empty
	// Java is the Java engine (transforms/execute/java) that RunJava runs scripts with.
	Java execute.Engine
	// Cpp is the C++ engine (transforms/execute/cpp) that RunCpp runs scripts with.
	Cpp execute.Engine
	// Go is the Go engine (transforms/execute/golang) that RunGo runs scripts with.
	Go     execute.Engine
	Limits sandbox.Limits
}

// RunPython runs one filled Python script.
func (r Runner) RunPython(ctx context.Context, filled string) (Outcome, error) {
	py, err := python.FindPython(r.Python) // never a pyenv shim: the sandbox hides its tree
	if err != nil {
		return Outcome{}, err
	}
	dir, err := os.MkdirTemp("", "scriptcheck-")
	if err != nil {
		return Outcome{}, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "script.py")
	if err := os.WriteFile(path, []byte(filled), 0o644); err != nil {
		return Outcome{}, err
	}
	lim := r.Limits
	if lim.CPUTime == 0 {
		lim.CPUTime, lim.WallTime = 20*time.Second, 60*time.Second
	}
	o, err := sandbox.Run(ctx, sandbox.Spec{Path: py, Args: []string{"-B", path}, ReadOnly: []string{dir}, Limits: lim}, nil)
	if err != nil {
		return Outcome{}, err
	}
	return outcome(o), nil
}

func outcome(o sandbox.Outcome) Outcome {
	if p, t, ok := Parse(string(o.Stdout)); ok {
		return Outcome{Ran: true, Passed: p, Total: t}
	}
	out := Outcome{Status: schemas.StatusRuntimeError, Detail: lastLine(string(o.Stderr))}
	switch {
	case o.CPUTimeout || o.WallTimeout:
		out.Status = schemas.StatusTimeout
	case o.MemoryExceeded:
		out.Status = schemas.StatusMemoryLimit
	}
	return out
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 300 {
		s = s[:300]
	}
	return s
}

// Verdict is our target-gold verdict on one translation, from its result rows.
type Verdict struct {
	Pass bool
	// Cause names, for a failure, the first counted test that did not match: the
	// program status (compile_error, timeout...) or "value" for a wrong value.
	Cause string
	// Tests counted (oracle returned a value, not nondeterministic).
	Tests int
}

// OurVerdict scores the target-gold rows of one translation (sample 0) as the pass
// rate does on the subset "all".
func OurVerdict(rows []schemas.ResultRow) Verdict {
	v := Verdict{Pass: true}
	for _, r := range rows {
		if r.Oracle != "target_gold" || r.Sample != 0 || r.OracleStatus != schemas.StatusOK || r.Nondeterministic {
			continue
		}
		v.Tests++
		if !r.Match && v.Pass {
			v.Pass = false
			v.Cause = string(r.Status)
			if r.Status == schemas.StatusOK {
				v.Cause = "value"
			}
			if r.ProgramStatus == schemas.StatusCompileError {
				v.Cause = string(schemas.StatusCompileError)
			}
		}
	}
	if v.Tests == 0 {
		v.Pass = false
		v.Cause = "no_oracle"
	}
	return v
}

// Cause puts a disagreement between the script and our verdict down to a cause.
// lang is the target language, rows our result rows of the translation.
func Cause(script Outcome, ours Verdict, rows []schemas.ResultRow) string {
	switch {
	case script.Pass() && !ours.Pass:
		for _, r := range rows {
			if r.Oracle == "target_gold" && r.OracleStatus == schemas.StatusOK && !r.Match && r.LangDependent {
				return "ours fails on a language-dependent test (" + ours.Cause + ")"
			}
		}
		return "script passes, ours fails: " + ours.Cause
	case !script.Pass() && ours.Pass:
		if !script.Ran && (strings.HasPrefix(script.Detail, "NameError") || strings.HasPrefix(script.Detail, MissingImportDetail)) {
			// our runner's prelude imports typing, math, collections... (as TRACE's
			// harness does), the Java engine java.math, java.io, java.util.function;
			// the TransCoder script imports only what its gold needs
			return "script lacks an import our prelude gives: " + strings.TrimPrefix(script.Detail, MissingImportDetail)
		}
		if !script.Ran && strings.HasPrefix(script.Detail, ErrNoTopMethod) {
			return CauseJavaWrapped
		}
		if !script.Ran && script.Status == schemas.StatusCompileError {
			if msg, ok := strings.CutPrefix(script.Detail, InMain); ok {
				// the script calls f_filled with f_gold's argument types and compares
				// the results with ==; our harness converts the arguments to the
				// translation's parameter types and compares canonical values
				switch {
				case strings.Contains(msg, "incomparable types") || strings.Contains(msg, "bad operand types") ||
					strings.Contains(msg, "cannot be dereferenced"):
					return CauseJavaReturnType + " (" + msg + ")"
				case strings.Contains(msg, "non-static method"):
					return CauseJavaInstance
				case strings.Contains(msg, "incompatible types") || strings.Contains(msg, "cannot be applied") ||
					strings.Contains(msg, "no suitable method"):
					return CauseJavaParamType + " (" + msg + ")"
				}
			}
			return "script does not compile: " + script.Detail
		}
		if !script.Ran {
			return "script did not finish: " + string(script.Status) + " " + script.Detail
		}
		if script.Total > ours.Tests {
			return fmt.Sprintf("script fails %d of %d inputs; ours counted %d tests", script.Total-script.Passed, script.Total, ours.Tests)
		}
		return fmt.Sprintf("script fails %d of %d inputs, ours passes", script.Total-script.Passed, script.Total)
	}
	return ""
}

// pyCompare is the comparison of TransCoder-test's Python scripts.
const pyCompare = "f_filled(*parameters_set) == f_gold(*parameters_set)"

// IsolatePython gives f_filled and f_gold each its own deep copy of the arguments, so
// that a candidate that mutates an argument cannot change what the gold then reads.
// ok is false when the script does not have the usual comparison.
func IsolatePython(filled string) (string, bool) {
	if !strings.Contains(filled, pyCompare) {
		return filled, false
	}
	iso := "f_filled(*__import__('copy').deepcopy(parameters_set)) == f_gold(*__import__('copy').deepcopy(parameters_set))"
	return strings.Replace(filled, pyCompare, iso, 1), true
}

// CauseMutation is the cause of a script that passes only because the candidate
// mutated an argument that the gold then read (it fails with the arguments copied).
const CauseMutation = "script passes only because the candidate mutates the argument the gold then reads"

// CauseMutationFails is the converse: the script fails only because the candidate
// mutated an argument (reversed a list in place) that the gold then read.
const CauseMutationFails = "script fails only because the candidate mutates the argument the gold then reads"

// CauseJavaReturnType: the translation returns another type than the Java gold (a
// boolean for an int 0/1, as its C++ or Python source does): javac rejects the
// script's f_filled(...) == f_gold(...), our comparison of canonical values accepts it.
const CauseJavaReturnType = "the translation's return type differs from the gold's: javac rejects the script's comparison, ours compares the values"

// CauseJavaParamType: the translation takes narrower parameter types than the Java
// gold (int for long): javac rejects the script's call with the gold's argument
// types, our harness converts the arguments to the translation's types.
const CauseJavaParamType = "the translation's parameter types differ from the gold's: javac rejects the script's call, our harness converts the arguments"

// CauseJavaInstance: the translation's entry is an instance method: the script's
// static main cannot call it, our harness calls it on a new instance.
const CauseJavaInstance = "the translation's entry is not static: the script's main cannot call it, our harness calls it on a new instance"

// CauseJavaWrapped: the translation declares a class around its method: the script's
// main cannot call it as f_filled, our harness calls the nested class's method.
const CauseJavaWrapped = "the translation wraps its method in a class: the script cannot call it, our harness calls the nested method"

// CauseJavaForeignImports: the translation's import section is not Java (a C++
// #include, a Python import): the script takes only its import lines, our harness
// compiles the section as it is and fails.
const CauseJavaForeignImports = "the translation's import section is not Java (a C++ #include, a Python import): our harness does not compile it, the script takes only import lines"
