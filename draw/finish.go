package draw

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/set"
)

// pendingLabel is a node label waiting for [drawing.finish] to place it
// where it covers nothing.
type pendingLabel struct {
	v int
	p Point
	r float64
}

// labelSize is the font size of node labels.
const labelSize = 11

// box is an axis-aligned rectangle.
type box struct{ x0, y0, x1, y1 float64 }

func (a box) overlaps(b box) bool {
	return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

// crosses reports whether the segment pq meets a (Liang–Barsky clipping).
func (a box) crosses(p, q Point) bool {
	t0, t1 := 0.0, 1.0
	dx, dy := q.X-p.X, q.Y-p.Y
	for _, e := range [4][2]float64{{-dx, p.X - a.x0}, {dx, a.x1 - p.X}, {-dy, p.Y - a.y0}, {dy, a.y1 - p.Y}} {
		pp, qq := e[0], e[1]
		if pp == 0 {
			if qq < 0 {
				return false
			}
			continue
		}
		t := qq / pp
		if pp < 0 {
			t0 = math.Max(t0, t)
		} else {
			t1 = math.Min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}

// circleOverlaps reports whether the circle (c, r) meets a.
func (a box) circleOverlaps(c Point, r float64) bool {
	dx := c.X - math.Max(a.x0, math.Min(c.X, a.x1))
	dy := c.Y - math.Max(a.y0, math.Min(c.Y, a.y1))
	return dx*dx+dy*dy < r*r
}

// TextBox returns the box a text shape covers, by the estimate of
// [TextWidth]: from 0.8 of its size above the baseline to 0.25 below.
func TextBox(s *Shape) (x0, y0, x1, y1 float64) {
	w := TextWidth(s.Text, s.Style.FontSize)
	x0 = s.X
	switch s.Style.Anchor {
	case "middle":
		x0 -= w / 2
	case "end":
		x0 -= w
	}
	return x0, s.Y - 0.8*s.Style.FontSize, x0 + w, s.Y + 0.25*s.Style.FontSize
}

func textBox(s *Shape) box {
	x0, y0, x1, y1 := TextBox(s)
	return box{x0, y0, x1, y1}
}

// finish places the pending labels, fits the canvas around everything,
// adds the legend and the paper.
func (d *drawing) finish() {
	d.placeLabels()
	d.fit()
	d.legend()
	d.sc.Background = d.c.paper
}

// placeLabels puts each pending label at the first place around its node
// that covers no node and no text already placed: right, left, above,
// below, the diagonals, then the same farther out.
func (d *drawing) placeLabels() {
	if len(d.pending) == 0 {
		return
	}
	var circles []Shape
	var texts []box
	var segs [][2]Point
	for i := range d.sc.Shapes {
		s := &d.sc.Shapes[i]
		switch {
		case s.Kind == Circle && s.Role == "node":
			circles = append(circles, *s)
		case s.Kind == Text:
			texts = append(texts, textBox(s))
		case s.Kind == Line || s.Kind == Polyline || s.Kind == Polygon:
			for j := 1; j < len(s.Pts); j++ {
				segs = append(segs, [2]Point{s.Pts[j-1], s.Pts[j]})
			}
			if s.Kind == Polygon && len(s.Pts) > 2 {
				segs = append(segs, [2]Point{s.Pts[len(s.Pts)-1], s.Pts[0]})
			}
		}
	}
	if len(segs) > 5000 {
		segs = nil // too many to check: labels may cross lines
	}
	// Past a few hundred nodes the search would be quadratic in earnest:
	// labels then go to the right of their nodes.
	check := len(circles) <= 600
	free := func(b box) bool {
		for _, c := range circles {
			if b.circleOverlaps(Point{c.X, c.Y}, c.R+1) {
				return false
			}
		}
		for _, t := range texts {
			if b.overlaps(t) {
				return false
			}
		}
		return true
	}
	// clear reports whether b crosses no line: the first choice of place.
	clear := func(b box) bool {
		for _, sg := range segs {
			if b.crosses(sg[0], sg[1]) {
				return false
			}
		}
		return true
	}
	for _, pl := range d.pending {
		text := d.f.Label(pl.v)
		fill := d.c.ink
		if d.marked[pl.v] {
			fill = d.c.highlight
		}
		var placed *Shape
		// First a place that crosses no line either, then one that only
		// covers no node and no text.
		for pass := 0; pass < 2 && placed == nil; pass++ {
			for _, far := range []float64{3, 10, 22} {
				r := pl.r + far
				q := r * 0.75
				for _, c := range []struct {
					dx, dy float64
					anchor string
				}{
					{r, 4, "start"}, {-r, 4, "end"}, {0, -r - 1, "middle"}, {0, r + labelSize*0.8, "middle"},
					{q, -q, "start"}, {q, q + 8, "start"}, {-q, -q, "end"}, {-q, q + 8, "end"},
				} {
					s := Shape{Kind: Text, Role: "label", X: pl.p.X + c.dx, Y: pl.p.Y + c.dy, Text: text,
						Style: Style{Fill: fill, FontSize: labelSize, Anchor: c.anchor}, Node: pl.v + 1}
					b := textBox(&s)
					if !check || (free(b) && (pass == 1 || clear(b))) {
						placed = &s
						break
					}
				}
				if placed != nil {
					break
				}
			}
		}
		if placed == nil {
			placed = &Shape{Kind: Text, Role: "label", X: pl.p.X + pl.r + 3, Y: pl.p.Y + 4, Text: text,
				Style: Style{Fill: fill, FontSize: labelSize}, Node: pl.v + 1}
		}
		d.sc.add(*placed)
		texts = append(texts, textBox(placed))
	}
	d.pending = nil
}

// bounds returns the box every shape of sc lies in.
func (sc *Scene) bounds() box {
	b := box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	add := func(x0, y0, x1, y1 float64) {
		b.x0, b.y0 = math.Min(b.x0, x0), math.Min(b.y0, y0)
		b.x1, b.y1 = math.Max(b.x1, x1), math.Max(b.y1, y1)
	}
	for i := range sc.Shapes {
		s := &sc.Shapes[i]
		switch s.Kind {
		case Circle:
			add(s.X-s.R, s.Y-s.R, s.X+s.R, s.Y+s.R)
		case Rect:
			add(s.X, s.Y, s.X+s.W, s.Y+s.H)
		case Text:
			add(TextBox(s))
		default:
			for _, p := range s.Pts {
				add(p.X, p.Y, p.X, p.Y)
			}
		}
	}
	return b
}

// fit grows the canvas, moving every shape when needed, so that all of
// them lie inside it with a margin of 6.
func (d *drawing) fit() {
	const m = 6.0
	b := d.sc.bounds()
	if math.IsInf(b.x0, 0) {
		return
	}
	dx, dy := math.Max(0, m-b.x0), math.Max(0, m-b.y0)
	if dx > 0 || dy > 0 {
		d.sc.translate(dx, dy)
	}
	d.sc.W = math.Max(d.sc.W+dx, b.x1+dx+m)
	d.sc.H = math.Max(d.sc.H+dy, b.y1+dy+m)
}

// translate moves every shape of sc by (dx, dy).
func (sc *Scene) translate(dx, dy float64) {
	for i := range sc.Shapes {
		s := &sc.Shapes[i]
		s.X += dx
		s.Y += dy
		if len(s.Pts) > 0 {
			pts := make([]Point, len(s.Pts))
			for j, p := range s.Pts {
				pts[j] = Point{p.X + dx, p.Y + dy}
			}
			s.Pts = pts
		}
	}
}

// legend explains, under the drawing, what the colours mean: the quorum
// of --quorum (blue) and the nodes of --highlight (red).
func (d *drawing) legend() {
	type entry = legendEntry
	var entries []entry
	if d.quorum != nil {
		text := fmt.Sprintf("quorum %d: %s", d.sel+1, d.names(d.quorum.Elements(), 12))
		if d.dead != nil && d.dead[d.sel] {
			text += ", dead"
		}
		entries = append(entries, entry{st: Style{Fill: d.c.quorum, Stroke: d.c.ink, Width: 1.5}, text: text})
	}
	var marked []int
	for v, m := range d.marked {
		if m {
			marked = append(marked, v)
		}
	}
	if len(marked) > 0 {
		entries = append(entries, entry{st: Style{Fill: d.c.highlight, Stroke: d.c.ink, Width: 1.5},
			text: "highlighted nodes: " + d.names(marked, 12)})
	}
	entries = append(entries, d.extra...)
	if len(entries) == 0 {
		return
	}
	y := d.sc.H + 2
	for _, e := range entries {
		y += 18
		if e.st != (Style{}) {
			d.sc.add(Shape{Kind: Circle, Role: "legend", X: 16, Y: y - 4, R: 6, Style: e.st, Domain: e.domain})
		}
		t := Shape{Kind: Text, Role: "legend", X: 28, Y: y, Text: e.text, Style: Style{Fill: d.c.ink, FontSize: labelSize}, Domain: e.domain}
		d.sc.add(t)
		d.sc.W = math.Max(d.sc.W, t.X+TextWidth(t.Text, labelSize)+8)
	}
	d.sc.H = y + 8
}

// names formats nodes by their labels (numbers when they have none),
// "{1 4 7}", the first max of them.
func (d *drawing) names(vs []int, max int) string {
	if d.f.Labels == nil {
		return shortNodes(vs, max)
	}
	var parts []string
	for i, v := range vs {
		if i == max {
			parts = append(parts, fmt.Sprintf("… %d in all", len(vs)))
			break
		}
		parts = append(parts, d.f.Label(v))
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// shortNodes formats 0-based nodes 1-based, "{1 4 7}", the first max of
// them.
func shortNodes(vs []int, max int) string {
	b := make([]byte, 0, 4*min(len(vs), max)+16)
	b = append(b, '{')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ' ')
		}
		if i == max {
			b = appendAllOf(b, len(vs))
			break
		}
		b = strconv.AppendInt(b, int64(v+1), 10)
	}
	return string(append(b, '}'))
}

// appendShortSet appends shortNodes(s.Elements(), max) to b without
// listing s first.
func appendShortSet(b []byte, s *set.Set, max int) []byte {
	b = append(b, '{')
	i := 0
	for v := range s.All() {
		if i > 0 {
			b = append(b, ' ')
		}
		if i == max {
			b = appendAllOf(b, s.Len())
			break
		}
		b = strconv.AppendInt(b, int64(v+1), 10)
		i++
	}
	return append(b, '}')
}

// appendAllOf appends "… n in all".
func appendAllOf(b []byte, n int) []byte {
	b = append(b, "… "...)
	b = strconv.AppendInt(b, int64(n), 10)
	return append(b, " in all"...)
}

// numbered is prefix followed by the number i and suffix, "line 3: ",
// built without fmt.
func numbered(b []byte, prefix string, i int, suffix string) []byte {
	b = append(b, prefix...)
	b = strconv.AppendInt(b, int64(i), 10)
	return append(b, suffix...)
}

// lineTip is the tooltip of the quorum at position i drawn as a line or
// a path, "line 3: {1 4 7}".
func lineTip(what string, i int, q *set.Set) string {
	b := make([]byte, 0, 16+4*min(q.Len(), 41))
	b = numbered(b, what, i+1, ": ")
	return string(appendShortSet(b, q, 40))
}

// ringSize is the node radius and the radius of a circle of n nodes, at
// least minR. Up to 60 nodes hold their numbers; up to 600 are small with
// their numbers outside the circle ([drawing.ringNumbers]), as far apart
// as the widest number needs; past that they are dots.
//
// minSpacing, when larger, is the distance along the circle the nodes
// keep: room for labels written radially ([drawing.ringLabels]).
func ringSize(n int, minR, minSpacing float64) (r, R float64, outside bool) {
	spacing := 0.0
	switch {
	case n <= 60:
		r, spacing = 9, 23
	case n <= 600:
		r, outside = 4, true
		spacing = math.Max(2*r+3, TextWidth(fmt.Sprint(n), ringNumberSize)+3)
	default:
		r = math.Max(2, math.Min(4, 1500/float64(n)))
		spacing = 2*r + 5
	}
	spacing = math.Max(spacing, minSpacing)
	return r, math.Max(minR, float64(n)*spacing/(2*math.Pi)), outside
}

// ringLabelRoom is the distance along a ring that radial labels need, 0
// when there are none: labels asked for and the nodes have their own.
func (d *drawing) ringLabelRoom() float64 {
	if !d.opts.Labels || d.f.Labels == nil {
		return 0
	}
	w := 0.0
	for v := range d.f.N {
		w = math.Max(w, TextWidth(d.f.Label(v), labelSize))
	}
	return w + 4
}

// ringNumberSize is the font size of the numbers outside a ring.
const ringNumberSize = 7

// ringNumbers writes each node's number just outside the circle of
// radius R around c that the nodes (of radius r) lie on, at angle[v]; with
// labels asked for (and the nodes having their own), it writes the labels
// there instead, and the labels waiting for placement are dropped.
func (d *drawing) ringNumbers(c Point, R, r float64, angle []float64, node []int, outside bool) {
	labels := d.ringLabelRoom() > 0
	if !outside && !labels {
		return
	}
	if labels {
		d.pending = nil
	}
	fs := float64(ringNumberSize)
	role := "number"
	if labels {
		fs, role = labelSize, "label"
	}
	for i, a := range angle {
		v := node[i]
		var text string
		if labels {
			text = d.f.Label(v)
		} else {
			text = strconv.Itoa(v + 1)
		}
		cos, sin := math.Cos(a), math.Sin(a)
		rr := R + r + 3
		x, y := c.X+rr*cos, c.Y+rr*sin+fs*0.35
		anchor := "middle"
		switch {
		case cos > 0.3:
			anchor = "start"
		case cos < -0.3:
			anchor = "end"
		}
		if sin < -0.3 {
			y -= fs * 0.4
		} else if sin > 0.3 {
			y += fs * 0.45
		}
		fill := d.c.ink
		if d.marked[v] {
			fill = d.c.highlight
		}
		d.sc.add(Shape{Kind: Text, Role: role, X: x, Y: y, Text: text,
			Style: Style{Fill: fill, FontSize: fs, Anchor: anchor}, Node: v + 1})
	}
}

// spacing is the distance between neighbours in a row of nodes: min, or
// with labels asked for, enough for the longest label to sit above or
// below its node without touching its neighbours'.
func (d *drawing) spacing(min float64) float64 {
	if !d.opts.Labels || d.f.Labels == nil {
		return min
	}
	w := 0.0
	for v := range d.f.N {
		w = math.Max(w, TextWidth(d.f.Label(v), labelSize))
	}
	return math.Max(min, w+6)
}
