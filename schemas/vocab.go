package schemas

import (
	"fmt"
	"strings"
)

// The shared vocabulary of the tables: each is a named string type, so a misspelt
// value does not compile, with the one spelling of each value as a constant,
// String, and a Parse that refuses what is not in the list. The types are strings
// (as Status is) because the rows carry them as they are: the Parquet columns hold
// the same strings as before the types existed.

// TranslationStatus is a translation's status (TranslationRow.Status).
type TranslationStatus string

// Translation statuses.
const (
	TranslationOK          TranslationStatus = "ok"
	TranslationMissing     TranslationStatus = "missing"     // the translator has no translation for this input
	TranslationError       TranslationStatus = "error"       // the translator failed (message in Error)
	TranslationUnsupported TranslationStatus = "unsupported" // the translator cannot translate this construct or direction
)

// TranslationStatuses lists every translation status.
var TranslationStatuses = []TranslationStatus{TranslationOK, TranslationMissing, TranslationError, TranslationUnsupported}

func (s TranslationStatus) String() string { return string(s) }

// ParseTranslationStatus returns the status spelt s.
func ParseTranslationStatus(s string) (TranslationStatus, error) {
	return parse("translation status", s, TranslationStatuses)
}

// Role is what a program is in a run (ExecutionRow.Role, ProfileRow.Role).
type Role string

// Program roles. The evaluate, MBTA and consistency executions call the corpus's
// function "gold"; the efficiency profiles call it "ground_truth", as TRACE does.
// Both spellings stay, since they are the tables' values.
const (
	RoleGold        Role = "gold"         // the corpus's function (executions)
	RoleGroundTruth Role = "ground_truth" // the corpus's target function (profiles)
	RoleTranslation Role = "translation"  // a translator's output
	RoleMutant      Role = "mutant"       // an MBTA mutant of the source function
	RoleSource      Role = "source"       // a consistency variant of the source function, or the original
)

// Roles lists every program role.
var Roles = []Role{RoleGold, RoleGroundTruth, RoleTranslation, RoleMutant, RoleSource}

func (r Role) String() string { return string(r) }

// ParseRole returns the role spelt s.
func ParseRole(s string) (Role, error) { return parse("role", s, Roles) }

// Stage is the step of a job that wrote an error row (ErrorRow.Stage).
type Stage string

// Stages of the error rows.
const (
	StageIngest         Stage = "ingest"
	StageTranslate      Stage = "translate"
	StageExecute        Stage = "execute"
	StageFidelity       Stage = "fidelity"
	StageEvaluate       Stage = "evaluate"
	StageMBTA           Stage = "mbta"
	StageProperties     Stage = "properties"
	StagePropertySearch Stage = "property_search"
	StageConsistency    Stage = "consistency"
	StageStress         Stage = "stress"
	StageEfficiency     Stage = "efficiency"
	StageProfile        Stage = "profile"
	StageGrowth         Stage = "growth"
)

// Stages lists every error stage.
var Stages = []Stage{StageIngest, StageTranslate, StageExecute, StageFidelity, StageEvaluate, StageMBTA,
	StageProperties, StagePropertySearch, StageConsistency, StageStress, StageEfficiency, StageProfile, StageGrowth}

func (s Stage) String() string { return string(s) }

// ParseStage returns the stage spelt s.
func ParseStage(s string) (Stage, error) { return parse("stage", s, Stages) }

// VariantOrig is the VariantID of the original function and of what is made from
// it; every other variant id is a mutant's or a variant's own (a hash), so variant
// ids stay strings and this is their one reserved value.
const VariantOrig = "orig"

// Direction is a translation's source and target language.
type Direction struct {
	Src, Tgt string
}

// String is "src-tgt", as --directions spells it.
func (d Direction) String() string { return d.Src + "-" + d.Tgt }

// DirectionOf is the direction of a task.
func DirectionOf(t Task) Direction { return Direction{t.SrcLang, t.TgtLang} }

// ParseDirection reads "src-tgt" ("java-python").
func ParseDirection(s string) (Direction, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "-")
	if !ok || a == "" || b == "" {
		return Direction{}, fmt.Errorf("bad direction %q: want src-tgt, e.g. java-python", s)
	}
	return Direction{a, b}, nil
}

// ParseDirections reads a comma-separated list of directions; "" and "all" are nil
// (every direction).
func ParseDirections(spec string) ([]Direction, error) {
	if spec == "" || spec == "all" {
		return nil, nil
	}
	var out []Direction
	for _, s := range strings.Split(spec, ",") {
		d, err := ParseDirection(s)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// Less orders directions by source, then target.
func (d Direction) Less(o Direction) bool {
	if d.Src != o.Src {
		return d.Src < o.Src
	}
	return d.Tgt < o.Tgt
}

func parse[T ~string](what, s string, all []T) (T, error) {
	for _, v := range all {
		if string(v) == s {
			return v, nil
		}
	}
	return "", fmt.Errorf("unknown %s %q", what, s)
}
