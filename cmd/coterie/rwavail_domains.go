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
func correlated(t *domain.Tree) bool {
	if t == nil {
		return false
	}
	for d := range t.Len() {
		if t.P(d).Cmp(big.NewRat(1, 1)) < 0 {
			return true
		}
	}
	return false
}

// rwExactBudget is the BDD budget of the exact figures of a read-write
// system without domains, where they only add 1 − AV and "both" to what
// the other methods give: small, so that a system too large for it costs
// little.
const rwExactBudget = 2_000_000

// addRWExactFigures puts the exact availability of reads, writes and both
// at each p into rep, with 1 − AV, nines and downtime: under the failure
// domains of ld (which replace the independent figures: a method that
// cannot take domains into account steps aside), or, without domains,
// next to the figures already there. Without domains a system too large
// for the exact figures keeps its figures, with 1 − AV from them; with
// domains it is an error.
func addRWExactFigures(ctx context.Context, rep *jsonreport.RWAvailability, ld *rwLoaded, ps []float64, limit, budget int) error {
	sys := ld.sys
	withDomains := correlated(ld.tree)

	if ld.tree != nil {
		rep.Domains = jsonreport.FromDomains(ld.tree)
	}
	rep.Down = ld.downNames
	b := budget
	if !withDomains {
		b = min(budget, rwExactBudget)
	}
	method, pts, err := analysis.ReadWriteExact(ctx, sys, ld.tree, ps, limit, b)
	var ne *analysis.NoExactMethodError
	switch {
	case err == nil:
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded), !errors.As(err, &ne):
		return err
	case withDomains:
		return usageErrorf("no exact method fits this system with failure domains: %v (raise --limit or --max-nodes)", ne.Err)
	default:
		uniform := true
		for _, nd := range sys.Nodes {
			uniform = uniform && nd.P == nil
		}
		rep.SetSideFigures(uniform)
		return nil
	}
	rep.SetExact(method, pts, withDomains)
	return nil
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

// domainCurves are the curves of reads, writes and both under the failure
// domains of ld, exact at each p of xs.
func domainCurves(ctx context.Context, ld *rwLoaded, xs []float64, limit, budget int) ([]draw.Series, error) {
	_, exact, err := analysis.ReadWriteExact(ctx, ld.sys, ld.tree, xs, limit, budget)
	var ne *analysis.NoExactMethodError
	if errors.As(err, &ne) {
		return nil, usageErrorf("no exact method fits this system with failure domains: %v (raise --limit or --max-nodes)", ne.Err)
	}
	if err != nil {
		return nil, err
	}
	var pts [3][]availability.Point
	for _, e := range exact {
		for i, x := range []*big.Rat{e.Reads, e.Writes, e.Both} {
			f, _ := x.Float64()
			pts[i] = append(pts[i], availability.Point{P: e.P, AV: f, Exact: true})
		}
	}
	var out []draw.Series
	for i, name := range []string{"reads", "writes", "both"} {
		out = append(out, avSeries(name, pts[i], func(pt availability.Point) float64 { return pt.AV }))
	}
	return out, nil
}
