package cpp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"transmute/schemas"
	"transmute/transforms/values"
)

// glueOpt is the optimization level of each candidate's glue (call_N, run_N): the
// call, the timer and the printing of the result. At the units' -O2 the printing
// templates, inlined into every call_N, made optimization about 60% of a unit's
// compile (1.66 s of CPU for 50 mutants of two problems, against 0.83 s with the glue at
// -O1 and 0.40 s for an empty program). GCC does not inline a function of a higher
// optimization level into a lower one, so each candidate stays an -O2 function of
// its own, called from the glue, and behaves as in a program built at -O2.
const glueOpt = `__attribute__((optimize("O1"))) `

// prepared is a candidate split for the translation unit.
type prepared struct {
	includes []string // #include lines, hoisted to the top
	body     string   // everything else, placed in the candidate's namespace
	macros   []string // macros the candidate defines or undefines, saved before it and restored after
	entry    string
}

var (
	includeRe = regexp.MustCompile(`^\s*#\s*include\b`)
	defineRe  = regexp.MustCompile(`^\s*#\s*(?:define|undef)\s+([A-Za-z_]\w*)`)
	// tuLineRe finds the lines of the unit that errors are reported at, or that an
	// error inside harness.h was instantiated from. Notes are left out: "suggested
	// alternatives" point at other candidates that define a function of the same name.
	tuLineRe = regexp.MustCompile(`(?m)tu\.cpp:(\d+):(?:\d+:)?\s+(?:(?:fatal )?error:|required from)`)
	// diagLineRe is any diagnostic line of the unit (error, note, "required from").
	diagLineRe = regexp.MustCompile(`^tu\.cpp:(\d+):`)
	// errorLineRe is an error of any file (the unit, harness.h, a system header).
	errorLineRe = regexp.MustCompile(`^[^\s:][^:]*:\d+:(?:\d+:)?\s+(?:fatal )?error:`)
	// expansionRe is a note that an error's line came from a macro expanded at a line
	// of the unit, or from the definition of one it was passed to.
	expansionRe = regexp.MustCompile(`^tu\.cpp:(\d+):(?:\d+:)?\s+note:\s+in (expansion|definition) of macro`)
)

func prepare(imports, code, entry string) prepared {
	var p prepared
	var body strings.Builder
	for _, src := range []string{imports, code} {
		for _, line := range strings.Split(src, "\n") {
			if includeRe.MatchString(line) {
				p.includes = append(p.includes, strings.TrimSpace(line))
				body.WriteString("\n") // keep line numbers
				continue
			}
			if m := defineRe.FindStringSubmatch(line); m != nil {
				p.macros = append(p.macros, m[1])
			}
			body.WriteString(line)
			body.WriteString("\n")
		}
	}
	p.body = body.String()
	p.entry = entry
	if p.entry == "" {
		p.entry = LastFunction(imports + "\n" + code)
	}
	return p
}

// CType is the C++ element type of a base kind (the profiling harness's too).
func CType(k values.Kind) string {
	switch k {
	case values.Int:
		return "int"
	case values.Long:
		return "long long"
	case values.Float:
		return "float"
	case values.Double:
		return "double"
	case values.Bool:
		return "bool"
	case values.Char:
		return "char"
	case values.String:
		return "std::string"
	}
	return "void"
}

// HolderType is the type of the Args field that holds an argument of type t (in
// the profiling harness's Args too).
func HolderType(t values.Type) string {
	switch {
	case t.Dims == 3:
		return "th::Arr3<" + CType(t.Base) + ">"
	case t.Dims == 2:
		return "th::Arr2<" + CType(t.Base) + ">"
	case t.Dims == 1:
		return "th::Arr<" + CType(t.Base) + ">"
	case t.Base == values.String:
		return "th::Str"
	}
	return CType(t.Base)
}

// KindConst is the th:: constant that makes th::pv print a value of kind k.
func KindConst(k values.Kind) string {
	switch k {
	case values.Int:
		return "th::KI"
	case values.Long:
		return "th::KL"
	case values.Float:
		return "th::KF"
	case values.Double:
		return "th::KD"
	case values.Bool:
		return "th::KB"
	case values.Char:
		return "th::KC"
	case values.String:
		return "th::KS"
	}
	return "th::KL"
}

