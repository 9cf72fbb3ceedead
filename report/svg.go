package report

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// Hand-written SVG: the plots are few and simple (histograms, bars, scatters), and
// gonum/plot's SVG backend would add a font dependency for no gain here.

const plotW, plotH, margin = 420.0, 220.0, 40.0

// Histogram draws values in [lo, hi] as bins bars.
func Histogram(title string, values []float64, bins int, lo, hi float64) string {
	counts := make([]int, bins)
	for _, v := range values {
		if math.IsNaN(v) {
			continue
		}
		i := int((v - lo) / (hi - lo) * float64(bins))
		i = min(max(i, 0), bins-1)
		counts[i]++
	}
	maxC := 1
	for _, c := range counts {
		maxC = max(maxC, c)
	}
	var b strings.Builder
	svgOpen(&b, title)
	bw := (plotW - 2*margin) / float64(bins)
	for i, c := range counts {
		h := (plotH - 2*margin) * float64(c) / float64(maxC)
		x := margin + float64(i)*bw
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#4a7ab7"><title>%s..%s: %d</title></rect>`,
			x, plotH-margin-h, bw-1, h, num(lo+float64(i)*(hi-lo)/float64(bins)), num(lo+float64(i+1)*(hi-lo)/float64(bins)), c)
	}
	axes(&b, num(lo), num(hi), "0", fmt.Sprint(maxC))
	fmt.Fprintf(&b, `<text x="%.0f" y="14" class="t">%s (n = %d)</text></svg>`, margin, html.EscapeString(title), len(values))
	return b.String()
}

