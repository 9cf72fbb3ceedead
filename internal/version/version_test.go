package version

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	stamped := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "transmute", Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-28T09:00:00Z"},
			{Key: "vcs.modified", Value: "true"}}}
	for _, c := range []struct {
		name   string
		bi     *debug.BuildInfo
		ld     string
		want   Info
		prints string
	}{
		{"stamp wins over ldflags", stamped, "fromld", Info{Module: "v1.2.3", Commit: "abc123", Time: "2026-11-28T09:00:00Z", Modified: true, Go: "go1.26.8"},
			"transmute v1.2.3 commit abc123 (2026-11-28T09:00:00Z) modified, go1.26.8"},
		{"ldflags without a stamp", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "transmute", Version: "(devel)"}}, "fromld",
			Info{Module: "(devel)", Commit: "fromld", Go: "go1.26.8"}, "transmute (devel) commit fromld, go1.26.8"},
		{"nothing known", &debug.BuildInfo{GoVersion: "go1.26.8"}, "", Info{Module: "(devel)", Go: "go1.26.8"},
			"transmute (devel) commit unknown, go1.26.8"},
	} {
		got := fromBuildInfo(c.bi, c.ld)
		if got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
		if s := got.String(); s != c.prints {
			t.Errorf("%s: String() = %q, want %q", c.name, s, c.prints)
		}
	}
}

// TestGetInTestBinary: a test binary has no VCS stamp; the ldflags variable is
// what Get falls back to.
func TestGetInTestBinary(t *testing.T) {
	old := commit
	defer func() { commit = old }()
	commit = "deadbeef"
	bi, _ := debug.ReadBuildInfo()
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" {
			t.Skip("this test binary has a VCS stamp")
		}
	}
	if g := Get(); g.Commit != "deadbeef" || !strings.Contains(g.String(), "commit deadbeef") {
		t.Errorf("Get() = %+v", g)
	}
}