// cString writes s as a C++ string literal; every byte outside printable ASCII is an
// octal escape.
func cString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '?':
			b.WriteString(`\?`)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, `\%03o`, c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func intLit(v any, bits int) (string, error) {
	var n *big.Int
	switch x := v.(type) {
	case json.Number:
		var ok bool
		if n, ok = new(big.Int).SetString(string(x), 10); !ok {
			f, err := x.Float64()
			if err != nil || f != math.Trunc(f) || math.IsInf(f, 0) {
				return "", fmt.Errorf("not an integer: %s", x)
			}
			n, _ = big.NewFloat(f).Int(nil)
		}
	case bool:
		n = big.NewInt(0)
		if x {
			n = big.NewInt(1)
		}
	case string:
		r := []rune(x)
		if len(r) != 1 {
			return "", fmt.Errorf("not an integer: %q", x)
		}
		n = big.NewInt(int64(r[0]))
	default:
		return "", fmt.Errorf("not an integer: %v", v)
	}
	if !n.IsInt64() {
		return "", fmt.Errorf("integer %s does not fit in 64 bits", n)
	}
	i := n.Int64()
	if i == math.MinInt64 {
		return "(-9223372036854775807LL-1)", nil
	}
	if bits == 32 {
		if i >= math.MinInt32 && i <= math.MaxInt32 {
			return "(" + strconv.FormatInt(i, 10) + ")", nil
		}
		return "(int)(" + strconv.FormatInt(i, 10) + "LL)", nil
	}
	return "(" + strconv.FormatInt(i, 10) + "LL)", nil
}

func floatLit(v any, ctype string) (string, error) {
	var f float64
	switch x := v.(type) {
	case json.Number:
		var err error
		if f, err = strconv.ParseFloat(string(x), 64); err != nil {
			return "", fmt.Errorf("not a number: %s", x)
		}
	case string:
		switch x {
		case "NaN", "nan":
			return "std::numeric_limits<" + ctype + ">::quiet_NaN()", nil
		case "Infinity", "inf", "Inf":
			return "std::numeric_limits<" + ctype + ">::infinity()", nil
		case "-Infinity", "-inf", "-Inf":
			return "(-std::numeric_limits<" + ctype + ">::infinity())", nil
		}
		return "", fmt.Errorf("not a number: %q", x)
	case bool:
		if x {
			f = 1
		}
	default:
		return "", fmt.Errorf("not a number: %v", v)
	}
	return "(" + ctype + ")(" + strconv.FormatFloat(f, 'x', -1, 64) + ")", nil
}

// scalarLit is the C++ expression of a value of base kind k.
func scalarLit(k values.Kind, v any) (string, error) {
	switch k {
	case values.Int:
		return intLit(v, 32)
	case values.Long:
		return intLit(v, 64)
	case values.Float:
		return floatLit(v, "float")
	case values.Double:
		return floatLit(v, "double")
	case values.Bool:
		switch x := v.(type) {
		case bool:
			return strconv.FormatBool(x), nil
		case json.Number:
			f, err := x.Float64()
			if err != nil {
				return "", err
			}
			return strconv.FormatBool(f != 0), nil
		}
		return "", fmt.Errorf("not a bool: %v", v)
	case values.Char:
		switch x := v.(type) {
		case string:
			r := []rune(x)
			if len(r) != 1 {
				return "", fmt.Errorf("not a char: %q", x)
			}
			return fmt.Sprintf("(char)%d", int64(r[0])&0xff), nil
		case json.Number:
			n, err := x.Int64()
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("(char)%d", n&0xff), nil
		}
		return "", fmt.Errorf("not a char: %v", v)
	case values.String:
		switch x := v.(type) {
		case string:
			return fmt.Sprintf("std::string(%s, %d)", cString(x), len(x)), nil
		case nil:
			return "std::string()", nil
		}
		return "", fmt.Errorf("not a string: %v", v)
	}
	return "", fmt.Errorf("unsupported type")
}

