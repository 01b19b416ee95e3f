package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/rw"
	"github.com/coterie-dev/coterie/set"
)

// rwAvSide is the availability report of one side of a read-write system.
type rwAvSide struct {
	Exact        bool       `json:"exact"`
	Method       string     `json:"method"`
	Coefficients []string   `json:"coefficients,omitempty"`
	Points       []avPointJ `json:"points"`
}

type avPointJ struct {
	P            float64 `json:"p"`
	Availability float64 `json:"availability"`
}

type rwAvReport struct {
	N      int      `json:"n"`
	Reads  rwAvSide `json:"reads"`
	Writes rwAvSide `json:"writes"`
}

// sideFamily returns a side as a family for package availability: its
// list, the threshold form of choose(k, all nodes), or its minimal quorums
// listed up to limit.
func sideFamily(sys *rw.System, sd *rw.Side, limit int) (*set.Family, error) {
	if k, nodes, ok := sd.Expr.AsThreshold(); ok && len(nodes) == sys.N {
		return set.NewThreshold(sys.N, k), nil
	}
	return sd.Family(sys.N, limit)
}

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
	if o.pNode != "" {
		return usageErrorf("--p-node: give a read-write system's node probabilities in the p column of --nodes")
	}
	plotFormat := ""
	if o.plot != "" {
		plotFormat = strings.TrimPrefix(strings.ToLower(filepath.Ext(o.plot)), ".")
		if !slices.Contains(availability.PlotFormats, plotFormat) {
			return usageErrorf("--plot %s: the file name must end in .svg or .png", o.plot)
		}
	}
	sys, err := loadRW(ctx, s, ro, o.in, args)
	if err != nil {
		return err
	}
	var curves []availability.Curve
	override := map[int]float64{}
	for v, nd := range sys.Nodes {
		if nd.P != nil {
			override[v] = ratFloat(nd.P)
		}
	}
	rep := &rwAvReport{N: sys.N}
	for _, side := range []struct {
		name string
		sd   *rw.Side
		dst  *rwAvSide
	}{{"reads", &sys.Reads, &rep.Reads}, {"writes", &sys.Writes, &rep.Writes}} {
		fam, err := sideFamily(sys, side.sd, ro.limit)
		if err != nil {
			return usageErrorf("%s: %v (raise --limit)", side.name, err)
		}
		res, err := availability.Compute(ctx, fam, availability.Options{Budget: o.maxNodes, Time: o.exactTime})
		if err != nil {
			return err
		}
		pts, err := res.Evaluate(ctx, ps, availability.EvalOptions{Override: override, Samples: o.samples, Seed: o.seed, Budget: o.maxNodes})
		if err != nil {
			return err
		}
		if o.plot != "" {
			xs := make([]float64, avPlotPoints)
			for i := range xs {
				xs[i] = float64(i) / (avPlotPoints - 1)
			}
			cpts, err := res.Evaluate(ctx, xs, availability.EvalOptions{Override: override, Samples: max(o.samples/16, 1<<12), Seed: o.seed, Budget: o.maxNodes})
			if err != nil {
				return err
			}
			c := availability.Curve{Label: side.name, P: xs}
			for _, pt := range cpts {
				c.AV = append(c.AV, pt.AV)
				c.Estimate = c.Estimate || !pt.Exact
			}
			curves = append(curves, c)
		}
		side.dst.Exact, side.dst.Method = res.Exact, string(res.Method)
		if res.Exact {
			side.dst.Coefficients = res.Poly.Strings()
		}
		for _, pt := range pts {
			side.dst.Points = append(side.dst.Points, avPointJ{P: pt.P, Availability: pt.AV})
		}
	}
	if o.plot != "" {
		if err := writeOutput(s, o.plot, func(w io.Writer) error {
			return availability.Plot(w, plotFormat, "Availability of reads and writes", curves)
		}); err != nil {
			return err
		}
	}
	return writeOutput(s, "", func(w io.Writer) error {
		switch o.format {
		case "json":
			return writeJSON(w, rep)
		case "csv":
			if _, err := fmt.Fprintln(w, "p,reads,writes"); err != nil {
				return err
			}
			for i := range rep.Reads.Points {
				fmt.Fprintf(w, "%s,%s,%s\n", fmtG(rep.Reads.Points[i].P, o.digits), fmtG(rep.Reads.Points[i].Availability, o.digits), fmtG(rep.Writes.Points[i].Availability, o.digits))
			}
			return nil
		}
		var rows [][]string
		for i := range rep.Reads.Points {
			rows = append(rows, []string{fmtG(rep.Reads.Points[i].P, o.digits), fmtG(rep.Reads.Points[i].Availability, o.digits), fmtG(rep.Writes.Points[i].Availability, o.digits)})
		}
		return renderTable(w, []string{"p", "reads", "writes"}, rows)
	})
}

func fmtG(x float64, digits int) string { return strconv.FormatFloat(x, 'g', digits, 64) }
