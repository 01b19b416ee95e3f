package rw

import (
	"context"
	"time"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/set"
)

// AvPoint is the availability of reads and of writes when every node is
// up with probability P (a node with its own Node.P keeps it); Exact is
// false when some side's value is an estimate.
type AvPoint struct {
	P, Reads, Writes float64
	Exact            bool
}

// AvailabilityOptions bound [System.AvailabilityAt]: Limit the quorums a
// side may list (0: no bound), Time the exact search on each side (0: no
// bound; past it the value is estimated).
type AvailabilityOptions struct {
	Limit int
	Time  time.Duration
}

// AvailabilityAt returns the availability of each side at each p, with the
// nodes' own p where given: by independence for a side that uses each node
// once, otherwise from its quorums. A side beyond o.Limit quorums is
// refused with [set.ErrTooMany].
func (s *System) AvailabilityAt(ctx context.Context, ps []float64, o AvailabilityOptions) ([]AvPoint, error) {
	override := map[int]float64{}
	for v, nd := range s.Nodes {
		if nd.P != nil {
			override[v], _ = nd.P.Float64()
		}
	}
	out := make([]AvPoint, len(ps))
	for i, p := range ps {
		out[i] = AvPoint{P: p, Exact: true}
	}
	for side, sd := range []*Side{&s.Reads, &s.Writes} {
		vals := make([]float64, len(ps))
		exact := true
		if e := sd.Expr; e.ReadOnce() {
			for i, p := range ps {
				vals[i] = e.Probability(func(v int) float64 {
					if x, ok := override[v]; ok {
						return x
					}
					return p
				})
			}
		} else {
			fam, err := s.sideFamily(ctx, sd, o.Limit)
			if err != nil {
				return nil, err
			}
			res, err := availability.Compute(ctx, fam, availability.Options{Time: o.Time})
			if err != nil {
				return nil, err
			}
			pts, err := res.Evaluate(ctx, ps, availability.EvalOptions{Override: override, Seed: 1})
			if err != nil {
				return nil, err
			}
			for i, pt := range pts {
				vals[i] = pt.AV
				exact = exact && pt.Exact
			}
		}
		for i, v := range vals {
			if side == 0 {
				out[i].Reads = v
			} else {
				out[i].Writes = v
			}
			out[i].Exact = out[i].Exact && exact
		}
	}
	return out, nil
}

// SideFamily returns side sd of s as a family over s.N nodes: a threshold
// family when the side is "k of all the nodes", otherwise its minimal
// quorums listed ([Side.Family], at most limit of them).
func (s *System) SideFamily(sd *Side, limit int) (*set.Family, error) {
	return s.sideFamily(context.Background(), sd, limit)
}

func (s *System) sideFamily(ctx context.Context, sd *Side, limit int) (*set.Family, error) {
	if k, nodes, ok := sd.Expr.AsThreshold(); ok && len(nodes) == s.N {
		return set.NewThreshold(s.N, k), nil
	}
	return sd.FamilyContext(ctx, s.N, limit)
}
