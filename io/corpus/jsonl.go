package corpus

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"gocloud.dev/blob"

	"transmute/internal/clip"
	"transmute/schemas"
	"transmute/transforms/values"
)

// JSONLProblem is one line of a Transmute JSONL problem file
// (docs/CORPUS_FORMAT.md), as this package reads it and transforms/inputs writes it.
type JSONLProblem struct {
	ID        string            `json:"id"`
	Params    []schemas.Param   `json:"params"`
	Returns   string            `json:"returns"`
	Functions map[string]string `json:"functions"`
	Imports   map[string]string `json:"imports,omitempty"`
	Entry     map[string]string `json:"entry"`
	Tests     []json.RawMessage `json:"tests"`
}

// jsonlLanguages are the languages a JSONL problem may give functions in.
var jsonlLanguages = map[string]bool{schemas.Java: true, schemas.Python: true, schemas.Cpp: true, schemas.Go: true}

// ReadJSONL ingests Transmute JSONL problem files from b: the given keys, or
// every *.jsonl key in the bucket when none is given. The corpus is named
// "jsonl:<name>". Each bad line (bad JSON, unknown field or type, a function
// that does not define its entry, a test of the wrong arity or type, a line
// beyond the maximum length...) becomes an error row naming the file and line;
// the other lines are still read.
func ReadJSONL(ctx context.Context, b *blob.Bucket, name string, keys ...string) (*Corpus, error) {
	return readJSONL(ctx, b, name, Options{}, keys...)
}

func readJSONL(ctx context.Context, b *blob.Bucket, name string, o Options, keys ...string) (*Corpus, error) {
	c := &Corpus{Name: JSONLPref + name}
	err := scanJSONL(ctx, b, c, o, func(p *schemas.Problem) {
		c.Problems = append(c.Problems, *p)
		c.Tasks = append(c.Tasks, tasksFor(p)...)
	}, keys...)
	return c, err
}

// scanJSONL reads the JSONL files of b line by line, giving each problem to
// problem (which may keep it or not) and adding the error rows to c; it stops
// after o.Limit problems.
func scanJSONL(ctx context.Context, b *blob.Bucket, c *Corpus, o Options, problem func(*schemas.Problem), keys ...string) error {
	name := strings.TrimPrefix(c.Name, JSONLPref)
	if len(keys) == 0 {
		var err error
		if keys, err = ListKeys(ctx, b, "", ".jsonl"); err != nil {
			return fmt.Errorf("corpus: list JSONL files: %w", err)
		}
		if len(keys) == 0 {
			return fmt.Errorf("corpus: no .jsonl file in corpus %s", name)
		}
	}
	seen := map[string]string{}
	n := 0
	for _, key := range keys {
		err := EachLine(ctx, b, key, o.maxLine(), func(i int, raw []byte, tooLong error) error {
			where := fmt.Sprintf("%s line %d", key, i)
			if tooLong != nil {
				c.addError("", "", fmt.Sprintf("%s: longer than the maximum line length of %d bytes (--max-line-bytes)", where, o.maxLine()), "")
				return nil
			}
			line := string(raw)
			if strings.TrimSpace(line) == "" {
				return nil
			}
			if !utf8.ValidString(line) {
				// JSON decoding would turn the bytes into U+FFFD: an id or a test
				// value would silently become another one
				c.addError("", "", where+": not valid UTF-8", clip.String(strings.ToValidUTF8(line, "?"), 200))
				return nil
			}
			if at, bad := values.LoneSurrogate(raw); bad {
				// JSON decoding would turn it into U+FFFD, as with invalid UTF-8
				c.addError(probeID(line), "", fmt.Sprintf("%s: lone surrogate %s in a string: not a Unicode character", where, line[at:at+6]), clip.String(line, 200))
				return nil
			}
			p, err := parseJSONLProblem(line, c.Name)
			if err != nil {
				id := ""
				if p != nil {
					id = p.ID
				}
				c.addError(id, "", fmt.Sprintf("%s: %v", where, err), clip.String(line, 200))
				return nil
			}
			if prev, dup := seen[p.ID]; dup {
				c.addError(p.ID, "", fmt.Sprintf("%s: duplicate id (first at %s)", where, prev), "")
				return nil
			}
			seen[p.ID] = where
			problem(p)
			if n++; o.Limit > 0 && n >= o.Limit {
				return errStop
			}
			return nil
		})
		if errors.Is(err, errStop) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("corpus: read %s: %w", key, err)
		}
	}
	return nil
}

