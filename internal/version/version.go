// Package version says which build of Transmute is running: the main module's
// version and the VCS commit Go stamps into a binary built in a git work tree, or,
// when there is no stamp (go run, go test, -buildvcs=false), the commit the Makefile
// passes with -ldflags. The launcher's --version and the run manifest both use it.
package version

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// commit is set by the Makefile: -ldflags "-X transmute/internal/version.commit=HASH".
var commit string

// Info is the build's identity.
type Info struct {
	Module   string // the main module's version; "(devel)" for a build from a work tree
	Commit   string // the full commit hash; "" when unknown
	Time     string // the commit's time (RFC 3339), when Go stamped it
	Modified bool   // the work tree had uncommitted changes (Go's stamp only)
	Go       string // the toolchain that built the binary
}

// Get reads the running binary's build information.
func Get() Info {
	bi, _ := debug.ReadBuildInfo()
	return fromBuildInfo(bi, commit)
}

// fromBuildInfo prefers Go's VCS stamp to the -ldflags commit: the stamp also says
// whether the tree was modified.
func fromBuildInfo(bi *debug.BuildInfo, ldCommit string) Info {
	i := Info{Module: "(devel)", Go: runtime.Version()}
	if bi != nil {
		if bi.Main.Version != "" {
			i.Module = bi.Main.Version
		}
		if bi.GoVersion != "" {
			i.Go = bi.GoVersion
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				i.Commit = s.Value
			case "vcs.time":
				i.Time = s.Value
			case "vcs.modified":
				i.Modified = s.Value == "true"
			}
		}
	}
	if i.Commit == "" {
		i.Commit = strings.TrimSpace(ldCommit)
	}
	return i
}

// String is one line, e.g. "transmute (devel) commit 2d9303f… (modified), go1.26.8".
func (i Info) String() string {
	var b strings.Builder
	b.WriteString("transmute " + i.Module)
	if i.Commit != "" {
		b.WriteString(" commit " + i.Commit)
		if i.Time != "" {
			b.WriteString(" (" + i.Time + ")")
		}
		if i.Modified {
			b.WriteString(" modified")
		}
	} else {
		b.WriteString(" commit unknown")
	}
	b.WriteString(", " + i.Go)
	return b.String()
}
