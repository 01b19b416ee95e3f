package draw

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Kind is the kind of a [Shape].
type Kind int

// The shapes a scene is made of.
const (
	Circle   Kind = iota // centre (X, Y), radius R
	Line                 // from Pts[0] to Pts[1]
	Polyline             // open path through Pts
	Polygon              // closed path through Pts
	Rect                 // corner (X, Y), size W × H
	Text                 // Text anchored at (X, Y)
)

// Point is a point of a scene; y grows downwards, as in SVG.
type Point struct{ X, Y float64 }

// Style is how a shape is painted. Colours are "#rrggbb" or "none".
type Style struct {
	Fill, Stroke string
	Width        float64 // stroke width
	Dash         bool
	// DashArray is an SVG dash pattern such as "6 3"; it overrides Dash.
	DashArray string
	// Opacity, when in (0, 1), makes the shape translucent.
	Opacity  float64
	FontSize float64 // text only
	Anchor   string  // text only: "start", "middle" or "end"
}

// Shape is one element of a scene. Role says what it stands for, so that
// tests, the report and the explorer can find it: "node" (a node's
// circle), "edge" (scaffolding such as lattice lines), "line" (a line of a
// projective plane), "quorum-line" (a row or column that lies in the chosen
// quorum), "path" (a billiard path), "cell" (a board or matrix cell),
// "incidence" (a matrix entry), "joined" (the circle that holds a join's
// inner system), "frame", "label" and "title"; charts built on a scene
// add their own ("axis", "grid", "curve", ...).
type Shape struct {
	Kind   Kind
	Role   string
	X, Y   float64
	R      float64
	W, H   float64
	Pts    []Point
	Text   string
	Style  Style
	Node   int // 1-based node this shape stands for, 0 if none
	Quorum int // 1-based quorum this shape stands for, 0 if none
	// Domain is the path of the failure domain this shape stands for (a
	// domain's box, ring, mark or label), written as data-domain.
	Domain string
	// Tip is the shape's tooltip, written as an SVG <title> child.
	Tip string
}

// Scene is a drawing: shapes painted in order on a W × H canvas (in CSS
// pixels for SVG, points for PDF and PNG).
type Scene struct {
	W, H  float64
	Title string
	// Background, when set, is the colour of the paper under the shapes.
	Background string
	Shapes     []Shape
}

func (sc *Scene) add(s Shape) { sc.Shapes = append(sc.Shapes, s) }

// num formats a coordinate with at most two decimals and no trailing
// zeros, so that the SVG bytes are the same on every platform.
func num(x float64) string {
	var b [32]byte
	return string(appendNum(b[:0], x))
}

// appendNum appends num(x) to dst without making a string.
func appendNum(dst []byte, x float64) []byte {
	// x to two decimals is n/100 for n the integer nearest to 100·x. The
	// product y = 100·x is rounded, but by at most half a unit in its
	// last place, and y − n is exact (a multiple of that unit): when it
	// is not ±½, 100·x lies on the same side of n ± ½ as y, and n is the
	// nearest integer. Ties, and x far from 0, are left to strconv.
	if x > -1e12 && x < 1e12 {
		y := x * 100
		n := math.Round(y)
		if d := y - n; d != 0.5 && d != -0.5 {
			return appendCents(dst, int64(n))
		}
	}
	return appendNumSlow(dst, x)
}

// appendCents appends n/100 with at most two decimals and no trailing
// zeros, "0" for 0.
func appendCents(dst []byte, n int64) []byte {
	if n < 0 {
		dst = append(dst, '-')
		n = -n
	}
	dst = strconv.AppendInt(dst, n/100, 10)
	if c := n % 100; c != 0 {
		dst = append(dst, '.', byte('0'+c/10))
		if c%10 != 0 {
			dst = append(dst, byte('0'+c%10))
		}
	}
	return dst
}

// appendNumSlow is appendNum by strconv.
func appendNumSlow(dst []byte, x float64) []byte {
	start := len(dst)
	dst = strconv.AppendFloat(dst, x, 'f', 2, 64)
	for len(dst) > start && dst[len(dst)-1] == '0' {
		dst = dst[:len(dst)-1]
	}
	if len(dst) > start && dst[len(dst)-1] == '.' {
		dst = dst[:len(dst)-1]
	}
	if string(dst[start:]) == "-0" {
		dst = append(dst[:start], '0')
	}
	return dst
}

