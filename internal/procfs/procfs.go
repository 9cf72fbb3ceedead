// Package procfs reads /proc/<pid>/stat. Its second field, the command name in
// parentheses, may hold spaces and parentheses of its own, so the fields are
// split after the last ')'.
package procfs

import (
	"os"
	"strconv"
	"strings"
)

// Stat returns the fields of /proc/<pid>/stat after the command name: [0] is
// field 3 (state), [1] ppid, [2] pgrp, [3] session, [19] field 22 (starttime).
// ok is false when the process does not exist (or the file cannot be parsed).
func Stat(pid int) (fields []string, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil, false
	}
	return strings.Fields(s[i+1:]), true
}

// StartTime is field 22 of /proc/<pid>/stat: when the process started, in clock
// ticks after boot; with the pid it names one process of a boot.
func StartTime(pid int) (string, bool) {
	f, ok := Stat(pid)
	if !ok || len(f) < 20 {
		return "", false
	}
	return f[19], true
}
