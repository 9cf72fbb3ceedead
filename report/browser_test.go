package report

import (
	"bytes"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// probe is put at the top of a copy of the page under test: it reports console
// errors, uncaught exceptions and failed resource loads, and the load time, as
// console lines that headless Chromium logs on stderr (it logs every console level
// as INFO, so errors need a mark of their own).
const probe = `<script>(function(){var e=console.error;console.error=function(){console.log("transmute-console-error "+Array.prototype.join.call(arguments," "));e.apply(console,arguments)};
addEventListener("error",function(ev){console.log("transmute-console-error "+(ev.message||("failed to load "+(ev.target&&(ev.target.src||ev.target.href)))))},true);
addEventListener("load",function(){console.log("transmute-load-ms "+performance.now())})})()</script>`

func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no headless Chromium on PATH (Debian: apt-get install chromium; scripts/deps.sh installs it for make test): browser test skipped")
	return ""
}

type loaded struct {
	errors []string
	loadMs float64
	dom    string
}

var (
	consoleErr = regexp.MustCompile(`"transmute-console-error ([^"]*)"`)
	loadMs     = regexp.MustCompile(`"transmute-load-ms ([0-9.]+)"`)
)

// load opens file#frag in headless Chromium, screenshots the window to png (when not
// empty) and returns the console errors, the load time and the DOM.
func load(t *testing.T, bin, file, frag, png string) loaded {
	t.Helper()
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
		"--window-size=1280,1000", "--virtual-time-budget=5000"}
	if png != "" {
		args = append(args, "--screenshot="+png)
	} else {
		args = append(args, "--dump-dom")
	}
	args = append(args, "file://"+file+"#"+frag)
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("chromium: %v\n%s", err, stderr.String())
		}
	case <-time.After(3 * time.Minute):
		cmd.Process.Kill()
		t.Fatal("chromium did not finish in 3 minutes")
	}
	var l loaded
	for _, m := range consoleErr.FindAllStringSubmatch(stderr.String(), -1) {
		l.errors = append(l.errors, m[1])
	}
	if m := loadMs.FindStringSubmatch(stderr.String()); m != nil {
		l.loadMs, _ = strconv.ParseFloat(m[1], 64)
	} else {
		l.loadMs = -1
	}
	l.dom = stdout.String()
	return l
}

// inkBelow counts the pixels darker than light grey below row y0 of a PNG.
func inkBelow(path string, y0 int) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return 0, err
	}
	n := 0
	b := img.Bounds()
	for y := b.Min.Y + y0; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if (r+g+bl)/3 < 0xc000 {
				n++
			}
		}
	}
	return n, nil
}

// withProbe writes a copy of page with the probe at the top of its head.
func withProbe(t *testing.T, page []byte, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(page), "<head>", "<head>"+probe, 1)
	path := filepath.Join(dir, "index.html")
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBrowserRendersEverySection loads the report of a small run in headless
// Chromium: every section must be in the DOM, and every section's screenshot taken,
// with no console error. TRANSMUTE_REPORT=path/to/index.html tests that report
// instead (and TRANSMUTE_SCREENSHOTS=DIR keeps the screenshots), and the load must
// take under 2 s.
func TestBrowserRendersEverySection(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	shots := os.Getenv("TRANSMUTE_SCREENSHOTS")
	if shots == "" {
		shots = dir
	}
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	var page []byte
	var want []string
	if p := os.Getenv("TRANSMUTE_REPORT"); p != "" {
		var err error
		if page, err = os.ReadFile(p); err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`<section id="([^"]+)">`).FindAllStringSubmatch(string(page), -1) {
			want = append(want, m[1])
		}
	} else {
		r := smallRun(t)
		var buf bytes.Buffer
		if err := Write(&buf, r); err != nil {
			t.Fatal(err)
		}
		page, want = buf.Bytes(), Sections(r)
	}
	file := withProbe(t, page, dir)
	l := load(t, bin, file, "", "")
	if len(l.errors) > 0 {
		t.Errorf("console errors: %v", l.errors)
	}
	if l.loadMs < 0 {
		t.Fatal("the page never fired its load event")
	}
	t.Logf("REPORT load %.0f ms, %d KB, sections %v", l.loadMs, len(page)/1024, want)
	if l.loadMs > 2000 {
		t.Errorf("load took %.0f ms, want < 2 s", l.loadMs)
	}
	for _, s := range want {
		if !strings.Contains(l.dom, `<section id="`+s+`">`) {
			t.Errorf("section %s missing from the DOM", s)
		}
		// One page per section with the others hidden, so that the screenshot
		// shows the section (headless screenshots ignore the #fragment).
		only := strings.Replace(string(page), "</style>", "section:not(#"+s+"){display:none}</style>", 1)
		sfile := withProbe(t, []byte(only), filepath.Join(dir, s))
		png := filepath.Join(shots, s+".png")
		if sl := load(t, bin, sfile, "", png); len(sl.errors) > 0 {
			t.Errorf("%s: console errors %v", s, sl.errors)
		}
		if n, err := inkBelow(png, 130); err != nil || n < 200 {
			t.Errorf("%s: screenshot blank below the title and menu (%d dark pixels, %v)", s, n, err)
		}
	}
}

// TestBrowserProbeCatchesErrors shows the console check can fail: a page with a
// console error and a missing image is caught.
func TestBrowserProbeCatchesErrors(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	file := withProbe(t, []byte(`<html><head></head><body><img src="missing.png"><script>console.error("boom")</script></body></html>`), dir)
	l := load(t, bin, file, "", "")
	if len(l.errors) != 2 {
		t.Errorf("want 2 errors (console.error, missing image), got %v", l.errors)
	}
}
