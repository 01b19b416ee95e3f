package rw

import (
	"context"
	"fmt"
	"io"
	"math/big"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Curve is one system's optimal load (or capacity) against the read
// fraction.
type Curve struct {
	Label    string
	Fraction []float64
	Value    []float64
}

// LoadCurve returns the optimal load and capacity of s at each read
// fraction (each fraction on its own, the strategy re-optimised), with the
// other options of opts (f, capacities, limits).
func (s *System) LoadCurve(ctx context.Context, fractions []*big.Rat, opts Options) (load, capacity []*big.Rat, err error) {
	for _, fr := range fractions {
		o := opts
		o.Workload = Fixed(fr)
		_, m, err := s.Optimal(ctx, o)
		if err != nil {
			return nil, nil, fmt.Errorf("rw: read fraction %s: %w", fr.RatString(), err)
		}
		load, capacity = append(load, m.Load), append(capacity, m.Capacity)
	}
	return load, capacity, nil
}

// PlotCurves draws the curves on one pair of axes — read fraction from 0
// to 1 against yLabel — with a legend, and writes the picture to w as
// format ("svg" or "png"), 6 × 4.5 inches; quoracle's headline figure. The
// same curves give the same bytes.
func PlotCurves(w io.Writer, format, title, yLabel string, curves []Curve) error {
	if format != "svg" && format != "png" {
		return fmt.Errorf("rw: plot: format %q: want svg or png", format)
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "read fraction"
	p.Y.Label.Text = yLabel
	p.X.Min, p.X.Max = 0, 1
	p.Y.Min = 0
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	for i, c := range curves {
		if len(c.Fraction) != len(c.Value) {
			return fmt.Errorf("rw: plot: curve %q has %d points and %d values", c.Label, len(c.Fraction), len(c.Value))
		}
		xys := make(plotter.XYs, len(c.Fraction))
		for j := range c.Fraction {
			xys[j].X, xys[j].Y = c.Fraction[j], c.Value[j]
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return fmt.Errorf("rw: plot: curve %q: %w", c.Label, err)
		}
		l.LineStyle = draw.LineStyle{Color: plotutil.DarkColors[i%len(plotutil.DarkColors)], Width: vg.Points(1.5)}
		p.Add(l)
		p.Legend.Add(c.Label, l)
	}
	wt, err := p.WriterTo(6*vg.Inch, 4.5*vg.Inch, format)
	if err != nil {
		return fmt.Errorf("rw: plot: %w", err)
	}
	if _, err := wt.WriteTo(w); err != nil {
		return fmt.Errorf("rw: plot: %w", err)
	}
	return nil
}
