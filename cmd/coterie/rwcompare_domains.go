package main

import (
	"context"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/jsonreport"
)

// addCompareDomains adds to a row of compare the exact figures (reads,
// writes and both, with 1 − AV, nines and downtime; under the failure
// domains, which then replace the independent values).
func addCompareDomains(ctx context.Context, row *jsonreport.RWCompareRow, ld *rwLoaded, ps []float64, limit int, noAV bool) error {
	row.Down = ld.downNames
	if noAV || len(row.Availability) == 0 {
		return nil
	}
	rep := &jsonreport.RWAvailability{N: ld.sys.N}
	for _, a := range row.Availability {
		rep.Reads.Points = append(rep.Reads.Points, jsonreport.SideAvPoint{P: a.P, Availability: a.Reads})
		rep.Writes.Points = append(rep.Writes.Points, jsonreport.SideAvPoint{P: a.P, Availability: a.Writes})
	}
	rep.Reads.Exact, rep.Writes.Exact = row.Availability[0].Exact, row.Availability[0].Exact
	if err := addRWExactFigures(ctx, rep, ld, ps, limit, availability.DefaultBudget); err != nil {
		return err
	}
	if correlated(ld.tree) {
		for i := range row.Availability {
			row.Availability[i].Reads = rep.Reads.Points[i].Availability
			row.Availability[i].Writes = rep.Writes.Points[i].Availability
			row.Availability[i].Exact = true
		}
	}
	row.Figures = rep
	return nil
}

// compareDomainHeader is the table's extra columns: both at once and its
// nines at each p, and the domain resilience, when some row has them.
func compareDomainHeader(rows []jsonreport.RWCompareRow, ps []float64) []string {
	var h []string
	if len(rows) > 0 && rows[0].Figures != nil && rows[0].Figures.Both != nil {
		for _, p := range ps {
			v := strconv.FormatFloat(p, 'g', -1, 64)
			h = append(h, "both AV("+v+")", "nines both("+v+")")
		}
	}
	for _, r := range rows {
		if r.DomainResilience != nil {
			return append(h, "domain resilience")
		}
	}
	return h
}

func compareDomainCells(rows []jsonreport.RWCompareRow, r jsonreport.RWCompareRow) []string {
	var c []string
	if len(rows) > 0 && rows[0].Figures != nil && rows[0].Figures.Both != nil {
		for i := range rows[0].Figures.Both.Points {
			if r.Figures == nil || r.Figures.Both == nil || i >= len(r.Figures.Both.Points) {
				c = append(c, "", "")
				continue
			}
			pt := r.Figures.Both.Points[i]
			c = append(c, avShow(availability.Point{P: pt.P, AV: pt.Availability, Exact: true}, pt.U, 6), ninesText(pt.U))
		}
	}
	for _, x := range rows {
		if x.DomainResilience != nil {
			var parts []string
			for _, j := range r.DomainResilience {
				name := j.Name
				if name == "" {
					name = "level " + strconv.Itoa(j.Level)
				}
				parts = append(parts, name+": "+strconv.Itoa(j.Resilience)+" of "+strconv.Itoa(j.Domains))
			}
			return append(c, strings.Join(parts, ", "))
		}
	}
	return c
}
