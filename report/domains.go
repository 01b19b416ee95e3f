package report

import (
	"context"
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/rw"
	"github.com/coterie-dev/coterie/set"
)

// RWDomains is what the report says of a read-write system's failure
// domains: the tree, the resilience at each level, and what is left when
// each top-level domain is down.
type RWDomains struct {
	Tree       *domain.Tree
	Resilience [][2]domain.Resilience // per level: reads, writes
	WhatIf     []RWWhatIf
}

// RWWhatIf is the system with one top-level domain down: whether a read
// and a write quorum survive, the capacity of the optimal strategy on the
// live nodes, and the availability of reads and writes at once.
type RWWhatIf struct {
	Domain        string
	Survives      bool
	CapacityExact string
	CapacityNote  string           // why the capacity is missing
	Both          []RWAvailability // Reads holds "both"; Writes unused
	Nines         []float64        // of Both, from the exact 1 − AV
}

// AnalyzeRWDomains adds the failure domains of t to r: the figures of
// availability become those under the domains (exact, by
// [rw.DomainEvaluator]), and r.Domains gets the tree, the resilience per
// level and the what-if of each top-level domain down.
func AnalyzeRWDomains(ctx context.Context, r *RWSystem, t *domain.Tree, o RWOptions) error {
	sys := r.Sys
	if len(o.Points) == 0 {
		o.Points = defaultRWPoints
	}
	d := &RWDomains{Tree: t}
	for l := 1; l <= t.Depth(); l++ {
		rr, wr, err := sys.DomainResilience(ctx, t, l, rw.DefaultListLimit)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			r.Figures.Notes = append(r.Figures.Notes, "domain resilience at level "+t.LevelName(l)+" not computed: "+err.Error())
			d.Resilience = append(d.Resilience, [2]domain.Resilience{{Level: l, K: -2}, {Level: l, K: -2}})
			continue
		}
		d.Resilience = append(d.Resilience, [2]domain.Resilience{rr, wr})
	}
	var nines []float64
	both := func(s *rw.System) ([]RWAvailability, []RWAvailability, error) {
		nines = nil
		ev, err := rw.NewDomainEvaluator(ctx, s, t, rw.DefaultListLimit, availability.DefaultBudget)
		if err != nil {
			return nil, nil, err
		}
		var sides, b []RWAvailability
		for _, p := range o.Points {
			probs := make([]*big.Rat, s.N)
			for v := range probs {
				if x := s.Nodes[v].P; x != nil {
					probs[v] = x
				} else {
					probs[v] = availability.DecimalRat(p)
				}
			}
			pr, pw, pb, err := ev.At(ctx, probs)
			if err != nil {
				return nil, nil, err
			}
			fr, _ := pr.Float64()
			fw, _ := pw.Float64()
			fb, _ := pb.Float64()
			sides = append(sides, RWAvailability{P: p, Reads: fr, Writes: fw, Exact: true})
			b = append(b, RWAvailability{P: p, Reads: fb, Exact: true})
			nines = append(nines, availability.Exact{AV: pb}.Nines())
		}
		return sides, b, nil
	}
	sides, _, err := both(sys)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		r.Figures.Exact = nil
		r.Figures.Notes = append(r.Figures.Notes, "availability under the failure domains not computed: "+err.Error())
	} else {
		r.Figures.Availability = sides
		if r.Figures.Exact, err = rwExact(ctx, sys, t, o.Points, availability.DefaultBudget); err != nil {
			return err
		}
		r.Figures.Notes = append(r.Figures.Notes, "availability: under the failure domains, exactly")
	}
	for _, top := range t.Roots() {
		w := RWWhatIf{Domain: t.Path(top)}
		dead := t.Under(top)
		deadSet := set.New(sys.N)
		for _, v := range dead {
			deadSet.Add(v)
		}
		left, err := sys.Without(deadSet)
		if err == nil {
			w.Survives = true
			if o.Workload != nil {
				lctx, cancel := ctx, context.CancelFunc(func() {})
				if o.Budget > 0 {
					lctx, cancel = context.WithTimeout(ctx, o.Budget)
				}
				_, m, err := left.Optimal(lctx, rw.Options{Workload: o.Workload, ListLimit: rw.DefaultListLimit})
				cancel()
				switch {
				case err == nil:
					w.CapacityExact = m.Capacity.RatString()
				case ctx.Err() != nil:
					return ctx.Err()
				case errors.Is(err, context.DeadlineExceeded):
					w.CapacityNote = "not computed within the budget"
				default:
					w.CapacityNote = "not computed: " + err.Error()
				}
			}
			if _, b, err := both(left); err == nil {
				w.Both, w.Nines = b, nines
			}
		} else if !errors.Is(err, rw.ErrNoQuorum) {
			return err
		}
		d.WhatIf = append(d.WhatIf, w)
	}
	r.Domains = d
	return nil
}

