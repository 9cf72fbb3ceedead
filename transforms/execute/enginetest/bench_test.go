package enginetest

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/mutate"
	"transmute/transforms/sandbox"
	"transmute/transforms/values"
)

const (
	benchMinVariants = 200
	benchNaiveSample = 20
	// benchMutantsPerProblem caps the mutants per problem so the 200 variants
	// come from several problems.
	benchMutantsPerProblem = 24
)

// benchLimits bound each test: mutants that loop forever cost the same in both
// ways (the naive run is killed at naiveRunTimeout).
var benchLimits = sandbox.Limits{CPUTime: 500 * time.Millisecond, WallTime: time.Second, MemoryBytes: 512 << 20}

const (
	naiveCompileTimeout = 30 * time.Second
	naiveRunTimeout     = 5 * time.Second
)

// variant is one function of one problem to run.
type variant struct {
	prob *schemas.Problem
	cand execute.Candidate
}

// benchVariants takes problems in order, the gold function in lang plus its mutants,
// until there are at least benchMinVariants; it returns them grouped per problem.
func benchVariants(b *testing.B, lang string) [][]variant {
	c := transcoder(b)
	var groups [][]variant
	n := 0
	for i := range c.Problems {
		p := &c.Problems[i]
		g, ok := p.Function(lang)
		if !ok {
			continue
		}
		ms, _, err := mutate.Generate(lang, g.Code, mutate.Options{MaxTotal: benchMutantsPerProblem, Seed: 1})
		if err != nil {
			continue // the gold function does not parse cleanly: take the next problem
		}
		grp := []variant{{p, execute.Candidate{ID: p.ID + "/gold", Code: g.Code, Imports: g.Imports, Entry: g.Name}}}
		for _, m := range ms {
			grp = append(grp, variant{p, execute.Candidate{ID: p.ID + "/" + m.ID, Code: m.Code, Imports: g.Imports, Entry: g.Name}})
		}
		groups = append(groups, grp)
		if n += len(grp); n >= benchMinVariants {
			return groups
		}
	}
	b.Skipf("only %d variants in the corpus", n)
	return nil
}

func benchEngine(b *testing.B, lang string) {
	groups := benchVariants(b, lang)
	var all []variant
	for _, g := range groups {
		all = append(all, g...)
	}
	ctx := context.Background()
	var cpu, wall, inFunc time.Duration
	var timeouts, timedOut, compileErrs int
	for it := 0; it < b.N; it++ {
		dir, err := os.MkdirTemp("", "enginebench-")
		if err != nil {
			b.Fatal(err)
		}
		os.Chmod(dir, 0o755)
		c0, w0 := cpuNow(), time.Now()
		// the engine's start-up (a JVM, a fork server, a header) is part of the cost
		e, err := execute.Open(lang, execute.Options{WorkDir: dir})
		if err != nil {
			b.Fatal(err)
		}
		inFunc, timeouts, timedOut, compileErrs = 0, 0, 0, 0
		for _, g := range groups {
			p := g[0].prob
			batch := execute.Batch{ProblemID: p.ID, Lang: lang, Params: p.Params, Returns: p.Returns, Tests: p.Tests, Limits: benchLimits}
			for _, v := range g {
				batch.Candidates = append(batch.Candidates, v.cand)
			}
			res, err := e.Run(ctx, batch)
			if err != nil {
				b.Fatalf("%s: %v", p.ID, err)
			}
			if res[0].Status != schemas.StatusOK {
				b.Fatalf("gold %s: %s %s", p.ID, res[0].Status, res[0].Detail)
			}
			for _, r := range res {
				if r.Status == schemas.StatusCompileError {
					compileErrs++
				}
				if r.Status == schemas.StatusTimeout {
					timedOut++
				}
				for _, tr := range r.Tests {
					if tr.Status == schemas.StatusTimeout {
						timeouts++
					}
					if tr.Status == schemas.StatusInfraError {
						b.Fatalf("%s test %d: infra_error %s", r.CandidateID, tr.Index, tr.Error)
					}
					inFunc += tr.CPUTime
				}
			}
		}
		e.Close() // reaps the workers, so their CPU time is counted
		cpu, wall = cpuNow()-c0, time.Since(w0)
		os.RemoveAll(dir)
	}
	// the naive way on a deterministic sample (variants without 2-D array parameters,
	// which a plain literal harness cannot pass portably)
	var eligible []variant
	for _, v := range all {
		if !has2D(v.prob) {
			eligible = append(eligible, v)
		}
	}
	if len(eligible) < benchNaiveSample {
		b.Fatalf("only %d variants usable for the naive harness", len(eligible))
	}
	dir := b.TempDir()
	nOK := 0
	c0 := cpuNow()
	for k := 0; k < benchNaiveSample; k++ {
		v := eligible[k*len(eligible)/benchNaiveSample]
		if naiveRun(b, lang, filepath.Join(dir, fmt.Sprint(k)), v) {
			nOK++
		}
	}
	naive := cpuNow() - c0
	if nOK == 0 {
		b.Fatalf("no naive run compiled and ran")
	}
	n := float64(len(all))
	x := float64(cpu.Microseconds()) / 1000 / n
	y := float64(naive.Microseconds()) / 1000 / benchNaiveSample
	w := float64(wall.Microseconds()) / 1000 / n
	ratio := math.Inf(1)
	if inFunc > 0 {
		ratio = float64(cpu) / float64(inFunc)
	}
	b.ReportMetric(x, "cpu-ms/variant")
	b.ReportMetric(y/x, "speedup-cpu")
	fmt.Printf("BENCH engine_%s variants=%d cpu_ms_per_variant=%.2f naive_cpu_ms_per_variant=%.2f speedup_cpu=%.1f wall_ms_per_variant=%.2f overhead_ratio=%.1f\n",
		lang, len(all), x, y, y/x, w, ratio)
	// mutants that loop forever dominate the CPU (each burns up to the limit)
	fmt.Fprintf(os.Stderr, "engine_%s: %d problems; %d variants did not compile; %d variants (%d tests) timed out (limit %v CPU per test); "+
		"%d of %d naive runs compiled and ran\n",
		lang, len(groups), compileErrs, timedOut, timeouts, benchLimits.CPUTime, nOK, benchNaiveSample)
}

