// Package paper holds published figures that Transmute's runs are compared with,
// transcribed from the seed papers' text (../shared/seeds) into TSV files embedded
// here, so that a report needs neither the seeds nor a path at run time. Only
// TRACE so far: Table 15 (Pass and Beyond per model and direction) and
// Table 14 (correlations of Pass with Beyond across models).
package paper

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"strconv"
	"strings"
)

//go:embed trace-table15.tsv
var table15TSV []byte

//go:embed trace-table14.tsv
var table14TSV []byte

// Direction is a translation direction in the project's language names
// (schemas.Cpp, schemas.Java, schemas.Python).
type Direction struct{ Src, Tgt string }

func (d Direction) String() string { return d.Src + "-" + d.Tgt }

// ParseDirection reads "cpp-java" and the like.
func ParseDirection(s string) (Direction, error) {
	a, b, ok := strings.Cut(s, "-")
	if !ok || a == "" || b == "" {
		return Direction{}, fmt.Errorf("paper: direction %q is not src-tgt", s)
	}
	return Direction{a, b}, nil
}

// TraceDirections is the direction order of TRACE's Table 15.
var TraceDirections = []Direction{
	{"cpp", "java"}, {"cpp", "python"}, {"java", "cpp"},
	{"java", "python"}, {"python", "cpp"}, {"python", "java"},
}

// Figures are the five numbers of a Table 15 cell, in % as printed.
type Figures struct {
	Pass, BT, BM, BTP, BMP float64
}

// Table15Cell is one (model, direction) cell of TRACE's Table 15.
type Table15Cell struct {
	// Model is the TRACE directory name (Ref_Translation/m.<Model>), which is also the
	// recorded translator's name in our runs; Alias is the paper's name (Table 12).
	Model, Alias string
	Dir          Direction
	Figures
}

// Table14Row is one correlation of TRACE's Table 14.
type Table14Row struct {
	Set           string // full | high_pass
	Models, Tasks int
	X, Y          string // pass; b_t_pass, b_m_pass (full set), b_t_com, b_m_com
	PearsonR      float64
	SpearmanRho   float64
}

// Table15 returns the 168 cells of the embedded transcription, in the paper's row
// order (model by model, directions in TraceDirections order).
func Table15() ([]Table15Cell, error) { return ParseTable15TSV(bytes.NewReader(table15TSV)) }

// Table14 returns the embedded Table 14.
func Table14() ([]Table14Row, error) { return ParseTable14TSV(bytes.NewReader(table14TSV)) }

// tsvRows reads a TSV with '#' comment lines and a header row, checking the header.
func tsvRows(r io.Reader, header []string) ([][]string, error) {
	sc := bufio.NewScanner(r)
	var rows [][]string
	seenHeader := false
	line := 0
	for sc.Scan() {
		line++
		t := sc.Text()
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		f := strings.Split(t, "\t")
		if !seenHeader {
			if strings.Join(f, "\t") != strings.Join(header, "\t") {
				return nil, fmt.Errorf("paper: line %d: header %q, want %q", line, t, strings.Join(header, "\t"))
			}
			seenHeader = true
			continue
		}
		if len(f) != len(header) {
			return nil, fmt.Errorf("paper: line %d: %d fields, want %d", line, len(f), len(header))
		}
		rows = append(rows, f)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if !seenHeader {
		return nil, fmt.Errorf("paper: no header")
	}
	return rows, nil
}

func floats(fs []string) ([]float64, error) {
	out := make([]float64, len(fs))
	for i, s := range fs {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("paper: %q: %w", s, err)
		}
		out[i] = v
	}
	return out, nil
}

// ParseTable15TSV reads a Table 15 transcription (model, alias, direction and the
// five figures). A (model, direction) given twice is an error.
func ParseTable15TSV(r io.Reader) ([]Table15Cell, error) {
	rows, err := tsvRows(r, []string{"model", "alias", "direction", "pass", "b_t", "b_m", "b_t_pass", "b_m_pass"})
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []Table15Cell
	for _, f := range rows {
		d, err := ParseDirection(f[2])
		if err != nil {
			return nil, err
		}
		v, err := floats(f[3:])
		if err != nil {
			return nil, err
		}
		k := f[0] + " " + d.String()
		if seen[k] {
			return nil, fmt.Errorf("paper: %s given twice", k)
		}
		seen[k] = true
		out = append(out, Table15Cell{Model: f[0], Alias: f[1], Dir: d, Figures: Figures{v[0], v[1], v[2], v[3], v[4]}})
	}
	return out, nil
}

// ParseTable14TSV reads a Table 14 transcription.
func ParseTable14TSV(r io.Reader) ([]Table14Row, error) {
	rows, err := tsvRows(r, []string{"set", "models", "tasks", "x", "y", "pearson_r", "spearman_rho"})
	if err != nil {
		return nil, err
	}
	var out []Table14Row
	for _, f := range rows {
		v, err := floats([]string{f[1], f[2], f[5], f[6]})
		if err != nil {
			return nil, err
		}
		out = append(out, Table14Row{Set: f[0], Models: int(v[0]), Tasks: int(v[1]), X: f[3], Y: f[4], PearsonR: v[2], SpearmanRho: v[3]})
	}
	return out, nil
}
