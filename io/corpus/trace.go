package corpus

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"gocloud.dev/blob"

	"transmute/internal/clip"
	"transmute/schemas"
)

const traceTasksKey = "tasks.jsonl"

type traceTask struct {
	SampleID   string `json:"sample_id"`
	SrcLang    string `json:"src_lang"`
	TgtLang    string `json:"tgt_lang"`
	SourceCode string `json:"source_code"`
	TargetCode string `json:"target_code"`
}

// ReadTrace ingests the TRACE benchmark: its tasks from tasks.jsonl in tb, and
// its problems (parameters, types, default tests) from the TransCoder-test
// corpus in tcb, whose problems TRACE's tasks are. The corpus holds only the
// problems that some task uses, under the corpus name "trace". A task whose
// problem is missing or has no tests becomes an error row.
//
// TRACE's source_code and target_code are the TransCoder-test gold functions;
// when they differ, TRACE's code replaces the gold function of that language
// (the task's source function must be the one TRACE gives).
func ReadTrace(ctx context.Context, tb, tcb *blob.Bucket) (*Corpus, error) {
	lines, err := ReadLines(ctx, tb, traceTasksKey)
	if err != nil {
		return nil, fmt.Errorf("corpus: TRACE: read %s: %w", traceTasksKey, err)
	}
	tc, err := ReadTranscoder(ctx, tcb)
	if err != nil {
		return nil, fmt.Errorf("corpus: TRACE: %w", err)
	}
	byID := map[string]*schemas.Problem{}
	for i := range tc.Problems {
		byID[tc.Problems[i].ID] = &tc.Problems[i]
	}
	why := map[string]string{}
	for _, e := range tc.Errors {
		if e.ProblemID != "" && e.Lang == "" {
			why[e.ProblemID] = e.Reason
		}
	}
	c := &Corpus{Name: Trace}
	used := map[string]*schemas.Problem{}
	var order []string
	seenTask := map[[3]string]bool{}
	for i, line := range lines {
		if strings.TrimSpace(line) == "" {
			continue
		}
		where := fmt.Sprintf("%s line %d", traceTasksKey, i+1)
		var t traceTask
		if err := json.Unmarshal([]byte(line), &t); err != nil {
			c.addError("", "", fmt.Sprintf("bad JSON in %s: %v", where, err), clip.String(line, 200))
			continue
		}
		if t.SampleID == "" {
			c.addError("", "", fmt.Sprintf("%s has no sample_id", where), clip.String(line, 200))
			continue
		}
		if !schemas.IsLanguage(t.SrcLang) || !schemas.IsLanguage(t.TgtLang) || t.SrcLang == t.TgtLang {
			c.addError(t.SampleID, t.SrcLang, fmt.Sprintf("%s: bad direction %q -> %q", where, t.SrcLang, t.TgtLang), "")
			continue
		}
		detail := fmt.Sprintf("%s->%s (%s)", t.SrcLang, t.TgtLang, where)
		key := [3]string{t.SampleID, t.SrcLang, t.TgtLang}
		if seenTask[key] {
			c.addError(t.SampleID, t.SrcLang, "duplicate task", detail)
			continue
		}
		p := used[t.SampleID]
		if p == nil {
			src, ok := byID[t.SampleID]
			if !ok {
				reason := "problem is not in the TransCoder-test corpus"
				if w, ok := why[t.SampleID]; ok {
					reason = "problem could not be ingested from TransCoder-test: " + w
				}
				c.addError(t.SampleID, t.SrcLang, reason, detail)
				continue
			}
			cp := *src
			cp.Corpus = Trace
			cp.Functions = append([]schemas.Function(nil), src.Functions...)
			p = &cp
		}
		if len(p.Tests) == 0 {
			c.addError(t.SampleID, t.SrcLang, "problem has no tests", detail)
			continue
		}
		if err := useTraceCode(p, t.SrcLang, t.SourceCode); err != nil {
			c.addError(t.SampleID, t.SrcLang, "bad source_code: "+err.Error(), detail)
			continue
		}
		if err := useTraceCode(p, t.TgtLang, t.TargetCode); err != nil {
			c.addError(t.SampleID, t.TgtLang, "bad target_code: "+err.Error(), detail)
			continue
		}
		if used[t.SampleID] == nil {
			used[t.SampleID] = p
			order = append(order, t.SampleID)
		}
		seenTask[key] = true
		c.Tasks = append(c.Tasks, schemas.Task{ProblemID: t.SampleID, Corpus: Trace, SrcLang: t.SrcLang, TgtLang: t.TgtLang})
	}
	for _, id := range order {
		c.Problems = append(c.Problems, *used[id])
	}
	return c, nil
}

// useTraceCode makes code the problem's function in lang when it differs from
// the gold one (or the problem has none).
func useTraceCode(p *schemas.Problem, lang, code string) error {
	if strings.TrimSpace(code) == "" {
		if _, ok := p.Function(lang); !ok {
			return fmt.Errorf("empty, and the problem has no %s function", lang)
		}
		return nil
	}
	for i, f := range p.Functions {
		if f.Lang != lang {
			continue
		}
		if strings.TrimSpace(f.Code) == strings.TrimSpace(code) {
			return nil
		}
		name, decl, err := DescribeFunction(lang, code, "")
		if err != nil {
			return err
		}
		p.Functions[i].Code, p.Functions[i].Name, p.Functions[i].Signature = code, name, decl
		return nil
	}
	name, decl, err := DescribeFunction(lang, code, "")
	if err != nil {
		return err
	}
	p.Functions = append(p.Functions, schemas.Function{Lang: lang, Name: name, Code: code,
		Signature: decl, Imports: scriptImports(lang, "", code)})
	return nil
}
