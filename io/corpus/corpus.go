// Package corpus ingests benchmark corpora into Transmute's canonical problem
// model (schemas.Problem, schemas.Task): TransCoder-test, TRACE, and Transmute's
// own JSONL format (docs/CORPUS_FORMAT.md). Corpora are read through gocloud.dev
// blob buckets, so a corpus may live on local disk (a plain path or file://),
// in memory (mem://) or in a cloud bucket (gs://, s3://, ... when the binary
// links the driver).
//
// Ingestion never fails on a single bad problem: it becomes a schemas.ErrorRow
// (Stage "ingest") with the reason. Load fails only when the corpus itself
// cannot be opened.
package corpus

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"gocloud.dev/blob"
	_ "gocloud.dev/blob/fileblob" // file:// buckets
	_ "gocloud.dev/blob/memblob"  // mem:// buckets

	"transmute/io/blobs"
	"transmute/schemas"
)

// StageIngest is the ErrorRow stage of ingestion errors.
const StageIngest = "ingest"

// Corpus names.
const (
	TransCoder = "transcoder"
	Trace      = "trace"
	JSONLPref  = "jsonl:"
)

// Corpus is an ingested corpus: its problems, its translation tasks, and the
// inputs that could not be used.
type Corpus struct {
	// Name is the corpus name written in Problem.Corpus and Task.Corpus:
	// "transcoder", "trace" or "jsonl:<name>".
	Name     string
	Problems []schemas.Problem
	Tasks    []schemas.Task
	Errors   []schemas.ErrorRow
}

// Problem returns the problem with id, if the corpus has it.
func (c *Corpus) Problem(id string) (*schemas.Problem, bool) {
	for i := range c.Problems {
		if c.Problems[i].ID == id {
			return &c.Problems[i], true
		}
	}
	return nil, false
}

func (c *Corpus) addError(problemID, lang, reason, detail string) {
	c.Errors = append(c.Errors, schemas.ErrorRow{
		Stage: StageIngest, Corpus: c.Name, ProblemID: problemID, Lang: lang,
		Reason: reason, Detail: detail,
	})
}

// Load ingests the corpus named by spec:
//
//	transcoder:<url-or-path>          TransCoder-test directory (gold.jsonl + testscript/)
//	transcoder:<dir>?go=<dir>         the same, with Go golds from TransCoder's Go
//	                                  test scripts <id>.go (AddGoGolds)
//	trace:<url-or-path>[?transcoder=<url-or-path>]
//	                                  TRACE directory (tasks.jsonl); its problems come
//	                                  from the TransCoder-test directory given, or from
//	                                  a sibling "transcoder-test" directory
//	jsonl:<url-or-path>               a Transmute JSONL problem file, or a directory
//	                                  whose *.jsonl files are all read
//
// A location is a plain local path or a gocloud.dev blob URL (see OpenBucket).
//
// A jsonl: spec may name its corpus (?name=NAME; default the file's or directory's
// base name), as a stream read through a copy (/dev/stdin) needs to.
func Load(ctx context.Context, spec string) (*Corpus, error) {
	return LoadWith(ctx, spec, Options{})
}

// LoadWith is Load with options: a JSONL corpus stops after o.Limit problems, and
// its lines are bounded by o.MaxLineBytes.
func LoadWith(ctx context.Context, spec string, o Options) (*Corpus, error) {
	var c *Corpus
	whole, err := scan(ctx, spec, o, func(co *Corpus) { c = co }, func(p *schemas.Problem) {
		c.Problems = append(c.Problems, *p)
		c.Tasks = append(c.Tasks, tasksFor(p)...)
	})
	if err != nil {
		return nil, err
	}
	if whole != nil {
		return whole, nil
	}
	return c, nil
}

// Count reads the corpus named by spec as LoadWith does, without keeping its
// problems: a JSONL corpus is streamed, so checking a large one costs the memory of
// one line, not of the corpus. It returns the number of problems (at most o.Limit
// when set) and error rows.
func Count(ctx context.Context, spec string, o Options) (problems, errs int, err error) {
	var c *Corpus
	whole, err := scan(ctx, spec, o, func(co *Corpus) { c = co }, func(*schemas.Problem) { problems++ })
	if whole != nil {
		problems, c = len(whole.Problems), whole
		if o.Limit > 0 && problems > o.Limit {
			problems = o.Limit
		}
	}
	if c != nil {
		errs = len(c.Errors)
	}
	return problems, errs, err
}

// JSONLLocation is the location of a jsonl: spec without its options, and its
// name option ("" if none).
func JSONLLocation(spec string) (loc, name string, ok bool) {
	rest, ok := strings.CutPrefix(spec, JSONLPref)
	if !ok {
		return "", "", false
	}
	loc, opts, err := splitOptions(rest, "name")
	if err != nil {
		return "", "", false
	}
	return loc, opts.Get("name"), true
}

