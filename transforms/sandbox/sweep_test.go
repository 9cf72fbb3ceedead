package sandbox

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"transmute/internal/testenv"
)

// sweepHelperEnv makes the test binary a process that creates a work directory
// under the directory named by the variable, sweeps that directory, prints the
// work directory and "swept", and exits without removing it (as a killed run
// would) when its standard input closes.
const sweepHelperEnv = "TRANSMUTE_TEST_SWEEP_DIR"

func init() {
	dir := os.Getenv(sweepHelperEnv)
	if dir == "" {
		return
	}
	d, err := newWorkDir(dir)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(2)
	}
	fmt.Println(d)
	sweepStale(dir)
	fmt.Println("swept")
	io.Copy(io.Discard, os.Stdin)
	os.Exit(0)
}

// helper is a running sweep helper and its work directory.
type helper struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	dir   string
}

func startHelper(t *testing.T, dir string) *helper {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), sweepHelperEnv+"="+dir)
	cmd.Stderr = os.Stderr
	stdin, stdout := testenv.StartPiped(t, cmd)
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	sc := bufio.NewScanner(stdout)
	var lines []string
	for len(lines) < 2 && sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) < 2 || lines[1] != "swept" || !strings.HasPrefix(lines[0], dir) {
		t.Fatalf("helper said %q", lines)
	}
	return &helper{cmd: cmd, stdin: stdin, dir: lines[0]}
}

// stop ends the helper as a killed run: its directory stays.
func (h *helper) stop(t *testing.T) {
	t.Helper()
	h.stdin.Close()
	if err := h.cmd.Wait(); err != nil {
		t.Fatal(err)
	}
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// Two live processes sweeping the same directory keep each other's work
// directories (and their own); once one has ended, the other's next sweep (or
// this process's) removes its directory, and only that one.
func TestSweepKeepsLiveOwnersDirs(t *testing.T) {
	if _, ok := selfOwner(); !ok {
		t.Skip("/proc does not tell this process's boot, PID namespace or start time")
	}
	dir := t.TempDir()
	mine, err := newWorkDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	a := startHelper(t, dir)
	b := startHelper(t, dir) // swept while a runs
	if n := sweepStale(dir); n != 0 {
		t.Errorf("sweep with every owner alive removed %d directories", n)
	}
	for _, d := range []string{mine, a.dir, b.dir} {
		if !exists(d) {
			t.Fatalf("%s of a live process was removed", d)
		}
	}
	a.stop(t)
	c := startHelper(t, dir) // sweeps at start, as a new launcher does
	if exists(a.dir) {
		t.Errorf("%s of an ended process was not removed", a.dir)
	}
	for _, d := range []string{mine, b.dir, c.dir} {
		if !exists(d) {
			t.Errorf("%s of a live process was removed", d)
		}
	}
}

// Only a directory named after a dead process of this boot and PID namespace is
// removed: not a live one's, not one whose name cannot be read, not a symlink or
// a file, not another boot's or namespace's.
func TestSweepRemovesOnlyProvablyDead(t *testing.T) {
	me, ok := selfOwner()
	if !ok {
		t.Skip("/proc does not tell this process's boot, PID namespace or start time")
	}
	// A process that has ended and been reaped: its pid and start time name nobody.
	gone := exec.Command("sleep", "60")
	if err := gone.Start(); err != nil {
		t.Fatal(err)
	}
	goneStart, ok := startTime(gone.Process.Pid)
	if !ok {
		t.Fatal("no start time of a child")
	}
	gone.Process.Kill()
	gone.Wait()
	deadOwner := owner{boot: me.boot, pidNS: me.pidNS, pid: gone.Process.Pid, start: goneStart}
	reused := me
	reused.start++ // my pid, another start time: the pid was reused
	otherBoot := deadOwner
	otherBoot.boot = strings.Repeat("0", 16)
	otherNS := deadOwner
	otherNS.pidNS++

	dir := t.TempDir()
	target := t.TempDir() // what a symlink points to
	if err := os.WriteFile(filepath.Join(target, "keep"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	name := func(o owner, suffix string) string { return workDirPrefix + o.tag() + "-" + suffix }
	removed := []string{name(deadOwner, "1"), name(reused, "2")}
	kept := []string{name(me, "3"), name(otherBoot, "4"), name(otherNS, "5"), workDirPrefix + "123456789"}
	for _, n := range append(append([]string{}, removed...), kept...) {
		if err := os.MkdirAll(filepath.Join(dir, n, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := name(deadOwner, "link")
	file := name(deadOwner, "file")
	if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, file), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if n := sweepStale(dir); n != len(removed) {
		t.Errorf("sweep removed %d directories, want %d", n, len(removed))
	}
	for _, n := range removed {
		if exists(filepath.Join(dir, n)) {
			t.Errorf("%s (dead owner) not removed", n)
		}
	}
	for _, n := range append(kept, link, file) {
		if !exists(filepath.Join(dir, n)) {
			t.Errorf("%s removed", n)
		}
	}
	if !exists(filepath.Join(target, "keep")) {
		t.Error("the sweep followed a symlink")
	}
}

// The owner written into a name reads back; other names do not parse.
func TestParseOwner(t *testing.T) {
	o := owner{boot: "0123456789abcdef", pidNS: 4026531836, pid: 4242, start: 987654}
	got, ok := parseOwner(workDirPrefix + o.tag() + "-1234567")
	if !ok || got != o {
		t.Errorf("parseOwner = %+v, %v; want %+v", got, ok, o)
	}
	for _, n := range []string{"transmute-sbx-1234567", "transmute-sbx-0123456789abcdef.1.2-x",
		"transmute-sbx-0123456789abcdeg.1.2.3-x", "transmute-sbx-0123456789abcdef.1.0.3-x", "other-0123456789abcdef.1.2.3-x"} {
		if o, ok := parseOwner(n); ok {
			t.Errorf("parseOwner(%q) = %+v, want no owner", n, o)
		}
	}
}
