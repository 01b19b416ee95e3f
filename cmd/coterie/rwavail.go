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
	ao := analysis.RWAvOptions{Domains: ld.tree,
		SideOptions: analysis.SideOptions{Limit: ro.limit, Budget: o.maxNodes, Time: o.exactTime, Samples: o.samples, Seed: o.seed}}
	if o.plot != "" {
		ao.Curve = make([]float64, avPlotPoints)
		for i := range ao.Curve {
			ao.Curve[i] = float64(i) / (avPlotPoints - 1)
		}
	}
	av, err := analysis.RWAvailability(ctx, sys, ps, ao)
	var se *analysis.SideError
	var fe *analysis.FigureError
	switch {
	case errors.As(err, &se) && errors.As(err, &fe) && fe.Figure == analysis.Quorums:
		return usageErrorf("%s: %v (raise --limit)", se.Side, fe.Err)
	case errors.As(err, &se) && errors.As(err, &fe):
		return fe.Err
	case errors.As(err, &se):
		return se.Err
	case err != nil:
		return rwExactError(err)
	}
	rep := jsonreport.FromRWAvailability(sys, av, ps, ld.tree, ld.downNames)
	switch {
	case o.plot == "":
	case av.Correlated:
		// The curves under the domains replace the independent ones.
		chart.Series = exactSeries(av.ExactCurve)
	default:
		for _, side := range []struct {
			name string
			av   *analysis.SideAv
		}{{"reads", av.Reads}, {"writes", av.Writes}} {
			chart.Series = append(chart.Series, avSeries(side.name, side.av.Curve, func(pt availability.Point) float64 { return pt.AV }))
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