// list is the braced list of an array value of type t (char[] may be a string).
func list(t values.Type, v any) (string, error) {
	if t.Dims == 1 {
		es, err := elems(t, v)
		return "{" + strings.Join(es, ",") + "}", err
	}
	rows, err := rowsOf(t, v)
	if err != nil {
		return "", err
	}
	parts := make([]string, len(rows))
	for i, r := range rows {
		if parts[i], err = list(t.Elem(), r); err != nil {
			return "", err
		}
	}
	return "{" + strings.Join(parts, ",") + "}", nil
}

// elems are the literals of the elements of a 1-D array value of type t (char[] may
// be a string).
func elems(t values.Type, v any) ([]string, error) {
	if s, ok := v.(string); ok && t.Base == values.Char {
		var arr []any
		for _, r := range s {
			arr = append(arr, string(r))
		}
		v = arr
	}
	arr, err := rowsOf(t, v)
	if err != nil {
		return nil, err
	}
	es := make([]string, len(arr))
	for i, e := range arr {
		if es[i], err = scalarLit(t.Base, e); err != nil {
			return nil, err
		}
	}
	return es, nil
}

// rowsOf is an array value's elements (null is empty).
func rowsOf(t values.Type, v any) ([]any, error) {
	if v == nil {
		return nil, nil
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("want %s, got %T", t, v)
	}
	return arr, nil
}

// staticArray is the holder of an array argument built from static arrays, which it
// declares in decls under names starting with name. Compiled, a static array is data;
// an initializer list is code, a store per element (about 50 ms of compiler CPU per
// problem of TransCoder-test). Arrays of strings keep their initializer lists.
func staticArray(t values.Type, v any, name string, decls *strings.Builder) (string, error) {
	if t.Base == values.String {
		l, err := list(t, v)
		return HolderType(t) + l, err
	}
	ct := CType(t.Base)
	if t.Dims == 1 {
		es, err := elems(t, v)
		if err != nil || len(es) == 0 {
			return HolderType(t) + "{}", err
		}
		fmt.Fprintf(decls, "static const %s %s[] = {%s};\n", ct, name, strings.Join(es, ","))
		return fmt.Sprintf("%s(%s, %d)", HolderType(t), name, len(es)), nil
	}
	if t.Dims == 3 {
		return staticArray3(t, v, name, decls)
	}
	rows, err := rowsOf(t, v)
	if err != nil || len(rows) == 0 {
		return HolderType(t) + "{}", err
	}
	ptrs := make([]string, len(rows))
	lens := make([]string, len(rows))
	for r, row := range rows {
		es, err := elems(t.Elem(), row)
		if err != nil {
			return "", err
		}
		ptrs[r], lens[r] = "nullptr", strconv.Itoa(len(es))
		if len(es) > 0 {
			ptrs[r] = fmt.Sprintf("%s_%d", name, r)
			fmt.Fprintf(decls, "static const %s %s[] = {%s};\n", ct, ptrs[r], strings.Join(es, ","))
		}
	}
	fmt.Fprintf(decls, "static const %s* const %s_rows[] = {%s};\nstatic const size_t %s_lens[] = {%s};\n",
		ct, name, strings.Join(ptrs, ","), name, strings.Join(lens, ","))
	return fmt.Sprintf("%s(%s_rows, %s_lens, %d)", HolderType(t), name, name, len(rows)), nil
}

