package efficiency

import (
	"sort"

	"transmute/schemas"
)

// Outcomes regroups an efficiency run's profile rows into task outcomes, so that
// the run can be scored again under another cost mode or reference set. A
// task's translators are those with a profile row: the profiles hold every
// translation that passed the default tests, which is all that B^P (Beyond over
// correct translations) needs; Pass itself comes from the run's scores.
func Outcomes(rows []schemas.ProfileRow) []TaskOutcome {
	type key struct{ corpus, id, src, tgt string }
	idx := map[key]int{}
	var outs []TaskOutcome
	for _, r := range rows {
		k := key{r.Corpus, r.ProblemID, r.SrcLang, r.TgtLang}
		i, ok := idx[k]
		if !ok {
			i = len(outs)
			idx[k] = i
			outs = append(outs, TaskOutcome{Task: schemas.Task{Corpus: r.Corpus, ProblemID: r.ProblemID, SrcLang: r.SrcLang, TgtLang: r.TgtLang}})
		}
		o := &outs[i]
		o.Profiles = append(o.Profiles, r)
		if r.Role == schemas.RoleTranslation {
			o.Translators = append(o.Translators, r.Translator)
			o.PassDefault = append(o.PassDefault, true)
		}
	}
	sort.Slice(outs, func(i, j int) bool {
		a, b := outs[i].Task, outs[j].Task
		if a.SrcLang+a.TgtLang != b.SrcLang+b.TgtLang {
			return a.SrcLang+a.TgtLang < b.SrcLang+b.TgtLang
		}
		return a.ProblemID < b.ProblemID
	})
	return outs
}

// BeyondPass is B_T^P and B_M^P of one translator in one direction.
type BeyondPass struct {
	Time, Mem float64
	Correct   int
}

// Rescore scores a run's profiles again (ScoreTask, then Beyond over each
// translator's correct translations on the usable tasks) and returns B^P per
// direction ("src-tgt") and translator.
func Rescore(rows []schemas.ProfileRow, opt ScoreOptions) map[string]map[string]BeyondPass {
	outs := Outcomes(rows)
	out := map[string]map[string]BeyondPass{}
	sum := map[string]map[string]*BeyondPass{}
	for i := range outs {
		o := &outs[i]
		ScoreTask(o, opt)
		if !o.Usable {
			continue
		}
		d := o.Task.SrcLang + "-" + o.Task.TgtLang
		if sum[d] == nil {
			sum[d] = map[string]*BeyondPass{}
		}
		for _, p := range o.Profiles {
			if p.Role != schemas.RoleTranslation || !p.Correct {
				continue
			}
			b := sum[d][p.Translator]
			if b == nil {
				b = &BeyondPass{}
				sum[d][p.Translator] = b
			}
			b.Time += p.BeyondTime
			b.Mem += p.BeyondMem
			b.Correct++
		}
	}
	for d, m := range sum {
		out[d] = map[string]BeyondPass{}
		for tr, b := range m {
			out[d][tr] = BeyondPass{Time: b.Time / float64(b.Correct), Mem: b.Mem / float64(b.Correct), Correct: b.Correct}
		}
	}
	return out
}