// probeID is the id of a line whose JSON decodes, for an error row ("" if none).
func probeID(line string) string {
	var probe struct {
		ID string `json:"id"`
	}
	json.Unmarshal([]byte(line), &probe)
	return probe.ID
}

// parseJSONLProblem validates one line. On error the returned problem (if not
// nil) carries the id, for the error row.
func parseJSONLProblem(line, corpusName string) (*schemas.Problem, error) {
	var j JSONLProblem
	d := json.NewDecoder(bytes.NewReader([]byte(line)))
	d.DisallowUnknownFields()
	if err := d.Decode(&j); err != nil {
		// recover the id for the error row when the JSON itself is fine
		var probe struct {
			ID string `json:"id"`
		}
		if json.Unmarshal([]byte(line), &probe) == nil && probe.ID != "" {
			return &schemas.Problem{ID: probe.ID}, fmt.Errorf("bad problem: %v", err)
		}
		return nil, fmt.Errorf("bad JSON: %v", err)
	}
	if d.More() {
		return nil, fmt.Errorf("bad JSON: more than one value on the line")
	}
	if strings.TrimSpace(j.ID) == "" {
		return nil, fmt.Errorf("missing id")
	}
	p := &schemas.Problem{ID: j.ID, Corpus: corpusName, Params: j.Params, Returns: j.Returns}
	if p.Params == nil {
		p.Params = []schemas.Param{}
	}
	if j.Returns == "" {
		return p, fmt.Errorf("missing returns")
	}
	rt, err := values.ParseType(j.Returns)
	if err != nil {
		return p, fmt.Errorf("returns: %v", err)
	}
	p.Returns = rt.String()
	names := map[string]bool{}
	for i, prm := range p.Params {
		if prm.Name == "" {
			return p, fmt.Errorf("parameter %d has no name", i)
		}
		if names[prm.Name] {
			return p, fmt.Errorf("duplicate parameter name %q", prm.Name)
		}
		names[prm.Name] = true
	}
	types, err := paramTypes(p.Params)
	if err != nil {
		return p, err
	}
	for i, t := range types {
		p.Params[i].Type = t.String()
	}
	if len(j.Functions) == 0 {
		return p, fmt.Errorf("no functions")
	}
	for l := range j.Imports {
		if _, ok := j.Functions[l]; !ok {
			return p, fmt.Errorf("imports for %q, which has no function", l)
		}
	}
	for l := range j.Entry {
		if _, ok := j.Functions[l]; !ok {
			return p, fmt.Errorf("entry for %q, which has no function", l)
		}
	}
	for _, l := range slices.Sorted(maps.Keys(j.Functions)) {
		code := j.Functions[l]
		if !jsonlLanguages[l] {
			return p, fmt.Errorf("unknown language %q", l)
		}
		if strings.TrimSpace(code) == "" {
			return p, fmt.Errorf("empty %s function", l)
		}
		name, decl, err := DescribeFunction(l, code, j.Entry[l])
		if err != nil {
			return p, fmt.Errorf("%s function: %v", l, err)
		}
		p.Functions = append(p.Functions, schemas.Function{Lang: l, Name: name, Code: code,
			Imports: j.Imports[l], Signature: decl})
	}
	sort.SliceStable(p.Functions, func(a, b int) bool {
		return langRank(p.Functions[a].Lang) < langRank(p.Functions[b].Lang)
	})
	if len(j.Tests) == 0 {
		return p, fmt.Errorf("no tests")
	}
	for i, raw := range j.Tests {
		args, err := values.CanonicalArgs(types, string(raw))
		if err != nil {
			return p, fmt.Errorf("test %d: %v", i, err)
		}
		p.Tests = append(p.Tests, schemas.Test{Index: int32(i), Args: args})
	}
	return p, nil
}

func langRank(l string) int {
	for i, k := range schemas.Languages {
		if k == l {
			return i
		}
	}
	return len(schemas.Languages)
}