// SVGOptions control [Scene.WriteSVGOptions].
type SVGOptions struct {
	// Inline omits the XML declaration and namespace, for an <svg> element
	// inside an HTML page.
	Inline bool
	// ID, when not empty, is the svg element's id.
	ID string
}

// WriteSVG writes sc as a standalone SVG document.
func (sc *Scene) WriteSVG(w io.Writer) error {
	return sc.WriteSVGOptions(w, SVGOptions{})
}

// WriteSVGOptions writes sc as SVG: every shape becomes one element with
// presentation attributes (no style sheet), and node and quorum numbers as
// data-node and data-quorum attributes.
func (sc *Scene) WriteSVGOptions(w io.Writer, o SVGOptions) error {
	bw := bufio.NewWriter(w)
	if !o.Inline {
		bw.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
		bw.WriteString(`<svg xmlns="http://www.w3.org/2000/svg"`)
	} else {
		bw.WriteString(`<svg`)
	}
	if o.ID != "" {
		fmt.Fprintf(bw, ` id="%s"`, escape(o.ID))
	}
	fmt.Fprintf(bw, ` width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif">`+"\n",
		num(sc.W), num(sc.H), num(sc.W), num(sc.H))
	if sc.Title != "" {
		fmt.Fprintf(bw, "<title>%s</title>\n", escape(sc.Title))
	}
	if sc.Background != "" {
		fmt.Fprintf(bw, `<rect class="paper" x="0" y="0" width="%s" height="%s" fill="%s"/>`+"\n", num(sc.W), num(sc.H), sc.Background)
	}
	var buf []byte
	for i := range sc.Shapes {
		buf = appendShape(buf[:0], &sc.Shapes[i])
		bw.Write(buf)
	}
	bw.WriteString("</svg>\n")
	return bw.Flush()
}

// appendShape appends the SVG element of s to b: one element with
// presentation attributes, built without fmt and, for texts that need no
// escaping, without a copy.
func appendShape(b []byte, s *Shape) []byte {
	switch s.Kind {
	case Circle:
		b = append(b, `<circle cx="`...)
		b = appendNum(b, s.X)
		b = append(b, `" cy="`...)
		b = appendNum(b, s.Y)
		b = append(b, `" r="`...)
		b = appendNum(b, s.R)
		b = append(b, '"')
	case Line:
		b = append(b, `<line x1="`...)
		b = appendNum(b, s.Pts[0].X)
		b = append(b, `" y1="`...)
		b = appendNum(b, s.Pts[0].Y)
		b = append(b, `" x2="`...)
		b = appendNum(b, s.Pts[1].X)
		b = append(b, `" y2="`...)
		b = appendNum(b, s.Pts[1].Y)
		b = append(b, '"')
	case Polyline, Polygon:
		if s.Kind == Polygon {
			b = append(b, `<polygon points="`...)
		} else {
			b = append(b, `<polyline points="`...)
		}
		for i, p := range s.Pts {
			if i > 0 {
				b = append(b, ' ')
			}
			b = appendNum(b, p.X)
			b = append(b, ',')
			b = appendNum(b, p.Y)
		}
		b = append(b, '"')
	case Rect:
		b = append(b, `<rect x="`...)
		b = appendNum(b, s.X)
		b = append(b, `" y="`...)
		b = appendNum(b, s.Y)
		b = append(b, `" width="`...)
		b = appendNum(b, s.W)
		b = append(b, `" height="`...)
		b = appendNum(b, s.H)
		b = append(b, '"')
	case Text:
		b = append(b, `<text x="`...)
		b = appendNum(b, s.X)
		b = append(b, `" y="`...)
		b = appendNum(b, s.Y)
		b = append(b, '"')
	}
	b = append(b, ` class="`...)
	b = append(b, s.Role...)
	b = append(b, '"')
	if s.Node > 0 {
		b = append(b, ` data-node="`...)
		b = strconv.AppendInt(b, int64(s.Node), 10)
		b = append(b, '"')
	}
	if s.Quorum > 0 {
		b = append(b, ` data-quorum="`...)
		b = strconv.AppendInt(b, int64(s.Quorum), 10)
		b = append(b, '"')
	}
	if s.Domain != "" {
		b = append(b, ` data-domain="`...)
		b = appendEscaped(b, s.Domain)
		b = append(b, '"')
	}
	st := &s.Style
	b = append(b, ` fill="`...)
	if st.Fill == "" {
		b = append(b, "none"...)
	} else {
		b = append(b, st.Fill...)
	}
	b = append(b, '"')
	if st.Stroke != "" && st.Stroke != "none" && st.Width > 0 {
		b = append(b, ` stroke="`...)
		b = append(b, st.Stroke...)
		b = append(b, `" stroke-width="`...)
		b = appendNum(b, st.Width)
		b = append(b, '"')
		if da := st.dashes(); da != "" {
			b = append(b, ` stroke-dasharray="`...)
			b = append(b, da...)
			b = append(b, '"')
		}
	}

	if s.Kind == Text {
		b = append(b, ` font-size="`...)
		b = appendNum(b, st.FontSize)
		b = append(b, '"')
		if st.Anchor != "" && st.Anchor != "start" {
			b = append(b, ` text-anchor="`...)
			b = append(b, st.Anchor...)
			b = append(b, '"')
		}
		b = append(b, '>')
		b = appendEscaped(b, s.Text)
		if s.Tip != "" {
			b = append(b, "<title>"...)
			b = appendEscaped(b, s.Tip)
			b = append(b, "</title>"...)
		}
		return append(b, "</text>\n"...)
	}
	if s.Tip != "" {
		b = append(b, "><title>"...)
		b = appendEscaped(b, s.Tip)
		b = append(b, "</title></"...)
		b = append(b, tagOf(s.Kind)...)
		return append(b, ">\n"...)
	}
	return append(b, "/>\n"...)
}