// staticArray3 is staticArray for a 3-D array: all its elements in one static array,
// with the length of each row and the number of rows of each plane (a TransCoder-test
// table of 45 x 45 x 45 would otherwise be 2,025 arrays and a table of pointers).
func staticArray3(t values.Type, v any, name string, decls *strings.Builder) (string, error) {
	planes, err := rowsOf(t, v)
	if err != nil || len(planes) == 0 {
		return HolderType(t) + "{}", err
	}
	var data, lens []string
	nrows := make([]string, len(planes))
	for i, pl := range planes {
		rows, err := rowsOf(t.Elem(), pl)
		if err != nil {
			return "", err
		}
		nrows[i] = strconv.Itoa(len(rows))
		for _, row := range rows {
			es, err := elems(t.Elem().Elem(), row)
			if err != nil {
				return "", err
			}
			lens = append(lens, strconv.Itoa(len(es)))
			data = append(data, es...)
		}
	}
	// no zero-length arrays: nullptr for no elements (or no rows)
	dataExpr, lensExpr := "nullptr", "nullptr"
	if len(data) > 0 {
		dataExpr = name + "_data"
		fmt.Fprintf(decls, "static const %s %s[] = {%s};\n", CType(t.Base), dataExpr, strings.Join(data, ","))
	}
	if len(lens) > 0 {
		lensExpr = name + "_lens"
		fmt.Fprintf(decls, "static const size_t %s[] = {%s};\n", lensExpr, strings.Join(lens, ","))
	}
	fmt.Fprintf(decls, "static const size_t %s_nrows[] = {%s};\n", name, strings.Join(nrows, ","))
	return fmt.Sprintf("%s(%s, %s, %s_nrows, %d)", HolderType(t), dataExpr, lensExpr, name, len(planes)), nil
}

// argsExpr is the expression building one test's Args, or an error; the static
// arrays it reads are added to decls, named after prefix.
func argsExpr(types []values.Type, raw, prefix string, decls *strings.Builder) (string, error) {
	d := json.NewDecoder(strings.NewReader(raw))
	d.UseNumber()
	var args []any
	if err := d.Decode(&args); err != nil {
		return "", fmt.Errorf("bad JSON arguments: %v", err)
	}
	if len(args) != len(types) {
		return "", fmt.Errorf("%d arguments for %d parameters", len(args), len(types))
	}
	var own strings.Builder // this test's arrays, kept only when every argument is good
	parts := make([]string, len(args))
	for i, t := range types {
		var err error
		switch {
		case t.Dims > 0:
			parts[i], err = staticArray(t, args[i], fmt.Sprintf("%s_%d", prefix, i), &own)
		case t.Base == values.String:
			switch x := args[i].(type) {
			case string:
				parts[i] = fmt.Sprintf("th::Str(%s, %d)", cString(x), len(x))
			case nil:
				parts[i] = "th::Str()"
			default:
				err = fmt.Errorf("not a string: %v", x)
			}
		default:
			parts[i], err = scalarLit(t.Base, args[i])
		}
		if err != nil {
			return "", fmt.Errorf("argument %d: %v", i, err)
		}
	}
	decls.WriteString(own.String())
	return "Args{" + strings.Join(parts, ", ") + "}", nil
}

// span is a range of lines [from, to) of the translation unit.
type span struct{ from, to int }

// unit is a generated translation unit and where each candidate lies in it.
type unit struct {
	src   []byte
	spans map[int][]span // candidate index -> its lines (its namespace first, then its runner)
	order []int          // the candidates in the order of their namespaces
}

type lineWriter struct {
	b     bytes.Buffer
	lines int // lines written so far; the next line is lines+1
}

func (w *lineWriter) printf(format string, a ...any) {
	s := fmt.Sprintf(format, a...)
	w.b.WriteString(s)
	w.lines += strings.Count(s, "\n")
}

// member is one candidate of a unit: candidate i of the group's batch j. Its index in
// the group (the g of unit.spans, of namespace c<g> and of the program's first
// argument) is its position in group.members.
type member struct{ j, i int }

// group is what generate needs: the batches of a unit and their candidates.
type group struct {
	batches []*batchInfo
	members []member
}

