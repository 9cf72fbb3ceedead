// Package recorded is the translator that replays stored translations, such as
// the real LLM outputs TRACE ships. Spec: "recorded:<url-or-path>[?name=X]",
// where the location is either
//
//   - a TRACE model directory ".../Ref_Translation/m.<model>" holding
//     "<src>_to_<tgt>/*.jsonl" files whose lines are
//     {"sample_id": ..., "<tgt>": ["<imports>\n--IMPORT_SPLIT--\n<function>", ...]}
//     (the translator is named "<model>"), or
//   - one Transmute recorded-translation JSONL file (docs/CORPUS_FORMAT.md), whose
//     lines are {"problem_id","src_lang","tgt_lang","sample","code","imports","entry"}
//     (the translator is named after the file, without ".jsonl").
//
// The location is a plain path or a gocloud.dev blob URL (see corpus.OpenBucket).
// "?name=X" overrides the translator's name. A recorded translator cannot
// translate what it has not recorded: only original functions (variant "orig")
// are served.
package recorded

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"gocloud.dev/blob"

	"transmute/internal/lcs"
	"transmute/io/corpus"
	"transmute/schemas"
	"transmute/transforms/translate"
)

// ImportSplit separates the imports from the function in TRACE's recorded outputs.
const ImportSplit = "--IMPORT_SPLIT--"

// OrigVariant is the variant id of an original function.
const OrigVariant = "orig"

func init() {
	translate.Register("recorded", func(ctx context.Context, rest string) (translate.Translator, error) {
		return Open(ctx, rest)
	})
}

type key struct{ problem, src, tgt string }

// Translator replays recorded translations.
type Translator struct {
	name     string
	byKey    map[key][]translate.Translation
	dirs     [][2]string
	warnings []string
	// bad lists the lines that could not be read; unread holds, per direction
	// ({"", ""}: unknown), the lines whose problem could not be told, which may have
	// held any translation of it that is not found.
	bad    []translate.InputError
	unread map[[2]string][]string
	// lines are the lines read from a recorded JSONL file, for UnknownProblems.
	lines []lineKey
}

type lineKey struct {
	file    string
	line    int
	problem string
}

var _ translate.Translator = (*Translator)(nil)

// Open loads the recorded translations at loc (the part of the spec after
// "recorded:"). It fails when the location cannot be read or holds no
// translation at all; malformed lines are skipped and listed by Warnings.
func Open(ctx context.Context, loc string) (*Translator, error) {
	loc, opts, err := corpus.SplitOptions(loc, "name")
	if err != nil {
		return nil, fmt.Errorf("recorded: %v", err)
	}
	if loc == "" {
		return nil, fmt.Errorf("recorded: missing location (want recorded:<dir-or-file>)")
	}
	dir, file, err := corpus.SplitFileLocation(loc, ".jsonl")
	if err != nil {
		return nil, fmt.Errorf("recorded: %w", err)
	}
	b, err := corpus.OpenBucket(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("recorded: %w", err)
	}
	defer b.Close()
	var t *Translator
	if file != "" {
		t, err = FromJSONL(ctx, b, file, strings.TrimSuffix(file, ".jsonl"))
	} else {
		t, err = FromTraceModelDir(ctx, b, strings.TrimPrefix(baseName(dir), "m."))
	}
	if err != nil {
		return nil, err
	}
	if n := opts.Get("name"); n != "" {
		t.name = n
	}
	return t, nil
}

func baseName(loc string) string {
	loc = strings.TrimRight(loc, "/")
	if i := strings.IndexByte(loc, '?'); i >= 0 {
		loc = loc[:i]
	}
	return path.Base(strings.ReplaceAll(loc, "\\", "/"))
}

// traceDirRe matches "<src>_to_<tgt>/<file>.jsonl" directly under the model directory.
var traceDirRe = regexp.MustCompile(`^([a-z]+)_to_([a-z]+)/[^/]+\.jsonl$`)

// Fields recovered from a line that is not valid JSON, to tell which translation it
// would have been.
var (
	reProblem = regexp.MustCompile(`"(?:problem_id|sample_id)"\s*:\s*"([^"\\]*)"`)
	reSrc     = regexp.MustCompile(`"src_lang"\s*:\s*"([a-z]+)"`)
	reTgt     = regexp.MustCompile(`"tgt_lang"\s*:\s*"([a-z]+)"`)
)

func firstGroup(re *regexp.Regexp, s string) string {
	if m := re.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}

