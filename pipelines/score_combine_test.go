package pipelines

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"transmute/schemas"
	"transmute/transforms/score"
)

// scoreTestRows are the result rows of two score keys: problems with passing,
// failing, language-dependent, nondeterministic and oracle-less tests, and two
// samples for one translator.
func scoreTestRows() []schemas.ResultRow {
	var rows []schemas.ResultRow
	for _, tr := range []string{"m1", "m2"} {
		samples := 1
		if tr == "m2" {
			samples = 2
		}
		for p := 0; p < 9; p++ {
			for s := 0; s < samples; s++ {
				prog := schemas.StatusOK
				switch {
				case p == 7: // untranslated and failed translations: the coverage counts
					prog = schemas.Status(schemas.TranslationMissing)
				case p == 8 && s == 0:
					prog = schemas.Status(schemas.TranslationError)
				case (p+s)%4 == 3:
					prog = schemas.StatusCompileError
				}
				for i := 0; i < 5; i++ {
					for _, o := range []string{score.OracleSource, score.OracleTargetGold} {
						r := schemas.ResultRow{Run: "r", Translator: tr, Corpus: "c", SrcLang: "java", TgtLang: "cpp",
							ProblemID: fmt.Sprintf("P%d", p), Sample: int32(s), Oracle: o, TestIndex: int32(i),
							ProgramStatus: prog, Status: prog, OracleStatus: schemas.StatusOK, Expected: "1", Actual: "1",
							LangDependent: (p+i)%5 == 0, Nondeterministic: p == 4 && i == 2}
						if (p*5+i)%11 == 0 {
							r.OracleStatus = schemas.StatusTimeout
						}
						r.Match = prog == schemas.StatusOK && r.OracleStatus == schemas.StatusOK && (p*i+s)%3 != 1
						r.MatchCppConversions = r.Match || (p+i)%4 == 0
						rows = append(rows, r)
					}
				}
			}
		}
	}
	return rows
}

// TestCAAccCoder: an accumulator survives its registered coder (gob) with every
// count, so that merging decoded accumulators scores as the rows do.
func TestCAAccCoder(t *testing.T) {
	rows := scoreTestRows()
	k := score.KeyOf(rows[len(rows)-1])
	var a, b score.CAAcc
	for i, r := range rows {
		if score.KeyOf(r) != k {
			continue
		}
		if i%2 == 0 {
			a.Add(r)
		} else {
			b.Add(r)
		}
	}
	da, err := encodeCAAcc(&a)
	if err != nil {
		t.Fatal(err)
	}
	db, err := encodeCAAcc(&b)
	if err != nil {
		t.Fatal(err)
	}
	ra, err := decodeCAAcc(da)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := decodeCAAcc(db)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ra, &a) {
		t.Errorf("decoded accumulator differs:\n%+v\nwant %+v", ra, &a)
	}
	ra.Merge(rb)
	var keyRows []schemas.ResultRow
	for _, r := range rows {
		if score.KeyOf(r) == k {
			keyRows = append(keyRows, r)
		}
	}
	if got, want := ra.Scores("r", k), score.CA("r", k, keyRows); len(want) == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("scores of decoded accumulators:\n%v\nwant %v", got, want)
	}
	if _, err := decodeCAAcc([]byte("not gob")); err == nil {
		t.Error("decoded garbage")
	}
}

// TestScoreCombine: the Score stage (a lifted combine over rows spread by a
// Reshuffle) gives each key's score.CA rows, every one and no other.
func TestScoreCombine(t *testing.T) {
	rows := scoreTestRows()
	byKey := map[score.Key][]schemas.ResultRow{}
	for _, r := range rows {
		byKey[score.KeyOf(r)] = append(byKey[score.KeyOf(r)], r)
	}
	var want []any
	for k, rs := range byKey {
		for _, s := range score.CA("run", k, rs) {
			want = append(want, s)
		}
	}
	if len(byKey) != 2 || len(want) == 0 {
		t.Fatalf("%d keys, %d scores", len(byKey), len(want))
	}
	covered := 0
	for _, w := range want {
		if r := w.(schemas.ScoreRow); (r.Metric == schemas.MetricMissing || r.Metric == schemas.MetricTranslationFailed) && r.Value > 0 {
			covered++
		}
	}
	if covered == 0 {
		t.Fatal("no coverage counts among the scores")
	}
	p, s := beam.NewPipelineWithRoot()
	in := beam.Reshuffle(s, beam.CreateList(s, rows))
	passert.Equals(s, Score(s, Config{Run: "run"}, in), want...)
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
}
