package availability

import (
	"fmt"
	"image/color"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Curve is one availability curve of a plot: AV at the points P.
type Curve struct {
	Label string
	P, AV []float64
	// Estimate marks a Monte Carlo curve: drawn dashed, and "(estimate)"
	// is added to its legend entry.
	Estimate bool
}

// PlotFormats returns the image formats [Plot] writes.
func PlotFormats() []string { return []string{"svg", "png"} }

// CurveColor returns the colour of the i-th curve of a plot, so that tests
// and users can find a curve in the picture.
func CurveColor(i int) color.Color {
	return plotutil.DarkColors[i%len(plotutil.DarkColors)]
}

// Plot draws the curves on one pair of axes, p from 0 to 1 against AV(p),
// with a legend naming each curve, and writes the picture to w as format
// ("svg" or "png"), 6 × 4.5 inches. The same curves give the same bytes.
func Plot(w io.Writer, format, title string, curves []Curve) error {
	switch format {
	case "svg", "png":
	default:
		return fmt.Errorf("availability: plot: format %q: want svg or png", format)
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "p (probability a node is up)"
	p.Y.Label.Text = "availability AV(p)"
	p.X.Min, p.X.Max = 0, 1
	p.Y.Min, p.Y.Max = 0, 1
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Legend.Left = true
	for i, c := range curves {
		if len(c.P) != len(c.AV) {
			return fmt.Errorf("availability: plot: curve %q has %d points and %d values", c.Label, len(c.P), len(c.AV))
		}
		xys := make(plotter.XYs, len(c.P))
		for j := range c.P {
			xys[j].X, xys[j].Y = c.P[j], c.AV[j]
		}
		if err := addCurve(p, i, c, xys); err != nil {
			return err
		}
	}
	return writePlot(w, p, format)
}

// addCurve draws curve c, the i-th, through xys, and names it in the
// legend: dashed, and marked so, when it is an estimate.
func addCurve(p *plot.Plot, i int, c Curve, xys plotter.XYs) error {
	l, err := plotter.NewLine(xys)
	if err != nil {
		return fmt.Errorf("availability: plot: curve %q: %w", c.Label, err)
	}
	l.LineStyle = draw.LineStyle{Color: CurveColor(i), Width: vg.Points(1.5)}
	label := c.Label
	if c.Estimate {
		l.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		label += " (estimate)"
	}
	p.Add(l)
	p.Legend.Add(label, l)
	return nil
}

// writePlot renders p in format (see [PlotFormats]) to w.
func writePlot(w io.Writer, p *plot.Plot, format string) error {
	wt, err := p.WriterTo(6*vg.Inch, 4.5*vg.Inch, format)
	if err != nil {
		return fmt.Errorf("availability: plot: %w", err)
	}
	if _, err := wt.WriteTo(w); err != nil {
		return fmt.Errorf("availability: plot: %w", err)
	}
	return nil
}
