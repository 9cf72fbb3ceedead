package paper

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"transmute/internal/testenv"
)

// seedText returns TRACE's text from ../shared/seeds beside the module root or
// /work/shared/seeds, and skips the test when neither has it.
func seedText(t *testing.T) string {
	t.Helper()
	var dirs []string
	if root, err := testenv.ModuleRoot(); err == nil {
		dirs = append(dirs, filepath.Join(root, "..", "shared", "seeds"))
	}
	dirs = append(dirs, "/work/shared/seeds")
	for _, d := range dirs {
		m, _ := filepath.Glob(filepath.Join(d, "002_*.txt"))
		if len(m) == 1 {
			b, err := os.ReadFile(m[0])
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
	}
	t.Skipf("TRACE not found in %v: a fresh checkout does not have the seeds; skipping", dirs)
	return ""
}

// seedTable15 parses the two Markdown blocks of Table 15 in the seed's text: per
// paper alias and direction the five figures, and per direction the Average row.
func seedTable15(t *testing.T, text string) (map[string]Figures, map[Direction]Figures) {
	t.Helper()
	names := map[string]Direction{"C++→Java": {"cpp", "java"}, "C++→Py": {"cpp", "python"}, "Java→C++": {"java", "cpp"},
		"Java→Py": {"java", "python"}, "Py→C++": {"python", "cpp"}, "Py→Java": {"python", "java"}}
	lines := strings.Split(text, "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "Table 15:") {
			start = i
			break
		}
	}
	if start < 0 {
		t.Fatal("no \"Table 15:\" line in TRACE")
	}
	cells := map[string]Figures{}
	avg := map[Direction]Figures{}
	var dirs []Direction
	blocks := 0
	for _, l := range lines[start+1:] {
		if !strings.HasPrefix(l, "|") {
			if blocks == 2 && len(dirs) > 0 && strings.TrimSpace(l) != "" {
				break // past the second block
			}
			continue
		}
		f := strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|")
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		switch {
		case f[0] == "Model":
			blocks++
			dirs = nil
			for _, c := range f[1:] {
				if c == "" {
					continue
				}
				d, ok := names[c]
				if !ok {
					t.Fatalf("unknown direction %q in %q", c, l)
				}
				dirs = append(dirs, d)
			}
			if len(dirs) != 3 {
				t.Fatalf("header %q: %d directions, want 3", l, len(dirs))
			}
		case f[0] == "" || strings.Trim(f[0], "-") == "":
			// the sub-header (Pass, B_T, ...) and the separator
		default:
			if len(f) != 16 {
				t.Fatalf("row %q: %d fields, want 16", l, len(f))
			}
			for j, d := range dirs {
				var v [5]float64
				for k := range v {
					x, err := strconv.ParseFloat(f[1+5*j+k], 64)
					if err != nil {
						t.Fatalf("row %q: %v", l, err)
					}
					v[k] = x
				}
				fig := Figures{v[0], v[1], v[2], v[3], v[4]}
				if f[0] == "Average" {
					avg[d] = fig
				} else {
					cells[f[0]+" "+d.String()] = fig
				}
			}
		}
	}
	return cells, avg
}

// TestTable15AgainstSeed compares every number of the transcription with the seed's
// own text, and each column's mean with the paper's Average row.
func TestTable15AgainstSeed(t *testing.T) {
	text := seedText(t)
	seed, avg := seedTable15(t, text)
	if len(seed) != 168 || len(avg) != 6 {
		t.Fatalf("parsed %d cells and %d averages from the seed, want 168 and 6", len(seed), len(avg))
	}
	cells, err := Table15()
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != len(seed) {
		t.Fatalf("transcription has %d cells, the seed %d", len(cells), len(seed))
	}
	sum := map[Direction]*[5]float64{}
	for _, c := range cells {
		s, ok := seed[c.Alias+" "+c.Dir.String()]
		if !ok {
			t.Errorf("%s (%s) %s not in the seed", c.Model, c.Alias, c.Dir)
			continue
		}
		if s != c.Figures {
			t.Errorf("%s %s: transcribed %+v, seed %+v", c.Alias, c.Dir, c.Figures, s)
		}
		if sum[c.Dir] == nil {
			sum[c.Dir] = &[5]float64{}
		}
		for k, v := range []float64{c.Pass, c.BT, c.BM, c.BTP, c.BMP} {
			sum[c.Dir][k] += v
		}
	}
	for d, a := range avg {
		// the Average row is the mean of 28 figures rounded to 0.1
		for k, want := range []float64{a.Pass, a.BT, a.BM, a.BTP, a.BMP} {
			if got := sum[d][k] / 28; math.Abs(got-want) > 0.05+1e-9 {
				t.Errorf("%s column %d: mean of the transcription %.3f, paper's Average %.1f", d, k, got, want)
			}
		}
	}
}

