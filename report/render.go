package report

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"math"
	"strings"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/draw"
)

// Chart returns the availability curve of s as a scene: the system's
// nines −log10(1 − AV) against the nodes' nines −log10(1 − p), p from 0.5
// to 0.999, with a single node's line (y = x) dashed for reference.
// Points where AV = 1 in float64 terms are drawn at the top of the axis.
func Chart(s *System) *draw.Scene {
	const w, h, left, right, top, bottom = 480.0, 280.0, 50.0, 20.0, 24.0, 44.0
	x0, x1 := math.Log10(2), 3.0
	ymax := 3.0
	for _, pt := range s.Curve {
		if n := availability.Nines(pt.U); !math.IsInf(n, 1) {
			ymax = math.Max(ymax, math.Ceil(n))
		}
	}
	ymax = math.Min(ymax, 60)
	sx := func(x float64) float64 { return left + (x-x0)/(x1-x0)*(w-left-right) }
	sy := func(y float64) float64 { return top + (1-math.Min(y, ymax)/ymax)*(h-top-bottom) }
	sc := &draw.Scene{W: w, H: h, Title: "availability in nines: " + s.Name}
	ink := draw.Style{Stroke: "#333333", Width: 1}
	faint := draw.Style{Stroke: "#dddddd", Width: 1}
	text := func(x, y float64, t, anchor string) {
		sc.Shapes = append(sc.Shapes, draw.Shape{Kind: draw.Text, Role: "label", X: x, Y: y, Text: t,
			Style: draw.Style{Fill: "#333333", FontSize: 11, Anchor: anchor}})
	}
	line := func(a, b draw.Point, st draw.Style, role string) {
		sc.Shapes = append(sc.Shapes, draw.Shape{Kind: draw.Line, Role: role, Pts: []draw.Point{a, b}, Style: st})
	}
	step := math.Max(1, math.Ceil(ymax/6))
	for y := 0.0; y <= ymax; y += step {
		line(draw.Point{X: sx(x0), Y: sy(y)}, draw.Point{X: sx(x1), Y: sy(y)}, faint, "grid")
		text(left-6, sy(y)+4, fmt.Sprint(y), "end")
	}
	for _, p := range []float64{0.5, 0.9, 0.99, 0.999} {
		x := -math.Log10(1 - p)
		line(draw.Point{X: sx(x), Y: sy(0)}, draw.Point{X: sx(x), Y: sy(ymax)}, faint, "grid")
		text(sx(x), h-bottom+16, fl(p), "middle")
	}
	line(draw.Point{X: sx(x0), Y: sy(0)}, draw.Point{X: sx(x1), Y: sy(0)}, ink, "axis")
	line(draw.Point{X: sx(x0), Y: sy(0)}, draw.Point{X: sx(x0), Y: sy(ymax)}, ink, "axis")
	text((left+w-right)/2, h-8, "p, the probability a node is up (nines of a node)", "middle")
	text(left-40, top-8, "nines of AV", "start")
	line(draw.Point{X: sx(x0), Y: sy(x0)}, draw.Point{X: sx(x1), Y: sy(x1)},
		draw.Style{Stroke: "#999999", Width: 1, Dash: true}, "reference")
	lx := left + 12 // top left: the curves rise to the right
	line(draw.Point{X: lx, Y: top + 8}, draw.Point{X: lx + 20, Y: top + 8}, draw.Style{Stroke: "#1f77b4", Width: 2, Dash: !s.AvExact}, "legend")
	text(lx+26, top+12, "this system", "start")
	line(draw.Point{X: lx, Y: top + 24}, draw.Point{X: lx + 20, Y: top + 24}, draw.Style{Stroke: "#999999", Width: 1, Dash: true}, "legend")
	text(lx+26, top+28, "a single node", "start")
	var pts []draw.Point
	for _, pt := range s.Curve {
		pts = append(pts, draw.Point{X: sx(-math.Log10(1 - pt.P)), Y: sy(availability.Nines(pt.U))})
	}
	st := draw.Style{Stroke: "#1f77b4", Width: 2, Dash: !s.AvExact}
	sc.Shapes = append(sc.Shapes, draw.Shape{Kind: draw.Polyline, Role: "curve", Pts: pts, Style: st})
	return sc
}

