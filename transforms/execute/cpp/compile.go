package cpp

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"transmute/transforms/sandbox"
)

// The compiler reads the candidates' code, which may name any file (`#include
// "/etc/shadow"`, `asm(".incbin ...")`) and make it run for ever or fill the memory (a
// template recursion, `#include </dev/zero>`). So every compiler and linker run of a
// unit is a sandboxed program like the candidates themselves (transforms/sandbox): it
// sees the file system as they do (the host's files only through the sandbox's
// unprivileged uid, a private /tmp), with the engine's cache directory (harness.h, its
// precompiled header, harness_rt.o) read-only and the unit's directory as its only
// writable one, under CompileLimits, and its whole tree dies with the sandbox's init
// (and so with the launcher). The engine's own files (the runtime object and the
// precompiled header, built from harness.h alone) are compiled outside it.

// DefaultCompileLimits bound one compiler run of a unit (g++ and the cc1plus, as and
// ld it starts). Measured on this machine (2 cores shared with other work, 2026-11-28):
// the unit of 150 candidates of BenchmarkCppBatch took 1.2-1.6 s of compiler CPU,
// 2.7-5.6 s of wall time and 171 MiB of peak RSS (cc1plus with the 100 MB precompiled
// header; 84 MiB by the sandbox's count), its link 0.1 s of CPU. The limits leave a
// margin of about 10x in wall time and more in CPU and memory:
//   - CPUTime: 30 s; each process of the compile is killed by RLIMIT_CPU at twice
//     this plus a second (the sandbox's CPU timer counts only the g++ driver);
//   - WallTime: 60 s for the whole compile;
//   - MemoryBytes: 2 GiB of address space per process (and the memory cgroup of the
//     tree, where there is one);
//   - OutputBytes: 1 MiB of messages (stdout and stderr each; -fmax-errors=200 too);
//   - FileSizeBytes: 1 GiB per file written (the object, the program, temporaries);
//   - MaxProcs 64, OpenFiles 256.
var DefaultCompileLimits = sandbox.Limits{
	CPUTime:       30 * time.Second,
	WallTime:      60 * time.Second,
	MemoryBytes:   2 << 30,
	MaxProcs:      64,
	FileSizeBytes: 1 << 30,
	OpenFiles:     256,
	OutputBytes:   1 << 20,
}

// outOfResources are the messages of a compiler that ran out of memory or was killed
// under the driver (by RLIMIT_CPU, say).
var outOfResources = regexp.MustCompile(`out of memory|virtual memory exhausted|Cannot allocate memory|signal terminated program|std::bad_alloc`)

// compilerRun is how one compiler run ended.
type compilerRun struct {
	out    string // its messages (stdout, then stderr)
	failed bool
	limit  bool // stopped by a compile limit (or out of memory)
}

// toolRun says what a sandboxed tool run is, for Stats.
type toolRun int

const (
	runBuild  toolRun = iota // a unit's compile (Stats.Compiles)
	runSyntax                // a check with -fsyntax-only (Stats.SyntaxChecks)
	runStep                  // a link or objcopy after a build (time only)
	runOwn                   // the engine's own harness (not counted)
)

// runCompiler runs the compiler with args in the sandbox, in dir (the unit's
// directory, its only writable one).
func (e *Engine) runCompiler(ctx context.Context, dir string, args []string, kind toolRun) (compilerRun, error) {
	return e.runTool(ctx, e.cxx, dir, args, kind)
}

