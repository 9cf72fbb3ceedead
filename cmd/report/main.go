// Command report prints readable reports from a run's tables.
//
//	report fidelity OUT   harness fidelity per language pair, and every disagreement
//	                      not explained by integer overflow or floating point
//	report scores OUT     CA and pass rate per translator, corpus and direction
//	report efficiency OUT Pass and Beyond per model and direction (TRACE Table 15)
//	report html OUT       everything above as one page, OUT/report/index.html
//	report table15 OUT [EFF_OUT]  Pass (and Beyond, Table 14 with EFF_OUT) against
//	                      TRACE's Table 15, cell by cell (report/table15)
//	report table14 EFF_OUT  only the Beyond order against Table 15 (rho with bootstrap
//	                      intervals, with and without three models) and Table 14
//	report repro EFF_A EFF_B  two efficiency runs of the same tasks: equal counts,
//	                      and rho of the translators' B^P order per cost mode
package main

import (
	"context"
	"fmt"
	"os"

	"transmute/io/blobs"
	"transmute/report"
)

func main() {
	if len(os.Args) != 3 && !(len(os.Args) == 4 && os.Args[1] == "table15") && !(len(os.Args) == 4 && os.Args[1] == "repro") {
		fmt.Fprintln(os.Stderr, "usage: report fidelity|scores|efficiency|html|table14 OUTPUT_DIR_OR_URL, report table15 OUT [EFF_OUT], or report repro EFF_A EFF_B")
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
	case "table15":
		return table15Report(ctx, os.Args[2:])
	case "table14":
		return table14Report(ctx, b)
	case "repro":
		return reproReport(ctx, os.Args[2], os.Args[3])
	}
	return fmt.Errorf("unknown report %q", kind)
}
