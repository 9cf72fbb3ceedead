package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const (
	module = "transmute"
	beam   = "github.com/apache/beam/"
)

// mayUseBeam are the packages allowed to depend on Beam.
var mayUseBeam = map[string]bool{module + "/pipelines": true, module + "/cmd/launch": true}

// listed is the part of `go list -json` the check reads.
type listed struct {
	ImportPath   string
	Deps         []string // every package it builds with, transitively
	TestImports  []string
	XTestImports []string
}

// beamViolations names each package outside mayUseBeam that builds with Beam (a
// Beam package among its transitive dependencies) or whose tests import Beam or
// one of the packages allowed to use it.
func beamViolations(pkgs []listed) []string {
	var out []string
	for _, p := range pkgs {
		if mayUseBeam[p.ImportPath] {
			continue
		}
		for _, d := range p.Deps {
			if strings.HasPrefix(d, beam) {
				out = append(out, p.ImportPath+" depends on "+d)
				break
			}
		}
		for _, imp := range append(append([]string(nil), p.TestImports...), p.XTestImports...) {
			if strings.HasPrefix(imp, beam) || mayUseBeam[imp] {
				out = append(out, p.ImportPath+" (tests) imports "+imp)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// goList runs `go list -json` on every package of the module.
func goList(t *testing.T) []listed {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go tool is not on PATH: cannot list the module's packages")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goBin, "list", "-json=ImportPath,Deps,TestImports,XTestImports", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	data, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []listed
	d := json.NewDecoder(bytes.NewReader(data))
	for {
		var p listed
		if err := d.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// TestOnlyPipelinesAndLaunchUseBeam: no package outside transmute/pipelines and
// transmute/cmd/launch builds with Beam, in its code or its tests (the check a
// reader can repeat: go list -deps ./cmd/report | grep -c apache/beam prints 0).
func TestOnlyPipelinesAndLaunchUseBeam(t *testing.T) {
	pkgs := goList(t)
	seen := map[string]bool{}
	for _, p := range pkgs {
		seen[p.ImportPath] = true
	}
	// The listing must be the module's, with the pipelines in it, or the check
	// would pass on nothing.
	for _, want := range []string{module + "/pipelines", module + "/cmd/report", module + "/report"} {
		if !seen[want] {
			t.Fatalf("go list did not list %s (%d packages listed)", want, len(pkgs))
		}
	}
	for _, v := range beamViolations(pkgs) {
		t.Error(v)
	}
}

// The check itself catches a direct import, a transitive one (through the
// pipelines) and a test import, and allows the two packages that may use Beam.
func TestBeamViolations(t *testing.T) {
	pkgs := []listed{
		{ImportPath: module + "/pipelines", Deps: []string{beam + "sdks/v2/go/pkg/beam"}},
		{ImportPath: module + "/cmd/launch", Deps: []string{module + "/pipelines", beam + "sdks/v2/go/pkg/beam"}},
		{ImportPath: module + "/report", Deps: []string{"fmt", module + "/schemas"}},
		{ImportPath: module + "/io/sink", Deps: []string{beam + "sdks/v2/go/pkg/beam/register"}},
		{ImportPath: module + "/cmd/report", Deps: []string{module + "/pipelines", beam + "sdks/v2/go/pkg/beam"}},
		{ImportPath: module + "/transforms/score", XTestImports: []string{module + "/pipelines"}},
		{ImportPath: module + "/transforms/stats", TestImports: []string{"testing", beam + "sdks/v2/go/pkg/beam/testing/ptest"}},
	}
	got := beamViolations(pkgs)
	want := []string{
		module + "/cmd/report depends on " + beam + "sdks/v2/go/pkg/beam",
		module + "/io/sink depends on " + beam + "sdks/v2/go/pkg/beam/register",
		module + "/transforms/score (tests) imports " + module + "/pipelines",
		module + "/transforms/stats (tests) imports " + beam + "sdks/v2/go/pkg/beam/testing/ptest",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
