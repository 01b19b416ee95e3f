package measure

import (
	"context"
	"errors"
	"math/big"

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
	// Bounded reports that the search ran out of work before proving
	// Witness smallest: then Lower ≤ resilience ≤ F, both proved (F from
	// Witness, the smallest transversal found, less one).
	Bounded bool
	Lower   int
}

// DefaultResilienceWork is the number of branch-and-bound nodes
// [ResilienceBounded] spends by default: a work count, so the answer is the
// same on every machine.
const DefaultResilienceWork = 100_000

// ResilienceBounded is [ResilienceOf] within maxNodes branch-and-bound
// nodes (0: DefaultResilienceWork). Past them it returns proved bounds,
// Bounded set: the upper from the smallest transversal found, the lower
// the larger of the search's root bound and the fractional one, τ ≥ ⌈1/L⌉
// (a transversal is a fractional cover, of weight at least the inverse of
// the load), with the exact load from [LoadOf] or, past its work limit,
// the upper bound it proves.
func ResilienceBounded(ctx context.Context, f *set.Family, maxNodes uint64) (*Resilience, error) {
	return ResilienceWithin(ctx, f, ResilienceOptions{MaxNodes: maxNodes})
}

// ResilienceOptions bound [ResilienceWithin].
type ResilienceOptions struct {
	// MaxNodes is the branch-and-bound nodes to spend (0:
	// DefaultResilienceWork).
	MaxNodes uint64
	// Load, if not nil, is f's load as [LoadOf] gave it, so that the
	// fractional bound need not solve the linear program again.
	Load *Load
}

// ResilienceWithin is [ResilienceBounded] with options.
func ResilienceWithin(ctx context.Context, f *set.Family, o ResilienceOptions) (*Resilience, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return nil, err
	}
	maxNodes := o.MaxNodes
	if maxNodes == 0 {
		maxNodes = DefaultResilienceWork
	}
	t, lower, err := domination.MinTransversalBounded(ctx, f, maxNodes)
	if err == nil {
		return &Resilience{F: t.Len() - 1, Witness: t, Lower: t.Len() - 1}, nil
	}
	if !errors.Is(err, domination.ErrWorkLimit) || t == nil {
		return nil, err
	}
	l := o.Load
	if l == nil {
		if l, err = LoadOf(ctx, f, LoadOptions{}); err != nil && !errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrLP) {
			return nil, err
		}
	}
	upper := (*big.Rat)(nil)
	if l != nil {
		upper = l.Exact
		if l.Method == MethodBounds {
			upper = l.Upper
		}
	}
	if upper != nil && upper.Sign() > 0 {
		inv := new(big.Rat).Inv(upper)
		tau := new(big.Int).Quo(inv.Num(), inv.Denom()) // ⌊1/U⌋
		if new(big.Rat).SetInt(tau).Cmp(inv) < 0 {
			tau.Add(tau, big.NewInt(1)) // ⌈1/U⌉
		}
		if tau.IsInt64() && int(tau.Int64()) > lower {
			lower = int(tau.Int64())
		}
	}
	lower = min(lower, t.Len())
	return &Resilience{F: t.Len() - 1, Witness: t, Bounded: lower < t.Len(), Lower: lower - 1}, nil
}

// ResilienceOf computes the resilience of f exactly, through a smallest
// transversal (domination.MinTransversal, exponential in the worst case and
// cancelled by ctx).
func ResilienceOf(ctx context.Context, f *set.Family) (*Resilience, error) {
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return nil, err
	}
	t, err := domination.MinTransversal(ctx, f)
	if err != nil {
		return nil, err
	}
	return &Resilience{F: t.Len() - 1, Witness: t}, nil
}