// runTool runs a tool of the compile (the compiler, objcopy) with args in the sandbox.
func (e *Engine) runTool(ctx context.Context, tool, dir string, args []string, kind toolRun) (compilerRun, error) {
	lim := e.CompileLimits.WithDefaults()
	spec := sandbox.Spec{
		Path:     tool,
		Args:     args,
		WorkDir:  dir,
		ReadOnly: []string{e.dir},
		Env:      []string{"LANG=C"},
		Limits:   lim,
	}
	start := time.Now()
	var o sandbox.Outcome
	var err error
	// An error is the sandbox's own failure, not the compiler's: tried again once.
	for attempt := 0; attempt < 2; attempt++ {
		if o, err = sandbox.Run(ctx, spec, nil); err == nil || ctx.Err() != nil {
			break
		}
	}
	if kind != runOwn {
		e.mu.Lock()
		switch kind {
		case runSyntax:
			e.stats.SyntaxChecks++
		case runBuild:
			e.stats.Compiles++
		}
		e.stats.Compile += time.Since(start)
		e.stats.CompileCPU += o.CPUTime
		e.stats.CompileMaxRSSKB = max(e.stats.CompileMaxRSSKB, o.MaxRSSKB)
		e.mu.Unlock()
	}
	if ctx.Err() != nil {
		return compilerRun{}, ctx.Err()
	}
	if err != nil {
		return compilerRun{}, fmt.Errorf("cpp engine: run the compiler: %w", err)
	}
	out := string(o.Stdout) + string(o.Stderr)
	run := compilerRun{out: out, failed: o.ExitCode != 0 || o.Signal != ""}
	why := ""
	switch {
	case o.WallTimeout:
		why = fmt.Sprintf("the compile wall time limit (%v)", lim.WallTime)
	case o.CPUTimeout || o.Signal == "CPU time limit exceeded":
		why = fmt.Sprintf("the compile CPU time limit (%v)", lim.CPUTime)
	case o.MemoryExceeded:
		why = fmt.Sprintf("the compile memory limit (%d MiB)", lim.MemoryBytes>>20)
	case o.Signal != "":
		why = "a signal: " + o.Signal
	case run.failed && outOfResources.MatchString(out):
		why = fmt.Sprintf("a compile limit (memory %d MiB, CPU %v)", lim.MemoryBytes>>20, lim.CPUTime)
	}
	if why != "" {
		run.failed, run.limit = true, true
		run.out = "the compiler was stopped by " + why + "\n" + out
	}
	if o.StdoutTruncated || o.StderrTruncated {
		run.out += fmt.Sprintf("\n(the compiler's messages were cut at %d bytes)", lim.OutputBytes)
	}
	if run.failed && run.out == "" {
		run.out = fmt.Sprintf("the compiler exited with code %d", o.ExitCode)
	}
	return run, nil
}

// deferLoadTime renames the startup arrays of the object obj of a unit of one
// candidate (rep.deferrable) so that the loader does not run them: the process that
// serves the candidate's tests runs them instead (run_deferred_init in harness.h), so
// that what a constructor does to its process (a thread, a lowered limit, closed
// descriptors) is done to that process alone and ends as the candidate's own failure.
// Without objcopy the code runs in the server, which serves this candidate alone.
func (e *Engine) deferLoadTime(ctx context.Context, dir, obj string, rep loadReport) (compilerRun, error) {
	if e.objcopy == "" || len(rep.deferrable) == 0 {
		return compilerRun{}, nil
	}
	var args []string
	done := map[string]bool{}
	for _, d := range rep.deferrable {
		if !done[d.name] {
			done[d.name] = true
			args = append(args, "--rename-section", d.name+"="+d.to)
		}
	}
	return e.runTool(ctx, e.objcopy, dir, append(args, obj), runStep)
}

// buildOwn builds one of the engine's own files (the harness's runtime object or
// precompiled header) into dst like a unit, in a directory of its own under the
// cache directory: args gets the path to write. It returns the compiler's messages.
func (e *Engine) buildOwn(dst string, args func(out string) []string) (string, error) {
	dir, err := os.MkdirTemp(e.dir, "build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	_ = os.Chmod(dir, 0o755)
	out := filepath.Join(dir, filepath.Base(dst))
	run, err := e.runCompiler(context.Background(), dir, args(out), runOwn)
	if err != nil {
		return "", err
	}
	if run.failed {
		return run.out, fmt.Errorf("the compiler failed")
	}
	if err := handBack(dir); err != nil {
		return "", err
	}
	_ = os.Chmod(out, 0o644)
	return run.out, os.Rename(out, dst)
}

// handBack gives dir and its files back to this process's user: the sandbox handed it
// to the compile's uid, which a later sandbox may lease.
func handBack(dir string) error {
	uid, gid := os.Getuid(), os.Getgid()
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := os.Lchown(p, uid, gid); err != nil && uid == 0 {
			return err
		}
		return nil
	})
}
