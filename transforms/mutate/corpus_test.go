package mutate

import (
	"fmt"
	"strings"
	"testing"

	"transmute/internal/testenv"
)

// goldRecord is one line of transcoder-test/gold.jsonl.
type goldRecord struct {
	SampleID string `json:"sample_id"`
	Java     string `json:"java"`
	Cpp      string `json:"cpp"`
	Python   string `json:"python"`
}

// loadGold reads the TranscoderTest gold functions or skips the test.
func loadGold(t testing.TB) []goldRecord {
	t.Helper()
	return testenv.SharedJSONL[goldRecord](t, "transcoder-test/gold.jsonl")
}

// paperMutants and paperPrograms are the MBTA case study's totals (seed
// paper 000: 75,082 muJava mutants of 612 TransCoder-test Java programs).
const paperMutants, paperPrograms = 75082, 612

// TestCorpusMutantCounts generates the mutants of every gold function of
// the shared TransCoder-test sample and reports the totals next to the
// paper's. It checks that every function is accepted, that (almost) no
// candidate is dropped as unparsable, and that all 19 operators fire on
// the Java sample.
func TestCorpusMutantCounts(t *testing.T) {
	recs := loadGold(t)
	langs := []string{"java", "cpp", "python"}
	if testing.Short() {
		langs = langs[:1]
	}
	for _, lang := range langs {
		total := Stats{PerOperator: map[string]int{}}
		for i, r := range recs {
			code := map[string]string{"java": r.Java, "cpp": r.Cpp, "python": r.Python}[lang]
			ms, st, err := Generate(lang, code, Options{})
			if err != nil {
				t.Errorf("%s %s: %v", lang, r.SampleID, err)
				continue
			}
			if i%10 == 0 {
				assertValid(t, lang, code, ms)
			}
			total.Generated += st.Generated
			total.Invalid += st.Invalid
			total.Duplicates += st.Duplicates
			for op, n := range st.PerOperator {
				total.PerOperator[op] += n
			}
		}
		var per []string
		for _, op := range Operators {
			per = append(per, fmt.Sprintf("%s=%d", op, total.PerOperator[op]))
		}
		t.Logf("%s: %d mutants for %d problems (%.1f per problem; paper: %d for %d = %.1f), invalid %d, duplicates %d\n  %s",
			lang, total.Generated, len(recs), float64(total.Generated)/float64(len(recs)),
			paperMutants, paperPrograms, float64(paperMutants)/paperPrograms,
			total.Invalid, total.Duplicates, strings.Join(per, " "))
		if total.Invalid*200 > total.Generated {
			t.Errorf("%s: %d of %d candidates did not re-parse", lang, total.Invalid, total.Generated)
		}
		if lang == "java" {
			for _, op := range Operators {
				if total.PerOperator[op] == 0 {
					t.Errorf("operator %s produced no Java mutant on the sample", op)
				}
			}
		}
	}
}
