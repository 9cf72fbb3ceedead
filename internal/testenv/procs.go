package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ProcsWith lists the processes but this one whose command line contains marker,
// each as "pid: command line": what tests look for when they check that an
// engine left no worker or candidate behind.
func ProcsWith(marker string) []string {
	var procs []string
	ents, _ := os.ReadDir("/proc")
	self := fmt.Sprint(os.Getpid())
	for _, e := range ents {
		if e.Name() == self || e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), marker) {
			procs = append(procs, e.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return procs
}
