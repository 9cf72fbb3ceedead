package java

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"transmute/transforms/sandbox"
)

// TestClassDataSharing: the engine made a class-data sharing archive of a worker's
// classes, its workers start with it, and a JVM started with the worker's flags
// (another heap size than the archive's) can map it: -Xshare:on fails when it cannot.
func TestClassDataSharing(t *testing.T) {
	e := testEngine
	if e.archive == "" {
		// the engine runs without one when the JDK cannot make it (no default
		// archive to build on): only then is its absence not a failure
		if _, err := os.Stat(filepath.Join(e.javaHome, "lib", "server", "classes.jsa")); err != nil {
			t.Skipf("this JDK has no default class-data sharing archive (%v)", err)
		}
		t.Fatal("no class-data sharing archive")
	}
	if _, err := os.Stat(e.archive); err != nil {
		t.Fatal(err)
	}
	spec := e.workerSpec(sandbox.Limits{MemoryBytes: 700 << 20})
	args := strings.Join(spec.Args, " ")
	if !strings.Contains(args, "-XX:SharedArchiveFile="+e.archive) || !strings.Contains(args, runnerJar) {
		t.Fatalf("worker arguments %s", args)
	}
	on := []string{"-Xlog:cds=info", "-Xlog:class+load=info"}
	for _, a := range spec.Args {
		if a == "-Xshare:auto" {
			a = "-Xshare:on"
		}
		on = append(on, a)
	}
	cmd := exec.Command(e.java, on...)
	cmd.Stdin = strings.NewReader("") // no job: the worker ends at once
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("worker with -Xshare:on: %v\n%s", err, out)
	}
	// the runner's own classes come from the archive (the dynamic one: the JDK's
	// default archive has only the JDK's classes)
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, runnerMain+" ") {
			if !strings.Contains(l, "shared objects file (top)") {
				t.Errorf("the runner was not loaded from the archive: %s", l)
			}
			return
		}
	}
	t.Errorf("no class loading line for %s in\n%s", runnerMain, out)
}