// domainTables are the report's tables on the failure domains: the tree,
// the resilience per level, and the what-if of each top-level domain.
func domainTables(s *RWSystem) (tree, res, whatIf table) {
	d := s.Domains
	t := d.Tree
	tree.head = []string{"domain", "level", "nodes", "p up"}
	for l := 1; l <= t.Depth(); l++ {
		for _, x := range t.AtLevel(l) {
			var names []string
			for _, v := range t.Under(x) {
				names = append(names, s.Sys.Label(v))
			}
			tree.rows = append(tree.rows, []string{t.Path(x), t.LevelName(l), strings.Join(names, ", "), domain.RatString(t.P(x))})
		}
	}
	res.head = []string{"level", "domains", "read resilience", "write resilience", "resilience", "smallest killing set"}
	kill := func(r domain.Resilience) []string {
		var out []string
		for _, x := range r.Killing {
			out = append(out, t.Path(x))
		}
		return out
	}
	for i, lv := range d.Resilience {
		if lv[0].K == -2 {
			continue // not computed: see the notes
		}
		k := lv[0]
		if lv[0].Killing == nil || (lv[1].Killing != nil && len(lv[1].Killing) < len(lv[0].Killing)) {
			k = lv[1]
		}
		ks := "none"
		if k.Killing != nil {
			ks = "{" + strings.Join(kill(k), ", ") + "}"
		}
		res.rows = append(res.rows, []string{t.LevelName(i + 1), strconv.Itoa(lv[0].Domains), strconv.Itoa(lv[0].K), strconv.Itoa(lv[1].K), strconv.Itoa(min(lv[0].K, lv[1].K)), ks})
	}
	whatIf.head = []string{"down", "a quorum survives", "capacity"}
	var ps []float64
	for _, w := range d.WhatIf {
		for _, b := range w.Both {
			ps = append(ps, b.P)
		}
		if ps != nil {
			break
		}
	}
	for _, p := range ps {
		whatIf.head = append(whatIf.head, "reads and writes available at p = "+fl(p), "nines")
	}
	for _, w := range d.WhatIf {
		row := []string{w.Domain, strconv.FormatBool(w.Survives), exactText(w.CapacityExact)}
		switch {
		case !w.Survives:
			row[2] = "none"
		case w.CapacityNote != "":
			row[2] = w.CapacityNote
		}
		for i := range ps {
			if i >= len(w.Both) {
				row = append(row, "0", "0")
				continue
			}
			n := "∞"
			if !math.IsInf(w.Nines[i], 1) {
				n = strconv.FormatFloat(w.Nines[i], 'f', 2, 64)
			}
			row = append(row, strconv.FormatFloat(w.Both[i].Reads, 'f', 6, 64), n)
		}
		whatIf.rows = append(whatIf.rows, row)
	}
	return tree, res, whatIf
}

// exactBudget is the BDD budget of the exact figures of a system without
// domains, which only add 1 − AV and "both" to the report's figures.
const exactBudget = 2_000_000

// RWExactPoint holds, at one p, the exact 1 − AV of reads, of writes and
// of both at once, with their nines and downtime per year (seconds of a
// year of 365.25 days).
type RWExactPoint struct {
	P    float64
	Side [3]RWUnavailable // reads, writes, both
}

// RWUnavailable is one exact unavailability.
type RWUnavailable struct {
	AV              float64
	U               *big.Float // 1 − AV, exact to 256 bits
	Nines, Downtime float64
}

// rwExact computes the exact figures of reads, writes and both at each p,
// under t (nil for independent nodes); an error when no exact method fits
// within the budget.
func rwExact(ctx context.Context, sys *rw.System, t *domain.Tree, ps []float64, budget int) ([]RWExactPoint, error) {
	_, exact, err := analysis.ReadWriteExact(ctx, sys, t, ps, rw.DefaultListLimit, budget)
	if err != nil {
		return nil, err
	}
	var out []RWExactPoint
	for _, x := range exact {
		pt := RWExactPoint{P: x.P}
		for i, av := range []*big.Rat{x.Reads, x.Writes, x.Both} {
			e := availability.Exact{AV: av}
			f, _ := av.Float64()
			pt.Side[i] = RWUnavailable{AV: f, U: new(big.Float).SetPrec(256).SetRat(e.Unavailability()), Nines: e.Nines(), Downtime: e.Downtime()}
		}
		out = append(out, pt)
	}
	return out, nil
}

// exactRows are the figures' rows of the exact points: each side's
// availability (never rounded to 1), 1 − AV, nines and downtime.
func exactRows(pts []RWExactPoint) [][]string {
	var rows [][]string
	names := []string{"reads", "writes", "reads and writes"}
	for _, pt := range pts {
		pv := fl(pt.P)
		for i, u := range pt.Side {
			n := "∞"
			if !math.IsInf(u.Nines, 1) {
				n = strconv.FormatFloat(u.Nines, 'f', 2, 64)
			}
			rows = append(rows, []string{names[i] + " available at p = " + pv,
				avText(u) + " (1 − AV = " + uText(u.U) + ", " + n + " nines, down " + Seconds(u.Downtime) + " a year)"})
		}
	}
	return rows
}

// avText prints AV with six decimals, or with as many as it takes not to
// round it to 1.
func avText(u RWUnavailable) string {
	s := strconv.FormatFloat(u.AV, 'f', 6, 64)
	if u.U.Sign() == 0 || s != "1.000000" {
		return s
	}
	d := int(math.Floor(u.Nines)) + 3
	if d > 60 {
		return "1 − " + uText(u.U)
	}
	one := new(big.Float).SetPrec(256).SetInt64(1)
	return strings.TrimRight(one.Sub(one, u.U).Text('f', d), "0")
}

func uText(u *big.Float) string {
	if u.Sign() == 0 {
		return "0"
	}
	return u.Text('g', 3)
}