// appendEscaped appends escape(s) to b; a plain ASCII s, the common case,
// is appended as it is.
func appendEscaped(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20, c >= 0x80, c == '&', c == '<', c == '>', c == '"', c == '\'':
			return append(b, escape(s)...)
		}
	}
	return append(b, s...)
}

// tagOf is the SVG element of a shape kind.
func tagOf(k Kind) string {
	return [...]string{Circle: "circle", Line: "line", Polyline: "polyline", Polygon: "polygon", Rect: "rect", Text: "text"}[k]
}

// dashes is the SVG dash pattern of st, "" for a solid stroke.
func (st Style) dashes() string {
	if st.DashArray != "" {
		return st.DashArray
	}
	if st.Dash {
		return "4 3"
	}
	return ""
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")

// escape escapes s for XML text and attributes, and drops control
// characters, which XML 1.0 cannot hold.
func escape(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' {
			return -1
		}
		return r
	}, s)
	return xmlEscaper.Replace(s)
}

// Beside puts scenes side by side, 30 units apart, each under its heading
// (headings[i], when given), on one canvas with the background of the
// first: the read and the write quorums of a read-write system, say.
func Beside(title string, headings []string, scenes ...*Scene) *Scene {
	out := &Scene{Title: title}
	const gap, head = 30.0, 22.0
	x := 0.0
	for i, sc := range scenes {
		if i == 0 {
			out.Background = sc.Background
		}
		ink := "#333333"
		if sc.Background != "" && sc.Background != "#ffffff" {
			ink = "#e0e0e0"
		}
		if i < len(headings) && headings[i] != "" {
			out.add(Shape{Kind: Text, Role: "heading", X: x + 10, Y: 18, Text: headings[i],
				Style: Style{Fill: ink, FontSize: 14}})
		}
		for _, s := range sc.Shapes {
			s.X += x
			s.Y += head
			if len(s.Pts) > 0 {
				pts := make([]Point, len(s.Pts))
				for j, p := range s.Pts {
					pts[j] = Point{p.X + x, p.Y + head}
				}
				s.Pts = pts
			}
			out.add(s)
		}
		out.W = x + math.Max(sc.W, TextWidth(headingOf(headings, i), 14)+20)
		out.H = math.Max(out.H, sc.H+head)
		x = out.W + gap
	}
	return out
}

func headingOf(h []string, i int) string {
	if i < len(h) {
		return h[i]
	}
	return ""
}
