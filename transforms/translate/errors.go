package translate

import (
	"fmt"
	"strings"

	"transmute/schemas"
)

// Error rows of the translate stage (README, "The errors table").
const (
	Stage = "translate"
	// ReasonFailed: the translator returned status error (an HTTP error, a command
	// that failed or timed out, an answer without code, ...).
	ReasonFailed = "translation failed"
	// ReasonCut: the translation was cut at a size cap, so it is not a translation.
	ReasonCut = "translation cut"
	// ReasonBadRecord: a recorded translation's line could not be read.
	ReasonBadRecord = "malformed recorded translation"
)

// MalformedPrefix starts the Error of a recorded translation whose line could not be
// read; that line is an error row of its own, not repeated per translation.
const MalformedPrefix = "malformed recorded translation at"

// CutPrefix starts the Error of a translation cut at a size cap.
const CutPrefix = "output cut at its size cap"

// FailureRow is the error row of a failed or cut translation (status error); ok is
// false for every other status, which is no failure of the translator (missing,
// unsupported) or a success.
func FailureRow(run, corpus, problemID, translator, variant, src, tgt string, t Translation) (schemas.ErrorRow, bool) {
	if t.Status != schemas.TranslationError {
		return schemas.ErrorRow{}, false
	}
	if strings.HasPrefix(t.Error, MalformedPrefix) {
		return schemas.ErrorRow{}, false // the line's own error row (InputErrorRows) says it
	}
	reason := ReasonFailed
	if strings.HasPrefix(t.Error, CutPrefix) {
		reason = ReasonCut
	}
	return schemas.ErrorRow{Run: run, Stage: Stage, Corpus: corpus, ProblemID: problemID, Lang: tgt, Reason: reason,
		Detail: fmt.Sprintf("%s %s->%s %s sample %d: %s", translator, src, tgt, variant, t.Sample, t.Error)}, true
}

// InputError is a line of a translator's input that could not be read.
type InputError struct {
	File   string
	Line   int
	Reason string
	// ProblemID, SrcLang, TgtLang: what the line was about, when that could be read.
	ProblemID, SrcLang, TgtLang string
}

// InputErrorer is implemented by translators that read input files (recorded): the
// lines they could not read, for the errors table.
type InputErrorer interface {
	InputErrors() []InputError
}

// InputErrorRows turns a translator's unreadable input lines into error rows naming
// file and line.
func InputErrorRows(run string, t Translator) []schemas.ErrorRow {
	ie, ok := t.(InputErrorer)
	if !ok {
		return nil
	}
	var rows []schemas.ErrorRow
	for _, e := range ie.InputErrors() {
		rows = append(rows, schemas.ErrorRow{Run: run, Stage: Stage, ProblemID: e.ProblemID, Lang: e.TgtLang,
			Reason: ReasonBadRecord, Detail: fmt.Sprintf("%s: %s line %d: %s", t.Name(), e.File, e.Line, e.Reason)})
	}
	return rows
}
