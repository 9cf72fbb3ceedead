// Command tablediff compares the tables of two runs row by row (timing columns aside)
// and exits 1 when any table differs:
//
//	tablediff out/portable/inprocess out/portable/portable
//
// Either run may be a directory or a bucket URL. `make portable` runs it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"transmute/io/blobs"
	"transmute/io/tablediff"
)

func main() {
	ignore := flag.String("ignore", strings.Join(tablediff.TimingColumns, ","), "comma-separated columns left out of the comparison")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: tablediff [--ignore cols] RUN_A RUN_B")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 2 {
		flag.Usage()
		os.Exit(2)
	}
	same, err := run(context.Background(), flag.Arg(0), flag.Arg(1), strings.Split(*ignore, ","))
	if err != nil {
		fmt.Fprintln(os.Stderr, "tablediff:", err)
		os.Exit(2)
	}
	if !same {
		os.Exit(1)
	}
}

func run(ctx context.Context, a, b string, ignore []string) (bool, error) {
	ba, err := blobs.Open(ctx, a)
	if err != nil {
		return false, err
	}
	defer ba.Close()
	bb, err := blobs.Open(ctx, b)
	if err != nil {
		return false, err
	}
	defer bb.Close()
	ts, err := tablediff.Compare(ctx, ba, bb, ignore)
	if err != nil {
		return false, err
	}
	same := len(ts) > 0
	for _, t := range ts {
		switch {
		case t.Equal():
			fmt.Printf("%-20s equal: %d rows", t.Name, t.RowsA)
			if t.Renumbered > 0 {
				fmt.Printf(" (%d of them once the C++ unit's line numbers in compile errors are set aside)", t.Renumbered)
			}
			fmt.Println()
			continue
		case t.MissingA || t.MissingB:
			fmt.Printf("%-20s only in %s\n", t.Name, map[bool]string{true: b, false: a}[t.MissingA])
		case t.Columns != "":
			fmt.Printf("%-20s columns differ: %s\n", t.Name, t.Columns)
		default:
			fmt.Printf("%-20s DIFFERENT: %d vs %d rows; %d only in the first, %d only in the second\n",
				t.Name, t.RowsA, t.RowsB, t.NOnlyA, t.NOnlyB)
			for _, r := range t.OnlyA {
				fmt.Printf("  - %s\n", r)
			}
			for _, r := range t.OnlyB {
				fmt.Printf("  + %s\n", r)
			}
		}
		same = false
	}
	if len(ts) == 0 {
		fmt.Println("no tables in either run")
	}
	return same, nil
}
