package openai

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"transmute/schemas"
)

//go:embed prompts/*.tmpl
var builtinPrompts embed.FS

// Strategies are the four prompt settings of TRACE, appendix C.1.
var Strategies = []string{"zero-shot", "perf-zero-shot", "perf-few-shot", "perf-self-refine"}

// Template is a system and a user message with {{PLACEHOLDER}} fields.
type Template struct {
	Name, System, User string
}

// LoadTemplate reads a strategy's template from dir (a user's override) or from the
// built-in set. A template file holds the system message, a line "=== USER ===", and
// the user message.
func LoadTemplate(strategy, dir string) (Template, error) {
	var data []byte
	var err error
	if dir != "" {
		data, err = os.ReadFile(filepath.Join(dir, strategy+".tmpl"))
	}
	if dir == "" || os.IsNotExist(err) {
		data, err = builtinPrompts.ReadFile("prompts/" + strategy + ".tmpl")
	}
	if err != nil {
		return Template{}, fmt.Errorf("prompt %q: %w (strategies: %v)", strategy, err, Strategies)
	}
	sys, user, ok := strings.Cut(string(data), "=== USER ===\n")
	if !ok {
		return Template{}, fmt.Errorf("prompt %q: no '=== USER ===' line", strategy)
	}
	return Template{Name: strategy, System: strings.TrimSpace(sys), User: user}, nil
}

// Example is one few-shot example: a source function and its efficient translation.
type Example struct {
	Src, Tgt string
}

// Feedback is what perf-self-refine shows of the previous round's translation.
type Feedback struct {
	PrevCode     string
	TestResult   float64 // share of tests passed
	ExecFeedback string  // e.g. the first failing test or error
	TimeSec      float64
	MemMB        float64
}

var displayName = map[string]string{schemas.Java: "Java", schemas.Python: "Python", schemas.Cpp: "C++", schemas.Go: "Go"}

// Messages fills the template.
func (t Template) Messages(src, tgt, code string, examples []Example, fb *Feedback) (system, user string, err error) {
	if t.Name == "perf-few-shot" && len(examples) < 2 {
		return "", "", fmt.Errorf("perf-few-shot needs two examples of the same direction")
	}
	if t.Name == "perf-self-refine" && fb == nil {
		return "", "", fmt.Errorf("perf-self-refine needs the previous round's translation and feedback")
	}
	r := []string{
		"{{SRC_LANG}}", displayName[src], "{{TGT_LANG}}", displayName[tgt],
		"{{SRC_TAG}}", src, "{{TGT_TAG}}", tgt, "{{SRC_CODE}}", strings.TrimSpace(code),
	}
	for i, e := range examples {
		if i >= 2 {
			break
		}
		n := fmt.Sprint(i + 1)
		r = append(r, "{{EXAMPLE_"+n+"_SRC}}", strings.TrimSpace(e.Src), "{{EXAMPLE_"+n+"_TGT}}", strings.TrimSpace(e.Tgt))
	}
	if fb != nil {
		r = append(r, "{{REF_TGT_CODE}}", strings.TrimSpace(fb.PrevCode), "{{TEST_RESULT}}", fmt.Sprintf("%.2f", fb.TestResult),
			"{{EXEC_FEEDBACK}}", fb.ExecFeedback, "{{EXEC_TIME}}", fmt.Sprintf("%.4f", fb.TimeSec),
			"{{EXEC_MEM}}", fmt.Sprintf("%.2f", fb.MemMB))
	}
	rep := strings.NewReplacer(r...)
	return rep.Replace(t.System), rep.Replace(t.User), nil
}

// Hash identifies a prompt (recorded in the translations table).
func Hash(system, user string) string {
	h := sha256.Sum256([]byte(system + "\x00" + user))
	return hex.EncodeToString(h[:8])
}