// scan reads the corpus of spec. A JSONL corpus is streamed: start gets the corpus
// (its name; error rows are added to it) and problem every problem read. A
// transcoder: or trace: corpus is read whole and returned.
func scan(ctx context.Context, spec string, o Options, start func(*Corpus), problem func(*schemas.Problem)) (*Corpus, error) {
	kind, rest, ok := strings.Cut(spec, ":")
	if !ok || rest == "" {
		return nil, fmt.Errorf("corpus: spec %q: want transcoder:<dir>, trace:<dir> or jsonl:<file-or-dir>", spec)
	}
	ours := []string{"transcoder", GoScriptsOption}
	if kind == "jsonl" {
		ours = []string{"name"}
	}
	loc, opts, err := splitOptions(rest, ours...)
	if err != nil {
		return nil, fmt.Errorf("corpus: spec %q: %v", spec, err)
	}
	if kind != "jsonl" {
		return loadWhole(ctx, kind, spec, loc, opts)
	}
	dir, file, err := splitFileLocation(loc, ".jsonl")
	if err != nil {
		return nil, err
	}
	b, err := OpenBucket(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	name := opts.Get("name")
	var keys []string
	if file != "" {
		keys = []string{file}
		if name == "" {
			name = strings.TrimSuffix(file, ".jsonl")
		}
	} else if name == "" {
		name = baseName(dir)
	}
	c := &Corpus{Name: JSONLPref + name}
	start(c)
	return nil, scanJSONL(ctx, b, c, o, problem, keys...)
}

// loadWhole reads a transcoder: or trace: corpus.
func loadWhole(ctx context.Context, kind, spec, loc string, opts url.Values) (*Corpus, error) {
	switch kind {
	case "transcoder":
		b, err := OpenBucket(ctx, loc)
		if err != nil {
			return nil, err
		}
		defer b.Close()
		c, err := ReadTranscoder(ctx, b)
		if err != nil || opts.Get(GoScriptsOption) == "" {
			return c, err
		}
		gb, err := OpenBucket(ctx, opts.Get(GoScriptsOption))
		if err != nil {
			return nil, err
		}
		defer gb.Close()
		return c, AddGoGolds(ctx, c, gb)
	case "trace":
		tcLoc := opts.Get("transcoder")
		if tcLoc == "" {
			tcLoc = siblingLocation(loc, "transcoder-test")
		}
		tb, err := OpenBucket(ctx, loc)
		if err != nil {
			return nil, err
		}
		defer tb.Close()
		cb, err := OpenBucket(ctx, tcLoc)
		if err != nil {
			return nil, fmt.Errorf("corpus: TRACE needs its TransCoder-test problems (give trace:<dir>?transcoder=<dir>): %w", err)
		}
		defer cb.Close()
		return ReadTrace(ctx, tb, cb)
	}
	return nil, fmt.Errorf("corpus: unknown corpus kind %q in %q (want transcoder, trace or jsonl)", kind, spec)
}

// OpenBucket opens a blob bucket rooted at a directory given as a gocloud.dev URL
// (file:///dir, mem://, gs://bucket/prefix, s3://bucket/prefix?region=...) or as
// a plain local path. A plain path becomes file:///abs/path?metadata=skip. For
// schemes other than file://, a path after the bucket name is a key prefix. The
// caller closes the bucket.
func OpenBucket(ctx context.Context, urlOrPath string) (*blob.Bucket, error) {
	if !isURL(urlOrPath) {
		abs, err := filepath.Abs(urlOrPath)
		if err != nil {
			return nil, fmt.Errorf("corpus: path %q: %v", urlOrPath, err)
		}
		st, err := os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("corpus: %v", err)
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("corpus: %s is not a directory", abs)
		}
		u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: "metadata=skip"}
		b, err := blob.OpenBucket(ctx, u.String())
		if err != nil {
			return nil, fmt.Errorf("corpus: open %s: %w", abs, err)
		}
		return b, nil
	}
	u, err := url.Parse(urlOrPath)
	if err != nil {
		return nil, fmt.Errorf("corpus: bad URL %q: %v", urlOrPath, err)
	}
	if u.Scheme == "file" {
		q := u.Query()
		if q.Get("metadata") == "" {
			q.Set("metadata", "skip")
			u.RawQuery = q.Encode()
		}
		b, err := blob.OpenBucket(ctx, u.String())
		if err != nil {
			return nil, fmt.Errorf("corpus: open %s: %w", urlOrPath, err)
		}
		return b, nil
	}
	prefix := strings.Trim(u.Path, "/")
	u.Path, u.RawPath = "", ""
	b, err := blob.OpenBucket(ctx, u.String())
	if err != nil {
		return nil, fmt.Errorf("corpus: open %s: %w", urlOrPath, err)
	}
	if prefix != "" {
		b = blob.PrefixedBucket(b, prefix+"/")
	}
	return b, nil
}

func isURL(s string) bool {
	i := strings.Index(s, "://")
	if i <= 0 {
		return false
	}
	for _, c := range s[:i] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// splitOptions removes Transmute's own query options (named in ours) from a
// location, leaving the others for the bucket URL.
func splitOptions(loc string, ours ...string) (string, url.Values, error) {
	base, rawQuery, hasQuery := strings.Cut(loc, "?")
	opts := url.Values{}
	if !hasQuery {
		return loc, opts, nil
	}
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return "", nil, fmt.Errorf("bad query %q: %v", rawQuery, err)
	}
	for _, k := range ours {
		if v, ok := q[k]; ok {
			opts[k] = v
			delete(q, k)
		}
	}
	if len(q) > 0 {
		if !isURL(base) {
			return "", nil, fmt.Errorf("unknown options %q for a local path", q.Encode())
		}
		base += "?" + q.Encode()
	}
	return base, opts, nil
}

