package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"transmute/io/blobs"
	"transmute/report"
)

// TestNewUserThreeTranslations is a new user's first run: a recorded file with 3
// translations of the bundled corpus's 30 Java->Python problems, one of them wrong.
// The summary must say coverage 3/30 with the pass rate over the 3 attempted beside
// the one over all 30, and warn; the report's first failure must be the wrong
// translation, not one of the 27 untranslated problems.
func TestNewUserThreeTranslations(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command")
	}
	dir := t.TempDir()
	gold := map[string]string{} // the Python gold of each problem
	data, err := os.ReadFile(filepath.Join(repo(t), "data/problems.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var p struct {
			ID        string            `json:"id"`
			Functions map[string]string `json:"functions"`
		}
		if err := json.Unmarshal([]byte(l), &p); err != nil {
			t.Fatal(err)
		}
		gold[p.ID] = p.Functions["python"]
	}
	var rec bytes.Buffer
	for _, id := range []string{"COUNT_SET_BITS", "DIGIT_SUM_RECURSIVE"} {
		line, _ := json.Marshal(map[string]string{"problem_id": id, "src_lang": "java", "tgt_lang": "python", "code": gold[id]})
		rec.Write(append(line, '\n'))
	}
	rec.WriteString(`{"problem_id":"SUM_OF_SQUARES_FORMULA","src_lang":"java","tgt_lang":"python","code":"def sum_of_squares(n):\n    return n * (n + 1) * (2 * n + 1) // 5"}` + "\n")
	three := filepath.Join(dir, "three.jsonl")
	if err := os.WriteFile(three, rec.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	cmd := launchCmd(t, out, "three")
	// A new user names the work directory relative to where they stand: the engines,
	// whose compilers run elsewhere, must still find it.
	relWork, err := filepath.Rel(cmd.Dir, sharedWork)
	if err != nil {
		t.Fatal(err)
	}
	// The new user's flags, replacing the lifecycle tests' translator and limit.
	cmd.Args = []string{cmd.Args[0], "--", "--corpus", "jsonl:" + filepath.Join(repo(t), "data/problems.jsonl"),
		"--translator", "recorded:" + three, "--directions", "java-python", "--workers", "1", "--run", "three",
		"--out", out, "--work-dir", relWork}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("launch: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	sum := stdout.String()
	var lines []string
	for _, l := range strings.Split(sum, "\n") {
		if strings.HasPrefix(l, "three ") {
			lines = append(lines, strings.Join(strings.Fields(l)[3:8], " "))
		}
	}
	if strings.Join(lines, "|") != "3/30 target_gold 0.067 0.667 (3)|3/30 source 0.067 0.667 (3)" {
		t.Errorf("coverage, oracle, pass/all, pass/attempted: %q\n%s", lines, sum)
	}
	if !strings.Contains(sum, "\nwarning: coverage below 100%") {
		t.Errorf("no coverage warning:\n%s", sum)
	}
	if strings.Contains(stderr.String(), "level=INFO") {
		t.Errorf("runner log lines without --verbose:\n%s", stderr.String())
	}
	b, err := blobs.Open(context.Background(), out)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	r, err := report.Load(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := report.Write(&page, r); err != nil {
		t.Fatal(err)
	}
	p := page.String()
	first := strings.Index(p, "<details id=")
	want := `<details id="` + report.Anchor("three", "SUM_OF_SQUARES_FORMULA", "java", "python") + `" data-kind="wrong_answer">`
	if first < 0 || !strings.HasPrefix(p[first:], want) {
		t.Errorf("the report's first failure is not the wrong translation: %.300s", p[max(first, 0):])
	}
	if n := strings.Count(p, "<details id="); n != 1 {
		t.Errorf("%d failures listed, want the one wrong translation (the 27 untranslated are counted)", n)
	}
}