// generate writes the translation unit for the candidates idx (group indices) of
// the group. Each batch whose candidates are in the unit gets its tests, argument
// holders and runner in namespace th::p<j>; each candidate its namespace c<g>. The
// program's protocol lines carry the candidate's index in its own batch.
func generate(gr *group, idx []int) unit {
	u := unit{spans: map[int][]span{}, order: idx}
	w := &lineWriter{}
	w.printf("#include \"harness.h\"\n")
	seen := map[string]bool{}
	used := map[int]bool{}
	for _, g := range idx {
		m := gr.members[g]
		used[m.j] = true
		for _, inc := range gr.batches[m.j].prep[m.i].includes {
			if !seen[inc] {
				seen[inc] = true
				w.printf("%s\n", inc)
			}
		}
	}
	for j, b := range gr.batches {
		if !used[j] {
			continue
		}
		w.printf("namespace th {\nnamespace p%d {\n", j)
		w.b.Write(b.testsCode)
		w.lines += bytes.Count(b.testsCode, []byte("\n"))
		w.printf("}  // namespace p%d\n}  // namespace th\n", j)
	}
	for _, g := range idx {
		m := gr.members[g]
		p := gr.batches[m.j].prep[m.i]
		start := w.lines + 1
		w.printf("namespace c%d {\nusing namespace std;\n", g)
		for _, d := range p.macros {
			w.printf("#pragma push_macro(\"%s\")\n", d)
		}
		w.printf("%s", p.body)
		// an empty line first: a last line of the body ending in a backslash splices
		// that one, not the namespace's end
		w.printf("\n\n}  // namespace c%d\n", g)
		u.spans[g] = append(u.spans[g], span{start, w.lines + 1})
		// A macro the candidate defines or undefines (INT_MAX, say) is what it was
		// before for the candidates after it. g++ spells a restored macro's tokens
		// at the line after its pop_macro: an error in a later expansion of it is
		// reported there, a line of no candidate (attribute finds the expansion).
		for _, d := range p.macros {
			w.printf("#pragma pop_macro(\"%s\")\n", d)
		}
		if len(p.macros) > 0 {
			w.printf("// macros restored after c%d\n", g)
		}
	}
	for _, g := range idx {
		m := gr.members[g]
		b := gr.batches[m.j]
		p := b.prep[m.i]
		start := w.lines + 1
		call := fmt.Sprintf("c%d::%s(%s)", g, p.entry, b.callArgs)
		// The glue is built at -O1 (glueOpt): at -O2 the printing templates inlined
		// into every call_N made optimization most of a unit's cost.
		w.printf(glueOpt+"static void call_%d(th::p%d::Args& a, std::string& o) {\n%s  th::begin();\n", g, m.j, b.callPrep)
		if b.void {
			w.printf("  %s;\n  th::end();\n  th::p%d::put_void(o, a);\n}\n", call, m.j)
		} else {
			w.printf("  auto&& r = %s;\n  th::end();\n  th::pv<%s, %d>(o, r);\n}\n", call, KindConst(b.ret.Base), b.ret.Dims)
		}
		w.printf(glueOpt+"static void run_%d(int from) { th::p%d::run(%d, from, call_%d); }\n", g, m.j, m.i, g)
		u.spans[g] = append(u.spans[g], span{start, w.lines + 1})
	}
	// lookup maps a group index to its runner and its index in its own batch; main
	// serves commands (th::serve, the engine's way) or, given "<g> <from> <wall s>
	// <cpu s> <stack>", runs one candidate from one test (by hand, when debugging).
	w.printf("static th::Entry lookup(int g) {\n  switch (g) {\n")
	for _, g := range idx {
		w.printf("    case %d: return {run_%d, %d};\n", g, g, gr.members[g].i)
	}
	w.printf(`  }
  return {nullptr, -1};
}
int main(int argc, char** argv) {
  if (argc >= 3 && strcmp(argv[1], "serve") == 0) return th::serve(lookup, atoi(argv[2]) != 0);
  if (argc < 6) return 2;
  th::Entry e = lookup(atoi(argv[1]));
  if (!e.f) return 3;
  th::wall_limit = atof(argv[3]);
  th::cpu_limit = atof(argv[4]);
  th::write_all("#ready\n");
  th::run_deferred_init();
  th::run_on_big_stack(e.f, atoi(argv[2]), strtoull(argv[5], nullptr, 10));
  th::write_all("{\"c\":" + std::to_string(e.c) + ",\"done\":true}\n");
  _exit(0);
}
`)
	u.src = w.b.Bytes()
	return u
}

