package efficiency

import (
	"sort"

	"transmute/schemas"
)

// ScoreAcc accumulates the scored task outcomes of one score key for Aggregate,
// so that the Score stage can be a combiner (the runner adds outcomes where they
// are made and merges partial accumulators). Unlike the other jobs' accumulators
// it keeps one record per task: the all-direction medians, the bootstrap
// intervals over tasks and the cross-model correlations need every task. The
// record is the outcome with its profile rows cut to the fields Aggregate reads
// (slimProfile), without details, timestamps or the run's other measurements.
// The zero value is empty; fields are exported for gob.
type ScoreAcc struct {
	Tasks []TaskOutcome
}

// slimProfile is p with only what Aggregate (and groundTruth, translatorProfile)
// reads.
func slimProfile(p schemas.ProfileRow) schemas.ProfileRow {
	return schemas.ProfileRow{Translator: p.Translator, TgtLang: p.TgtLang, Role: p.Role, Status: p.Status,
		Correct: p.Correct, InReference: p.InReference, Repetitions: p.Repetitions, CPUMeanMs: p.CPUMeanMs,
		CPUCV: p.CPUCV, OverheadCPUMs: p.OverheadCPUMs, BeyondTime: p.BeyondTime, BeyondMem: p.BeyondMem,
		InefficiencyTime: p.InefficiencyTime, InefficiencyMem: p.InefficiencyMem, Selected: p.Selected}
}

// Add keeps one scored task outcome (ScoreTask), slimmed.
func (a *ScoreAcc) Add(o TaskOutcome) {
	s := o
	s.Translators = append([]string(nil), o.Translators...)
	s.PassDefault = append([]bool(nil), o.PassDefault...)
	s.Profiles = make([]schemas.ProfileRow, len(o.Profiles))
	for i, p := range o.Profiles {
		s.Profiles[i] = slimProfile(p)
	}
	a.Tasks = append(a.Tasks, s)
}

// Merge adds o's tasks to a (o is left as it was).
func (a *ScoreAcc) Merge(o *ScoreAcc) {
	a.Tasks = append(a.Tasks, o.Tasks...)
}

// ScoreRows is Aggregate of the tasks added, in one order whatever the order they
// came in: by direction, problem and corpus (Aggregate sorts by direction and
// problem, keeping ties in input order).
func (a *ScoreAcc) ScoreRows(run string) []schemas.ScoreRow {
	if len(a.Tasks) == 0 {
		return nil
	}
	tasks := append([]TaskOutcome(nil), a.Tasks...)
	sort.SliceStable(tasks, func(i, j int) bool {
		x, y := tasks[i].Task, tasks[j].Task
		if x.SrcLang+x.TgtLang != y.SrcLang+y.TgtLang {
			return x.SrcLang+x.TgtLang < y.SrcLang+y.TgtLang
		}
		if x.ProblemID != y.ProblemID {
			return x.ProblemID < y.ProblemID
		}
		return x.Corpus < y.Corpus
	})
	return Aggregate(run, tasks)
}
