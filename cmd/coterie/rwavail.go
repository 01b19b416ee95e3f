package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/rw"
)

// runRWAvailability is `coterie availability` on a read-write system: the
// availability of reads and of writes, each exactly where a method fits,
// with the nodes file's p column as per-node probabilities.
func runRWAvailability(ctx context.Context, s *streams, o availabilityOptions, ro rwOptions, args []string, pointsGiven bool) error {
	if o.asJSON {
		o.format = "json"
	}
	if o.format != "table" && o.format != "json" && o.format != "csv" {
		return usageErrorf("--format must be table, csv or json, not %q", o.format)
	}
	ps, err := parseAvPoints(o.ps, o.rng)
	if err != nil {
		return err
	}
	if !pointsGiven {
		ps = slices.Clone(avDefaultPoints)
	}
	ro.pNode = o.pNode
	plotFormat := ""
	if o.plot != "" {
		var err error
		if plotFormat, err = plotFormatOf(o.plot); err != nil {
			return err
		}
	}
	ld, err := loadRWDomains(ctx, s, ro, o.in, args)
	if err != nil {
		return err
	}
	sys := ld.sys
	chart := avChart("Availability of reads and writes", false)
	override := map[int]float64{}
	for v, nd := range sys.Nodes {
		if nd.P != nil {
			override[v] = ratFloat(nd.P)
		}
	}
	rep := &jsonreport.RWAvailability{N: sys.N}
	xs := make([]float64, avPlotPoints)
	for i := range xs {
		xs[i] = float64(i) / (avPlotPoints - 1)
	}
	for _, side := range []struct {
		name string
		sd   *rw.Side
		dst  *jsonreport.RWSide
	}{{"reads", &sys.Reads, &rep.Reads}, {"writes", &sys.Writes, &rep.Writes}} {
		if correlated(ld.tree) {
			// The figures under the domains replace the independent
			// ones (addRWExactFigures, domainCurves): not computed.
			for _, p := range ps {
				side.dst.Points = append(side.dst.Points, jsonreport.SideAvPoint{P: p})
			}
			continue
		}
		so := analysis.SideOptions{Limit: ro.limit, Budget: o.maxNodes, Time: o.exactTime, Samples: o.samples, Seed: o.seed, Override: override}
		if o.plot != "" {
			so.Curve = xs
		}
		av, err := analysis.SideAvailability(ctx, sys, side.sd, ps, so)
		var fe *analysis.FigureError
		switch {
		case errors.As(err, &fe) && fe.Figure == analysis.Quorums:
			return usageErrorf("%s: %v (raise --limit)", side.name, fe.Err)
		case errors.As(err, &fe):
			return fe.Err
		case err != nil:
			return err
		}
		pts, cpts := av.Points, av.Curve
		side.dst.Exact, side.dst.Method = av.Exact, string(av.Method)
		if av.Poly != nil {
			side.dst.Coefficients = av.Poly.Strings()
		}
		if o.plot != "" {
			chart.Series = append(chart.Series, avSeries(side.name, cpts, func(pt availability.Point) float64 { return pt.AV }))
		}
		for _, pt := range pts {
			side.dst.Points = append(side.dst.Points, jsonreport.SideAvPoint{P: pt.P, Availability: pt.AV})
		}
	}
	if err := addRWExactFigures(ctx, rep, ld, ps, ro.limit, o.maxNodes); err != nil {
		return err
	}
	if o.plot != "" && correlated(ld.tree) {
		// The curves under the domains replace the independent ones.
		if chart.Series, err = domainCurves(ctx, ld, xs, ro.limit, o.maxNodes); err != nil {
			return err
		}
	}
	if o.plot != "" {
		if err := writeOutput(s, o.plot, func(w io.Writer) error {
			return chart.Write(w, plotFormat)
		}); err != nil {
			return err
		}
	}
	return writeOutput(s, "", func(w io.Writer) error {
		switch o.format {
		case "json":
			return writeJSON(w, rep)
		case "csv":
			if _, err := fmt.Fprintln(w, strings.Join(rwAvColumns(rep, true), ",")); err != nil {
				return err
			}
			for i := range rep.Reads.Points {
				fmt.Fprintln(w, strings.Join(rwAvRow(rep, i, o.digits, true), ","))
			}
			return nil
		}
		var rows [][]string
		for i := range rep.Reads.Points {
			rows = append(rows, rwAvRow(rep, i, o.digits, false))
		}
		return renderTable(w, rwAvColumns(rep, false), rows)
	})
}

func fmtG(x float64, digits int) string { return strconv.FormatFloat(x, 'g', digits, 64) }