// batchInfo is what generate needs from a batch, computed once.
type batchInfo struct {
	prep        []prepared
	types       []values.Type
	ret         values.Type
	void        bool
	arrayParams []int
	callArgs    string // "a.p0, a.p1", or "x0, x1" with callPrep
	// callPrep declares x0, x1... as the types of Batch.CallTypes (th::as), when set.
	callPrep  string
	testsCode []byte // Args, mk, NT, put_void, run: the body of namespace th::p<j>
	ntests    int
}

func newBatchInfo(params []schemas.Param, returns string, tests []schemas.Test, callTypes []string) (*batchInfo, error) {
	bi := &batchInfo{ntests: len(tests)}
	var err error
	if bi.ret, err = values.ParseType(returns); err != nil {
		return nil, fmt.Errorf("return type: %w", err)
	}
	bi.void = bi.ret.Base == values.Void
	var fields, call []string
	for i, p := range params {
		t, err := values.ParseType(p.Type)
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %w", p.Name, err)
		}
		if t.Base == values.Void {
			return nil, fmt.Errorf("parameter %s: void", p.Name)
		}
		bi.types = append(bi.types, t)
		if t.Dims > 0 {
			bi.arrayParams = append(bi.arrayParams, i)
		}
		fields = append(fields, fmt.Sprintf("  %s p%d;\n", HolderType(t), i))
		call = append(call, fmt.Sprintf("a.p%d", i))
	}
	if len(callTypes) == len(params) {
		// as the benchmark's scripts pass them; the types are written as in the gold,
		// under its "using namespace std"
		var prep strings.Builder
		for i, ct := range callTypes {
			if ct != "" {
				fmt.Fprintf(&prep, "  auto&& x%d = th::as<%s>(a.p%d);\n", i, ct, i)
				call[i] = fmt.Sprintf("x%d", i)
			}
		}
		if prep.Len() > 0 {
			bi.callPrep = "  using namespace std;\n" + prep.String()
		}
	}
	bi.callArgs = strings.Join(call, ", ")
	var b strings.Builder
	b.WriteString("struct Args {\n")
	b.WriteString(strings.Join(fields, ""))
	// mk builds the tests' arguments from static arrays (staticArray), at -O0: the
	// test data need no optimizing (with initializer lists of TransCoder-test's
	// matrices at -O2 it took 3.5 s of CPU for one candidate, 1.3 s at -O0).
	b.WriteString("};\n")
	var decls, cases strings.Builder
	for j, t := range tests {
		expr, err := argsExpr(bi.types, t.Args, fmt.Sprintf("d%d", j), &decls)
		if err != nil {
			fmt.Fprintf(&cases, "    case %d: throw th::BadArgs{%s};\n", j, cString(err.Error()))
			continue
		}
		fmt.Fprintf(&cases, "    case %d: return %s;\n", j, expr)
	}
	b.WriteString(decls.String())
	b.WriteString("__attribute__((optimize(\"O0\"))) static Args mk(int t) {\n  switch (t) {\n")
	b.WriteString(cases.String())
	fmt.Fprintf(&b, "  }\n  throw th::BadArgs{\"no such test\"};\n}\nconst int NT = %d;\n", len(tests))
	// put_void prints the array arguments after a void call.
	b.WriteString("[[maybe_unused]] static void put_void(std::string& o, Args& a) {\n  o += '[';\n")
	for k, pi := range bi.arrayParams {
		if k > 0 {
			b.WriteString("  o += ',';\n")
		}
		t := bi.types[pi]
		fmt.Fprintf(&b, "  th::pv<%s, %d>(o, a.p%d.cur());\n", KindConst(t.Base), t.Dims, pi)
	}
	b.WriteString("  o += ']';\n}\n")
	// run runs one candidate's tests from a given one; call makes the call and prints.
	b.WriteString(`using Call = void (*)(Args&, std::string&);
__attribute__((noinline)) static void run(int c, int from, Call call) {
  for (int t = from; t < NT; ++t) {
    try {
      Args a = mk(t);
      std::string o;
      call(a, o);
      ok(c, t, o);
    }
    TH_CATCH(c, t)
  }
}
`)
	bi.testsCode = []byte(b.String())
	return bi, nil
}
