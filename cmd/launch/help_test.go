package main

import (
	"flag"
	"os"
	"os/exec"
	"strings"
	"testing"

	"transmute/transforms/translate"
)

// helpOutput runs the command with args and returns its stdout.
func helpOutput(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"--"}, args...)...)
	cmd.Env = append(os.Environ(), "TRANSMUTE_TEST_LAUNCH=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("launch %v: %v", args, err)
	}
	return string(out)
}

// TestHelpGroups: --help shows Transmute's groups in order, every translator scheme
// of the registry, every flag of Transmute's and none of Beam's (but the two a user
// sets), and fits on two screens; --help-runner shows Beam's.
func TestHelpGroups(t *testing.T) {
	out := helpOutput(t, "--help")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) > 110 {
		t.Errorf("--help is %d lines, want at most 110", len(lines))
	}
	at := 0
	for _, g := range []string{"\nInput:\n", "\nTranslators:\n", "\nJob:\n", "\nLimits:\n", "\nOutput:\n", "\nRunner:\n",
		"\nOptions of --job efficiency:\n", "\nOptions of --job mbta:\n", "\nOptions of --job properties:\n",
		"\nOptions of --job similarity:\n", "\nExamples:\n"} {
		i := strings.Index(out[at:], g)
		if i < 0 {
			t.Errorf("group %q missing or out of order", strings.TrimSpace(g))
			continue
		}
		at += i
	}
	if strings.Contains(out, "\nOther:\n") {
		t.Errorf("flags outside every group (add them to helpGroups):\n%s", out[strings.Index(out, "\nOther:\n"):])
	}
	schemes := translate.Schemes()
	if len(schemes) < 5 {
		t.Fatalf("registry has %v", schemes)
	}
	for _, s := range schemes {
		if !strings.Contains(out, "\n    "+s+":") {
			t.Errorf("translator scheme %s: missing from --help", s)
		}
		if _, ok := translatorHelp[s]; !ok {
			t.Errorf("translator scheme %s has no description in translatorHelp", s)
		}
	}
	// This process has registered the package's flags but not run's: every flag it
	// knows that is not Beam's must be in the help.
	flag.VisitAll(func(f *flag.Flag) {
		shownHere := strings.Contains(out, "  --"+f.Name+" ") || strings.Contains(out, "  --"+f.Name+"\n")
		switch {
		case strings.HasPrefix(f.Name, "test."):
		case runnerFlags[f.Name] && f.Name != "runner" && f.Name != "endpoint":
			if shownHere {
				t.Errorf("Beam's flag --%s shown in --help", f.Name)
			}
		case !shownHere:
			t.Errorf("flag --%s missing from --help", f.Name)
		}
	})
	for _, f := range []string{"corpus", "translator", "out", "limit", "job", "verbose", "version"} {
		if !strings.Contains(out, "  --"+f+" ") && !strings.Contains(out, "  --"+f+"\n") {
			t.Errorf("--%s missing from --help", f)
		}
	}
	runner := helpOutput(t, "--help-runner")
	for _, f := range []string{"-worker_machine_type", "-environment_type", "-staging_location"} {
		if !strings.Contains(runner, "  "+f+" ") {
			t.Errorf("--help-runner lacks %s", f)
		}
	}
	if strings.Contains(runner, "-search-budget") {
		t.Error("--help-runner shows a flag of Transmute's")
	}
}

// TestRunnerFlagsAreBeams: the snapshot taken before the package's own flags holds
// Beam's flags and none of Transmute's (it depends on help.go sorting before the
// files that define flags).
func TestRunnerFlagsAreBeams(t *testing.T) {
	for _, n := range []string{"runner", "endpoint", "worker_machine_type", "environment_type"} {
		if !runnerFlags[n] {
			t.Errorf("--%s not among the runner flags", n)
		}
	}
	for _, n := range []string{"cache", "repetitions", "search-budget", "from", "help-runner", "version", "verbose"} {
		if runnerFlags[n] {
			t.Errorf("Transmute's --%s counted as a runner flag", n)
		}
	}
}

func TestVersionFlag(t *testing.T) {
	out := helpOutput(t, "--version")
	if !strings.HasPrefix(out, "transmute ") || !strings.Contains(out, " commit ") {
		t.Errorf("--version printed %q", out)
	}
}
