package availability

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// PlotUnavailability draws the curves as [Plot] does, but with 1 − AV(p)
// on a logarithmic axis, the picture in which nines are read: each curve's
// AV field holds 1 − AV. Points where 1 − AV is 0 (p = 1) or below
// float64's range have no place on a log axis and are left out.
func PlotUnavailability(w io.Writer, format, title string, curves []Curve) error {
	switch format {
	case "svg", "png":
	default:
		return fmt.Errorf("availability: plot: format %q: want svg or png", format)
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "p (probability a node is up)"
	p.Y.Label.Text = "unavailability 1 − AV(p)"
	p.X.Min, p.X.Max = 0, 1
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = decades{}
	p.Add(plotter.NewGrid())
	p.Legend.Top = false
	p.Legend.Left = true
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, c := range curves {
		if len(c.P) != len(c.AV) {
			return fmt.Errorf("availability: plot: curve %q has %d points and %d values", c.Label, len(c.P), len(c.AV))
		}
		var xys plotter.XYs
		for j := range c.P {
			if u := c.AV[j]; u > 0 && !math.IsInf(u, 0) && !math.IsNaN(u) {
				xys = append(xys, plotter.XY{X: c.P[j], Y: u})
				lo, hi = math.Min(lo, u), math.Max(hi, u)
			}
		}
		if len(xys) == 0 {
			continue
		}
		if err := addCurve(p, i, c, xys); err != nil {
			return err
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 1e-12, 1
	}
	p.Y.Min, p.Y.Max = math.Pow(10, math.Floor(math.Log10(lo))), math.Max(1, hi)
	return writePlot(w, p, format)
}

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
