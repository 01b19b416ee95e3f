package analysis

import (
	"context"
	"math/big"
	"time"

	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/rw"
	"github.com/coterie-dev/coterie/set"
)

// The figures of a read-write system, in the order [ReadWrite] computes
// them (after the Figures of a family).
const (
	ReadResilience   Figure = iota + 101 // the smallest transversal of the reads
	WriteResilience                      // the smallest transversal of the writes
	DomainResilience                     // failures of whole domains, level by level
	Intersection                         // every read quorum meets every write quorum, and writes meet writes
	Strategy                             // an optimal strategy, or the one given evaluated
)

// RWOptions control [ReadWrite].
type RWOptions struct {
	// Limit bounds the quorums a side may list (rw's list limit).
	Limit int
	// Domains are the failure domains of the nodes; nil for none.
	Domains *domain.Tree
	// Intersection checks that every read quorum meets every write quorum
	// (when neither side is the other's dual); WriteWrite whether every
	// two write quorums meet.
	Intersection, WriteWrite bool
	// Strategy, if not nil, asks for an optimal strategy under its
	// workload, limits and objective, within StrategyBudget (0: no
	// limit).
	Strategy       *rw.Options
	StrategyBudget time.Duration
	// Evaluate, with Strategy, is a strategy to evaluate under
	// Strategy.Workload instead of finding an optimal one.
	Evaluate *rw.Strategy
	// StrategyOptional makes a strategy not found (none meets the limits,
	// the budget ran out, a side too large) RW.StrategyErr rather than an
	// error; the context's end is still an error.
	StrategyOptional bool
	// Points are the p at which the availability of reads and of writes
	// is given; none when empty. AvailabilityTime bounds the exact search
	// on each side (0: no bound; past it the value is estimated).
	Points           []float64
	AvailabilityTime time.Duration
	// Progress, if not nil, is told each stage as it starts:
	// "intersection", "resilience", "domain resilience", "load" (the
	// strategy), "availability".
	Progress set.Progress
}

// DomainLevel is the resilience of a read-write system to failures of
// whole domains of one level.
type DomainLevel struct {
	Level       int
	Read, Write domain.Resilience
}

// DomainMissing is a level of the domains whose resilience was not
// computed (a side too large to list), and why.
type DomainMissing struct {
	Level int
	Err   error
}

// RW is the figures of a read-write system.
type RW struct {
	Sys *rw.System
	// ReadQuorums and WriteQuorums count each side's quorums; nil when not
	// known without listing them.
	ReadQuorums, WriteQuorums *big.Int
	// Read and Write are the resilience of each side, with a smallest set
	// of nodes whose failure stops it.
	Read, Write rw.Resilience
	// Domains holds each level of RWOptions.Domains computed, Missing the
	// others.
	Domains []DomainLevel
	Missing []DomainMissing
	// Intersection is the read-write check (nil when one side is the
	// other's dual, which meets it by construction, or when it failed:
	// IntersectionErr says why); WriteWrite the write-write check (nil
	// when it could not be made).
	Intersection    *rw.Intersection
	IntersectionErr error
	WriteWrite      *rw.Intersection
	// Strategy and Metrics are the optimal (or evaluated) strategy and
	// its figures, with RWOptions.Strategy.
	Strategy *rw.Strategy
	Metrics  *rw.Metrics
	// StrategyErr is why no strategy was found, with
	// RWOptions.StrategyOptional.
	StrategyErr error
	// Availability is the availability of reads and of writes at each
	// point.
	Availability []rw.AvPoint
}

// ReadWrite returns the figures of the read-write system sys. A figure
// that cannot be had is a *[FigureError] naming it (a domain level too
// large to list and an intersection that cannot be checked are not: they
// are in RW.Missing and RW.IntersectionErr). It stops when ctx ends.
func ReadWrite(ctx context.Context, sys *rw.System, o RWOptions) (*RW, error) {
	stage := func(name string) {
		if o.Progress != nil {
			o.Progress(name, 0, -1)
		}
	}
	fail := func(f Figure, err error) (*RW, error) { return nil, &FigureError{Figure: f, Err: err} }
	r := &RW{Sys: sys}
	for _, side := range []struct {
		sd  *rw.Side
		dst **big.Int
	}{{&sys.Reads, &r.ReadQuorums}, {&sys.Writes, &r.WriteQuorums}} {
		if side.sd.List != nil {
			*side.dst = side.sd.List.Count()
		} else if c, ok := side.sd.Expr.Count(); ok {
			*side.dst = c
		}
	}
	if o.Intersection && !sys.WritesDerived && !sys.ReadsDerived {
		stage("intersection")
		res, err := sys.ReadWrite(ctx, o.Limit)
		if err == nil {
			r.Intersection = &res
		} else {
			r.IntersectionErr = err
		}
	}
	var err error
	stage("resilience")
	if r.Read, err = sys.ReadResilience(ctx); err != nil {
		return fail(ReadResilience, err)
	}
	if r.Write, err = sys.WriteResilience(ctx); err != nil {
		return fail(WriteResilience, err)
	}
	if t := o.Domains; t != nil {
		stage("domain resilience")
		for l := 1; l <= t.Depth(); l++ {
			rd, wr, err := sys.DomainResilience(ctx, t, l, o.Limit)
			if ctx.Err() != nil {
				return fail(DomainResilience, ctx.Err())
			}
			if err != nil {
				r.Missing = append(r.Missing, DomainMissing{Level: l, Err: err})
				continue
			}
			r.Domains = append(r.Domains, DomainLevel{Level: l, Read: rd, Write: wr})
		}
	}
	if o.WriteWrite {
		if ww, err := sys.WriteWrite(ctx, o.Limit); err == nil {
			r.WriteWrite = &ww
		}
	}
	if o.Strategy != nil {
		stage("load")
		if o.Evaluate != nil {
			r.Strategy = o.Evaluate
			r.Metrics, err = sys.Evaluate(o.Evaluate, o.Strategy.Workload)
		} else {
			sctx, cancel := ctx, context.CancelFunc(func() {})
			if o.StrategyBudget > 0 {
				sctx, cancel = context.WithTimeout(ctx, o.StrategyBudget)
			}
			r.Strategy, r.Metrics, err = sys.Optimal(sctx, *o.Strategy)
			cancel()
		}
		switch {
		case err == nil:
		case o.StrategyOptional && ctx.Err() == nil:
			r.Strategy, r.Metrics, r.StrategyErr = nil, nil, err
		default:
			return fail(Strategy, err)
		}
	}
	if len(o.Points) > 0 {
		stage("availability")
		if r.Availability, err = sys.AvailabilityAt(ctx, o.Points, rw.AvailabilityOptions{Limit: o.Limit, Time: o.AvailabilityTime}); err != nil {
			return fail(Availability, err)
		}
	}
	return r, nil
}
