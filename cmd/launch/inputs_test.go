package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// launchInput runs launch on the bundled problems given by corpus (a spec), with
// stdin and the extra files (fd 3...) given, and returns its combined output.
func launchInput(t *testing.T, out, run, corpus string, stdin io.Reader, extra []*os.File, args ...string) (string, error) {
	t.Helper()
	all := []string{"--", "--corpus", corpus, "--translator", "identity:", "--directions", "python-python,java-python",
		"--limit", "2", "--shards", "2", "--workers", "1", "--run", run, "--out", out,
		"--work-dir", sharedWork, "--cache", sharedCache}
	cmd := exec.Command(os.Args[0], append(all, args...)...)
	cmd.Env = append(os.Environ(), "TRANSMUTE_TEST_LAUNCH=1")
	cmd.Dir = t.TempDir()
	cmd.Stdin, cmd.ExtraFiles = stdin, extra
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	return buf.String(), err
}

// TestCorpusReadOnce: a corpus that can be read only once (/dev/stdin, a pipe as a
// process substitution gives one) is read once, so it gives the tables the file
// gives instead of an empty run; an empty corpus never replaces a published run
// without --allow-empty; /dev/zero is a one-line error, not an out-of-memory crash.
func TestCorpusReadOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the launch command several times")
	}
	dir := t.TempDir()
	file := filepath.Join(repo(t), "data/problems.jsonl")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	same := func(t *testing.T, name string, got, want snapshot) {
		t.Helper()
		for _, table := range []string{"problems", "scores"} {
			if !reflect.DeepEqual(got.tables[table], want.tables[table]) {
				t.Errorf("%s: table %s differs from the file's:\n%v\nwant\n%v", name, table, got.tables[table], want.tables[table])
			}
		}
		for table, rows := range want.tables {
			if len(got.tables[table]) != len(rows) {
				t.Errorf("%s: table %s has %d rows, the file's run %d", name, table, len(got.tables[table]), len(rows))
			}
		}
	}

	out := filepath.Join(dir, "file")
	if logs, err := launchInput(t, out, "R", "jsonl:"+file, nil, nil); err != nil {
		t.Fatalf("from the file: %v\n%s", err, logs)
	}
	want := readOutput(t, out)
	if len(want.tables["problems"]) != 2 {
		t.Fatalf("the file's run has %d problems", len(want.tables["problems"]))
	}

	t.Run("stdin", func(t *testing.T) {
		out := filepath.Join(dir, "stdin")
		logs, err := launchInput(t, out, "R", "jsonl:/dev/stdin?name=problems", bytes.NewReader(data), nil)
		if err != nil {
			t.Fatalf("%v\n%s", err, logs)
		}
		same(t, "/dev/stdin", readOutput(t, out), want)
	})
	t.Run("pipe", func(t *testing.T) {
		// What bash's <(cat corpus.jsonl) hands over: /dev/fd/N, the read end of a pipe.
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			w.Write(data)
			w.Close()
		}()
		out := filepath.Join(dir, "pipe")
		logs, err := launchInput(t, out, "R", "jsonl:/dev/fd/3?name=problems", nil, []*os.File{r})
		r.Close()
		if err != nil {
			t.Fatalf("%v\n%s", err, logs)
		}
		same(t, "a pipe", readOutput(t, out), want)
	})
	t.Run("fifo", func(t *testing.T) {
		fifo := filepath.Join(dir, "problems.jsonl")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip(err)
		}
		go func() {
			f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err == nil {
				f.Write(data)
				f.Close()
			}
		}()
		out := filepath.Join(dir, "fifo")
		logs, err := launchInput(t, out, "R", "jsonl:"+fifo, nil, nil)
		if err != nil {
			t.Fatalf("%v\n%s", err, logs)
		}
		same(t, "a FIFO", readOutput(t, out), want)
	})

	t.Run("empty", func(t *testing.T) {
		empty := filepath.Join(dir, "empty.jsonl")
		os.WriteFile(empty, nil, 0o644)
		for _, spec := range []string{"jsonl:" + empty, "jsonl:/dev/stdin", "jsonl:/dev/null"} {
			logs, err := launchInput(t, out, "EMPTY", spec, strings.NewReader(""), nil)
			if err == nil || !strings.Contains(logs, "--allow-empty") {
				t.Errorf("%s: %v, want a refusal naming --allow-empty:\n%s", spec, err, logs)
			}
			noLeftovers(t, out)
			assertIntact(t, out, want, true)
		}
		logs, err := launchInput(t, out, "EMPTY", "jsonl:"+empty, nil, nil, "--allow-empty")
		if err != nil {
			t.Fatalf("--allow-empty: %v\n%s", err, logs)
		}
		if got := readOutput(t, out); got.run != "EMPTY" || len(got.tables["problems"]) != 0 {
			t.Errorf("--allow-empty published run %q with %d problems", got.run, len(got.tables["problems"]))
		}
		if logs, err := launchInput(t, out, "R", "jsonl:"+file, nil, nil); err != nil {
			t.Fatalf("%v\n%s", err, logs)
		}
		want = readOutput(t, out)
	})

	t.Run("dev-zero", func(t *testing.T) {
		logs, err := launchInput(t, out, "ZERO", "jsonl:/dev/zero", nil, nil, "--max-line-bytes", strconv.Itoa(1<<20))
		if err == nil || !strings.Contains(logs, "longer than 1048576 bytes") || strings.Contains(logs, "fatal error") ||
			strings.Count(strings.TrimSpace(logs), "\n") > 0 {
			t.Errorf("/dev/zero: %v, want a one-line error naming the maximum:\n%s", err, logs)
		}
		assertIntact(t, out, want, true)
	})
}