func BenchmarkEngineJava(b *testing.B)   { benchEngine(b, schemas.Java) }
func BenchmarkEnginePython(b *testing.B) { benchEngine(b, schemas.Python) }
func BenchmarkEngineCpp(b *testing.B)    { benchEngine(b, schemas.Cpp) }

func has2D(p *schemas.Problem) bool {
	for _, prm := range p.Params {
		if strings.HasSuffix(prm.Type, "[][]") {
			return true
		}
	}
	return false
}

// naiveRun compiles (where needed) and runs one variant the plain way, one process
// per variant, calling it on every test of its problem; it tells whether the program
// ran to the end.
func naiveRun(b *testing.B, lang, dir string, v variant) bool {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	types := make([]values.Type, len(v.prob.Params))
	for i, p := range v.prob.Params {
		types[i] = values.MustParseType(p.Type)
	}
	ret := values.MustParseType(v.prob.Returns)
	var argRows [][]any
	for _, t := range v.prob.Tests {
		var row []any
		d := json.NewDecoder(strings.NewReader(t.Args))
		d.UseNumber()
		if err := d.Decode(&row); err != nil || len(row) != len(types) {
			b.Fatalf("%s: test %d args %s: %v", v.prob.ID, t.Index, t.Args, err)
		}
		argRows = append(argRows, row)
	}
	entry := v.cand.Entry
	switch lang {
	case schemas.Python:
		js, _ := json.Marshal(argRows)
		src := v.cand.Imports + "\nimport json\n" + v.cand.Code + "\n\nfor a in json.loads(" + strconv.Quote(string(js)) + "):\n" +
			"    try:\n        print(json.dumps(" + entry + "(*a)))\n    except Exception as e:\n        print('exception', type(e).__name__)\n"
		f := filepath.Join(dir, "main.py")
		os.WriteFile(f, []byte(src), 0o644)
		return naiveExec(naiveRunTimeout, "/usr/bin/python3", "-S", f)
	case schemas.Java:
		var s strings.Builder
		s.WriteString(v.cand.Imports + "\nimport java.util.*;\npublic class Main {\n" + v.cand.Code + "\npublic static void main(String[] args) {\n")
		for _, row := range argRows {
			var as []string
			for i, a := range row {
				as = append(as, javaLit(types[i], a))
			}
			call := entry + "(" + strings.Join(as, ", ") + ")"
			if ret.Base == values.Void {
				fmt.Fprintf(&s, "  try { %s; System.out.println(\"done\"); } catch (Throwable e) { System.out.println(\"exception \" + e); }\n", call)
			} else {
				fmt.Fprintf(&s, "  try { System.out.println(Arrays.deepToString(new Object[]{%s})); } catch (Throwable e) { System.out.println(\"exception \" + e); }\n", call)
			}
		}
		s.WriteString("}\n}\n")
		os.WriteFile(filepath.Join(dir, "Main.java"), []byte(s.String()), 0o644)
		if !naiveExec(naiveCompileTimeout, "javac", "-d", dir, filepath.Join(dir, "Main.java")) {
			return false
		}
		return naiveExec(naiveRunTimeout, "java", "-cp", dir, "Main")
	default:
		var s strings.Builder
		s.WriteString("#include <bits/stdc++.h>\nusing namespace std;\n" + v.cand.Imports + "\n" + v.cand.Code + "\nint main() {\n")
		for _, row := range argRows {
			s.WriteString("  {\n")
			var as []string
			for i, a := range row {
				if types[i].Dims == 1 {
					elem := cppType(types[i].Base)
					list := cppList(types[i], a)
					if list == "" {
						fmt.Fprintf(&s, "    %s a%d[1] = {};\n", elem, i)
					} else {
						fmt.Fprintf(&s, "    %s a%d[] = {%s};\n", elem, i, list)
					}
					as = append(as, fmt.Sprintf("a%d", i))
					continue
				}
				as = append(as, cppLit(types[i].Base, a))
			}
			call := entry + "(" + strings.Join(as, ", ") + ")"
			if ret.Base == values.Void || ret.Dims > 0 {
				fmt.Fprintf(&s, "    try { (void)%s; cout << \"done\\n\"; } catch (...) { cout << \"exception\\n\"; }\n", call)
			} else {
				fmt.Fprintf(&s, "    try { cout << %s << \"\\n\"; } catch (...) { cout << \"exception\\n\"; }\n", call)
			}
			s.WriteString("  }\n")
		}
		s.WriteString("}\n")
		os.WriteFile(filepath.Join(dir, "main.cpp"), []byte(s.String()), 0o644)
		exe := filepath.Join(dir, "main")
		if !naiveExec(naiveCompileTimeout, "g++", "-O2", "-std=c++17", "-o", exe, filepath.Join(dir, "main.cpp")) {
			return false
		}
		return naiveExec(naiveRunTimeout, exe)
	}
}

