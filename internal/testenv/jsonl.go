package testenv

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// ReadJSONL decodes every line of the JSONL file at path (lines up to 64 MiB)
// and fails the test on any error.
func ReadJSONL[T any](tb testing.TB, path string) []T {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var rows []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var r T
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return rows
}

// SharedJSONL decodes the JSONL file at rel under ../shared/corpora, as
// ReadJSONL, and skips the test when the shared corpora lack it.
func SharedJSONL[T any](tb testing.TB, rel string) []T {
	tb.Helper()
	return ReadJSONL[T](tb, filepath.Join(SharedCorpora(tb, rel), rel))
}
