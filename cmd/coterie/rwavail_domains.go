package main

import (
	"context"
	"errors"
	"math/big"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/draw"
	"github.com/coterie-dev/coterie/jsonreport"
)

// correlated reports whether some domain of t may fail.
func correlated(t *domain.Tree) bool { return analysis.Correlated(t) }

// addRWExactFigures puts the exact availability of reads, writes and both
// at each p into rep, with 1 − AV, nines and downtime: under the failure
// domains of ld (which replace the independent figures), or, without
// domains, next to the figures already there. Without domains a system
// too large for the exact figures keeps its figures, with 1 − AV from
// them; with domains it is an error.
func addRWExactFigures(ctx context.Context, rep *jsonreport.RWAvailability, ld *rwLoaded, ps []float64, limit, budget int) error {
	method, pts, err := analysis.RWExactFigures(ctx, ld.sys, ld.tree, ps, limit, budget)
	var ne *analysis.NoExactMethodError
	switch {
	case err == nil:
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded), !errors.As(err, &ne), correlated(ld.tree):
		return rwExactError(err)
	}
	rep.SetFigures(ld.sys, method, pts, err == nil, ld.tree, ld.downNames)
	return nil
}

// rwExactError is the error of exact figures that no method could give
// under failure domains.
func rwExactError(err error) error {
	var ne *analysis.NoExactMethodError
	if errors.As(err, &ne) {
		return usageErrorf("no exact method fits this system with failure domains: %v (raise --limit or --max-nodes)", ne.Err)
	}
	return err
}

// rwAvColumns are the table's and the CSV's columns after p: for reads,
// writes and (when computed) both, the availability, then 1 − AV, nines
// and the downtime per year in seconds.
func rwAvColumns(rep *jsonreport.RWAvailability, csv bool) []string {
	cols := []string{"p", "reads", "writes"}
	if rep.Both != nil {
		cols = append(cols, "both")
	}
	for _, side := range rwAvSides(rep) {
		if csv {
			cols = append(cols, side.name+"_unavailability", side.name+"_nines", side.name+"_downtime_per_year_s")
		} else {
			cols = append(cols, "1−AV "+side.name, "nines "+side.name, "downtime/yr "+side.name)
		}
	}
	return cols
}

type namedSide struct {
	name string
	side *jsonreport.RWSide
}

func rwAvSides(rep *jsonreport.RWAvailability) []namedSide {
	out := []namedSide{{"reads", &rep.Reads}, {"writes", &rep.Writes}}
	if rep.Both != nil {
		out = append(out, namedSide{"both", rep.Both})
	}
	return out
}

// rwAvRow is row i of the table (or the CSV).
func rwAvRow(rep *jsonreport.RWAvailability, i, digits int, csv bool) []string {
	row := []string{fmtG(rep.Reads.Points[i].P, digits)}
	sides := rwAvSides(rep)
	for _, sd := range sides {
		pt := sd.side.Points[i]
		if pt.U != nil && sd.side.Exact {
			row = append(row, avShow(availability.Point{P: pt.P, AV: pt.Availability, Exact: true}, pt.U, digits))
		} else {
			row = append(row, fmtG(pt.Availability, digits))
		}
	}
	for _, sd := range sides {
		pt := sd.side.Points[i]
		if pt.U == nil {
			row = append(row, "", "", "")
			continue
		}
		if csv {
			row = append(row, u2s(pt.U, digits), ninesNumber(pt.U), downtimeNumber(pt.U))
		} else {
			row = append(row, u2s(pt.U, 3), ninesText(pt.U), downtimeText(availability.Downtime(pt.U)))
		}
	}
	return row
}

// exactSeries are the curves of reads, writes and both through the
// exact figures pts.
func exactSeries(pts []analysis.RWExact) []draw.Series {
	var av [3][]availability.Point
	for _, e := range pts {
		for i, x := range []*big.Rat{e.Reads, e.Writes, e.Both} {
			f, _ := x.Float64()
			av[i] = append(av[i], availability.Point{P: e.P, AV: f, Exact: true})
		}
	}
	var out []draw.Series
	for i, name := range []string{"reads", "writes", "both"} {
		out = append(out, avSeries(name, av[i], func(pt availability.Point) float64 { return pt.AV }))
	}
	return out
}