// badLine records a line that could not be read: one error row (InputErrors). When
// its problem and direction are known it stands for a failed translation of them
// (status error, whose own failure row is not repeated: translate.MalformedPrefix),
// so that it counts as a failure, not as a missing translation; otherwise the
// translations of its direction that are not found stay missing, and their Error
// names the line that may have held them (see Translate).
func (t *Translator) badLine(file string, line int, reason, problem, src, tgt string) {
	where := fmt.Sprintf("%s line %d", file, line)
	t.warn("%s: %s", where, reason)
	t.bad = append(t.bad, translate.InputError{File: file, Line: line, Reason: reason, ProblemID: problem, SrcLang: src, TgtLang: tgt})
	if problem != "" && src != "" && tgt != "" {
		k := key{problem, src, tgt}
		t.byKey[k] = append(t.byKey[k], translate.Translation{Sample: int32(len(t.byKey[k])), Status: schemas.TranslationError,
			Error: fmt.Sprintf("%s %s: %s", translate.MalformedPrefix, where, reason)})
		return
	}
	if t.unread == nil {
		t.unread = map[[2]string][]string{}
	}
	d := [2]string{src, tgt}
	if src == "" || tgt == "" {
		d = [2]string{}
	}
	t.unread[d] = append(t.unread[d], where)
}

// InputErrors lists the lines that could not be read (translate.InputErrorer).
func (t *Translator) InputErrors() []translate.InputError {
	return append([]translate.InputError(nil), t.bad...)
}

// FromTraceModelDir reads a TRACE model directory (bucket rooted at
// ".../m.<model>") and names the translator name.
func FromTraceModelDir(ctx context.Context, b *blob.Bucket, name string) (*Translator, error) {
	keys, err := corpus.ListKeys(ctx, b, "", ".jsonl")
	if err != nil {
		return nil, fmt.Errorf("recorded: list %s: %w", name, err)
	}
	t := newTranslator(name)
	for _, k := range keys {
		m := traceDirRe.FindStringSubmatch(k)
		if m == nil {
			continue
		}
		src, tgt := m[1], m[2]
		lines, err := corpus.ReadLines(ctx, b, k)
		if err != nil {
			return nil, fmt.Errorf("recorded: read %s: %w", k, err)
		}
		for i, line := range lines {
			if strings.TrimSpace(line) == "" {
				continue
			}
			if !utf8.ValidString(line) { // JSON decoding would rewrite the bytes
				t.badLine(k, i+1, "not valid UTF-8", firstGroup(reProblem, line), src, tgt)
				continue
			}
			var row map[string]json.RawMessage
			if err := json.Unmarshal([]byte(line), &row); err != nil {
				t.badLine(k, i+1, fmt.Sprintf("bad JSON: %v", err), firstGroup(reProblem, line), src, tgt)
				continue
			}
			var id string
			if err := json.Unmarshal(row["sample_id"], &id); err != nil || id == "" {
				t.badLine(k, i+1, "no sample_id", "", src, tgt)
				continue
			}
			var samples []string
			if raw, ok := row[tgt]; !ok {
				if gen, ok := row["generation"]; ok {
					t.lines = append(t.lines, lineKey{file: k, line: i + 1, problem: id})
					// A few TRACE models' files keep the raw chat answers; their code is
					// taken out the way a live answer's is.
					if err := t.addGenerations(key{id, src, tgt}, gen); err != nil {
						t.badLine(k, i+1, err.Error(), id, src, tgt)
					}
					continue
				}
				t.badLine(k, i+1, fmt.Sprintf("no %q field", tgt), id, src, tgt)
				continue
			} else if err := json.Unmarshal(raw, &samples); err != nil {
				var one string // tolerate a single string instead of a list
				if json.Unmarshal(raw, &one) != nil {
					t.badLine(k, i+1, fmt.Sprintf("%q is not a list of strings", tgt), id, src, tgt)
					continue
				}
				samples = []string{one}
			}
			t.lines = append(t.lines, lineKey{file: k, line: i + 1, problem: id})
			for _, s := range samples {
				imports, code := SplitImports(s)
				k := key{id, src, tgt}
				t.add(k, translate.Translation{Sample: int32(len(t.byKey[k])), Code: code, Imports: imports})
			}
		}
	}
	if len(t.byKey) == 0 && len(t.bad) == 0 {
		return nil, fmt.Errorf("recorded: no <src>_to_<tgt>/*.jsonl translation in model directory %s", name)
	}
	t.finish()
	return t, nil
}

