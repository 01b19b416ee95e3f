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

// WriteHTML writes the report on systems as one self-contained HTML page:
// inline CSS and SVG, no script, no link to anything outside the page.
func WriteHTML(w io.Writer, systems []*System) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	e := html.EscapeString
	p("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>coterie report</title>\n<style>%s</style>\n</head>\n<body>\n", css)
	p("<h1>Quorum systems</h1>\n<ul class=\"toc\">\n")
	for i, s := range systems {
		p("<li><a href=\"#system-%d\">%s</a></li>\n", i+1, e(s.Name))
	}
	if len(systems) > 1 {
		p("<li><a href=\"#comparison\">Comparison</a></li>\n")
	}
	p("</ul>\n")
	tableHTML := func(t table) {
		p("<table>\n<tr>")
		for _, h := range t.head {
			p("<th>%s</th>", e(h))
		}
		p("</tr>\n")
		for _, r := range t.rows {
			p("<tr>")
			for _, c := range r {
				if c == "FAIL" {
					p("<td class=\"fail\">%s</td>", e(c))
					continue
				}
				p("<td>%s</td>", e(c))
			}
			p("</tr>\n")
		}
		p("</table>\n")
	}
	svg := func(sc *draw.Scene, id string) {
		var sb strings.Builder
		_ = sc.WriteSVGOptions(&sb, draw.SVGOptions{Inline: true, ID: id})
		bw.WriteString(sb.String())
	}
	for i, s := range systems {
		id := fmt.Sprintf("system-%d", i+1)
		p("<section class=\"system\" id=\"%s\">\n<h2>%s</h2>\n", id, e(s.Name))
		p("<p>n = %d, k = %d", s.Sys.N(), s.Sys.K())
		if k := s.Sys.Kind(); k != "" {
			p(", kind %s", e(k))
		}
		p("</p>\n")
		p("<section class=\"drawing\">\n<h3>Drawing</h3>\n")
		if s.Drawing != nil {
			svg(s.Drawing, id+"-drawing")
		} else {
			p("<p>too large to draw</p>\n")
		}
		p("</section>\n<section class=\"verify\">\n<h3>Verification</h3>\n<p class=\"verdict\">%s</p>\n", e(Verdict(s.Sys, s.Verify)))
		tableHTML(checksTable(s.Sys, s.Verify))
		p("</section>\n<section class=\"metrics\">\n<h3>Metrics</h3>\n")
		for _, f := range s.Families {
			tableHTML(metricsTable(f))
		}
		p("</section>\n<section class=\"domination\">\n<h3>Domination</h3>\n<p>%s</p>\n", e(dominationText(s)))
		if s.WitnessDraw != nil {
			svg(s.WitnessDraw, id+"-witness")
		}
		p("</section>\n<section class=\"availability\">\n<h3>Availability in nines</h3>\n<p>AV(p): %s.</p>\n", e(s.AvMethod))
		svg(Chart(s), id+"-nines")
		tableHTML(availabilityTable(s))
		p("</section>\n<section class=\"messages\">\n<h3>Messages per entry</h3>\n")
		tableHTML(messagesTable(s.Families[0]))
		p("</section>\n</section>\n")
	}
	if len(systems) > 1 {
		p("<section class=\"comparison\" id=\"comparison\">\n<h2>Comparison</h2>\n")
		tableHTML(comparisonTable(systems))
		p("</section>\n")
	}
	p("<footer><p>Made by coterie.</p></footer>\n</body>\n</html>\n")
	return bw.Flush()
}

// mdCell escapes a Markdown table cell.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

// WriteMarkdown writes the report as Markdown (GitHub tables), for a
// README or a paper's appendix. Drawings are not included: draw them
// with `coterie draw`.
func WriteMarkdown(w io.Writer, systems []*System) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	tableMD := func(t table) {
		p("\n|")
		for _, h := range t.head {
			p(" %s |", mdCell(h))
		}
		p("\n|")
		for range t.head {
			p("---|")
		}
		p("\n")
		for _, r := range t.rows {
			p("|")
			for _, c := range r {
				p(" %s |", mdCell(c))
			}
			p("\n")
		}
		p("\n")
	}
	p("# Quorum systems\n")
	for _, s := range systems {
		p("\n## %s\n\nn = %d, k = %d", s.Name, s.Sys.N(), s.Sys.K())
		if k := s.Sys.Kind(); k != "" {
			p(", kind %s", k)
		}
		p("\n\n### Verification\n\n**%s**\n", Verdict(s.Sys, s.Verify))
		tableMD(checksTable(s.Sys, s.Verify))
		p("### Metrics\n")
		for _, f := range s.Families {
			tableMD(metricsTable(f))
		}
		p("### Domination\n\n%s\n\n", dominationText(s))
		p("### Availability in nines\n\nAV(p): %s.\n", s.AvMethod)
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
