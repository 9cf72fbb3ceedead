package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"transmute/pipelines"
)

// TestPortableRun is the small version of `make portable`: scripts/portable.sh with a
// Prism job server and Beam's boot loader as separate processes, the SDK worker pool
// on the host (ROOTFS empty; TRANSMUTE_ROOTFS names a worker root file system to use
// instead, as root; TRANSMUTE_CONTAINER=podman or docker, a container of the worker
// image), on six problems of the bundled corpus; the script fails unless
// every table equals the in-process run's. It skips where it cannot run: -short, no
// go or bash, the boot loader's fixed port taken.
func TestPortableRun(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the portable run builds three binaries and runs the job twice")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH to build the job server and the boot loader")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	if c, err := net.Dial("tcp", "127.0.0.1:50000"); err == nil {
		c.Close()
		t.Skip("port 50000, which Beam's boot loader listens on, is taken")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip("no local TCP port:", err)
	}
	jobPort := l.Addr().(*net.TCPAddr).Port
	l.Close()

	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "portable.sh"))
	cmd.Env = append(os.Environ(), "GO="+goBin, "OUT="+out, "BIN="+filepath.Join(out, "bin"),
		fmt.Sprintf("JOB_PORT=%d", jobPort), "ROOTFS="+os.Getenv("TRANSMUTE_ROOTFS"),
		"CONTAINER="+os.Getenv("TRANSMUTE_CONTAINER"),
		"FLAGS=--config data/configs/run.json --cache off --limit 6")
	b, err := cmd.CombinedOutput()
	log := string(b)
	if err != nil {
		t.Fatalf("portable.sh: %v\n%s", err, log)
	}
	for _, table := range []string{"problems", "translations", "executions", "results", "scores"} {
		if !containsLine(log, table, "equal:") {
			t.Errorf("table %s not shown equal:\n%s", table, log)
		}
	}

	// The manifest of the portable run names the worker that ran it: another process.
	var m pipelines.Manifest
	data, err := os.ReadFile(filepath.Join(out, "portable", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Workers) != 1 || m.Workers[0].PID == os.Getpid() || m.Workers[0].Versions["java"] == "" {
		t.Errorf("workers = %+v; want the record of one worker process", m.Workers)
	}
	if m.Counts["problems"] != 6 || m.Counts["results"] == 0 {
		t.Errorf("counts = %v; want 6 problems and some results", m.Counts)
	}
	for _, c := range m.Config.Corpora {
		if !strings.HasPrefix(strings.TrimPrefix(c, "jsonl:"), "/") {
			t.Errorf("corpus %q submitted with a relative path: a worker resolves it in its own directory", c)
		}
	}
}

// containsLine tells whether a line of log starts with table and contains want.
func containsLine(log, table, want string) bool {
	for _, line := range strings.Split(log, "\n") {
		if strings.HasPrefix(line, table+" ") && strings.Contains(line, want) {
			return true
		}
	}
	return false
}

// TestAbsolutePaths: local paths become absolute against the working directory; URLs,
// absolute paths, specs without a file and "off" stay as written.
func TestAbsolutePaths(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	c := pipelines.Config{
		Corpora: []string{"jsonl:data/problems.jsonl", "trace:../shared/trace?transcoder=../shared/tc",
			"transcoder:gs://bucket/tc", "jsonl:/abs/p.jsonl"},
		Translators: []string{"recorded:data/t.jsonl?name=toy", "identity:", "builtin:", "recorded:s3://b/r.jsonl"},
		Output:      "out/run", WorkDir: "", ExecCache: "off",
	}
	got, err := absolutePaths(c)
	if err != nil {
		t.Fatal(err)
	}
	parent := filepath.Dir(wd)
	want := pipelines.Config{
		Corpora: []string{"jsonl:" + wd + "/data/problems.jsonl",
			"trace:" + parent + "/shared/trace?transcoder=" + parent + "/shared/tc",
			"transcoder:gs://bucket/tc", "jsonl:/abs/p.jsonl"},
		Translators: []string{"recorded:" + wd + "/data/t.jsonl?name=toy", "identity:", "builtin:", "recorded:s3://b/r.jsonl"},
		Output:      wd + "/out/run", WorkDir: "", ExecCache: "off",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("absolutePaths:\n got %+v\nwant %+v", got, want)
	}
	c.ExecCache = ".cache/exec"
	if got, _ := absolutePaths(c); got.ExecCache != wd+"/.cache/exec" {
		t.Errorf("exec cache: got %q", got.ExecCache)
	}
}
