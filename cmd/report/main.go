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
	ctx := context.Background()
	b, err := blobs.Open(ctx, os.Args[2])
	if err != nil {
		fatal(err)
	}
	defer b.Close()
	switch os.Args[1] {
	case "fidelity":
		err = report.PrintFidelitySummary(ctx, os.Stdout, b)
	case "scores":
		err = report.PrintSummary(ctx, os.Stdout, b)
	case "efficiency":
		err = report.PrintEfficiencySummary(ctx, os.Stdout, b)
	case "html":
		err = htmlReport(ctx, b, os.Args[2])
	default:
		err = fmt.Errorf("unknown report %q", os.Args[1])
	}
	if err != nil {
		fatal(err)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "report:", err)
	os.Exit(1)
}
