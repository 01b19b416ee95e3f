package draw

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	gdraw "gonum.org/v1/plot/vg/draw"
)

// A Chart is a line chart: series of values on one pair of axes, with a
// legend naming each series. The availability curves, the optimal load of
// read-write systems and the simulator's messages per entry are all drawn
// as Charts. The same chart gives the same bytes (SVG and PNG).
type Chart struct {
	Title  string
	X, Y   Axis
	Legend Corner
	// Grid draws grid lines at the ticks.
	Grid bool
	// Markers draws a glyph at every point and tells the series apart by
	// colour, dash pattern and glyph shape, for series of few points;
	// without it every series is a solid line in its [SeriesColor].
	Markers bool
	// Width and Height are the picture's size in inches; zero means
	// 6 × 4.5.
	Width, Height float64
	Series        []Series
}

// An Axis is the label and the span of one axis of a [Chart].
type Axis struct {
	Label string
	// Include lists values the axis spans besides the data (0 and 1 for a
	// probability).
	Include []float64
	// Log makes the axis logarithmic, marked at each power of ten and
	// starting at the power of ten at or below its smallest value. Points
	// whose value on a log axis is not positive and finite have no place
	// on it and are left out.
	Log bool
}

// A Series is one line of a [Chart]: the points (X[i], Y[i]) in order.
type Series struct {
	Label string
	X, Y  []float64
	// Dashed draws the line dashed (an estimate, say); a chart with
	// Markers gives each series a dash pattern of its own instead.
	Dashed bool
}

// Corner is where a [Chart]'s legend goes.
type Corner int

// The corners of a chart.
const (
	TopLeft Corner = iota
	TopRight
	BottomLeft
	BottomRight
)

// SeriesColor returns the colour of the i-th series of a [Chart] drawn
// without markers, so that a reader (or a test) can find a series in the
// picture.
func SeriesColor(i int) color.Color {
	return plotutil.DarkColors[i%len(plotutil.DarkColors)]
}

// Write draws the chart and writes it to w as format: "svg" or "png", or
// another format gonum's plot writes ("pdf", "eps", "jpg", "tif").
func (c *Chart) Write(w io.Writer, format string) error {
	p := plot.New()
	p.Title.Text = c.Title
	p.X.Label.Text, p.Y.Label.Text = c.X.Label, c.Y.Label
	c.X.span(&p.X)
	c.Y.span(&p.Y)
	if c.Grid {
		p.Add(plotter.NewGrid())
	}
	p.Legend.Top = c.Legend == TopLeft || c.Legend == TopRight
	p.Legend.Left = c.Legend == TopLeft || c.Legend == BottomLeft
	x, y := newExtent(), newExtent()
	for i, s := range c.Series {
		if len(s.X) != len(s.Y) {
			return fmt.Errorf("draw: chart: series %q has %d x and %d y values", s.Label, len(s.X), len(s.Y))
		}
		xys := make(plotter.XYs, 0, len(s.X))
		for j := range s.X {
			if (c.X.Log && !logValue(s.X[j])) || (c.Y.Log && !logValue(s.Y[j])) {
				continue
			}
			xys = append(xys, plotter.XY{X: s.X[j], Y: s.Y[j]})
			x.add(s.X[j])
			y.add(s.Y[j])
		}
		if len(xys) == 0 && (c.X.Log || c.Y.Log) {
			continue
		}
		if err := c.add(p, i, s, xys); err != nil {
			return err
		}
	}
	c.X.logScale(&p.X, x)
	c.Y.logScale(&p.Y, y)
	width, height := c.Width, c.Height
	if width == 0 || height == 0 {
		width, height = 6, 4.5
	}
	wt, err := p.WriterTo(vg.Length(width)*vg.Inch, vg.Length(height)*vg.Inch, format)
	if err != nil {
		return fmt.Errorf("draw: chart: %w", err)
	}
	if _, err := wt.WriteTo(w); err != nil {
		return fmt.Errorf("draw: chart: %w", err)
	}
	return nil
}

// add draws series s, the i-th, through xys and names it in the legend.
func (c *Chart) add(p *plot.Plot, i int, s Series, xys plotter.XYs) error {
	if c.Markers {
		l, pts, err := plotter.NewLinePoints(xys)
		if err != nil {
			return fmt.Errorf("draw: chart: series %q: %w", s.Label, err)
		}
		l.Color, l.Dashes = plotutil.Color(i), plotutil.Dashes(i)
		pts.Color, pts.Shape = plotutil.Color(i), plotutil.Shape(i)
		p.Add(l, pts)
		p.Legend.Add(s.Label, l, pts)
		return nil
	}
	l, err := plotter.NewLine(xys)
	if err != nil {
		return fmt.Errorf("draw: chart: series %q: %w", s.Label, err)
	}
	l.LineStyle = gdraw.LineStyle{Color: SeriesColor(i), Width: vg.Points(1.5)}
	if s.Dashed {
		l.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	}
	p.Add(l)
	p.Legend.Add(s.Label, l)
	return nil
}

// span makes ax cover the values a asks for besides the data.
func (a Axis) span(ax *plot.Axis) {
	for _, v := range a.Include {
		ax.Min, ax.Max = math.Min(ax.Min, v), math.Max(ax.Max, v)
	}
}

// logScale makes ax logarithmic when a asks for it, from the power of ten
// at or below the smallest value of the data e to the largest value of the
// data and of a.Include; an axis without data spans 1e-12 to 1.
func (a Axis) logScale(ax *plot.Axis, e extent) {
	if !a.Log {
		return
	}
	ax.Scale = plot.LogScale{}
	ax.Tick.Marker = decades{}
	if math.IsInf(e.lo, 1) {
		e = extent{1e-12, 1}
	}
	for _, v := range a.Include {
		e.hi = math.Max(e.hi, v)
	}
	ax.Min, ax.Max = math.Pow(10, math.Floor(math.Log10(e.lo))), e.hi
}

// extent is the smallest and the largest of the values it was given.
type extent struct{ lo, hi float64 }

func newExtent() extent { return extent{math.Inf(1), math.Inf(-1)} }

func (e *extent) add(v float64) { e.lo, e.hi = math.Min(e.lo, v), math.Max(e.hi, v) }

// logValue reports whether v has a place on a log axis.
func logValue(v float64) bool { return v > 0 && !math.IsInf(v, 0) && !math.IsNaN(v) }

// decades marks the powers of ten of a log axis, labelled "0.01" down to
// a thousandth and "1e-5" below, with no rounding noise.
type decades struct{}

// Ticks returns a tick at each power of ten in [lo, hi].
func (decades) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for k := int(math.Floor(math.Log10(lo))); k <= int(math.Ceil(math.Log10(hi))); k++ {
		v := math.Pow10(k)
		if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
			continue
		}
		label := "1e" + strconv.Itoa(k)
		if k >= -3 && k <= 3 {
			label = strconv.FormatFloat(v, 'f', -1, 64)
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: label})
	}
	return ticks
}