// TestTable15Consistent checks the transcription without the seed: 28 models with
// all six directions each, figures in [0, 100], and B = Pass x B^P / 100 (incorrect
// translations score 0) within the rounding of the three printed figures.
func TestTable15Consistent(t *testing.T) {
	cells, err := Table15()
	if err != nil {
		t.Fatal(err)
	}
	per := map[string]map[Direction]bool{}
	aliases := map[string]string{}
	for _, c := range cells {
		if per[c.Model] == nil {
			per[c.Model] = map[Direction]bool{}
		}
		per[c.Model][c.Dir] = true
		if a, ok := aliases[c.Model]; ok && a != c.Alias {
			t.Errorf("%s has aliases %s and %s", c.Model, a, c.Alias)
		}
		aliases[c.Model] = c.Alias
		for _, v := range []float64{c.Pass, c.BT, c.BM, c.BTP, c.BMP} {
			if v < 0 || v > 100 {
				t.Errorf("%s %s: %v out of [0, 100]", c.Model, c.Dir, v)
			}
		}
		// each printed figure is within 0.05 of the exact one
		tol := 0.05 + 0.05*c.BTP/100 + 0.05*c.Pass/100 + 0.0025/100 + 1e-9
		if got := c.Pass * c.BTP / 100; math.Abs(got-c.BT) > tol {
			t.Errorf("%s %s: Pass x B_T^P = %.2f, B_T %.1f", c.Alias, c.Dir, got, c.BT)
		}
		tol = 0.05 + 0.05*c.BMP/100 + 0.05*c.Pass/100 + 0.0025/100 + 1e-9
		if got := c.Pass * c.BMP / 100; math.Abs(got-c.BM) > tol {
			t.Errorf("%s %s: Pass x B_M^P = %.2f, B_M %.1f", c.Alias, c.Dir, got, c.BM)
		}
	}
	if len(per) != 28 {
		t.Errorf("%d models, want 28", len(per))
	}
	for m, ds := range per {
		for _, d := range TraceDirections {
			if !ds[d] {
				t.Errorf("%s lacks %s", m, d)
			}
		}
	}
	// The model names are TRACE's directory names (checked when the corpus is here).
	ref := filepath.Join("/work/shared/corpora/trace/Ref_Translation")
	if c, err := testenv.CorporaDir(); err == nil {
		if _, err := os.Stat(filepath.Join(c, "trace", "Ref_Translation")); err == nil {
			ref = filepath.Join(c, "trace", "Ref_Translation")
		}
	}
	if _, err := os.Stat(ref); err != nil {
		t.Logf("TRACE's Ref_Translation not found (%v): directory names not checked", err)
		return
	}
	for m := range per {
		if _, err := os.Stat(filepath.Join(ref, "m."+m)); err != nil {
			t.Errorf("model %s: %v", m, err)
		}
	}
}

// TestTable14AgainstSeed compares the Table 14 transcription with the seed's text.
func TestTable14AgainstSeed(t *testing.T) {
	text := seedText(t)
	rows, err := Table14()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4", len(rows))
	}
	i := strings.Index(text, "Table 14:")
	if i < 0 {
		t.Fatal("no Table 14 in TRACE")
	}
	// The four data rows, in order: "| Pass vs B_T^P | -0.54^\dagger | -0.61^\dagger |".
	var seed [][2]float64
	for _, l := range strings.Split(text[i:], "\n") {
		if !strings.HasPrefix(l, "| Pass vs") {
			continue
		}
		f := strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|")
		var v [2]float64
		for k := 0; k < 2; k++ {
			s := strings.TrimSpace(f[1+k])
			if !strings.HasSuffix(s, `^\dagger`) {
				t.Errorf("%q: not marked p < 0.05", l)
			}
			x, err := strconv.ParseFloat(strings.TrimSuffix(s, `^\dagger`), 64)
			if err != nil {
				t.Fatalf("%q: %v", l, err)
			}
			v[k] = x
		}
		seed = append(seed, v)
		if len(seed) == 4 {
			break
		}
	}
	if len(seed) != 4 {
		t.Fatalf("found %d rows of Table 14 in the seed, want 4", len(seed))
	}
	for k, r := range rows {
		if r.PearsonR != seed[k][0] || r.SpearmanRho != seed[k][1] {
			t.Errorf("row %d (%s %s): transcribed %v %v, seed %v", k, r.Set, r.Y, r.PearsonR, r.SpearmanRho, seed[k])
		}
	}
}

func TestParseErrors(t *testing.T) {
	hdr := "model\talias\tdirection\tpass\tb_t\tb_m\tb_t_pass\tb_m_pass\n"
	for name, in := range map[string]string{
		"no header":     "# only a comment\n",
		"bad header":    "model\talias\n",
		"short row":     hdr + "m\ta\tcpp-java\t1\t2\n",
		"bad number":    hdr + "m\ta\tcpp-java\t1\t2\tx\t4\t5\n",
		"bad direction": hdr + "m\ta\tcppjava\t1\t2\t3\t4\t5\n",
		"twice":         hdr + "m\ta\tcpp-java\t1\t2\t3\t4\t5\nm\ta\tcpp-java\t1\t2\t3\t4\t5\n",
	} {
		if _, err := ParseTable15TSV(strings.NewReader(in)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