// addGenerations adds the samples of a TRACE line in the raw-answer form
// ({"generation": [{"generation": "<chat answer>"}]}); an answer without code is a
// sample with no code, so it counts as a failed translation.
func (t *Translator) addGenerations(k key, raw json.RawMessage) error {
	var gens []struct {
		Generation string `json:"generation"`
	}
	if err := json.Unmarshal(raw, &gens); err != nil {
		return fmt.Errorf(`"generation" is not a list of {"generation": text}: %v`, err)
	}
	for _, g := range gens {
		code, imports, err := translate.Extract(g.Generation, k.tgt)
		if err != nil {
			code, imports = "", ""
		}
		t.add(k, translate.Translation{Sample: int32(len(t.byKey[k])), Code: code, Imports: imports, Raw: g.Generation})
	}
	return nil
}

// recordedLine is one line of a Transmute recorded-translation file.
type recordedLine struct {
	ProblemID string `json:"problem_id"`
	SrcLang   string `json:"src_lang"`
	TgtLang   string `json:"tgt_lang"`
	Sample    *int32 `json:"sample"`
	Code      string `json:"code"`
	Imports   string `json:"imports"`
	Entry     string `json:"entry"`
}

// recordedFields are the fields of a recorded line, in the order the docs list them.
var recordedFields = []string{"problem_id", "src_lang", "tgt_lang", "sample", "code", "imports", "entry"}

// fieldSynonyms are names other tools give the fields, for "did you mean".
var fieldSynonyms = map[string]string{
	"translation": "code", "translated_code": "code", "output": "code", "completion": "code", "generation": "code",
	"response": "code", "answer": "code", "program": "code", "function": "code",
	"id": "problem_id", "task_id": "problem_id", "sample_id": "problem_id", "problem": "problem_id",
	"src": "src_lang", "source": "src_lang", "source_lang": "src_lang", "source_language": "src_lang",
	"tgt": "tgt_lang", "target": "tgt_lang", "target_lang": "tgt_lang", "target_language": "tgt_lang",
	"import": "imports", "entry_point": "entry", "sample_index": "sample",
}

// parseRecordedLine decodes one line strictly: JSON, no unknown field, a problem id,
// known languages (case-folded). reason is "" when the line is good; the fields
// read so far are returned either way, to tell which translation a bad line was.
func parseRecordedLine(line string) (recordedLine, string) {
	var r recordedLine
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(line), &fields); err != nil {
		r.ProblemID, r.SrcLang, r.TgtLang = firstGroup(reProblem, line), foldLang(firstGroup(reSrc, line)), foldLang(firstGroup(reTgt, line))
		return r, fmt.Sprintf("bad JSON: %v", err)
	}
	// the fields that decode, to name the translation even when another is wrong
	var unknown []string
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	sort.Strings(names) // one message for one line, whatever the map's order
	for _, name := range names {
		raw := fields[name]
		var err error
		switch name {
		case "problem_id":
			err = json.Unmarshal(raw, &r.ProblemID)
		case "src_lang":
			err = json.Unmarshal(raw, &r.SrcLang)
		case "tgt_lang":
			err = json.Unmarshal(raw, &r.TgtLang)
		case "sample":
			err = json.Unmarshal(raw, &r.Sample)
		case "code":
			err = json.Unmarshal(raw, &r.Code)
		case "imports":
			err = json.Unmarshal(raw, &r.Imports)
		case "entry":
			err = json.Unmarshal(raw, &r.Entry)
		default:
			unknown = append(unknown, name)
		}
		if err != nil {
			return r, fmt.Sprintf("field %q: %v", name, err)
		}
	}
	srcOK, tgtOK := schemas.IsLanguage(foldLang(r.SrcLang)), schemas.IsLanguage(foldLang(r.TgtLang))
	r.SrcLang, r.TgtLang = foldLang(r.SrcLang), foldLang(r.TgtLang)
	if len(unknown) > 0 {
		var parts []string
		for _, u := range unknown {
			p := fmt.Sprintf("%q", u)
			if m := didYouMean(u); m != "" {
				p += fmt.Sprintf(" (did you mean %q?)", m)
			}
			parts = append(parts, p)
		}
		return r, fmt.Sprintf("unknown field %s; expected fields: %s", strings.Join(parts, ", "), strings.Join(recordedFields, ", "))
	}
	if r.ProblemID == "" || r.SrcLang == "" || r.TgtLang == "" {
		return r, "problem_id, src_lang and tgt_lang are required"
	}
	for _, l := range []struct {
		field, value string
		ok           bool
	}{{"src_lang", r.SrcLang, srcOK}, {"tgt_lang", r.TgtLang, tgtOK}} {
		if !l.ok {
			bad := r
			bad.SrcLang, bad.TgtLang = "", "" // not a direction any request asks for
			return bad, fmt.Sprintf("unknown %s %q; known languages: %s", l.field, l.value, strings.Join(schemas.Languages, ", "))
		}
	}
	return r, ""
}