// siblingLocation names the directory sibling beside loc's directory.
func siblingLocation(loc, sibling string) string {
	if !isURL(loc) {
		return filepath.Join(filepath.Dir(filepath.Clean(loc)), sibling)
	}
	u, err := url.Parse(loc)
	if err != nil {
		return loc
	}
	u.Path = path.Join(path.Dir(strings.TrimSuffix(u.Path, "/")), sibling)
	u.RawPath = ""
	return u.String()
}

// splitFileLocation splits a location that may name a file (ending in ext, or a
// local regular file) into its directory and the file's key ("" for a directory).
func splitFileLocation(loc, ext string) (dir, file string, err error) {
	if !isURL(loc) {
		st, err := os.Stat(loc)
		if err != nil {
			return "", "", fmt.Errorf("corpus: %v", err)
		}
		if st.IsDir() {
			return loc, "", nil
		}
		if !st.Mode().IsRegular() {
			// a pipe or a device may be readable once only, or never end: launch
			// copies it to a file first (corpus.CopyLines)
			return "", "", fmt.Errorf("corpus: %s is not a regular file or a directory", loc)
		}
		return filepath.Dir(loc), filepath.Base(loc), nil
	}
	u, err := url.Parse(loc)
	if err != nil {
		return "", "", fmt.Errorf("corpus: bad URL %q: %v", loc, err)
	}
	if !strings.HasSuffix(u.Path, ext) {
		return loc, "", nil
	}
	file = path.Base(u.Path)
	u.Path = path.Dir(u.Path)
	u.RawPath = ""
	return u.String(), file, nil
}

// SplitFileLocation is splitFileLocation for other packages: it splits a
// location naming a file with extension ext into the directory (to give to
// OpenBucket) and the file's key; file is "" when loc is a directory.
func SplitFileLocation(loc, ext string) (dir, file string, err error) {
	return splitFileLocation(loc, ext)
}

// SplitOptions splits Transmute's own query options (named in ours) off a
// location; the remaining query stays on the location for the bucket driver.
func SplitOptions(loc string, ours ...string) (string, url.Values, error) {
	return splitOptions(loc, ours...)
}

func baseName(loc string) string {
	if isURL(loc) {
		if u, err := url.Parse(loc); err == nil {
			if b := path.Base(strings.TrimSuffix(u.Path, "/")); b != "." && b != "/" && b != "" {
				return b
			}
			return u.Host
		}
	}
	return filepath.Base(filepath.Clean(loc))
}

// ListKeys lists the keys under prefix (recursively) that end with suffix, sorted.
func ListKeys(ctx context.Context, b *blob.Bucket, prefix, suffix string) ([]string, error) {
	var keys []string
	for obj, err := range blobs.Objects(ctx, b, &blob.ListOptions{Prefix: prefix}) {
		if err != nil {
			return nil, err
		}
		if !obj.IsDir && strings.HasSuffix(obj.Key, suffix) {
			keys = append(keys, obj.Key)
		}
	}
	sort.Strings(keys)
	return keys, nil
}

// ReadLines reads a text blob and returns its lines (without line terminators).
// A final empty line is dropped.
func ReadLines(ctx context.Context, b *blob.Bucket, key string) ([]string, error) {
	data, err := b.ReadAll(ctx, key)
	if err != nil {
		return nil, err
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<20), 1<<30)
	for sc.Scan() {
		lines = append(lines, strings.TrimSuffix(sc.Text(), "\r"))
	}
	return lines, sc.Err()
}

// orderedPairs lists every ordered pair of distinct languages among langs, in the
// order of schemas.Languages first, then the others alphabetically.
func orderedPairs(langs []string) [][2]string {
	order := func(l string) int {
		for i, k := range schemas.Languages {
			if k == l {
				return i
			}
		}
		return len(schemas.Languages)
	}
	ls := append([]string(nil), langs...)
	sort.SliceStable(ls, func(i, j int) bool {
		oi, oj := order(ls[i]), order(ls[j])
		if oi != oj {
			return oi < oj
		}
		return ls[i] < ls[j]
	})
	var out [][2]string
	for _, a := range ls {
		for _, b := range ls {
			if a != b {
				out = append(out, [2]string{a, b})
			}
		}
	}
	return out
}

func tasksFor(p *schemas.Problem) []schemas.Task {
	var langs []string
	for _, f := range p.Functions {
		langs = append(langs, f.Lang)
	}
	var out []schemas.Task
	for _, pr := range orderedPairs(langs) {
		out = append(out, schemas.Task{ProblemID: p.ID, Corpus: p.Corpus, SrcLang: pr[0], TgtLang: pr[1]})
	}
	return out
}
