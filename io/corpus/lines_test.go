package corpus

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A line beyond the maximum is an error row naming it, holding only the maximum in
// memory; the lines after it are still read.
func TestLongLineIsAnErrorRow(t *testing.T) {
	long := `{"id":"LONG","x":"` + strings.Repeat("a", 5000) + `"}`
	b := memBucket(t, map[string]string{"p.jsonl": goodJSONL + "\n" + long + "\n" + strings.Replace(goodJSONL, "SUM_OF_DIGITS", "AFTER", 1)})
	c, err := readJSONL(context.Background(), b, "p", Options{MaxLineBytes: 4096})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Problems) != 2 || c.Problems[1].ID != "AFTER" {
		t.Errorf("problems %d, want the two short lines'", len(c.Problems))
	}
	if len(c.Errors) != 1 || !strings.Contains(c.Errors[0].Reason, "p.jsonl line 2: longer than the maximum line length of 4096 bytes") {
		t.Errorf("errors %+v", c.Errors)
	}
	// At the default maximum the line is read (and is bad JSON for its extra field).
	c, err = readJSONL(context.Background(), b, "p", Options{})
	if err != nil || len(c.Errors) != 1 || strings.Contains(c.Errors[0].Reason, "longer") {
		t.Errorf("default maximum: %v %+v", err, c.Errors)
	}
}

// Exactly the maximum is accepted, with or without a final newline; one byte more
// is not; CRLF endings are trimmed.
func TestEachLineBounds(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"abcd\nefgh", []string{"abcd", "efgh"}},
		{"abc\r\nabcde\n\nx", []string{"abc", "!", "", "x"}},
		{"abcde", []string{"!"}},
		{"", nil},
	} {
		var got []string
		err := eachLine(strings.NewReader(tc.in), 4, false, func(n int, line []byte, tooLong error) error {
			if tooLong != nil {
				got = append(got, "!")
			} else {
				got = append(got, string(line))
			}
			return nil
		})
		if err != nil || strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%q: %q %v, want %q", tc.in, got, err, tc.want)
		}
	}
}

// A stream is copied line by line; a stream of zeros without a newline ends the
// copy with an error once past the maximum, not with the memory exhausted.
func TestCopyLines(t *testing.T) {
	var out bytes.Buffer
	n, err := CopyLines(strings.NewReader("a\nb\r\n\nc"), &out, 16)
	if err != nil || n != 4 || out.String() != "a\nb\n\nc\n" {
		t.Errorf("copied %d lines %q %v", n, out.String(), err)
	}
	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip(err)
	}
	defer zero.Close()
	out.Reset()
	_, err = CopyLines(zero, &out, 1<<20)
	if !errors.Is(err, ErrLineTooLong) || !strings.Contains(err.Error(), "line 1 is longer than 1048576 bytes") {
		t.Errorf("/dev/zero: %v", err)
	}
	if out.Len() != 0 {
		t.Errorf("/dev/zero: %d bytes copied", out.Len())
	}
}

// A pipe or device is refused by Load (launch copies it first): reading it in place
// could see it empty the second time, or never end.
func TestLoadRefusesNonRegularFiles(t *testing.T) {
	if _, err := Load(context.Background(), "jsonl:/dev/zero"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("/dev/zero: %v", err)
	}
	dir := writeTree(t, map[string]string{"a.jsonl": goodJSONL + "\n"})
	n, e, err := Count(context.Background(), "jsonl:"+filepath.Join(dir, "a.jsonl")+"?name=named", Options{})
	if err != nil || n != 1 || e != 0 {
		t.Errorf("Count: %d problems %d errors %v", n, e, err)
	}
	c, err := Load(context.Background(), "jsonl:"+filepath.Join(dir, "a.jsonl")+"?name=named")
	if err != nil || c.Name != "jsonl:named" || c.Problems[0].Corpus != "jsonl:named" {
		t.Errorf("named: %v %+v", err, c)
	}
	if _, err := Load(context.Background(), "jsonl:"+filepath.Join(dir, "a.jsonl")+"?nam=x"); err == nil {
		t.Error("unknown option accepted")
	}
}

// Count streams: with a limit it stops reading at the limit.
func TestCountStopsAtLimit(t *testing.T) {
	var lines []string
	for _, id := range []string{"A", "B", "C", "D"} {
		lines = append(lines, strings.Replace(goodJSONL, "SUM_OF_DIGITS", id, 1))
	}
	lines = append(lines, "not json")
	dir := writeTree(t, map[string]string{"a.jsonl": strings.Join(lines, "\n")})
	spec := "jsonl:" + filepath.Join(dir, "a.jsonl")
	if n, e, err := Count(context.Background(), spec, Options{Limit: 2}); err != nil || n != 2 || e != 0 {
		t.Errorf("limit 2: %d %d %v", n, e, err)
	}
	if n, e, err := Count(context.Background(), spec, Options{}); err != nil || n != 4 || e != 1 {
		t.Errorf("no limit: %d %d %v", n, e, err)
	}
	c, err := LoadWith(context.Background(), spec, Options{Limit: 3})
	if err != nil || len(c.Problems) != 3 {
		t.Errorf("LoadWith limit 3: %v %d", err, len(c.Problems))
	}
}