// TestRefusedBeforeThePipeline: settings that would fail deep in the pipeline, or
// silently double or misread the run, are refused in one line before the output is
// touched.
func TestRefusedBeforeThePipeline(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the launch command")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	file := filepath.Join(repo(t), "data/problems.jsonl")
	if logs, err := launchInput(t, out, "A", "jsonl:"+file, nil, nil); err != nil {
		t.Fatalf("%v\n%s", err, logs)
	}
	a := readOutput(t, out)
	regular := filepath.Join(dir, "a-file")
	os.WriteFile(regular, []byte("x"), 0o644)
	cfg := func(body string) string {
		p := filepath.Join(dir, strconv.Itoa(len(body))+".json")
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	for _, tc := range []struct {
		env  string
		args []string
		want string
	}{
		{"TMPDIR=" + filepath.Join(dir, "nowhere"), nil, "TMPDIR"},
		{"", []string{"--cache", regular}, "--cache " + regular + ": not a directory"},
		{"", []string{"--corpus", "jsonl:" + file}, "given twice"},
		{"", []string{"--translator", "identity:"}, "a second translator"},
		{"", []string{"--wall-limit", "1ns"}, "below the floor"},
		{"", []string{"--memory-limit-mb", "1"}, "below the floor"},
		{"", []string{"--config", cfg(`{"cpu_time": 10}`)}, "cpu_time"},
		{"", []string{"--config", cfg(`{"memory_bytes": 1024}`)}, "memory_bytes"},
	} {
		cmd := exec.Command(os.Args[0], append([]string{"--", "--corpus", "jsonl:" + file, "--translator", "identity:",
			"--limit", "2", "--run", "BAD", "--out", out}, tc.args...)...)
		cmd.Env = append(os.Environ(), "TRANSMUTE_TEST_LAUNCH=1")
		if tc.env != "" {
			cmd.Env = append(cmd.Env, tc.env)
		}
		cmd.Dir = t.TempDir()
		logs, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(logs), tc.want) || strings.Count(strings.TrimSpace(string(logs)), "\n") > 0 {
			t.Errorf("%s %v: %v, want a one-line error saying %q:\n%s", tc.env, tc.args, err, tc.want, logs)
		}
		noLeftovers(t, out)
		assertIntact(t, out, a, true)
	}
}

// TestPublishOnAFullDisk: a run whose publish finds the output's disk full (a small
// tmpfs) fails saying so, leaves the previous run whole to the manifest and to a
// glob, and once there is space again the next launch publishes.
func TestPublishOnAFullDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the launch command")
	}
	disk := filepath.Join(t.TempDir(), "disk")
	os.Mkdir(disk, 0o755)
	if err := syscall.Mount("tmpfs", disk, "tmpfs", 0, "size=64m"); err != nil {
		t.Skipf("cannot mount a tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(disk, syscall.MNT_DETACH) })
	out := filepath.Join(disk, "out")
	file := filepath.Join(repo(t), "data/problems.jsonl")
	work := []string{"--work-dir", sharedWork} // off the small disk
	if logs, err := launchInput(t, out, "A", "jsonl:"+file, nil, nil, work...); err != nil {
		t.Fatalf("%v\n%s", err, logs)
	}
	a := readOutput(t, out)
	var st syscall.Statfs_t
	if err := syscall.Statfs(disk, &st); err != nil {
		t.Fatal(err)
	}
	used := int64(st.Blocks-st.Bfree) * st.Bsize
	// Room for the previous run, the new run's staging, and half its publish.
	if err := syscall.Mount("tmpfs", disk, "tmpfs", syscall.MS_REMOUNT, "size="+strconv.FormatInt(used*5/2, 10)); err != nil {
		t.Fatal(err)
	}
	logs, err := launchInput(t, out, "B", "jsonl:"+file, nil, nil, work...)
	if err == nil {
		t.Fatalf("run B published on a full disk:\n%s", logs)
	}
	if !strings.Contains(logs, "no space left on device") || !strings.Contains(logs, "publish") ||
		!strings.Contains(logs, "the previous run stays published") {
		t.Errorf("run B failed without saying the publish ran out of space and was undone:\n%s", logs)
	}
	noLeftovers(t, out)
	assertIntact(t, out, a, true)
	if err := syscall.Mount("tmpfs", disk, "tmpfs", syscall.MS_REMOUNT, "size=64m"); err != nil {
		t.Fatal(err)
	}
	if logs, err := launchInput(t, out, "C", "jsonl:"+file, nil, nil, work...); err != nil {
		t.Fatalf("the launch after space returned: %v\n%s", err, logs)
	}
	noLeftovers(t, out)
	assertWhole(t, out, "C", a)
}
