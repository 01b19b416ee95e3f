package analysis

import (
	"context"
	"errors"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/rw"
)

// RWExactBudget is the BDD budget of the exact figures of a read-write
// system without failure domains that may fail, where they only add
// 1 − AV and "both" to what the sides' own methods give: small, so that a
// system too large for it costs little.
const RWExactBudget = 2_000_000

// Correlated reports whether some domain of t (nil: none) may fail, so
// that nodes do not fail independently.
func Correlated(t *domain.Tree) bool { return t.Fallible() }

// RWExactFigures is [ReadWriteExact] with the budget of the figures of a
// read-write system: budget under failure domains that may fail (the
// figures are then the only ones), at most [RWExactBudget] otherwise.
func RWExactFigures(ctx context.Context, sys *rw.System, t *domain.Tree, ps []float64, limit, budget int) (availability.Method, []RWExact, error) {
	if !Correlated(t) {
		budget = min(budget, RWExactBudget)
	}
	return ReadWriteExact(ctx, sys, t, ps, limit, budget)
}

// RWAvOptions control [RWAvailability]: the options of each side (its
// Override is ignored: the nodes' own probabilities are used) and the
// failure domains (nil: none).
type RWAvOptions struct {
	SideOptions
	Domains *domain.Tree
}

// RWAv is the availability of a read-write system's reads and writes.
type RWAv struct {
	// Correlated says some failure domain may fail: the sides' own
	// figures are then not computed (Reads and Writes are nil), and
	// Exact, which takes the domains into account, replaces them.
	Correlated bool
	// Reads and Writes are each side's availability with nodes failing
	// independently, each with its own probability when it has one.
	Reads, Writes *SideAv
	// Exact holds the exact availability of reads, writes and both at each
	// point, found by ExactMethod; nil when no exact method fits the
	// limits (NoExact says why; under correlated domains that is an
	// error instead).
	ExactMethod availability.Method
	Exact       []RWExact
	NoExact     error
	// ExactCurve are the exact figures at each p of Curve under
	// correlated domains (the sides' curves are in Reads and Writes
	// otherwise).
	ExactCurve []RWExact
}

// SideError is the failure of one side's figures in [RWAvailability]:
// Side is "reads" or "writes", Err the side's error (a *[FigureError]).
type SideError struct {
	Side string
	Err  error
}

func (e *SideError) Error() string { return e.Side + ": " + e.Err.Error() }

// Unwrap returns Err.
func (e *SideError) Unwrap() error { return e.Err }

// RWAvailability returns the availability of reads and of writes of sys
// at each p of ps, and the exact figures (reads, writes, both) where a
// method fits: the sides by [SideAvailability] (a side that fails is a
// *[SideError]), the exact figures by [RWExactFigures] with o.Budget
// (under correlated domains a *[NoExactMethodError] when none fits). It
// stops when ctx ends.
func RWAvailability(ctx context.Context, sys *rw.System, ps []float64, o RWAvOptions) (*RWAv, error) {
	out := &RWAv{Correlated: Correlated(o.Domains)}
	so := o.SideOptions
	so.Override = map[int]float64{}
	for v, nd := range sys.Nodes {
		if nd.P != nil {
			so.Override[v], _ = nd.P.Float64()
		}
	}
	if !out.Correlated {
		for _, side := range []struct {
			name string
			sd   *rw.Side
			dst  **SideAv
		}{{"reads", &sys.Reads, &out.Reads}, {"writes", &sys.Writes, &out.Writes}} {
			av, err := SideAvailability(ctx, sys, side.sd, ps, so)
			if err != nil {
				return nil, &SideError{Side: side.name, Err: err}
			}
			*side.dst = av
		}
	}
	method, pts, err := RWExactFigures(ctx, sys, o.Domains, ps, o.Limit, o.Budget)
	var ne *NoExactMethodError
	switch {
	case err == nil:
		out.ExactMethod, out.Exact = method, pts
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded), !errors.As(err, &ne), out.Correlated:
		return nil, err
	default:
		out.NoExact = ne.Err
	}
	if out.Correlated && len(o.Curve) > 0 {
		if _, out.ExactCurve, err = ReadWriteExact(ctx, sys, o.Domains, o.Curve, o.Limit, o.Budget); err != nil {
			return nil, err
		}
	}
	return out, nil
}
