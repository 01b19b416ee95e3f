package availability

import (
	"context"
	"fmt"

	"github.com/coterie-dev/coterie/set"
)

// computeImplicit returns the exact polynomial of an implicit family (a
// construction stored by its Kind and Params, without quorums) from the
// construction's recurrence: [TreePolynomial], [HQCPolynomial],
// [WallPolynomial] or [VotePolynomial]. Only the automatic method applies:
// the other methods need the quorums. The recurrences take no context: a
// cancelled ctx is honoured before they start and when they end.
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
	// The recurrences do not look at ctx; they run where a cancelled
	// computation can be left behind (it only touches its own values, and
	// ends with the process).
	type answer struct {
		p   *Polynomial
		err error
	}
	done := make(chan answer, 1)
	go func() {
		p, err := c.poly()
		done <- answer{p, err}
	}()
	var p *Polynomial
	var err error
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case a := <-done:
		p, err = a.p, a.err
	}
	if err != nil {
		return nil, fmt.Errorf("availability: implicit %s family: %w", f.Kind, err)
	}
	if p.N != f.N {
		return nil, fmt.Errorf("availability: implicit %s family: the recurrence has %d nodes, the family %d", f.Kind, p.N, f.N)
	}
	return &Result{N: f.N, f: f, Exact: true, Method: MethodRecurrence, Poly: p}, nil
}