// naiveExec runs a command to the end (killed at timeout) and reports success.
func naiveExec(timeout time.Duration, name string, args ...string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.WaitDelay = time.Second
	return cmd.Run() == nil
}

// asRunes gives the elements of a char[] written as a string.
func elems(a any) []any {
	if s, ok := a.(string); ok {
		var out []any
		for _, r := range s {
			out = append(out, string(r))
		}
		return out
	}
	l, _ := a.([]any)
	return l
}

func javaLit(t values.Type, a any) string {
	if t.Dims > 0 {
		inner := values.Type{Base: t.Base, Dims: t.Dims - 1}
		var parts []string
		for _, e := range elems(a) {
			parts = append(parts, strings.TrimPrefix(javaLit(inner, e), "new "+javaArr(inner)))
		}
		return "new " + javaArr(t) + "{" + strings.Join(parts, ", ") + "}"
	}
	switch t.Base {
	case values.Long:
		return fmt.Sprint(a) + "L"
	case values.Float, values.Double:
		name := map[values.Kind]string{values.Float: "float", values.Double: "double"}[t.Base]
		if s, ok := a.(string); ok { // NaN, Infinity
			box := map[values.Kind]string{values.Float: "Float", values.Double: "Double"}[t.Base]
			return box + "." + map[string]string{"NaN": "NaN", "Infinity": "POSITIVE_INFINITY", "-Infinity": "NEGATIVE_INFINITY"}[s]
		}
		return "(" + name + ")" + fmt.Sprint(a) + "d"
	case values.Char:
		return fmt.Sprintf("(char)%d", firstRune(a))
	case values.String:
		s, _ := a.(string)
		var b strings.Builder
		b.WriteByte('"')
		for _, u := range utf16Units(s) {
			fmt.Fprintf(&b, "\\u%04x", u)
		}
		b.WriteByte('"')
		return b.String()
	}
	return fmt.Sprint(a) // int, bool
}

func javaArr(t values.Type) string {
	base := map[values.Kind]string{values.Int: "int", values.Long: "long", values.Float: "float", values.Double: "double",
		values.Bool: "boolean", values.Char: "char", values.String: "String"}[t.Base]
	return base + strings.Repeat("[]", t.Dims)
}

func cppType(k values.Kind) string {
	return map[values.Kind]string{values.Int: "int", values.Long: "long long", values.Float: "float", values.Double: "double",
		values.Bool: "bool", values.Char: "char", values.String: "string"}[k]
}

func cppList(t values.Type, a any) string {
	var parts []string
	for _, e := range elems(a) {
		parts = append(parts, cppLit(t.Base, e))
	}
	return strings.Join(parts, ", ")
}

func cppLit(k values.Kind, a any) string {
	switch k {
	case values.Int:
		return "(int)" + fmt.Sprint(a) + "LL"
	case values.Long:
		return "(long long)" + fmt.Sprint(a) + "LL"
	case values.Float, values.Double:
		if s, ok := a.(string); ok {
			return map[string]string{"NaN": "NAN", "Infinity": "INFINITY", "-Infinity": "-INFINITY"}[s]
		}
		return "(" + cppType(k) + ")" + fmt.Sprint(a)
	case values.Char:
		return fmt.Sprintf("(char)%d", firstRune(a))
	case values.String:
		s, _ := a.(string)
		var b strings.Builder
		b.WriteString("string(\"")
		for _, c := range []byte(s) {
			fmt.Fprintf(&b, "\\%03o", c)
		}
		b.WriteString("\")")
		return b.String()
	}
	return fmt.Sprint(a)
}

func firstRune(a any) rune {
	switch x := a.(type) {
	case string:
		for _, r := range x {
			return r
		}
	case json.Number:
		n, _ := x.Int64()
		return rune(n)
	}
	return 0
}

func utf16Units(s string) []uint16 {
	var out []uint16
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			out = append(out, uint16(0xD800+(r>>10)), uint16(0xDC00+(r&0x3FF)))
			continue
		}
		out = append(out, uint16(r))
	}
	return out
}