const css = `body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left;vertical-align:top}
th{background:#f3f3f3}section.system{border-top:2px solid #888;margin-top:2em}
.verdict{font-weight:bold}.fail{color:#b00}svg{max-width:100%;height:auto}`

// htmlWriter writes HTML pieces.
type htmlWriter struct{ *bufio.Writer }

func (hw htmlWriter) p(format string, args ...any) { fmt.Fprintf(hw, format, args...) }

func (hw htmlWriter) table(t table) {
	e := html.EscapeString
	hw.p("<table>\n<tr>")
	for _, h := range t.head {
		hw.p("<th>%s</th>", e(h))
	}
	hw.p("</tr>\n")
	for _, r := range t.rows {
		hw.p("<tr>")
		for _, c := range r {
			if c == "FAIL" {
				hw.p("<td class=\"fail\">%s</td>", e(c))
				continue
			}
			hw.p("<td>%s</td>", e(c))
		}
		hw.p("</tr>\n")
	}
	hw.p("</table>\n")
}

func (hw htmlWriter) svg(sc *draw.Scene, id string) {
	_ = sc.WriteSVGOptions(hw, draw.SVGOptions{Inline: true, ID: id})
}

// system writes the sections on one system; id prefixes the element ids.
func (hw htmlWriter) system(s *System, id string) {
	e := html.EscapeString
	hw.p("<section class=\"system\" id=\"%s\">\n<h2>%s</h2>\n", id, e(s.Name))
	hw.p("<p>n = %d, k = %d", s.Sys.N(), s.Sys.K())
	if k := s.Sys.Kind(); k != "" {
		hw.p(", kind %s", e(k))
	}
	hw.p("</p>\n")
	hw.p("<section class=\"drawing\">\n<h3>Drawing</h3>\n")
	if s.Drawing != nil {
		hw.svg(s.Drawing, id+"-drawing")
	} else {
		hw.p("<p>too large to draw</p>\n")
	}
	hw.p("</section>\n<section class=\"verify\">\n<h3>Verification</h3>\n<p class=\"verdict\">%s</p>\n", e(Verdict(s.Sys, s.Verify)))
	hw.table(checksTable(s.Sys, s.Verify))
	if s.FailDraw != nil {
		hw.p("<p>Two quorums that do not meet: the first in blue, the nodes of the second in red.</p>\n")
		hw.svg(s.FailDraw, id+"-disjoint")
	}
	hw.p("</section>\n<section class=\"metrics\">\n<h3>Metrics</h3>\n")
	for _, f := range s.Families {
		hw.table(metricsTable(f))
	}
	hw.p("</section>\n<section class=\"domination\">\n<h3>Domination</h3>\n<p>%s</p>\n", e(dominationText(s)))
	if s.WitnessDraw != nil {
		hw.svg(s.WitnessDraw, id+"-witness")
	}
	hw.p("</section>\n<section class=\"availability\">\n<h3>Availability in nines</h3>\n<p>AV(p): %s.</p>\n", e(s.AvMethod))
	hw.svg(Chart(s), id+"-nines")
	hw.table(availabilityTable(s))
	hw.p("</section>\n<section class=\"messages\">\n<h3>Messages per entry</h3>\n")
	hw.table(messagesTable(s.Families[0]))
	hw.p("</section>\n</section>\n")
}

// WriteSections writes the HTML sections on one system (as in
// [WriteHTML], without the page around them); id prefixes the element
// ids.
func WriteSections(w io.Writer, s *System, id string) error {
	hw := htmlWriter{bufio.NewWriter(w)}
	hw.system(s, id)
	return hw.Flush()
}

// ComparisonRow returns the head and the row of s in the comparison table.
func ComparisonRow(s *System) (head, row []string) {
	t := comparisonTable([]*System{s})
	return t.head, t.rows[0]
}

