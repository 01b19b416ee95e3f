package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/rw"
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
	// 1 − AV, its nines and the downtime per year in seconds (of
	// 365.25 days): see rwavail_domains.go.
	Unavailability  json.Number  `json:"unavailability,omitempty"`
	Nines           *json.Number `json:"nines,omitempty"`
	DowntimePerYear json.Number  `json:"downtime_per_year,omitempty"`
	u               *big.Float
}

type rwAvReport struct {
	N      int      `json:"n"`
	Reads  rwAvSide `json:"reads"`
	Writes rwAvSide `json:"writes"`
	// Both is the probability that a read and a write quorum are up at
	// once; Domains the failure domains and Down what --down failed.
	Both    *rwAvSide      `json:"both,omitempty"`
	Domains []rwDomainJSON `json:"domains,omitempty"`
	Down    []string       `json:"down,omitempty"`
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
	rep := &rwAvReport{N: sys.N}
	xs := make([]float64, avPlotPoints)
	for i := range xs {
		xs[i] = float64(i) / (avPlotPoints - 1)
	}
	for _, side := range []struct {
		name string
		sd   *rw.Side
		dst  *rwAvSide
	}{{"reads", &sys.Reads, &rep.Reads}, {"writes", &sys.Writes, &rep.Writes}} {
		var pts, cpts []availability.Point
		if correlated(ld.tree) {
			// The figures under the domains replace the independent
			// ones (addRWExactFigures, domainCurves): not computed.
			for _, p := range ps {
				side.dst.Points = append(side.dst.Points, avPointJ{P: p})
			}
			continue
		}
		if e := side.sd.Expr; e.ReadOnce() {
			// A read-once formula: the exact coefficients by composition
			// and each value by independence, however many quorums.
			side.dst.Exact, side.dst.Method = true, "read-once formula"
			side.dst.Coefficients = widen(e.Coefficients(), e.Nodes().Len(), sys.N)
			at := func(p float64) availability.Point {
				return availability.Point{P: p, Exact: true, AV: e.Probability(func(v int) float64 {
					if x, ok := override[v]; ok {
						return x
					}
					return p
				})}
			}
			for _, p := range ps {
				pts = append(pts, at(p))
			}
			if o.plot != "" {
				for _, p := range xs {
					cpts = append(cpts, at(p))
				}
			}
		} else {
			fam, err := sys.SideFamily(side.sd, ro.limit)
			if err != nil {
				return usageErrorf("%s: %v (raise --limit)", side.name, err)
			}
			res, err := availability.Compute(ctx, fam, availability.Options{Budget: o.maxNodes, Time: o.exactTime})
			if err != nil {
				return err
			}
			if pts, err = res.Evaluate(ctx, ps, availability.EvalOptions{Override: override, Samples: o.samples, Seed: o.seed, Budget: o.maxNodes}); err != nil {
				return err
			}
			if o.plot != "" {
				if cpts, err = res.Evaluate(ctx, xs, availability.EvalOptions{Override: override, Samples: max(o.samples/16, 1<<12), Seed: o.seed, Budget: o.maxNodes}); err != nil {
					return err
				}
			}
			side.dst.Exact, side.dst.Method = res.Exact, string(res.Method)
			if res.Exact {
				side.dst.Coefficients = res.Poly.Strings()
			}
		}
		if o.plot != "" {
			chart.Series = append(chart.Series, avSeries(side.name, cpts, func(pt availability.Point) float64 { return pt.AV }))
		}
		for _, pt := range pts {
			side.dst.Points = append(side.dst.Points, avPointJ{P: pt.P, Availability: pt.AV})
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

// widen turns the coefficients of a formula over m of the n nodes into
// those over all n: the other n−m nodes are free, so A[i] = Σ_j c[j]·C(n−m, i−j).
func widen(c []*big.Int, m, n int) []string {
	out := make([]string, n+1)
	var t, b big.Int
	for i := range out {
		a := new(big.Int)
		for j := max(0, i-(n-m)); j <= min(i, m); j++ {
			b.Binomial(int64(n-m), int64(i-j))
			a.Add(a, t.Mul(c[j], &b))
		}
		out[i] = a.String()
	}
	return out
}
