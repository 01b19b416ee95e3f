package measure

import (
	"context"

	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/set"
)

// Resilience is the largest number f of node failures that always leaves
// some quorum alive: one less than the smallest transversal (a set of nodes
// meeting every quorum, whose failure leaves no quorum alive), which
// Witness holds. A threshold family of w-subsets of n nodes has f = n − w.
type Resilience struct {
	F       int
	Witness *set.Set // a smallest set of nodes whose failure stops every quorum
}

// ResilienceOf computes the resilience of f exactly, through a smallest
// transversal (domination.MinTransversal, exponential in the worst case and
// cancelled by ctx).
func ResilienceOf(ctx context.Context, f *set.Family) (*Resilience, error) {
	t, err := domination.MinTransversal(ctx, f)
	if err != nil {
		return nil, err
	}
	return &Resilience{F: t.Len() - 1, Witness: t}, nil
}
