package main

import (
	"context"
	"fmt"
	"io"
	"math/big"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/draw"
	"github.com/coterie-dev/coterie/rw"
)

type plotOptions struct {
	rw     rwOptions
	in     inputOptions
	reads  []string
	metric string
	points int
	out    string
}

func newPlotCmd(s *streams) *cobra.Command {
	var o plotOptions
	cmd := &cobra.Command{
		Use:   "plot [FILE...] -o OUT.svg|OUT.png",
		Short: "Plot the optimal load or capacity of read-write systems against the read fraction",
		Long: `Draw, for each system, its optimal load (or capacity) at read fractions 0 to 1
— the strategy re-optimised at every point — on one pair of axes: quoracle's
headline figure. Systems are files (read-write JSON or any coterie file) and
--reads expressions (repeat the flag; the writes are each one's dual);
--nodes applies to the --reads systems. --f and the limits apply to all.`,
		Example: `  coterie plot --reads 'a*b*c + d*e*f' --reads 'choose(4, a, b, c, d, e, f)' -o load.svg
  coterie plot grid.json plane.json --metric capacity -o capacity.png`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPlot(cmd.Context(), s, o, args)
		},
	}
	addInputFlags(cmd, &o.in)
	cmd.Flags().StringArrayVar(&o.reads, "reads", nil, "a system's read quorums as an expression (repeatable)")
	cmd.Flags().StringVar(&o.rw.nodes, "nodes", "", "CSV of node attributes for the --reads systems")
	cmd.Flags().IntVar(&o.rw.limit, "limit", rw.DefaultListLimit, "most quorums to list where a side must be listed")
	cmd.Flags().IntVar(&o.rw.f, "f", 0, "use only f-resilient quorums")
	cmd.Flags().StringVar(&o.metric, "metric", "load", "what to draw: load|capacity")
	cmd.Flags().IntVar(&o.points, "points", 21, "number of read fractions, evenly spaced from 0 to 1")
	cmd.Flags().StringVarP(&o.out, "output", "o", "", "the picture: OUT.svg or OUT.png")
	return cmd
}

func runPlot(ctx context.Context, s *streams, o plotOptions, args []string) error {
	form := strings.TrimPrefix(strings.ToLower(filepath.Ext(o.out)), ".")
	if o.out == "" || (form != "svg" && form != "png") {
		return usageErrorf("plot needs -o OUT.svg or OUT.png")
	}
	if o.metric != "load" && o.metric != "capacity" {
		return usageErrorf("--metric must be load or capacity, not %q", o.metric)
	}
	if o.points < 2 || o.points > 1001 {
		return usageErrorf("--points must be in 2..1001")
	}
	if len(args)+len(o.reads) == 0 {
		return usageErrorf("plot needs systems: files or --reads EXPR")
	}
	fractions := make([]*big.Rat, o.points)
	xs := make([]float64, o.points)
	for i := range fractions {
		fractions[i] = big.NewRat(int64(i), int64(o.points-1))
		xs[i] = ratFloat(fractions[i])
	}
	type input struct {
		label string
		load  func() (*rw.System, error)
	}
	var inputs []input
	for _, path := range args {
		inputs = append(inputs, input{displayName(path), func() (*rw.System, error) {
			ro := o.rw
			ro.nodes = ""
			return loadRW(ctx, s, ro, o.in, []string{path})
		}})
	}
	for _, r := range o.reads {
		inputs = append(inputs, input{r, func() (*rw.System, error) {
			ro := o.rw
			ro.reads = r
			return loadRW(ctx, s, ro, o.in, nil)
		}})
	}
	title := "optimal load"
	if o.metric == "capacity" {
		title = "optimal capacity"
	}
	chart := &draw.Chart{
		Title:  title,
		X:      draw.Axis{Label: "read fraction", Include: []float64{0, 1}},
		Y:      draw.Axis{Label: o.metric, Include: []float64{0}},
		Legend: draw.TopRight,
		Grid:   true,
	}
	for _, in := range inputs {
		sys, err := in.load()
		if err != nil {
			return err
		}
		load, capacity, err := sys.LoadCurve(ctx, fractions, rw.Options{F: o.rw.f, ListLimit: o.rw.limit})
		if err != nil {
			return strategyError(s, fmt.Errorf("%s: %w", in.label, err))
		}
		vals := load
		if o.metric == "capacity" {
			vals = capacity
		}
		c := draw.Series{Label: in.label, X: xs}
		for _, v := range vals {
			c.Y = append(c.Y, ratFloat(v))
		}
		chart.Series = append(chart.Series, c)
	}
	return writeOutput(s, o.out, func(w io.Writer) error { return chart.Write(w, form) })
}