// Bars draws labelled horizontal bars of values in [0, maxV].
func Bars(title string, labels []string, values []float64, maxV float64) string {
	h := 22*float64(len(labels)) + 30
	left := labelWidth(labels)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" role="img" aria-label="%s">`, plotW+left, h, html.EscapeString(title))
	fmt.Fprintf(&b, `<text x="4" y="14" class="t">%s</text>`, html.EscapeString(title))
	if maxV <= 0 {
		maxV = 1
	}
	for i, l := range labels {
		y := 24 + 22*float64(i)
		w := (plotW - 40) * values[i] / maxV
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" text-anchor="end" class="l">%s</text>`, left-4, y+13, html.EscapeString(l))
		fmt.Fprintf(&b, `<rect x="%.0f" y="%.0f" width="%.1f" height="16" fill="#4a7ab7"></rect>`, left, y, math.Max(w, 0))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" class="l">%s</text>`, left+4+math.Max(w, 0), y+13, num(values[i]))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// Point is one dot of a scatter.
type Point struct {
	X, Y  float64
	Label string
}

// Scatter draws points with their bounds taken from the data.
func Scatter(title, xl, yl string, pts []Point) string {
	xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		xlo, xhi = math.Min(xlo, p.X), math.Max(xhi, p.X)
		ylo, yhi = math.Min(ylo, p.Y), math.Max(yhi, p.Y)
	}
	if len(pts) == 0 {
		xlo, xhi, ylo, yhi = 0, 1, 0, 1
	}
	if xhi == xlo {
		xlo, xhi = xlo-0.5, xhi+0.5
	}
	if yhi == ylo {
		ylo, yhi = ylo-0.5, yhi+0.5
	}
	var b strings.Builder
	svgOpen(&b, title)
	for _, p := range pts {
		x := margin + (p.X-xlo)/(xhi-xlo)*(plotW-2*margin)
		y := plotH - margin - (p.Y-ylo)/(yhi-ylo)*(plotH-2*margin)
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="#c0504d" fill-opacity="0.6"><title>%s (%s, %s)</title></circle>`,
			x, y, html.EscapeString(p.Label), num(p.X), num(p.Y))
	}
	axes(&b, num(xlo), num(xhi), num(ylo), num(yhi))
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" class="l" text-anchor="middle">%s</text>`, plotW/2, plotH-6, html.EscapeString(xl))
	fmt.Fprintf(&b, `<text x="12" y="%.0f" class="l" transform="rotate(-90 12 %.0f)" text-anchor="middle">%s</text>`, plotH/2, plotH/2, html.EscapeString(yl))
	fmt.Fprintf(&b, `<text x="%.0f" y="14" class="t">%s</text></svg>`, margin, html.EscapeString(title))
	return b.String()
}

func svgOpen(b *strings.Builder, title string) {
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" role="img" aria-label="%s">`, plotW, plotH, html.EscapeString(title))
}

func axes(b *strings.Builder, xlo, xhi, ylo, yhi string) {
	fmt.Fprintf(b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="#333"/>`, margin, plotH-margin, plotW-margin, plotH-margin)
	fmt.Fprintf(b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="#333"/>`, margin, margin, margin, plotH-margin)
	fmt.Fprintf(b, `<text x="%.0f" y="%.0f" class="l" text-anchor="middle">%s</text>`, margin, plotH-margin+14, xlo)
	fmt.Fprintf(b, `<text x="%.0f" y="%.0f" class="l" text-anchor="middle">%s</text>`, plotW-margin, plotH-margin+14, xhi)
	fmt.Fprintf(b, `<text x="%.0f" y="%.0f" class="l" text-anchor="end">%s</text>`, margin-4, plotH-margin, ylo)
	fmt.Fprintf(b, `<text x="%.0f" y="%.0f" class="l" text-anchor="end">%s</text>`, margin-4, margin+4, yhi)
}

// num prints a figure briefly: 3 significant digits.
func num(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e9 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// heat is the background of a cell with a rate in [0, 1]: red to green.
func heat(v float64) string {
	if math.IsNaN(v) {
		return "#eee"
	}
	v = math.Min(math.Max(v, 0), 1)
	return fmt.Sprintf("hsl(%.0f,65%%,78%%)", 120*v)
}

// Intervals draws one estimate per label as a dot on [0, 1] with its interval as a
// bar, e.g. pass rates with their Wilson intervals.
func Intervals(title string, labels []string, est, lo, hi []float64) string {
	const right = 60.0
	left := labelWidth(labels)
	w := plotW + left - 70
	h := 18*float64(len(labels)) + 46
	x := func(v float64) float64 { return left + math.Min(math.Max(v, 0), 1)*(w-left-right) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" role="img" aria-label="%s">`, w, h, html.EscapeString(title))
	fmt.Fprintf(&b, `<text x="4" y="14" class="t">%s</text>`, html.EscapeString(title))
	for _, t := range []float64{0, 0.25, 0.5, 0.75, 1} {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="22" x2="%.1f" y2="%.0f" stroke="#ddd"/><text x="%.1f" y="%.0f" class="l" text-anchor="middle">%s</text>`,
			x(t), x(t), h-18, x(t), h-6, num(t))
	}
	for i, l := range labels {
		y := 30 + 18*float64(i)
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" text-anchor="end" class="l">%s</text>`, left-6, y+4, html.EscapeString(l))
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#4a7ab7" stroke-width="2"/>`, x(lo[i]), y, x(hi[i]), y)
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.0f" r="4" fill="#c0504d"><title>%s: %s [%s, %s]</title></circle>`,
			x(est[i]), y, html.EscapeString(l), num(est[i]), num(lo[i]), num(hi[i]))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" class="l">%s</text>`, w-right+6, y+4, num(est[i]))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// Stacked draws one horizontal bar per label, split into the series' counts.
func Stacked(title string, labels, series []string, colors []string, counts [][]float64) string {
	left := labelWidth(labels)
	w := plotW + left - 70
	h := 18*float64(len(labels)) + 50
	maxT := 0.0
	for _, c := range counts {
		t := 0.0
		for _, v := range c {
			t += v
		}
		maxT = math.Max(maxT, t)
	}
	if maxT == 0 {
		maxT = 1
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" role="img" aria-label="%s">`, w, h, html.EscapeString(title))
	fmt.Fprintf(&b, `<text x="4" y="14" class="t">%s</text>`, html.EscapeString(title))
	for i, l := range labels {
		y := 24 + 18*float64(i)
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" text-anchor="end" class="l">%s</text>`, left-6, y+11, html.EscapeString(l))
		at := left
		for j, v := range counts[i] {
			bw := (w - left - 20) * v / maxT
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.0f" width="%.1f" height="14" fill="%s"><title>%s: %s %s</title></rect>`,
				at, y, bw, colors[j], html.EscapeString(l), html.EscapeString(series[j]), num(v))
			at += bw
		}
	}
	at := 4.0
	for j, s := range series {
		fmt.Fprintf(&b, `<rect x="%.0f" y="%.0f" width="10" height="10" fill="%s"/><text x="%.0f" y="%.0f" class="l">%s</text>`,
			at, h-14, colors[j], at+14, h-5, html.EscapeString(s))
		at += 24 + 6.5*float64(len(s))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// labelWidth is the room the longest label needs at the plots' 11 px font (about
// 6.5 px a character), at least 120.
func labelWidth(labels []string) float64 {
	n := 0
	for _, l := range labels {
		n = max(n, len([]rune(l)))
	}
	return math.Max(120, 6.5*float64(n)+10)
}

// Paired draws two bars per label on [0, 1], e.g. pass over all problems and over
// the attempted ones, with a legend naming the two.
func Paired(title string, labels []string, a, b []float64, aName, bName string) string {
	left := labelWidth(labels)
	w := plotW + left
	h := 26*float64(len(labels)) + 50
	var s strings.Builder
	fmt.Fprintf(&s, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" role="img" aria-label="%s">`, w, h, html.EscapeString(title))
	fmt.Fprintf(&s, `<text x="4" y="14" class="t">%s</text>`, html.EscapeString(title))
	colors := [2]string{"#4a7ab7", "#f0a35e"}
	for i, l := range labels {
		y := 24 + 26*float64(i)
		fmt.Fprintf(&s, `<text x="%.0f" y="%.0f" text-anchor="end" class="l">%s</text>`, left-4, y+15, html.EscapeString(l))
		for j, v := range [2]float64{a[i], b[i]} {
			bw := (plotW - 50) * math.Min(math.Max(v, 0), 1)
			fmt.Fprintf(&s, `<rect x="%.0f" y="%.0f" width="%.1f" height="10" fill="%s"><title>%s %s: %s</title></rect>`,
				left, y+11*float64(j), bw, colors[j], html.EscapeString(l), html.EscapeString([2]string{aName, bName}[j]), num(v))
			fmt.Fprintf(&s, `<text x="%.1f" y="%.0f" class="l">%s</text>`, left+4+bw, y+9+11*float64(j), num(v))
		}
	}
	x := 4.0
	for j, n := range [2]string{aName, bName} {
		fmt.Fprintf(&s, `<rect x="%.0f" y="%.0f" width="10" height="10" fill="%s"/><text x="%.0f" y="%.0f" class="l">%s</text>`,
			x, h-14, colors[j], x+14, h-5, html.EscapeString(n))
		x += 34 + 6.5*float64(len([]rune(n)))
	}
	s.WriteString(`</svg>`)
	return s.String()
}
