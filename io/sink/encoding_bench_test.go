package sink

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"transmute/schemas"
)

// resultRowV1 is schemas.ResultRow as schema version 1 wrote it: parquet-go's
// defaults (DELTA_LENGTH_BYTE_ARRAY strings, no dictionary, every column required).
type resultRowV1 struct {
	Run                 string `parquet:"run"`
	Translator          string `parquet:"translator"`
	ProblemID           string `parquet:"problem_id"`
	Corpus              string `parquet:"corpus"`
	SrcLang             string `parquet:"src_lang"`
	TgtLang             string `parquet:"tgt_lang"`
	Sample              int32  `parquet:"sample"`
	Oracle              string `parquet:"oracle"`
	TestIndex           int32  `parquet:"test_index"`
	Expected            string `parquet:"expected"`
	Actual              string `parquet:"actual"`
	Status              string `parquet:"status"`
	OracleStatus        string `parquet:"oracle_status"`
	ProgramStatus       string `parquet:"program_status"`
	Match               bool   `parquet:"match"`
	LangDependent       bool   `parquet:"lang_dependent"`
	Nondeterministic    bool   `parquet:"nondeterministic"`
	MatchCppConversions bool   `parquet:"match_cpp_conversions"`
}

// benchResults are results rows shaped like an eval-shared run's: 28 translators,
// 6 directions, 2 oracles, 100 problems of 10 tests, outputs of a few digits, a
// tenth of the translations failing to run.
func benchResults() []schemas.ResultRow {
	langs := [][2]string{{"java", "python"}, {"java", "cpp"}, {"python", "java"}, {"python", "cpp"}, {"cpp", "java"}, {"cpp", "python"}}
	var rows []schemas.ResultRow
	for tr := 0; tr < 28; tr++ {
		for _, d := range langs {
			for p := 0; p < 100; p++ {
				prog := schemas.StatusOK
				if (tr+p)%10 == 0 {
					prog = schemas.StatusCompileError
				}
				for _, o := range []string{"source", "target_gold"} {
					for ti := 0; ti < 10; ti++ {
						r := schemas.ResultRow{Run: "shared-all", Translator: fmt.Sprintf("model-%02d-instruct", tr), ProblemID: fmt.Sprintf("PROBLEM_NAME_%03d", p),
							Corpus: "transcoder", SrcLang: d[0], TgtLang: d[1], Oracle: o, TestIndex: int32(ti),
							Expected: fmt.Sprint(p*31 + ti*7), Status: prog, OracleStatus: schemas.StatusOK, ProgramStatus: prog}
						if prog == schemas.StatusOK {
							r.Actual = r.Expected
							if (p+ti+tr)%7 == 0 {
								r.Actual = fmt.Sprint(p*31 + ti*7 + 1)
							}
							r.Match = r.Actual == r.Expected
						}
						rows = append(rows, r)
					}
				}
			}
		}
	}
	return rows
}

func encodeRows[T any](b *testing.B, rows []T) []byte {
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf, parquet.Compression(&parquet.Snappy), parquet.MaxRowsPerRowGroup(RowGroupRows))
	if _, err := w.Write(rows); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkResultsEncoding compares the results table in schema version 1 (parquet-go's
// defaults) and 2 (dictionary and plain encodings, optional columns): file size and
// the time parquet-go takes to read it back. BENCH_PARQUET_DIR=dir keeps both files
// (for timing other readers on them, e.g. DuckDB).
func BenchmarkResultsEncoding(b *testing.B) {
	rows := benchResults()
	v1 := make([]resultRowV1, len(rows))
	for i, r := range rows {
		v1[i] = resultRowV1{r.Run, r.Translator, r.ProblemID, r.Corpus, r.SrcLang, r.TgtLang, r.Sample, r.Oracle, r.TestIndex,
			r.Expected, r.Actual, string(r.Status), string(r.OracleStatus), string(r.ProgramStatus), r.Match, r.LangDependent,
			r.Nondeterministic, r.MatchCppConversions}
	}
	old, cur := encodeRows(b, v1), encodeRows(b, rows)
	if dir := os.Getenv("BENCH_PARQUET_DIR"); dir != "" {
		os.WriteFile(filepath.Join(dir, "results-v1.parquet"), old, 0o644)
		os.WriteFile(filepath.Join(dir, "results-v2.parquet"), cur, 0o644)
	}
	readTime := func(read func() error) time.Duration {
		best := time.Duration(1 << 62)
		for i := 0; i < 5; i++ {
			start := time.Now()
			if err := read(); err != nil {
				b.Fatal(err)
			}
			best = min(best, time.Since(start))
		}
		return best
	}
	for i := 0; i < b.N; i++ {
		tOld := readTime(func() error { _, err := parquet.Read[resultRowV1](bytes.NewReader(old), int64(len(old))); return err })
		tCur := readTime(func() error { _, err := readRows[schemas.ResultRow](cur); return err })
		fmt.Printf("BENCH results %d rows: v1 %d bytes, read %v; v2 %d bytes (%.2fx), read %v (%.2fx)\n", len(rows),
			len(old), tOld.Round(time.Millisecond), len(cur), float64(len(cur))/float64(len(old)), tCur.Round(time.Millisecond),
			float64(tCur)/float64(tOld))
	}
}