// WriteHTML writes the report on systems as one self-contained HTML page:
// inline CSS and SVG, no script, no link to anything outside the page.
func WriteHTML(w io.Writer, systems []*System) error {
	hw := htmlWriter{bufio.NewWriter(w)}
	e := html.EscapeString
	hw.p("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>coterie report</title>\n<style>%s</style>\n</head>\n<body>\n", css)
	hw.p("<h1>Quorum systems</h1>\n<ul class=\"toc\">\n")
	for i, s := range systems {
		hw.p("<li><a href=\"#system-%d\">%s</a></li>\n", i+1, e(s.Name))
	}
	if len(systems) > 1 {
		hw.p("<li><a href=\"#comparison\">Comparison</a></li>\n")
	}
	hw.p("</ul>\n")
	for i, s := range systems {
		hw.system(s, fmt.Sprintf("system-%d", i+1))
	}
	if len(systems) > 1 {
		hw.p("<section class=\"comparison\" id=\"comparison\">\n<h2>Comparison</h2>\n")
		hw.table(comparisonTable(systems))
		hw.p("</section>\n")
	}
	hw.p("<footer><p>Made by coterie.</p></footer>\n</body>\n</html>\n")
	return hw.Flush()
}

// mdEscaper backslash-escapes the characters that start Markdown's inline
// constructs (emphasis, code, links, images, raw HTML, entities, tables,
// strikethrough, math, a heading's closing #) and puts line breaks as
// spaces, so that text a user gave (a name, a kind, labels, an
// expression) reads as itself and cannot inject HTML or a new block.
var mdEscaper = strings.NewReplacer(
	"\\", "\\\\", "`", "\\`", "*", "\\*", "_", "\\_", "[", "\\[", "]", "\\]",
	"<", "\\<", ">", "\\>", "&", "\\&", "!", "\\!", "|", "\\|", "~", "\\~",
	"$", "\\$", "#", "\\#", "\r\n", " ", "\n", " ", "\r", " ")

// md escapes text for a Markdown paragraph, heading or table cell.
func md(s string) string { return mdEscaper.Replace(s) }

// mdCell escapes a Markdown table cell.
func mdCell(s string) string { return md(s) }

// writeTableMD writes t as a GitHub Markdown table, with a blank line
// before and after.
func writeTableMD(w io.Writer, t table) {
	fmt.Fprint(w, "\n|")
	for _, h := range t.head {
		fmt.Fprintf(w, " %s |", mdCell(h))
	}
	fmt.Fprint(w, "\n|")
	for range t.head {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprint(w, "\n")
	for _, r := range t.rows {
		fmt.Fprint(w, "|")
		for _, c := range r {
			fmt.Fprintf(w, " %s |", mdCell(c))
		}
		fmt.Fprint(w, "\n")
	}
	fmt.Fprint(w, "\n")
}

// WriteMarkdown writes the report as Markdown (GitHub tables), for a
// README or a paper's appendix. Drawings are not included: draw them
// with `coterie draw`.
func WriteMarkdown(w io.Writer, systems []*System) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	tableMD := func(t table) { writeTableMD(bw, t) }
	p("# Quorum systems\n")
	for _, s := range systems {
		p("\n## %s\n\nn = %d, k = %d", md(s.Name), s.Sys.N(), s.Sys.K())
		if k := s.Sys.Kind(); k != "" {
			p(", kind %s", md(k))
		}
		p("\n\n### Verification\n\n**%s**\n", md(Verdict(s.Sys, s.Verify)))
		tableMD(checksTable(s.Sys, s.Verify))
		p("### Metrics\n")
		for _, f := range s.Families {
			tableMD(metricsTable(f))
		}
		p("### Domination\n\n%s\n\n", md(dominationText(s)))
		p("### Availability in nines\n\nAV(p): %s.\n", md(s.AvMethod))
		tableMD(availabilityTable(s))
		p("### Messages per entry\n")
		tableMD(messagesTable(s.Families[0]))
	}
	if len(systems) > 1 {
		p("\n## Comparison\n")
		tableMD(comparisonTable(systems))
	}
	return bw.Flush()
}
