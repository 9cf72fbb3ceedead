package java2py

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// signature returns the parameter and return types of the entry (last) method.
func signature(src string) ([]string, string, error) {
	root, err := parse([]byte(classPrefix + stripHeader(src) + "\n}"))
	if err != nil {
		return nil, "", err
	}
	t := &translator{src: []byte(classPrefix + stripHeader(src) + "\n}")}
	var params []string
	ret := ""
	for _, k := range root.kids {
		if k.kind != "class_declaration" {
			continue
		}
		for _, m := range t.members(k.f("body")) {
			if m.kind != "method_declaration" {
				continue
			}
			params, ret = nil, t.typeOf(m.f("type"), nil)
			for _, p := range m.f("parameters").namedKids() {
				params = append(params, t.typeOf(p.f("type"), p.f("dimensions")))
			}
		}
	}
	return params, ret, nil
}

// TestDiffAgainstJava runs the gold Java functions with numeric signatures under the
// JDK and their translations under Python on the same random inputs, and compares
// the printed results (Java semantics, not the benchmark's Python gold). Set
// J2PY_DIFF=1 to run it (J2PY_DIFF=wrap translates with Options.WrapOverflow).
func TestDiffAgainstJava(t *testing.T) {
	if os.Getenv("J2PY_DIFF") == "" {
		t.Skip("set J2PY_DIFF=1 to run the differential test against javac/java")
	}
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("javac not on PATH")
	}
	rows := loadGold(t, corpusDir(t))
	rng := rand.New(rand.NewSource(1))
	var java, py strings.Builder
	java.WriteString("import java.util.*;\npublic class Diff {\nstatic int max(int a, int b) { return Math.max(a, b); }\nstatic int min(int a, int b) { return Math.min(a, b); }\nstatic void swap(int a, int b) { }\n")
	var mainBody strings.Builder
	py.WriteString("def _fmt(x):\n    if x is True: return 'true'\n    if x is False: return 'false'\n    if isinstance(x, float): return _jstrd(x)\n    return str(x)\n")
	nfun := 0
	allowed := map[string]bool{"int": true, "long": true, "boolean": true, "double": true}
	for i, r := range rows {
		params, ret, err := signature(r.Java)
		if err != nil || !allowed[ret] || len(params) == 0 || strings.Contains(r.Java, "while") && os.Getenv("J2PY_DIFF_WHILE") == "" {
			continue
		}
		ok := true
		for _, p := range params {
			ok = ok && allowed[p] && p != "boolean"
		}
		opts := DefaultOptions
		if os.Getenv("J2PY_DIFF") == "wrap" {
			opts.WrapOverflow = true
		}
		res, terr := TranslateWith(r.Java, opts)
		if !ok || terr != nil {
			continue
		}
		nfun++
		cls := fmt.Sprintf("C%d", i)
		fmt.Fprintf(&java, "static class %s {\n%s\n}\n", cls, r.Java)
		mod := fmt.Sprintf("m%d", i)
		fmt.Fprintf(&py, "%s = {}\nexec(%q + '\\n' + %q, %s)\n", mod, res.Imports, res.Code, mod)
		name := res.Entry
		jname := strings.TrimSuffix(name, "_")
		for k := 0; k < 5; k++ {
			var args []string
			for _, p := range params {
				switch p {
				case "double":
					args = append(args, fmt.Sprintf("%d.5", rng.Intn(20)))
				default:
					args = append(args, fmt.Sprint(rng.Intn(25)))
				}
			}
			a := strings.Join(args, ", ")
			fmt.Fprintf(&mainBody, "try { System.out.println(\"%s:\" + %s.%s(%s)); } catch (Throwable e) { System.out.println(\"%s:EXC\"); }\n", cls, cls, jname, a, cls)
			fmt.Fprintf(&py, "try:\n    print('%s:' + _fmt(%s['%s'](%s)))\nexcept Exception:\n    print('%s:EXC')\n", cls, mod, name, a, cls)
		}
	}
	java.WriteString("public static void main(String[] args) {\n" + mainBody.String() + "}\n}\n")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Diff.java"), []byte(java.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("javac", "-nowarn", "-d", dir, filepath.Join(dir, "Diff.java")).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	jout, err := exec.Command("java", "-Xss64m", "-cp", dir, "Diff").CombinedOutput()
	if err != nil {
		t.Fatalf("java: %v\n%s", err, jout)
	}
	prog := "import decimal, math\n" + helperDefs["_jstrd"] + py.String()
	pout, err := exec.Command("/usr/bin/python3", "-c", prog).CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, pout)
	}
	jl := strings.Split(strings.TrimSpace(string(jout)), "\n")
	pl := strings.Split(strings.TrimSpace(string(pout)), "\n")
	if len(jl) != len(pl) {
		t.Fatalf("java printed %d lines, python %d", len(jl), len(pl))
	}
	bad := map[string]bool{}
	for i := range jl {
		if jl[i] != pl[i] {
			cls, _, _ := strings.Cut(jl[i], ":")
			if !bad[cls] {
				t.Logf("differs: java %q python %q", jl[i], pl[i])
			}
			bad[cls] = true
		}
	}
	t.Logf("functions %d, calls %d, functions differing %d", nfun, len(jl), len(bad))
}
