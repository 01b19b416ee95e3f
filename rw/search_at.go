package rw

import (
	"context"
	"math/big"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/domain"
)

// AvailabilityAt is, at each p of ps, the smaller of the read and the
// write availability of the candidate c over nodes (a node's own P wins
// over p), as [Search] ranks its candidates: under the failure domains of
// t, exactly, when some domain can fail, else with independent nodes.
func (c *Candidate) AvailabilityAt(ctx context.Context, nodes []Node, t *domain.Tree, ps []float64) ([]float64, error) {
	sys, err := NewContext(ctx, len(nodes), c.Reads, c.Writes, nodes)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(ps))
	if !t.Fallible() {
		pts, err := sys.AvailabilityAt(ctx, ps, AvailabilityOptions{Limit: DefaultListLimit})
		if err != nil {
			return nil, err
		}
		for i, pt := range pts {
			out[i] = min(pt.Reads, pt.Writes)
		}
		return out, nil
	}
	ev, err := NewDomainEvaluator(ctx, sys, t, DefaultListLimit, 0)
	if err != nil {
		return nil, err
	}
	for i, p := range ps {
		probs := make([]*big.Rat, sys.N)
		for v, nd := range sys.Nodes {
			if nd.P != nil {
				probs[v] = nd.P
			} else {
				probs[v] = availability.DecimalRat(p)
			}
		}
		r, w, _, err := ev.At(ctx, probs)
		if err != nil {
			return nil, err
		}
		if w.Cmp(r) < 0 {
			r = w
		}
		out[i], _ = r.Float64()
	}
	return out, nil
}
