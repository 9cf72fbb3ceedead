package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"transmute/internal/version"
	"transmute/transforms/translate"
)

// runnerFlags are the flags registered before this package's own: Beam's runner,
// Prism's, Dataflow's and the worker harness's. Package variables are initialised in
// the order of their files' names, and this file sorts before every file of the
// package that defines a flag (TestRunnerFlagsAreBeams checks it).
var runnerFlags = flagNames()

// The flags of the command line itself.
var (
	helpRunner  = flag.Bool("help-runner", false, "print Beam's runner flags (Prism, a job server, Dataflow) and exit")
	showVersion = flag.Bool("version", false, "print Transmute's version and commit and exit")
	verbose     = flag.Bool("verbose", false, "show the runner's log lines (Prism, staging, bundle errors)")
)

func flagNames() map[string]bool {
	m := map[string]bool{}
	flag.VisitAll(func(f *flag.Flag) { m[f.Name] = true })
	return m
}

// helpGroups are Transmute's general flags by group, in the order --help shows
// them. A flag whose usage starts with "<job>:" is shown under that job's options;
// any other flag of Transmute's missing here is shown under "Other".
var helpGroups = []struct {
	title string
	names []string
}{
	{"Input", []string{"corpus", "directions", "limit", "problems", "problems-file", "cpp-args", "config", "max-line-bytes"}},
	{"Translators", []string{"translator"}},
	{"Job", []string{"job", "cache"}},
	{"Limits", []string{"cpu-limit", "wall-limit", "memory-limit-mb", "workers"}},
	{"Output", []string{"out", "run", "allow-empty", "shards", "quiet", "verbose", "work-dir", "cpuprofile"}},
	{"Runner", []string{"runner", "endpoint", "help-runner", "version"}},
}

// translatorHelp describes each translator scheme with an example spec; --help lists
// the registry's schemes (translate.Schemes), so a scheme missing here still shows.
var translatorHelp = map[string]string{
	"recorded": "recorded:FILE.jsonl or DIR   recorded translations (docs/CORPUS_FORMAT.md; TRACE model dirs)",
	"identity": "identity:                    the source program itself (a self-check of the harness)",
	"builtin":  "builtin:                     the built-in rule-based transpilers (Java→Python, C++, Go)",
	"openai":   "openai:URL?model=M&key_env=V any chat-completions server (OpenAI, vLLM, Ollama, llama.cpp)",
	"command":  "command:PROG?arg={in}&...    an external translator program, sandboxed ({in} {out} {src} {tgt})",
}

const helpExamples = `Examples:
  launch --config data/configs/run.json            # the bundled corpus, as make run
  launch --corpus jsonl:data/problems.jsonl --translator recorded:mine.jsonl --out out/mine
  launch --corpus jsonl:data/problems.jsonl --directions java-python --limit 5 \
         --translator 'openai:http://localhost:8000/v1?model=qwen2.5-coder'
  launch --job mbta --corpus transcoder:DIR --translator builtin: --directions java-python
  go run ./cmd/report html out/mine                 # then open out/mine/report/index.html
`

// usage is --help: Transmute's flags by group, each job's options, the translator
// schemes and examples; Beam's runner flags are counted and left to --help-runner.
func usage(w io.Writer) {
	fmt.Fprintf(w, "Usage: launch [flags]   (%s)\n", version.Get())
	fmt.Fprintln(w, "Evaluates code translators on benchmark corpora; tables under --out, a summary on stdout.")
	shown := map[string]bool{}
	for _, g := range helpGroups {
		var fs []*flag.Flag
		for _, n := range g.names {
			if f := flag.Lookup(n); f != nil {
				fs = append(fs, f)
			}
		}
		printGroup(w, g.title, fs, shown)
		if g.title == "Translators" {
			fmt.Fprintln(w, "  Schemes:")
			for _, s := range translate.Schemes() {
				d, ok := translatorHelp[s]
				if !ok {
					d = s + ":"
				}
				fmt.Fprintf(w, "    %s\n", d)
			}
		}
	}
	jobs := map[string][]*flag.Flag{}
	var other []*flag.Flag
	flag.VisitAll(func(f *flag.Flag) {
		if shown[f.Name] || runnerFlags[f.Name] || strings.HasPrefix(f.Name, "test.") { // test.*: go test's own
			return
		}
		if j, _, ok := strings.Cut(f.Usage, ":"); ok && !strings.Contains(j, " ") {
			jobs[j] = append(jobs[j], f)
			return
		}
		other = append(other, f)
	})
	names := make([]string, 0, len(jobs))
	for j := range jobs {
		names = append(names, j)
	}
	sort.Strings(names)
	for _, j := range names {
		printGroup(w, "Options of --job "+j, jobs[j], shown)
	}
	printGroup(w, "Other", other, shown)
	fmt.Fprintln(w)
	fmt.Fprint(w, helpExamples)
	fmt.Fprintf(w, "\n%d runner flags of Beam (Prism, job servers, Dataflow): launch --help-runner\n", len(runnerFlags))
}

// runnerUsage is --help-runner: Beam's flags, as the flag package prints them.
func runnerUsage(w io.Writer) {
	fmt.Fprintln(w, "Beam's runner flags (the default runner is Prism, in process; --runner=universal --endpoint=HOST:PORT for a job server; --runner=dataflow for Google Cloud):")
	fs := flag.NewFlagSet("runner", flag.ContinueOnError)
	flag.VisitAll(func(f *flag.Flag) {
		if runnerFlags[f.Name] {
			fs.Var(f.Value, f.Name, f.Usage)
		}
	})
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// printGroup prints flags, one per line with the usage wrapped under it, and marks
// them shown.
func printGroup(w io.Writer, title string, fs []*flag.Flag, shown map[string]bool) {
	if len(fs) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s:\n", title)
	for _, f := range fs {
		shown[f.Name] = true
		arg, text := flag.UnquoteUsage(f)
		if j, rest, ok := strings.Cut(text, ": "); ok && strings.HasPrefix(title, "Options of --job "+j) {
			text = rest
		}
		if d := f.DefValue; d != "" && d != "0" && d != "false" && d != "0s" && d != "[]" && !strings.Contains(text, "default") {
			text += " (default " + d + ")"
		}
		head := "  --" + f.Name
		if arg != "" {
			head += " " + arg
		}
		const col, width = 30, 100
		lines := wrap(text, width-col)
		if len(head) >= col-1 {
			fmt.Fprintln(w, head)
		} else {
			fmt.Fprintf(w, "%-*s%s\n", col, head, lines[0])
			lines = lines[1:]
		}
		for _, l := range lines {
			fmt.Fprintf(w, "%*s%s\n", col, "", l)
		}
	}
}

// wrap breaks s into lines of at most n bytes at spaces.
func wrap(s string, n int) []string {
	var out []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && len(line)+1+len(word) > n {
			out = append(out, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	return append(out, line)
}

// helpOrVersion handles --help-runner and --version after the flags are parsed;
// it tells whether the command is done.
func helpOrVersion() bool {
	switch {
	case *showVersion:
		fmt.Println(version.Get())
		return true
	case *helpRunner:
		runnerUsage(os.Stdout)
		return true
	}
	return false
}

// printUsage is flag.Usage: the whole help on stdout when asked for, one line on
// stderr after a flag error (the flag package has printed the error).
func printUsage() {
	for _, a := range os.Args[1:] {
		switch strings.TrimLeft(a, "-") {
		case "h", "help":
			usage(os.Stdout)
			return
		}
	}
	fmt.Fprintln(os.Stderr, "launch --help lists Transmute's flags, launch --help-runner Beam's")
}
