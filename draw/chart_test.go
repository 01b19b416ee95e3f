package draw_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	_ "image/png"
	"io"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/draw"
)

func hexColor(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02X%02X%02X", r>>8, g>>8, b>>8)
}

// svgChart returns, for each stroke colour, the number of segments of the
// longest path drawn in it, whether a path of that colour is dashed, and the
// texts of the picture.
func svgChart(t *testing.T, data []byte) (longest map[string]int, dashed map[string]bool, texts []string) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	longest, dashed = map[string]int{}, map[string]bool{}
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
			sawSVG = sawSVG || e.Name.Local == "svg"
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
			dashed[col] = dashed[col] || strings.Contains(style, "stroke-dasharray")
		case xml.CharData:
			if s := strings.TrimSpace(string(e)); s != "" {
				texts = append(texts, s)
			}
		}
	}
	if !sawSVG {
		t.Fatal("no <svg> element")
	}
	return longest, dashed, texts
}

// curveChart is three curves of 51 points over p = 0..1: the availability
// of majority of 3, of a 2-node product and of a 3-node threshold-1
// system, the last dashed.
func curveChart() *draw.Chart {
	c := &draw.Chart{
		Title: "test",
		X:     draw.Axis{Label: "p", Include: []float64{0, 1}},
		Y:     draw.Axis{Label: "AV(p)", Include: []float64{0, 1}},
		Grid:  true,
	}
	for i, f := range []func(p float64) float64{
		func(p float64) float64 { return 3*p*p - 2*p*p*p },
		func(p float64) float64 { return p * p },
		func(p float64) float64 { return 1 - math.Pow(1-p, 3) },
	} {
		s := draw.Series{Label: fmt.Sprintf("system %d", i+1), Dashed: i == 2}
		for j := 0; j <= 50; j++ {
			p := float64(j) / 50
			s.X, s.Y = append(s.X, p), append(s.Y, f(p))
		}
		c.Series = append(c.Series, s)
	}
	return c
}

// An SVG chart parses, holds one long path per series in the series'
// colour (dashed where the series is), and names every series in its
// legend; the same chart gives the same bytes.
func TestChartSVG(t *testing.T) {
	c := curveChart()
	var buf bytes.Buffer
	if err := c.Write(&buf, "svg"); err != nil {
		t.Fatal(err)
	}
	longest, dashed, texts := svgChart(t, buf.Bytes())
	for i, s := range c.Series {
		col := hexColor(draw.SeriesColor(i))
		if got := longest[col]; got != len(s.X)-1 {
			t.Errorf("series %d: longest path in its colour has %d segments, want %d", i, got, len(s.X)-1)
		}
		if dashed[col] != s.Dashed {
			t.Errorf("series %d: dashed %v, want %v", i, dashed[col], s.Dashed)
		}
		if !slices.Contains(texts, s.Label) {
			t.Errorf("legend lacks %q", s.Label)
		}
	}
	for _, want := range []string{"test", "p", "AV(p)"} {
		if !slices.Contains(texts, want) {
			t.Errorf("the picture lacks the text %q", want)
		}
	}
	var again bytes.Buffer
	if err := c.Write(&again, "svg"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Error("the same chart twice gave different bytes")
	}
}

// A PNG chart decodes, and each series' colour is on the picture.
func TestChartPNG(t *testing.T) {
	c := curveChart()
	var buf bytes.Buffer
	if err := c.Write(&buf, "png"); err != nil {
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
	for i := range c.Series {
		if n := counts[hexColor(draw.SeriesColor(i))]; n < 50 {
			t.Errorf("series %d: %d pixels of its colour", i, n)
		}
	}
	if b.Dx() != 6*96 || b.Dy() != 4.5*96 {
		t.Errorf("picture %d × %d pixels, want 6 × 4.5 inches at 96 dpi", b.Dx(), b.Dy())
	}
}

// A log axis is marked at the powers of ten from the one at or below the
// smallest value up to the largest, labelled without float noise
// (math.Pow(10, -5) is 9.999999999999999e-06 in %g); points that have no
// place on it (0, −1, +Inf, NaN) are left out, and a series with none
// left is not drawn.
func TestChartLogAxis(t *testing.T) {
	c := &draw.Chart{
		X: draw.Axis{Label: "x", Include: []float64{0, 1}},
		Y: draw.Axis{Label: "y", Include: []float64{1}, Log: true},
		Series: []draw.Series{
			{Label: "kept", X: []float64{0, 0.2, 0.4, 0.6, 0.8, 1}, Y: []float64{0.5, 0.01, 3e-6, 0, math.Inf(1), math.NaN()}},
			{Label: "gone", X: []float64{0, 1}, Y: []float64{0, -1}},
		},
	}
	var buf bytes.Buffer
	if err := c.Write(&buf, "svg"); err != nil {
		t.Fatal(err)
	}
	longest, _, texts := svgChart(t, buf.Bytes())
	if got := longest[hexColor(draw.SeriesColor(0))]; got != 2 {
		t.Errorf("the kept series has %d segments, want 2 (three points)", got)
	}
	if _, ok := longest[hexColor(draw.SeriesColor(1))]; ok || slices.Contains(texts, "gone") {
		t.Error("a series without a point on the log axis is drawn")
	}
	for _, want := range []string{"1e-6", "1e-5", "1e-4", "0.001", "0.01", "0.1", "1"} {
		if !slices.Contains(texts, want) {
			t.Errorf("the log axis lacks the tick %q (texts %q)", want, texts)
		}
	}
	if slices.Contains(texts, "1e-7") || slices.Contains(texts, "10") {
		t.Errorf("the log axis reaches past the data (texts %q)", texts)
	}
}

// With markers, every series is a line and a glyph per point, and the
// legend names each.
func TestChartMarkers(t *testing.T) {
	c := &draw.Chart{
		X:       draw.Axis{Label: "N"},
		Y:       draw.Axis{Label: "messages"},
		Markers: true,
		Series: []draw.Series{
			{Label: "maekawa", X: []float64{7, 13, 21}, Y: []float64{9.1, 12.4, 15.0}},
			{Label: "ricart-agrawala", X: []float64{7, 13, 21}, Y: []float64{12, 24, 40}},
		},
	}
	var buf bytes.Buffer
	if err := c.Write(&buf, "svg"); err != nil {
		t.Fatal(err)
	}
	_, _, texts := svgChart(t, buf.Bytes())
	for _, s := range c.Series {
		if !slices.Contains(texts, s.Label) {
			t.Errorf("legend lacks %q", s.Label)
		}
	}
}

func TestChartErrors(t *testing.T) {
	c := curveChart()
	if err := c.Write(io.Discard, "gif"); err == nil {
		t.Error("gif accepted")
	}
	c.Series[1].Y = c.Series[1].Y[1:]
	err := c.Write(io.Discard, "svg")
	if err == nil || !strings.Contains(err.Error(), `series "system 2" has 51 x and 50 y values`) {
		t.Errorf("uneven series: %v", err)
	}
}
