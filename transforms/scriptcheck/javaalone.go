package scriptcheck

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"transmute/schemas"
	"transmute/transforms/execute/java"
	"transmute/transforms/sandbox"
)

// JavaAlone runs filled Java scripts one at a time as the benchmark's own harness
// does: javac on the script's file, then a JVM of its own for the script's class,
// plain launchers without tuning flags; the JVM runs in the sandbox. It is the naive
// way that RunJava's batches are measured against, and a check of their verdicts.
type JavaAlone struct {
	JavaHome string // the JDK (a home or its bin dir); found on PATH when empty

	once sync.Once
	jdk  java.JDK
	err  error
}

// javafxPair is the scripts' import of javafx.util.Pair, which JDK 17 lacks and no
// script uses beyond the import.
var javafxPair = regexp.MustCompile(`(?m)^[ \t]*import[ \t]+javafx\.util\.Pair[ \t]*;[ \t]*$`)

var javaClassName = regexp.MustCompile(`\bclass\s+(\w+)`)

// Run compiles one filled script and runs it: a compile error is an Outcome with
// javac's first error, an error is the harness's own failure (no JDK, javac not done
// in 2 minutes).
func (j *JavaAlone) Run(ctx context.Context, filled string, lim sandbox.Limits) (Outcome, error) {
	j.once.Do(func() { j.jdk, j.err = java.FindJDK(j.JavaHome) })
	if j.err != nil {
		return Outcome{}, j.err
	}
	filled = javafxPair.ReplaceAllString(filled, "")
	cls := javaClassDecl.FindString(filled)
	m := javaClassName.FindStringSubmatch(cls)
	if m == nil {
		return Outcome{Status: schemas.StatusCompileError, Detail: "no class in the script"}, nil
	}
	dir, err := os.MkdirTemp("", "scriptcheck-java-")
	if err != nil {
		return Outcome{}, err
	}
	defer os.RemoveAll(dir)
	_ = os.Chmod(dir, 0o755) // the sandbox may run the JVM as another user
	src := filepath.Join(dir, m[1]+".java")
	if err := os.WriteFile(src, []byte(filled), 0o644); err != nil {
		return Outcome{}, err
	}
	// javac runs none of the code: no annotation processor is on its path
	if out, failed, err := compile(ctx, dir, j.jdk.Javac, "-encoding", "UTF-8", "-nowarn", "-d", dir, src); err != nil {
		return Outcome{}, err
	} else if failed {
		return Outcome{Status: schemas.StatusCompileError, Detail: javacDetail(out, filled)}, nil
	}
	if lim.CPUTime == 0 {
		lim.CPUTime, lim.WallTime = 20*time.Second, 60*time.Second
	}
	o, err := sandbox.Run(ctx, sandbox.Spec{Path: j.jdk.Java, Args: []string{"-cp", dir, m[1]},
		ReadOnly: append([]string{dir}, j.jdk.ReadOnly...), Limits: lim, NoAddressSpaceLimit: true}, nil)
	if err != nil {
		return Outcome{}, err
	}
	return outcome(o), nil
}

var javacError = regexp.MustCompile(`(?m)^\S+\.java:(\d+): error: (.*)$`)

// javacDetail is javac's first error, said to be in main (InMain) or before it
// (InTranslation) as RunJava's details are, so that Cause reads both alike.
func javacDetail(out, filled string) string {
	m := javacError.FindStringSubmatch(out)
	if m == nil {
		return firstLine(out)
	}
	where := InTranslation
	if mi := javaMain.FindStringIndex(filled); mi != nil {
		if n, _ := strconv.Atoi(m[1]); n > strings.Count(filled[:mi[0]], "\n") {
			where = InMain
		}
	}
	return where + firstLine(m[2])
}
