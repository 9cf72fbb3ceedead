package pipelines

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"gocloud.dev/blob"

	"transmute/io/sink"
	"transmute/schemas"
)

// PrintErrorCounts prints the run's error rows per stage (ingest, translate, ...), so
// that failed translations and malformed input lines show in the summary, not only
// in the errors table.
func PrintErrorCounts(ctx context.Context, w io.Writer, b *blob.Bucket) error {
	rows, err := sink.Read[schemas.ErrorRow](ctx, b, "errors")
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return nil
	}
	_, err = fmt.Fprintf(w, "error rows by stage: %s\n", ErrorCounts(rows))
	return err
}

// ErrorCounts formats the number of rows per stage, e.g. "ingest 2, translate 5".
func ErrorCounts(rows []schemas.ErrorRow) string {
	n := map[string]int{}
	for _, r := range rows {
		n[r.Stage]++
	}
	stages := make([]string, 0, len(n))
	for s := range n {
		stages = append(stages, s)
	}
	sort.Strings(stages)
	parts := make([]string, len(stages))
	for i, s := range stages {
		parts[i] = fmt.Sprintf("%s %d", s, n[s])
	}
	return strings.Join(parts, ", ")
}
