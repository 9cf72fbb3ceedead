package report

import (
	"bytes"
	"fmt"
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

// evaluateSections are the sections of an evaluate run, each of which has a plot.
var evaluateSections = map[string]bool{SecOverview: true, SecSummary: true, SecCorrectness: true, SecMatrix: true,
	SecFidelity: true, SecFailures: true}

// sectionHTML cuts the DOM into its sections.
func sectionHTML(dom string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.Split(dom, `<section id="`)[1:] {
		id, rest, _ := strings.Cut(part, `"`)
		out[id] = rest
	}
	return out
}

// clickFilter is put at the end of a copy of the page: once it has loaded, it
// chooses the outcome in the matrix's outcome filter, as a click on the option
// does (the value set, a change event dispatched).
func clickFilter(outcome string) string {
	return `<script>addEventListener("load",function(){var s=document.querySelector('#matrix-filters select[name="status"]');
s.value="` + outcome + `";s.dispatchEvent(new Event("change",{bubbles:true}))})</script>`
}

// matrixRow is a row of the matrix as the DOM serialises it (hidden="" wherever the
// script put it among the attributes).
var matrixRow = regexp.MustCompile(`<tr ([^>]*)data-status="([^"]*)"([^>]*)>`)

// TestBrowserMatrixFilter loads the report of a small evaluate run in headless
// Chromium: every section has an SVG plot, and choosing an outcome in the matrix's
// filter hides the rows without it and keeps those with it. TRANSMUTE_REPORT tests
// that report instead (its matrix must have a wrong answer).
func TestBrowserMatrixFilter(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	var page []byte
	if p := os.Getenv("TRANSMUTE_REPORT"); p != "" {
		var err error
		if page, err = os.ReadFile(p); err != nil {
			t.Fatal(err)
		}
	} else {
		var buf bytes.Buffer
		if err := Write(&buf, smallRun(t)); err != nil {
			t.Fatal(err)
		}
		page = buf.Bytes()
	}
	if !strings.Contains(string(page), `<section id="correctness">`) {
		t.Skip("not an evaluate run")
	}
	before := load(t, bin, withProbe(t, page, filepath.Join(dir, "plain")), "", "")
	if len(before.errors) > 0 {
		t.Errorf("console errors: %v", before.errors)
	}
	for id, body := range sectionHTML(before.dom) {
		if evaluateSections[id] && !strings.Contains(body, "<svg") {
			t.Errorf("section %s has no SVG plot", id)
		}
	}
	clicked := strings.Replace(string(page), "</body>", clickFilter(OutcomeWrongAnswer)+"</body>", 1)
	after := load(t, bin, withProbe(t, []byte(clicked), filepath.Join(dir, "clicked")), "", "")
	if len(after.errors) > 0 {
		t.Errorf("console errors after the click: %v", after.errors)
	}
	count := func(dom string) (shown, hidden, shownWrong int) {
		for _, m := range matrixRow.FindAllStringSubmatch(dom, -1) {
			if strings.Contains(m[1]+m[3], "hidden") {
				hidden++
				continue
			}
			shown++
			if strings.Contains(" "+m[2]+" ", " "+OutcomeWrongAnswer+" ") {
				shownWrong++
			}
		}
		return
	}
	s0, h0, _ := count(before.dom)
	s1, h1, w1 := count(after.dom)
	t.Logf("matrix rows: %d shown before the click; after it %d shown, %d hidden", s0, s1, h1)
	if h0 != 0 || s0 == 0 {
		t.Errorf("before the click: %d rows shown, %d hidden; want all shown", s0, h0)
	}
	if h1 == 0 || s1 == 0 || w1 != s1 || s1+h1 != s0 {
		t.Errorf("after choosing %s: %d shown (%d with it), %d hidden of %d", OutcomeWrongAnswer, s1, w1, h1, s0)
	}
	if !strings.Contains(after.dom, fmt.Sprintf(`<span id="matrix-shown">%d</span>`, s1)) {
		t.Errorf("the shown-rows count does not say %d", s1)
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
