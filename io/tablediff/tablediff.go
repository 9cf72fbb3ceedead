// Package tablediff compares two runs' tables row by row, whatever their row types:
// each row is read through its Parquet schema, so one comparison serves every job.
// `make portable` uses it to show that a run on a job server with workers in another
// process and file system wrote the same tables as the in-process run.
package tablediff

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
	"gocloud.dev/blob"

	"transmute/io/sink"
)

// TimingColumns are the measurements that differ from run to run on the same input
// (times, memory peaks): left out of the comparison.
var TimingColumns = []string{
	"latency_ms", "cpu_us", "wall_us", "max_rss_kb", // translations, executions
	"cpu_mean_ms", "cpu_std_ms", "cpu_cv", "wall_mean_ms", "wall_std_ms", "wall_cv", // profiles
	"rss_mean_kb", "rss_std_kb", "rss_cv", "overhead_cpu_ms", "overhead_rss_kb", "net_cpu_ms",
	"chunk_mean_ms", "chunk_min_ms", "chunk_max_ms", "cache_chunk_mean_ms", "cache_chunk_min_ms", "cache_chunk_max_ms", // noise
	"ms", // similarity
}

// Table is the comparison of one table.
type Table struct {
	Name         string
	RowsA, RowsB int
	// NOnlyA and NOnlyB count the rows found in one run only; OnlyA and OnlyB show
	// them (as "column=value" lists), at most MaxShown of each.
	NOnlyA, NOnlyB int
	OnlyA, OnlyB   []string
	// Renumbered counts the rows of the first run that equal a row of the second
	// only once C++ diagnostics are renumbered (see unitLines).
	Renumbered int
	// MissingA, MissingB: the table is absent from that run.
	MissingA, MissingB bool
	// Columns is set when the tables' compared columns differ.
	Columns string
}

// Equal tells whether the table holds the same rows in both runs.
func (t Table) Equal() bool {
	return !t.MissingA && !t.MissingB && t.Columns == "" && t.NOnlyA == 0 && t.NOnlyB == 0 && t.RowsA == t.RowsB
}

// MaxShown bounds the differing rows kept per table and side.
const MaxShown = 5

// Compare compares every table either run's manifest names, leaving out the columns
// in ignore. Rows are compared as multisets: the order of rows and shards is the
// runner's and means nothing.
func Compare(ctx context.Context, a, b *blob.Bucket, ignore []string) ([]Table, error) {
	skip := map[string]bool{}
	for _, c := range ignore {
		skip[c] = true
	}
	ta, err := tables(ctx, a)
	if err != nil {
		return nil, fmt.Errorf("first run: %w", err)
	}
	tb, err := tables(ctx, b)
	if err != nil {
		return nil, fmt.Errorf("second run: %w", err)
	}
	names := map[string]bool{}
	for n := range ta {
		names[n] = true
	}
	for n := range tb {
		names[n] = true
	}
	var out []Table
	for _, n := range slices.Sorted(maps.Keys(names)) {
		t := Table{Name: n, MissingA: !ta[n], MissingB: !tb[n]}
		if t.MissingA || t.MissingB {
			out = append(out, t)
			continue
		}
		colsA, rowsA, err := readRows(ctx, a, n, skip)
		if err != nil {
			return nil, fmt.Errorf("first run: %s: %w", n, err)
		}
		colsB, rowsB, err := readRows(ctx, b, n, skip)
		if err != nil {
			return nil, fmt.Errorf("second run: %s: %w", n, err)
		}
		t.RowsA, t.RowsB = len(rowsA), len(rowsB)
		if ca, cb := strings.Join(colsA, ","), strings.Join(colsB, ","); ca != cb && len(rowsA) > 0 && len(rowsB) > 0 {
			t.Columns = ca + " vs " + cb
		} else if rawA, _, _, _ := difference(rowsA, rowsB); rawA == 0 && len(rowsA) == len(rowsB) {
			// equal as written
		} else {
			t.NOnlyA, t.NOnlyB, t.OnlyA, t.OnlyB = difference(renumber(rowsA), renumber(rowsB))
			t.Renumbered = rawA - t.NOnlyA
		}
		out = append(out, t)
	}
	return out, nil
}

