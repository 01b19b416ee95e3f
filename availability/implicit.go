package availability

import (
	"context"
	"fmt"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// computeImplicit returns the exact polynomial of an implicit family (a
// construction stored by its Kind and Params, without quorums) from the
// construction's recurrence: [TreePolynomial], [HQCPolynomial],
// [WallPolynomial] or [VotePolynomial]. Only the automatic method applies:
// the other methods need the quorums. The recurrences stop when ctx is
// done.
func computeImplicit(ctx context.Context, f *set.Family, opts Options) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opts.Method != MethodAuto {
		return nil, fmt.Errorf("availability: the %s method needs the quorums, and this %s family is implicit (defined by its parameters): leave the method automatic, or materialise the family first", opts.Method, f.Kind)
	}
	c, ok := describe(f)
	if !ok {
		return nil, fmt.Errorf("availability: implicit %s family with params %v over %d nodes: no recurrence for it", f.Kind, f.Params, f.N)
	}
	// The recurrences hold a few polynomials of n+1 coefficients of up to
	// n bits each: refuse what would not fit the memory budget.
	if need := 6 * int64(f.N+1) * (int64(f.N)/8 + 24); opts.MaxMemory > 0 && need > opts.MaxMemory {
		return nil, fmt.Errorf("availability: implicit %s family over %d nodes: its recurrence would hold about %d MiB, over the memory budget of %d MiB: %w",
			f.Kind, f.N, need>>20, opts.MaxMemory>>20, set.ErrMemoryBudget)
	}
	p, err := c.poly(ctx)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("availability: implicit %s family: %w", f.Kind, err)
	}
	if p.N != f.N {
		return nil, fmt.Errorf("availability: implicit %s family: the recurrence has %d nodes, the family %d", f.Kind, p.N, f.N)
	}
	return &Result{N: f.N, f: f, Exact: true, Method: MethodRecurrence, Poly: p}, nil
}

// explicitFamily returns f with its quorums listed: f itself unless it is
// implicit, else its construction's quorums when there are at most
// construct.ListLimit (a *construct.ListError, wrapping set.ErrTooMany,
// when more). Every function of this package but [Compute], which has
// the recurrences, lists an implicit family this way first.
func explicitFamily(ctx context.Context, f *set.Family) (*set.Family, error) {
	if !f.IsImplicit() {
		return f, nil
	}
	g, err := construct.Explicit(ctx, f, construct.ListLimit)
	if err != nil {
		return nil, fmt.Errorf("availability: %w", err)
	}
	return g, nil
}
