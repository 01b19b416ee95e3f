package analysis

import (
	"context"
	"math/big"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/rw"
)

// RWExact is the exact availability of reads, of writes and of both at
// once (a read quorum and a write quorum up together) at one p.
type RWExact struct {
	P                   float64
	Reads, Writes, Both *big.Rat
}

// NoExactMethodError reports that no exact method fits a read-write
// system (with its failure domains) within the limits; Err says why. Its
// message is Err's.
type NoExactMethodError struct{ Err error }

func (e *NoExactMethodError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *NoExactMethodError) Unwrap() error { return e.Err }

// ReadWriteExact returns the exact availability of reads, writes and both
// at each p of ps, under the failure domains t (nil for independent
// nodes; rw.NewDomainEvaluator), each node up with its own probability
// when it has one and with p otherwise; method is the method used. limit
// bounds the quorums a side may list and budget the size of the decision
// diagrams; when no exact method fits them the error is a
// *[NoExactMethodError]. It stops when ctx ends.
func ReadWriteExact(ctx context.Context, sys *rw.System, t *domain.Tree, ps []float64, limit, budget int) (method availability.Method, pts []RWExact, err error) {
	ev, err := rw.NewDomainEvaluator(ctx, sys, t, limit, budget)
	if err != nil {
		if ctx.Err() != nil {
			return "", nil, err
		}
		return "", nil, &NoExactMethodError{Err: err}
	}
	for _, p := range ps {
		probs := make([]*big.Rat, sys.N)
		for v := range probs {
			if x := sys.Nodes[v].P; x != nil {
				probs[v] = x
			} else {
				probs[v] = availability.DecimalRat(p)
			}
		}
		r, w, b, err := ev.At(ctx, probs)
		if err != nil {
			return "", nil, err
		}
		pts = append(pts, RWExact{P: p, Reads: r, Writes: w, Both: b})
	}
	return ev.Method, pts, nil
}