// tables reads the table names of a run's manifest.
func tables(ctx context.Context, b *blob.Bucket) (map[string]bool, error) {
	data, err := b.ReadAll(ctx, sink.ManifestKey)
	if err != nil {
		return nil, err
	}
	var m struct {
		Tables map[string]string `json:"tables"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", sink.ManifestKey, err)
	}
	out := map[string]bool{}
	for t := range m.Tables {
		out[t] = true
	}
	return out, nil
}

// readRows reads every row of a table as one string per row ("col=value" joined by a
// unit separator), sorted, with the columns that were compared.
func readRows(ctx context.Context, b *blob.Bucket, table string, skip map[string]bool) ([]string, []string, error) {
	keys, err := sink.Shards(ctx, b, table)
	if err != nil {
		return nil, nil, err
	}
	var cols []string
	var rows []string
	for _, k := range keys {
		data, err := b.ReadAll(ctx, k)
		if err != nil {
			return nil, nil, err
		}
		f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", k, err)
		}
		var names []string
		for _, c := range f.Schema().Columns() {
			names = append(names, strings.Join(c, "."))
		}
		if cols == nil {
			for _, n := range names {
				if !skip[n] {
					cols = append(cols, n)
				}
			}
		}
		for _, rg := range f.RowGroups() {
			rr := rg.Rows()
			buf := make([]parquet.Row, 64)
			for {
				n, err := rr.ReadRows(buf)
				for _, row := range buf[:n] {
					rows = append(rows, render(row, names, skip))
				}
				if err != nil || n == 0 {
					break
				}
			}
			rr.Close()
		}
	}
	sort.Strings(rows)
	return cols, rows, nil
}

// unitLine and unitGutter are the line numbers of the C++ translation unit in
// compiler messages ("tu.cpp:349:8:", and "  349 |" before a quoted source line, a
// newline written as \n in a rendered row). The C++ engine compiles a batch of
// candidates as one unit, so the numbers a compile error quotes depend on which
// candidates shared its batch: on the runner's bundles, not on the result.
var (
	unitLine   = regexp.MustCompile(`tu\.cpp:\d+(?::\d+)?`)
	unitGutter = regexp.MustCompile(`\\n *\d+ \|`)
)

// renumber replaces the unit's line numbers in the rows that quote them, sorted again.
func renumber(rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		if strings.Contains(r, "tu.cpp:") {
			r = unitLine.ReplaceAllLiteralString(r, "tu.cpp:N")
			r = unitGutter.ReplaceAllLiteralString(r, `\n N |`)
		}
		out[i] = r
	}
	sort.Strings(out)
	return out
}

// render writes one row; a repeated column's values are joined in order. Floats are
// written to 12 significant digits: a sum combined in another order by another
// runner may differ in its last bits, which is not a different result.
func render(row parquet.Row, names []string, skip map[string]bool) string {
	cells := make([]string, len(names))
	seen := make([]bool, len(names))
	for _, v := range row {
		c := v.Column()
		if c < 0 || c >= len(names) || skip[names[c]] {
			continue
		}
		s := v.String()
		switch v.Kind() {
		case parquet.Float:
			s = strconv.FormatFloat(float64(v.Float()), 'g', 6, 32)
		case parquet.Double:
			s = strconv.FormatFloat(v.Double(), 'g', 12, 64)
		}
		if v.IsNull() {
			s = "null"
		}
		if seen[c] {
			cells[c] += "," + s
		} else {
			cells[c], seen[c] = s, true
		}
	}
	var sb strings.Builder
	for i, n := range names {
		if skip[n] {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteString("\x1f")
		}
		sb.WriteString(n)
		sb.WriteString("=")
		sb.WriteString(strconv.Quote(cells[i]))
	}
	return sb.String()
}

// difference walks two sorted lists and returns the rows of each that the other lacks
// (a row twice in one and once in the other is once in the difference), with at
// most MaxShown of each kept.
func difference(a, b []string) (nA, nB int, onlyA, onlyB []string) {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i] < b[j]):
			onlyA = appendShown(onlyA, a[i])
			nA++
			i++
		case i == len(a) || b[j] < a[i]:
			onlyB = appendShown(onlyB, b[j])
			nB++
			j++
		default:
			i++
			j++
		}
	}
	return nA, nB, onlyA, onlyB
}

func appendShown(l []string, row string) []string {
	if len(l) >= MaxShown {
		return l
	}
	return append(l, strings.ReplaceAll(row, "\x1f", " "))
}
