// Command report prints readable reports from a run's tables.
//
//	report fidelity OUT   harness fidelity per language pair, and every disagreement
//	                      not explained by integer overflow or floating point
//	report scores OUT     CA and pass rate per translator, corpus and direction
//	report efficiency OUT Pass and Beyond per model and direction (seed 002 Table 15)
//	report html OUT       everything above as one page, OUT/report/index.html
package main

import (
	"context"
	"fmt"
	"os"

	"transmute/io/blobs"
	"transmute/report"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: report fidelity|scores|efficiency|html OUTPUT_DIR_OR_URL")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(1)
	}
}

// run prints one report; it returns rather than exits so that the bucket is closed.
func run(kind, out string) error {
	ctx := context.Background()
	b, err := blobs.Open(ctx, out)
	if err != nil {
		return err
	}
	defer b.Close()
	switch kind {
	case "fidelity":
		return report.PrintFidelitySummary(ctx, os.Stdout, b)
	case "scores":
		return report.PrintSummary(ctx, os.Stdout, b)
	case "efficiency":
		return report.PrintEfficiencySummary(ctx, os.Stdout, b)
	case "html":
		return htmlReport(ctx, b, out)
	}
	return fmt.Errorf("unknown report %q", kind)
}
