package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/coterie-dev/coterie/protocol"
)

// plotMessages draws messages per entry against the number of nodes, one
// line per protocol, in the format path's extension names.
func plotMessages(w io.Writer, path string, runs []simRun, load protocol.Load) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Messages per critical-section entry, %s demand", load)
	p.X.Label.Text = "N (nodes)"
	p.Y.Label.Text = "messages per entry"
	p.Legend.Top = true
	p.Legend.Left = true
	var names []string
	by := map[string]plotter.XYs{}
	for _, r := range runs {
		name := r.res.Protocol
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
		by[name] = append(by[name], plotter.XY{X: float64(r.res.N), Y: r.res.MessagesPerEntry})
	}
	var args []any
	for _, name := range names {
		xys := by[name]
		slices.SortStableFunc(xys, func(a, b plotter.XY) int {
			switch {
			case a.X < b.X:
				return -1
			case a.X > b.X:
				return 1
			}
			return 0
		})
		args = append(args, name, xys)
	}
	if err := plotutil.AddLinePoints(p, args...); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	wt, err := p.WriterTo(6*vg.Inch, 4*vg.Inch, strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), "."))
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	_, err = wt.WriteTo(w)
	return err
}
