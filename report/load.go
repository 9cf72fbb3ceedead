// Package report renders a run's tables and manifest as a self-contained HTML page
// (plots as inline SVG, no network) and as the text summaries of each job
// (summary*.go), which the launcher prints after a run and cmd/report on demand. It
// reads only what the run wrote (Parquet tables and manifest.json) and imports no
// Beam, so cmd/report and the launcher can share it.
package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/parquet-go/parquet-go"
	"gocloud.dev/blob"

	"transmute/io/sink"
	"transmute/schemas"
)

// Manifest is the part of a run's manifest.json the report shows (pipelines.Manifest,
// read without importing the pipelines).
type Manifest struct {
	Run         string            `json:"run"`
	Command     string            `json:"command"`
	Config      map[string]any    `json:"config"`
	Start       string            `json:"start"`
	End         string            `json:"end"`
	Seconds     float64           `json:"seconds"`
	Versions    map[string]string `json:"versions"`
	Protections []string          `json:"sandbox_protections"`
	Counts      map[string]int64  `json:"counts"`
}

// Generic is a table the report knows only by its Parquet schema (the properties,
// consistency and similarity tables): column names and rows as strings.
type Generic struct {
	// Section is the job's section the table is shown in (properties, consistency,
	// similarity).
	Section string
	Name    string
	Columns []string
	Rows    [][]string
	Total   int
}

// Run is everything the report is built from.
type Run struct {
	Manifest     Manifest
	Problems     []schemas.Problem
	Translations []schemas.TranslationRow
	Executions   []schemas.ExecutionRow
	Results      []schemas.ResultRow
	Scores       []schemas.ScoreRow
	Errors       []schemas.ErrorRow
	Fidelity     []schemas.FidelityRow
	Variants     []schemas.VariantRow
	Mutants      []schemas.MutantResultRow
	Profiles     []schemas.ProfileRow
	Noise        []schemas.NoiseRow
	Extra        []Generic
	Summary      string
}

// ExtraTables are the tables of other jobs shown generically when present, by the
// section that shows them (page order).
var ExtraTables = []struct{ Section, Table string }{
	{"properties", "transformations"}, {"properties", "property_results"}, {"properties", "search"},
	{"consistency", "consistency_results"}, {"consistency", "repairs"},
	{"similarity", "similarity_stats"}, {"similarity", "similarity"},
}

// maxGenericRows bounds the rows of a generic table kept for the page.
const maxGenericRows = 200

// Load reads a run's output directory or bucket. A table the run did not write is
// empty; a manifest that is missing is an error (it is what says a run finished).
func Load(ctx context.Context, b *blob.Bucket) (*Run, error) {
	r := &Run{}
	data, err := b.ReadAll(ctx, "manifest.json")
	if err != nil {
		return nil, fmt.Errorf("report: manifest.json: %w", err)
	}
	if err := json.Unmarshal(data, &r.Manifest); err != nil {
		return nil, fmt.Errorf("report: manifest.json: %w", err)
	}
	var errs []error
	read := func(table string, f func() error) {
		if err := f(); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", table, err))
		}
	}
	read("problems", func() (err error) { r.Problems, err = sink.Read[schemas.Problem](ctx, b, "problems"); return })
	read("translations", func() (err error) {
		r.Translations, err = sink.Read[schemas.TranslationRow](ctx, b, "translations")
		return
	})
	read("executions", func() (err error) {
		r.Executions, err = sink.Read[schemas.ExecutionRow](ctx, b, "executions")
		return
	})
	read("results", func() (err error) { r.Results, err = sink.Read[schemas.ResultRow](ctx, b, "results"); return })
	read("scores", func() (err error) { r.Scores, err = sink.Read[schemas.ScoreRow](ctx, b, "scores"); return })
	read("errors", func() (err error) { r.Errors, err = sink.Read[schemas.ErrorRow](ctx, b, "errors"); return })
	read("fidelity", func() (err error) { r.Fidelity, err = sink.Read[schemas.FidelityRow](ctx, b, "fidelity"); return })
	read("variants", func() (err error) { r.Variants, err = sink.Read[schemas.VariantRow](ctx, b, "variants"); return })
	read("mutant_results", func() (err error) {
		r.Mutants, err = sink.Read[schemas.MutantResultRow](ctx, b, "mutant_results")
		return
	})
	read("profiles", func() (err error) { r.Profiles, err = sink.Read[schemas.ProfileRow](ctx, b, "profiles"); return })
	read("noise", func() (err error) { r.Noise, err = sink.Read[schemas.NoiseRow](ctx, b, "noise"); return })
	for _, t := range ExtraTables {
		g, err := readGeneric(ctx, b, t.Table)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", t.Table, err))
			continue
		}
		if g != nil && g.Total > 0 {
			g.Section = t.Section
			r.Extra = append(r.Extra, *g)
		}
	}
	// The job's printed summary (Table 3, F1 per metric, correlations...), which launch
	// keeps beside the tables; older runs have none.
	if data, err := b.ReadAll(ctx, "summary.txt"); err == nil {
		r.Summary = string(data)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("report: %v", errs)
	}
	return r, nil
}

// readGeneric reads a table of unknown row type through its Parquet schema; nil when
// the run has no such table.
func readGeneric(ctx context.Context, b *blob.Bucket, table string) (*Generic, error) {
	it := b.List(&blob.ListOptions{Prefix: table + "/part-"})
	var g *Generic
	for {
		obj, err := it.Next(ctx)
		if err != nil {
			break
		}
		data, err := b.ReadAll(ctx, obj.Key)
		if err != nil {
			return nil, err
		}
		f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil, err
		}
		if g == nil {
			g = &Generic{Name: table}
			for _, c := range f.Schema().Columns() {
				g.Columns = append(g.Columns, strings.Join(c, "."))
			}
		}
		for _, rg := range f.RowGroups() {
			rows := rg.Rows()
			buf := make([]parquet.Row, 64)
			for {
				n, err := rows.ReadRows(buf)
				for _, row := range buf[:n] {
					g.Total++
					if len(g.Rows) >= maxGenericRows {
						continue
					}
					cells := make([]string, len(g.Columns))
					for _, v := range row {
						if c := v.Column(); c >= 0 && c < len(cells) {
							if cells[c] != "" {
								cells[c] += ", "
							}
							cells[c] += v.String()
						}
					}
					g.Rows = append(g.Rows, cells)
				}
				if err != nil || n == 0 {
					break
				}
			}
			rows.Close()
		}
	}
	return g, nil
}