// foldLang is a language name as the tables write it ("Java" -> "java").
func foldLang(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// didYouMean is the expected field a misspelt one most likely stands for: a known
// synonym, else the field at the smallest edit distance when it is at most 2.
func didYouMean(name string) string {
	name = strings.ToLower(name)
	if m, ok := fieldSynonyms[name]; ok {
		return m
	}
	best, bestD := "", 3
	for _, f := range recordedFields {
		if d := lcs.Levenshtein([]rune(name), []rune(f)); d < bestD {
			best, bestD = f, d
		}
	}
	return best
}

func joinImports(a, b string) string {
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	if a == "" || b == "" {
		return a + b
	}
	return a + "\n" + b
}

// UnknownProblems lists, as input errors, the lines of a recorded JSONL file (and
// the problems of a TRACE model directory) whose problem id known does not accept:
// a translation of a problem no corpus of the run has, which no request asks for.
func (t *Translator) UnknownProblems(known func(id string) bool) []translate.InputError {
	var out []translate.InputError
	for _, l := range t.lines {
		if !known(l.problem) {
			out = append(out, translate.InputError{File: l.file, Line: l.line, ProblemID: l.problem,
				Reason: fmt.Sprintf("unknown problem_id %q: no corpus of the run has it", l.problem)})
		}
	}
	return out
}

// FromJSONL reads the Transmute recorded-translation JSONL file at key file in b.
func FromJSONL(ctx context.Context, b *blob.Bucket, file, name string) (*Translator, error) {
	lines, err := corpus.ReadLines(ctx, b, file)
	if err != nil {
		return nil, fmt.Errorf("recorded: read %s: %w", file, err)
	}
	t := newTranslator(name)
	type withSample struct {
		tr       translate.Translation
		explicit bool
		line     int
	}
	got := map[key][]withSample{}
	var order []key
	for i, line := range lines {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if !utf8.ValidString(line) { // JSON decoding would rewrite the bytes
			t.badLine(file, i+1, "not valid UTF-8", firstGroup(reProblem, line), foldLang(firstGroup(reSrc, line)), foldLang(firstGroup(reTgt, line)))
			continue
		}
		r, reason := parseRecordedLine(line)
		if reason != "" {
			t.badLine(file, i+1, reason, r.ProblemID, r.SrcLang, r.TgtLang)
			continue
		}
		k := key{r.ProblemID, r.SrcLang, r.TgtLang}
		t.lines = append(t.lines, lineKey{file: file, line: i + 1, problem: r.ProblemID})
		tr := translate.Translation{Code: r.Code, Imports: r.Imports, Entry: r.Entry}
		if strings.Contains(r.Code, "```") {
			// a chat answer recorded as it came: its code is taken out as a live
			// answer's is (openai:, command:), and the answer kept in Raw
			tr.Raw = r.Code
			code, imports, err := translate.Extract(r.Code, r.TgtLang)
			if err != nil {
				tr.Code, tr.Imports = "", ""
				tr.Status, tr.Error = schemas.TranslationError, "no code in the recorded answer: "+err.Error()
			} else {
				tr.Code, tr.Imports = code, joinImports(r.Imports, imports)
			}
		}
		ws := withSample{tr: tr, line: i + 1}
		if r.Sample != nil {
			if *r.Sample < 0 {
				t.badLine(file, i+1, "negative sample", r.ProblemID, r.SrcLang, r.TgtLang)
				continue
			}
			ws.tr.Sample, ws.explicit = *r.Sample, true
		}
		if _, ok := got[k]; !ok {
			order = append(order, k)
		}
		got[k] = append(got[k], ws)
	}
	for _, k := range order {
		list := got[k]
		// lines without "sample" are numbered after the explicit ones, in file order
		next := int32(0)
		for _, w := range list {
			if w.explicit && w.tr.Sample >= next {
				next = w.tr.Sample + 1
			}
		}
		used := map[int32]bool{}
		for i := range list {
			if !list[i].explicit {
				list[i].tr.Sample = next
				next++
			}
			if used[list[i].tr.Sample] {
				t.badLine(file, list[i].line, fmt.Sprintf("duplicate sample %d of %s %s->%s", list[i].tr.Sample, k.problem, k.src, k.tgt), "", "", "")
				continue
			}
			used[list[i].tr.Sample] = true
			t.add(k, list[i].tr)
		}
	}
	if len(t.byKey) == 0 && len(t.bad) == 0 {
		return nil, fmt.Errorf("recorded: no translation in %s", file)
	}
	t.finish()
	return t, nil
}

func newTranslator(name string) *Translator {
	return &Translator{name: name, byKey: map[key][]translate.Translation{}}
}

func (t *Translator) warn(format string, args ...any) {
	t.warnings = append(t.warnings, fmt.Sprintf(format, args...))
}

// add records one sample (a sample already marked failed stays so).
func (t *Translator) add(k key, tr translate.Translation) {
	list := t.byKey[k]
	if tr.Status == schemas.TranslationError {
		t.byKey[k] = append(list, tr)
		return
	}
	tr.Status = schemas.TranslationOK
	if strings.TrimSpace(tr.Code) == "" {
		tr.Status = schemas.TranslationError
		tr.Error = "the recorded translation is empty"
	}
	t.byKey[k] = append(list, tr)
}

// finish sorts samples and computes the directions.
func (t *Translator) finish() {
	dirs := map[[2]string]bool{}
	for k, list := range t.byKey {
		sort.SliceStable(list, func(i, j int) bool { return list[i].Sample < list[j].Sample })
		dirs[[2]string{k.src, k.tgt}] = true
	}
	for d := range dirs {
		t.dirs = append(t.dirs, d)
	}
	sort.Slice(t.dirs, func(i, j int) bool {
		if t.dirs[i][0] != t.dirs[j][0] {
			return t.dirs[i][0] < t.dirs[j][0]
		}
		return t.dirs[i][1] < t.dirs[j][1]
	})
}

// SplitImports splits a TRACE recorded output at the --IMPORT_SPLIT-- line into
// its imports and its function (both trimmed). Without the marker, everything is
// the function.
func SplitImports(s string) (imports, code string) {
	before, after, ok := strings.Cut(s, ImportSplit)
	if !ok {
		return "", strings.Trim(s, "\n")
	}
	return strings.TrimSpace(before), strings.Trim(after, "\n")
}

// Name is the model or file name, or the ?name= override.
func (t *Translator) Name() string { return t.name }

// Translate returns every recorded sample for the request's problem and
// direction; a single "missing" translation when none is recorded; and an
// "unsupported" one for a variant other than the original function.
func (t *Translator) Translate(_ context.Context, r translate.Request) ([]translate.Translation, error) {
	if r.VariantID != "" && r.VariantID != OrigVariant {
		return []translate.Translation{{Status: schemas.TranslationUnsupported,
			Error: fmt.Sprintf("recorded translator %s replays stored translations of original functions only; it cannot translate variant %q", t.name, r.VariantID)}}, nil
	}
	list := t.byKey[key{r.ProblemID, r.SrcLang, r.TgtLang}]
	if len(list) == 0 {
		lost := append(append([]string(nil), t.unread[[2]string{r.SrcLang, r.TgtLang}]...), t.unread[[2]string{}]...)
		if len(lost) > 0 {
			// Missing, not failed: the unreadable lines are error rows of their own, and
			// one typo must not make every untranslated problem of a file an error.
			return []translate.Translation{{Status: schemas.TranslationMissing,
				Error: fmt.Sprintf("no readable recorded translation of %s from %s to %s by %s; %d unreadable line(s) may hold it (%s)",
					r.ProblemID, r.SrcLang, r.TgtLang, t.name, len(lost), strings.Join(lost[:min(len(lost), 3)], ", "))}}, nil
		}
		return []translate.Translation{{Status: schemas.TranslationMissing,
			Error: fmt.Sprintf("no recorded translation of %s from %s to %s by %s", r.ProblemID, r.SrcLang, r.TgtLang, t.name)}}, nil
	}
	return append([]translate.Translation(nil), list...), nil
}

// TranslatesVariants is false: only recorded originals can be served.
func (t *Translator) TranslatesVariants() bool { return false }

// Directions lists the (src, tgt) pairs with at least one recorded translation.
func (t *Translator) Directions() [][2]string { return append([][2]string(nil), t.dirs...) }

// Has tells whether a translation of problem from src to tgt is recorded.
func (t *Translator) Has(problem, src, tgt string) bool {
	return len(t.byKey[key{problem, src, tgt}]) > 0
}

// Len is the number of recorded (problem, direction) pairs.
func (t *Translator) Len() int { return len(t.byKey) }

// Warnings lists the malformed lines that were skipped.
func (t *Translator) Warnings() []string { return append([]string(nil), t.warnings...) }

// Close releases nothing: everything is loaded at Open.
func (t *Translator) Close() error { return nil }
