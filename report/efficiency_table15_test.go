package report

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"gocloud.dev/blob/memblob"

	"transmute/io/sink"
	"transmute/schemas"
)

// TestEfficiencySectionsShowTable15 checks that the efficiency report, as text and
// as the page, carries the comparison with Table 15 and Table 14 when the run's
// models are TRACE's, and nothing of it otherwise.
func TestEfficiencySectionsShowTable15(t *testing.T) {
	run := func(models []string) ([]schemas.ScoreRow, []schemas.ProfileRow) {
		var scores []schemas.ScoreRow
		var profiles []schemas.ProfileRow
		for i, m := range models {
			for _, dir := range []string{"cpp", "*"} {
				tgt := "java"
				if dir == "*" {
					tgt = "*"
				}
				for metric, v := range map[schemas.Metric]float64{schemas.MetricBeyondTimePass: 40 + float64(i), schemas.MetricBeyondMemPass: 50 - float64(i)} {
					scores = append(scores, schemas.ScoreRow{Translator: m, Corpus: "trace", SrcLang: dir, TgtLang: tgt, Oracle: "target_gold", Subset: "all", Metric: metric, Value: v, N: 2})
				}
				scores = append(scores, schemas.ScoreRow{Translator: m, Corpus: "trace", SrcLang: dir, TgtLang: tgt, Oracle: "target_gold", Subset: "every_task", Metric: schemas.MetricPassRate, Value: 0.5, N: 2})
			}
			for _, task := range []string{"T1", "T2"} {
				profiles = append(profiles, schemas.ProfileRow{Translator: m, ProblemID: task, SrcLang: "cpp", TgtLang: "java", Role: schemas.RoleTranslation,
					Correct: true, BeyondTime: 40 + float64(i), BeyondMem: 50 - float64(i), TimeMeasure: "process_cpu_ms"})
			}
		}
		for _, task := range []string{"T1", "T2"} {
			profiles = append(profiles, schemas.ProfileRow{ProblemID: task, SrcLang: "cpp", TgtLang: "java", Role: schemas.RoleGroundTruth, Correct: true})
		}
		return scores, profiles
	}
	const heading = "Against TRACE: our B^P order and Table 14"
	for _, c := range []struct {
		models []string
		want   bool
	}{{[]string{"gpt-4o", "o3", "gpt-4o-mini", "deepseek-chat"}, true}, {[]string{"alpha", "beta", "gamma"}, false}} {
		scores, profiles := run(c.models)
		ctx := context.Background()
		b := memblob.OpenBucket(nil)
		if _, err := sink.WriteShard(ctx, b, "scores", scores); err != nil {
			t.Fatal(err)
		}
		if _, err := sink.WriteShard(ctx, b, "profiles", profiles); err != nil {
			t.Fatal(err)
		}
		var text bytes.Buffer
		if err := PrintEfficiencySummary(ctx, &text, b); err != nil {
			t.Fatal(err)
		}
		var page bytes.Buffer
		if err := Write(&page, &Run{Scores: scores, Profiles: profiles}); err != nil {
			t.Fatal(err)
		}
		for name, out := range map[string]string{"text": text.String(), "page": page.String()} {
			if got := strings.Contains(out, heading); got != c.want {
				t.Errorf("%v, %s: comparison shown %v, want %v:\n%s", c.models, name, got, c.want, out)
			}
			// four TRACE models, two of them of the three: rho over 4 models (our
			// B_T^P 40..43, ranks 1 2 3 4, against Table 15's 67.1, 57.0, 41.3,
			// 69.2, ranks 3 2 1 4: rho = 1 - 6*8/(4*15) = 0.2), and over 2
			// (undefined) without them
			if c.want && !strings.Contains(strings.ReplaceAll(out, "&gt;", ">"), "C++->Java      2 | +0.20 [+0.20, +0.20]    undefined") {
				t.Errorf("%s: no C++->Java row:\n%s", name, out)
			}
		}
	}
}
