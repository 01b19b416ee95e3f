package draw

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/font/liberation"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
)

// DefaultPNGScale is the pixels per scene unit of [Scene.WritePNG]: 2, so
// that the picture stays sharp on a high-density screen or in print.
const DefaultPNGScale = 2

// WritePNG writes sc as a PNG image at [DefaultPNGScale] pixels per scene
// unit.
func (sc *Scene) WritePNG(w io.Writer) error { return sc.WritePNGScale(w, DefaultPNGScale) }

// WritePNGScale writes sc as a PNG image of round(W·scale) × round(H·scale)
// pixels; scale is in (0, 16].
func (sc *Scene) WritePNGScale(w io.Writer, scale float64) error {
	if !(scale > 0 && scale <= 16) {
		return fmt.Errorf("draw: png scale %v: want a number in (0, 16]", scale)
	}
	bg := color.Color(color.White)
	if sc.Background != "" {
		col, err := parseColor(sc.Background)
		if err != nil {
			return err
		}
		bg = col
	}
	// One scene unit is one point (1/72 inch): scale pixels per unit is
	// 72·scale dots per inch.
	c := vgimg.NewWith(vgimg.UseWH(vg.Length(sc.W), vg.Length(sc.H)), vgimg.UseDPI(int(math.Round(72*scale))),
		vgimg.UseBackgroundColor(bg))
	if err := sc.paint(c); err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(w); err != nil {
		return fmt.Errorf("draw: png: %w", err)
	}
	return nil
}

// pdfDate matches the dates the PDF writer stamps with the clock.
var pdfDate = regexp.MustCompile(`/(CreationDate|ModDate) \(D:[0-9]{14}\)`)

// WritePDF writes sc as a one-page PDF with the fonts embedded. The
// document's creation and modification dates are fixed (2000-01-01), so
// that the same scene gives the same bytes.
func (sc *Scene) WritePDF(w io.Writer) error {
	c := vgpdf.New(vg.Length(sc.W), vg.Length(sc.H))
	if err := sc.paint(c); err != nil {
		return err
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return fmt.Errorf("draw: pdf: %w", err)
	}
	// Same-length replacement keeps the cross-reference offsets valid.
	out := pdfDate.ReplaceAllFunc(buf.Bytes(), func(m []byte) []byte {
		i := bytes.Index(m, []byte("(D:"))
		return append(append([]byte{}, m[:i]...), []byte("(D:20000101000000)")...)
	})
	_, err := w.Write(out)
	return err
}

// paint draws sc on a vg canvas, flipping y (vg's y grows upwards).
func (sc *Scene) paint(c vg.Canvas) error {
	fonts := font.NewCache(liberation.Collection())
	fnt := font.Font{Typeface: "Liberation", Variant: "Sans"}
	pt := func(x, y float64) vg.Point { return vg.Point{X: vg.Length(x), Y: vg.Length(sc.H - y)} }
	// A scene has a few dash patterns: each is read once (the canvases
	// copy the lengths they are given).
	dashOf := map[string][]vg.Length{}
	for i := range sc.Shapes {
		s := &sc.Shapes[i]
		var p vg.Path
		switch s.Kind {
		case Circle:
			p.Move(pt(s.X+s.R, s.Y))
			p.Arc(pt(s.X, s.Y), vg.Length(s.R), 0, 2*math.Pi)
			p.Close()
		case Line, Polyline, Polygon:
			for j, q := range s.Pts {
				if j == 0 {
					p.Move(pt(q.X, q.Y))
				} else {
					p.Line(pt(q.X, q.Y))
				}
			}
			if s.Kind == Polygon {
				p.Close()
			}
		case Rect:
			p.Move(pt(s.X, s.Y))
			p.Line(pt(s.X+s.W, s.Y))
			p.Line(pt(s.X+s.W, s.Y+s.H))
			p.Line(pt(s.X, s.Y+s.H))
			p.Close()
		case Text:
			col, err := parseColor(s.Style.Fill)
			if err != nil {
				return err
			}
			face := fonts.Lookup(fnt, vg.Length(s.Style.FontSize))
			x := s.X
			switch s.Style.Anchor {
			case "middle":
				x -= float64(face.Width(s.Text)) / 2
			case "end":
				x -= float64(face.Width(s.Text))
			}
			c.SetColor(col)
			c.FillString(face, pt(x, s.Y), s.Text)
			continue
		}
		if s.Style.Fill != "" && s.Style.Fill != "none" && s.Kind != Line && s.Kind != Polyline {
			col, err := parseColor(s.Style.Fill)
			if err != nil {
				return err
			}
			c.SetColor(col)
			c.Fill(p)
		}
		if s.Style.Stroke != "" && s.Style.Stroke != "none" && s.Style.Width > 0 {
			col, err := parseColor(s.Style.Stroke)
			if err != nil {
				return err
			}
			c.SetColor(col)
			c.SetLineWidth(vg.Length(s.Style.Width))
			da := s.Style.dashes()
			dash, ok := dashOf[da]
			if !ok {
				for _, f := range strings.Fields(da) {
					if x, err := strconv.ParseFloat(f, 64); err == nil {
						dash = append(dash, vg.Length(x))
					}
				}
				dashOf[da] = dash
			}
			c.SetLineDash(dash, 0)
			c.Stroke(p)
		}
	}
	return nil
}

// parseColor reads "#rrggbb".
func parseColor(s string) (color.Color, error) {
	if len(s) == 7 && s[0] == '#' {
		var v [3]uint8
		ok := true
		for i := range v {
			hi, ok1 := unhex(s[1+2*i])
			lo, ok2 := unhex(s[2+2*i])
			ok = ok && ok1 && ok2
			v[i] = hi<<4 | lo
		}
		if ok {
			return color.NRGBA{R: v[0], G: v[1], B: v[2], A: 255}, nil
		}
	}
	var r, g, b uint8
	if len(s) != 7 || s[0] != '#' {
		return nil, fmt.Errorf("draw: colour %q: want #rrggbb", s)
	}
	if _, err := fmt.Sscanf(s[1:], "%02x%02x%02x", &r, &g, &b); err != nil {
		return nil, fmt.Errorf("draw: colour %q: %w", s, err)
	}
	return color.NRGBA{R: r, G: g, B: b, A: 255}, nil
}

// unhex is the value of a hexadecimal digit.
func unhex(c byte) (uint8, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
