package testenv

import (
	"bufio"
	"encoding/json"
	"os"
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
