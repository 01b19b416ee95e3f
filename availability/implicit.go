package availability

import (
	"context"
	"errors"
	"fmt"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// computeImplicit returns the exact polynomial of an implicit family (a
// construction stored by its Kind and Params, without quorums) from the
// recurrence of its construction sys (see [recurrence]): [TreePolynomial],
// [HQCPolynomial], [WallPolynomial] or [VotePolynomial]. Only the
// automatic method applies: the other methods need the quorums. The
// recurrences stop when ctx is done.
func computeImplicit(ctx context.Context, f *set.Family, sys quorum.System, opts Options) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opts.Method != MethodAuto {
		// A method asked for runs on the quorums, listed by the
		// construction when there are not too many.
		g, err := explicitFamily(ctx, f)
		var le *construct.ListError
		if errors.As(err, &le) {
			return nil, fmt.Errorf("availability: the %s method needs the quorums; leave the method automatic: %w", opts.Method, le)
		}
		if err != nil {
			return nil, err
		}
		return compute(ctx, g, opts)
	}
	c, ok := catalogueOf(sys)
	if !ok {
		return nil, errNoRecurrence(f)
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

// typedForm returns f's typed form ([construct.Typed]) and whether it is
// a construction whose recurrence this package has (see [recurrence]):
// an implicit family, held by its parameters without its quorums. A
// listed family is never one, whatever kind it records. The error is the
// construction's refusal of an implicit family's parameters.
func typedForm(f *set.Family) (sys quorum.System, construction bool, err error) {
	sys, err = construct.Typed(f)
	if err != nil {
		return nil, false, err
	}
	return sys, recurrence(sys) != nil, nil
}

// errNoRecurrence is the refusal of an implicit family that no
// recurrence computes and that has too many quorums to list.
func errNoRecurrence(f *set.Family) error {
	return fmt.Errorf("availability: implicit %s family with params %v over %d nodes: no recurrence for it", f.Kind, f.Params, f.N)
}

// explicitFamily returns f with its quorums listed: f itself when it
// lists them or is a threshold family, else its construction's quorums
// when there are at most construct.ListLimit (a *construct.ListError,
// wrapping set.ErrTooMany, when more). Every function of this package but
// [Compute], which has the recurrences, lists an implicit family this way
// first.
func explicitFamily(ctx context.Context, f *set.Family) (*set.Family, error) {
	g, err := construct.Explicit(ctx, f, construct.ListLimit)
	if err != nil {
		return nil, fmt.Errorf("availability: %w", err)
	}
	return g, nil
}
