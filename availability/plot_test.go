package availability

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	_ "image/png"
	"io"
	"strings"
	"testing"
)

func hexColor(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02X%02X%02X", r>>8, g>>8, b>>8)
}

// svgCurves returns, for each stroke colour, the number of segments of the
// longest path drawn in it, and the text of the picture.
func svgCurves(t *testing.T, data []byte) (map[string]int, string) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	longest := map[string]int{}
	var text strings.Builder
	sawSVG := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG does not parse: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if e.Name.Local == "svg" {
				sawSVG = true
			}
			if e.Name.Local != "path" {
				continue
			}
			var d, style string
			for _, a := range e.Attr {
				switch a.Name.Local {
				case "d":
					d = a.Value
				case "style":
					style = a.Value
				}
			}
			i := strings.Index(style, "stroke:#")
			if i < 0 {
				continue
			}
			col := style[i+7 : i+14]
			longest[col] = max(longest[col], strings.Count(d, "L"))
		case xml.CharData:
			text.Write(e)
		}
	}
	if !sawSVG {
		t.Fatal("no <svg> element")
	}
	return longest, text.String()
}

func testCurves() []Curve {
	var cs []Curve
	for i, p := range []*Polynomial{Threshold(7, 4), Product(3, 3), Threshold(5, 2)} {
		c := Curve{Label: fmt.Sprintf("system %d", i+1), Estimate: i == 2}
		for j := 0; j <= 50; j++ {
			x := float64(j) / 50
			c.P = append(c.P, x)
			c.AV = append(c.AV, p.At(x))
		}
		cs = append(cs, c)
	}
	return cs
}

// An SVG plot parses, holds one long path per curve in the curve's colour,
// and names every curve in its legend; the same curves give the same bytes.
func TestPlotSVG(t *testing.T) {
	cs := testCurves()
	var buf bytes.Buffer
	if err := Plot(&buf, "svg", "test", cs); err != nil {
		t.Fatal(err)
	}
	longest, text := svgCurves(t, buf.Bytes())
	for i, c := range cs {
		if got := longest[hexColor(CurveColor(i))]; got < len(c.P)-1 {
			t.Errorf("curve %d: longest path in its colour has %d segments, want %d", i, got, len(c.P)-1)
		}
		if !strings.Contains(text, c.Label) {
			t.Errorf("legend lacks %q", c.Label)
		}
	}
	if !strings.Contains(text, "system 3 (estimate)") {
		t.Error("the estimate is not labelled as one")
	}
	var again bytes.Buffer
	if err := Plot(&again, "svg", "test", cs); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Error("the same plot twice gave different bytes")
	}
}

// A PNG plot decodes, and each curve's colour is on the picture.
func TestPlotPNG(t *testing.T) {
	cs := testCurves()
	var buf bytes.Buffer
	if err := Plot(&buf, "png", "test", cs); err != nil {
		t.Fatal(err)
	}
	img, name, err := image.Decode(&buf)
	if err != nil || name != "png" {
		t.Fatalf("decode: %v (%s)", err, name)
	}
	counts := map[string]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			counts[hexColor(img.At(x, y))]++
		}
	}
	for i := range cs {
		if n := counts[hexColor(CurveColor(i))]; n < 50 {
			t.Errorf("curve %d: %d pixels of its colour", i, n)
		}
	}
	if err := Plot(io.Discard, "gif", "", cs); err == nil {
		t.Error("Plot accepted gif")
	}
}
